"""Narration: what happened, in words, told from the :mod:`events <unokit.core.events>` alone.

:meth:`Game.apply <unokit.core.game.Game.apply>` says what happened; narration only formats it.
Two voices, both formatters of events:

* :class:`Teller`, the player's words in the player's language (the move log of
  ``unokit play``): ``Player 2 plays red 7.`` It tells the events as one seat sees them
  (:meth:`Event.seen_by <unokit.core.events.Event.seen_by>`), with the table of words for
  events of :mod:`unokit.text.events`, which the browser's log reads too.
* :func:`describe` and :class:`Narrator`, the record's words in English (``unokit replay`` and
  ``unokit demo``): ``Player 2 plays R7``, one line per move with every hand after it. Given a
  translator, the narrator tells the same lines with a :class:`Teller` (``unokit demo --lang``).

People read players numbered from 1 everywhere (``Player 1`` is seat 0); the notation and the
records keep 0-based seats.

>>> from unokit import Game
>>> from unokit.text.i18n import translator
>>> g = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1", "Y2"], dealer=1)
>>> events = g.apply(0, "R1")
>>> "; ".join(describe(e) for e in events)
'Player 1 plays R1; Player 1 has one card left and did not call UNO'
>>> Teller(translator("en"), g.edition, g.n).tell_all(events)
['Player 1 plays red 1.', 'Player 1 has one card left and did not call UNO.']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .core.cards import CARD_COLOR, COLOR_NAMES, WILD, Card, card_str
from .core.errors import UnoError
from .core.events import (
    Accepted,
    AgentPAnswered,
    Caught,
    Challenged,
    ColorNamed,
    DirectionChanged,
    DrawPending,
    Drew,
    Event,
    GameEnded,
    HandsRotated,
    HandsSwapped,
    HostPenalty,
    Passed,
    Peeked,
    Played,
    Reshuffled,
    RoundEnded,
    RoundStarted,
    Skipped,
    TurnedUp,
    UnoCalled,
    UnoMissed,
    WrongCard,
)
from .core.game import Game
from .core.record import replay
from .core.scoring import BLOCKED_AFTER
from .text.events import EventWords, number_text
from .text.i18n import Translator

# ---------------------------------------------------------------------- the player's words


class Teller:
    """Tells events in the player's language, one or more lines each (``Player 2 is skipped.``),
    with the table of words for events (:mod:`unokit.text.events`), as the browser's log does.

    Give it the events as the player's seat sees them (``event.seen_by(seat)``). It keeps a
    little of what it was told, to word what follows: the draw card waiting for an answer
    (so that a card played in answer *adds to the pile*), and the totals and the seats out
    of the game before a round ends (``scores`` and ``eliminated``, when known: set them at
    the start of a round told from its middle), to tell who scored what.
    ``teams`` is the number of teams with ``mode: partners`` (else 0). ``names``: each seat's
    display name (None for ``Player {n}``); ``viewer``: the seat told to, in the second person
    (``You play red 7.``), None for a spectator.
    """

    def __init__(self, tr: Translator, edition: str, players: int, teams: int = 0,
                 scores: Sequence[int | float] | None = None,
                 eliminated: Sequence[bool] | None = None,
                 names: Sequence[str | None] | None = None, viewer: int | None = None) -> None:
        self.tr = tr
        self.edition = edition
        self.players = players
        self.teams = teams
        self.words = EventWords(tr, edition, players, teams)
        """The interpreter of the table, and what it remembers (``words.state``)."""
        self.scores = None if scores is None else tuple(scores)
        self.eliminated = None if eliminated is None else tuple(eliminated)
        self.names = names
        self.viewer = viewer

    @property
    def names(self) -> tuple[str | None, ...] | None:
        """Each seat's display name (None for ``Player {n}``), or None for none."""
        names = self.words.state["names"]
        return None if names is None else tuple(names)

    @names.setter
    def names(self, names: Sequence[str | None] | None) -> None:
        self.words.state["names"] = None if names is None else list(names)

    @property
    def viewer(self) -> int | None:
        """The seat the events are told to, in the second person (None for a spectator)."""
        viewer = int(self.words.state["viewer"])
        return None if viewer < 0 else viewer

    @viewer.setter
    def viewer(self, viewer: int | None) -> None:
        self.words.state["viewer"] = -1 if viewer is None else viewer

    @property
    def scores(self) -> tuple[int | float, ...] | None:
        """The totals per side before the round now told (None when not known)."""
        scores = self.words.state["scores"]
        return None if scores is None else tuple(scores)

    @scores.setter
    def scores(self, scores: Sequence[int | float] | None) -> None:
        self.words.state["scores"] = None if scores is None else list(scores)

    @property
    def eliminated(self) -> tuple[bool, ...] | None:
        """The seats out of the game before the round now told (None when not known)."""
        out = self.words.state["eliminated"]
        return None if out is None else tuple(out)

    @eliminated.setter
    def eliminated(self, out: Sequence[bool] | None) -> None:
        self.words.state["eliminated"] = None if out is None else list(out)

    @property
    def color(self) -> int:
        """The colour in play as told so far (-1 before it is known)."""
        return int(self.words.state["color"])

    @property
    def replaced(self) -> int:
        """The colour in play before the last card played (-1 when not known): the colour a
        Wild Draw Four replaced, which says whether it may have been a bluff."""
        return int(self.words.state["replaced"])

    # ------------------------------------------------------------------ names

    def name(self, seat: int) -> str:
        """A seat's name: its display name, else ``Player 1`` for seat 0."""
        return self.words.seat(seat)

    def card(self, c: Card) -> str:
        """A card in words, as this edition's sheet names it."""
        return self.tr.card_name(c, self.edition)

    def side_of(self, seat: int) -> int:
        """The side (team with partners, else the seat) of ``seat``."""
        return self.words.side_of(seat)

    def side_name(self, side: int) -> str:
        """A seat's name, or a team's (its two seats) with ``mode: partners``."""
        return self.words.side(side)

    def winner_text(self, winners: Sequence[int]) -> str:
        """Who won the match (``winners``: sides), in words."""
        return self.words.lines({"type": "GameEnded", "winners": list(winners)})[0]

    # ------------------------------------------------------------------ events

    def tell_all(self, events: Iterable[Event]) -> list[str]:
        """The lines of several events, in order."""
        return [line for e in events for line in self.tell(e)]

    def tell(self, e: Event) -> list[str]:
        """The lines of one event. An event already told by the line of the one before it (Agent
        P's answer, told with the card) gives none."""
        return [self.tr.agree(line) for line in self.words.lines(e.to_dict())]


