// Your seat at the table: your hand (the cards you may play raised), your score and badges,
// your moves as buttons with their keys, and the picker of a colour or of whom to swap hands
// with. `page` is the RoomPage.

import { _, format, ngettext } from "./i18n.js";
import { cardElement, cardName, colorName, COLORS, sortedHand } from "./cards.js";
import { h } from "./dom.js";
import { points } from "./ui.js";
import { focusHand } from "./room-keys.js";
import { unoPlayButton } from "./room-fair.js";

/** Your seat: its head, your hand and the keys' legend. */
export function mySeat(page, me, playable) {
  const view = page.view;
  const ed = page.edition();
  const hand = sortedHand(view.hand || []);
  const drawn = view.awaiting === "drawn" && view.turn === me ? page.drawnCard() : null;
  const seen = {};
  const items = hand.map((code) => {
    seen[code] = (seen[code] || 0) + 1;
    const ok = playable.has(code);
    const btn = cardElement(code, ed, "button");
    btn.type = "button";
    btn.classList.add(ok ? "playable" : "unplayable");
    if (code === drawn) btn.classList.add("drawn");
    if (page.anim.hand.has(code)) btn.classList.add("anim-new");
    if (!ok) btn.setAttribute("aria-disabled", "true");
    btn.dataset.focus = `card-${code}-${seen[code]}`;
    const state = ok ? _("playable") : _("not playable now");
    btn.setAttribute("aria-label", [`${cardName(code, ed)} (${code})`, state].join(", "));
    btn.addEventListener("click", () => page.playCard(code));
    return h("li", {}, btn, ok ? unoPlayButton(page, code, seen[code]) : null);
  });
  const score = view.scores ? view.scores[page.sideOf(me)] : 0;
  const cls = ["my-seat"];
  if (view.turn === me && !["round_over", "game_over"].includes(view.awaiting)) cls.push("on-turn");
  const badges = [];
  if (view.turn === me && !["round_over", "game_over"].includes(view.awaiting)) badges.push(h("span", { class: "badge badge-turn", text: _("your turn") }));
  if (me === view.dealer) badges.push(h("span", { class: "badge", text: _("dealer") }));
  const mine = page.room && page.room.seats[me];
  if (mine && mine.away) badges.push(h("span", { class: "badge badge-off", text: _("a bot plays for you until you act") }));
  if (page.armedUno) badges.push(h("span", { class: "badge badge-uno", text: _("UNO will be called with your next play.") }));
  return h("section", { class: cls.join(" "), id: "my-seat", "aria-labelledby": "my-seat-title" },
    h("div", { class: "seat-head" },
      h("h2", { id: "my-seat-title" }, h("bdi", { text: page.seatLabel(me) }), " ", _("(you)")),
      badges,
      h("span", { class: "muted", text: format(_("score {points}"), { points: points(score ?? 0) }) })),
    hand.length ? h("ul", { class: `hand${hand.length <= 10 ? " hand-few" : ""}`, id: "hand", "aria-label": _("Your hand") }, items)
      : h("p", { class: "muted", id: "hand", text: _("(no cards)") }),
    h("p", { class: "legend muted", text: _("Raised cards can be played. Keys: ←/→ choose, Enter play, D draw, P pass, U UNO, A take the cards, X challenge, C catch, R/Y/G/B colour, ? rules.") }));
}

/** Your moves now, as buttons. */
export function actionBar(page, me) {
  const view = page.view;
  const ed = page.edition();
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
      const drawn = page.drawnCard();
      if (drawn && page.playsOf(drawn).length) {
        add("play-drawn", format(_("Play {card}"), { card: cardName(drawn, ed) }), null, () => page.playCard(drawn), { cls: "btn-primary" });
      }
    }
    add("act-draw", _("Draw a card"), "d", () => page.send("draw"), { disabled: !page.has("draw") });
    add("act-pass", _("Keep it and pass"), "p", () => page.send("pass"), { disabled: !page.has("pass") });
    const canUno = page.has("uno") || page.canUnoPlay();
    add("act-uno", "UNO!", "u", () => page.uno(), {
      disabled: !canUno, pressed: page.has("uno") ? undefined : page.armedUno, cls: page.has("uno") ? "btn-uno btn-urgent" : "btn-uno",
    });
    if (view.awaiting === "respond" && view.turn === me) {
      add("act-accept", format(ngettext("Take {n} card", "Take {n} cards", view.pending || 0), { n: view.pending || 0 }), "a",
        () => page.send("accept"), { disabled: !page.has("accept") });
      if (page.has("challenge")) add("act-challenge", _("Challenge"), "x", () => page.send("challenge"), { cls: "btn-warn" });
    }
  }
  return h("div", { class: "actions", id: "actions", role: "toolbar", "aria-label": _("Your moves") }, buttons);
}

/** The colour picker (a wild card, a wild turned up first) or the swap picker; else null. */
export function picker(page, me) {
  const view = page.view;
  const ed = page.edition();
  if (page.choosing || (view.awaiting === "color" && view.turn === me && page.has("color"))) {
    const title = page.choosing
      ? format(_("Choose the colour for {card}:"), { card: cardName(page.choosing, ed) })
      : _("Choose the colour in play:");
    const buttons = COLORS.map((letter) => h("button", {
      type: "button", class: `btn color-btn color-${letter}`, dataset: { focus: `color-${letter}`, color: letter },
      "aria-keyshortcuts": letter.toLowerCase(), onclick: () => page.chooseColor(letter),
    }, `${colorName(letter)} `, h("kbd", { text: letter })));
    if (page.choosing) {
      buttons.push(h("button", {
        type: "button", class: "btn", dataset: { focus: "color-cancel" }, "aria-keyshortcuts": "Escape",
        text: _("Cancel"), onclick: () => {
          page.choosing = null;
          page.render();
          focusHand(page, true);
        },
      }));
    }
    return h("div", { class: "picker", id: "picker", role: "group", "aria-label": title }, h("p", { text: title }), buttons);
  }
  if (view.awaiting === "swap" && view.turn === me) {
    const buttons = page.targets("swap").map((seat) => h("button", {
      type: "button", class: "btn", dataset: { focus: `pick-swap-${seat}` }, "aria-keyshortcuts": String((seat + 1) % 10),
      onclick: () => page.send(`swap ${seat}`),
    }, h("bdi", { text: page.seatLabel(seat) }), " ", h("kbd", { text: String((seat + 1) % 10) })));
    return h("div", { class: "picker", id: "picker", role: "group", "aria-label": _("Choose whom to swap hands with.") },
      h("p", { text: _("Choose whom to swap hands with.") }), buttons);
  }
  return null;
}
