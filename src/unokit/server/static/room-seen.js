// What you were shown: the hands Mater's peek or a challenge showed you, each with the round and
// the move it was seen at, less the cards that seat has played since. It follows the events
// (a replay after hello brings back the round's), and is drawn as an overlay over the table,
// which its player closes and may open again. `page` is the RoomPage.

import { _, format } from "./i18n.js";
import { cardElement, sortedHand } from "./cards.js";
import { h, replaceChildren } from "./dom.js";

export class ShownHands {
  constructor() {
    this.hands = {}; // seat → { round, move, cards }
    this.round = 0;
    this.moves = 0; // the cards played so far in the round
    this.open = true; // the overlay: open on a hand newly shown, until its player closes it
  }

  /** Before the events of a change: a replay (after hello) tells the round again from its start. */
  begin(replay, first) {
    if (!replay) return;
    this.hands = {};
    this.moves = 0;
    if (first) this.open = true;
  }

  /** Follow one event, as seen by `me`, in a match of `players` seats; `live`: not a replay. */
  event(e, me, players, live) {
    if (e.type === "RoundStarted") {
      this.hands = {};
      this.moves = 0;
      this.round = e.round_no;
    } else if (e.type === "Played") {
      this.moves += 1;
      const held = this.hands[e.seat];
      const at = held ? held.cards.indexOf(e.card) : -1;
      if (at >= 0) held.cards.splice(at, 1);
    } else if (e.type === "Peeked" && e.seat === me && e.shown) {
      for (const [seat, cards] of Object.entries(e.shown)) this.shown(Number(seat), cards, live);
    } else if (e.type === "Challenged" && e.challenger === me && e.hand) {
      this.shown(e.attacker, e.hand, live);
    } else if (e.type === "HandsSwapped") {
      const a = this.hands[e.seat];
      const b = this.hands[e.target];
      this.put(e.seat, b);
      this.put(e.target, a);
    } else if (e.type === "HandsRotated") {
      const moved = {};
      for (const [seat, held] of Object.entries(this.hands)) moved[(Number(seat) + e.direction + players) % players] = held;
      delete moved[me];
      this.hands = moved;
    }
  }

  shown(seat, cards, live) {
    this.hands[seat] = { round: this.round, move: this.moves, cards: [...cards] };
    if (live) this.open = true;
  }

  put(seat, held) {
    if (held) this.hands[seat] = held;
    else delete this.hands[seat];
  }

  /** The hands to show: those the server says were seen (view.seen), with what is known. */
  list(view) {
    const seen = (view && view.seen) || {};
    const seats = Object.keys(seen).map(Number).sort((a, b) => a - b);
    return seats.map((seat) => ({ seat, ...(this.hands[seat] || { round: null, move: null, cards: seen[seat] }) }));
  }

  /** The button that opens the overlay again (on the table), or null. */
  reopenButton(page) {
    if (this.open || !this.list(page.view).length) return null;
    return h("button", {
      type: "button", class: "btn btn-small reopen-seen", id: "seen-open", dataset: { focus: "seen-open" },
      text: _("Hands you have seen"),
      onclick: () => {
        this.open = true;
        page.render();
      },
    });
  }
}

/** The overlay of the hands shown to you (a Mater peek, a challenge). */
export function drawSeen(page, started) {
  const el = page.el.seen;
  const list = started && page.view ? page.shown.list(page.view) : [];
  el.hidden = !list.length || !page.shown.open;
  if (el.hidden) {
    el.textContent = "";
    return;
  }
  const ed = page.edition();
  const close = h("button", {
    type: "button", class: "btn btn-small", id: "seen-close", dataset: { focus: "seen-close" }, text: _("Close"),
    onclick: () => {
      page.shown.open = false;
      page.render();
    },
  });
  replaceChildren(el,
    h("div", { class: "dialog-head" }, h("h2", { id: "seen-title", text: _("What you were shown") }), close),
    h("ul", { class: "seen-list", id: "seen-list" }, list.map((held) => h("li", { dataset: { seat: String(held.seat) } },
      h("bdi", { class: "seen-who", text: page.seatLabel(held.seat) }),
      held.round === null ? null : h("span", { class: "seen-when", text: format(_("Seen in round {round}, move {move}"),
        { round: held.round + 1, move: held.move }) }),
      h("span", { class: "mini-hand" }, sortedHand(held.cards).map((c) => cardElement(c, ed))),
      held.cards.length ? null : h("span", { text: "—" })))));
}
