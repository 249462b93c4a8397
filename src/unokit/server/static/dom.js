// Building the page: elements from plain data. Text is always set with textContent (never as
// HTML), so that names and chat can hold anything, "<script>" included, and show it as text.

/**
 * h("button", {class: "x", onclick: fn, "aria-label": "…"}, "text", child, …): an element.
 * Attributes: class, dataset (an object), on<event> (a function), text, and any other attribute
 * (set when not null/false; true sets it empty).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "value") el.value = value;
    else if (key === "checked" || key === "selected" || key === "disabled") el[key] = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.append(child);
    else el.append(document.createTextNode(String(child)));
  }
}

/** Replace every child of el. */
export function replaceChildren(el, ...children) {
  el.textContent = "";
  append(el, children);
  return el;
}

/** The element to give focus back to after a redraw: its data-focus key. */
export function focusKey() {
  const el = document.activeElement;
  return el && el.dataset ? el.dataset.focus || null : null;
}

export function restoreFocus(key) {
  if (!key) return;
  const el = document.querySelector(`[data-focus="${CSS.escape(key)}"]`);
  if (el && el !== document.activeElement) el.focus({ preventScroll: true });
}
