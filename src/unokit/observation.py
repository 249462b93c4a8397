"""What one seat may know: its :class:`Observation` of a :class:`~unokit.game.Game`.

An observation holds the seat's own hand, the other seats' card counts, the discard pile,
the colour in play, the direction and the turn, the public history of the round, the
match totals, and what the seat has been shown (a Mater peek, or a hand shown after its
challenge). It never depends on cards hidden from the seat.

>>> from unokit.game import Game
>>> g = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1"], dealer=1)
>>> obs = observe(g, 1)
>>> obs.hand_text(), obs.hand_sizes, obs.top_text()
(['R5', 'B7'], (2, 2), 'R3')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from .actions import Action, action_str
from .cards import Card, card_str
from .options import Options

if TYPE_CHECKING:
    from .game import Game


class HistoryView(Sequence[tuple[int, Action]]):
    """A read-only, O(1) view of the first ``length`` entries of a round's public log.

    Each entry is ``(seat, action)``; the seat is ``-1`` for a host's action (P4).
    The log of a round is only ever appended to, so the view never changes.
    """

    __slots__ = ("_len", "_log")

    def __init__(self, log: list[tuple[int, Action]], length: int) -> None:
        self._log = log
        self._len = length

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> tuple[int, Action]: ...

    @overload
    def __getitem__(self, i: slice) -> list[tuple[int, Action]]: ...

    def __getitem__(self, i: int | slice) -> tuple[int, Action] | list[tuple[int, Action]]:
        if isinstance(i, slice):
            return self._log[: self._len][i]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("history index out of range")
        return self._log[i]

    def __iter__(self) -> Iterator[tuple[int, Action]]:
        log = self._log
        for i in range(self._len):
            yield log[i]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"HistoryView({[(s, action_str(a)) for s, a in self]})"


@dataclass(slots=True)
class Observation:
    """One seat's view of the game. All fields are public information or the seat's own.

    ``seen`` maps another seat to the cards that seat held the last time its hand was
    shown to this seat. ``drawn`` is this seat's just-drawn card (or -1). ``pending`` is the
    number of cards a draw card waiting for an answer would make the seat on turn draw, and
    ``attacker`` the seat that played it (-1 when none). ``options`` are the match's rules. ``owed`` marks the
    seats that have one card and have not called UNO; ``catchable`` those that may be caught now.
    """

    seat: int
    edition: str
    players: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    top: Card
    color: int
    direction: int
    turn: int
    awaiting: str
    draw_size: int
    discard: tuple[Card, ...]
    pending: int
    attacker: int
    drawn: Card
    owed: tuple[bool, ...]
    catchable: tuple[int, ...]
    scores: tuple[int | float, ...]
    eliminated: tuple[bool, ...]
    dealer: int
    round_no: int
    history: HistoryView
    seen: dict[int, tuple[Card, ...]]
    legal: tuple[Action, ...]
    options: Options

    def hand_text(self) -> list[str]:
        """The seat's hand in card notation."""
        return [card_str(c) for c in self.hand]

    def top_text(self) -> str:
        """The top card of the discard pile in notation."""
        return card_str(self.top)

    def legal_text(self) -> list[str]:
        """The seat's legal actions in notation."""
        return [action_str(a) for a in self.legal]


def observe(game: Game, seat: int) -> Observation:
    """The :class:`Observation` of ``seat`` (also available as ``game.observe(seat)``)."""
    # Built at every step of a simulation, so kept lean. Every mutable part of the game is
    # copied (tuples, a dict); the history is an O(1) view of the append-only log.
    turn = game.turn
    phase = game.phase
    discard = game.discard
    history = game.history
    return Observation(
        seat,
        game.edition,
        game.n,
        tuple(game.hands[seat]),
        tuple(map(len, game.hands)),
        discard[-1],
        game.color,
        game.direction,
        turn,
        game.awaiting,
        len(game.draw_pile),
        tuple(discard),
        game.pending,
        game.attacker,
        game.drawn if (seat == turn and phase == 1) else -1,  # phase 1: DRAWN
        tuple(game.owed),
        tuple(game.window),
        tuple(game.scores),
        tuple(game.eliminated),
        game.dealer,
        game.round_no,
        HistoryView(history, len(history)),
        dict(game.seen[seat]),
        tuple(game.legal_actions(seat)),
        game.options,
    )
