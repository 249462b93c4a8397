"""The players' rating scale: one Elo fit over several arena series, anchored at random = 1000.

Each series' ``results.json`` (``unokit arena ... --report DIR``) holds its pairwise results;
this merges them and fits the Bradley-Terry model once (:func:`unokit.stats.bradley_terry_elo`,
one virtual draw per pair), then shifts the scale so that ``random`` is 1000
(:func:`unokit.stats.anchored`). ``unokit.bots.LEVEL_ELO`` holds what it printed for the
held-out level series of ``docs/strength.md``::

    python docs/strength/level_elo.py docs/strength/easy-vs-random-2p/results.json \\
        docs/strength/normal-vs-easy-2p/results.json docs/strength/hard-vs-normal-2p/results.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from unokit.stats import anchored, bradley_terry_elo


def merged_pairwise(paths: list[str]) -> dict[tuple[str, str], float]:
    """The pairwise wins of every series in ``paths`` (``a>b``: how often a beat b), summed."""
    wins: dict[tuple[str, str], float] = {}
    for path in paths:
        summary = json.loads(Path(path).read_text(encoding="utf-8"))["summary"]
        for key, value in summary["pairwise_wins"].items():
            a, _, b = key.partition(">")
            wins[(a, b)] = wins.get((a, b), 0.0) + value
    return wins


def main(paths: list[str]) -> int:
    if not paths:
        print(__doc__)
        return 2
    ratings = anchored(bradley_terry_elo(merged_pairwise(paths)), "random", 1000.0)
    for name, rating in sorted(ratings.items(), key=lambda kv: kv[1]):
        print(f"{name:<10}{rating:8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
