// Cards: their codes (R7, B+2, W+4, WM, WP), names in words, order in a hand, and drawing.
// Every card is drawn in its colour AND with its code, so that the game reads the same
// without colour.

import { specialName } from "./config.js";
import { _, format, pgettext } from "./i18n.js";

export const COLORS = ["R", "Y", "G", "B"];
const COLOR_ORDER = { R: 0, Y: 1, G: 2, B: 3, W: 4 };
const RANK_ORDER = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"];
const WILD_ORDER = ["W", "W+4", "WM", "WP"];

/** The colour letter of a card code ("W" for the wild faces). */
export function colorOf(code) {
  return code.startsWith("W") ? "W" : code[0];
}

/** The rank part of a coloured card ("7", "S", "R", "+2"), or the wild face itself. */
export function rankOf(code) {
  return code.startsWith("W") ? code : code.slice(1);
}

export function isWild(code) {
  return code.startsWith("W");
}

/** The colour in play as a letter: the view and events may give 0…3 or "R"…"B". */
export function colorLetter(value) {
  if (typeof value === "number") return COLORS[value] || null;
  if (typeof value === "string" && COLORS.includes(value)) return value;
  if (typeof value === "string") {
    const word = { red: "R", yellow: "Y", green: "G", blue: "B" }[value.toLowerCase()];
    return word || null;
  }
  return null;
}

/** A colour's name in the current language. */
export function colorName(letter) {
  switch (letter) {
    case "R": return pgettext("colour", "red");
    case "Y": return pgettext("colour", "yellow");
    case "G": return pgettext("colour", "green");
    case "B": return pgettext("colour", "blue");
    default: return "";
  }
}

// Card names have the edition as context (each edition follows its own sheet); they are in
// every catalogue already (unokit.text.i18n.dynamic_messages), so they are looked up here by
// name. A special card's name is its edition's, from the server (config.js).
const RANK_WORDS = {
  S: "Skip", R: "Reverse", "+2": "Draw Two", W: "Wild", "W+4": "Wild Draw Four",
};

function rankName(rank, edition) {
  const word = RANK_WORDS[rank] || specialName(rank);
  return word ? pgettext(edition, word) : rank;
}

/** A card in words, as the edition's sheet in this language names it: "red 7". */
export function cardName(code, edition) {
  if (!code) return "";
  if (isWild(code)) return rankName(code, edition);
  return format(_("{color} {card}"), { color: colorName(colorOf(code)), card: rankName(rankOf(code), edition) });
}

/** The order of a hand: by colour (red, yellow, green, blue, wilds), then by number or symbol. */
export function sortKey(code) {
  const color = COLOR_ORDER[colorOf(code)];
  const rank = isWild(code) ? WILD_ORDER.indexOf(code) : RANK_ORDER.indexOf(rankOf(code));
  return color * 20 + (rank < 0 ? 19 : rank);
}

export function sortedHand(hand) {
  return [...hand].sort((a, b) => sortKey(a) - sortKey(b));
}

/** The big symbol printed in the middle of a card. */
function face(code) {
  if (!isWild(code)) {
    const rank = rankOf(code);
    if (rank === "S") return "⊘";
    if (rank === "R") return "⇄";
    return rank;
  }
  return { W: "W", "W+4": "+4", WM: "M", WP: "P" }[code] || code;
}

/**
 * A card as an element: its colour, its code in two corners and a large face in the middle.
 * `tag` is "span" for a card on the table, "button" for one in the hand.
 */
export function cardElement(code, edition, tag = "span") {
  const el = document.createElement(tag);
  el.className = `card color-${colorOf(code)}`;
  el.dataset.card = code;
  const corner = document.createElement("span");
  corner.className = "card-code";
  corner.textContent = code;
  const middle = document.createElement("span");
  middle.className = "card-face";
  middle.textContent = face(code);
  middle.setAttribute("aria-hidden", "true");
  const corner2 = document.createElement("span");
  corner2.className = "card-code card-code-2";
  corner2.textContent = code;
  corner2.setAttribute("aria-hidden", "true");
  el.append(corner, middle, corner2);
  if (tag === "span") {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", `${cardName(code, edition)} (${code})`);
  }
  el.title = `${cardName(code, edition)} (${code})`;
  return el;
}

/** The back of a card (the draw pile, an opponent's hand). */
export function cardBack(label) {
  const el = document.createElement("span");
  el.className = "card card-back";
  const logo = document.createElement("span");
  logo.className = "card-face card-logo";
  logo.setAttribute("aria-hidden", "true");
  el.append(logo);
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
  }
  return el;
}

/**
 * An action in the notation, split: {card, color, uno} for a play ("W+4=B!"), else
 * {word, arg} ("catch 2", "color G", "draw").
 */
export function parseAction(text) {
  let body = text;
  const uno = body.endsWith("!");
  if (uno) body = body.slice(0, -1);
  const space = body.indexOf(" ");
  if (space > 0) return { word: body.slice(0, space), arg: body.slice(space + 1), text };
  if (["draw", "pass", "uno", "challenge", "accept"].includes(body)) return { word: body, text };
  const eq = body.indexOf("=");
  if (eq > 0) return { card: body.slice(0, eq), color: body.slice(eq + 1), uno, text };
  return { card: body, color: null, uno, text };
}
