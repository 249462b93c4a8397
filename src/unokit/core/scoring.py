"""The end of a round and of the match: scoring (E1-E3, M2 partners, M4 elimination), the
game-over test, and the blocked round that cannot end (``docs/rules.md``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .cards import CARD_POINTS
from .events import GameEnded, RoundEnded
from .phases import GAME_OVER, ROUND_OVER
from .uno_calls import close_window

if TYPE_CHECKING:
    from .game import Game

BLOCKED_AFTER: Final = 200
"""A round is blocked (``docs/rules.md``) when this many turns in a row have begun with
a draw or a wrong card, with no card played from a hand in between: it can loop for ever
otherwise (every card in the hands and none playable, or ``draw_until_playable`` with
``force_play`` passing the same drawn cards round). Random play never comes near it: the
longest such run in thousands of random rounds was 26 turns."""


def end_round(g: Game, winner: int) -> None:
    """E2 / E3 / M2 / M4 scoring of the round ``winner`` won, then the game-over test."""
    close_window(g)
    g.owed = [False] * g.n
    g.drawn = -1
    g.round_winner = g.team_of(winner)
    points = [sum([CARD_POINTS[c] for c in h]) for h in g.hands]
    opts = g.options
    if opts.mode == "elimination":
        _eliminate(g, winner, points)
    elif opts.scoring == "standard":
        side = g.round_winner
        g.scores[side] += sum(points[s] for s in range(g.n) if g.team_of(s) != side)
        if g.scores[side] >= opts.target:
            g.winners = [side]
    else:
        scores = g.scores
        for s in range(g.n):
            scores[g.team_of(s)] += points[s]
        if max(scores) >= opts.target:
            low = min(scores)
            g.winners = [i for i, v in enumerate(scores) if v == low]
    g.phase = GAME_OVER if g.winners else ROUND_OVER
    ev = g._events
    if ev is not None:
        ev.append(RoundEnded(winner, tuple(points), tuple(g.scores), tuple(g.eliminated), g.blocked))
        if g.winners:
            ev.append(GameEnded(tuple(g.winners)))


def _eliminate(g: Game, winner: int, points: list[int]) -> None:
    """M4 (Challenge UNO): every seat still in adds its own points; a seat at the target is out;
    the last seat in wins."""
    scores, eliminated, n = g.scores, g.eliminated, g.n
    for s in range(n):
        if not eliminated[s]:
            scores[s] += points[s]
    for s in range(n):
        if not eliminated[s] and scores[s] >= g.options.target:
            eliminated[s] = True
    left = [s for s in range(n) if not eliminated[s]]
    if not left:
        # A blocked round in which every seat still in reached the target: the winner
        # of that final hand wins the game (M4; docs/rules.md, "A round that cannot end").
        eliminated[winner] = False
        left = [winner]
    if len(left) <= 1:
        g.winners = left


def block(g: Game, seat: int) -> None:
    """A blocked round (see :data:`BLOCKED_AFTER`) ends: the side (seat, or team with
    partners) holding the fewest points wins it, as if it had gone out; then the fewest
    cards; then the first in turn order from ``seat``, who made the last draw."""
    g.blocked = True
    held: dict[int, tuple[int, int]] = {}  # side: (points, cards) in its hands
    for s in range(g.n):
        if not g.eliminated[s]:
            points, cards = held.get(g.team_of(s), (0, 0))
            hand = g.hands[s]
            held[g.team_of(s)] = (points + sum([CARD_POINTS[c] for c in hand]), cards + len(hand))
    order = [seat]
    while g.next_seat(order[-1]) != seat:
        order.append(g.next_seat(order[-1]))
    # min() keeps the first of equals: the turn order from ``seat`` breaks the last ties.
    end_round(g, min(order, key=lambda t: held[g.team_of(t)]))


__all__ = ["BLOCKED_AFTER", "block", "end_round"]
