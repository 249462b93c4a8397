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

from . import __version__
from .commands import COMMANDS
from .errors import UnoError


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="unokit",
        description="UNO as the printed Mattel rule sheets describe it: play, simulate, check.",
    )
    parser.add_argument("--version", action="version", version=f"unokit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f".commands.{name}", __package__)
        cmd = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(cmd)
        cmd.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
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
