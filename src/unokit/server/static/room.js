// A room: before the start its seats (with the host's controls) and the join form; from the
// first deal the table — the opponents, the piles, your hand, every decision as a button and
// a key, the move log, the hands you have seen, the scores, the chat — and between rounds the
// score table. Everything drawn comes from the server's messages for this connection.
// This module holds the page's state, what the server sends and what the player does; the
// parts of the page are drawn by room-lobby.js (before the start), room-table.js (the table),
// room-hand.js (your seat and moves), room-panels.js (the side panels and the score table)
// and the keys are read by room-keys.js.

import { _, agree, format } from "./i18n.js";
import { cardName, isWild, parseAction } from "./cards.js";
import { botLabel, limit } from "./config.js";
import { focusKey, h, replaceChildren, restoreFocus } from "./dom.js";
import { Connection, getJSON } from "./net.js";
import { Tokens } from "./store.js";
import { seatName, Teller } from "./teller.js";
import { closedText, errorText, navigate, toast } from "./ui.js";
import { focusHand, key } from "./room-keys.js";
import { drawLobby } from "./room-lobby.js";
import { deadlineText, drawTable } from "./room-table.js";
import { drawChat, drawLog, drawRoundEnd, drawScores } from "./room-panels.js";
import { drawSeen, ShownHands } from "./room-seen.js";
import { drawReach, tickCountdown } from "./room-fair.js";