def _num(x: int | float) -> str:
    return number_text(x)


# ---------------------------------------------------------------------- the record's words


def _seat(seat: int) -> str:
    """A seat as people number it: ``Player 1`` for seat 0 (the notation keeps 0-based seats)."""
    return f"Player {seat + 1}"


def _side(seat: int, teams: int) -> str:
    return f"Team {seat % teams + 1}" if teams else _seat(seat)


def describe(e: Event, teams: int = 0) -> str:
    """One event in the record's words, as in ``unokit replay``: ``Player 1 plays R1``.
    ``teams``: the number of teams with ``mode: partners`` (else 0)."""
    for kind in type(e).__mro__:
        words = _DESCRIBE.get(kind)
        if words is not None:
            return words(e, teams)
    raise UnoError(f"no words for the event {type(e).__name__}")


def _describe_turned_up(e: TurnedUp, teams: int) -> str:
    c = e.card
    if e.returned:
        return f"turned up {card_str(c)}, which goes back into the draw pile"
    color = "to be named" if c >= WILD else COLOR_NAMES[CARD_COLOR[c]]
    return f"turned up {card_str(c)} (colour {color})"


def _describe_played(e: Played, teams: int) -> str:
    who = _seat(e.seat)
    text = f"{who} jumps in with {card_str(e.card)}" if e.jump_in else f"{who} plays {card_str(e.card)}"
    if e.card >= WILD:
        text += f" and names {COLOR_NAMES[e.color]}"
    if e.uno:
        text += ' and calls "UNO!"'
    return text


