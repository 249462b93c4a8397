"""The native core's rounds/s against RLCard's bare rules loop and against the native bare
loop (``../shared/limit/uno_bare.c``, built with ``cc -O2``: the floor of what one core can do),
in one run, 2 and 4 players (the native bare loop plays 2 only).

Usage (from the repository root; RLCard and the built extension needed)::

    .venv/bin/python benchmarks/native_limit.py [--seconds 3] [--limit ../shared/limit/uno_bare.c]

Each side runs for about ``--seconds``; the lines give rounds/s, steps/round and the ratios.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from rlcard_loops import rlcard_bare_loop  # noqa: E402

from unokit.bench import fast_playable_first_loop  # noqa: E402


def rate(loop: Callable[[int, int, int], tuple[int, int]], players: int,
         seconds: float) -> tuple[float, float]:
    """Rounds/s and steps/round of ``loop`` run for about ``seconds``, in growing batches."""
    games = steps = 0
    batch, took, seed = 100, 0.0, 1
    while took < seconds:
        start = time.perf_counter()
        g, s = loop(batch, seed, players)
        took += time.perf_counter() - start
        games, steps, seed, batch = games + g, steps + s, seed + 1, batch * 2
    return games / took, steps / games


def native_bare(source: Path, seconds: float) -> tuple[float, float]:
    """The native bare loop's rounds/s and steps/round (two players)."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "uno_bare"
        subprocess.run(["cc", "-O2", "-o", str(exe), str(source)], check=True)
        out = subprocess.run([str(exe), str(seconds)], check=True, capture_output=True, text=True).stdout
    found = re.search(r"([\d.]+) rounds/s, [\d.]+ steps/s, ([\d.]+) steps/round", out)
    assert found, out
    return float(found[1]), float(found[2])


def main(argv: list[str] | None = None) -> int:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--limit", type=Path, default=ROOT.parent / "shared" / "limit" / "uno_bare.c")
    args = parser.parse_args(argv)
    bare, bare_steps = native_bare(args.limit, args.seconds)
    print(f"native bare loop (cc -O2), 2 players: {bare:,.0f} rounds/s, {bare_steps:.1f} steps/round")
    for players in (2, 4):
        fast, fast_steps = rate(fast_playable_first_loop, players, args.seconds)
        rl, rl_steps = rate(rlcard_bare_loop, players, args.seconds)
        line = (f"{players} players: fast-rlpolicy {fast:,.0f} rounds/s ({fast_steps:.1f} steps/round), "
                f"RLCard bare loop {rl:,.0f} rounds/s ({rl_steps:.1f} steps/round): {fast / rl:.1f}x RLCard")
        if players == 2:
            line += f", {bare / fast:.1f}x slower than the native bare loop"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
