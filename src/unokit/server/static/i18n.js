// Translations: the same gettext catalogues as the terminal game, served as JSON by
// GET /api/i18n/{lang}. English is the msgids themselves. Messages are marked in the source
// as _("…"), ngettext("…", "…", n) and pgettext("context", "…") with plain string literals,
// so that the catalogue test (tests/test_web_browser_i18n.py) extracts them with Babel.

// The languages and their names are the server's (GET /api/config: config.js hands them over
// with setLanguages before the first language is set); English alone until then.
let languages = ["en"];
let languageNames = {};
const STORE_KEY = "unokit.lang";
const CONTEXT_SEP = "\u0004";

let lang = "en";
let messages = {};
let pluralOf = (n) => (n === 1 ? 0 : 1);
const listeners = new Set();

/** Take the server's languages (codes) and their names in their own language. */
export function setLanguages(codes, names) {
  languages = codes && codes.length ? [...codes] : ["en"];
  languageNames = { ...(names || {}) };
}

/** The languages there are catalogues for, in the server's order. */
export function languageList() {
  return languages;
}

/** A language's name in that language (its code when the server gave none). */
export function languageName(code) {
  return languageNames[code] || code;
}

/** The language now in use. */
export function currentLanguage() {
  return lang;
}

/** The browser's preferred language among ours (a stored choice first), else English. */
export function preferredLanguage() {
  let stored = null;
  try {
    stored = window.localStorage.getItem(STORE_KEY);
  } catch (_err) {
    stored = null;
  }
  if (stored && languages.includes(stored)) return stored;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const tag of wanted) {
    const code = String(tag).toLowerCase().split(/[-_]/)[0];
    if (languages.includes(code)) return code;
  }
  return "en";
}

/** Load a language's catalogue and make it current; tells every listener. */
export async function setLanguage(code, remember = false) {
  if (!languages.includes(code)) code = "en";
  let table = {};
  let plural = null;
  if (code !== "en") {
    const res = await fetch(`/api/i18n/${code}`, { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error(`catalogue ${code}: HTTP ${res.status}`);
    const data = await res.json();
    ({ table, plural } = readCatalogue(data));
  }
  lang = code;
  messages = table;
  pluralOf = plural ? compilePlural(plural) : (n) => (n === 1 ? 0 : 1);
  if (remember) {
    try {
      window.localStorage.setItem(STORE_KEY, code);
    } catch (_err) {
      /* private mode: the choice lasts for this page only */
    }
  }
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

/** Call fn(lang) after every change of language. */
export function onLanguageChange(fn) {
  listeners.add(fn);
}

// The catalogue's JSON: {msgid: msgstr} with "context\x04msgid" keys for msgctxt entries and
// a list of forms for a plural message (keyed by its singular msgid), either flat or under
// "messages" beside "plural" (the Plural-Forms expression) — both shapes are read.
function readCatalogue(data) {
  let table = data;
  let plural = null;
  if (data && typeof data === "object" && data.messages && typeof data.messages === "object") {
    table = { ...data.messages };
    if (data.plurals && typeof data.plurals === "object") {
      for (const [msgid, forms] of Object.entries(data.plurals)) table[msgid] = forms;
    }
    plural = data.plural_forms || (typeof data.plural === "string" ? data.plural : null);
  } else if (data && typeof data[""] === "string") {
    const m = /plural=([^;]+)/.exec(data[""]);
    if (m) plural = m[1];
  }
  if (plural && typeof plural === "string") {
    const m = /plural=([^;]+)/.exec(plural);
    if (m) plural = m[1];
  }
  return { table: table || {}, plural };
}

function lookup(key) {
  return Object.prototype.hasOwnProperty.call(messages, key) ? messages[key] : undefined;
}

/** Translate a message. */
export function _(msgid) {
  const found = lookup(msgid);
  if (typeof found === "string" && found) return found;
  if (Array.isArray(found) && found[0]) return found[0];
  return msgid;
}

/** Translate the form of singular/plural that fits n. */
export function ngettext(singular, plural, n) {
  const found = lookup(singular);
  if (Array.isArray(found) && found.length) {
    const idx = Math.min(Math.max(pluralOf(n) | 0, 0), found.length - 1);
    if (found[idx]) return found[idx];
  } else if (found && typeof found === "object") {
    const idx = String(pluralOf(n) | 0);
    if (found[idx]) return found[idx];
  }
  return n === 1 ? singular : plural;
}

/** Translate a message in a context (card names per edition, colours). */
export function pgettext(context, msgid) {
  const found = lookup(context + CONTEXT_SEP + msgid);
  if (typeof found === "string" && found) return found;
  return msgid;
}

// Greek declines a player's name after an article in the genitive or the accusative ("του
// Παίκτη 1", "τον Παίκτη 2"); the messages are written with the nominative (as
// unokit.text.i18n.Translator.agree does for the terminal).
const OBLIQUE = {
  el: [/(^|[^\p{L}])(του|τον|στον|των) Παίκτης (\d+)((?: και)? )?(Παίκτης)?/gu, "Παίκτη"],
};

/** A told line with each player's name in the case its article asks for. */
export function agree(text) {
  const rule = OBLIQUE[lang];
  if (!rule) return text;
  const [pattern, oblique] = rule;
  return text.replace(pattern, (_m, lead, article, n, and, second) =>
    `${lead}${article} ${oblique} ${n}${and || ""}${and && second ? oblique : ""}`);
}

/** Python's str.format for the catalogues' "{name}" fields. */
export function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) =>
    Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole);
}

