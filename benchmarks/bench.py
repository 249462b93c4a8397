"""unokit against RLCard 1.2.0's UNO, side by side in one run.

Usage (from the repository root, in a venv with ``benchmarks/requirements.txt`` and unokit)::

    .venv-bench/bin/python benchmarks/bench.py                  # 2 and 4 players, 5 repeats
    .venv-bench/bin/python benchmarks/bench.py --quick          # seconds: checks that it works
    .venv-bench/bin/python benchmarks/bench.py --quick --require-rlcard   # (CI): RLCard side too
    .venv-bench/bin/python benchmarks/bench.py --players 2 --repeats 9 --json out.json
    .venv-bench/bin/python benchmarks/bench.py --loops playout-rlpolicy engine-rlpolicy

Six pairs of loops (eight where the native core is built), each a "game" = one round (RLCard's
game is one hand), random legal play, and two more where unokit's rl extra is installed
(``gym``, ``pettingzoo``, below):

* **engine**: unokit's ``legal_actions`` / ``apply`` (the turn seat's legal list, UNO-call
  variants and catches included) against RLCard's bare rules loop (``UnoRound``, no state dicts).
  Uniformly random over unokit's legal actions: drawing is always legal (T2), so rounds are
  ~1,000 steps against RLCard's ~47. Compare steps/s here.
* **engine-rlpolicy**: the same engine calls with an RLCard-equivalent random policy (a random
  playable card if there is one, else draw, then play the drawn card if playable, else pass;
  ``unokit.bench.playable_first_loop``), against the same RLCard loop. Rounds are about as
  long as RLCard's, so games/s compares the two fairly.
* **observe**: unokit's full observation of the acting seat (with its legal actions) at every
  step, against RLCard's ``env.run`` (observation planes, legal-action dicts, trajectories).
  Uniformly random again: compare steps/s.
* **observe-rlpolicy**: the observation at every step with the RLCard-equivalent policy
  (``unokit.bench.playable_first_observe_loop``), against the same ``env.run``: games/s
  compares fairly.
* **playout** and **playout-rlpolicy**: the games of *engine* and *engine-rlpolicy*, step for
  step, each round played to its end by the engine itself (``unokit.core.playout.playout``, what a
  simulation of random games or a Monte Carlo rollout calls), against the same RLCard loop.
  The first two pairs time the engine under a Python loop of the caller's; these time the
  engine simulating on its own. Compare steps/s and games/s respectively, as above.

* **fast** and **fast-rlpolicy**: the games of *engine* and *engine-rlpolicy*, step for step,
  played by the native core (``unokit.fast.play``: the rules in C, no Python between steps),
  where its extension is built; against the same RLCard loop.

* **gym** and **pettingzoo**: rounds through unokit's RL environments (``docs/rl.md``): the
  Gymnasium ``unokit/Uno-v0`` (``env.step``; the other seats a callable policy of the
  environment) and the PettingZoo AEC environment (``agent_iter`` / ``last`` / ``step``), every
  seat a uniformly random policy over its action mask, the observation vector and the mask
  built at every decision; against RLCard's ``env.run``, as RL libraries drive both. Random
  play makes unokit's rounds long again: compare steps/s (a step is one action applied to the
  engine; an out-of-turn seat's "nothing now" is not one); games/s is shown too.

Deals: by default unokit deals every game of a loop from the loop's one generator
(``Game.new(..., deal_rng=...)``), as RLCard's loops deal from their one ``np_random``;
``--deals seeded`` deals each game from its own seed instead (``Game.new``'s default, what a
record or a tournament needs), which adds seeding two generators to every game.

Every repeat runs A then B (then B then A in the next repeat, so neither side always goes
first), with the same seed on both sides; each run is sized by a warm-up to take about
``--target-seconds``. Reported: games/s and steps/s (median, min, max over the repeats),
steps per game, the unokit/RLCard ratio of the medians, and the peak memory allocated while
playing one game (tracemalloc, including the game's setup; median over a few games).
Timings are wall-clock; run on a quiet machine.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from unokit.arena import ArenaConfig, play_game
from unokit.bench import DEALS, ENGINE_LOOPS, LOOPS, engine_build
from unokit.bots import split_bot_names
from unokit.core.actions import MAX_SEATS

Loop = Callable[[int, int, int], tuple[int, int]]

resource: ModuleType | None
try:
    import resource  # CPU time of child processes (Unix)
except ImportError:
    resource = None

try:
    from rlcard_loops import rlcard_bare_loop, rlcard_env_run
except ImportError as exc:  # rlcard (or numpy) missing: unokit runs alone
    RLCARD_ERROR: str | None = str(exc)
else:
    RLCARD_ERROR = None

try:  # the RL environments' loops (gym, pettingzoo) need unokit's rl extra
    import unokit.envs.pettingzoo  # noqa: F401
except ImportError as exc:
    RL_ERROR: str | None = str(exc)
else:
    RL_ERROR = None

RL_LOOPS = ("gym", "pettingzoo")
"""The loops through unokit's RL environments, timed beside RLCard's ``env.run``."""


def pairs(deals: str = "stream") -> list[tuple[str, Loop, str, Loop | None, str]]:
    """``(name, unokit loop, unokit label, RLCard loop or None, RLCard label)``; unokit's
    loops are ``unokit.bench.LOOPS``, dealing their games as ``deals`` says (``DEALS``)."""
    bare = None if RLCARD_ERROR else rlcard_bare_loop
    env_run = None if RLCARD_ERROR else rlcard_env_run
    rows: list[tuple[str, str, Loop | None, str]] = [
        ("engine", "Game.legal_actions + apply", bare, "bare rules loop (UnoRound)"),
        ("engine-rlpolicy", "legal_actions + apply, RLCard-equivalent policy", bare,
         "bare rules loop (UnoRound)"),
        ("observe", "Game.observe(seat) + apply", env_run, "env.run (RandomAgent)"),
        ("observe-rlpolicy", "observe + apply, RLCard-equivalent policy", env_run,
         "env.run (RandomAgent)"),
        ("playout", "playout (the engine's own loop), uniform random play", bare,
         "bare rules loop (UnoRound)"),
        ("playout-rlpolicy", "playout (the engine's own loop), RLCard-equivalent policy", bare,
         "bare rules loop (UnoRound)"),
        ("fast", "the native core (unokit.fast.play), uniform random play", bare,
         "bare rules loop (UnoRound)"),
        ("fast-rlpolicy", "the native core (unokit.fast.play), RLCard-equivalent policy", bare,
         "bare rules loop (UnoRound)"),
        ("gym", "Gymnasium unokit/Uno-v0 step, every seat uniform masked random", env_run,
         "env.run (RandomAgent)"),
        ("pettingzoo", "PettingZoo AEC agent_iter/last/step, uniform masked random", env_run,
         "env.run (RandomAgent)"),
    ]
    return [(name, functools.partial(LOOPS[name], deals=deals), ulabel, rfn, rlabel)
            for name, ulabel, rfn, rlabel in rows
            if (RL_ERROR is None or name not in RL_LOOPS) and (name in ENGINE_LOOPS or name in RL_LOOPS)]


@dataclass
class Series:
    """The runs of one loop: games, steps and seconds of each repeat."""

    label: str
    runs: list[tuple[int, int, float]] = field(default_factory=list)
    peak_bytes: list[int] = field(default_factory=list)

    def rates(self, what: str) -> list[float]:
        i = 0 if what == "games" else 1
        return [r[i] / r[2] for r in self.runs]

    def median(self, what: str) -> float:
        return statistics.median(self.rates(what))

    def steps_per_game(self) -> float:
        return sum(r[1] for r in self.runs) / max(1, sum(r[0] for r in self.runs))

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label, "runs": self.runs,
                               "steps_per_game": self.steps_per_game()}
        for what in ("games", "steps"):
            rates = self.rates(what)
            out[f"{what}_per_s"] = {"median": statistics.median(rates), "min": min(rates),
                                    "max": max(rates)}
        if self.peak_bytes:
            out["peak_kib_per_game"] = statistics.median(self.peak_bytes) / 1024
        return out


TARGETS: list[tuple[str, str, float, str]] = [
    ("engine", "steps", 2.0,
     "engine ≥ 2× RLCard's bare rules loop, uniform random play, driven from Python"),
    ("engine-rlpolicy", "steps", 2.0,
     "engine ≥ 2× RLCard's bare rules loop, RLCard's action space, driven from Python, "
     "per decision"),
    ("engine-rlpolicy", "games", 2.0,
     "engine ≥ 2× RLCard's bare rules loop, RLCard's action space, driven from Python, per round"),
    ("playout", "steps", 2.0,
     "engine ≥ 2× RLCard's bare rules loop, uniform random play, the engine's own playout"),
    ("playout-rlpolicy", "games", 2.0,
     "engine ≥ 2× RLCard's bare rules loop, RLCard's action space, the engine's own playout, "
     "per round"),
    ("fast-rlpolicy", "games", 30.0,
     "native core ≥ 30× RLCard's bare rules loop, RLCard's action space, per round"),
    ("observe", "steps", 10.0, "observation ≥ 10× env.run, uniform random play"),
    ("observe-rlpolicy", "games", 10.0, "observation ≥ 10× env.run, RLCard's action space, per round"),
    ("gym", "steps", 10.0, "Gymnasium env ≥ 10× env.run, uniform random masked play, encoding and "
     "mask included"),
    ("pettingzoo", "steps", 10.0, "PettingZoo env ≥ 10× env.run, uniform random masked play, "
     "encoding and mask included"),
]
"""The speed targets, ``(loop, unit, ratio, label)``, in the units each loop compares
like for like. A step is one decision by one player; under RLCard's action space unokit's
rules still ask ~45% more decisions a round than RLCard's, so both units are shown for the
Python-driven loop (docs/performance.md, "How the targets are read")."""

ARENA_TARGET = 1.8
"""The scaling target: ``unokit arena --jobs 2`` at least this many times ``--jobs 1``."""


def target_rows(rows: list[tuple[int, str, list[tuple[str, Loop, Series]]]]
                ) -> list[dict[str, Any]]:
    """Each speed target's ratio unokit/RLCard (medians) in this run, per player count."""
    out = []
    for loop, unit, goal, label in TARGETS:
        for players, name, sides in rows:
            if name == loop and len(sides) == 2:
                ratio = sides[0][2].median(unit) / sides[1][2].median(unit)
                out.append({"target": label, "loop": loop, "unit": f"{unit}/s", "goal": goal,
                            "players": players, "ratio": ratio, "met": ratio >= goal})
    return out


