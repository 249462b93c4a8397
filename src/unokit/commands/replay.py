"""``unokit replay FILE``: print a recorded game move by move, with hands and scores (players
numbered from 1, as everywhere people read them)."""

from __future__ import annotations

import argparse

from ..core.errors import RecordError, UnoError
from ..core.record import read_record
from ..narrate import narrate_record, to_do

NAME = "replay"
HELP = "print a recorded game move by move, with hands and scores"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    parser.add_argument("file", help="a game record (JSON), as saved by unokit play or unokit demo")


def run(args: argparse.Namespace) -> int:
    """Replay the record; a malformed record is one clear error, which names the file."""
    try:
        final = narrate_record(read_record(args.file), print)
    except UnoError as exc:
        if args.file in str(exc):
            raise
        raise RecordError(f"{args.file}: {exc}") from None
    if not final.is_over:  # a saved game, or a record cut short: say so, so none is mistaken
        print()
        if final.awaiting == "round_over":
            print(f"The record ends after round {final.round_no + 1}; the match is not over "
                  f"(resume it with: unokit play --resume {args.file}).")
        else:
            print(f"The record ends before the match is over: Player {final.turn + 1} is to "
                  f"{to_do(final.awaiting)} (resume it with: unokit play --resume {args.file}).")
    return 0
