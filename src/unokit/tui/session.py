"""The match controller behind ``unokit play``: one human seat, bots on the others.

It owns no widgets. The app asks it what the human may do, passes the human's choice to
:meth:`Session.act`, and calls :meth:`Session.bot_step` on a timer to let the bots move;
every applied action adds move-log lines in words (in the player's language) to
:attr:`Session.log`.

>>> from unokit import Game
>>> from unokit.bots import RandomBot
>>> from unokit.i18n import translator
>>> game = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1"], dealer=1)
>>> s = Session(game, [None, RandomBot(seed=1)], translator("en"))
>>> s.waiting_for_human()
True
>>> s.act(parse_action("R1!"))
>>> s.log[-2:]
['Player 1 plays red 1.', 'Player 1 calls UNO!']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import (
    ACTION_ARG,
    ACTION_CARD,
    ACTION_COLOR,
    ACTION_KIND,
    ACTION_UNO,
    K_ACCEPT,
    K_CATCH,
    K_CHALLENGE,
    K_COLOR,
    K_DRAW,
    K_PASS,
    K_PLAY,
    K_SWAP,
    K_UNO,
    UNO,
    UNO_OFFSET,
    Action,
    parse_action,
)
from ..bots.base import Bot
from ..cards import AGENT_P, CARD_RANK, MATER, REVERSE, SKIP, WILD, WILD_DRAW_FOUR, Card
from ..errors import IllegalActionError, OptionError
from ..game import BLOCKED_AFTER, GAME_OVER, RESPOND, ROUND_OVER, Game
from ..i18n import Translator
from ..observation import Observation
from ..table import has_out_of_turn_choice, out_of_turn_order

__all__ = ["ForgetfulBot", "Session", "make_bots", "parse_action"]


class ForgetfulBot:
    """Wraps a bot so that it sometimes forgets to call UNO (for bots without ``forget_uno``)."""

    def __init__(self, bot: Bot, forget: float, seed: int | None = None) -> None:
        self.bot = bot
        self.name = bot.name
        self.forget = forget
        self.rng = random.Random(seed)
        self._forgot = False

    def act(self, obs: Observation) -> Action | None:
        """The wrapped bot's choice, with the UNO call sometimes left out."""
        if len(obs.hand) != 1:
            self._forgot = False
        a = self.bot.act(obs)
        if a is None:
            return None
        if ACTION_KIND[a] == K_PLAY and ACTION_UNO[a] and self.rng.random() < self.forget:
            self._forgot = True
            return a - UNO_OFFSET
        if a == UNO and self._forgot and obs.turn != obs.seat:
            return None
        return a


def make_bots(names: Sequence[str], seed: int, forget_uno: float = 0.3) -> list[Bot]:
    """Bots by registry name (``random``, ``heuristic``, ``strong``), each forgetting UNO at times."""
    from ..bots.registry import bot_names, make_bot

    known = bot_names()
    bots: list[Bot] = []
    for i, name in enumerate(names):
        if name not in known:
            raise OptionError(f"unknown bot {name!r} (bots: {', '.join(known)})")
        bot_seed = seed * 31 + i
        try:
            bots.append(make_bot(name, seed=bot_seed, forget_uno=forget_uno))
        except OptionError:
            bots.append(ForgetfulBot(make_bot(name, seed=bot_seed), forget_uno, bot_seed + 7))
    return bots


@dataclass(frozen=True)
class _Before:
    sizes: tuple[int, ...]
    direction: int
    phase: int
    turn: int
    attacker: int
    bluff: bool
    pending: int
    scores: tuple[int | float, ...]

    @classmethod
    def of(cls, g: Game) -> _Before:
        return cls(tuple(g.hand_sizes()), g.direction, g.phase, g.turn, g.attacker, g.bluff,
                   g.pending, tuple(g.scores))


