// The move log: the server's structured events told in the player's language, with the same
// messages (and the same catalogues) as the terminal game's Teller (src/unokit/narrate.py).

import { _, agree, format, ngettext } from "./i18n.js";
import { cardName, colorLetter, colorName } from "./cards.js";

const BLOCKED_AFTER = 200;

/** A seat as people read it: "Player 1" for seat 0. */
export function seatName(seat) {
  return format(_("Player {n}"), { n: seat + 1 });
}

function num(x) {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(6)));
}

export class Teller {
  constructor(edition, players, teams = 0) {
    this.edition = edition;
    this.players = players;
    this.teams = teams;
    this.scores = null;
    this.eliminated = null;
    this.facing = -1;
    this.attacker = -1;
    this.answered = -1;
    this.first = -1;
    this.color = null; // the colour in play as told so far (a letter; null before it is known)
    this.replaced = null; // the colour before the last card played: what a Wild Draw Four replaced
  }

  name(seat) {
    return seatName(seat);
  }

  card(code) {
    return cardName(code, this.edition);
  }

  sideOf(seat) {
    return this.teams ? seat % this.teams : seat;
  }

  sideName(side) {
    if (this.teams) return format(_("{a} and {b}"), { a: this.name(side), b: this.name(side + this.teams) });
    return this.name(side);
  }

  winnerText(winners) {
    const names = winners.map((w) => this.sideName(w));
    if (names.length === 1) return format(_("{who} won the game!"), { who: names[0] });
    return format(_("Shared win: {who}!"), { who: names.join(", ") });
  }

  /** The lines of one event ({type: "Played", seat, card, …}); unknown events give none. */
  tell(e) {
    return this.tellPlain(e).map(agree);
  }

  tellPlain(e) {
    const who = (s) => this.name(s);
    switch (e.type) {
      case "RoundStarted": {
        this.facing = this.attacker = this.answered = -1;
        this.color = this.replaced = null;
        this.first = leftOf(e.dealer, e.hand_sizes || []);
        return [format(_("Round {n}: {dealer} deals."), { n: e.round_no + 1, dealer: who(e.dealer) })];
      }
      case "TurnedUp": {
        if (e.returned) {
          return [format(_("The first card is {card}: it goes back into the draw pile."), { card: this.card(e.card) })];
        }
        if (!e.card.startsWith("W")) this.color = e.card[0];
        const lines = [format(_("The first card is {card}."), { card: this.card(e.card) })];
        if (e.card.startsWith("W") && this.first >= 0) {
          lines.push(format(_("{who} chooses the colour."), { who: who(this.first) }));
        }
        return lines;
      }
      case "Played":
        return this.played(e);
      case "WrongCard":
        return [format(_("{who} shows {card}, which does not match: it goes back to the hand."),
          { who: who(e.seat), card: this.card(e.card) })];
      case "Drew":
        if (e.reason === "turn" && e.count === 1) return [format(_("{who} draws a card."), { who: who(e.seat) })];
        return [format(ngettext("{who} draws {n} card.", "{who} draws {n} cards.", e.count), { who: who(e.seat), n: e.count })];
      case "Reshuffled":
        return [_("The discard pile is shuffled into a new draw pile.")];
      case "Passed":
        return [format(_("{who} keeps the card and passes."), { who: who(e.seat) })];
      case "Skipped":
        return [format(_("{who} is skipped."), { who: who(e.seat) })];
      case "DirectionChanged":
        return [_("Play changes direction.")];
      case "ColorNamed":
        this.color = colorLetter(e.color);
        return [format(_("{who} names {color}."), { who: who(e.seat), color: colorName(colorLetter(e.color)) })];
      case "DrawPending":
        this.facing = e.seat;
        this.attacker = e.attacker;
        return [format(ngettext("{who} must take {n} card, or answer.", "{who} must take {n} cards, or answer.", e.count),
          { who: who(e.seat), n: e.count })];
      case "Accepted":
        this.facing = -1;
        return [format(_("{who} takes the cards."), { who: who(e.seat) })];
      case "Challenged": {
        this.facing = -1;
        const text = e.won
          ? _("{who} challenges the {card} of {target}: it was a bluff!")
          : _("{who} challenges the {card} of {target}: it was played fairly.");
        return [format(text, { who: who(e.challenger), card: this.card("W+4"), target: who(e.attacker) })];
      }
      case "AgentPAnswered":
        this.facing = -1;
        if (this.answered === e.seat) {
          this.answered = -1;
          return [];
        }
        return [format(_("{who} answers with {card}: {target} takes the cards."),
          { who: who(e.seat), card: this.card("WP"), target: who(e.attacker) })];
      case "UnoCalled":
        return [format(_("{who} calls UNO!"), { who: who(e.seat) })];
      case "UnoMissed":
        return [format(_("{who} has one card left and did not call UNO."), { who: who(e.seat) })];
      case "Caught":
        return [format(_("{who} catches {target} without an UNO call."), { who: who(e.catcher), target: who(e.seat) })];
      case "HostPenalty":
        return [format(_("The host gives {who} the penalty for suggestions."), { who: who(e.seat) })];
      case "Peeked":
        return [format(_("{who} peeks at every other hand."), { who: who(e.seat) })];
      case "HandsSwapped":
        return [format(_("{who} swaps hands with {target}."), { who: who(e.seat), target: who(e.target) })];
      case "HandsRotated":
        return [_("Every hand passes to the next player.")];
      case "RoundEnded":
        return this.roundEnded(e);
      case "GameEnded":
        return [this.winnerText(e.winners || [])];
      default:
        return [];
    }
  }

