"""``unokit arena --bots strong,heuristic --games 2000``: bots against each other, with statistics."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from ..arena import ArenaConfig, format_summary, run_arena, summarize, write_report
from ..bench import engine_build
from ..bots.registry import check_bot_names, parse_bot_options, split_bot_names
from ..core.editions import EDITIONS
from ..core.errors import OptionError
from ..core.game import Game
from ..core.options import Options
from . import add_options_argument, check_count

NAME = "arena"
HELP = "play bots against each other (seats rotated) and report win rates, points and Elo"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    parser.add_argument("--bots", required=True,
                        help="comma-separated bot names, one per seat; the last fills the remaining seats")
    parser.add_argument("--games", type=int, default=200, help="number of games (full matches)")
    parser.add_argument("--players", type=int, default=None,
                        help="players per game (default: the number of bots named, at least 2)")
    parser.add_argument("--edition", default="classic",
                        help=f"the deck: {', '.join(EDITIONS)} (default classic)")
    add_options_argument(parser, "match options, e.g. target=100 stacking=progressive (repeatable)")
    parser.add_argument("--bot-option", nargs="*", action="extend", default=[], metavar="BOT.NAME=VALUE",
                        help="bot options, e.g. strong.iterations=20 heuristic.forget_uno=0.1 "
                             "(repeatable; the options of each bot: docs/bots.md)")
    parser.add_argument("--seed", type=int, default=0,
                        help="base seed (every game is reproducible); 1000000 and above are held-out "
                             "seeds, kept for reported figures (docs/strength.md)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: every core)")
    parser.add_argument("--backend", choices=("process", "ray"), default="process",
                        help="run the games in local processes or on a Ray cluster")
    parser.add_argument("--report", metavar="DIR", help="write results.json and PNG plots to DIR")
    parser.add_argument("--record", metavar="DIR", help="save every game's record (JSON) to DIR")
    parser.add_argument("--game", type=int, action="append", metavar="I",
                        help="play only game I of the series (repeatable), e.g. to reproduce it")
    parser.add_argument("--elo-anchor", metavar="BOT=RATING",
                        help="shift the Elo ratings so that BOT has RATING, e.g. random=1000 "
                             "(default: they average 1500)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def played_line(games: int, seconds: float, jobs: int, backend: str) -> str:
    """How long the games took, to size longer series: ``played 50 games in 0.84 s ...``."""
    rate = f"{games / seconds:,.1f} games/s" if seconds > 0 else "too fast to time"
    workers = max(1, min(jobs, games))  # run_arena plays a single game, or jobs <= 1, in-process
    where = "on Ray" if backend == "ray" else f"{workers} process{'es' if workers > 1 else ''}"
    noun = "game" if games == 1 else "games"
    return f"played {games:,} {noun} in {seconds:.2f} s: {rate} ({where}, {engine_build()} engine)"


def parse_elo_anchor(text: str, bots: tuple[str, ...]) -> tuple[str, float]:
    """``--elo-anchor random=1000`` as ``("random", 1000.0)``; the bot must play in the series."""
    name, sep, raw = text.partition("=")
    name = name.strip()
    try:
        rating = float(raw) if sep else float("nan")
    except ValueError:
        rating = float("nan")
    if not name or rating != rating or rating in (float("inf"), float("-inf")):
        raise OptionError(f"--elo-anchor {text!r} must be written as BOT=RATING, e.g. random=1000")
    if name not in bots:
        raise OptionError(f"--elo-anchor: bot {name!r} does not play in this arena (--bots {','.join(bots)})")
    return name, rating


def _make_folder(flag: str, folder: str) -> None:
    """Made before the games are played, so that a folder that cannot be written fails first."""
    if Path(folder).exists() and not Path(folder).is_dir():
        raise OptionError(f"{flag} {folder}: a file, not a folder")
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OptionError(f"{flag} {folder}: {exc.strerror or exc}") from None


def run(args: argparse.Namespace) -> int:
    """Play the series, print the statistics, and write the report if asked."""
    bots = tuple(split_bot_names(args.bots))
    if not bots:
        raise OptionError("--bots needs at least one bot name")
    check_bot_names(bots)
    players = args.players if args.players is not None else max(2, len(bots))
    check_count("--games", args.games)
    check_count("--jobs", args.jobs)
    bot_options = parse_bot_options(args.bot_option)
    for name, _items in bot_options:
        if name not in bots:
            raise OptionError(f"--bot-option: bot {name!r} does not play in this arena "
                              f"(--bots {','.join(bots)})")
    bad = [i for i in args.game or () if not 0 <= i < args.games]
    if bad:
        raise OptionError(f"--game {bad[0]}: a series of {args.games} games has games 0 to "
                          f"{args.games - 1}")
    anchor = parse_elo_anchor(args.elo_anchor, bots) if args.elo_anchor else None
    options = Options.from_strings(args.option)
    config = ArenaConfig(bots=bots, games=args.games, edition=args.edition, players=players,
                         options=options, seed=args.seed, bot_options=bot_options)
    config.lineup()
    # The edition, the players and the options checked together before anything is played.
    Game.new(args.edition, players, options, seed=args.seed)
    for flag, folder in (("--report", args.report), ("--record", args.record)):
        if folder:
            _make_folder(flag, folder)
    indices = sorted(set(args.game)) if args.game else None
    total = len(indices) if indices is not None else config.games
    start = time.perf_counter()
    if args.no_progress or args.json:
        results = run_arena(config, jobs=args.jobs, backend=args.backend, record_dir=args.record,
                            indices=indices)
    else:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), transient=True) as bar:
            task = bar.add_task("games", total=total)
            results = run_arena(config, jobs=args.jobs, backend=args.backend, record_dir=args.record,
                                indices=indices, progress=lambda k: bar.advance(task, k))
    seconds = time.perf_counter() - start
    summary = summarize(config, results, elo_anchor=anchor)
    if args.json:
        json.dump(summary, sys.stdout, indent=2)
        print()
    else:
        print(format_summary(summary))
        print(played_line(total, seconds, args.jobs, args.backend))
    if args.report:
        written = write_report(summary, results, args.report)
        if len(written) == 1:
            print("matplotlib is not installed (pip install '.[arena]' in a clone of unokit): "
                  "wrote only the JSON",
                  file=sys.stderr)
        if not args.json:
            print("report: " + ", ".join(str(p) for p in written))
    return 0
