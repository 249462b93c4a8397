// A room's table from the first deal: the other seats in the order play goes, the piles, the
// direction and the colour in play, the line that says what is happening, and (for a seat) the
// hand, the moves and the colour or swap picker of room-hand.js. `page` is the RoomPage.

import { _, format, ngettext } from "./i18n.js";
import { cardBack, cardElement, cardName, colorLetter, colorName } from "./cards.js";
import { h, replaceChildren } from "./dom.js";
import { points } from "./ui.js";
import { actionBar, mySeat, picker } from "./room-hand.js";
import { seatName } from "./teller.js";

/** Draw the table into its section. */
export function drawTable(page) {
  const view = page.view;
  const me = page.seat();
  const playable = page.playableCards();
  page.el.table.querySelector("#table-title").textContent = _("Table");
  const status = statusText(page);
  if (page.el.status.textContent !== status) page.el.status.textContent = status;
  page.el.deadline.textContent = deadlineText(page);
  const parts = [ring(page, me)];
  if (me !== null) {
    parts.push(mySeat(page, me, playable));
    parts.push(actionBar(page, me));
    const chooser = picker(page, me);
    if (chooser) parts.push(chooser);
  } else {
    parts.push(h("p", { class: "spectator-note", id: "spectator-note", text: _("You are watching this match: the players' cards are hidden.") }));
  }
  replaceChildren(page.el.tableBody, parts);
}

/** What is happening, in one line: whose turn it is and what you may do. */
function statusText(page) {
  const view = page.view;
  const me = page.seat();
  const lines = [];
  const ed = page.edition();
  if (view.awaiting === "game_over") {
    lines.push(page.winnersText());
  } else if (view.awaiting === "round_over") {
    lines.push(_("The round is over."));
  } else if (me === null || view.turn !== me) {
    if (view.turn !== null && view.turn !== undefined) lines.push(format(_("Waiting for {who}…"), { who: page.displayName(view.turn) }));
    const jump = me !== null && page.legal().some((a) => a.card);
    if (jump) lines.push(_("You hold the same card as the top of the pile: you may jump in!"));
  } else if (view.awaiting === "play") {
    lines.push(_("Your turn: play a matching card, or draw."));
  } else if (view.awaiting === "drawn") {
    const drawn = page.drawnCard();
    if (drawn) lines.push(format(_("You drew {card}."), { card: cardName(drawn, ed) }));
    lines.push(page.playsOf(drawn).length ? _("Play it, or keep it and pass.") : _("It cannot be played: keep it and pass."));
  } else if (view.awaiting === "respond") {
    const attacker = typeof view.attacker === "number" ? view.attacker : null;
    const n = view.pending || 0;
    if (attacker !== null) {
      lines.push(format(_("{who} played {card} on you: {n} cards to draw."), { who: page.displayName(attacker), card: cardName(view.top, ed), n }));
    } else {
      lines.push(format(ngettext("A draw card is played on you: {n} card to draw.", "A draw card is played on you: {n} cards to draw.", n), { n }));
    }
    const ways = [];
    if (page.has("challenge")) ways.push(_("challenge it"));
    if (page.playableCards().size) ways.push(page.playableCards().has("WP") ? _("answer with Agent P") : _("add a card to the pile"));
    if (ways.length) lines.push(format(_("Take them, or {choices}."), { choices: ways.join(", ") }));
  } else if (view.awaiting === "color") {
    lines.push(_("The first card is a wild card: choose the colour in play."));
  } else if (view.awaiting === "swap") {
    lines.push(_("Choose whom to swap hands with."));
  }
  const catchable = page.targets("catch");
  if (catchable.length) lines.push(format(_("{who} did not call UNO: catch them!"), { who: page.displayName(catchable[0]) }));
  if (page.has("uno")) lines.push(_("You have one card left: call UNO before you are caught!"));
  return lines.join(" ");
}

/** The time left before the server plays for the person on turn (turn_timeout), in words. */
export function deadlineText(page) {
  const view = page.view;
  if (!page.deadline || !view || view.turn === null || view.turn === undefined
    || ["round_over", "game_over"].includes(view.awaiting)) return "";
  const n = Math.max(0, Math.ceil(page.deadline - Date.now() / 1000));
  if (view.turn === page.seat()) {
    return format(ngettext("{n} second left, then a bot plays for you.", "{n} seconds left, then a bot plays for you.", n), { n });
  }
  return format(ngettext("{who}: {n} second left.", "{who}: {n} seconds left.", n), { who: page.displayName(view.turn), n });
}

