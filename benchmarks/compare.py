"""Two builds of unokit, loop by loop, in one run: did a change keep the speed?

Each build is a folder put first on ``PYTHONPATH``: a checkout's ``src`` (the pure-Python
engine) or an unpacked wheel (``pip wheel --no-deps .`` with a C compiler: the mypyc build).
For each loop of :data:`unokit.bench.LOOPS`, the two are timed ``--runs`` times each,
interleaved (before, after / after, before, ...), every run in a fresh process on the same
seeded games, and the medians compared::

    python benchmarks/compare.py ../before/src src                     # pure Python
    python benchmarks/compare.py /tmp/before-wheel /tmp/after-wheel --loops gym engine
    python benchmarks/compare.py A B --runs 5 --json compare.json --limit 5

It prints every run (steps/s), the medians, the change and, with ``--limit``, whether any
loop's median fell by more than that many per cent (the exit status is 1 if one did).

On a machine whose other work makes seconds spread widely, ``--instructions`` counts instead
the machine instructions each build executes per step, under ``valgrind --tool=callgrind``:
each build plays the loop's games once and then twice as many, and the difference of the two
counts over the difference of their steps is the build's cost per step, free of the start-up
and the same whatever else the machine is doing (one run each is enough: it repeats exactly).
Keep ``--seconds`` small there (0.2 is plenty): callgrind runs the program ~50x slower::

    python benchmarks/compare.py ../before/src src --instructions --seconds 0.2 --limit 5
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

DEFAULT_LOOPS = ("engine", "observe", "engine-rlpolicy", "observe-rlpolicy", "playout",
                 "playout-rlpolicy", "gym", "pettingzoo")

_PROGRAM = """
import json, sys
from unokit import bench
loop, games, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
players, seed = int(sys.argv[4]), int(sys.argv[5])
if games:
    r = bench.measure(loop, games=games, players=players, seed=seed)
else:
    r = bench.measure(loop, seconds=seconds, players=players, seed=seed)
print(json.dumps({"games": r.games, "steps": r.steps, "seconds": r.seconds,
                  "build": bench.engine_build(), "file": bench.__file__}))
"""


def _run(build: Path, loop: str, games: int, seconds: float, players: int, seed: int) -> dict[str, Any]:
    """One timed run of ``loop`` with ``build`` first on the path, in a fresh process."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(build), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", _PROGRAM, loop, str(games), str(seconds), str(players),
                          str(seed)], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"compare: {loop} failed with {build}:\n{out.stderr.strip()}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    if not Path(result["file"]).resolve().is_relative_to(build.resolve()):
        raise SystemExit(f"compare: {build} did not provide unokit (it came from {result['file']})")
    return result


