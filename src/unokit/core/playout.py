"""Random play to the end of a round, run inside the engine: the fastest way to simulate.

:func:`playout` plays the current round of a :class:`~unokit.core.game.Game` to its end, each
step a random choice among the legal actions of the seat on turn, and returns the number of
actions applied. It is the loop a Python caller would write::

    while game.phase < ROUND_OVER:
        seat = game.turn
        game.step(seat, rng.choice(game.legal_actions(seat)))

and it plays exactly the same game, number for number: the choice is ``rng.choice`` (the
same draws from the generator, computed by :mod:`unokit.core.shuffles`). In the
mypyc build (what ``pip install .`` makes) the loop itself is compiled too, so a simulation
of random games, or the random rollouts of a Monte Carlo search, spends no time in
interpreted code.

Two policies (:data:`POLICIES`):

* ``"uniform"``: uniformly random over the turn seat's legal actions (its UNO-call variants
  and catches included; drawing is always legal under T2, so rounds are long).
* ``"playable-first"``: RLCard's action space as the random policy. At a turn, a random play
  when the hand has one (every matching card, a wild once per colour, with their UNO-call
  variants), otherwise ``draw``; after drawing, a random play of the drawn card if it is
  playable, otherwise ``pass``; any other decision (a colour, a draw card to answer, a swap)
  uniformly random. It plays the way people and the bots do (they rarely draw with a card to
  play), and its rounds are as short as RLCard's.

>>> import random
>>> from unokit.core.game import Game
>>> game = Game.new("classic", 3, seed=7)
>>> steps = playout(game, random.Random(1), "playable-first")
>>> game.awaiting, steps == len(game.history)
('round_over', True)
>>> playout(game, random.Random(1))  # the round is over: nothing to play
0
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from .actions import ACTION_KIND, DRAW, K_PLAY
from .game import Game
from .phases import DRAWN, PLAY, ROUND_OVER
from .shuffles import bound_getrandbits, randbelow_with

__all__ = ["POLICIES", "playout"]

POLICIES: Final = ("uniform", "playable-first")
"""The random policies :func:`playout` plays."""


def playout(game: Game, rng: random.Random, policy: str = "uniform") -> int:
    """Play ``game``'s current round to its end with ``policy`` (one of :data:`POLICIES`),
    choosing with ``rng``; returns the number of actions applied (0 if the round is over).

    Every action goes through :meth:`Game.step`, so the history, the scores and a record of
    the game are as if a caller had played them one by one; after a round that ends the
    match, ``game.awaiting`` is ``"game_over"``.
    """
    bits = bound_getrandbits(rng)  # looked up once for the whole round
    if policy == "uniform":
        return _uniform(game, rng, bits)
    if policy == "playable-first":
        return _playable_first(game, rng, bits)
    raise ValueError(f"unknown playout policy {policy!r} (policies: {', '.join(POLICIES)})")


def _uniform(game: Game, rng: random.Random, bits: Callable[[int], int] | None) -> int:
    steps = 0
    while game.phase < ROUND_OVER:
        seat = game.turn
        legal = game._legal_list(seat)  # the engine's own list: no tuple made for it
        game.step(seat, legal[randbelow_with(rng, bits, len(legal))])
        steps += 1
    return steps


def _playable_first(game: Game, rng: random.Random, bits: Callable[[int], int] | None) -> int:
    kind = ACTION_KIND
    steps = 0
    while game.phase < ROUND_OVER:
        seat = game.turn
        legal = game._legal_list(seat)  # the engine's own list: no tuple made for it
        phase = game.phase
        if phase == PLAY:  # the plays come first, then draw (always legal, T2)
            k = 0
            while legal[k] != DRAW:  # legal.index(DRAW), scanned natively when compiled
                k += 1
            a = legal[randbelow_with(rng, bits, k)] if k else DRAW
        elif phase == DRAWN:  # the drawn card's plays come first, then pass
            k = 0
            while k < len(legal) and kind[legal[k]] == K_PLAY:
                k += 1
            a = legal[randbelow_with(rng, bits, k)] if k else legal[0]
        else:
            a = legal[randbelow_with(rng, bits, len(legal))]
        game.step(seat, a)
        steps += 1
    return steps
