// What the browser keeps: each room's seat token (in localStorage, keyed by the room code;
// never in a URL) and the display name last used.

const PREFIX = "unokit.seat.";

function storage() {
  try {
    return window.localStorage;
  } catch (_err) {
    return null;
  }
}

const memory = new Map();

export const Tokens = {
  get(code) {
    const key = PREFIX + String(code).toUpperCase();
    const store = storage();
    const raw = store ? store.getItem(key) : memory.get(key);
    if (!raw) return null;
    try {
      const data = JSON.parse(raw);
      return data && typeof data.token === "string" ? data : null;
    } catch (_err) {
      return null;
    }
  },
  set(code, data) {
    const key = PREFIX + String(code).toUpperCase();
    const raw = JSON.stringify({ seat: data.seat, token: data.token });
    const store = storage();
    if (store) store.setItem(key, raw);
    else memory.set(key, raw);
  },
  drop(code) {
    const key = PREFIX + String(code).toUpperCase();
    const store = storage();
    if (store) store.removeItem(key);
    memory.delete(key);
  },
};

export function savedName() {
  const store = storage();
  return (store && store.getItem("unokit.name")) || "";
}

export function saveName(name) {
  const store = storage();
  if (store) store.setItem("unokit.name", name);
}
