// A room's table from the first deal: the other seats in the order play goes, the piles, the
// direction and the colour in play, the line that says what is happening, and (for a seat) the
// hand, the moves and the colour or swap picker of room-hand.js. `page` is the RoomPage.

import { _, format, ngettext } from "./i18n.js";
import { cardBack, cardElement, cardName, colorLetter, colorName } from "./cards.js";
import { h, replaceChildren } from "./dom.js";
import { points } from "./ui.js";
import { actionBar, mySeat, picker } from "./room-hand.js";

/** Draw the table into its section. */
export function drawTable(page) {
  const view = page.view;
  const me = page.seat();
  const playable = page.playableCards();
  page.el.table.querySelector("#table-title").textContent = _("Table");
  const status = statusText(page);
  if (page.el.status.textContent !== status) page.el.status.textContent = status;
  page.el.deadline.textContent = deadlineText(page);
  const parts = [
    opponents(page, me),
    center(page),
  ];
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

/** The other seats, in the order play goes from this seat (all seats for a spectator). */
function opponents(page, me) {
  const view = page.view;
  const catchable = new Set(page.targets("catch"));
  const swaps = new Set(view.awaiting === "swap" && view.turn === me ? page.targets("swap") : []);
  const panels = view.around.map((seat) => seatPanel(page, seat, { catchable: catchable.has(seat), swap: swaps.has(seat) }));
  return h("ul", { class: "opponents", id: "opponents", "aria-label": _("Players") }, panels);
}

function seatPanel(page, seat, { catchable, swap }) {
  const view = page.view;
  const size = view.hand_sizes[seat] ?? 0;
  const out = view.eliminated && view.eliminated[seat];
  const info = page.room && page.room.seats[seat];
  const cls = ["seat"];
  if (seat === view.turn && !["round_over", "game_over"].includes(view.awaiting)) cls.push("on-turn");
  if (out) cls.push("out");
  if (page.anim.seats.has(seat)) cls.push("anim-pulse");
  const badges = [];
  if (seat === view.turn && !["round_over", "game_over"].includes(view.awaiting)) badges.push(h("span", { class: "badge badge-turn", text: _("to play") }));
  if (seat === view.dealer) badges.push(h("span", { class: "badge", text: _("dealer") }));
  if (info && info.away) badges.push(h("span", { class: "badge badge-off", text: _("a bot plays for them") }));
  if (size === 1 && !(view.owed && view.owed[seat])) badges.push(h("span", { class: "badge badge-uno", text: "UNO!" }));
  if (view.owed && view.owed[seat]) badges.push(h("span", { class: "badge badge-warn", text: _("no UNO call!") }));
  const backs = h("span", { class: "backs", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(size, 12); i += 1) backs.append(h("span", { class: "mini-back" }));
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
  return h("li", { class: cls.join(" "), dataset: { seat: String(seat) } },
    h("div", { class: "seat-head" }, h("bdi", { class: "seat-label", text: page.seatLabel(seat) }), badges),
    out ? h("div", { class: "muted", text: _("out of the game") })
      : h("div", { class: "seat-cards" }, backs, h("span", { class: "count", text: format(ngettext("{n} card", "{n} cards", size), { n: size }) })),
    score !== null && score !== undefined ? h("div", { class: "muted", text: format(_("score {points}"), { points: points(score) }) }) : null,
    buttons);
}

/** The piles, the direction and the order of play, the colour in play and the round. */
function center(page) {
  const view = page.view;
  const ed = page.edition();
  const color = colorLetter(view.color);
  const canDraw = page.has("draw");
  const pile = h("button", {
    type: "button", class: "pile draw-pile", id: "draw-pile", disabled: !canDraw,
    "aria-label": canDraw ? _("Draw a card") : format(ngettext("Draw pile: {n} card", "Draw pile: {n} cards", view.draw_size), { n: view.draw_size }),
    onclick: () => page.send("draw"),
  }, cardBack(null), h("span", { class: "pile-count", text: String(view.draw_size) }));
  const top = view.top ? cardElement(view.top, ed) : h("span", { class: "card card-empty" });
  if (page.anim.discard) top.classList.add("anim-in");
  const discard = h("div", { class: "pile discard", id: "discard" }, top);
  const colorBox = h("div", { class: "in-play", id: "color-in-play" },
    h("span", { class: "muted", text: _("Colour in play: ") }),
    view.awaiting === "color" ? h("span", { text: _("to be chosen") })
      : h("span", { class: `swatch color-${color || "W"}`, text: color ? `${colorName(color)} [${color}]` : "?" }));
  const order = view.order.map((s) => page.displayName(s));
  const way = view.direction === -1 ? _("right") : _("left");
  const arrow = view.direction === -1 ? "↺" : "↻";
  const info = [
    h("div", { class: "direction", id: "direction", dataset: { direction: String(view.direction) } },
      h("span", { text: format(_("Direction: {way} {arrow} ({order})"), { way, arrow, order: order.join(" → ") }) })),
    colorBox,
    h("div", { class: "muted", text: format(ngettext("Draw pile: {n} card", "Draw pile: {n} cards", view.draw_size), { n: view.draw_size }) }),
    h("div", { class: "muted", text: [
      format(_("Round {n}"), { n: (view.round ?? 0) + 1 }),
      format(_("Target: {target} points"), { target: points(view.target) }),
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
