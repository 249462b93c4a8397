"""The environments' benchmark loops (``unokit bench --loop gym``, ``--loop pettingzoo``,
``benchmarks/bench.py``): rounds played through the Gymnasium and PettingZoo APIs by a
uniformly random masked policy at every seat, the encoding and the mask built at every
decision.

A *step* is one action applied to the engine (as in :mod:`unokit.bench`): an out-of-turn
seat's "nothing now" is a decision but not a step. A *game* is one round (a match with
``match=True``).

>>> gym_loop(2, seed=1)[0], pettingzoo_loop(2, seed=1)[0]
(2, 2)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy.typing as npt

from ..core.options import Options
from . import ENV_ID
from .encoding import NOTHING

__all__ = ["gym_loop", "pettingzoo_loop", "uniform_policy"]

Progress = Callable[[int], None]


def _check_deals(deals: str) -> None:
    if deals not in ("stream", "seeded"):
        raise ValueError(f"unknown deals {deals!r} (deals: stream, seeded)")


def uniform_policy(rng: random.Random) -> Callable[[dict[str, npt.NDArray[Any]]], int]:
    """A policy choosing uniformly among the legal actions of an observation's mask."""
    rand = rng.random

    def policy(obs: dict[str, npt.NDArray[Any]]) -> int:
        legal = obs["action_mask"].nonzero()[0]
        return int(legal[int(rand() * len(legal))])

    return policy


def gym_loop(games: int, seed: int = 0, players: int = 2, edition: str = "classic",
             options: Options | None = None, match: bool = False,
             progress: Progress | None = None, deals: str = "stream") -> tuple[int, int]:
    """``games`` episodes of ``gymnasium.make("unokit/Uno-v0")``: the learning seat and
    every other seat (a callable policy of the environment) play uniformly at random over
    their masks. ``deals="stream"`` resets with ``seed`` once and then without a seed (every
    game from the environment's stream); ``"seeded"`` resets each game with its own seed.
    Returns ``(games, steps)``."""
    _check_deals(deals)
    rng = random.Random(seed)
    counted = [0]
    inner = uniform_policy(rng)

    def opponent(obs: dict[str, npt.NDArray[Any]]) -> int:
        a = inner(obs)
        if a != NOTHING:
            counted[0] += 1
        return a

    env = gymnasium.make(ENV_ID, edition=edition, players=players, options=options,
                         opponents=[opponent], episode="match" if match else "round")
    act = uniform_policy(rng)
    steps = 0
    step = env.step
    for i in range(games):
        game_seed = seed * 1_000_003 + i if deals == "seeded" else (seed if i == 0 else None)
        obs, _ = env.reset(seed=game_seed)
        done = False
        while not done:
            a = act(obs)
            if a != NOTHING:
                steps += 1
            obs, _, terminated, truncated, _ = step(a)
            done = terminated or truncated
        if progress is not None:
            progress(i + 1)
    env.close()
    return games, steps + counted[0]


def pettingzoo_loop(games: int, seed: int = 0, players: int = 2, edition: str = "classic",
                    options: Options | None = None, match: bool = False,
                    progress: Progress | None = None, deals: str = "stream") -> tuple[int, int]:
    """``games`` episodes of the PettingZoo environment (``unokit.envs.pettingzoo.env``),
    every agent uniformly random over its mask, in PettingZoo's ``agent_iter`` / ``last`` /
    ``step`` loop. Deals as :func:`gym_loop`. Returns ``(games, steps)``."""
    from .pettingzoo import env as make_env

    _check_deals(deals)
    rng = random.Random(seed)
    act = uniform_policy(rng)
    env = make_env(edition=edition, players=players, options=options,
                   episode="match" if match else "round")
    steps = 0
    for i in range(games):
        game_seed = seed * 1_000_003 + i if deals == "seeded" else (seed if i == 0 else None)
        env.reset(seed=game_seed)
        last = env.last
        step = env.step
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = last()
            if terminated or truncated:
                step(None)
                continue
            a = act(obs)
            if a != NOTHING:
                steps += 1
            step(a)
        if progress is not None:
            progress(i + 1)
    env.close()
    return games, steps
