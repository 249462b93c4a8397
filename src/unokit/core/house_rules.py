"""The house rule ``seven_zero``: after a 7 its player swaps hands with a seat of their
choice; after a 0 every hand passes to the next seat in the direction of play. (The other
house rules are read where their rule is: ``stacking`` in :mod:`~unokit.core.draw_cards`,
``jump_in`` in :mod:`~unokit.core.legality`, ``draw_until_playable`` and ``force_play`` in
:mod:`~unokit.core.drawing`.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import Card
from .events import HandsRotated, HandsSwapped
from .phases import PLAY
from .uno_calls import recheck

if TYPE_CHECKING:
    from .game import Game


def swap(g: Game, seat: int, target: int) -> None:
    """``seven_zero``: after a 7, ``seat`` swaps hands with ``target``."""
    hands = g.hands
    called = len(hands[seat]) == 1 and not g.owed[seat]
    hands[seat], hands[target] = hands[target], hands[seat]
    ev = g._events
    if ev is not None:
        ev.append(HandsSwapped(seat, target, (tuple(hands[seat]), tuple(hands[target]))))
    recheck(g, (seat, target), seat if called else -1)
    g.turn = g.next_seat(seat)
    g.phase = PLAY


def rotate_hands(g: Game, seat: int, called: bool) -> None:
    """``seven_zero``: after ``seat``'s 0, every hand passes to the next player in the
    direction; ``called``: the 0 was played with an UNO call."""
    old = g.hands
    new: list[list[Card]] = [[] for _ in range(g.n)]
    movers = [s for s in range(g.n) if not g.eliminated[s]]
    for s in movers:
        new[g.next_seat(s)] = old[s]
    g.hands = new
    ev = g._events
    if ev is not None:
        ev.append(HandsRotated(g.direction, tuple([tuple(h) for h in new])))
    recheck(g, movers, seat if called and len(old[seat]) == 1 else -1)


__all__ = ["rotate_hands", "swap"]