def timed(fn: Loop, games: int, seed: int, players: int) -> tuple[int, int, float]:
    gc.collect()
    start = time.perf_counter()
    played, steps = fn(games, seed, players)
    return played, steps, time.perf_counter() - start


def calibrate(fn: Loop, players: int, target: float, quick: bool) -> int:
    """How many games take about ``target`` seconds (a short warm-up run)."""
    if quick:
        return 2
    games = 2
    while True:
        _, _, took = timed(fn, games, 999, players)
        if took >= target / 10 or games >= 1 << 20:
            return max(2, round(games * target / max(took, 1e-9)))
        games *= 4


def peak_memory(fn: Loop, players: int, samples: int) -> list[int]:
    """Peak bytes allocated (tracemalloc) while playing one game, per sampled game."""
    peaks = []
    for seed in range(samples):
        gc.collect()
        tracemalloc.start()
        fn(1, 10_000 + seed, players)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return peaks


def _children_cpu() -> float:
    """CPU seconds (user + system) of this process's finished children and theirs."""
    if resource is None:
        return float("nan")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return float(usage.ru_utime + usage.ru_stime)


def arena_scaling(games: int, repeats: int, bots: str) -> list[tuple[int, float, float]]:
    """``unokit arena --jobs 1`` and ``--jobs 2``, alternating: ``(jobs, games/s, CPU s)``
    per run, wall clock, and the CPU time of the command and its worker processes (NaN where
    the platform cannot count it)."""
    runs: list[tuple[int, float, float]] = []
    for rep in range(repeats):
        for jobs in (1, 2) if rep % 2 == 0 else (2, 1):
            cmd = [sys.executable, "-m", "unokit", "arena", "--bots", bots, "--games", str(games),
                   "--jobs", str(jobs), "--seed", str(rep), "--no-progress", "--json"]
            cpu = _children_cpu()
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            wall = time.perf_counter() - start
            runs.append((jobs, games / wall, _children_cpu() - cpu))
    return runs


