"""``unokit replay FILE``: print a recorded game move by move, with hands and scores."""

from __future__ import annotations

import argparse

from ..narrate import narrate_record
from ..record import read_record

_NEXT = {"play": "play", "drawn": "play the card drawn or pass", "respond": "answer a draw card",
         "color": "name the colour", "swap": "choose whom to swap hands with"}
"""What the seat on turn must do, by ``Game.awaiting``."""

NAME = "replay"
HELP = "print a recorded game move by move, with hands and scores"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    parser.add_argument("file", help="a game record (JSON), as saved by unokit play or unokit demo")


def run(args: argparse.Namespace) -> int:
    """Replay the record; a malformed record is one clear error."""
    final = narrate_record(read_record(args.file), print)
    if not final.is_over:  # a saved game, or a record cut short: say so, so none is mistaken
        print()
        if final.awaiting == "round_over":
            print(f"The record ends after round {final.round_no + 1}; the match is not over "
                  f"(resume it with: unokit play --resume {args.file}).")
        else:
            print(f"The record ends before the match is over: seat {final.turn} is to "
                  f"{_NEXT[final.awaiting]} (resume it with: unokit play --resume {args.file}).")
    return 0
