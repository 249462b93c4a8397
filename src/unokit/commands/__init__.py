"""Subcommands of the ``unokit`` command line.

Each module here defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``,
and is listed in :data:`COMMANDS` (in the order ``unokit --help`` shows them).
"""

COMMANDS: tuple[str, ...] = (
    "play",
    "demo",
    "replay",
    "conformance",
    "arena",
    "tournament",
    "bench",
)
