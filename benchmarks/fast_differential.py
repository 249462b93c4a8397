"""The long differential run of the native core: random matches over every edition, 2-10
players and random options, played on ``unokit.fast.FastGame`` and on the engine, every seat's
legal actions compared before each action and the whole state after it
(``tests/fast_diff.py``, what ``tests/test_fast_differential.py`` runs for 200,000 actions).

Usage (from the repository root, with the extension built: ``scripts/build-fast.sh``)::

    .venv/bin/python benchmarks/fast_differential.py --actions 10000000 --seed 1

Prints one line: the actions, games, refusals and positions reloaded that were compared, and
the time; exits 1 at the first difference, naming it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import fast_diff


def main(argv: list[str] | None = None) -> int:
    """Run the comparison; 0 when every action matched."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        tally = fast_diff.run(args.actions, args.seed)
    except AssertionError as exc:
        print(f"DIFFERENCE (seed {args.seed}): {exc}")
        return 1
    took = time.perf_counter() - start
    print(f"same: {tally.actions:,} actions in {tally.games:,} matches ({tally.refusals:,} refusals, "
          f"{tally.reloads:,} positions reloaded), seed {args.seed}, {took:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
