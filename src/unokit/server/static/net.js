// Talking to the server (docs/protocol.md, the one contract): POST /api/rooms, /join and
// /start over HTTP, and one WebSocket at /ws/{code} whose first message is
// {"type": "hello", "token"?}; after every change of the match it sends the pair `events` +
// `state`. The rest of the client sees
//   room  {code, status, you, host, settings: {edition, players, options, ...}, seats: [...], spectators}
//   game  {version, events, view, replay, deadline}

import { Tokens } from "./store.js";

export class ServerError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

const sleep = (ms) => new Promise((resolve) => window.setTimeout(resolve, ms));

/** The error code of an HTTP status with no error body (a proxy's page, say). */
function codeOfStatus(status) {
  if (status === 404 || status === 410) return "not_found";
  if (status === 401 || status === 403) return "unauthorized";
  if (status === 409) return "illegal";
  if (status === 413) return "too_large";
  if (status === 429 || status === 503) return "rate_limited";
  if (status >= 500) return "server_error";
  return "malformed";
}

async function request(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    for (let attempt = 0; ; attempt += 1) {
      res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      if (res.status !== 429 || attempt >= 3) break;
      // Too many requests from this address: wait a moment, then try again.
      const wait = Number(res.headers.get("Retry-After"));
      await sleep(Number.isFinite(wait) && wait > 0 ? Math.min(wait, 10) * 1000 : 2000);
    }
  } catch (_err) {
    throw new ServerError("network", "no connection");
  }
  let data = null;
  try {
    data = await res.json();
  } catch (_err) {
    data = null;
  }
  if (!res.ok) {
    const err = data && typeof data === "object" && data.type === "error" ? data : null;
    const error = new ServerError(err ? err.code : codeOfStatus(res.status), (err && err.message) || res.statusText);
    error.status = res.status;
    throw error;
  }
  return data;
}

export async function getJSON(path) {
  return request("GET", path);
}

/** The server's configuration for the new-room form (GET /api/config), or null. */
export async function getConfig() {
  try {
    return await request("GET", "/api/config");
  } catch (_err) {
    return null;
  }
}

/** The public rooms for the lobby (GET /api/rooms): a list, empty when none or on an error. */
export async function listRooms() {
  try {
    const data = await request("GET", "/api/rooms");
    return ((data && data.rooms) || []).filter((r) => r && r.code);
  } catch (_err) {
    return [];
  }
}

/** The rules help of an edition in a language: Markdown text. */
export async function getRules(lang, edition) {
  const data = await request("GET", `/api/rules/${lang}/${edition}`);
  return data.markdown || [data.edition_markdown, data.rules_markdown].filter(Boolean).join("\n\n");
}

// ---------------------------------------------------------------------- the messages

function normRoom(msg) {
  const settings = { ...(msg.settings || {}) };
  const seats = (msg.seats || []).map((s, i) => ({
    seat: typeof s.seat === "number" ? s.seat : i,
    kind: s.kind || "open",
    name: s.name ?? null,
    bot: s.bot ?? null,
    connected: Boolean(s.connected),
    away: Boolean(s.away),
    ready: Boolean(s.ready),
  }));
  if (!settings.players) settings.players = seats.length;
  return {
    code: msg.code,
    status: msg.status || "lobby",
    you: typeof msg.you === "number" ? msg.you : null,
    host: typeof msg.host === "number" ? msg.host : null,
    settings,
    seats,
    spectators: msg.spectators || 0,
    closed_reason: msg.closed_reason || null,
  };
}

// ---------------------------------------------------------------------- the connection

/**
 * One connection to one room. Handlers: onRoom(room), onGame(game), onChat(msg),
 * onChatHistory(list), onError(ServerError), onLeft(reason),
 * onStatus("connecting" | "open" | "closed").
 */
export class Connection {
  constructor(code, handlers) {
    this.code = code;
    this.h = handlers;
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.pendingEvents = null;
    this.pendingReplay = false;
    this.welcomed = false;
    this.again = null; // the timer of the next try
    this.quietUntil = 0;
  }

