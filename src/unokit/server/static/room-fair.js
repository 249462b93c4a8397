// A person's fair chances at the table: "play and call UNO!" on each card of your
// next-to-last play, a large UNO! and Catch! that stay in reach for the whole window (no bot
// acts for the room's `reaction` meanwhile), the banner of a bot playing for you with its one
// "I'm back" button, and the countdown of the person on turn. `page` is the RoomPage.

import { _, format } from "./i18n.js";
import { cardName } from "./cards.js";
import { h, replaceChildren } from "./dom.js";

/** The second button of a card you may play with your next-to-last: play it and call UNO!; else null. */
export function unoPlayButton(page, code, n) {
  if (!page.playsOf(code).some((a) => a.uno)) return null;
  return h("button", {
    type: "button", class: "btn btn-small btn-uno uno-play", dataset: { focus: `uno-play-${code}-${n}`, card: code },
    "aria-label": format(_("Play {card} and call UNO!"), { card: cardName(code, page.edition()) }),
    text: _("+ UNO!"),
    onclick: () => {
      page.armedUno = true;
      page.playCard(code);
    },
  });
}

/** The large calls and the away banner, into page.el.reach (empty when none applies). */
export function drawReach(page, started) {
  const el = page.el.reach;
  const me = page.seat();
  const parts = [];
  if (started && me !== null && page.view) {
    const mine = page.room && page.room.seats[me];
    if (mine && mine.away) {
      parts.push(h("div", { class: "away-banner", id: "away-banner", role: "alert" },
        h("span", { text: _("A bot is playing for you.") }),
        h("button", { type: "button", class: "btn btn-primary", id: "im-back", text: _("I'm back"), onclick: () => page.conn.back() })));
    }
    if (page.has("uno")) {
      parts.push(h("button", { type: "button", class: "btn btn-uno btn-urgent big-call", id: "big-uno", text: "UNO!", onclick: () => page.uno() }));
    }
    for (const seat of page.targets("catch")) {
      parts.push(h("button", {
        type: "button", class: "btn btn-warn big-call", id: `big-catch-${seat}`,
        text: format(_("Catch {who}!"), { who: page.seatLabel(seat) }), onclick: () => page.catchSeat(seat),
      }));
    }
  }
  replaceChildren(el, parts);
  el.hidden = !parts.length;
  tickCountdown(page);
}

/** The seconds left to the person on turn (turn_timeout, or a bot's move for you while away), large. */
export function tickCountdown(page) {
  const el = page.el && page.el.countdown;
  if (!el) return;
  const view = page.view;
  const info = view && page.room && page.room.seats[view.turn];
  const on = page.deadline && view && info && info.kind === "human"
    && !["round_over", "game_over"].includes(view.awaiting);
  const n = on ? Math.max(0, Math.ceil(page.deadline - Date.now() / 1000)) : null;
  el.hidden = n === null;
  el.textContent = n === null ? "" : String(n);
  el.setAttribute("aria-label", n === null ? "" : format(_("{who}: {n} s"), { who: page.seatLabel(view.turn), n }));
}
