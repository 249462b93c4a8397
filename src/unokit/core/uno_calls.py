"""UNO calls and catching (P1, P2): who owes a call, the catch window, and the calls that a
swap of hands makes due (``seven_zero``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .events import Caught, UnoCalled, UnoMissed
from .piles import give

if TYPE_CHECKING:
    from .game import Game


def owe(g: Game, seat: int) -> None:
    """``seat`` is down to one card without calling UNO: it may be caught (P2)."""
    g.owed[seat] = True
    g.window.append(seat)
    ev = g._events
    if ev is not None:
        ev.append(UnoMissed(seat))


def close_window(g: Game) -> None:
    """P2: the next action closes the catch window. Most actions find it empty, and
    clearing an empty list still costs a slice deletion (3% of a compiled two-player
    random round, 1% at four players)."""
    if g.window:
        g.window.clear()


def call(g: Game, seat: int) -> None:
    """P1: ``seat`` calls UNO after its play, while it still owes the call."""
    g.owed[seat] = False
    if seat in g.window:
        g.window.remove(seat)
    ev = g._events
    if ev is not None:
        ev.append(UnoCalled(seat))


def catch(g: Game, seat: int, target: int) -> None:
    """P2: ``seat`` catches ``target``, which missed its call: ``target`` draws 2."""
    ev = g._events
    if ev is not None:
        ev.append(Caught(seat, target))
    give(g, target, 2, "caught")


def recheck(g: Game, seats: Iterable[int], called: int) -> None:
    """A hand that drops to one card by a swap must call UNO (``seven_zero``); ``called`` is
    the seat whose play called it already (-1: none)."""
    for s in seats:
        if s in g.window:
            g.window.remove(s)
        if len(g.hands[s]) == 1 and s != called:
            owe(g, s)
        else:
            g.owed[s] = False


__all__ = ["call", "catch", "close_window", "owe", "recheck"]
