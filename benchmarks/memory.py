"""Does memory grow with the number of games played? The 100,000-games RSS check.

Plays games one after another in this process and samples the resident set size (RSS) as
it goes: rounds of random legal play with one of ``bench.py``'s loops (``--loop``), or, with
``--loop arena``, whole matches between bots as ``unokit arena`` plays them (``--bots``). A
finished game must leave nothing behind, so after a warm-up the RSS must stay flat: the check
passes when it grows by at most ``--limit-mb`` (50 MB) over the run.

    python benchmarks/memory.py                 # 100,000 games (several minutes)
    python benchmarks/memory.py --quick         # 500 games: checks that it works (CI)
    python benchmarks/memory.py --loop arena --games 10000    # bots' matches (heuristic)

Exit status 1 if the growth is over the limit. Linux (reads /proc/self/statm).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Callable

from unokit.arena import ArenaConfig, play_game
from unokit.bench import LOOPS
from unokit.bots import split_bot_names
from unokit.core.actions import MAX_SEATS
from unokit.core.errors import OptionError

Loop = Callable[[int, int, int], tuple[int, int]]


def arena_loop(bots: tuple[str, ...]) -> Loop:
    """Whole matches between ``bots`` (``unokit arena``'s games), kept nowhere once played."""

    def play(games: int, seed: int, players: int) -> tuple[int, int]:
        config = ArenaConfig(bots=bots, games=games, players=players, seed=seed)
        steps = 0
        for i in range(games):
            result, _game = play_game(config, i)
            steps += result.actions
        return games, steps

    return play


def rss_mb() -> float:
    """This process's resident set size in MB."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:  # not Linux: peak RSS is the best we have
        import resource

        scale = 1 if sys.platform == "darwin" else 1024
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="RSS growth over many games in one process")
    parser.add_argument("--games", type=int, default=100_000, help="games to play (default 100,000)")
    parser.add_argument("--players", type=int, default=2, help=f"2 to {MAX_SEATS} (default 2)")
    parser.add_argument("--loop", choices=(*LOOPS, "arena"), default="engine",
                        help="a bench.py loop (rounds of random play), or arena: bots' matches")
    parser.add_argument("--bots", default="heuristic,heuristic",
                        help="with --loop arena: the lineup, as for unokit arena")
    parser.add_argument("--samples", type=int, default=10, help="RSS samples over the run")
    parser.add_argument("--limit-mb", type=float, default=50.0,
                        help="the growth that fails the run (default 50, the memory target)")
    parser.add_argument("--quick", action="store_true", help="500 games")
    args = parser.parse_args(argv)
    games = 500 if args.quick else args.games
    if games < 1:
        parser.error("--games must be at least 1")
    if not 2 <= args.players <= MAX_SEATS:
        parser.error(f"--players must be 2 to {MAX_SEATS}, not {args.players}")
    if args.samples < 1:
        parser.error("--samples must be at least 1")
    loop: Loop
    if args.loop == "arena":
        bots = tuple(split_bot_names(args.bots))
        try:
            ArenaConfig(bots=bots, games=1, players=args.players).lineup()
        except OptionError as exc:
            parser.error(f"--bots: {exc}")
        loop = arena_loop(bots)
    else:
        loop = LOOPS[args.loop]
    warmup = min(1_000, max(1, games // 20))
    loop(warmup, 999_999, args.players)  # imports, tables, allocator pools
    gc.collect()
    start_rss = rss_mb()
    print(f"# python benchmarks/memory.py {' '.join(sys.argv[1:] if argv is None else argv)}".rstrip())
    what = f"arena loop: {args.bots} matches" if args.loop == "arena" else f"{args.loop} loop"
    print(f"# {games:,} games ({what}, {args.players} players) after {warmup:,} warm-up games")
    print(f"{'games':>10} {'RSS MB':>8} {'growth MB':>10} {'steps':>13} {'s':>7}")
    print(f"{0:>10,} {start_rss:>8.1f} {0.0:>10.1f} {0:>13,} {0.0:>7.1f}")
    chunk = max(1, games // args.samples)
    done = steps = 0
    began = time.perf_counter()
    peak = start_rss
    while done < games:
        n = min(chunk, games - done)
        _, s = loop(n, done, args.players)  # a fresh seed per chunk: all games differ
        done += n
        steps += s
        now = rss_mb()
        peak = max(peak, now)
        print(f"{done:>10,} {now:>8.1f} {now - start_rss:>10.1f} {steps:>13,} "
              f"{time.perf_counter() - began:>7.1f}", flush=True)
    gc.collect()
    growth = rss_mb() - start_rss
    ok = growth <= args.limit_mb
    print(f"RSS growth over {games:,} games: {growth:+.1f} MB (peak {peak - start_rss:+.1f} MB); "
          f"limit {args.limit_mb:g} MB: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
