// The front page: the public rooms, a room link to open, and the new-room form (edition,
// players, which seats are bots, every option and house rule, and the room's settings).

import { _, format } from "./i18n.js";
import { h, replaceChildren } from "./dom.js";
import { botChoice, botNames, defaultBot, editionNames, editionTitle, limit, playerRange, serverConfig, serverDefault } from "./config.js";
import { createRoom, listRooms } from "./net.js";
import { saveName, savedName } from "./store.js";
import { errorText, navigate, toast } from "./ui.js";

/** The options of `group` ("match" or "house"), as GET /api/config describes them, in its order. */
function optionSpecs(group) {
  return Object.entries(serverConfig().options || {}).filter(([, spec]) => spec.group === group);
}

/** The lobby page. */
export async function showLobby(main) {
  const config = serverConfig();
  const rooms = h("section", { class: "panel", "aria-labelledby": "rooms-title" });
  const form = newRoomForm(config);
  const joinBox = h("section", { class: "panel", "aria-labelledby": "open-title" },
    h("h2", { id: "open-title", text: _("Open a room") }),
    h("form", {
      class: "inline-form",
      onsubmit: (ev) => {
        ev.preventDefault();
        const input = ev.target.querySelector("input");
        const code = input.value.trim().replace(/^.*\/r\//, "");
        if (code) navigate(`/r/${encodeURIComponent(code)}`);
      },
    },
    h("label", { for: "room-code", text: _("Room code or link") }),
    h("input", { id: "room-code", name: "code", autocomplete: "off", required: true, maxlength: 256 }),
    h("button", { type: "submit", class: "btn", text: _("Open") })));
  replaceChildren(main,
    h("div", { class: "lobby" },
      h("div", { class: "lobby-side" }, rooms, joinBox),
      form));
  await fillRooms(rooms);
}

async function fillRooms(section) {
  const list = await listRooms();
  const items = list.map((room) => {
    const edition = editionTitle(room.edition);
    const players = room.players || (room.seats ? room.seats.length : "?");
    const free = room.open_seats ?? null;
    const line = [room.code, edition, format(_("{n} players"), { n: players })];
    if (free !== null) line.push(format(_("{n} open seats"), { n: free }));
    if (room.host_name) line.push(String(room.host_name));
    return h("li", {},
      h("a", { href: `/r/${encodeURIComponent(room.code)}`, class: "room-link", "data-code": room.code }, line.join(" · ")));
  });
  replaceChildren(section,
    h("h2", { id: "rooms-title", text: _("Public rooms") }),
    items.length ? h("ul", { class: "room-list" }, items) : h("p", { class: "muted", text: _("No public room is open now. Make one!") }));
}

function field(label, control, hint) {
  const id = control.id;
  return h("div", { class: "field" }, h("label", { for: id, text: label }), control, hint ? h("small", { class: "muted", text: hint }) : null);
}

/** One option's control: its name and default from the server, its label in the catalogues. */
function optionControl([name, spec]) {
  const { type: kind, default: def } = spec;
  const id = `opt-${name}`;
  const label = _(spec.label);
  if (kind === "bool") {
    return h("div", { class: "field check" },
      h("input", { type: "checkbox", id, name, checked: def, dataset: { option: name, kind } }),
      h("label", { for: id, text: label }));
  }
  if (kind === "choice") {
    const labels = spec.choice_labels || {};
    return field(label, h("select", { id, name, dataset: { option: name, kind } },
      spec.choices.map((v) => h("option", { value: v, selected: v === def, text: _(labels[v] || v) }))));
  }
  return field(label, h("input", {
    type: "number", id, name, value: String(def), min: spec.min, max: spec.max, step: kind === "int" ? 1 : "any",
    required: true, dataset: { option: name, kind },
  }));
}

function seatRows(container, players, previous) {
  const rows = [];
  for (let seat = 1; seat < players; seat += 1) {
    const id = `seat-${seat}`;
    const current = previous[seat] ?? (seat === 1 ? "human" : defaultBot());
    rows.push(h("div", { class: "field seat-field" },
      h("label", { for: id, text: format(_("Player {n}"), { n: seat + 1 }) }),
      h("select", { id, name: id, dataset: { seat: String(seat) } },
        h("option", { value: "human", selected: current === "human", text: _("A person (a friend joins by the link)") }),
        botNames().map((b) => h("option", { value: b, selected: current === b, text: botChoice(b) })))));
  }
  replaceChildren(container, rows);
}

function roomSettings(dev) {
  const seconds = (id, name, min, max, value) => h("input", { type: "number", id, name, min, max, step: "any", value });
  return h("details", { class: "options" },
    h("summary", { text: _("Room settings") }),
    h("div", { class: "options-grid" },
      h("div", { class: "field check" },
        h("input", { type: "checkbox", id: "public", name: "public" }),
        h("label", { for: "public", text: _("Public: listed in the lobby") })),
      field(_("Seconds a bot waits before it acts"),
        seconds("bot-delay", "bot_delay", 0, limit("bot_delay_max"), serverDefault("bot_delay"))),
      field(_("Seconds no bot acts while you may call UNO or catch one"),
        seconds("reaction", "reaction", 0, limit("reaction_max"), serverDefault("reaction"))),
      field(_("Seconds between rounds"),
        seconds("between-rounds", "between_rounds", 0, limit("between_rounds_max"), serverDefault("between_rounds"))),
      field(_("Seconds a player may think (empty: no limit)"),
        seconds("turn-timeout", "turn_timeout", limit("turn_timeout_min"), limit("turn_timeout_max"), null)),
      dev ? field(_("Seed (a development server only)"), h("input", { type: "number", id: "seed", name: "seed", step: 1 })) : null));
}

/** What the new-room form asks for, as createRoom takes it. */
function roomRequest(form, name, dev) {
  const players = Number(form.querySelector("#players").value);
  const bots = [];
  for (let seat = 1; seat < players; seat += 1) {
    const sel = form.querySelector(`#seat-${seat}`);
    bots.push(sel && sel.value !== "human" ? sel.value : null);
  }
  const options = {};
  for (const el of form.querySelectorAll("[data-option]")) {
    const optName = el.dataset.option;
    if (el.dataset.kind === "bool") options[optName] = el.checked;
    else if (el.dataset.kind === "choice") options[optName] = el.value;
    else options[optName] = Number(el.value);
  }
  const num = (id) => {
    const el = form.querySelector(id);
    return el && el.value !== "" ? Number(el.value) : null;
  };
  const request = {
    name, edition: form.querySelector("#edition").value, players, bots, options,
    public: form.querySelector("#public").checked,
    bot_delay: num("#bot-delay") ?? serverDefault("bot_delay"),
    reaction: num("#reaction") ?? serverDefault("reaction"),
    between_rounds: num("#between-rounds") ?? serverDefault("between_rounds"),
    turn_timeout: num("#turn-timeout"),
  };
  if (dev && num("#seed") !== null) request.seed = num("#seed");
  return request;
}

async function submitRoom(form, nameInput, status, dev) {
  status.textContent = "";
  const name = nameInput.value.trim();
  if (!name || name.length > limit("name_chars")) {
    status.textContent = _("Your name must have 1 to 24 characters.");
    nameInput.focus();
    return;
  }
  if (!form.reportValidity()) return;
  const request = roomRequest(form, name, dev);
  saveName(name);
  const button = form.querySelector("#create-room");
  button.disabled = true;
  try {
    const made = await createRoom(request);
    navigate(`/r/${encodeURIComponent(made.code)}`);
  } catch (err) {
    status.textContent = errorText(err);
    toast(errorText(err));
  } finally {
    button.disabled = false;
  }
}

function newRoomForm(config) {
  const dev = Boolean(config && config.dev);
  const range = playerRange();
  const seatsBox = h("div", { class: "seats-grid", id: "seat-kinds" });
  const playersInput = h("input", { type: "number", id: "players", name: "players", min: range.min, max: range.max, value: "3", required: true });
  const remembered = {};
  const redrawSeats = () => {
    for (const sel of seatsBox.querySelectorAll("select")) remembered[Number(sel.dataset.seat)] = sel.value;
    const n = Math.max(range.min, Math.min(range.max, Number(playersInput.value) || range.min));
    seatRows(seatsBox, n, remembered);
  };
  playersInput.addEventListener("input", redrawSeats);
  const nameInput = h("input", { id: "your-name", name: "name", required: true, maxlength: limit("name_chars"), minlength: 1, autocomplete: "nickname", value: savedName() });
  const status = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: "panel new-room", id: "new-room", "aria-labelledby": "new-room-title", novalidate: false },
    h("h2", { id: "new-room-title", text: _("New room") }),
    field(_("Your name"), nameInput, _("1 to 24 characters, shown to the other players")),
    field(_("Edition"), h("select", { id: "edition", name: "edition" },
      editionNames().map((e) => h("option", { value: e, text: editionTitle(e) })))),
    field(_("Players"), playersInput, _("2 to 10; you are Player 1")),
    h("fieldset", {}, h("legend", { text: _("Who sits at each seat") }), seatsBox),
    h("details", { class: "options" },
      h("summary", { text: _("Options") }),
      h("div", { class: "options-grid" }, optionSpecs("match").map(optionControl))),
    h("details", { class: "options" },
      h("summary", { text: _("House rules") }),
      h("div", { class: "options-grid" }, optionSpecs("house").map(optionControl))),
    roomSettings(dev),
    status,
    h("button", { type: "submit", class: "btn btn-primary", id: "create-room", text: _("Create the room") }));
  seatRows(seatsBox, 3, remembered);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    submitRoom(form, nameInput, status, dev);
  });
  return form;
}
