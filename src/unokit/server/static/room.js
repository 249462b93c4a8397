// A room: before the start its seats (with the host's controls) and the join form; from the
// first deal the table — the opponents, the piles, your hand, every decision as a button and
// a key, the move log, the hands you have seen, the scores, the chat — and between rounds the
// score table. Everything drawn comes from the server's messages for this connection.

import { _, format, ngettext } from "./i18n.js";
import { cardBack, cardElement, cardName, colorLetter, colorName, COLORS, isWild, parseAction, sortedHand } from "./cards.js";
import { focusKey, h, replaceChildren, restoreFocus } from "./dom.js";
import { Connection, getJSON } from "./net.js";
import { saveName, savedName, Tokens } from "./store.js";
import { seatName, Teller } from "./teller.js";
import { closedText, errorText, navigate, toast } from "./ui.js";
import { BOTS, botChoice, botLabel, EDITION_TITLES } from "./lobby.js";

const COLOR_KEYS = { r: "R", y: "Y", g: "G", b: "B" };
const MAX_LOG = 300;
const MAX_CHAT = 200;

function num(x) {
  return Number.isInteger(x) ? String(x) : String(Number(Number(x).toPrecision(6)));
}

export class RoomPage {
  constructor(main, code) {
    this.main = main;
    this.code = code.toUpperCase();
    this.room = null;
    this.view = null;
    this.version = null;
    this.teller = null;
    this.log = [];
    this.chat = [];
    this.armedUno = false;
    this.choosing = null; // the wild card whose colour is being chosen
    this.sending = false;
    this.readySent = null;
    this.lastRound = null; // the last RoundEnded event
    this.winners = null;
    this.status = "connecting";
    this.anim = { discard: false, seats: new Set(), hand: new Set() };
    this.onKey = (ev) => this.key(ev);
  }

  // ------------------------------------------------------------------ life

  start() {
    this.build();
    document.addEventListener("keydown", this.onKey);
    this.conn = new Connection(this.code, {
      onRoom: (room) => this.gotRoom(room),
      onGame: (game) => this.gotGame(game),
      onChat: (msg) => this.gotChat(msg),
      onChatHistory: (list) => {
        this.chat = [];
        for (const msg of list) this.gotChat(msg, false);
        this.drawChat();
      },
      onError: (err) => this.gotError(err),
      onLeft: (reason) => this.gotLeft(reason),
      onStatus: (status) => {
        this.status = status;
        this.drawBanner();
      },
    });
    this.conn.open();
    this.timer = window.setInterval(() => this.tickDeadline(), 1000);
  }

  destroy() {
    window.clearInterval(this.timer);
    document.removeEventListener("keydown", this.onKey);
    if (this.conn) this.conn.close();
  }

  /** This connection's seat: a number, or null for a spectator. */
  seat() {
    if (this.view && this.view.seat !== undefined && this.view.seat !== null) return this.view.seat;
    if (this.room && this.room.you !== undefined) return this.room.you;
    const saved = Tokens.get(this.code);
    return saved ? saved.seat : null;
  }

  isHost() {
    return this.room !== null && this.seat() !== null && this.room.host === this.seat();
  }

  edition() {
    return (this.view && this.view.edition) || (this.room && this.room.settings.edition) || "classic";
  }

  players() {
    if (this.view && this.view.players) return this.view.players;
    return (this.room && (this.room.settings.players || this.room.seats.length)) || 0;
  }

  teams() {
    if (this.view && typeof this.view.teams === "number") return this.view.teams;
    const options = (this.view && this.view.options) || (this.room && this.room.settings.options) || {};
    return options.mode === "partners" ? Math.floor(this.players() / 2) : 0;
  }

  /** "Player 2 · Ana": the seat as people read it, and its name. */
  seatLabel(seat) {
    const base = seatName(seat);
    const info = this.room && this.room.seats[seat];
    let name = null;
    if (this.view && Array.isArray(this.view.names) && this.view.names[seat]) name = this.view.names[seat];
    if (!name && info && info.name) name = info.name;
    if (!name && info && info.kind === "bot") name = botLabel(info.bot);
    return name ? `${base} · ${name}` : base;
  }

  sideName(side) {
    const teams = this.teams();
    if (teams) return format(_("{a} and {b}"), { a: seatName(side), b: seatName(side + teams) });
    return seatName(side);
  }

  // ------------------------------------------------------------------ messages

  gotRoom(room) {
    const before = this.room;
    this.room = room;
    const saved = Tokens.get(this.code);
    if (saved && typeof room.you === "number" && saved.seat !== room.you) {
      Tokens.set(this.code, { seat: room.you, token: saved.token }); // the host moved us
    }
    if (before && before.status !== "lobby" && room.status === "lobby") this.view = null;
    this.render();
  }