class Session:
    """A match between the human at seat ``human`` and the bots on the other seats.

    ``bots[human]`` is ignored (pass ``None``). Seat ``i`` is called *Player i+1*.
    """

    def __init__(self, game: Game, bots: Sequence[Bot | None], tr: Translator, human: int = 0,
                 bot_kinds: Sequence[str] | None = None) -> None:
        if len(bots) != game.n:
            raise OptionError(f"{game.n} seats need {game.n} players, not {len(bots)}")
        self.game = game
        self.bots = list(bots)
        self.tr = tr
        self.human = human
        self.bot_kinds = list(bot_kinds) if bot_kinds is not None else [
            "" if b is None else b.name for b in bots]
        self.log: list[str] = []
        self._asked_version = -1
        self._seen_shown: dict[int, tuple[Card, ...]] = {}
        self.last_drawn: Card = -1
        self._round_header()

    # ------------------------------------------------------------------ names

    def name(self, seat: int) -> str:
        """A seat's name in the player's language."""
        return self.tr._("Player {n}").format(n=seat + 1)

    def card(self, c: Card) -> str:
        """A card in words, as this edition's sheet names it."""
        return self.tr.card_name(c, self.game.edition)

    # ------------------------------------------------------------------ queries

    def waiting_for_human(self) -> bool:
        """Whether the game waits for the human's decision on their turn."""
        g = self.game
        return g.phase < ROUND_OVER and g.turn == self.human

    def human_legal(self) -> list[Action]:
        """The human's legal actions now (on turn and out of turn)."""
        return list(self.game.legal_actions(self.human))

    def catchable(self) -> list[int]:
        """Seats the human may catch now for a missing UNO call."""
        return [ACTION_ARG[a] for a in self.human_legal() if ACTION_KIND[a] == K_CATCH]

    def bots_to_move(self) -> bool:
        """Whether :meth:`bot_step` has something to do."""
        g = self.game
        if g.phase >= ROUND_OVER:
            return False
        if g.turn != self.human:
            return True
        return self._asked_version != g.version and self._out_of_turn_bots() != []

    def new_peeks(self) -> dict[int, tuple[Card, ...]]:
        """Hands shown to the human (Mater peek, challenge) since the last call."""
        seen = self.game.seen[self.human]
        fresh = {s: h for s, h in seen.items() if self._seen_shown.get(s) != h}
        self._seen_shown = dict(seen)
        return fresh

    # ------------------------------------------------------------------ acting

    def act(self, action: Action) -> None:
        """Apply the human's action (raises IllegalActionError, changing nothing, if not legal)."""
        self._apply(self.human, action)

    def bot_step(self) -> bool:
        """Let the bots move once: out-of-turn choices (catch, UNO, jump-in), then the bot on
        turn, if any. Returns whether anything was applied."""
        g = self.game
        if g.phase >= ROUND_OVER:
            return False
        acted = False
        if self._asked_version != g.version:
            for seat in self._out_of_turn_bots():
                bot = self.bots[seat]
                assert bot is not None
                a = bot.act(g.observe(seat))
                if a is not None and a in g.legal_actions(seat):
                    self._apply(seat, a)
                    acted = True
                    if g.phase >= ROUND_OVER:
                        return True
            self._asked_version = g.version
        if g.turn != self.human:
            seat = g.turn
            bot = self.bots[seat]
            assert bot is not None
            a = bot.act(g.observe(seat))
            if a is None or a not in g.legal_actions(seat):
                # A bot must act on its turn; fall back on its first legal action.
                a = g.legal_actions(seat)[0]
            self._apply(seat, a)
            acted = True
        return acted

    def _out_of_turn_bots(self) -> list[int]:
        g = self.game
        return [s for s in out_of_turn_order(g) if s != self.human and has_out_of_turn_choice(g, s)]

    def next_round(self) -> None:
        """Deal the next round after a round is over."""
        self.game.start_round()
        self._asked_version = -1
        self._seen_shown = {}
        self._round_header()

    # ------------------------------------------------------------------ narration

    def _say(self, text: str) -> None:
        self.log.append(text)

    def _who(self, seat: int, text: str, **kw: object) -> None:
        self._say(text.format(who=self.name(seat), **kw))

    def _round_header(self) -> None:
        g, tr = self.game, self.tr
        self._say(tr._("Round {n}: {dealer} deals. The first card is {card}.").format(
            n=g.round_no + 1, dealer=self.name(g.dealer), card=self.card(g.discard[0])))
        if g.phase == 3:  # the turned-up wild: its colour is chosen first
            self._say(tr._("{who} chooses the colour.").format(who=self.name(g.turn)))

    def _apply(self, seat: int, a: Action) -> None:
        g = self.game
        if a not in g.legal_actions(seat):
            raise IllegalActionError(seat, str(a), "not legal now")
        before = _Before.of(g)
        g.apply(seat, a)
        self._describe(before, seat, a)

    def _describe(self, b: _Before, seat: int, a: Action) -> None:
        g, tr = self.game, self.tr
        kind = ACTION_KIND[a]
        moved = False
        if kind == K_PLAY:
            c = ACTION_CARD[a]
            col = tr.color(ACTION_COLOR[a])
            card = self.card(c)
            responding = b.phase == RESPOND and seat == b.turn
            if responding and c == AGENT_P:
                self._who(seat,
                          tr._("{who} answers with {card} and names {color}: {target} takes the cards."),
                          card=card, color=col, target=self.name(b.attacker))
            elif responding:
                self._who(seat, tr._("{who} adds {card} to the pile of draw cards."), card=card)
            elif c >= WILD:
                self._who(seat, tr._("{who} plays {card} and names {color}."), card=card, color=col)
            else:
                self._who(seat, tr._("{who} plays {card}."), card=card)
            if ACTION_UNO[a]:
                self._who(seat, tr._("{who} calls UNO!"))
            rank = CARD_RANK[c]
            if c < WILD and rank == SKIP and g.phase < ROUND_OVER:
                self._who(g.next_seat(seat), tr._("{who} is skipped."))
            if c < WILD and rank == REVERSE and g.two_handed and g.phase < ROUND_OVER:
                self._who(g.next_seat(seat), tr._("{who} is skipped."))
            if c == MATER:
                self._who(seat, tr._("{who} peeks at every other hand."))
            if g.options.seven_zero and c < WILD and rank == 0 and g.phase < ROUND_OVER:
                self._say(tr._("Every hand passes to the next player."))
                moved = True
        elif kind == K_DRAW:
            self._who(seat, tr._("{who} draws a card."))
            if seat == self.human:
                self.last_drawn = g.drawn
        elif kind == K_PASS:
            self._who(seat, tr._("{who} keeps the card and passes."))
        elif kind == K_UNO:
            self._who(seat, tr._("{who} calls UNO!"))
        elif kind == K_CATCH:
            self._who(seat, tr._("{who} catches {target} without an UNO call."),
                      target=self.name(ACTION_ARG[a]))
        elif kind == K_CHALLENGE:
            target = self.name(b.attacker)
            wd4 = self.card(WILD_DRAW_FOUR)
            if b.bluff:
                self._who(seat, tr._("{who} challenges the {card} of {target}: it was a bluff!"),
                          target=target, card=wd4)
            else:
                self._who(seat, tr._("{who} challenges the {card} of {target}: it was played fairly."),
                          target=target, card=wd4)
        elif kind == K_ACCEPT:
            self._who(seat, tr._("{who} takes the cards."))
        elif kind == K_COLOR:
            self._who(seat, tr._("{who} names {color}."), color=tr.color(ACTION_ARG[a]))
        elif kind == K_SWAP:
            self._who(seat, tr._("{who} swaps hands with {target}."), target=self.name(ACTION_ARG[a]))
            moved = True
        if g.direction != b.direction:
            self._say(tr._("Play changes direction."))
        if not moved:
            for s, (old, new) in enumerate(zip(b.sizes, g.hand_sizes(), strict=True)):
                grew = new - old
                if grew > 0 and not (kind == K_DRAW and s == seat and grew == 1):
                    self._who(s, tr.ngettext("{who} draws {n} card.", "{who} draws {n} cards.", grew), n=grew)
        if g.phase >= ROUND_OVER and b.phase < ROUND_OVER:
            self._round_end(b)

    def _round_end(self, b: _Before) -> None:
        g, tr = self.game, self.tr
        winner = g.round_winner
        if g.blocked:
            self._say(tr._("No card has been played from a hand for {turns} turns: the round is "
                           "blocked. {who} holds the fewest points and wins it.").format(
                turns=BLOCKED_AFTER, who=self.side_name(winner)))
        else:
            self._say(tr._("{who} went out: the round is over.").format(who=self.side_name(winner)))
        for side, (old, new) in enumerate(zip(b.scores, g.scores, strict=True)):
            if new != old:
                gained = new - old
                self._say(tr.ngettext("{who} scores {points} point.", "{who} scores {points} points.",
                                      int(gained)).format(who=self.side_name(side), points=_num(gained)))
        if g.phase == GAME_OVER:
            self._say(self.winner_text())

    def side_name(self, side: int) -> str:
        """A seat's name, or a team's (its two seats) with ``mode: partners``."""
        g = self.game
        if g.teams:
            return self.tr._("{a} and {b}").format(a=self.name(side), b=self.name(side + g.teams))
        return self.name(side)

    def winner_text(self) -> str:
        """Who won the match, in words."""
        names = [self.side_name(w) for w in self.game.winners]
        if len(names) == 1:
            return self.tr._("{who} won the game!").format(who=names[0])
        return self.tr._("Shared win: {who}!").format(who=", ".join(names))


def _num(x: int | float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