def _play_arena_games(bots: tuple[str, ...], games: int, indices: range
                      ) -> tuple[float, float, float]:
    """Play arena games ``indices`` with no arena machinery; when it began and ended (system
    clock, comparable across processes), and the CPU seconds this process spent on them."""
    config = ArenaConfig(bots=bots, games=games)
    cpu = time.process_time()
    began = time.time()
    for i in indices:
        play_game(config, i)
    return began, time.time(), time.process_time() - cpu


def process_scaling(games: int, repeats: int, bots: str) -> list[tuple[int, float, float]]:
    """Games/s of the arena's very games played bare (``play_game`` in a loop: no command,
    no process pool, no chunks, no results sent back), in this process and then split over
    two processes at once, alternating: what this machine gives two processes for this
    work, beside the ``unokit arena`` ratio. Each run is ``(processes, games/s, CPU s)``, the
    CPU time the processes spent on the games alone."""
    lineup = tuple(split_bot_names(bots))
    half = games // 2
    runs: list[tuple[int, float, float]] = []
    with ProcessPoolExecutor(max_workers=2) as pool:
        for rep in range(repeats):
            for jobs in (1, 2) if rep % 2 == 0 else (2, 1):
                if jobs == 1:
                    spans = [_play_arena_games(lineup, games, range(games))]
                else:
                    futures = [pool.submit(_play_arena_games, lineup, games, r)
                               for r in (range(half), range(half, games))]
                    spans = [f.result() for f in futures]
                wall = max(e for _, e, _ in spans) - min(b for b, _, _ in spans)
                runs.append((jobs, games / wall, sum(c for _, _, c in spans)))
    return runs