  gotGame(game) {
    const view = game.view;
    const first = this.view === null;
    const turnWas = this.view ? this.view.turn : null;
    if (!this.teller || game.replay) {
      this.teller = new Teller(view.edition || this.edition(), view.players || this.players(), this.teams());
      if (game.replay) this.log = [];
    }
    if (this.teller.scores === null && this.view) this.teller.scores = this.view.scores;
    if (this.teller.eliminated === null && this.view) this.teller.eliminated = this.view.eliminated;
    this.anim = { discard: false, seats: new Set(), hand: new Set() };
    const me = view.seat;
    for (const e of game.events || []) {
      if (e.type === "RoundStarted") {
        if (e.round_no === 0) {
          // A new match (a rematch): its totals start again.
          this.teller.scores = null;
          this.teller.eliminated = null;
        }
        this.lastRound = null;
        this.readySent = null;
        this.winners = null;
        this.log.push({ text: "", rule: true });
        if (!this.teller.scores) this.teller.scores = view.scores || null;
        if (!this.teller.eliminated) this.teller.eliminated = view.eliminated || null;
      }
      if (e.type === "RoundEnded") this.lastRound = e;
      if (e.type === "GameEnded") this.winners = e.winners;
      if (e.type === "Played" && !game.replay) {
        this.anim.discard = true;
        this.anim.seats.add(e.seat);
      }
      if (e.type === "Drew" && !game.replay) {
        this.anim.seats.add(e.seat);
        if (e.seat === me && e.cards) for (const c of e.cards) this.anim.hand.add(c);
      }
      for (const text of this.teller.tell(e)) this.log.push({ text, seat: e.seat ?? e.challenger ?? e.catcher ?? null });
    }
    if (this.log.length > MAX_LOG) this.log = this.log.slice(-MAX_LOG);
    this.view = view;
    this.version = game.version;
    this.deadline = typeof game.deadline === "number" ? game.deadline : null;
    this.sending = false;
    if (!this.canUnoPlay()) this.armedUno = false;
    if (this.choosing && !this.playsOf(this.choosing).length) this.choosing = null;
    this.render();
    if (first || (view.turn === me && turnWas !== me && me !== null)) this.focusHand(false);
  }

  gotChat(msg, draw = true) {
    this.chat.push(msg);
    if (this.chat.length > MAX_CHAT) this.chat = this.chat.slice(-MAX_CHAT);
    if (draw) this.drawChat();
  }

  gotError(err) {
    const acted = this.sending; // the refusal of our move (a move waits for its answer)
    this.sending = false;
    if (err.code === "not_found" && err.hello) {
      // The answer to hello: no room has this code, or it is closed. Nothing to reconnect to.
      this.conn.close();
      this.fatal = _("There is no room with that code.");
      this.render();
      this.explainClosed();
      return;
    }
    toast(err.code === "illegal" && acted ? _("That move is not allowed now.") : errorText(err));
    this.render();
  }

  /** Say why a room is closed, when the server says it is (GET /api/rooms/{code}). */
  async explainClosed() {
    let summary = null;
    try {
      summary = await getJSON(`/api/rooms/${encodeURIComponent(this.code)}`);
    } catch (_err) {
      return;
    }
    if (!summary || summary.status !== "closed") return;
    this.fatal = closedText(summary.closed_reason);
    this.render();
  }

  gotLeft(reason) {
    if (reason === "kicked") this.fatal = _("The host gave your seat away.");
    else if (reason === "closed") this.fatal = _("This room is closed.");
    else this.fatal = _("You left the room.");
    this.render();
  }

  // ------------------------------------------------------------------ what may be done now

  legal() {
    return (this.view && this.view.legal ? this.view.legal : []).map(parseAction);
  }

  /** The legal plays of a card (each a parsed action). */
  playsOf(code) {
    return this.legal().filter((a) => a.card === code);
  }

  playableCards() {
    return new Set(this.legal().filter((a) => a.card).map((a) => a.card));
  }

  has(word) {
    return this.legal().some((a) => a.word === word);
  }

  targets(word) {
    return this.legal().filter((a) => a.word === word).map((a) => Number(a.arg));
  }

  canUnoPlay() {
    return this.legal().some((a) => a.card && a.uno);
  }

  send(action) {
    if (this.sending) return;
    if (!this.conn.act(action, this.version)) {
      toast(_("No connection to the server."));
      return;
    }
    this.sending = true;
    this.choosing = null;
    this.armedUno = false;
  }

  /** Play a card of the hand: a wild first asks for its colour. */
  playCard(code) {
    const plays = this.playsOf(code);
    if (!plays.length) {
      toast(format(_("{card} cannot be played now."), { card: cardName(code, this.edition()) }));
      return;
    }
    if (isWild(code)) {
      this.choosing = code;
      this.render();
      const first = this.main.querySelector("#picker button");
      if (first) first.focus();
      return;
    }
    this.send(this.withUno(code));
  }

  withUno(text) {
    if (this.armedUno && this.view.legal.includes(`${text}!`)) return `${text}!`;
    return text;
  }

  chooseColor(letter) {
    if (this.choosing) {
      const action = `${this.choosing}=${letter}`;
      if (!this.view.legal.includes(action)) return;
      this.send(this.withUno(action));
      this.focusHand(true);
      return;
    }
    if (this.view && this.view.legal.includes(`color ${letter}`)) this.send(`color ${letter}`);
  }

  uno() {
    if (this.has("uno")) {
      this.send("uno");
      return;
    }
    if (this.canUnoPlay()) {
      this.armedUno = !this.armedUno;
      this.render();
      return;
    }
    toast(_("UNO is called when you play your next-to-last card."));
  }

  catchSeat(seat) {
    if (seat === undefined) {
      const seats = this.targets("catch");
      if (!seats.length) {
        toast(_("Nobody can be caught now."));
        return;
      }
      seat = seats[0];
    }
    this.send(`catch ${seat}`);
  }

  ready() {
    if (!this.view) return;
    this.conn.ready();
    this.readySent = this.view.round;
    this.render();
  }

  // ------------------------------------------------------------------ keys

