"""The one definition of a game's state: :class:`State`, and how each round began (:class:`RoundStart`).

:class:`State` lists every field that makes up a :class:`~unokit.core.game.Game`, once. The game
copies itself (:meth:`Game.copy <unokit.core.game.Game.copy>`), takes and restores snapshots
(:meth:`Game.state`, :meth:`Game.from_state`), writes and reads positions
(:meth:`Game.to_dict`, :meth:`Game.from_dict`) and builds determinized worlds
(:meth:`Game.from_observation`) by walking these fields; nothing else lists them. Everything
else a game holds (the rule flags read from its options, the seat order, the cache of legal
actions) is derived from the state.

A :class:`State` is frozen and holds only tuples, so two snapshots compare with ``==``.

>>> from unokit import Game
>>> g = Game.new("classic", 3, seed=2)
>>> snap = g.state()
>>> g.copy().state() == snap, snap.hands == tuple(tuple(h) for h in g.hands)
(True, True)
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field, fields
from typing import Any, Final

from .actions import Action
from .cards import Card
from .options import Options

# How a field is copied between a game and a snapshot (the ``kind`` of its metadata).
VALUE: Final = 0
"""An immutable value, shared."""
LIST: Final = 1
"""A list of immutable values (a tuple in a :class:`State`)."""
LISTS: Final = 2
"""A list of lists (the hands)."""
DICTS: Final = 3
"""A list of ``{seat: cards}`` dicts (what each seat has seen), as sorted pairs in a State."""
ROUNDS: Final = 4
"""The list of :class:`RoundStart`; the last one's ``actions`` is the game's ``history``."""
RNG: Final = 5
"""A ``random.Random`` or ``None``: its ``getstate()`` in a State."""


class RoundStart:
    """How a round began and what was done in it: the dealer, the match totals before it,
    either the deck dealt by S2 (``deck``, top first) or the stacked piles
    (``piles``: hands, discard, draw top-first), and the round's actions ``(seat, action)``
    (seat -1 for a host's action). A round taken from an observation
    (:meth:`Game.from_observation <unokit.core.game.Game.from_observation>`) has neither."""

    __slots__ = ("actions", "dealer", "deck", "eliminated", "piles", "scores")

    def __init__(self, dealer: int, deck: tuple[Card, ...] | None,
                 piles: tuple[tuple[tuple[Card, ...], ...], Card, tuple[Card, ...]] | None,
                 scores: tuple[int | float, ...] = (), eliminated: tuple[int, ...] = (),
                 actions: list[tuple[int, Action]] | None = None) -> None:
        self.dealer = dealer
        self.deck = deck
        self.piles = piles
        self.scores = scores
        self.eliminated = eliminated
        self.actions: list[tuple[int, Action]] = actions if actions is not None else []

    def frozen(self) -> tuple[Any, ...]:
        """This round as a tuple (for a :class:`State`)."""
        return (self.dealer, self.deck, self.piles, self.scores, self.eliminated, tuple(self.actions))

    @staticmethod
    def thaw(t: tuple[Any, ...]) -> RoundStart:
        """The round of :meth:`frozen`'s tuple."""
        return RoundStart(t[0], t[1], t[2], t[3], t[4], list(t[5]))


def _f(kind: int, attr: str = "") -> Any:
    return field(metadata={"kind": kind, "attr": attr})


@dataclass(frozen=True)
class State:
    """Every field of a game: the match settings and totals, every round's start and actions,
    the current round's piles and turn, and the state of its random generators.

    The attribute of the :class:`~unokit.core.game.Game` that holds a field has the same name,
    except ``rng``, ``rng_seed`` and ``version`` (held privately). ``history``, the current
    round's actions, is the last entry of ``rounds``.
    """

    edition: str = _f(VALUE)
    """The edition: ``classic``, ``cars2`` or ``phineas-ferb``."""
    options: Options = _f(VALUE)  # noqa: RUF009
    """The match's rules."""
    n: int = _f(VALUE)
    """The number of seats."""
    seed: int = _f(VALUE)
    """The match seed: later deals and reshuffles derive from it."""
    deal_rng: Any = _f(RNG)  # noqa: RUF009
    """The state of the caller's deal stream (``Game.new(deal_rng=...)``), or ``None``."""
    scores: tuple[int | float, ...] = _f(LIST)
    """The match totals, per seat (per team with partners)."""
    eliminated: tuple[bool, ...] = _f(LIST)
    """Per seat: out of the match (Challenge UNO)."""
    round_no: int = _f(VALUE)
    dealer: int = _f(VALUE)
    winners: tuple[int, ...] = _f(LIST)
    """The winning seats (teams) once the match is over."""
    round_winner: int = _f(VALUE)
    """The side that won the current round, or -1."""
    rounds: tuple[tuple[Any, ...], ...] = _f(ROUNDS)
    """Every round so far, as :meth:`RoundStart.frozen` tuples (the last one's actions: the history)."""
    hands: tuple[tuple[Card, ...], ...] = _f(LISTS)
    draw_pile: tuple[Card, ...] = _f(LIST)
    """The draw pile, bottom first (its last card is drawn next)."""
    discard: tuple[Card, ...] = _f(LIST)
    """The discard pile, bottom first (its last card is the top)."""
    color: int = _f(VALUE)
    turn: int = _f(VALUE)
    direction: int = _f(VALUE)
    phase: int = _f(VALUE)
    """What the game waits for (:data:`unokit.core.game.AWAITING` names it)."""
    drawn: int = _f(VALUE)
    """The card the seat on turn just drew (T2), or -1."""
    pending: int = _f(VALUE)
    """The cards a draw card waiting for an answer would make the seat on turn draw."""
    pending_rank: int = _f(VALUE)
    """The rank of that draw card (``DRAW_TWO`` or ``WILD_DRAW_FOUR_RANK``), or -1."""
    attacker: int = _f(VALUE)
    """The seat that played it, or -1."""
    bluff: bool = _f(VALUE)
    """Whether that Wild Draw Four was played with a card of the colour in play held (P3)."""
    owed: tuple[bool, ...] = _f(LIST)
    """Per seat: down to one card without having called UNO."""
    window: tuple[int, ...] = _f(LIST)
    """The seats that may be caught now (P2)."""
    seen: tuple[tuple[tuple[int, tuple[Card, ...]], ...], ...] = _f(DICTS)
    """Per seat: the hands it has been shown (Mater, a challenge), as ``(seat, cards)`` pairs."""
    idle_turns: int = _f(VALUE)
    """Turns in a row begun with a draw or a wrong card (a blocked round ends at 200)."""
    blocked: bool = _f(VALUE)
    rng: Any = _f(RNG, "_rng")  # noqa: RUF009
    """The round's generator's state (T6 reshuffles), or ``None`` when it is made when first needed."""
    rng_seed: int | None = _f(VALUE, "_rng_seed")
    """The seed the round's generator is made from when first needed (``None``: from the match seed)."""
    version: int = _f(VALUE, "_version")
    """The number of actions applied to the match, deals included."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by its fields (a frozen dataclass compiled by mypyc has no default pickling)."""
        return (State, tuple([getattr(self, name) for name in _NAMES]))


FIELDS: Final[tuple[tuple[str, str, int], ...]] = tuple(
    (f.name, f.metadata["attr"] or f.name, f.metadata["kind"]) for f in fields(State)
)
"""``(field, game attribute, kind)`` for every field of :class:`State`, in order."""
_NAMES: Final = tuple(name for name, _, _ in FIELDS)


def freeze(kind: int, value: Any) -> Any:
    """A game attribute's value as it is held in a :class:`State`."""
    if kind == VALUE:
        return value
    if kind == LIST:
        return tuple(value)
    if kind == LISTS:
        return tuple([tuple(h) for h in value])
    if kind == DICTS:
        return tuple([tuple(sorted(s.items())) for s in value])
    if kind == ROUNDS:
        return tuple([r.frozen() for r in value])
    return None if value is None else value.getstate()


def thaw(kind: int, value: Any) -> Any:
    """A :class:`State` field's value as a game holds it (fresh lists, its own generator)."""
    if kind == VALUE:
        return value
    if kind == LIST:
        return list(value)
    if kind == LISTS:
        return [list(h) for h in value]
    if kind == DICTS:
        return [dict(s) for s in value]
    if kind == ROUNDS:
        return [RoundStart.thaw(r) for r in value]
    if value is None:
        return None
    rng = random.Random(0)
    rng.setstate(value)
    return rng


def _plain_copy(rng: random.Random) -> random.Random:
    """A ``random.Random`` in ``rng``'s state. Seeding from 0 is cheaper than from the OS,
    which ``copy.copy`` does (20 against 29 µs)."""
    clone = random.Random(0)
    clone.setstate(rng.getstate())
    return clone


def _copy_rng(rng: random.Random | None) -> random.Random | None:
    """A copy of a generator of the game (``None`` stays ``None``; another class keeps its class)."""
    if rng is None:
        return None
    if type(rng) is random.Random:
        return _plain_copy(rng)
    return copy.copy(rng)


def copy_fields(dst: Any, src: Any) -> None:
    """Set every field of :class:`State` on the game ``dst`` to an independent copy of the game
    ``src``'s (:meth:`Game.copy <unokit.core.game.Game.copy>`): lists and hands copied, the
    current round's log copied (it goes on in the copy alone), generators copied."""
    for _, attr, kind in FIELDS:
        value = getattr(src, attr)
        if kind == VALUE:
            setattr(dst, attr, value)
        elif kind == LIST:
            setattr(dst, attr, list(value))
        elif kind == LISTS:
            setattr(dst, attr, [list(h) for h in value])
        elif kind == DICTS:
            setattr(dst, attr, [dict(s) for s in value])
        elif kind == ROUNDS:
            rounds = list(value)
            if rounds:
                last = rounds[-1]
                rounds[-1] = RoundStart(last.dealer, last.deck, last.piles, last.scores,
                                        last.eliminated, list(last.actions))
            setattr(dst, attr, rounds)
        else:
            setattr(dst, attr, _copy_rng(value))


__all__ = ["FIELDS", "RoundStart", "State", "copy_fields", "freeze", "thaw"]