/** The places of the seats around the table: for a seat, the others from the next seat number
 * on (its left) over the top to the seat before it (its right), always in that order, whatever
 * the direction of play; for a spectator, every seat. Each is [seat, x, y], x and y from 0 to
 * 1 in the ring; `rows` says which edges are used ({ top, sides }). */
export function seatPlaces(players, me) {
  const seats = [];
  if (me === null) for (let s = 0; s < players; s += 1) seats.push(s);
  else for (let i = 1; i < players; i += 1) seats.push((me + i) % players);
  const k = seats.length;
  const side = k >= 3 ? Math.ceil((k - 2) / 3) : 0;
  const top = k - 2 * side;
  const y0 = top > 0 ? 0.34 : 0;
  const column = (j) => (side === 1 ? 0.55 : 1 - (j * (1 - y0)) / (side - 1));
  const edge = side > 0 && top >= 3 ? 0 : 0.22;
  const across = (i) => (top === 1 ? 0.5 : edge + ((1 - 2 * edge) * i) / (top - 1));
  const places = seats.map((seat, n) => {
    if (n < side) return [seat, 0, column(n)];
    if (n < side + top) return [seat, across(n - side), 0];
    return [seat, 1, column(k - 1 - n)];
  });
  return { places, rows: { top: top > 0, sides: side > 0 } };
}

/** The other seats around the table, each in its fixed place, and the piles in the middle. */
function ring(page, me) {
  const view = page.view;
  const catchable = new Set(page.targets("catch"));
  const swaps = new Set(view.awaiting === "swap" && view.turn === me ? page.targets("swap") : []);
  const { places, rows } = seatPlaces(view.players || view.hand_sizes.length, me);
  const panels = places.map(([seat, x, y]) => {
    const el = seatPanel(page, seat, { catchable: catchable.has(seat), swap: swaps.has(seat) });
    el.style.setProperty("--x", String(x));
    el.style.setProperty("--y", String(y));
    el.dataset.place = x === 0 ? "left" : x === 1 ? "right" : "top";
    return el;
  });
  const cls = ["ring", rows.top ? "ring-top" : "", rows.sides ? "ring-sides" : ""];
  return h("div", { class: cls.join(" "), id: "ring", dataset: { seats: String(places.length) } },
    h("ul", { class: "opponents", id: "opponents", "aria-label": _("Players") }, panels),
    center(page),
    page.shown.reopenButton(page));
}

