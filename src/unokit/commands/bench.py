"""``unokit bench``: how many games per second this machine simulates, to size a simulation."""

from __future__ import annotations

import argparse
import json
import platform
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ..bench import (
    DEALS,
    ENGINE_LOOPS,
    LOOPS,
    RL_LOOPS,
    BenchResult,
    engine_build,
    measure,
    measure_parallel,
    native_core,
)
from ..core.editions import EDITIONS
from ..core.errors import OptionError
from ..core.game import Game
from ..core.options import Options
from . import add_options_argument, check_count, check_seconds

if TYPE_CHECKING:
    from rich.console import Console

NAME = "bench"
HELP = "measure this machine's games per second (random play) for an edition, players and options"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    parser.add_argument("--edition", choices=EDITIONS, default="classic")
    parser.add_argument("--players", type=int, default=2, help="2 to 10 (default 2)")
    add_options_argument(parser, "a rule option, e.g. stacking=progressive (repeatable)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--games", type=int, help="play this many games per loop")
    budget.add_argument("--seconds", type=float, help="run each loop for about this long (default 3)")
    parser.add_argument("--loop", choices=(*LOOPS, "all"), default="all",
                        help="engine: legal actions + apply from a Python loop; observe: also "
                             "the acting seat's observation at every step; playout: the engine "
                             "plays each round out itself (unokit.core.playout, the fastest way to "
                             "simulate). Each plays uniformly at random, so a round is long (a "
                             "player may always draw); the -rlpolicy loops play a playable card "
                             "when there is one, as players and bots do; gym and pettingzoo: "
                             "uniformly random masked play through the RL environments' APIs, "
                             "encoding and mask included (the rl extra: pip install "
                             "'.[rl]' from a clone). all: the engine loops (default)")
    parser.add_argument("--deals", choices=DEALS, default="stream",
                        help="stream: deal every game from the run's one generator, as a "
                             "simulation of many games does (and as RLCard deals); seeded: deal "
                             "each game from its own seed, as a recorded match or a tournament "
                             "does, which costs two generator seedings a game (default stream)")
    parser.add_argument("--match", action="store_true",
                        help="count whole matches (to the target) instead of rounds")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes at once (default 1): with --jobs N the rates are the "
                             "machine's total over N processes, e.g. one per core")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true",
                        help="print the results as JSON (for scripts), without the progress bar")


def _stderr_console(enabled: bool) -> Console | None:
    """A rich console on stderr for progress, if it is wanted, rich is installed, and stderr
    is a terminal; otherwise None."""
    if not (enabled and sys.stderr.isatty()):
        return None
    try:
        from rich.console import Console
    except ImportError:
        return None
    return Console(stderr=True)