def scaling_summary(runs: list[tuple[int, float, float]], games: int) -> dict[str, float]:
    """Medians of a scaling measurement: games/s and CPU seconds a run for 1 and 2
    processes, their ratios, and how many CPUs the 2-process runs kept busy on average
    (CPU seconds over wall seconds)."""
    def med(jobs: int, i: int) -> float:
        return statistics.median(r[i] for r in runs if r[0] == jobs)

    one, two = med(1, 1), med(2, 1)
    cpu_one, cpu_two = med(1, 2), med(2, 2)
    busy = statistics.median(cpu * rate / games for jobs, rate, cpu in runs if jobs == 2)
    return {"rate_1": one, "rate_2": two, "speedup": two / one, "cpu_1": cpu_one,
            "cpu_2": cpu_two, "cpu_ratio": cpu_two / cpu_one, "cpus_busy": busy}


def _scaling_json(games: int, bots: str, runs: list[tuple[int, float, float]],
                  summary: dict[str, float]) -> dict[str, Any]:
    """A scaling measurement for ``--json``: runs as ``[jobs, games/s]`` and
    ``[jobs, CPU s]`` pairs, and the summary (NaN, where CPU time is not counted, as null)."""
    def num(x: float) -> float | None:
        return None if math.isnan(x) else x

    return {"games": games, "bots": bots, "runs": [[j, rate] for j, rate, _ in runs],
            "cpu_seconds": [[j, num(cpu)] for j, _, cpu in runs],
            "summary": {k: num(v) for k, v in summary.items()}}


