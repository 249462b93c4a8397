"""Drawing at a turn and penalty draws: T2's draw (with the house rules ``draw_until_playable``
and ``force_play``) and the pass after it, P5's wrong card taken back with a draw of two, P4's
penalty given by a host, and the count of turns begun with a draw that ends a blocked round."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import ACTION_CARD, ACTION_KIND, ACTION_UNO, K_PLAY, Action
from .cards import CARD_RANK
from .events import Drew, HostPenalty, Passed, WrongCard
from .legality import MATCHES, drawn_playable
from .phases import DRAWN, PLAY
from .piles import give
from .scoring import BLOCKED_AFTER, block
from .uno_calls import close_window

if TYPE_CHECKING:
    from .game import Game


def draw_turn(g: Game, seat: int) -> None:
    """T2 (and ``draw_until_playable``): draw, then wait for the drawn card's play or a pass."""
    if g.window:  # close_window(), inlined on this hot path
        g.window.clear()
    g.idle_turns += 1
    hand = g.hands[seat]
    pile = g.draw_pile
    until = g.rules.until_playable
    if pile:  # the usual case: give(seat, 1) without a reshuffle
        g.owed[seat] = False
        d = pile.pop()
        hand.append(d)
        if g._events is None and not until:
            g.drawn = d
            g.phase = DRAWN
            if g.idle_turns >= BLOCKED_AFTER:
                block(g, seat)
            return
        drawn = [d]
    else:
        drawn = give(g, seat, 1, None)
        d = drawn[0] if drawn else -1
    if until:
        while d >= 0 and not drawn_playable(g, d, hand):
            got = give(g, seat, 1, None)
            if not got:
                break  # the piles ran dry: the last card stays drawn, unplayable
            d = got[0]
            drawn.append(d)
    ev = g._events
    if ev is not None:
        ev.append(Drew(seat, len(drawn), tuple(drawn), "turn"))
    g.drawn = d
    g.phase = DRAWN
    if g.idle_turns >= BLOCKED_AFTER:
        block(g, seat)


def wrong_card(g: Game, seat: int, a: Action) -> None:
    """P5 with ``illegal_play: penalize``: keep the card, draw 2, play goes on."""
    g._version += 1
    g.history.append((seat, a))
    close_window(g)
    ev = g._events
    if ev is not None:
        ev.append(WrongCard(seat, ACTION_CARD[a]))
    give(g, seat, 2, "penalty")
    g.turn = g.next_seat(seat)
    g.phase = PLAY
    g.idle_turns += 1
    if g.idle_turns >= BLOCKED_AFTER:
        block(g, seat)



def pass_turn(g: Game, seat: int) -> None:
    """T2: the seat that drew keeps the card drawn; the next seat is on turn."""
    if g.window:
        g.window.clear()
    g.drawn = -1
    g.turn = (g._left if g.direction == 1 else g._right)[seat]
    g.phase = PLAY
    if g._events is not None:
        g._events.append(Passed(seat))


def is_wrong_card(g: Game, seat: int, a: Action) -> bool:
    """P5: whether ``a`` is a card of ``seat``'s, on its turn to play, that does not match (never
    one carrying an UNO call: the card stays in the hand, so the call would be refused, and a
    refused call refuses the whole action)."""
    return (g.phase == PLAY and seat == g.turn and ACTION_KIND[a] == K_PLAY and not ACTION_UNO[a]
            and ACTION_CARD[a] in g.hands[seat]
            and not MATCHES[g.color * 17 + CARD_RANK[g.discard[-1]]][ACTION_CARD[a]])


def host_penalty(g: Game, a: Action, target: int) -> None:
    """P4: the host gives ``target`` the suggestion penalty, two cards (``a``: its action)."""
    if g._events is not None:
        g._events.append(HostPenalty(target))
    g._version += 1
    g.history.append((-1, a))
    give(g, target, 2, "host")


__all__ = ["draw_turn", "host_penalty", "is_wrong_card", "pass_turn", "wrong_card"]
