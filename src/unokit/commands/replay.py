"""``unokit replay FILE``: print a recorded game move by move, with hands and scores."""

from __future__ import annotations

import argparse

from ..narrate import narrate_record
from ..record import read_record

NAME = "replay"
HELP = "print a recorded game move by move, with hands and scores"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    parser.add_argument("file", help="a game record (JSON), as saved by unokit play or unokit demo")


def run(args: argparse.Namespace) -> int:
    """Replay the record; a malformed record is one clear error."""
    narrate_record(read_record(args.file), print)
    return 0