def _fmt(rates: list[float]) -> str:
    return f"{statistics.median(rates):,.0f} ({min(rates):,.0f}–{max(rates):,.0f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="unokit vs RLCard UNO, side by side")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4],
                        help=f"player counts to run, 2 to {MAX_SEATS} (default 2 4)")
    parser.add_argument("--repeats", type=int, default=None, help="timed runs per loop (default 5)")
    parser.add_argument("--target-seconds", type=float, default=1.0, help="length of each timed run")
    parser.add_argument("--memory-games", type=int, default=5, help="games sampled for peak memory")
    parser.add_argument("--quick", action="store_true",
                        help="tiny runs (2 games, 2 repeats): checks that everything works")
    parser.add_argument("--json", metavar="FILE", help="also write every run as JSON")
    parser.add_argument("--require-rlcard", action="store_true",
                        help="stop with an error if RLCard is missing, instead of timing unokit alone")
    parser.add_argument("--arena-games", type=int, default=0, metavar="N",
                        help="also time `unokit arena --games N` with --jobs 1 and --jobs 2 (scaling)")
    parser.add_argument("--arena-bots", default="heuristic,heuristic", help="bots for --arena-games")
    parser.add_argument("--loops", nargs="+", metavar="LOOP",
                        choices=[*(name for name, *_ in pairs()), *RL_LOOPS],
                        help="time only these loops (default: all: the six engine loops, and gym "
                             "and pettingzoo where unokit's rl extra is installed)")
    parser.add_argument("--deals", choices=DEALS, default="stream",
                        help="how unokit deals its games: stream (default), every game from the "
                             "loop's one generator, as RLCard deals from its np_random; seeded, "
                             "each game from its own seed (two generator seedings a game)")
    parser.add_argument("--arena-only", action="store_true",
                        help="with --arena-games: time only the arena, not the loops")
    args = parser.parse_args(argv)
    repeats = args.repeats if args.repeats is not None else (2 if args.quick else 5)
    if repeats < 1:
        parser.error("--repeats must be at least 1")
    for n in args.players:
        if not 2 <= n <= MAX_SEATS:
            parser.error(f"--players: {n} is not a player count (2 to {MAX_SEATS})")
    if args.target_seconds <= 0:
        parser.error("--target-seconds must be positive")
    if args.memory_games < 1:
        parser.error("--memory-games must be at least 1")
    if args.arena_games < 0:
        parser.error("--arena-games must be at least 0")
    mem_games = 1 if args.quick else args.memory_games
    if args.arena_only and args.arena_games <= 0:
        parser.error("--arena-only needs --arena-games N")
    if RL_ERROR and args.loops and set(args.loops) & set(RL_LOOPS):
        parser.error(f"--loops {' '.join(sorted(set(args.loops) & set(RL_LOOPS)))}: the RL "
                     f"environments are not importable ({RL_ERROR}); install them with: "
                     "pip install '.[rl]' in a clone of unokit")
    if RLCARD_ERROR and args.require_rlcard:
        parser.error(f"--require-rlcard: RLCard is not importable ({RLCARD_ERROR}); "
                     "install it with: pip install -r benchmarks/requirements.txt")

    command = "python benchmarks/bench.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"# {command.strip()}")
    print(f"# Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, "
          f"{platform.system()}; {time.strftime('%Y-%m-%d %H:%M')}; load average "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"# unokit engine: {engine_build()}; deals: {args.deals}")
    if RL_ERROR:
        print(f"# unokit's RL environments are not importable ({RL_ERROR}): the gym and "
              "pettingzoo loops are left out. Install them with: pip install '.[rl]' in a clone of unokit")
    if RLCARD_ERROR:
        print(f"# RLCard is not importable ({RLCARD_ERROR}): running unokit alone. "
              "Install it with: pip install -r benchmarks/requirements.txt")
    else:
        import rlcard  # type: ignore[import-untyped]

        print(f"# RLCard {getattr(rlcard, '__version__', '?')}; A/B alternating, "
              f"{repeats} repeats of about {args.target_seconds:g} s each")
    results: dict[str, Any] = {"command": command.strip(), "python": platform.python_version(),
                               "engine_build": engine_build(), "deals": args.deals,
                               "rlcard": RLCARD_ERROR is None, "rows": []}
    rows = []
    for players in [] if args.arena_only else args.players:
        for name, ufn, ulabel, rfn, rlabel in pairs(args.deals):
            if args.loops and name not in args.loops:
                continue
            sides = [("unokit", ufn, Series(ulabel))]
            if rfn is not None:
                sides.append(("RLCard", rfn, Series(rlabel)))
            sizes = {who: calibrate(fn, players, args.target_seconds, args.quick) for who, fn, _ in sides}
            for rep in range(repeats):
                order = sides if rep % 2 == 0 else sides[::-1]
                for who, fn, series in order:
                    series.runs.append(timed(fn, sizes[who], rep, players))
            for _, fn, series in sides:
                series.peak_bytes = peak_memory(fn, players, mem_games)
            rows.append((players, name, sides))
            results["rows"].append({"players": players, "loop": name,
                                    **{who: s.as_dict() for who, _, s in sides}})
            print(f"# done: {players} players, {name}", file=sys.stderr, flush=True)

    if rows:
        print()
        print("| players | loop | engine | games/s median (min–max) | steps/s median (min–max) | "
              "steps/game | peak KiB/game |")
        print("|---|---|---|---|---|---|---|")
    for players, name, sides in rows:
        for who, _, s in sides:
            print(f"| {players} | {name} | {who}: {s.label} | {_fmt(s.rates('games'))} | "
                  f"{_fmt(s.rates('steps'))} | {s.steps_per_game():,.1f} | "
                  f"{statistics.median(s.peak_bytes) / 1024:,.0f} |")
    if rows and not RLCARD_ERROR:
        print()
        print("| players | loop | unokit/RLCard games/s | unokit/RLCard steps/s |")
        print("|---|---|---|---|")
        for players, name, sides in rows:
            u, r = sides[0][2], sides[1][2]
            print(f"| {players} | {name} | {u.median('games') / r.median('games'):.2f}× | "
                  f"{u.median('steps') / r.median('steps'):.2f}× |")
        verdicts = target_rows(rows)
        results["targets"] = verdicts
        print()
        print(f"The speed targets in this run ({engine_build()} engine"
              f"{'; --quick: too short to judge' if args.quick else ''}):")
        print()
        print("| target | unit | players | unokit/RLCard | |")
        print("|---|---|---|---|---|")
        for v in verdicts:
            print(f"| {v['target']} | {v['unit']} | {v['players']} | {v['ratio']:.2f}× | "
                  f"{'met' if v['met'] else 'not met'} |")
        print()
        print("How these targets are read, and why the engine loop is compared per decision: "
              "docs/performance.md, \"How the targets are read\".")
    if args.arena_games > 0:
        games = args.arena_games
        runs = arena_scaling(games, repeats, args.arena_bots)
        arena = scaling_summary(runs, games)
        results["arena"] = _scaling_json(games, args.arena_bots, runs, arena)
        print()
        print(f"unokit arena --bots {args.arena_bots} --games {games} (whole matches, "
              f"process start-up included), median of {repeats}: --jobs 1 {arena['rate_1']:,.1f} "
              f"games/s, --jobs 2 {arena['rate_2']:,.1f} games/s: {arena['speedup']:.2f}× on "
              f"{os.cpu_count()} CPUs (target: {ARENA_TARGET:g}×, "
              f"{'met' if arena['speedup'] >= ARENA_TARGET else 'not met'})")
        if resource is not None:
            print(f"  CPU time a run, the command and its workers: --jobs 1 {arena['cpu_1']:.2f} s, "
                  f"--jobs 2 {arena['cpu_2']:.2f} s ({arena['cpu_ratio']:.2f}×); --jobs 2 kept "
                  f"{arena['cpus_busy']:.2f} CPUs busy on average")
        raw_runs = process_scaling(games, repeats, args.arena_bots)
        raw = scaling_summary(raw_runs, games)
        results["process_scaling"] = _scaling_json(games, args.arena_bots, raw_runs, raw)
        print(f"the same games played bare (play_game in a loop, no arena machinery), median of "
              f"{repeats}: 1 process {raw['rate_1']:,.1f} games/s, 2 processes at once "
              f"{raw['rate_2']:,.1f} games/s: {raw['speedup']:.2f}× (what two processes get here "
              "for this work)")
        print(f"  CPU time a run, the games alone: 1 process {raw['cpu_1']:.2f} s, 2 processes "
              f"{raw['cpu_2']:.2f} s ({raw['cpu_ratio']:.2f}×: above 1, the same games cost more "
              "CPU time with two processes running at once)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
