"""The match controller behind ``unokit play``: one human seat, bots on the others.

It owns no widgets. Who is asked next is the table's (:class:`~unokit.core.table.Table`): the
app asks the session what the human may do, passes the human's choice to
:meth:`Session.act`, and calls :meth:`Session.bot_step` on a timer to let the bots move.
Everything the app shows comes from the human seat's observation (:meth:`Session.observe`)
and from the events: every applied action adds lines in words (in the player's language)
to :attr:`Session.log`, told by a :class:`~unokit.narrate.Teller` from the events as the
human seat sees them.

>>> from unokit import Game
>>> from unokit.bots import RandomBot
>>> from unokit.text.i18n import translator
>>> game = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1"], dealer=1)
>>> s = Session(game, [None, RandomBot(seed=1)], translator("en"))
>>> s.log
['Round 1: Player 2 deals.', 'The first card is red 3.']
>>> s.waiting_for_human()
True
>>> s.act(parse_action("R1!"))
>>> s.log[-2:]
['You play red 1.', 'You call UNO!']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots.base import Bot
from ..bots.forgetful import ForgetfulBot, make_table_bot
from ..bots.levels import LEVEL_ELO
from ..bots.registry import bot_names
from ..core.actions import (
    ACTION_ARG,
    ACTION_KIND,
    K_CATCH,
    Action,
    parse_action,
)
from ..core.cards import Card
from ..core.drive import WAIT, Decision, Step, drive
from ..core.errors import OptionError
from ..core.events import (
    Challenged,
    Drew,
    Event,
    GameEnded,
    HandsRotated,
    HandsSwapped,
    Peeked,
    Played,
    RoundEnded,
    RoundStarted,
)
from ..core.game import Game
from ..core.observation import Observation
from ..core.phases import AWAITING, GAME_OVER, ROUND_OVER
from ..core.record import record_of, round_moves
from ..core.table import Table
from ..narrate import Teller
from ..text.i18n import Translator

__all__ = ["ForgetfulBot", "SeenHand", "Session", "make_bots", "parse_action"]

_OVER = (AWAITING[ROUND_OVER], AWAITING[GAME_OVER])


@dataclass
class SeenHand:
    """A hand shown to the human (Mater's peek, or the hand shown after their challenge), as far
    as the events tell it since: the cards seen that it has not played, and how many cards it
    has drawn since (unknown to the human). ``round_no`` and ``move`` say when it was seen (the
    move: the number of actions of that round so far)."""

    cards: list[Card]
    round_no: int
    move: int
    drawn: int = 0


def make_bots(names: Sequence[str], seed: int, forget_uno: float = 0.3) -> list[Bot]:
    """Bots by the names offered to players (:func:`~unokit.bots.registry.bot_names`), each
    made by :func:`~unokit.bots.forgetful.make_table_bot`: a bot forgets to call UNO with chance
    ``forget_uno``, a level (``easy``, ``normal``, ``hard``) at its own rates."""
    known = bot_names()
    bots: list[Bot] = []
    for i, name in enumerate(names):
        if name not in known:
            raise OptionError(f"unknown bot {name!r} (bots: {', '.join(known)})")
        bots.append(make_table_bot(name, seed * 31 + i, forget_uno))
    return bots


class Session:
    """A match between the human at seat ``human`` and the bots on the other seats.

    ``bots[human]`` is ignored (pass ``None``). Seat ``i`` is called *Player i+1*.

    The table asks the seats in turn. When it asks the human on their turn, the session
    waits for them; when it asks the human out of turn (a missed UNO call to catch, their own
    UNO call, a jump-in), the human may act at any moment until the next :meth:`bot_step`,
    which answers "nothing now" for them if they have not, so that the bots go on.
    """

    def __init__(self, game: Game, bots: Sequence[Bot | None], tr: Translator, human: int = 0,
                 bot_kinds: Sequence[str] | None = None) -> None:
        if len(bots) != game.n:
            raise OptionError(f"{game.n} seats need {game.n} players, not {len(bots)}")
        self.game = game
        self.table = Table(game)
        self.bots = list(bots)
        self.tr = tr
        self.human = human
        self.bot_kinds = list(bot_kinds) if bot_kinds is not None else [
            "" if b is None else b.name for b in bots]
        self.log: list[str] = []
        self._round_no = game.round_no
        self.round_winner = -1
        """The side (seat, or team with partners) that won the round just over; -1 before."""
        self.winners: tuple[int, ...] = ()
        """The winning sides once the match is over."""
        self.last_drawn: Card = -1
        """The card the human drew last (at a turn's draw), or -1."""
        self.seen: dict[int, SeenHand] = {}
        """The hands shown to the human this round, by seat, kept up to date by the events."""
        self.last_play: tuple[int, Card] | None = None
        """The seat that played the top card of the discard pile, and the card (None when the
        top card was turned up)."""
        self.plays = 0
        """How many cards have been played since the session started (a new play changes it)."""
        self.round_end: RoundEnded | None = None
        """The event that ended the round just over (None while a round goes on)."""
        self.scores_before: tuple[int | float, ...] | None = None
        """The totals before the round just over (None when not known)."""
        self._obs: Observation | None = None
        self._obs_version = -1
        obs = self.observe()
        teams = obs.players // 2 if obs.options.mode == "partners" else 0
        self.teller = Teller(tr, obs.edition, obs.players, teams, viewer=self.human)
        self._tell_round_so_far()

    # ------------------------------------------------------------------ names

    def name(self, seat: int) -> str:
        """A seat's name in the player's language."""
        return self.teller.name(seat)

    def card(self, c: Card) -> str:
        """A card in words, as this edition's sheet names it."""
        return self.teller.card(c)

    def side_name(self, side: int) -> str:
        """A seat's name, or a team's (its two seats) with ``mode: partners``."""
        return self.teller.side_name(side)

    def side_of(self, seat: int) -> int:
        """The side (seat, or team with partners) of ``seat``."""
        return self.teller.side_of(seat)

    def winner_text(self) -> str:
        """Who won the match, in words."""
        return self.teller.winner_text(self.winners)

    # ------------------------------------------------------------------ queries

    def observe(self) -> Observation:
        """What the human seat may know now (kept until the game changes)."""
        version = self.game.version
        if self._obs is None or self._obs_version != version:
            self._obs = self.game.observe(self.human)
            self._obs_version = version
        return self._obs

    @property
    def version(self) -> int:
        """A counter that changes whenever the game changes."""
        return self.game.version

    def record(self) -> dict[str, Any]:
        """The game's record so far (what ``s`` saves)."""
        return record_of(self.game)

    def waiting_for_human(self) -> bool:
        """Whether the game waits for the human's decision on their turn."""
        obs = self.observe()
        return obs.awaiting not in _OVER and obs.turn == self.human

    def human_legal(self) -> list[Action]:
        """The human's legal actions now (on turn and out of turn)."""
        return list(self.observe().legal)

    def catchable(self) -> list[int]:
        """Seats the human may catch now for a missing UNO call."""
        return [ACTION_ARG[a] for a in self.observe().legal if ACTION_KIND[a] == K_CATCH]

    def bots_to_move(self) -> bool:
        """Whether :meth:`bot_step` has something to do: a bot is asked, or the human is asked
        out of turn (and :meth:`bot_step` answers for them if they let the chance pass)."""
        table = self.table
        seat = table.next_seat()
        if seat is None:
            return False
        return seat != self.human or not table.must_act(seat)

    def seen_hands(self) -> dict[int, SeenHand]:
        """The hands the human has been shown this round that are still worth showing: the
        seats still in the round with cards, by seat."""
        obs = self.observe()
        return {seat: h for seat, h in sorted(self.seen.items())
                if not obs.eliminated[seat] and obs.hand_sizes[seat] > 0}

    def bot_kind(self, seat: int) -> str:
        """The kind of bot at ``seat`` in the player's language (``""`` for the human), with its
        rating for a level or the random bot (``easy · Elo 1646``: :data:`~unokit.bots.LEVEL_ELO`,
        Elo with ``random`` at 1000)."""
        kind = self.bot_kinds[seat]
        word = bot_word(self.tr, kind)
        return f"{word} · Elo {LEVEL_ELO[kind]}" if kind in LEVEL_ELO else word

    # ------------------------------------------------------------------ acting

    def act(self, action: Action) -> None:
        """Apply the human's action (raises IllegalActionError, changing nothing, if not legal)."""
        self._apply(self.human, action)

    def bot_step(self) -> bool:
        """Let the bots move, as the table asks them (:func:`~unokit.core.drive.drive`): the
        seats asked out of turn (catch, UNO, jump-in), then the bot on turn, if any. The human,
        asked out of turn, has had their chance since the last step: "nothing now" is answered
        for them, unless the bots' moves of this step gave them a new one (it is shown first).
        Returns whether anything was applied."""
        game = self.game
        start = game.version
        applied = []

        def answer(decision: Decision) -> Action | None:
            if decision.seat == self.human:
                return WAIT if decision.must or game.version != start else None
            bot = self.bots[decision.seat]
            assert bot is not None
            return bot.act(game.observe(decision.seat))

        def told(step: Step) -> None:
            if step.action is not None:
                applied.append(step.action)
                self._tell(step.events)

        drive(self.table, answer, events=True, on_step=told, until=lambda step: step.decision.must)
        return bool(applied)

    def next_round(self) -> None:
        """Deal the next round after a round is over."""
        self.round_winner = -1
        self._tell(self.table.start_round())

    def _apply(self, seat: int, a: Action) -> None:
        self._tell(self.table.act(seat, a))  # the game refuses an illegal action, changing nothing

    # ------------------------------------------------------------------ the log

    def _tell(self, events: Iterable[Event], move: int | None = None) -> None:
        """Add the events, as the human seat sees them, to the log. ``move``: the number of
        actions of the round once they are applied (default: as the game stands)."""
        human = self.human
        if move is None:
            move = len(self.observe().history)
        for event in events:
            e = event.seen_by(human)
            if isinstance(e, RoundEnded):
                self.round_winner = self.side_of(e.winner)
                self.round_end = e
                self.scores_before = self.teller.scores
            elif isinstance(e, GameEnded):
                self.winners = e.winners
            elif isinstance(e, Drew) and e.seat == human and e.reason == "turn" and e.cards:
                self.last_drawn = e.cards[-1]
            self._follow(e, move)
            self.log.extend(self.teller.tell(e))

    def _follow(self, e: Event, move: int) -> None:
        """Keep :attr:`seen` and :attr:`last_play` up to date with an event the human sees."""
        seen, human = self.seen, self.human
        if isinstance(e, RoundStarted):
            seen.clear()
            self.last_play = None
            self.round_end = None
            self._round_no = e.round_no
        elif isinstance(e, Played):
            self.last_play = (e.seat, e.card)
            self.plays += 1
            hand = seen.get(e.seat)
            if hand is not None:
                if e.card in hand.cards:
                    hand.cards.remove(e.card)
                elif hand.drawn:
                    hand.drawn -= 1
        elif isinstance(e, Drew) and e.seat in seen:
            if e.cards is not None and e.seat != human:
                seen[e.seat].cards.extend(e.cards)
            else:
                seen[e.seat].drawn += e.count
        elif isinstance(e, Challenged) and e.hand is not None and e.challenger == human:
            seen[e.attacker] = SeenHand(list(e.hand), self._round_no, move)
        elif isinstance(e, Peeked) and e.shown is not None and e.seat == human:
            for seat, cards in e.shown:
                seen[seat] = SeenHand(list(cards), self._round_no, move)
        elif isinstance(e, HandsSwapped):
            # The hands change seats: a hand seen goes with it; the human knows the hand
            # they gave away.
            a, b = seen.pop(e.seat, None), seen.pop(e.target, None)
            if e.hands is not None and human in (e.seat, e.target):
                other, given = (e.target, e.hands[1]) if human == e.seat else (e.seat, e.hands[0])
                seen[other] = SeenHand(list(given), self._round_no, move)
            else:
                if a is not None:
                    seen[e.target] = a
                if b is not None:
                    seen[e.seat] = b
        elif isinstance(e, HandsRotated):
            seen.clear()

    def _tell_round_so_far(self) -> None:
        """The log of the current round: its deal, and its moves so far (a resumed game)."""
        game = self.game
        if game.rounds:
            start = game.rounds[-1]
            self.teller.scores = tuple(start.scores)
            self.teller.eliminated = tuple(s in start.eliminated for s in range(game.n))
        for move, events in enumerate(round_moves(game)):
            self._tell(events, move)


def bot_word(tr: Translator, kind: str) -> str:
    """A bot's registry name (``heuristic``) in the player's language."""
    words = {"random": tr.pgettext("bot", "random"), "heuristic": tr.pgettext("bot", "heuristic"),
             "strong": tr.pgettext("bot", "strong"), "easy": tr.pgettext("bot", "easy"),
             "normal": tr.pgettext("bot", "normal"), "hard": tr.pgettext("bot", "hard")}
    return words.get(kind, kind)
