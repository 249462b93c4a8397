// What the server says about itself (GET /api/config, read once when the page starts): the
// editions and their titles, the bots a seat may be given with their names and ratings, the
// special cards' names, the number of players, the limits of names and chat lines, the options
// of the new-room form, and the languages (handed to i18n.js).

import { _, format, setLanguages } from "./i18n.js";
import { getConfig } from "./net.js";

let config = {};

/** Read the server's configuration; until it answers (or if it cannot), every list is empty. */
export async function loadConfig() {
  config = (await getConfig()) || {};
  setLanguages(config.languages, config.language_names);
  return config;
}

/** The configuration as the server sent it. */
export function serverConfig() {
  return config;
}

function editions() {
  return config.editions || [];
}

/** The names of the editions, in the server's order. */
export function editionNames() {
  return editions().map((e) => e.name);
}

/** An edition's title (the name on its box); its name when the server does not know it. */
export function editionTitle(name) {
  const found = editions().find((e) => e.name === name);
  return (found && found.title) || name || "";
}

/** The message id of a special card's name ("WM": "Special Agent Mater"), or null. */
export function specialName(code) {
  const found = editions().find((e) => e.special === code);
  return (found && found.special_name) || null;
}

function choices() {
  return config.bot_choices || [];
}

/** The bots offered for a seat, in the order to show them. */
export function botNames() {
  return choices().map((b) => b.name);
}

/** The bot a seat is given unless someone chooses another. */
export function defaultBot() {
  return (config.defaults && config.defaults.bot) || botNames()[0] || null;
}

/** A bot's name in the current language. */
export function botLabel(bot) {
  const found = choices().find((b) => b.name === bot);
  if (found && found.label) return _(found.label);
  return bot ? format(_("Bot ({name})"), { name: bot }) : _("Bot");
}

/** A bot as a choice for a seat: its name, and its rating where it has one. */
export function botChoice(bot) {
  const found = choices().find((b) => b.name === bot);
  return found && found.elo ? `${botLabel(bot)} · Elo ${found.elo}` : botLabel(bot);
}

/** One of the server's limits (`name_chars`, `chat_chars`, `chat_history`, …), or undefined. */
export function limit(name) {
  return config.limits ? config.limits[name] : undefined;
}

/** One of the server's defaults for a new room (`bot_delay`, `between_rounds`, …), or undefined. */
export function serverDefault(name) {
  return config.defaults ? config.defaults[name] : undefined;
}

/** The fewest and the most players of a match. */
export function playerRange() {
  return { min: config.min_players, max: config.max_players };
}
