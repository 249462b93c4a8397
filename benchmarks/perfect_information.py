"""What the strong bot's search would win if it knew the other hands (docs/strength.md).

An *oracle* copy of :class:`~unokit.bots.StrongBot` searches determinizations that are the
real game with only the draw pile shuffled: the other seats' hands are the real ones. It is
not a bot a player could meet (it reads the game behind its view); it measures how much of the
strong bot's limit is what it knows about the hidden cards rather than how it searches. The
games are the arena's (same seeds, same seat rotation), so ``--baseline`` plays the released
strong bot on exactly the same deals.

    .venv/bin/python benchmarks/perfect_information.py --players 2 --games 400 --seed 101 --jobs 2
    .venv/bin/python benchmarks/perfect_information.py --players 2 --games 400 --seed 101 --jobs 2 --baseline
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from unokit import Game
from unokit.arena import game_seed, seating
from unokit.bots import HeuristicBot, StrongBot, play_match
from unokit.bots.strong import search as strong_search
from unokit.core.actions import Action
from unokit.core.observation import Observation
from unokit.core.options import Options
from unokit.stats import wilson_interval

if not (strong_search.__file__ or "").endswith(".py"):
    # The oracle subclasses StrongBot and swaps its determinize; the mypyc build compiles
    # both, and a compiled class can be neither subclassed by Python code nor patched.
    sys.exit("perfect_information.py needs the pure-Python bots, and this unokit is the "
             "compiled build: run it with .venv/bin/python (the editable install)")


class OracleBot(StrongBot):
    """The strong bot, searching the real hands (``game`` must be set before it plays)."""

    name = "oracle"
    game: Game

    def search(self, obs: Observation, candidates: Any) -> Action:
        real = self.game

        def deal(obs: Observation, rng: random.Random, *args: Any, **kwargs: Any) -> Game:
            world = real.copy()
            rng.shuffle(world.draw_pile)
            world.rng = random.Random(rng.randrange(2**62))
            return world

        saved = strong_search.determinize
        strong_search.determinize = deal  # type: ignore[assignment]
        try:
            return super().search(obs, candidates)
        finally:
            strong_search.determinize = saved


def play(args: tuple[int, int, int, bool]) -> float:
    """The searching bot's share of the win in arena game ``index``."""
    index, players, seed, baseline = args
    options = Options(target=1)
    seats = seating(["strong"] + ["heuristic"] * (players - 1), index)
    match_seed = game_seed(seed, index, players)
    game = Game.new("classic", players, options, seed=match_seed)
    bots: list[Any] = []
    for s, name in enumerate(seats):
        if name == "strong":
            bot = (StrongBot if baseline else OracleBot)(seed=match_seed * 16 + s, max_ms=0)
            bot.game = game
            bots.append(bot)
        else:
            bots.append(HeuristicBot(seed=match_seed * 16 + s))
    play_match(game, bots)
    me = seats.index("strong")
    return 1.0 / len(game.winners) if game.team_of(me) in game.winners else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--baseline", action="store_true",
                        help="the released strong bot instead of the oracle")
    a = parser.parse_args(argv)
    start = time.perf_counter()
    work = [(i, a.players, a.seed, a.baseline) for i in range(a.games)]
    with ProcessPoolExecutor(max_workers=a.jobs) as pool:
        credit = list(pool.map(play, work, chunksize=8))
    wins = sum(credit)
    lo, hi = wilson_interval(wins, len(credit))
    who = "strong (released)" if a.baseline else "oracle (real hands)"
    print(f"{who} vs heuristic, {a.players} players, {a.games} one-round games, seed {a.seed}: "
          f"{wins / len(credit):.1%} [{lo:.1%}, {hi:.1%}] ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