def _describe_drew(e: Drew, teams: int) -> str:
    if e.source == "discard":
        return f"{_seat(e.seat)} takes {e.count} from under the top of the discard pile"
    if e.reason == "turn" and e.count == 1:
        return f"{_seat(e.seat)} draws"
    return f"{_seat(e.seat)} draws {e.count}"


def _describe_challenged(e: Challenged, teams: int) -> str:
    outcome = "it was a bluff" if e.won else "it was played fairly"
    return f"{_seat(e.challenger)} challenges the Wild Draw Four of {_seat(e.attacker)}: {outcome}"


def _describe_round_ended(e: RoundEnded, teams: int) -> str:
    side = _side(e.winner, teams)
    if e.blocked:
        return (f"the round is blocked (no card played from a hand for {BLOCKED_AFTER} "
                f"turns): {side} holds the fewest points and wins the round")
    return f"{side} wins the round"


_DESCRIBE: dict[type[Event], Callable[[Any, int], str]] = {
    RoundStarted: lambda e, teams: (f"round {e.round_no + 1}: {_seat(e.dealer)} deals "
                                    f"{max(e.hand_sizes, default=0)} cards each"),
    TurnedUp: _describe_turned_up,
    Played: _describe_played,
    WrongCard: lambda e, teams: (f"{_seat(e.seat)} plays {card_str(e.card)}, a wrong card: it goes back "
                                 "to the hand"),
    Drew: _describe_drew,
    Reshuffled: lambda e, teams: f"the discard pile is shuffled into a new draw pile of {e.draw_size} cards",
    Passed: lambda e, teams: f"{_seat(e.seat)} keeps the card and passes",
    Skipped: lambda e, teams: f"{_seat(e.seat)} is skipped",
    DirectionChanged: lambda e, teams: "the direction reverses",
    ColorNamed: lambda e, teams: f"{_seat(e.seat)} names {COLOR_NAMES[e.color]}",
    DrawPending: lambda e, teams: f"{_seat(e.seat)} is to draw {e.count} or answer",
    Accepted: lambda e, teams: f"{_seat(e.seat)} accepts the draw",
    Challenged: _describe_challenged,
    AgentPAnswered: lambda e, teams: (f"{_seat(e.seat)} answers with Agent P: {_seat(e.attacker)} takes "
                                      f"the {e.count} cards"),
    UnoCalled: lambda e, teams: f'{_seat(e.seat)} calls "UNO!"',
    UnoMissed: lambda e, teams: f"{_seat(e.seat)} has one card left and did not call UNO",
    Caught: lambda e, teams: f"{_seat(e.catcher)} catches {_seat(e.seat)} without an UNO call",
    HostPenalty: lambda e, teams: f"the host penalizes {_seat(e.seat)} for suggestions",
    Peeked: lambda e, teams: f"{_seat(e.seat)} peeks at every other hand",
    HandsSwapped: lambda e, teams: f"{_seat(e.seat)} swaps hands with {_seat(e.target)}",
    HandsRotated: lambda e, teams: ("every hand passes to the next player on the "
                                    + ("left" if e.direction == 1 else "right")),
    RoundEnded: _describe_round_ended,
    GameEnded: lambda e, teams: "Winner: " + ", ".join(_side(w, teams) if teams else _seat(w)
                                                       for w in e.winners),
}
"""How :func:`describe` words each kind of event (given it and the number of teams)."""


_TO_DO = {"play": "play", "drawn": "play the card drawn or pass", "respond": "answer a draw card",
          "color": "name the colour", "swap": "choose whom to swap hands with"}
