// Page-wide helpers: going to another page without a reload, short notices, and the words
// for the server's error codes (the server's own `message` is English, a fallback only).

import { _, format } from "./i18n.js";

let router = null;

/** Set the function that shows the page of a path (app.js). */
export function setRouter(fn) {
  router = fn;
}

/** Go to a page of the client (/ or /r/CODE) without a reload. */
export function navigate(path) {
  if (window.location.pathname !== path) window.history.pushState({}, "", path);
  if (router) router(path);
}

let toastTimer = null;

/** Show a short notice (also read out by screen readers). */
export function toast(text) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.classList.add("show");
  if (toastTimer) window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => el.classList.remove("show"), 4000);
}

/**
 * An error from the server (or the network) in the player's words. The codes are those of
 * docs/protocol.md; `err.status` is the HTTP status of a refused request, where there is one.
 */
export function errorText(err) {
  const code = err && err.code;
  const status = err && err.status;
  switch (code) {
    case "illegal":
      return _("That is not possible now.");
    case "stale":
      return _("The game moved on before your move arrived: look again and choose.");
    case "malformed":
      return format(_("The server did not accept that: {reason}"), { reason: (err && err.message) || code });
    case "too_large":
      return _("That message is too long.");
    case "unauthorized":
      return _("You may not do that.");
    case "rate_limited":
      if (status === 503) return _("The server holds as many rooms as it can: try again later.");
      return _("Too fast: wait a moment, then try again.");
    case "not_found":
      if (status === 410) return _("This room is closed.");
      return _("There is no room with that code.");
    case "server_error":
      return _("The server could not save that: nothing changed. Try again.");
    case "network":
      return _("No connection to the server.");
    default:
      return format(_("Something went wrong: {reason}"), { reason: (err && (err.message || code)) || "?" });
  }
}

/** Why a room is closed (its `closed_reason`), in the player's words. */
export function closedText(reason) {
  switch (reason) {
    case "format":
      return _("This room is closed: it was saved by a version of unokit that cannot read it.");
    case "empty":
      return _("This room is closed: everyone left.");
    case "idle":
      return _("This room is closed: nothing happened in it for a long time.");
    default:
      return _("This room is closed.");
  }
}

/** A number of points as people read it: whole, or to six significant digits. */
export function points(x) {
  return Number.isInteger(x) ? String(x) : String(Number(Number(x).toPrecision(6)));
}