function seatPanel(page, seat, { catchable, swap }) {
  const view = page.view;
  const size = view.hand_sizes[seat] ?? 0;
  const out = view.eliminated && view.eliminated[seat];
  const info = page.room && page.room.seats[seat];
  const playing = !["round_over", "game_over"].includes(view.awaiting);
  const cls = ["seat"];
  if (seat === view.turn && playing) cls.push("on-turn");
  if (seat === view.next && seat !== view.turn && playing) cls.push("is-next");
  if (out) cls.push("out");
  if (page.anim.seats.has(seat)) cls.push("anim-pulse");
  const badges = [];
  if (seat === view.turn && playing) badges.push(h("span", { class: "badge badge-turn visually-hidden", text: _("to play") }));
  if (seat === view.dealer) badges.push(h("span", { class: "badge badge-dealer", text: _("dealer") }));
  if (info && info.away) badges.push(h("span", { class: "badge badge-off", text: _("a bot plays for them") }));
  if (size === 1 && !(view.owed && view.owed[seat])) badges.push(h("span", { class: "badge badge-uno", text: "UNO!" }));
  if (view.owed && view.owed[seat]) badges.push(h("span", { class: "badge badge-warn", text: _("no UNO call!") }));
  const score = view.scores ? view.scores[page.sideOf(seat)] : null;
  const buttons = [];
  if (catchable) {
    buttons.push(h("button", {
      type: "button", class: "btn btn-catch", dataset: { focus: `catch-${seat}`, action: `catch ${seat}` },
      "aria-label": format(_("Catch {who}: no UNO call"), { who: page.displayName(seat) }), "aria-keyshortcuts": "c",
      text: _("Catch!"), onclick: () => page.catchSeat(seat),
    }));
  }
  if (swap) {
    buttons.push(h("button", {
      type: "button", class: "btn btn-swap", dataset: { focus: `swap-${seat}`, action: `swap ${seat}` },
      "aria-label": format(_("Swap hands with {who}"), { who: page.displayName(seat) }), "aria-keyshortcuts": String((seat + 1) % 10),
      text: _("Swap hands"), onclick: () => page.send(`swap ${seat}`),
    }));
  }
  const count = format(ngettext("{n} card", "{n} cards", size), { n: size });
  const label = page.seatLabel(seat);
  const base = seatName(seat);
  const name = label.startsWith(`${base} · `) ? label.slice(base.length + 3) : label;
  return h("li", { class: cls.join(" "), dataset: { seat: String(seat) }, title: label },
    h("div", { class: "seat-name-line" },
      h("span", { class: "seat-no", "aria-hidden": "true", text: String(seat + 1) }),
      h("bdi", { class: "seat-label" }, name === label ? label
        : [h("span", { class: "visually-hidden", text: `${base} · ` }), name])),
    h("div", { class: "seat-line" },
      out ? h("span", { class: "muted", text: _("out of the game") })
        : h("span", { class: "seat-cards" },
          h("span", { class: "mini-back", "aria-hidden": "true" }),
          h("span", { class: "count", "aria-hidden": "true", text: String(size) }),
          h("span", { class: "visually-hidden", text: count })),
      badges,
      score !== null && score !== undefined
        ? h("span", { class: "seat-score", text: format(_("score {points}"), { points: points(score) }) }) : null),
    buttons);
}

/** The piles, the direction and the order of play, the colour in play and the round. */
function center(page) {
  const view = page.view;
  const ed = page.edition();
  const color = colorLetter(view.color);
  const canDraw = page.has("draw");
  const drawText = format(ngettext("Draw pile: {n} card", "Draw pile: {n} cards", view.draw_size), { n: view.draw_size });
  const pile = h("button", {
    type: "button", class: "pile draw-pile", id: "draw-pile", disabled: !canDraw,
    "aria-label": canDraw ? _("Draw a card") : drawText, title: drawText,
    onclick: () => page.send("draw"),
  }, cardBack(null), h("span", { class: "pile-count", "aria-hidden": "true", text: String(view.draw_size) }));
  const top = view.top ? cardElement(view.top, ed) : h("span", { class: "card card-empty" });
  if (page.anim.discard) top.classList.add("anim-in");
  const discard = h("div", { class: "pile discard", id: "discard", title: _("Discard pile") }, top);
  const colorBox = h("div", { class: "in-play", id: "color-in-play" },
    h("span", { class: "visually-hidden", text: _("Colour in play: ") }),
    view.awaiting === "color" ? h("span", { text: _("to be chosen") })
      : h("span", { class: `swatch color-${color || "W"}`, text: color ? `${colorName(color)} [${color}]` : "?" }));
  const order = view.order.map((s) => page.displayName(s));
  const way = view.direction === -1 ? _("right") : _("left");
  const words = format(_("Direction: {way} {arrow} ({order})"), { way, arrow: view.direction === -1 ? "↺" : "↻", order: order.join(" → ") });
  const arrow = h("span", {
    class: `arrow ${view.direction === -1 ? "ccw" : "cw"}${page.anim.direction ? " turned" : ""}`,
    "aria-hidden": "true", text: view.direction === -1 ? "↺" : "↻",
  });
  const info = [
    h("div", { class: "direction", id: "direction", title: words, dataset: { direction: String(view.direction) } },
      arrow, h("span", { class: "visually-hidden", text: words })),
    colorBox,
  ];
  if (view.awaiting === "respond" && view.pending) {
    info.push(h("div", { class: "pending", text: format(_("Cards to draw: {n}"), { n: view.pending }) }));
  }
  info.push(h("div", { class: "round-line", text: [
    format(_("Round {n}"), { n: (view.round ?? 0) + 1 }),
    format(_("Target: {target} points"), { target: points(view.target) }),
  ].join(" · ") }));
  return h("div", { class: "center", id: "center" },
    h("div", { class: "piles" }, pile, discard),
    h("div", { class: "center-info" }, info));
}
