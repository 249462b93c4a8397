"""The ``unokit`` command line. Each subcommand lives in ``unokit.commands.<name>``.

Bad input (an unknown option, an illegal move, a malformed file) prints one clear
``unokit: error: ...`` line and exits non-zero, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import __version__
from .commands import COMMANDS
from .core.errors import UnoError


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one ``unokit: error: ...`` line (exit status 2), as
    every other bad input is: no usage block before it (``--help`` shows the usage)."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.split()[1:]
        hint = f" (see: unokit {' '.join(command)} --help)" if command else " (see: unokit --help)"
        self.exit(2, f"unokit: error: {message}{hint}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = _Parser(
        prog="unokit",
        description="UNO as the printed Mattel rule sheets describe it: play, simulate, check.",
    )
    parser.add_argument("--version", action="version", version=f"unokit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f".commands.{name}", __package__)
        cmd = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(cmd)
        cmd.set_defaults(_run=module.run, _parser=cmd)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's parser, so that the error points to its --help
        getattr(args, "_parser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    if not hasattr(args, "_run"):
        parser.print_help()
        return 2
    try:
        status: int = args._run(args)
    except UnoError as exc:
        print(f"unokit: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (``unokit replay x | head``): stop quietly.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"unokit: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("unokit: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