function applyOp(op, v, w) {
  switch (op) {
    case "*": return v * w;
    case "/": return w ? Math.trunc(v / w) : 0;
    case "%": return w ? v % w : 0;
    case "+": return v + w;
    case "-": return v - w;
    case "<": return v < w ? 1 : 0;
    case ">": return v > w ? 1 : 0;
    case "<=": return v <= w ? 1 : 0;
    case ">=": return v >= w ? 1 : 0;
    case "==": return v === w ? 1 : 0;
    case "!=": return v !== w ? 1 : 0;
    case "&&": return v && w ? 1 : 0;
    case "||": return v || w ? 1 : 0;
    default: return v;
  }
}

// A tiny evaluator for the C expression of a catalogue's Plural-Forms (no eval: the page's
// Content-Security-Policy forbids it): n, numbers, ! % * / + - < > <= >= == != && || ?: ( ).
function compilePlural(expr) {
  const tokens = String(expr).match(/\d+|n|&&|\|\||[<>!=]=|[-+*/%<>!?:()]/g) || [];
  const parse = (n) => {
    let i = 0;
    const peek = () => tokens[i];
    const next = () => tokens[i++];
    const primary = () => {
      const tok = next();
      if (tok === "(") {
        const v = ternary();
        next();
        return v;
      }
      if (tok === "!") return primary() ? 0 : 1;
      if (tok === "-") return -primary();
      if (tok === "n") return n;
      return Number(tok) || 0;
    };
    const binary = (ops, sub) => () => {
      let v = sub();
      while (ops.includes(peek())) {
        const op = next();
        const w = sub();
        v = applyOp(op, v, w);
      }
      return v;
    };
    const mul = binary(["*", "/", "%"], primary);
    const add = binary(["+", "-"], mul);
    const rel = binary(["<", ">", "<=", ">="], add);
    const eq = binary(["==", "!="], rel);
    const and = binary(["&&"], eq);
    const or = binary(["||"], and);
    function ternary() {
      const cond = or();
      if (peek() === "?") {
        next();
        const a = ternary();
        next();
        const b = ternary();
        return cond ? a : b;
      }
      return cond;
    }
    return ternary();
  };
  return (n) => {
    const v = parse(n);
    return typeof v === "boolean" ? (v ? 1 : 0) : v;
  };
}