const MAX_LOG = 300;

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
    this.over = false; // nothing more to show than why: no such room, or removed from it
    this.choosing = null; // the wild card whose colour is being chosen
    this.sending = false;
    this.readySent = null;
    this.lastRound = null; // the last RoundEnded event
    this.winners = null;
    this.status = "connecting";
    this.anim = { discard: false, seats: new Set(), hand: new Set() };
    this.shown = new ShownHands();
    this.onKey = (ev) => key(this, ev);
    // Phones drop a page's socket in the background: coming back, it reconnects at once.
    this.onVisible = () => {
      if (document.visibilityState === "hidden") this.hiddenAt = Date.now();
      else if (this.conn) this.conn.wake(Date.now() - (this.hiddenAt || Date.now()));
    };
  }

  // ------------------------------------------------------------------ life

  start() {
    this.build();
    document.addEventListener("keydown", this.onKey);
    document.addEventListener("visibilitychange", this.onVisible);
    this.conn = new Connection(this.code, {
      onRoom: (room) => this.gotRoom(room),
      onGame: (game) => this.gotGame(game),
      onChat: (msg) => this.gotChat(msg),
      onChatHistory: (list) => {
        this.chat = [];
        for (const msg of list) this.gotChat(msg, false);
        drawChat(this);
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
    document.removeEventListener("visibilitychange", this.onVisible);
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

  /** The number of teams with partners, else 0. */
  teams() {
    return (this.view && this.view.teams) || 0;
  }

  /** The side `seat` plays for (its team with partners, else the seat itself). */
  sideOf(seat) {
    const sides = this.view && this.view.sides;
    return sides ? sides[seat] : seat;
  }

  /** The seats that play for `side`. */
  seatsOf(side) {
    const sides = this.view && this.view.sides;
    if (!sides) return [side];
    return sides.map((s, seat) => (s === side ? seat : null)).filter((seat) => seat !== null);
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

  /** A seat's display name: its person's name, a bot's name and seat ("Heuristic bot 3"), else "Player 3". */
  displayName(seat, view = this.view) {
    const info = this.room && this.room.seats[seat];
    const names = view && Array.isArray(view.names) ? view.names : [];
    if (names[seat]) return names[seat];
    if (info && info.kind === "human" && info.name) return info.name;
    if (info && info.kind === "bot") return `${botLabel(info.bot)} ${seat + 1}`;
    return seatName(seat);
  }

  /** The teller of the log and of the match's end, told each seat's name and who reads it
   * (from `view`, the view now or the one just come). */
  namedTeller(teller, view = this.view) {
    const players = (view && view.players) || this.players();
    teller.names = Array.from({ length: players }, (_v, seat) => this.displayName(seat, view));
    teller.viewer = view ? (view.seat ?? -1) : (this.seat() ?? -1);
    return teller;
  }

  sideName(side) {
    const seats = this.seatsOf(side);
    if (seats.length === 2) return format(_("{a} and {b}"), { a: this.displayName(seats[0]), b: this.displayName(seats[1]) });
    return this.displayName(side);
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
      this.teller = new Teller(view.edition || this.edition(), view.players || this.players(), view.teams || 0);
      if (game.replay) this.log = [];
    }
    this.namedTeller(this.teller, view);
    if (this.teller.scores === null && this.view) this.teller.scores = this.view.scores;
    if (this.teller.eliminated === null && this.view) this.teller.eliminated = this.view.eliminated;
    this.anim = { discard: false, seats: new Set(), hand: new Set() };
    const me = view.seat;
    this.shown.begin(game.replay, first);
    for (const e of game.events || []) {
      this.shown.event(e, me, view.players || this.players(), !game.replay);
      if (e.type === "DirectionChanged" && !game.replay) this.anim.direction = true;
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
    if (first || (view.turn === me && turnWas !== me && me !== null)) focusHand(this, false);
  }

  gotChat(msg, draw = true) {
    this.chat.push(msg);
    const kept = limit("chat_history");
    if (this.chat.length > kept) this.chat = this.chat.slice(-kept);
    if (draw) drawChat(this);
  }

  gotError(err) {
    const acted = this.sending; // the refusal of our move (a move waits for its answer)
    this.sending = false;
    if (err.code === "not_found" && err.hello) {
      // The answer to hello: no room has this code, or it is closed. Nothing to reconnect to.
      this.conn.close();
      this.over = true;
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
    if (reason === "kicked") {
      // Removed: the page is no longer anyone's seat, and says so and nothing else.
      this.fatal = _("You were removed from this room.");
      this.over = true;
      this.room = null;
      this.view = null;
    }
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
      focusHand(this, true);
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
      countdown: h("p", { id: "countdown", class: "countdown", hidden: true }),
      reach: h("div", { id: "reach", class: "reach", hidden: true }),
      tableBody: h("div", { id: "table-body" }),
      overlay: h("section", { id: "round-end", class: "panel overlay round-end", role: "dialog", "aria-labelledby": "round-end-title" }),
      scores: h("section", { id: "scores-panel", class: "panel small", "aria-labelledby": "scores-title" }),
      seen: h("section", { id: "seen-panel", class: "panel overlay seen-overlay", role: "dialog", "aria-labelledby": "seen-title" }),
      log: h("ol", { id: "log", class: "log", role: "log", "aria-labelledby": "log-title", tabindex: "0" }),
      chatList: h("ol", { id: "chat-list", class: "chat-list", role: "log", "aria-labelledby": "chat-title", tabindex: "0" }),
      chatForm: h("form", { id: "chat-form", class: "chat-form" }),
    };
    const chatInput = h("input", { id: "chat-input", name: "text", maxlength: limit("chat_chars"), autocomplete: "off" });
    this.el.chatInput = chatInput;
    this.el.chatForm.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = chatInput.value.trim();
      if (!text) return;
      if (text.length > limit("chat_chars")) {
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
      this.el.countdown, this.el.tableBody, this.el.reach);
    this.render();
  }

  render() {
    if (!this.el) return;
    const focus = focusKey();
    const started = this.view !== null && (!this.room || this.room.status !== "lobby");
    this.el.fatal.hidden = !this.fatal;
    replaceChildren(this.el.fatal, this.fatal ? h("p", { class: "panel fatal", role: "alert" }, this.fatal, " ",
      h("a", { href: "/", "data-nav": "1", text: _("Back to the lobby") })) : null);
    this.el.lobby.hidden = started || this.over;
    this.el.table.hidden = !started || this.over;
    this.el.table.setAttribute("aria-label", _("Table"));
    if (this.over) {
      this.drawBanner();
      restoreFocus(focus);
      return;
    }
    if (!started) drawLobby(this);
    else drawTable(this);
    if (started && !this.tableShown) window.scrollTo(0, 0); // the table fills the screen from its top
    this.tableShown = started;
    drawReach(this, started);
    drawRoundEnd(this, started);
    drawScores(this, started);
    drawSeen(this, started);
    drawLog(this);
    drawChat(this);
    this.drawBanner();
    this.drawTitle(started);
    restoreFocus(focus);
  }

  /** The tab's title: whose turn it is, or who won, then the room. */
  drawTitle(started) {
    const view = this.view;
    const me = this.seat();
    let what = "";
    if (started && view.awaiting === "game_over") what = this.winnersText();
    else if (started && me !== null && view.turn === me) what = _("Your turn");
    else if (started && typeof view.turn === "number") what = agree(format(_("Waiting for {who}…"), { who: this.displayName(view.turn) }));
    document.title = what ? `${what} — ${this.code} — unokit` : `${this.code} — unokit`;
  }

  drawBanner() {
    const el = this.el && this.el.banner;
    if (!el) return;
    let text = "";
    if (this.over) text = "";
    else if (this.status === "connecting" && !this.room) text = _("Connecting…");
    else if (this.status === "closed" || (this.status === "connecting" && this.room)) text = _("Connection lost: reconnecting…");
    el.textContent = text;
    el.hidden = !text;
  }

  // ------------------------------------------------------------------ the table

  tickDeadline() {
    if (this.el && this.deadline) this.el.deadline.textContent = deadlineText(this);
    tickCountdown(this);
  }

  winnersText() {
    const winners = this.winners || (this.view && this.view.winners) || [];
    if (!winners.length) return _("The match is over.");
    const teller = this.namedTeller(this.teller || new Teller(this.edition(), this.players(), this.teams()));
    return agree(teller.winnerText(winners));
  }

  drawnCard() {
    const view = this.view;
    if (view.drawn) return view.drawn;
    const plays = this.legal().filter((a) => a.card);
    return plays.length ? plays[0].card : null;
  }
}

/** Open a room's page. */
export function showRoom(main, code) {
  const page = new RoomPage(main, code);
  page.start();
  return page;
}

export { navigate };