  key(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target;
    const tag = target && target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) return;
    if (document.querySelector("dialog[open]")) return;
    const view = this.view;
    const k = ev.key;
    if (k === "ArrowLeft" || k === "ArrowRight" || k === "Home" || k === "End") {
      const cards = [...this.main.querySelectorAll("#hand .card")];
      if (!cards.length) return;
      const at = cards.indexOf(document.activeElement);
      let next;
      if (at < 0) next = this.firstPlayableIndex(cards);
      else if (k === "Home") next = 0;
      else if (k === "End") next = cards.length - 1;
      else next = (at + (k === "ArrowLeft" ? -1 : 1) + cards.length) % cards.length;
      cards[next].focus();
      ev.preventDefault();
      return;
    }
    if (!view || this.seat() === null) {
      if (k === "?") this.openHelp(ev);
      return;
    }
    const lower = k.length === 1 ? k.toLowerCase() : k;
    if (this.choosing || (view.awaiting === "color" && view.turn === this.seat())) {
      if (COLOR_KEYS[lower]) {
        this.chooseColor(COLOR_KEYS[lower]);
        ev.preventDefault();
        return;
      }
      if (k === "Escape" && this.choosing) {
        this.choosing = null;
        this.render();
        this.focusHand(true);
        ev.preventDefault();
        return;
      }
    }
    switch (lower) {
      case "d": if (this.has("draw")) this.send("draw"); break;
      case "p": if (this.has("pass")) this.send("pass"); break;
      case "u": this.uno(); break;
      case "a": if (this.has("accept")) this.send("accept"); break;
      case "x": if (this.has("challenge")) this.send("challenge"); break;
      case "c": this.catchSeat(); break;
      case "h": this.focusHand(true); break;
      case "n":
        if (view.awaiting === "round_over") this.ready();
        break;
      case "?": this.openHelp(ev); return;
      default:
        if (/^[0-9]$/.test(k) && view.awaiting === "swap") {
          const seat = (Number(k) || 10) - 1;
          if (this.targets("swap").includes(seat)) this.send(`swap ${seat}`);
        } else {
          return;
        }
    }
    ev.preventDefault();
  }

  openHelp(ev) {
    const button = document.getElementById("help-button");
    if (button) {
      button.click();
      ev.preventDefault();
    }
  }

  firstPlayableIndex(cards) {
    const i = cards.findIndex((c) => c.classList.contains("playable"));
    return i >= 0 ? i : 0;
  }

  focusHand(force) {
    const active = document.activeElement;
    const busy = active && ["INPUT", "TEXTAREA", "SELECT"].includes(active.tagName);
    if (busy && !force) return;
    if (!force && active && active !== document.body && !this.main.contains(active)) return;
    const cards = [...this.main.querySelectorAll("#hand .card")];
    if (cards.length) cards[this.firstPlayableIndex(cards)].focus({ preventScroll: true });
  }

  // ------------------------------------------------------------------ the page

  build() {
    this.el = {
      banner: h("p", { id: "conn-banner", class: "banner", role: "status" }),
      fatal: h("div", { id: "fatal" }),
      lobby: h("section", { id: "room-lobby", class: "panel", "aria-labelledby": "room-title" }),
      table: h("section", { id: "table", class: "table", "aria-label": _("Table") }),
      // One live region for the whole match, so that screen readers tell each change of it.
      status: h("p", { id: "status", class: "status", "aria-live": "polite" }),
      deadline: h("p", { id: "deadline", class: "deadline" }),
      tableBody: h("div", { id: "table-body" }),
      overlay: h("section", { id: "round-end", class: "panel round-end", "aria-labelledby": "round-end-title" }),
      scores: h("section", { id: "scores-panel", class: "panel small", "aria-labelledby": "scores-title" }),
      seen: h("section", { id: "seen-panel", class: "panel small", "aria-labelledby": "seen-title" }),
      log: h("ol", { id: "log", class: "log", role: "log", "aria-labelledby": "log-title", tabindex: "0" }),
      chatList: h("ol", { id: "chat-list", class: "chat-list", role: "log", "aria-labelledby": "chat-title", tabindex: "0" }),
      chatForm: h("form", { id: "chat-form", class: "chat-form" }),
    };
    const chatInput = h("input", { id: "chat-input", name: "text", maxlength: 200, autocomplete: "off" });
    this.el.chatInput = chatInput;
    this.el.chatForm.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = chatInput.value.trim();
      if (!text) return;
      if (text.length > 200) {
        toast(_("A chat message has 1 to 200 characters."));
        return;
      }
      if (this.conn.chat(text)) chatInput.value = "";
    });
    this.el.logTitle = h("h2", { id: "log-title" });
    this.el.chatTitle = h("h2", { id: "chat-title" });
    this.el.chatLabel = h("label", { for: "chat-input", class: "visually-hidden" });
    this.el.chatSend = h("button", { type: "submit", class: "btn" });
    this.el.chatForm.append(this.el.chatLabel, chatInput, this.el.chatSend);
    replaceChildren(this.main,
      h("div", { class: "room" },
        this.el.banner,
        this.el.fatal,
        h("div", { class: "room-main" }, this.el.lobby, this.el.overlay, this.el.table),
        h("aside", { class: "room-side" },
          this.el.scores,
          this.el.seen,
          h("section", { class: "panel small", id: "log-panel" }, this.el.logTitle, this.el.log),
          h("section", { class: "panel small", id: "chat-panel" }, this.el.chatTitle, this.el.chatList, this.el.chatForm))));
    this.el.table.append(h("h2", { class: "visually-hidden", id: "table-title" }), this.el.status, this.el.deadline,
      this.el.tableBody);
    this.render();
  }

  render() {
    if (!this.el) return;
    const focus = focusKey();
    const started = this.view !== null && (!this.room || this.room.status !== "lobby");
    this.el.fatal.hidden = !this.fatal;
    replaceChildren(this.el.fatal, this.fatal ? h("p", { class: "panel fatal", role: "alert" }, this.fatal, " ",
      h("a", { href: "/", "data-nav": "1", text: _("Back to the lobby") })) : null);
    this.el.lobby.hidden = started;
    this.el.table.hidden = !started;
    this.el.table.setAttribute("aria-label", _("Table"));
    if (!started) this.drawLobby();
    else this.drawTable();
    this.drawRoundEnd(started);
    this.drawScores(started);
    this.drawSeen(started);
    this.drawLog();
    this.drawChat();
    this.drawBanner();
    restoreFocus(focus);
  }

  drawBanner() {
    const el = this.el && this.el.banner;
    if (!el) return;
    let text = "";
    if (this.status === "connecting" && !this.room) text = _("Connecting…");
    else if (this.status === "closed" || (this.status === "connecting" && this.room)) text = _("Connection lost: reconnecting…");
    el.textContent = text;
    el.hidden = !text;
  }

  // ------------------------------------------------------------------ before the start

  drawLobby() {
    const room = this.room;
    const me = this.seat();
    if (!room) {
      replaceChildren(this.el.lobby, h("h2", { id: "room-title", text: format(_("Room {code}"), { code: this.code }) }),
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
    const summary = [EDITION_TITLES[settings.edition] || settings.edition,
      format(_("{n} players"), { n: settings.players || room.seats.length })];
    const options = settings.options || {};
    if (options.target) summary.push(format(_("Target: {target} points"), { target: num(options.target) }));
    const rows = room.seats.map((s) => this.seatRow(s, me));
    const parts = [
      h("h2", { id: "room-title", text: format(_("Room {code}"), { code: room.code }) }),
      h("p", { class: "muted", text: summary.join(" · ") }),
      h("div", { class: "inline-form" }, linkInput, copy),
      h("h3", { text: _("Seats") }),
      h("ul", { class: "seat-list", id: "seat-list" }, rows),
    ];
    if (room.status === "closed") parts.push(h("p", { class: "fatal", text: _("This room is closed.") }));
    if (me === null && room.status === "lobby") parts.push(this.joinForm(room));
    if (me !== null && this.isHost() && room.status === "lobby") {
      parts.push(h("button", {
        type: "button", class: "btn btn-primary", id: "start-match", text: _("Start the match"),
        onclick: async () => {
          try {
            await this.conn.start();
          } catch (err) {
            toast(err.code === "illegal" ? _("The match has already started.") : errorText(err));
          }
        },
      }));
      parts.push(h("p", { class: "muted", text: _("Seats still open when you start are given to bots.") }));
    } else if (me !== null && room.status === "lobby") {
      parts.push(h("p", { class: "muted", text: _("Waiting for the host to start the match…") }));
    }
    replaceChildren(this.el.lobby, parts);
  }

  seatRow(s, me) {
    const host = this.isHost() && this.room.status === "lobby";
    let who;
    if (s.kind === "open") who = _("open seat");
    else if (s.kind === "bot") who = botLabel(s.bot);
    else who = s.name || "?";
    const badges = [];
    if (s.seat === this.room.host) badges.push(h("span", { class: "badge", text: _("host") }));
    if (s.seat === me) badges.push(h("span", { class: "badge badge-you", text: _("you") }));
    if (s.away) badges.push(h("span", { class: "badge badge-off", text: _("a bot plays for them") }));
    else if (s.kind === "human" && !s.connected) badges.push(h("span", { class: "badge badge-off", text: _("away") }));
    const controls = [];
    if (host && s.seat !== me) {
      const label = seatName(s.seat);
      if (s.seat > 0) {
        controls.push(h("button", {
          type: "button", class: "btn btn-small", "aria-label": format(_("Move {who} up"), { who: label }), text: "↑",
          onclick: () => this.conn.move(s.seat, s.seat - 1),
        }));
      }
      if (s.seat < this.room.seats.length - 1) {
        controls.push(h("button", {
          type: "button", class: "btn btn-small", "aria-label": format(_("Move {who} down"), { who: label }), text: "↓",
          onclick: () => this.conn.move(s.seat, s.seat + 1),
        }));
      }
      if (s.kind === "human") {
        controls.push(h("button", {
          type: "button", class: "btn btn-small", text: _("Kick"), "aria-label": format(_("Kick {who}"), { who: label }),
          onclick: () => this.conn.kick(s.seat),
        }));
      }
      if (s.kind !== "bot") {
        const select = h("select", { "aria-label": format(_("Bot for {who}"), { who: label }), class: "bot-select" },
          BOTS.map((b) => h("option", { value: b, selected: b === "heuristic", text: botChoice(b) })));
        controls.push(select, h("button", {
          type: "button", class: "btn btn-small", text: _("Give to a bot"),
          "aria-label": format(_("Give {who} to a bot"), { who: label }),
          onclick: () => this.conn.replaceByBot(s.seat, select.value),
        }));
      }
    }
    return h("li", { class: `seat-row kind-${s.kind}`, dataset: { seat: String(s.seat) } },
      h("span", { class: "seat-num", text: seatName(s.seat) }),
      h("bdi", { class: "seat-name", text: who }),
      badges,
      controls.length ? h("span", { class: "seat-controls" }, controls) : null);
  }

  joinForm(room) {
    const open = room.seats.some((s) => s.kind === "open");
    if (!open) return h("p", { class: "muted", text: _("You are watching: every seat is taken.") });
    const input = h("input", { id: "join-name", name: "name", required: true, maxlength: 24, autocomplete: "nickname", value: savedName() });
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
      if (!name || name.length > 24) {
        error.textContent = _("Your name must have 1 to 24 characters.");
        return;
      }
      saveName(name);
      try {
        await this.conn.join(name);
      } catch (err) {
        error.textContent = err.code === "illegal" ? _("No seat is free in this room.") : errorText(err);
      }
    });
    return form;
  }

  // ------------------------------------------------------------------ the table

  drawTable() {
    const view = this.view;
    const me = this.seat();
    const playable = this.playableCards();
    this.el.table.querySelector("#table-title").textContent = _("Table");
    const status = this.statusText();
    if (this.el.status.textContent !== status) this.el.status.textContent = status;
    this.el.deadline.textContent = this.deadlineText();
    const parts = [
      this.opponents(me),
      this.center(),
    ];
    if (me !== null) {
      parts.push(this.mySeat(me, playable));
      parts.push(this.actionBar(me));
      const picker = this.picker(me);
      if (picker) parts.push(picker);
    } else {
      parts.push(h("p", { class: "spectator-note", id: "spectator-note", text: _("You are watching this match: the players' cards are hidden.") }));
    }
    replaceChildren(this.el.tableBody, parts);
  }

  statusText() {
    const view = this.view;
    const me = this.seat();
    const lines = [];
    const ed = this.edition();
    if (view.awaiting === "game_over") {
      lines.push(this.winnersText());
    } else if (view.awaiting === "round_over") {
      lines.push(_("The round is over."));
    } else if (me === null || view.turn !== me) {
      if (view.turn !== null && view.turn !== undefined) lines.push(format(_("Waiting for {who}…"), { who: seatName(view.turn) }));
      const jump = me !== null && this.legal().some((a) => a.card);
      if (jump) lines.push(_("You hold the same card as the top of the pile: you may jump in!"));
    } else if (view.awaiting === "play") {
      lines.push(_("Your turn: play a matching card, or draw."));
    } else if (view.awaiting === "drawn") {
      const drawn = this.drawnCard();
      if (drawn) lines.push(format(_("You drew {card}."), { card: cardName(drawn, ed) }));
      lines.push(this.playsOf(drawn).length ? _("Play it, or keep it and pass.") : _("It cannot be played: keep it and pass."));
    } else if (view.awaiting === "respond") {
      const attacker = typeof view.attacker === "number" ? view.attacker : null;
      const n = view.pending || 0;
      if (attacker !== null) {
        lines.push(format(_("{who} played {card} on you: {n} cards to draw."), { who: seatName(attacker), card: cardName(view.top, ed), n }));
      } else {
        lines.push(format(ngettext("A draw card is played on you: {n} card to draw.", "A draw card is played on you: {n} cards to draw.", n), { n }));
      }
      const ways = [];
      if (this.has("challenge")) ways.push(_("challenge it"));
      if (this.playableCards().size) ways.push(this.playableCards().has("WP") ? _("answer with Agent P") : _("add a card to the pile"));
      if (ways.length) lines.push(format(_("Take them, or {choices}."), { choices: ways.join(", ") }));
    } else if (view.awaiting === "color") {
      lines.push(_("The first card is a wild card: choose the colour in play."));
    } else if (view.awaiting === "swap") {
      lines.push(_("Choose whom to swap hands with."));
    }
    const catchable = this.targets("catch");
    if (catchable.length) lines.push(format(_("{who} did not call UNO: catch them!"), { who: seatName(catchable[0]) }));
    if (this.has("uno")) lines.push(_("You have one card left: call UNO before you are caught!"));
    return lines.join(" ");
  }

  /** The time left before the server plays for the person on turn (turn_timeout), in words. */
  deadlineText() {
    const view = this.view;
    if (!this.deadline || !view || view.turn === null || view.turn === undefined
      || ["round_over", "game_over"].includes(view.awaiting)) return "";
    const n = Math.max(0, Math.ceil(this.deadline - Date.now() / 1000));
    if (view.turn === this.seat()) {
      return format(ngettext("{n} second left, then a bot plays for you.", "{n} seconds left, then a bot plays for you.", n), { n });
    }
    return format(ngettext("{who}: {n} second left.", "{who}: {n} seconds left.", n), { who: seatName(view.turn), n });
  }

  tickDeadline() {
    if (this.el && this.deadline) this.el.deadline.textContent = this.deadlineText();
  }

  winnersText() {
    const winners = this.winners || (this.view && this.view.winners) || [];
    if (!winners.length) return _("The match is over.");
    const teller = this.teller || new Teller(this.edition(), this.players(), this.teams());
    return teller.winnerText(winners);
  }

  drawnCard() {
    const view = this.view;
    if (view.drawn) return view.drawn;
    const plays = this.legal().filter((a) => a.card);
    return plays.length ? plays[0].card : null;
  }

  /** The other seats, in the order play goes from this seat (all seats for a spectator). */
  opponents(me) {
    const view = this.view;
    const n = view.players || view.hand_sizes.length;
    const start = me === null ? 0 : me;
    const dir = view.direction === -1 ? -1 : 1;
    const order = [];
    for (let i = me === null ? 0 : 1; i < n; i += 1) order.push((((start + dir * i) % n) + n) % n);
    const catchable = new Set(this.targets("catch"));
    const swaps = new Set(view.awaiting === "swap" && view.turn === me ? this.targets("swap") : []);
    const panels = order.map((seat) => this.seatPanel(seat, { catchable: catchable.has(seat), swap: swaps.has(seat) }));
    return h("ul", { class: "opponents", id: "opponents", "aria-label": _("Players") }, panels);
  }

  seatPanel(seat, { catchable, swap }) {
    const view = this.view;
    const size = view.hand_sizes[seat] ?? 0;
    const out = view.eliminated && view.eliminated[seat];
    const info = this.room && this.room.seats[seat];
    const cls = ["seat"];
    if (seat === view.turn && !["round_over", "game_over"].includes(view.awaiting)) cls.push("on-turn");
    if (out) cls.push("out");
    if (this.anim.seats.has(seat)) cls.push("anim-pulse");
    const badges = [];
    if (seat === view.turn && !["round_over", "game_over"].includes(view.awaiting)) badges.push(h("span", { class: "badge badge-turn", text: _("to play") }));
    if (seat === view.dealer) badges.push(h("span", { class: "badge", text: _("dealer") }));
    if (info && info.away) badges.push(h("span", { class: "badge badge-off", text: _("a bot plays for them") }));
    if (size === 1 && !(view.owed && view.owed[seat])) badges.push(h("span", { class: "badge badge-uno", text: "UNO!" }));
    if (view.owed && view.owed[seat]) badges.push(h("span", { class: "badge badge-warn", text: _("no UNO call!") }));
    const backs = h("span", { class: "backs", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(size, 12); i += 1) backs.append(h("span", { class: "mini-back" }));
    const side = this.teams() ? seat % this.teams() : seat;
    const score = view.scores ? view.scores[side] : null;
    const buttons = [];
    if (catchable) {
      buttons.push(h("button", {
        type: "button", class: "btn btn-catch", dataset: { focus: `catch-${seat}`, action: `catch ${seat}` },
        "aria-label": format(_("Catch {who}: no UNO call"), { who: seatName(seat) }), "aria-keyshortcuts": "c",
        text: _("Catch!"), onclick: () => this.catchSeat(seat),
      }));
    }
    if (swap) {
      buttons.push(h("button", {
        type: "button", class: "btn btn-swap", dataset: { focus: `swap-${seat}`, action: `swap ${seat}` },
        "aria-label": format(_("Swap hands with {who}"), { who: seatName(seat) }), "aria-keyshortcuts": String((seat + 1) % 10),
        text: _("Swap hands"), onclick: () => this.send(`swap ${seat}`),
      }));
    }
    return h("li", { class: cls.join(" "), dataset: { seat: String(seat) } },
      h("div", { class: "seat-head" }, h("bdi", { class: "seat-label", text: this.seatLabel(seat) }), badges),
      out ? h("div", { class: "muted", text: _("out of the game") })
        : h("div", { class: "seat-cards" }, backs, h("span", { class: "count", text: format(ngettext("{n} card", "{n} cards", size), { n: size }) })),
      score !== null && score !== undefined ? h("div", { class: "muted", text: format(_("score {points}"), { points: num(score) }) }) : null,
      buttons);
  }

  center() {
    const view = this.view;
    const ed = this.edition();
    const color = colorLetter(view.color);
    const canDraw = this.has("draw");
    const pile = h("button", {
      type: "button", class: "pile draw-pile", id: "draw-pile", disabled: !canDraw,
      "aria-label": canDraw ? _("Draw a card") : format(ngettext("Draw pile: {n} card", "Draw pile: {n} cards", view.draw_size), { n: view.draw_size }),
      onclick: () => this.send("draw"),
    }, cardBack(null), h("span", { class: "pile-count", text: String(view.draw_size) }));
    const top = view.top ? cardElement(view.top, ed) : h("span", { class: "card card-empty" });
    if (this.anim.discard) top.classList.add("anim-in");
    const discard = h("div", { class: "pile discard", id: "discard" }, top);
    const colorBox = h("div", { class: "in-play", id: "color-in-play" },
      h("span", { class: "muted", text: _("Colour in play: ") }),
      view.awaiting === "color" ? h("span", { text: _("to be chosen") })
        : h("span", { class: `swatch color-${color || "W"}`, text: color ? `${colorName(color)} [${color}]` : "?" }));
    const n = view.players || view.hand_sizes.length;
    const order = [];
    let seat = view.turn ?? 0;
    for (let i = 0; i < n; i += 1) {
      if (!(view.eliminated && view.eliminated[seat])) order.push(seatName(seat));
      seat = (((seat + (view.direction === -1 ? -1 : 1)) % n) + n) % n;
    }
    const way = view.direction === -1 ? _("right") : _("left");
    const arrow = view.direction === -1 ? "↺" : "↻";
    const info = [
      h("div", { class: "direction", id: "direction", dataset: { direction: String(view.direction) } },
        h("span", { text: format(_("Direction: {way} {arrow} ({order})"), { way, arrow, order: order.join(" → ") }) })),
      colorBox,
      h("div", { class: "muted", text: format(ngettext("Draw pile: {n} card", "Draw pile: {n} cards", view.draw_size), { n: view.draw_size }) }),
      h("div", { class: "muted", text: [
        format(_("Round {n}"), { n: (view.round ?? 0) + 1 }),
        format(_("Target: {target} points"), { target: num(view.target ?? 500) }),
      ].join(" · ") }),
    ];
    if (view.awaiting === "respond" && view.pending) {
      info.push(h("div", { class: "pending", text: format(_("Cards to draw: {n}"), { n: view.pending }) }));
    }
    return h("div", { class: "center", id: "center" },
      h("div", { class: "piles" },
        h("figure", {}, pile, h("figcaption", { text: _("Draw pile") })),
        h("figure", {}, discard, h("figcaption", { text: _("Discard pile") }))),
      h("div", { class: "center-info" }, info));
  }

  mySeat(me, playable) {
    const view = this.view;
    const ed = this.edition();
    const hand = sortedHand(view.hand || []);
    const drawn = view.awaiting === "drawn" && view.turn === me ? this.drawnCard() : null;
    const seen = {};
    const items = hand.map((code) => {
      seen[code] = (seen[code] || 0) + 1;
      const ok = playable.has(code);
      const btn = cardElement(code, ed, "button");
      btn.type = "button";
      btn.classList.add(ok ? "playable" : "unplayable");
      if (code === drawn) btn.classList.add("drawn");
      if (this.anim.hand.has(code)) btn.classList.add("anim-new");
      if (!ok) btn.setAttribute("aria-disabled", "true");
      btn.dataset.focus = `card-${code}-${seen[code]}`;
      const state = ok ? _("playable") : _("not playable now");
      btn.setAttribute("aria-label", [`${cardName(code, ed)} (${code})`, state].join(", "));
      btn.addEventListener("click", () => this.playCard(code));
      return h("li", {}, btn);
    });
    const side = this.teams() ? me % this.teams() : me;
    const score = view.scores ? view.scores[side] : 0;
    const cls = ["my-seat"];
    if (view.turn === me && !["round_over", "game_over"].includes(view.awaiting)) cls.push("on-turn");
    const badges = [];
    if (view.turn === me && !["round_over", "game_over"].includes(view.awaiting)) badges.push(h("span", { class: "badge badge-turn", text: _("your turn") }));
    if (me === view.dealer) badges.push(h("span", { class: "badge", text: _("dealer") }));
    const mine = this.room && this.room.seats[me];
    if (mine && mine.away) badges.push(h("span", { class: "badge badge-off", text: _("a bot plays for you until you act") }));
    if (this.armedUno) badges.push(h("span", { class: "badge badge-uno", text: _("UNO will be called with your next play.") }));
    return h("section", { class: cls.join(" "), id: "my-seat", "aria-labelledby": "my-seat-title" },
      h("div", { class: "seat-head" },
        h("h2", { id: "my-seat-title" }, h("bdi", { text: this.seatLabel(me) }), " ", _("(you)")),
        badges,
        h("span", { class: "muted", text: format(_("score {points}"), { points: num(score ?? 0) }) })),
      hand.length ? h("ul", { class: "hand", id: "hand", "aria-label": _("Your hand") }, items)
        : h("p", { class: "muted", id: "hand", text: _("(no cards)") }),
      h("p", { class: "legend muted", text: _("Raised cards can be played. Keys: ←/→ choose, Enter play, D draw, P pass, U UNO, A take the cards, X challenge, C catch, R/Y/G/B colour, ? rules.") }));
  }

  actionBar(me) {
    const view = this.view;
    const ed = this.edition();
    const buttons = [];
    const add = (id, text, key, onclick, opts = {}) => {
      buttons.push(h("button", {
        type: "button", class: `btn ${opts.cls || ""}`, id, dataset: { focus: id },
        "aria-keyshortcuts": key || null, "aria-pressed": opts.pressed === undefined ? null : String(opts.pressed),
        disabled: opts.disabled, onclick,
      }, text, key ? h("kbd", { "aria-hidden": "true", text: key.toUpperCase() }) : null));
    };
    const ended = ["round_over", "game_over"].includes(view.awaiting);
    if (!ended) {
      if (view.awaiting === "drawn" && view.turn === me) {
        const drawn = this.drawnCard();
        if (drawn && this.playsOf(drawn).length) {
          add("play-drawn", format(_("Play {card}"), { card: cardName(drawn, ed) }), null, () => this.playCard(drawn), { cls: "btn-primary" });
        }
      }
      add("act-draw", _("Draw a card"), "d", () => this.send("draw"), { disabled: !this.has("draw") });
      add("act-pass", _("Keep it and pass"), "p", () => this.send("pass"), { disabled: !this.has("pass") });
      const canUno = this.has("uno") || this.canUnoPlay();
      add("act-uno", "UNO!", "u", () => this.uno(), {
        disabled: !canUno, pressed: this.has("uno") ? undefined : this.armedUno, cls: this.has("uno") ? "btn-uno btn-urgent" : "btn-uno",
      });
      if (view.awaiting === "respond" && view.turn === me) {
        add("act-accept", format(ngettext("Take {n} card", "Take {n} cards", view.pending || 0), { n: view.pending || 0 }), "a",
          () => this.send("accept"), { disabled: !this.has("accept") });
        if (this.has("challenge")) add("act-challenge", _("Challenge"), "x", () => this.send("challenge"), { cls: "btn-warn" });
      }
    }
    return h("div", { class: "actions", id: "actions", role: "toolbar", "aria-label": _("Your moves") }, buttons);
  }

  picker(me) {
    const view = this.view;
    const ed = this.edition();
    if (this.choosing || (view.awaiting === "color" && view.turn === me && this.has("color"))) {
      const title = this.choosing
        ? format(_("Choose the colour for {card}:"), { card: cardName(this.choosing, ed) })
        : _("Choose the colour in play:");
      const buttons = COLORS.map((letter) => h("button", {
        type: "button", class: `btn color-btn color-${letter}`, dataset: { focus: `color-${letter}`, color: letter },
        "aria-keyshortcuts": letter.toLowerCase(), onclick: () => this.chooseColor(letter),
      }, `${colorName(letter)} `, h("kbd", { text: letter })));
      if (this.choosing) {
        buttons.push(h("button", {
          type: "button", class: "btn", dataset: { focus: "color-cancel" }, "aria-keyshortcuts": "Escape",
          text: _("Cancel"), onclick: () => {
            this.choosing = null;
            this.render();
            this.focusHand(true);
          },
        }));
      }
      return h("div", { class: "picker", id: "picker", role: "group", "aria-label": title }, h("p", { text: title }), buttons);
    }
    if (view.awaiting === "swap" && view.turn === me) {
      const buttons = this.targets("swap").map((seat) => h("button", {
        type: "button", class: "btn", dataset: { focus: `pick-swap-${seat}` }, "aria-keyshortcuts": String((seat + 1) % 10),
        onclick: () => this.send(`swap ${seat}`),
      }, h("bdi", { text: this.seatLabel(seat) }), " ", h("kbd", { text: String((seat + 1) % 10) })));
      return h("div", { class: "picker", id: "picker", role: "group", "aria-label": _("Choose whom to swap hands with.") },
        h("p", { text: _("Choose whom to swap hands with.") }), buttons);
    }
    return null;
  }

  // ------------------------------------------------------------------ the side panels

  drawScores(started) {
    const el = this.el.scores;
    el.hidden = !started;
    if (!started) return;
    const view = this.view;
    const sides = (view.scores || []).map((score, side) => h("tr", {},
      h("th", { scope: "row" }, h("bdi", { text: this.teams() ? this.sideName(side) : this.seatLabel(side) })),
      h("td", { text: num(score) })));
    replaceChildren(el,
      h("h2", { id: "scores-title", text: _("Scores") }),
      h("table", { class: "scores" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: _("Player") }), h("th", { scope: "col", text: _("Total") }))),
        h("tbody", {}, sides)),
      h("p", { class: "muted", text: format(_("Target: {target} points"), { target: num(view.target ?? 500) }) }));
  }

  drawSeen(started) {
    const el = this.el.seen;
    const seen = (started && this.view && this.view.seen) || {};
    const seats = Object.keys(seen).map(Number).sort((a, b) => a - b);
    el.hidden = !seats.length;
    if (!seats.length) {
      el.textContent = "";
      return;
    }
    const ed = this.edition();
    replaceChildren(el,
      h("h2", { id: "seen-title", text: _("Hands you have seen") }),
      h("ul", { class: "seen-list", id: "seen-list" }, seats.map((seat) => h("li", { dataset: { seat: String(seat) } },
        h("bdi", { class: "seen-who", text: this.seatLabel(seat) }),
        h("span", { class: "mini-hand" }, sortedHand(seen[seat]).map((c) => cardElement(c, ed))),
        seen[seat].length ? null : h("span", { text: "—" })))));
  }

  drawLog() {
    this.el.logTitle.textContent = _("Moves");
    this.el.log.parentElement.hidden = !this.log.length;
    const items = this.log.map((line) => (line.rule ? h("li", { class: "log-rule", "aria-hidden": "true" })
      : h("li", { text: line.text })));
    replaceChildren(this.el.log, items);
    this.el.log.scrollTop = this.el.log.scrollHeight;
  }

  drawChat() {
    if (!this.el) return;
    this.el.chatTitle.textContent = _("Chat");
    this.el.chatLabel.textContent = _("Message");
    this.el.chatSend.textContent = _("Send");
    this.el.chatInput.placeholder = _("Say something (up to 200 characters)");
    const seated = this.seat() !== null;
    this.el.chatForm.hidden = !seated;
    const items = this.chat.map((msg) => {
      const seat = typeof msg.seat === "number" ? msg.seat : null;
      const who = msg.name || (seat !== null ? seatName(seat) : "?");
      return h("li", {},
        h("bdi", { class: "chat-name", text: seat !== null ? `${seatName(seat)} · ${who}` : who }),
        ": ",
        h("span", { class: "chat-text", text: String(msg.text ?? "") }));
    });
    replaceChildren(this.el.chatList, items);
    this.el.chatList.scrollTop = this.el.chatList.scrollHeight;
  }

  drawRoundEnd(started) {
    const el = this.el.overlay;
    const view = this.view;
    const show = started && view && ["round_over", "game_over"].includes(view.awaiting);
    el.hidden = !show;
    if (!show) {
      el.textContent = "";
      return;
    }
    const final = view.awaiting === "game_over";
    const me = this.seat();
    const last = this.lastRound;
    const teams = this.teams();
    const nSides = (view.scores || []).length;
    const winnerSide = last ? (teams ? last.winner % teams : last.winner) : view.round_winner;
    const rows = [];
    for (let side = 0; side < nSides; side += 1) {
      const seats = [];
      for (let s = 0; s < view.hand_sizes.length; s += 1) if ((teams ? s % teams : s) === side) seats.push(s);
      const left = seats.reduce((sum, s) => sum + (view.hand_sizes[s] || 0), 0);
      const points = last && last.points ? seats.reduce((sum, s) => sum + (last.points[s] || 0), 0) : null;
      rows.push(h("tr", { class: side === winnerSide ? "winner" : "" },
        h("th", { scope: "row" }, h("bdi", { text: teams ? this.sideName(side) : this.seatLabel(side) }), side === winnerSide ? " ★" : ""),
        h("td", { text: String(left) }),
        h("td", { text: points === null ? "" : num(points) }),
        h("td", { text: num(view.scores[side]) })));
    }
    const title = final ? this.winnersText() : format(_("Scores after round {n}"), { n: (view.round ?? 0) + 1 });
    const parts = [
      h("h2", { id: "round-end-title", text: title }),
      final ? h("p", { text: _("The match is over.") }) : null,
      h("table", { class: "scores score-table", id: "score-table" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col", text: _("Player") }),
          h("th", { scope: "col", text: _("Cards left") }),
          h("th", { scope: "col", text: _("Points in hand") }),
          h("th", { scope: "col", text: _("Total") }))),
        h("tbody", {}, rows)),
      h("p", { class: "muted", text: format(_("Target: {target} points"), { target: num(view.target ?? 500) }) }),
    ];
    if (!final && me !== null) {
      if (this.readySent === view.round) {
        parts.push(h("p", { class: "muted", id: "ready-note", text: _("Ready: the next round starts when everyone is ready.") }));
      } else {
        parts.push(h("button", {
          type: "button", class: "btn btn-primary", id: "ready-button", dataset: { focus: "ready" }, "aria-keyshortcuts": "n",
          onclick: () => this.ready(),
        }, _("Ready for the next round"), " ", h("kbd", { "aria-hidden": "true", text: "N" })));
      }
    } else if (!final) {
      parts.push(h("p", { class: "muted", text: _("The next round starts soon.") }));
    }
    if (final) {
      const buttons = [h("a", { href: "/", class: "btn", "data-nav": "1", text: _("Back to the lobby") })];
      if (this.isHost()) {
        buttons.push(h("button", { type: "button", class: "btn btn-primary", id: "rematch-button", text: _("Play again"), onclick: () => this.conn.rematch() }));
      }
      parts.push(h("div", { class: "inline-form" }, buttons));
    }
    replaceChildren(el, parts);
  }
}

/** Open a room's page. */
export function showRoom(main, code) {
  const page = new RoomPage(main, code);
  page.start();
  return page;
}

export { navigate };
