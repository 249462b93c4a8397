// The move log: the server's structured events told in the player's language by the table of
// words for events that the terminal's Teller reads too (unokit.text.events), which the server
// sends with what the rules settle (GET /api/narration). This file only interprets the table:
// the messages, their conditions and the rules' values are all in it.

import { _, agree, format, ngettext } from "./i18n.js";
import { cardName, colorLetter, colorName } from "./cards.js";

async function loadTable() {
  const res = await fetch("/api/narration", { headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`the words for events: HTTP ${res.status}`);
  return res.json();
}

const TABLE = await loadTable();

/** A seat as people read it: "Player 1" for seat 0. */
export function seatName(seat) {
  return format(_(TABLE.words.seat), { n: seat + 1 });
}

function num(x) {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(6)));
}

export class Teller {
  constructor(edition, players, teams = 0) {
    this.edition = edition;
    this.players = players;
    this.teams = teams;
    this.state = { ...TABLE.state }; // what the table remembers between events
    const partners = teams ? TABLE.rules.partners[String(players)] : null;
    this.sides = partners && partners.length === teams ? partners : Array.from({ length: players }, (_v, s) => [s]);
  }

  get scores() {
    return this.state.scores;
  }

  set scores(value) {
    this.state.scores = value;
  }

  get eliminated() {
    return this.state.eliminated;
  }

  set eliminated(value) {
    this.state.eliminated = value;
  }

  /** Each seat's display name (null for "Player n"), as the table's state holds it. */
  get names() {
    return this.state.names;
  }

  set names(value) {
    this.state.names = value;
  }

  /** The seat told to ("You play…"); -1 for a spectator. */
  get viewer() {
    return this.state.viewer;
  }

  set viewer(value) {
    this.state.viewer = value;
  }

  /** A seat's name: its display name when the teller has one, else "Player n". */
  name(seat) {
    const names = this.state.names;
    return (names && names[seat]) || seatName(seat);
  }

  card(code) {
    return cardName(code, this.edition);
  }

  sideOf(seat) {
    const side = this.sides.findIndex((seats) => seats.includes(seat));
    return side < 0 ? seat : side;
  }

  sideName(side) {
    const seats = this.sides[side] || [side];
    if (seats.length === 2) return format(_(TABLE.words.team), { a: this.name(seats[0]), b: this.name(seats[1]) });
    return this.name(seats[0]);
  }

  winnerText(winners) {
    return this.lines({ type: "GameEnded", winners })[0];
  }

  /** The lines of one event ({type: "Played", seat, card, …}); unknown events give none. */
  tell(e) {
    return this.lines(e).map(agree);
  }

  lines(e) {
    const told = TABLE.events[e.type];
    if (!told) return [];
    this.set(told.before, e, null);
    const out = [];
    for (const group of told.lines) {
      if ("each" in group) {
        const items = this.value(group.each, e, null) || [];
        for (let i = 0; i < items.length; i += 1) out.push(...this.say(group.cases, e, i));
      } else {
        out.push(...this.say(group.cases, e, null));
      }
    }
    this.set(told.after, e, null);
    return out;
  }

  set(sets, e, i) {
    for (const [name, x] of sets || []) this.state[name] = this.value(x, e, i);
  }

  say(cases, e, i) {
    for (const c of cases) {
      if ("when" in c && !this.value(c.when, e, i)) continue;
      let line = [];
      if (c.say !== null) {
        const fill = {};
        for (const [key, [word, x]] of Object.entries(c.fill || {})) fill[key] = this.word(word, this.value(x, e, i));
        const text = Array.isArray(c.say) ? ngettext(c.say[0], c.say[1], Math.trunc(this.value(c.count, e, i))) : _(c.say);
        line = [format(text, fill)];
      }
      this.set(c.set, e, i);
      return line;
    }
    return [];
  }

  word(kind, x) {
    switch (kind) {
      case "seat": return this.name(x);
      case "side": return this.sideName(x);
      case "sides": return x.map((s) => this.sideName(s)).join(TABLE.words.separator);
      case "card": return this.card(x);
      case "color": return colorName(colorLetter(x));
      case "number": return num(x);
      default: throw new Error(`no word ${kind}`);
    }
  }

  value(x, e, i) {
    if (typeof x === "string") {
      if (x === "i") return i;
      const dot = x.indexOf(".");
      const where = x.slice(0, dot);
      const name = x.slice(dot + 1);
      if (dot > 0 && name && where === "e") return e[name] ?? null;
      if (dot > 0 && name && where === "s") return this.state[name];
      if (dot > 0 && name && where === "r") return TABLE.rules[name];
      return x;
    }
    if (!Array.isArray(x)) return x;
    const [op, ...args] = x;
    if (op === "and") return args.every((a) => this.value(a, e, i));
    if (op === "or") return args.some((a) => this.value(a, e, i));
    const v = args.map((a) => this.value(a, e, i));
    switch (op) {
      case "eq": return v[0] === v[1];
      case "ne": return v[0] !== v[1];
      case "not": return !v[0];
      case "in": return v[1] !== null && (Array.isArray(v[1]) ? v[1].includes(v[0]) : Object.hasOwn(v[1], v[0]));
      case "at": return v[0] === null ? null : v[0][v[1]];
      case "add": return v[0] + v[1];
      case "sub": return v[0] - v[1];
      case "int": return Math.trunc(v[0]);
      case "len": return v[0] === null ? -1 : v[0].length;
      case "next": return nextSeat(v[0], v[1], v[2] || []);
      case "side_of": return this.sideOf(v[0]);
      default: throw new Error(`no operation ${op}`);
    }
  }
}

function nextSeat(seat, step, sizes) {
  const n = sizes.length;
  for (let k = 1; k <= n; k += 1) {
    const s = (((seat + k * step) % n) + n) % n;
    if (sizes[s]) return s;
  }
  return -1;
}