@contextmanager
def _progress_bar(label: str, total: int | None, enabled: bool) -> Iterator[Callable[[int], None]]:
    """A rich progress bar (see :func:`_stderr_console`) fed with the games done."""
    console = _stderr_console(enabled)
    if console is None:
        yield lambda done: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn() if total else
               TextColumn("{task.completed} games"), TimeElapsedColumn()]
    with Progress(*columns, transient=True, console=console) as bar:
        task = bar.add_task(label, total=total)
        last = [0]

        def update(done: int) -> None:
            # Refreshing costs time: update every 1 % (or every game for short runs).
            if total is None or done - last[0] >= max(1, total // 100) or done == total:
                bar.update(task, completed=done)
                last[0] = done

        yield update


@contextmanager
def _status(label: str, enabled: bool) -> Iterator[None]:
    """A spinner while processes measure (they report no progress; see :func:`_stderr_console`)."""
    console = _stderr_console(enabled)
    if console is None:
        yield
        return
    with console.status(label):
        yield


def run(args: argparse.Namespace) -> int:
    """Run the chosen loops and print games/s and steps/s."""
    options = Options.from_strings(args.option)
    if args.games is not None:
        check_count("--games", args.games)
    if args.seconds is not None:
        check_seconds("--seconds", args.seconds)
    check_count("--jobs", args.jobs)
    # The players, the options and the deck checked together, before anything is printed
    # (one clear error, not a header followed by it).
    Game.new(args.edition, args.players, options, args.seed)
    seconds = args.seconds if args.games is None and args.seconds is not None else None
    if args.games is None and seconds is None:
        seconds = 3.0
    loops = list(ENGINE_LOOPS) if args.loop == "all" else [args.loop]
    if args.loop in RL_LOOPS:
        _check_rl_extra(args.loop)
    unit = "matches" if args.match else "rounds"
    changed = options.changed()
    if not args.json:
        shown = ", ".join(f"{k}={v}" for k, v in changed.items()) or "defaults"
        print(f"unokit bench: {args.edition}, {args.players} players, options: {shown}; "
              f"one game = one {'match' if args.match else 'round'}, {args.deals} deals; random "
              "legal play (-rlpolicy: a random playable card first)")
    results: list[BenchResult] = []
    show = not (args.no_progress or args.json)
    for loop in loops:
        if args.jobs > 1:
            with _status(f"{loop}: {args.jobs} processes", show):
                result = measure_parallel(loop, args.jobs, games=args.games, seconds=seconds,
                                          seed=args.seed, players=args.players,
                                          edition=args.edition, options=options, match=args.match,
                                          deals=args.deals)
        else:
            with _progress_bar(loop, args.games, show) as progress:
                result = measure(loop, games=args.games, seconds=seconds, seed=args.seed,
                                 players=args.players, edition=args.edition, options=options,
                                 match=args.match, progress=progress, deals=args.deals)
        results.append(result)
    build = engine_build()
    if args.json:
        json.dump(_as_json(args, changed, build, results), sys.stdout, indent=2)
        print()
        return 0
    width = max(len(r.loop) for r in results)
    for r in results:
        print(f"  {r.loop:<{width}}  {r.games_per_s:>10,.1f} {unit}/s  {r.steps_per_s:>12,.0f} steps/s  "
              f"({r.games:,} {unit}, {r.steps_per_game:,.0f} steps each, {r.seconds:.2f} s)")
    where = (f"{args.jobs} processes at once (the rates are their total)" if args.jobs > 1 else
             "one process; --jobs N measures N processes at once, to use more cores")
    print(f"  Python {platform.python_version()} ({platform.python_implementation()}), engine: "
          f"{build}, {native_core()}, {where}")
    if build == "pure Python":
        print("  A regular install (pip install .) compiles the engine with mypyc where a C "
              "compiler works, for about 1.5-3x these rates (docs/performance.md)")
    return 0


def _check_rl_extra(loop: str) -> None:
    """Raise :class:`~unokit.core.errors.OptionError` if the RL loop ``loop`` cannot run here."""
    import importlib

    try:
        importlib.import_module("unokit.envs.pettingzoo" if loop == "pettingzoo" else "unokit.envs.loops")
    except ImportError as exc:
        raise OptionError(f"--loop {loop} needs the rl extra: pip install '.[rl]' in a clone of unokit "
                          f"({exc})") from None


def _as_json(args: argparse.Namespace, changed: dict[str, object], build: str,
             results: list[BenchResult]) -> dict[str, object]:
    """The ``--json`` document: what was measured, on what, and each loop's counts and rates."""
    return {
        "edition": args.edition,
        "players": args.players,
        "options": changed,
        "game": "match" if args.match else "round",
        "seed": args.seed,
        "deals": args.deals,
        "jobs": args.jobs,
        "engine_build": build,
        "native_core": native_core(),
        "python": f"{platform.python_version()} ({platform.python_implementation()})",
        "loops": [
            {"loop": r.loop, "games": r.games, "steps": r.steps, "seconds": r.seconds,
             "games_per_s": r.games_per_s, "steps_per_s": r.steps_per_s,
             "steps_per_game": r.steps_per_game}
            for r in results
        ],
    }