  /** Take the seat whose token is stored, or watch. */
  open() {
    this.connect();
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${window.location.host}/ws/${encodeURIComponent(this.code)}`;
  }

  connect() {
    if (this.closed) return;
    this.status("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      this.retry = 0;
      this.welcomed = false;
      this.pendingEvents = null;
      this.pendingReplay = false;
      this.quietUntil = 0;
      this.status("open");
      this.hello();
    });
    ws.addEventListener("message", (ev) => {
      if (this.ws !== ws) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (_err) {
        return;
      }
      this.receive(msg);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.status("closed");
      if (this.closed) return;
      // The server is down or restarting, or the network went away: try again, more slowly.
      const wait = Math.min(500 * 2 ** this.retry, 5000);
      this.retry += 1;
      window.clearTimeout(this.again);
      this.again = window.setTimeout(() => this.connect(), wait);
    });
  }

  /**
   * The page is in view again (visibilitychange) after `away` ms: a phone may have dropped its
   * socket in the background, or left it open but dead. Reconnect now rather than at the next
   * try, and silently: the status shows only if it takes more than a few seconds.
   */
  wake(away) {
    if (this.closed) return;
    const state = this.ws ? this.ws.readyState : WebSocket.CLOSED;
    if (state === WebSocket.CONNECTING || (state === WebSocket.OPEN && away < 10000)) return;
    window.clearTimeout(this.again);
    this.retry = 0;
    this.quietUntil = Date.now() + 3000;
    window.setTimeout(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) this.status("connecting");
    }, 3100);
    this.reconnect();
  }

  /** Tell the page the connection's status (not while a silent reconnect is under way). */
  status(what) {
    if (what !== "open" && this.quietUntil && Date.now() < this.quietUntil) return;
    if (this.h.onStatus) this.h.onStatus(what);
  }

  hello(spectator = false) {
    const saved = spectator ? null : Tokens.get(this.code);
    this.sendRaw(saved ? { type: "hello", token: saved.token } : { type: "hello" });
  }

  receive(msg) {
    const h = this.h;
    switch (msg.type) {
      case "room":
        this.welcomed = true;
        h.onRoom && h.onRoom(normRoom(msg));
        break;
      case "events":
        // The events of one change; its state follows at once (never merged with it).
        this.pendingEvents = (this.pendingEvents || []).concat(msg.events || []);
        this.pendingReplay = Boolean(msg.replay) || this.pendingReplay;
        break;
      case "state": {
        const events = this.pendingEvents || [];
        const replay = this.pendingReplay;
        this.pendingEvents = null;
        this.pendingReplay = false;
        h.onGame && h.onGame({
          version: msg.version, events, view: msg.view, replay, deadline: msg.deadline ?? null,
        });
        break;
      }
      case "chat":
        h.onChat && h.onChat(msg);
        break;
      case "chat_history":
        h.onChatHistory && h.onChatHistory(msg.messages || []);
        break;
      case "error": {
        const err = new ServerError(msg.code, msg.message);
        err.hello = !this.welcomed; // the answer to hello: nothing was entered
        if (msg.code === "unauthorized" && err.hello && Tokens.get(this.code)) {
          // The stored token is not one of the room's seats (the seat was given away):
          // forget it and watch instead, on the same socket (no hello was accepted yet).
          Tokens.drop(this.code);
          this.hello(true);
          break;
        }
        h.onError && h.onError(err);
        break;
      }
      case "left":
        if (msg.reason === "kicked" || msg.reason === "left") Tokens.drop(this.code);
        h.onLeft && h.onLeft(msg.reason);
        this.close();
        break;
      default:
        break;
    }
  }

  sendRaw(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  /** Take `action` (notation), chosen on the view of `version`. */
  act(action, version) {
    if (!Number.isInteger(version)) return false;
    return this.sendRaw({ type: "act", action, version });
  }

  chat(text) {
    return this.sendRaw({ type: "chat", text });
  }

  ready() {
    return this.sendRaw({ type: "ready" });
  }

  /** Close this socket and open a new one (e.g. after taking a seat). */
  reconnect() {
    const ws = this.ws;
    this.ws = null;
    this.welcomed = false;
    if (ws) ws.close();
    this.connect();
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
    this.ws = null;
  }

  // ------------------------------------------------------------ the host's and the seats' requests

  /** Take an open seat under `name`; then say hello again with its token. */
  async join(name) {
    const data = await request("POST", `/api/rooms/${encodeURIComponent(this.code)}/join`, { name });
    Tokens.set(this.code, { seat: data.seat, token: data.token });
    this.reconnect();
    return data;
  }

  /** The host starts the match (a room never starts by itself). */
  async start() {
    const saved = Tokens.get(this.code);
    return request("POST", `/api/rooms/${encodeURIComponent(this.code)}/start`, {}, saved && saved.token);
  }

  kick(seat) {
    return this.sendRaw({ type: "kick", seat });
  }

  /** The host swaps what sits at `seat` and at `to`. */
  move(seat, to) {
    return this.sendRaw({ type: "move", seat, to });
  }

  /** The host gives `seat` to a bot. */
  replaceByBot(seat, bot) {
    return this.sendRaw({ type: "bot", seat, bot });
  }

  rematch() {
    return this.sendRaw({ type: "rematch" });
  }

  leave() {
    return this.sendRaw({ type: "leave" });
  }

  /** You are back: no bot plays for you any more. */
  back() {
    return this.sendRaw({ type: "back" });
  }
}

/**
 * Make a room (POST /api/rooms). `form` is what the new-room form holds: {name (yours),
 * edition, players, bots: [for seats 1..n-1: a bot name or null], options, public, bot_delay,
 * reaction, between_rounds, turn_timeout, and (a --dev server) seed, deal, forget_uno}. Keeps the seat's
 * token; answers {code, seat, token}.
 */
export async function createRoom(form) {
  const body = { name: form.name, edition: form.edition, players: form.players, bots: form.bots, options: form.options };
  for (const key of ["public", "bot_delay", "reaction", "between_rounds", "turn_timeout", "seed", "deal", "forget_uno"]) {
    if (form[key] !== undefined && form[key] !== null && form[key] !== "") body[key] = form[key];
  }
  const data = await request("POST", "/api/rooms", body);
  Tokens.set(data.code, { seat: data.seat, token: data.token });
  return { code: data.code, seat: data.seat, token: data.token };
}
