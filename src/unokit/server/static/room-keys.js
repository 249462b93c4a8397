// A room's keys: ←/→/Home/End move along the hand, a letter takes a move (D draw, P pass,
// U UNO, A take the cards, X challenge, C catch, H the hand, N the next round), R/Y/G/B name a
// colour, a digit chooses whom to swap hands with, ? opens the rules. `page` is the RoomPage.

const COLOR_KEYS = { r: "R", y: "Y", g: "G", b: "B" };
const HAND_KEYS = ["ArrowLeft", "ArrowRight", "Home", "End"];

/** What a key pressed on a room's page does. */
export function key(page, ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const target = ev.target;
  const tag = target && target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) return;
  if (document.querySelector("dialog[open]")) return;
  const k = ev.key;
  if (HAND_KEYS.includes(k)) {
    moveInHand(page, ev);
    return;
  }
  if (!page.view || page.seat() === null) {
    if (k === "?") openHelp(ev);
    return;
  }
  const lower = k.length === 1 ? k.toLowerCase() : k;
  if (colorKey(page, ev, lower)) return;
  if (moveKey(page, ev, lower)) ev.preventDefault();
}

function moveInHand(page, ev) {
  const k = ev.key;
  const cards = [...page.main.querySelectorAll("#hand .card")];
  if (!cards.length) return;
  const at = cards.indexOf(document.activeElement);
  let next;
  if (at < 0) next = firstPlayableIndex(cards);
  else if (k === "Home") next = 0;
  else if (k === "End") next = cards.length - 1;
  else next = (at + (k === "ArrowLeft" ? -1 : 1) + cards.length) % cards.length;
  cards[next].focus();
  ev.preventDefault();
}

/** A colour's key while a colour is to be chosen (and Escape, to choose another card). */
function colorKey(page, ev, lower) {
  const view = page.view;
  if (!(page.choosing || (view.awaiting === "color" && view.turn === page.seat()))) return false;
  if (COLOR_KEYS[lower]) {
    page.chooseColor(COLOR_KEYS[lower]);
    ev.preventDefault();
    return true;
  }
  if (ev.key === "Escape" && page.choosing) {
    page.choosing = null;
    page.render();
    focusHand(page, true);
    ev.preventDefault();
    return true;
  }
  return false;
}

/** A move's key; whether the key was one. */
function moveKey(page, ev, lower) {
  const view = page.view;
  switch (lower) {
    case "d": if (page.has("draw")) page.send("draw"); break;
    case "p": if (page.has("pass")) page.send("pass"); break;
    case "u": page.uno(); break;
    case "a": if (page.has("accept")) page.send("accept"); break;
    case "x": if (page.has("challenge")) page.send("challenge"); break;
    case "c": page.catchSeat(); break;
    case "h": focusHand(page, true); break;
    case "n":
      if (view.awaiting === "round_over") page.ready();
      break;
    case "?": openHelp(ev); return false;
    default:
      if (/^[0-9]$/.test(ev.key) && view.awaiting === "swap") {
        const seat = (Number(ev.key) || 10) - 1;
        if (page.targets("swap").includes(seat)) page.send(`swap ${seat}`);
      } else {
        return false;
      }
  }
  return true;
}

function openHelp(ev) {
  const button = document.getElementById("help-button");
  if (button) {
    button.click();
    ev.preventDefault();
  }
}

function firstPlayableIndex(cards) {
  const i = cards.findIndex((c) => c.classList.contains("playable"));
  return i >= 0 ? i : 0;
}

/** Put the focus on the hand (its first playable card): always when `force`, else only when
 * nothing else of the page holds it. */
export function focusHand(page, force) {
  const active = document.activeElement;
  const busy = active && ["INPUT", "TEXTAREA", "SELECT"].includes(active.tagName);
  if (busy && !force) return;
  if (!force && active && active !== document.body && !page.main.contains(active)) return;
  const cards = [...page.main.querySelectorAll("#hand .card")];
  if (cards.length) cards[firstPlayableIndex(cards)].focus({ preventScroll: true });
}
