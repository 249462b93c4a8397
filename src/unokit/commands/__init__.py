"""Subcommands of the ``unokit`` command line.

Each module here defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``,
and is listed in :data:`COMMANDS` (in the order ``unokit --help`` shows them).
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable
from pathlib import Path

from ..core.errors import OptionError

COMMANDS: tuple[str, ...] = (
    "play",
    "serve",
    "demo",
    "replay",
    "conformance",
    "arena",
    "tournament",
    "bench",
)


def add_options_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """The match options, ``--option NAME=VALUE`` (repeatable) or ``--options NAME=VALUE ...``:
    one spelling in every command, with the other as its alias (``args.option``)."""
    parser.add_argument("--option", "--options", dest="option", nargs="*", action="extend", default=[],
                        metavar="NAME=VALUE", help=help)


def check_count(flag: str, value: int, least: int = 1) -> None:
    """Raise :class:`~unokit.core.errors.OptionError` unless the whole number ``value`` given for
    ``flag`` is at least ``least`` (``--games must be at least 1, not 0``)."""
    if value < least:
        raise OptionError(f"{flag} must be at least {least}, not {value}")


def check_seconds(flag: str, value: float, zero: bool = False) -> None:
    """Raise :class:`~unokit.core.errors.OptionError` unless ``value`` (seconds given for ``flag``) is a
    finite number above 0 (or 0 itself, with ``zero``); ``inf`` and ``nan`` are refused."""
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
        least = "0 or more" if zero else "above 0"
        raise OptionError(f"{flag} must be a finite number of seconds {least}, not {value}")


def check_writable(flag: str, path: str, _: Callable[[str], str] = str) -> None:
    """Raise :class:`~unokit.core.errors.OptionError` unless a file can be written at ``path`` (given
    for ``flag``): its folder exists and is writable, and ``path`` is not a folder. Checked
    before the work that ends in writing it, so that nothing is played for nothing. ``_``
    translates the messages (``unokit play`` passes its translator's)."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise OptionError(_("{flag} {path}: this is a folder, not a file").format(flag=flag, path=path))
    if not folder.is_dir():
        raise OptionError(_("{flag} {path}: the folder {folder} does not exist").format(
            flag=flag, path=path, folder=folder))
    if not os.access(folder, os.W_OK | os.X_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise OptionError(_("{flag} {path}: cannot write there (permission denied)").format(
            flag=flag, path=path))
