// A room before its match starts: its code and link, the seats (with the host's controls:
// move, kick, give to a bot, change a bot's level or open its seat for a person), the join
// form and the start button. `page` is the RoomPage.

import { _, format } from "./i18n.js";
import { botChoice, botLabel, botNames, defaultBot, editionTitle, limit } from "./config.js";
import { h, replaceChildren } from "./dom.js";
import { saveName, savedName } from "./store.js";
import { seatName } from "./teller.js";
import { errorText, points, toast } from "./ui.js";

/** Draw the room's lobby into its section. */
export function drawLobby(page) {
  const room = page.room;
  const me = page.seat();
  if (!room) {
    replaceChildren(page.el.lobby, h("h2", { id: "room-title", text: format(_("Room {code}"), { code: page.code }) }),
      h("p", { class: "muted", text: _("Connecting…") }));
    return;
  }
  const link = `${window.location.origin}/r/${room.code}`;
  const linkInput = h("input", { id: "room-link", readonly: true, value: link, "aria-label": _("Link to this room") });
  const copy = h("button", {
    type: "button", class: "btn", text: _("Copy the link"),
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
        toast(_("The link is copied: send it to your friends."));
      } catch (_err) {
        linkInput.select();
      }
    },
  });
  const settings = room.settings || {};
  const summary = [editionTitle(settings.edition),
    format(_("{n} players"), { n: settings.players || room.seats.length })];
  const options = settings.options || {};
  if (options.target) summary.push(format(_("Target: {target} points"), { target: points(options.target) }));
  const rows = room.seats.map((s) => seatRow(page, s, me));
  const parts = [
    h("h2", { id: "room-title", text: format(_("Room {code}"), { code: room.code }) }),
    h("p", { class: "muted", text: summary.join(" · ") }),
    h("div", { class: "inline-form" }, linkInput, copy),
    h("h3", { text: _("Seats") }),
    h("ul", { class: "seat-list", id: "seat-list" }, rows),
  ];
  if (room.status === "closed") parts.push(h("p", { class: "fatal", text: _("This room is closed.") }));
  if (me === null && room.status === "lobby") parts.push(joinForm(page, room));
  if (me !== null && page.isHost() && room.status === "lobby") {
    parts.push(h("button", {
      type: "button", class: "btn btn-primary", id: "start-match", text: _("Start the match"),
      onclick: async () => {
        try {
          await page.conn.start();
        } catch (err) {
          toast(err.code === "illegal" ? _("The match has already started.") : errorText(err));
        }
      },
    }));
    parts.push(h("p", { class: "muted", text: _("Seats still open when you start are given to bots.") }));
  } else if (me !== null && room.status === "lobby") {
    parts.push(h("p", { class: "muted", text: _("Waiting for the host to start the match…") }));
  }
  replaceChildren(page.el.lobby, parts);
}

function seatRow(page, s, me) {
  const host = page.isHost() && page.room.status === "lobby";
  let who;
  if (s.kind === "open") who = _("open seat");
  else if (s.kind === "bot") who = botLabel(s.bot);
  else who = s.name || "?";
  const badges = [];
  if (s.seat === page.room.host) badges.push(h("span", { class: "badge", text: _("host") }));
  if (s.seat === me) badges.push(h("span", { class: "badge badge-you", text: _("you") }));
  if (s.away) badges.push(h("span", { class: "badge badge-off", text: _("a bot plays for them") }));
  else if (s.kind === "human" && !s.connected) badges.push(h("span", { class: "badge badge-off", text: _("away") }));
  const controls = [];
  if (host && s.seat !== me) {
    const label = seatName(s.seat);
    if (s.seat > 0) {
      controls.push(h("button", {
        type: "button", class: "btn btn-small", "aria-label": format(_("Move {who} up"), { who: label }), text: "↑",
        onclick: () => page.conn.move(s.seat, s.seat - 1),
      }));
    }
    if (s.seat < page.room.seats.length - 1) {
      controls.push(h("button", {
        type: "button", class: "btn btn-small", "aria-label": format(_("Move {who} down"), { who: label }), text: "↓",
        onclick: () => page.conn.move(s.seat, s.seat + 1),
      }));
    }
    if (s.kind === "human") {
      controls.push(h("button", {
        type: "button", class: "btn btn-small", text: _("Kick"), "aria-label": format(_("Kick {who}"), { who: label }),
        onclick: () => page.conn.kick(s.seat),
      }));
    }
    if (s.kind !== "bot") {
      const select = h("select", { "aria-label": format(_("Bot for {who}"), { who: label }), class: "bot-select" },
        botNames().map((b) => h("option", { value: b, selected: b === defaultBot(), text: botChoice(b) })));
      controls.push(select, h("button", {
        type: "button", class: "btn btn-small", text: _("Give to a bot"),
        "aria-label": format(_("Give {who} to a bot"), { who: label }),
        onclick: () => page.conn.replaceByBot(s.seat, select.value),
      }));
    } else {
      const level = h("select", {
        "aria-label": format(_("Level of {who}"), { who: label }), class: "bot-select",
        onchange: () => page.conn.replaceByBot(s.seat, level.value),
      }, botNames().map((b) => h("option", { value: b, selected: b === s.bot, text: botChoice(b) })));
      controls.push(level, h("button", {
        type: "button", class: "btn btn-small", text: _("Open for a person"),
        "aria-label": format(_("Open {who} for a person"), { who: label }),
        onclick: () => page.conn.replaceByBot(s.seat, null),
      }));
    }
  }
  return h("li", { class: `seat-row kind-${s.kind}`, dataset: { seat: String(s.seat) } },
    h("span", { class: "seat-num", text: seatName(s.seat) }),
    h("bdi", { class: "seat-name", text: who }),
    badges,
    controls.length ? h("span", { class: "seat-controls" }, controls) : null);
}

function joinForm(page, room) {
  const open = room.seats.some((s) => s.kind === "open");
  if (!open) return h("p", { class: "muted", text: _("You are watching: every seat is taken.") });
  const input = h("input", { id: "join-name", name: "name", required: true, maxlength: limit("name_chars"), autocomplete: "nickname", value: savedName() });
  const error = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: "join-form", id: "join-form" },
    h("label", { for: "join-name", text: _("Your name") }),
    input,
    h("button", { type: "submit", class: "btn btn-primary", id: "join-button", text: _("Take a seat") }),
    error,
    h("p", { class: "muted", text: _("Until you take a seat you are watching.") }));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name || name.length > limit("name_chars")) {
      error.textContent = _("Your name must have 1 to 24 characters.");
      return;
    }
    saveName(name);
    try {
      await page.conn.join(name);
    } catch (err) {
      error.textContent = err.code === "illegal" ? _("No seat is free in this room.") : errorText(err);
    }
  });
  return form;
}