"""What the seat on turn must do, by ``Game.awaiting``, in the record's words."""


def to_do(awaiting: str) -> str:
    """What the seat on turn must do (``Game.awaiting``), in the record's words."""
    return _TO_DO.get(awaiting, awaiting)


class Narrator:
    """Tells a match: a header per round, a line per move with every hand after it, the scores
    after each round and the winner (``unokit replay`` and ``unokit demo``). It is given the
    events in full, and tells each as a spectator sees it; the hands it shows are the events'
    cards, folded in order.

    Without ``tr`` it speaks the record's words, in English (``Player 1 plays R7``); with a
    translator, the player's words in that language (``unokit demo --lang``), told by a
    :class:`Teller` as a spectator sees the events. Either way the players are numbered from 1."""

    def __init__(self, emit: Callable[[str], None], tr: Translator | None = None) -> None:
        self.emit = emit
        self.tr = tr
        self.teller: Teller | None = None
        self.teams = 0
        self.scores: tuple[int | float, ...] = ()
        self.eliminated: tuple[bool, ...] = ()
        self.hands: list[list[Card]] = []
        self.round_no = 0
        self.move = 0

    def begin(self, game: Game) -> None:
        """The match's header, from its settings (before its first round is told)."""
        self.teams = game.rules.teams
        self.scores = tuple(game.scores)
        self.eliminated = tuple(game.eliminated)
        changed = game.options.changed()
        options = ", ".join(f"{k}={v}" for k, v in changed.items())
        tr = self.tr
        if tr is None:
            self.emit(f"unokit game: {game.edition}, {game.n} players, seed {game.seed}")
            if changed:
                self.emit("options: " + options)
            return
        self.teller = Teller(tr, game.edition, game.n, game.rules.teams, self.scores, self.eliminated)
        self.emit(tr._("unokit game: {edition}, {n} players, seed {seed}").format(
            edition=game.edition, n=game.n, seed=game.seed))
        if changed:
            self.emit(tr._("options: {options}").format(options=options))

    def _told(self, e: Event) -> list[str]:
        """One event (given in full) as a spectator is told it."""
        seen = e.seen_by(None)
        if self.teller is None:
            return [describe(seen, self.teams)]
        return self.teller.tell(seen)

    def _join(self, parts: Sequence[str]) -> str:
        return "; ".join(parts) if self.teller is None else " ".join(parts)

    def scores_text(self, scores: Sequence[int | float]) -> str:
        """The totals, each named: ``Player 1 0, Player 2 120`` (``Team 1 …`` with partners)."""
        if self.teller is None:
            names = [_side(s, self.teams) for s in range(len(scores))]
        else:
            names = [self.teller.side_name(s) for s in range(len(scores))]
        return ", ".join(f"{name} {_num(x)}" for name, x in zip(names, scores, strict=True))

    def round_started(self, events: Sequence[Event], turn: int, awaiting: str) -> None:
        """A round's opening ``events`` (the deal, the first card, its effect); ``turn`` and
        ``awaiting``: who is to act first, and what to do."""
        emit, tr, teller = self.emit, self.tr, self.teller
        parts: list[str] = []
        for e in events:
            self._fold(e)
            if isinstance(e, RoundStarted):
                self.round_no = e.round_no
                emit("")
                if tr is None or teller is None:
                    emit(f"== Round {e.round_no + 1}: dealer {_seat(e.dealer)}; "
                         f"scores: {self.scores_text(self.scores)}")
                    emit(f"   hands: {self.hands_line()}")
                else:
                    told = teller.tell(e.seen_by(None))
                    emit("== " + " ".join(told) + " " + tr._("Scores: {scores}.").format(
                        scores=self.scores_text(self.scores)))
                    emit("   " + tr._("hands: {hands}").format(hands=self.hands_line()))
            else:
                parts.extend(self._told(e))
        if tr is None or teller is None:
            parts.append(f"{_seat(turn)} to {to_do(awaiting)}")
        else:
            parts.append(tr._("{who} is on turn.").format(who=teller.name(turn)))
        emit("   " + self._join(parts))
        self.move = 0

    def action(self, events: Sequence[Event]) -> None:
        """The ``events`` of one action (a seat's, or the host's)."""
        self.move += 1
        tr, teller = self.tr, self.teller
        parts: list[str] = []
        ended: RoundEnded | None = None
        over: GameEnded | None = None
        for e in events:
            self._fold(e)
            if isinstance(e, GameEnded):
                over = e
                continue
            parts.extend(self._told(e))
            if isinstance(e, RoundEnded):
                ended = e
                out = [s for s, now in enumerate(e.eliminated)
                       if now and not (s < len(self.eliminated) and self.eliminated[s])]
                if out and teller is None:
                    parts.append("out of the game: " + ", ".join(_seat(s) for s in out))
        hands = self.hands_line()
        self.emit(f"{self.move:5}. {self._join(parts)}")
        if tr is None or teller is None:
            self.emit(f"       hands: {hands}")
        else:
            self.emit("       " + tr._("hands: {hands}").format(hands=hands))
        if ended is not None:
            self.scores, self.eliminated = ended.scores, ended.eliminated
            scores = self.scores_text(ended.scores)
            if tr is None or teller is None:
                self.emit(f"   scores after round {self.round_no + 1}: {scores}")
            else:
                self.emit("   " + tr._("Scores after round {n}: {scores}.").format(
                    n=self.round_no + 1, scores=scores))
        if over is not None:
            self.emit("")
            scores = self.scores_text(self.scores)
            if tr is None or teller is None:
                self.emit(f"{describe(over, self.teams)}; final scores: {scores}")
            else:
                self.emit(teller.winner_text(over.winners) + " " + tr._("Final scores: {scores}.").format(
                    scores=scores))

    def _fold(self, e: Event) -> None:
        """Follow every hand through the events (given in full)."""
        hands = self.hands
        if isinstance(e, RoundStarted):
            self.hands = [list(h or ()) for h in e.hands]
        elif isinstance(e, Played):
            hands[e.seat].remove(e.card)
        elif isinstance(e, Drew) and e.cards is not None:
            hands[e.seat].extend(e.cards)
        elif isinstance(e, HandsSwapped) and e.hands is not None:
            hands[e.seat], hands[e.target] = list(e.hands[0]), list(e.hands[1])
        elif isinstance(e, HandsRotated):
            self.hands = [list(h or ()) for h in e.hands]

    def hands_line(self) -> str:
        """Every hand, as ``Player 1: R1 G2 | Player 2: W`` (each player's name in the narration's
        language)."""
        name = _seat if self.teller is None else self.teller.name
        return " | ".join(
            f"{name(s)}: {' '.join(card_str(c) for c in h) or '-'}" for s, h in enumerate(self.hands)
        )


class _ReplayNarration:
    """A :class:`~unokit.core.record.ReplayWatcher` that hands the replay's events to a narrator."""

    def __init__(self, narrator: Narrator) -> None:
        self.narrator = narrator

    def round_started(self, game: Game, r: int, events: tuple[Event, ...]) -> None:
        if r == 0:
            self.narrator.begin(game)
        self.narrator.round_started(events, game.turn, game.awaiting)

    def after(self, game: Game, seat: int, action: int, events: tuple[Event, ...]) -> None:
        self.narrator.action(events)


def narrate_record(data: object, emit: Callable[[str], None], tr: Translator | None = None) -> Game:
    """Replay a record, emitting a header per round and a line per move with the hands after it
    (in the record's words, or with ``tr`` in the player's words of that language).

    Returns the final game. Raises :class:`~unokit.core.errors.RecordError` on a bad record (after
    telling the moves before the bad one).
    """
    return replay(data, watcher=_ReplayNarration(Narrator(emit, tr)))


__all__ = ["Narrator", "Teller", "describe", "narrate_record", "to_do"]
