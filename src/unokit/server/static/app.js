// The client of `unokit serve`: plain JavaScript modules, no build step. This module starts
// the page: the language (from the browser, with a switcher), the rules help, and which page
// to show — the lobby at "/", a room at "/r/CODE".

import { _, currentLanguage, languageList, languageName, onLanguageChange, preferredLanguage, setLanguage } from "./i18n.js";
import { h, replaceChildren } from "./dom.js";
import { getRules } from "./net.js";
import { renderMarkdown } from "./markdown.js";
import { editionTitle, loadConfig } from "./config.js";
import { showLobby } from "./lobby.js";
import { showRoom } from "./room.js";
import { navigate, setRouter, toast } from "./ui.js";

let page = null;
let currentPath = null;

function roomCode(path) {
  const m = /^\/r\/([^/]+)\/?$/.exec(path);
  return m ? decodeURIComponent(m[1]) : null;
}

function show(path) {
  currentPath = path;
  const main = document.getElementById("main");
  if (page && page.destroy) page.destroy();
  page = null;
  const code = roomCode(path);
  if (code) {
    document.title = `${code} — unokit`;
    page = showRoom(main, code);
  } else {
    document.title = "unokit";
    showLobby(main);
  }
  drawHeader();
}

function drawHeader() {
  const select = document.getElementById("lang-select");
  const label = document.getElementById("lang-label");
  const help = document.getElementById("help-button");
  const brand = document.getElementById("brand");
  label.textContent = _("Language");
  help.textContent = _("Rules");
  help.setAttribute("aria-keyshortcuts", "?");
  brand.setAttribute("aria-label", _("unokit: back to the lobby"));
  const lang = currentLanguage();
  replaceChildren(select, languageList().map((code) => h("option", { value: code, selected: code === lang, lang: code, text: languageName(code) })));
}

async function openHelp() {
  const dialog = document.getElementById("help-dialog");
  const body = document.getElementById("help-body");
  const title = document.getElementById("help-title");
  const close = document.getElementById("help-close");
  const edition = (page && page.edition && page.edition()) || "classic";
  title.textContent = [_("Rules"), editionTitle(edition)].join(" — ");
  close.textContent = _("Close");
  replaceChildren(body, h("p", { class: "muted", text: _("Loading…") }));
  if (!dialog.open) dialog.showModal();
  try {
    const markdown = await getRules(currentLanguage(), edition);
    replaceChildren(body, renderMarkdown(markdown));
  } catch (err) {
    replaceChildren(body, h("p", { text: _("The rules could not be loaded.") }));
  }
}

async function main() {
  setRouter(show);
  await loadConfig(); // the languages first: the preferred one is chosen among them
  try {
    await setLanguage(preferredLanguage());
  } catch (err) {
    await setLanguage("en");
  }
  document.getElementById("lang-select").addEventListener("change", async (ev) => {
    try {
      await setLanguage(ev.target.value, true);
    } catch (err) {
      toast(String(err));
    }
  });
  document.getElementById("help-button").addEventListener("click", openHelp);
  document.getElementById("help-close").addEventListener("click", () => document.getElementById("help-dialog").close());
  document.getElementById("brand").addEventListener("click", (ev) => {
    ev.preventDefault();
    navigate("/");
  });
  document.addEventListener("click", (ev) => {
    const link = ev.target.closest && ev.target.closest("a[data-nav], a.room-link");
    if (link && link.getAttribute("href")) {
      ev.preventDefault();
      navigate(link.getAttribute("href"));
    }
  });
  window.addEventListener("popstate", () => show(window.location.pathname));
  onLanguageChange(() => {
    drawHeader();
    if (page && page.render) page.render();
    else if (currentPath !== null && !roomCode(currentPath)) showLobby(document.getElementById("main"));
    if (document.getElementById("help-dialog").open) openHelp();
  });
  show(window.location.pathname);
  document.body.classList.add("ready");
}

main();
