"""``unokit demo``: a full seeded bot-vs-bot match, printed move by move (players numbered from
1, as everywhere people read them)."""

from __future__ import annotations

import argparse

from ..bots import make_bot, play_round, split_bot_names
from ..bots.base import Bot
from ..core.actions import Action
from ..core.editions import EDITIONS
from ..core.events import Event
from ..core.game import Game
from ..core.options import Options
from ..core.record import write_record
from ..narrate import Narrator
from ..text.i18n import LANGUAGES, translator
from . import add_options_argument, check_writable

NAME = "demo"
HELP = "play a full seeded bot-vs-bot match and print it move by move"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    parser.add_argument("--edition", choices=EDITIONS, default="classic")
    parser.add_argument("--players", type=int, default=4, help="2 to 10 (default 4)")
    parser.add_argument("--bots", default="",
                        help="comma-separated bot names (random, heuristic, strong), "
                             "cycled over the seats; default heuristic")
    add_options_argument(parser, "a rule option, e.g. target=200 (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", metavar="FILE", help="also save the game record here")
    parser.add_argument("--lang", default=None,
                        help=f"tell the match in this language, in the words of unokit play: "
                             f"{', '.join(LANGUAGES)} (default: the record's words, in English, as "
                             "unokit replay prints them)")


def make_bots(names: str, players: int, seed: int) -> list[Bot]:
    """One bot per seat from a comma-separated list of names, cycled (default: heuristic)."""
    wanted = split_bot_names(names) or ["heuristic"]
    return [make_bot(wanted[seat % len(wanted)], seed=seed * 100 + seat) for seat in range(players)]


MAX_ROUNDS = 10_000


def run(args: argparse.Namespace) -> int:
    """Play the match and narrate it as it goes, from its events: as ``unokit replay`` tells its
    record (the same lines), or with ``--lang`` in the words of ``unokit play`` in that language."""
    tr = translator(args.lang) if args.lang is not None else None  # an unknown one is an error
    if args.save:
        check_writable("--save", args.save)
    options = Options.from_strings(args.option)
    game = Game.new(args.edition, args.players, options, seed=args.seed)
    bots = make_bots(args.bots, args.players, args.seed)
    narrator = Narrator(print, tr)

    def told(_game: Game, _seat: int, _action: Action, events: tuple[Event, ...]) -> None:
        narrator.action(events)

    narrator.begin(game)
    narrator.round_started(game.opening_events(), game.turn, game.awaiting)
    for _ in range(MAX_ROUNDS):
        play_round(game, bots, on_events=told)
        if game.is_over:
            break
        narrator.round_started(game.start_round(), game.turn, game.awaiting)
    else:
        raise RuntimeError(f"match did not end within {MAX_ROUNDS} rounds")
    if args.save:
        write_record(game, args.save)
    return 0
