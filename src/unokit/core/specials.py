"""What an edition's special card does when it is played, beyond its colour: C5, the Mater
player sees every other hand (UNO Cars 2). (C6, Agent P's answer to a draw card, is in
:mod:`unokit.core.draw_cards`.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .events import Peeked

if TYPE_CHECKING:
    from .game import Game


def peek(g: Game, seat: int) -> None:
    """C5: the Mater player sees every other hand as it is now."""
    seen = g.seen[seat]
    for t in range(g.n):
        if t != seat and not g.eliminated[t]:
            seen[t] = tuple(g.hands[t])
    ev = g._events
    if ev is not None:
        ev.append(Peeked(seat, tuple(sorted(seen.items()))))


__all__ = ["peek"]
