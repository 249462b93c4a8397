"""``unokit play``: play a full match in the terminal against bots (Textual app).

Bad input (an unknown option, bot or language, an invalid number of players, a corrupt
save file, a ``--save`` file that cannot be written) raises :class:`~unokit.core.errors.UnoError`
here, before the app starts, so the command line prints one ``unokit: error: ...`` line and
exits 2. So does a missing terminal: the game draws on the terminal and reads its keys, so
``play`` refuses to start when stdin or stdout is not one (``unokit demo`` plays without).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path
from typing import Any, TextIO

from ..bots import split_bot_names
from ..core.actions import MAX_SEATS
from ..core.editions import EDITIONS
from ..core.errors import OptionError, RecordError, UnoError
from ..core.game import Game
from ..core.options import Options
from ..text.i18n import LANGUAGES, Translator, default_language, translator
from . import add_options_argument, check_writable

NAME = "play"
HELP = "play a full match against bots in the terminal"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    parser.add_argument("--edition", choices=EDITIONS, default="classic", help="the deck (default classic)")
    parser.add_argument("--players", type=int, default=None, metavar="N",
                        help=f"number of players, you included: 2 to {MAX_SEATS} (default 4)")
    parser.add_argument("--bots", default=None, metavar="NAME,...",
                        help="the opponents, one name per seat or one for all: easy, normal, hard, "
                             "random, heuristic, strong (default heuristic)")
    add_options_argument(parser, "a rule option, as in docs/rules.md (repeatable), e.g. target=200")
    parser.add_argument("--lang", default=None,
                        help=f"language: {', '.join(LANGUAGES)} (default: from the locale)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deal and the bots")
    parser.add_argument("--resume", metavar="FILE", default=None, help="resume a saved game")
    parser.add_argument("--save", metavar="FILE", default=None,
                        help="where s saves the game (default: the --resume file, else unokit-game.json; "
                             "a file that holds another game is overwritten only if you say so)")
    parser.add_argument("--delay", type=float, default=0.8, help="seconds between bot moves (default 0.8)")
    parser.add_argument("--forget-uno", type=float, default=0.3, metavar="P",
                        help="the chance that a bot forgets to call UNO (default 0.3; the levels "
                             "easy, normal and hard keep their own)")


def bot_list(spec: str | None, opponents: int, tr: Translator) -> list[str]:
    """The bot of each opponent seat from ``--bots`` (one name for all, or one per seat)."""
    names = split_bot_names(spec or "heuristic")
    if not names:
        raise OptionError(tr._("--bots needs at least one bot name"))
    if len(names) == 1:
        return names * opponents
    if len(names) != opponents:
        raise OptionError(tr.ngettext("--bots names {k} bots, but there is {n} opponent",
                                      "--bots names {k} bots, but there are {n} opponents",
                                      opponents).format(k=len(names), n=opponents))
    return names


def is_terminal(stream: TextIO | None) -> bool:
    """Whether ``stream`` is an interactive terminal (False for a pipe, a file, or no stream)."""
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, OSError, ValueError):
        return False


def build(args: argparse.Namespace) -> tuple[Any, Translator]:
    """Check the arguments and build the session; raises UnoError on bad input."""
    lang = args.lang or default_language()
    tr = translator(lang)
    if not 0 <= args.forget_uno <= 1:
        raise OptionError(tr._("--forget-uno must be between 0 and 1"))
    if args.delay < 0:
        raise OptionError(tr._("--delay cannot be negative"))
    if not math.isfinite(args.delay):
        raise OptionError(tr._("--delay must be a finite number of seconds"))
    if args.save:
        check_writable("--save", args.save, tr._)
    from ..tui.session import Session, make_bots

    saved: dict[str, Any] = {}
    if args.resume:
        from ..core.record import load_game

        game = load_game(args.resume)
        try:
            meta = json.loads(Path(args.resume).read_text(encoding="utf-8")).get("play", {})
        except (OSError, ValueError):
            meta = {}
        saved = meta if isinstance(meta, dict) else {}
        if saved.get("human", 0) != 0:
            raise RecordError(tr._("{path}: this save is not from unokit play").format(path=args.resume))
        names = saved.get("bots")
        if args.bots or not isinstance(names, list) or len(names) != game.n - 1:
            names = bot_list(args.bots, game.n - 1, tr)
        seed = game.seed
    else:
        players = args.players
        if players is None:
            given = [n for n in (args.bots or "").split(",") if n.strip()]
            players = len(given) + 1 if len(given) > 1 else 4
        if not 2 <= players <= MAX_SEATS:
            raise OptionError(tr._("--players must be 2 to {max}, not {n}").format(max=MAX_SEATS, n=players))
        names = bot_list(args.bots, players - 1, tr)
        try:
            options = Options.from_strings(list(args.option))
        except OptionError as exc:
            raise OptionError(tr._("bad --option: {error}").format(error=exc)) from None
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        game = Game.new(args.edition, players, options, seed)
    bots = make_bots([str(n) for n in names], seed, forget_uno=args.forget_uno)
    session = Session(game, [None, *bots], tr, bot_kinds=["", *[str(n) for n in names]])
    return (session, [str(n) for n in names]), tr


def run(args: argparse.Namespace) -> int:
    """Start the match; returns 0 when the player quits."""
    try:
        from ..tui.app import UnoApp
    except ImportError as exc:  # Textual is the optional 'play' extra
        raise UnoError(f"unokit play needs Textual ({exc}); install it with: pip install '.[play]' "
                       "in a clone of unokit") from None
    (session, names), tr = build(args)
    if not (is_terminal(sys.stdin) and is_terminal(sys.stdout)):
        raise UnoError(tr._("unokit play needs a terminal to draw on and read keys from; "
                            "to watch bots play without one, run: unokit demo"))
    save = args.save or args.resume or "unokit-game.json"
    app = UnoApp(session, delay=args.delay, save_path=save, bot_names=names, resumed=args.resume)
    app.run()
    if app.return_code is None or app.return_code == 0:
        print(app.farewell())  # where the game is saved and how to go on, or that it is not
    return 0
