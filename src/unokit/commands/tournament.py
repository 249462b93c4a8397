"""``unokit tournament --players 8 --bots strong,heuristic``: a partner-rotation tournament (M3)."""

from __future__ import annotations

import argparse

from ..bots.registry import check_bot_names, split_bot_names
from ..core.editions import EDITIONS
from ..core.errors import OptionError
from ..core.game import Game
from ..core.options import Options
from ..tournament import format_schedule, play_tournament, schedule
from . import add_options_argument

NAME = "tournament"
HELP = "play a partner-rotation tournament (every player partners every other for 4 hands)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    parser.add_argument("--players", type=int, default=8, help="4, 8, 12 … players")
    parser.add_argument("--bots", default="heuristic",
                        help="comma-separated bot names given to the players in turn (cycled)")
    parser.add_argument("--edition", default="classic",
                        help=f"the deck: {', '.join(EDITIONS)} (default classic)")
    add_options_argument(parser, "match options (repeatable; mode is always partners)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole tournament")
    parser.add_argument("--schedule-only", action="store_true", help="show the schedule and stop")
    parser.add_argument("--quiet", action="store_true", help="do not print each hand's result")


def run(args: argparse.Namespace) -> int:
    """Show the schedule, play it, print the standings."""
    # Everything is checked before anything is printed: one clear error, not a schedule then it.
    names = split_bot_names(args.bots)
    if not names:
        raise OptionError("--bots needs at least one bot name")
    check_bot_names(names)
    sched = schedule(args.players)
    options = Options.from_strings(args.option)
    # As play_tournament plays each hand: 4 seats in partners mode.
    Game.new(args.edition, 4, Options.from_mapping({**options.as_dict(), "mode": "partners"}),
             seed=args.seed)
    bots = [names[p % len(names)] for p in range(args.players)]
    labels = [f"P{p + 1} ({b})" for p, b in enumerate(bots)]
    tables = len(sched[0])
    print(f"{args.players} players, {len(sched)} hands at {tables} table{'s' if tables > 1 else ''} at once")
    print(format_schedule(sched, [f"P{p + 1}" for p in range(args.players)]))
    if args.schedule_only:
        return 0

    def show(hand: int, table: tuple[tuple[int, int], tuple[int, int]], points: list[float]) -> None:
        if args.quiet:
            return
        (a, b), (c, d) = table
        print(f"hand {hand + 1:>2}: P{a + 1}+P{b + 1} {points[0]:>4.0f}  -  "
              f"{points[1]:<4.0f} P{c + 1}+P{d + 1}")

    print()
    standings = play_tournament(bots, edition=args.edition, options=options,
                                seed=args.seed, names=labels, on_hand=show)
    print()
    print(standings.format())
    return 0
