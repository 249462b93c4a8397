// A room's side panels — the scores, the move log, the chat — and
// the score table shown between rounds and at the match's end. `page` is the RoomPage.

import { _, format } from "./i18n.js";
import { h, replaceChildren } from "./dom.js";
import { seatName } from "./teller.js";
import { points } from "./ui.js";

/** The match totals per side. */
export function drawScores(page, started) {
  const el = page.el.scores;
  el.hidden = !started;
  if (!started) return;
  const view = page.view;
  const sides = (view.scores || []).map((score, side) => h("tr", {},
    h("th", { scope: "row" }, h("bdi", { text: page.teams() ? page.sideName(side) : page.seatLabel(side) })),
    h("td", { text: points(score) })));
  replaceChildren(el,
    h("h2", { id: "scores-title", text: _("Scores") }),
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: _("Player") }), h("th", { scope: "col", text: _("Total") }))),
      h("tbody", {}, sides)),
    h("p", { class: "muted", text: format(_("Target: {target} points"), { target: points(view.target) }) }));
}

/** The move log. */
export function drawLog(page) {
  page.el.logTitle.textContent = _("Moves");
  page.el.log.parentElement.hidden = !page.log.length;
  const items = page.log.map((line) => (line.rule ? h("li", { class: "log-rule", "aria-hidden": "true" })
    : h("li", { text: line.text })));
  replaceChildren(page.el.log, items);
  page.el.log.scrollTop = page.el.log.scrollHeight;
}

/** The chat: its lines and (for a seat) its form. */
export function drawChat(page) {
  if (!page.el) return;
  page.el.chatTitle.textContent = _("Chat");
  page.el.chatLabel.textContent = _("Message");
  page.el.chatSend.textContent = _("Send");
  page.el.chatInput.placeholder = _("Say something (up to 200 characters)");
  const seated = page.seat() !== null;
  page.el.chatForm.hidden = !seated;
  const items = page.chat.map((msg) => {
    const seat = typeof msg.seat === "number" ? msg.seat : null;
    const who = msg.name || (seat !== null ? seatName(seat) : "?");
    return h("li", {},
      h("bdi", { class: "chat-name", text: seat !== null ? `${seatName(seat)} · ${who}` : who }),
      ": ",
      h("span", { class: "chat-text", text: String(msg.text ?? "") }));
  });
  replaceChildren(page.el.chatList, items);
  page.el.chatList.scrollTop = page.el.chatList.scrollHeight;
}

/** The score table between rounds and at the match's end, with the ready or rematch buttons. */
export function drawRoundEnd(page, started) {
  const el = page.el.overlay;
  const view = page.view;
  const show = started && view && ["round_over", "game_over"].includes(view.awaiting);
  el.hidden = !show;
  if (!show) {
    el.textContent = "";
    return;
  }
  const final = view.awaiting === "game_over";
  const title = final ? page.winnersText() : format(_("Scores after round {n}"), { n: (view.round ?? 0) + 1 });
  const parts = [
    h("h2", { id: "round-end-title", text: title }),
    final ? h("p", { text: _("The match is over.") }) : null,
    h("table", { class: "scores score-table", id: "score-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: _("Player") }),
        h("th", { scope: "col", text: _("Cards left") }),
        h("th", { scope: "col", text: _("Points in hand") }),
        h("th", { scope: "col", text: _("Total") }))),
      h("tbody", {}, scoreRows(page))),
    h("p", { class: "muted", text: format(_("Target: {target} points"), { target: points(view.target) }) }),
    final ? matchOverButtons(page) : nextRound(page),
  ];
  replaceChildren(el, parts);
}

/** A row per side: its cards left, the points in them, its total; the round's winner starred. */
function scoreRows(page) {
  const view = page.view;
  const last = page.lastRound;
  const teams = page.teams();
  const winnerSide = last ? page.sideOf(last.winner) : view.round_winner;
  return (view.scores || []).map((total, side) => {
    const seats = page.seatsOf(side);
    const left = seats.reduce((sum, s) => sum + (view.hand_sizes[s] || 0), 0);
    const inHand = last && last.points ? seats.reduce((sum, s) => sum + (last.points[s] || 0), 0) : null;
    return h("tr", { class: side === winnerSide ? "winner" : "" },
      h("th", { scope: "row" }, h("bdi", { text: teams ? page.sideName(side) : page.seatLabel(side) }), side === winnerSide ? " ★" : ""),
      h("td", { text: String(left) }),
      h("td", { text: inHand === null ? "" : points(inHand) }),
      h("td", { text: points(total) }));
  });
}

/** Between rounds: the ready button (a seat), or a note. */
function nextRound(page) {
  if (page.seat() === null) return h("p", { class: "muted", text: _("The next round starts soon.") });
  if (page.readySent === page.view.round) {
    return h("p", { class: "muted", id: "ready-note", text: _("Ready: the next round starts when everyone is ready.") });
  }
  return h("button", {
    type: "button", class: "btn btn-primary", id: "ready-button", dataset: { focus: "ready" }, "aria-keyshortcuts": "n",
    onclick: () => page.ready(),
  }, _("Ready for the next round"), " ", h("kbd", { "aria-hidden": "true", text: "N" }));
}

/** At the match's end: back to the lobby, and (the host) play again. */
function matchOverButtons(page) {
  const buttons = [h("a", { href: "/", class: "btn", "data-nav": "1", text: _("Back to the lobby") })];
  if (page.isHost()) {
    buttons.push(h("button", { type: "button", class: "btn btn-primary", id: "rematch-button", text: _("Play again"), onclick: () => page.conn.rematch() }));
  }
  return h("div", { class: "inline-form" }, buttons);
}
