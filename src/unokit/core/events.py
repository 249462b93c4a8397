"""What happened: the typed, frozen events that :meth:`Game.apply <unokit.core.game.Game.apply>` returns.

Every change of a game is told by events, in the order it happened: a card played, cards
drawn (and why), a seat skipped, the direction reversed, a colour named, UNO called or
missed, a player caught, a challenge won or lost, Agent P's answer, hands swapped, the round
and the match ended. Folded in order, the events of a round give every seat's hand size, the
top card, the colour in play and (to its own seat) the hand itself.

Each event knows what a seat may see of it: :meth:`Event.seen_by` gives the event as seat
``s`` (or a spectator, ``None``) may be told it. The cards drawn are shown to the drawer and
counted for everyone else; a hand shown after a challenge is shown to the challenger only;
Mater's peek to the Mater player only; swapped hands to the two seats that swapped.

>>> from unokit import Game
>>> g = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1", "Y2"], dealer=1)
>>> [type(e).__name__ for e in g.apply(0, "draw")]
['Drew']
>>> g.apply(0, "pass")
(Passed(seat=0),)
>>> events = g.apply(1, "R5")
>>> events[0]
Played(seat=1, card=5, color=0, uno=False, jump_in=False)
>>> [e.seen_by(1) for e in g.apply(0, "draw")], [e.seen_by(0) for e in g.apply(0, "pass")]
([Drew(seat=0, count=1, cards=None, reason='turn', source='draw_pile')], [Passed(seat=0)])
"""

from __future__ import annotations

# mypyc: pure: built only when asked for (apply, not step); frozen dataclasses pickle by default
from dataclasses import dataclass, fields, replace
from typing import Any, Final, Literal

from .cards import Card, card_str

DrawReason = Literal[
    "turn", "draw_two", "wild_draw_four", "stack", "challenge", "caught", "penalty", "host", "agent_p",
    "first_card",
]
"""Why cards were drawn: a turn's draw (T2, and ``draw_until_playable``), a Draw Two or Wild
Draw Four taken (T3/T4, with ``stack`` for a stacked total), a lost challenge or a bluff
caught (P3), a missed UNO call caught (P2), a wrong card (P5), the host's penalty (P4), an
attacker answered by Agent P (C6), the first card turned up (S3)."""

DRAW_REASONS: Final[tuple[str, ...]] = (
    "turn", "draw_two", "wild_draw_four", "stack", "challenge", "caught", "penalty", "host", "agent_p",
    "first_card",
)


@dataclass(frozen=True, slots=True)
class Event:
    """The base of every event. ``seen_by(seat)`` is what ``seat`` (``None``: a spectator) may
    see of it; the base event is public as it is."""

    def seen_by(self, seat: int | None) -> Event:
        """This event as ``seat`` may be told it (``None``: a spectator)."""
        return self

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data: ``{"type": "Played", "seat": 1, ...}``, cards in notation."""
        out: dict[str, Any] = {"type": type(self).__name__}
        for f in fields(self):
            out[f.name] = _json(f.name, getattr(self, f.name))
        return out


def _json(name: str, value: Any) -> Any:
    if value is None:
        return None
    if name == "card":
        return card_str(value)
    if name in ("cards", "hand"):
        return [card_str(c) for c in value]
    if name == "hands":
        return [None if h is None else [card_str(c) for c in h] for h in value]
    if name == "shown":
        return {str(s): [card_str(c) for c in h] for s, h in value}
    if isinstance(value, tuple):
        return list(value)
    return value


# ---------------------------------------------------------------------- the deal


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A round was dealt (S1, S2): its number, the dealer, every seat's hand size, and the hands
    (each seat sees only its own; the others are ``None``)."""

    round_no: int
    dealer: int
    hand_sizes: tuple[int, ...]
    hands: tuple[tuple[Card, ...] | None, ...]

    def seen_by(self, seat: int | None) -> Event:
        return replace(self, hands=tuple(h if s == seat else None for s, h in enumerate(self.hands)))


@dataclass(frozen=True, slots=True)
class TurnedUp(Event):
    """The first card of the discard pile was turned up (S3). ``returned`` is true for a Wild
    Draw Four put back into the draw pile, another card being turned instead."""

    card: Card
    returned: bool = False


# ---------------------------------------------------------------------- cards


@dataclass(frozen=True, slots=True)
class Played(Event):
    """``seat`` played ``card``; ``color`` is the colour in play after it (the one named for a
    wild). ``uno``: UNO was called with it (P1). ``jump_in``: played out of turn (house rule)."""

    seat: int
    card: Card
    color: int
    uno: bool = False
    jump_in: bool = False


