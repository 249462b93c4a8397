"""``unokit demo``: a full seeded bot-vs-bot match, printed move by move."""

from __future__ import annotations

import argparse
import sys

from ..bots import make_bot, play_match, split_bot_names
from ..bots.base import Bot
from ..cards import EDITIONS
from ..game import Game
from ..i18n import LANGUAGES, translator
from ..narrate import narrate_record
from ..options import Options
from ..record import record_of, write_record
from . import check_writable

NAME = "demo"
HELP = "play a full seeded bot-vs-bot match and print it move by move"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    parser.add_argument("--edition", choices=EDITIONS, default="classic")
    parser.add_argument("--players", type=int, default=4, help="2 to 10 (default 4)")
    parser.add_argument("--bots", default="",
                        help="comma-separated bot names (random, heuristic, strong), "
                             "cycled over the seats; default heuristic")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option, e.g. target=200 (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", metavar="FILE", help="also save the game record here")
    parser.add_argument("--lang", default=None,
                        help=f"language, as unokit play takes it: {', '.join(LANGUAGES)} (the "
                             "narration itself is in English)")


def make_bots(names: str, players: int, seed: int) -> list[Bot]:
    """One bot per seat from a comma-separated list of names, cycled (default: heuristic)."""
    wanted = split_bot_names(names) or ["heuristic"]
    return [make_bot(wanted[seat % len(wanted)], seed=seed * 100 + seat) for seat in range(players)]


def run(args: argparse.Namespace) -> int:
    """Play and narrate the match."""
    if args.lang is not None:
        translator(args.lang)  # an unknown language is an error, as in unokit play
    if args.save:
        check_writable("--save", args.save)
    options = Options.from_strings(args.option)
    game = Game.new(args.edition, args.players, options, seed=args.seed)
    play_match(game, make_bots(args.bots, args.players, args.seed))
    record = record_of(game)
    if args.save:
        write_record(game, args.save)
    if args.lang not in (None, "en"):
        print(f"(the narration is in English only; --lang {args.lang} applies to unokit play)",
              file=sys.stderr)
    narrate_record(record, print)
    return 0
