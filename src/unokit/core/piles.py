"""The piles: a seat drawing cards (for any reason), and the reshuffle when the draw pile
runs out (T6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import Card
from .events import Drew, Reshuffled
from .shuffles import shuffle

if TYPE_CHECKING:
    from .game import Game


def give(g: Game, seat: int, k: int, reason: str | None) -> list[Card]:
    """``seat`` draws ``k`` cards (T6 when the draw pile runs out) for ``reason`` (told in a
    :class:`~unokit.core.events.Drew` event; ``None``: the caller tells it). Returns them."""
    if g.owed[seat]:
        g.owed[seat] = False
    window = g.window
    if window and seat in window:
        window.remove(seat)
    pile = g.draw_pile
    hand = g.hands[seat]
    if len(pile) >= k:  # the usual case: no reshuffle needed
        got = pile[-1:-k - 1:-1]  # the top k cards, in the order they are drawn
        del pile[len(pile) - k:]
        hand += got
    else:
        got = []
        for _ in range(k):
            if not pile:
                if not reshuffle(g):
                    break
                pile = g.draw_pile
            c = pile.pop()
            hand.append(c)
            got.append(c)
    ev = g._events
    if ev is not None and reason is not None:
        ev.append(Drew(seat, len(got), tuple(got), reason))
    return got


def reshuffle(g: Game) -> bool:
    """T6: the discard pile except its top card becomes the draw pile, shuffled. ``False``
    when there is nothing to reshuffle."""
    if len(g.discard) <= 1:
        return False
    top = g.discard.pop()
    pile = g.discard
    shuffle(g.rng, pile)
    g.draw_pile = pile
    g.discard = [top]
    ev = g._events
    if ev is not None:
        ev.append(Reshuffled(len(pile)))
    return True


__all__ = ["give", "reshuffle"]