  played(e) {
    const who = this.name(e.seat);
    const card = this.card(e.card);
    const color = colorName(colorLetter(e.color));
    const wild = e.card.startsWith("W");
    this.replaced = this.color;
    this.color = colorLetter(e.color);
    let text;
    if (e.seat === this.facing && !e.jump_in) {
      this.facing = -1;
      if (e.card === "WP") {
        this.answered = e.seat;
        text = format(_("{who} answers with {card} and names {color}: {target} takes the cards."),
          { who, card, color, target: this.name(this.attacker) });
      } else {
        text = format(_("{who} adds {card} to the pile of draw cards."), { who, card });
      }
    } else if (e.jump_in && wild) {
      text = format(_("{who} jumps in with {card} and names {color}."), { who, card, color });
    } else if (e.jump_in) {
      text = format(_("{who} jumps in with {card}."), { who, card });
    } else if (e.card === "W+4" && this.replaced) {
      // The colour it replaced: whoever answers it can judge whether it was a bluff.
      text = format(_("{who} plays {card} on {old} and names {color}."),
        { who, card, old: colorName(this.replaced), color });
    } else if (wild) {
      text = format(_("{who} plays {card} and names {color}."), { who, card, color });
    } else {
      text = format(_("{who} plays {card}."), { who, card });
    }
    const lines = [text];
    if (e.uno) lines.push(format(_("{who} calls UNO!"), { who }));
    return lines;
  }

  roundEnded(e) {
    const winner = this.sideName(this.sideOf(e.winner));
    const lines = [];
    if (e.blocked) {
      lines.push(format(_("No card has been played from a hand for {turns} turns: the round is blocked. {who} holds the fewest points and wins it."),
        { turns: BLOCKED_AFTER, who: winner }));
    } else {
      lines.push(format(_("{who} went out: the round is over."), { who: winner }));
    }
    const before = this.scores;
    const after = e.scores || [];
    if (before && before.length === after.length) {
      after.forEach((now, side) => {
        if (now !== before[side]) {
          const gained = now - before[side];
          lines.push(format(ngettext("{who} scores {points} point.", "{who} scores {points} points.", Math.trunc(gained)),
            { who: this.sideName(side), points: num(gained) }));
        }
      });
    }
    const out = this.eliminated;
    const nowOut = e.eliminated || [];
    if (out && out.length === nowOut.length) {
      nowOut.forEach((now, seat) => {
        if (now && !out[seat]) lines.push(format(_("{who} is out of the game."), { who: this.name(seat) }));
      });
    }
    this.scores = after;
    this.eliminated = nowOut;
    return lines;
  }
}

function leftOf(dealer, handSizes) {
  const n = handSizes.length;
  for (let step = 1; step <= n; step += 1) {
    const seat = (dealer + step) % n;
    if (handSizes[seat]) return seat;
  }
  return -1;
}