@dataclass(frozen=True, slots=True)
class WrongCard(Event):
    """``seat`` showed ``card``, which does not match, and keeps it (P5, ``illegal_play:
    penalize``); a :class:`Drew` of 2 follows."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """``seat`` drew ``count`` cards, ``cards`` (``None`` for the seats that may not see them),
    for ``reason`` (:data:`DrawReason`), from the draw pile or, for Agent P's attacker, from
    under the top of the discard pile (``source: "discard"``; those cards were face up, so
    everyone sees them)."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None
    reason: str
    source: str = "draw_pile"

    def seen_by(self, seat: int | None) -> Event:
        if seat == self.seat or self.source == "discard":
            return self
        return replace(self, cards=None)


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The discard pile but its top card was shuffled into a new draw pile of ``draw_size`` (T6)."""

    draw_size: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """``seat`` kept the card it drew and ended its turn (T2)."""

    seat: int


# ---------------------------------------------------------------------- turn order


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    """``seat`` loses its turn (a Skip, a Draw Two or Wild Draw Four taken, a two-player Reverse)."""

    seat: int


@dataclass(frozen=True, slots=True)
class DirectionChanged(Event):
    """Play now goes ``direction`` (1: to the left, -1: to the right) (a Reverse, T3)."""

    direction: int


@dataclass(frozen=True, slots=True)
class ColorNamed(Event):
    """``seat`` named ``color`` for the wild turned up first (S3)."""

    seat: int
    color: int


# ---------------------------------------------------------------------- draw cards and answers


@dataclass(frozen=True, slots=True)
class DrawPending(Event):
    """A draw card waits for ``seat``'s answer: take ``count`` cards, or (as the rules allow)
    challenge, stack or answer with Agent P. ``attacker`` played it."""

    seat: int
    count: int
    attacker: int


@dataclass(frozen=True, slots=True)
class Accepted(Event):
    """``seat`` took the pending draw card (a :class:`Drew` follows)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Challenged(Event):
    """``challenger`` challenged ``attacker``'s Wild Draw Four (P3) and ``won`` (it was a
    bluff) or lost. ``hand`` is the attacker's hand as shown: to the challenger only."""

    challenger: int
    attacker: int
    won: bool
    hand: tuple[Card, ...] | None

    def seen_by(self, seat: int | None) -> Event:
        return self if seat == self.challenger else replace(self, hand=None)


@dataclass(frozen=True, slots=True)
class AgentPAnswered(Event):
    """``seat`` answered a draw card with Agent P (C6): ``attacker`` draws ``count`` instead."""

    seat: int
    attacker: int
    count: int


# ---------------------------------------------------------------------- UNO


@dataclass(frozen=True, slots=True)
class UnoCalled(Event):
    """``seat`` called UNO with its last card (P1)."""

    seat: int


@dataclass(frozen=True, slots=True)
class UnoMissed(Event):
    """``seat`` is down to one card without calling UNO: it may be caught (P2)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Caught(Event):
    """``catcher`` caught ``seat``, who had not called UNO (P2); a :class:`Drew` of 2 follows."""

    catcher: int
    seat: int


@dataclass(frozen=True, slots=True)
class HostPenalty(Event):
    """The host gave ``seat`` the suggestion penalty (P4); a :class:`Drew` of 2 follows."""

    seat: int


# ---------------------------------------------------------------------- editions and house rules


@dataclass(frozen=True, slots=True)
class Peeked(Event):
    """``seat`` played Mater and saw every other hand (C5): ``shown`` is ``((seat, cards), …)``,
    seen by the Mater player only."""

    seat: int
    shown: tuple[tuple[int, tuple[Card, ...]], ...] | None

    def seen_by(self, seat: int | None) -> Event:
        return self if seat == self.seat else replace(self, shown=None)


@dataclass(frozen=True, slots=True)
class HandsSwapped(Event):
    """``seat`` swapped hands with ``target`` after a 7 (``seven_zero``). ``hands`` are their new
    hands (``seat``'s, then ``target``'s), seen by those two seats only."""

    seat: int
    target: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] | None

    def seen_by(self, seat: int | None) -> Event:
        return self if seat in (self.seat, self.target) else replace(self, hands=None)


@dataclass(frozen=True, slots=True)
class HandsRotated(Event):
    """After a 0 (``seven_zero``) every hand passed to the next seat in ``direction``. ``hands``
    are the new hands, each seen by its own seat only (``None`` for the others)."""

    direction: int
    hands: tuple[tuple[Card, ...] | None, ...]

    def seen_by(self, seat: int | None) -> Event:
        return replace(self, hands=tuple(h if s == seat else None for s, h in enumerate(self.hands)))


# ---------------------------------------------------------------------- the end


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """The round ended: ``winner`` went out (or won the blocked round, ``blocked``); ``points``
    are the points left in each seat's hand; ``scores`` the match totals after the round (per
    team with partners); ``eliminated`` every seat's state after it (Challenge UNO)."""

    winner: int
    points: tuple[int, ...]
    scores: tuple[int | float, ...]
    eliminated: tuple[bool, ...]
    blocked: bool = False


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The match is over; ``winners`` are the winning seats (teams with partners)."""

    winners: tuple[int, ...]


EVENT_TYPES: Final[tuple[type[Event], ...]] = (
    RoundStarted, TurnedUp, Played, WrongCard, Drew, Reshuffled, Passed, Skipped, DirectionChanged,
    ColorNamed, DrawPending, Accepted, Challenged, AgentPAnswered, UnoCalled, UnoMissed, Caught,
    HostPenalty, Peeked, HandsSwapped, HandsRotated, RoundEnded, GameEnded,
)
"""Every event type, for consumers that dispatch on them and for documentation."""


__all__ = [
    "DRAW_REASONS", "EVENT_TYPES", "Accepted", "AgentPAnswered", "Caught", "Challenged", "ColorNamed",
    "DirectionChanged", "DrawPending", "DrawReason", "Drew", "Event", "GameEnded", "HandsRotated",
    "HandsSwapped", "HostPenalty", "Passed", "Peeked", "Played", "Reshuffled", "RoundEnded", "RoundStarted",
    "Skipped", "TurnedUp", "UnoCalled", "UnoMissed", "WrongCard",
]