def _count(build: Path, loop: str, games: int, players: int, seed: int) -> tuple[int, int]:
    """Instructions executed by one run of ``loop`` for ``games`` games with ``build``, under
    callgrind, and the steps it played."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(build), os.environ.get("PYTHONPATH", "")])}
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "callgrind.log"
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--log-file={log}",
                              "--callgrind-out-file=/dev/null", sys.executable, "-c", _PROGRAM,
                              loop, str(games), "0", str(players), str(seed)],
                             env=env, capture_output=True, text=True)
        text = log.read_text() if log.exists() else ""
    if out.returncode != 0:
        raise SystemExit(f"compare: {loop} failed under callgrind with {build}:\n{out.stderr.strip()}")
    found = re.search(r"Collected : (\d+)", text)
    if found is None:
        raise SystemExit(f"compare: callgrind counted nothing for {loop} with {build}:\n{text[-2000:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    return int(found.group(1)), int(result["steps"])


def _instructions(builds: dict[str, Path], args: argparse.Namespace) -> int:
    """``--instructions``: each build's instructions per step, loop by loop (see the module's
    docstring), and the change; the exit status as with timing and ``--limit``."""
    if shutil.which("valgrind") is None:
        raise SystemExit("compare: --instructions needs valgrind (apt-get install valgrind)")
    report: dict[str, Any] = {"builds": {k: str(v) for k, v in builds.items()}, "loops": {},
                              "unit": "instructions per step"}
    worst = 0.0
    print(f"{'loop':<18} {'build':<7} {'instr/step':>10}  (games, steps: instructions)")
    for loop in args.loops:
        games = _run(builds["after"], loop, 0, args.seconds, args.players, args.seed)["games"]
        per_step: dict[str, float] = {}
        for name in ("before", "after"):
            small = _count(builds[name], loop, games, args.players, args.seed)
            large = _count(builds[name], loop, 2 * games, args.players, args.seed)
            per_step[name] = (large[0] - small[0]) / (large[1] - small[1])
            report["loops"].setdefault(loop, {})[name] = {"games": [games, 2 * games],
                                                          "steps": [small[1], large[1]],
                                                          "instructions": [small[0], large[0]]}
            print(f"{loop:<18} {name:<7} {per_step[name]:>10,.0f}  ({games}, {small[1]}: {small[0]:,}; "
                  f"{2 * games}, {large[1]}: {large[0]:,})")
        # Fewer instructions per step is faster: the change is said as a change of speed.
        change = 100.0 * (per_step["before"] / per_step["after"] - 1.0)
        worst = min(worst, change)
        report["loops"][loop]["change_percent"] = change
        print(f"{'':<18} {'change':<7} {change:>+9.1f}%  (in steps per instruction)")
    return _verdict(report, worst, args)


def _verdict(report: dict[str, Any], worst: float, args: argparse.Namespace) -> int:
    """Write the report if asked and say whether the worst change keeps ``--limit``."""
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    if args.limit is not None:
        ok = worst >= -args.limit
        verdict = "kept" if ok else "NOT kept"
        print(f"worst change {worst:+.1f}% against the limit of -{args.limit:g}%: {verdict}")
        return 0 if ok else 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, time both builds loop by loop, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path,
                        help="the folder holding the build before (e.g. a checkout's src)")
    parser.add_argument("after", type=Path, help="the folder holding the build after")
    parser.add_argument("--loops", nargs="+", default=list(DEFAULT_LOOPS), metavar="LOOP")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each build per loop (default 5)")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="about how long each run takes: the games are counted once, on the "
                             "after build, then the same games are played by every run (default 2)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=float, default=None,
                        help="fail if a loop's median steps/s falls by more than this many per cent")
    parser.add_argument("--json", type=Path, default=None, help="write every run here")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per step under callgrind instead of timing")
    args = parser.parse_args(argv)
    for build in (args.before, args.after):
        if not (build / "unokit" / "__init__.py").is_file():
            parser.error(f"{build} holds no unokit package (give a checkout's src or an unpacked wheel)")
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    builds = {"before": args.before, "after": args.after}
    if args.instructions:
        return _instructions(builds, args)
    report: dict[str, Any] = {"builds": {k: str(v) for k, v in builds.items()}, "loops": {}}
    worst = 0.0
    print(f"{'loop':<18} {'build':<7} {'median':>10}  runs (steps/s)")
    for loop in args.loops:
        games = _run(args.after, loop, 0, args.seconds, args.players, args.seed)["games"]
        runs: dict[str, list[float]] = {"before": [], "after": []}
        steps: dict[str, set[int]] = {"before": set(), "after": set()}
        engine: dict[str, str] = {}
        for i in range(args.runs):
            order = ("before", "after") if i % 2 == 0 else ("after", "before")
            for name in order:
                r = _run(builds[name], loop, games, 0.0, args.players, args.seed)
                runs[name].append(r["steps"] / r["seconds"])
                steps[name].add(r["steps"])
                engine[name] = r["build"]
        medians = {k: statistics.median(v) for k, v in runs.items()}
        change = 100.0 * (medians["after"] / medians["before"] - 1.0)
        worst = min(worst, change)
        same_games = steps["before"] == steps["after"] and len(steps["after"]) == 1
        report["loops"][loop] = {"games": games, "runs": runs, "medians": medians, "change_percent": change,
                                 "engine": engine, "same_steps": same_games}
        for name in ("before", "after"):
            cells = " ".join(f"{x:,.0f}" for x in runs[name])
            print(f"{loop:<18} {name:<7} {medians[name]:>10,.0f}  {cells}  [{engine[name]}]")
        note = "" if same_games else "  (the two builds played different numbers of steps!)"
        print(f"{'':<18} {'change':<7} {change:>+9.1f}%  ({games} games each run){note}")
    return _verdict(report, worst, args)


if __name__ == "__main__":
    sys.exit(main())
