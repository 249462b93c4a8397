"""The RLCard side of the benchmark (``benchmarks/rlcard_loops.py``, ``bench.py``) works.

RLCard is a benchmark-only dependency (``benchmarks/requirements.txt``). Where it is not
installed these tests are skipped, unless ``UNOKIT_TEST_RLCARD=1`` says it must be there:
the test command (``scripts/test.sh``, and so CI) installs it and sets that, so the side-by-side
comparison is run, not silently left out. Functional checks only: no timing thresholds.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from unokit import fast
from unokit.bench import playable_first_playout_loop

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = os.environ.get("UNOKIT_TEST_RLCARD") == "1"


@pytest.fixture(scope="module")
def loops() -> ModuleType:
    if not REQUIRED:
        pytest.importorskip("rlcard", reason="RLCard is not installed (benchmarks/requirements.txt)")
    path = ROOT / "benchmarks" / "rlcard_loops.py"
    spec = importlib.util.spec_from_file_location("rlcard_loops", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # ImportError here when UNOKIT_TEST_RLCARD=1 and it is missing
    return module


@pytest.mark.parametrize("players", [2, 4])
def test_bare_loop_plays_the_games_of_unogame_step(loops: ModuleType, players: int) -> None:
    # The bare loop is UnoGame.init_game/step with the state dicts stripped out: it must draw the
    # same random numbers and so play exactly the same games (the same number of steps).
    bare = loops.rlcard_bare_loop(25, 3, players)
    assert bare == loops.rlcard_game_step(25, 3, players)
    games, steps = bare
    assert games == 25 and steps >= 25


def test_rlcard_loops_are_seeded(loops: ModuleType) -> None:
    for fn in (loops.rlcard_bare_loop, loops.rlcard_env_run):
        assert fn(6, 11, 2) == fn(6, 11, 2)
    # Different seeds deal different games: over a few seeds the step totals are not all equal.
    assert len({loops.rlcard_bare_loop(6, seed, 2)[1] for seed in range(5)}) > 1


def test_env_run_plays_four_players(loops: ModuleType) -> None:
    # rlcard.make ignores game_num_players for UNO; rlcard_env_run sets the count on the env's
    # game itself, so a four-player run must play its games through.
    games, steps = loops.rlcard_env_run(4, 5, 4)
    assert games == 4 and steps >= 4


def test_rlcard_loops_reject_bad_arguments(loops: ModuleType) -> None:
    for fn in (loops.rlcard_bare_loop, loops.rlcard_game_step, loops.rlcard_env_run):
        with pytest.raises(ValueError, match="players"):
            fn(1, 0, 1)
        with pytest.raises(ValueError, match="games"):
            fn(-1, 0, 2)


def test_benchmark_quick_mode_runs_both_sides(loops: ModuleType, tmp_path: Path) -> None:
    # What CI runs: every loop, unokit and RLCard side by side, with the ratio table.
    out = tmp_path / "bench.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--quick", "--require-rlcard",
         "--players", "2", "4", "--repeats", "1", "--json", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "unokit/RLCard games/s" in proc.stdout
    results = json.loads(out.read_text())
    assert results["rlcard"] is True
    rows = {(row["players"], row["loop"]): row for row in results["rows"]}
    loop_names = ["engine", "engine-rlpolicy", "observe", "observe-rlpolicy", "playout",
                  "playout-rlpolicy"]
    rl = all(importlib.util.find_spec(m) for m in ("gymnasium", "pettingzoo", "numpy"))
    if rl:  # the RL environments' loops run beside RLCard's env.run when the rl extra is there
        loop_names += ["gym", "pettingzoo"]
    native = fast.AVAILABLE
    if native:  # the native core's loops run beside RLCard's bare loop when it is built
        loop_names += ["fast", "fast-rlpolicy"]
    assert set(rows) == {(p, name) for p in (2, 4) for name in loop_names}
    for row in rows.values():
        for side in ("unokit", "RLCard"):
            assert row[side]["games_per_s"]["median"] > 0
            assert row[side]["steps_per_s"]["median"] > 0
    # The verdict on each of the speed targets, in the unit that loop compares.
    assert "The speed targets in this run" in proc.stdout and "too short to judge" in proc.stdout
    # The Python-driven loop under RLCard's action space is judged per decision and per round.
    units = {("engine", "steps", 2), ("engine-rlpolicy", "steps", 2), ("engine-rlpolicy", "games", 2),
             ("observe", "steps", 10), ("observe-rlpolicy", "games", 10), ("playout", "steps", 2),
             ("playout-rlpolicy", "games", 2)}
    if rl:
        units |= {("gym", "steps", 10), ("pettingzoo", "steps", 10)}
    if native:
        units.add(("fast-rlpolicy", "games", 30))
    judged = [(t["players"], t["loop"], t["unit"].removesuffix("/s"), t["goal"])
              for t in results["targets"]]
    assert sorted(judged) == sorted((p, *u) for p in (2, 4) for u in units)
    for t in results["targets"]:
        unit = t["unit"].removesuffix("/s")
        row = rows[(t["players"], t["loop"])]
        ratio = row["unokit"][f"{unit}_per_s"]["median"] / row["RLCard"][f"{unit}_per_s"]["median"]
        assert t["ratio"] == pytest.approx(ratio) and t["met"] == (ratio >= t["goal"])
    assert "How the targets are read" in proc.stdout


def test_benchmark_times_only_the_loops_asked_for(loops: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--quick", "--players", "3",
         "--repeats", "1", "--loops", "playout-rlpolicy", "engine", "--deals", "seeded",
         "--json", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(out.read_text())
    rows = doc["rows"]
    assert sorted(row["loop"] for row in rows) == ["engine", "playout-rlpolicy"]
    # --deals seeded: unokit's games are dealt from each game's seed (repeat r plays seed r).
    assert doc["deals"] == "seeded" and "deals: seeded" in proc.stdout
    [playout_row] = [row for row in rows if row["loop"] == "playout-rlpolicy"]
    games, steps, _ = playout_row["unokit"]["runs"][0]
    assert steps == playable_first_playout_loop(games, 0, 3, deals="seeded")[1]
    bad = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--quick", "--loops", "fastest"],
        capture_output=True, text=True, timeout=120,
    )
    assert bad.returncode == 2 and "--loops: invalid choice: 'fastest'" in bad.stderr
    assert "Traceback" not in bad.stderr


def _without_rlcard(tmp_path: Path) -> dict[str, str]:
    """An environment in which ``import rlcard`` fails (a module of that name that raises)."""
    (tmp_path / "rlcard.py").write_text("raise ImportError('rlcard hidden for this test')\n")
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH")) if p)
    return dict(os.environ, PYTHONPATH=path)


def test_benchmark_runs_unokit_alone_without_rlcard(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--quick", "--players", "2",
         "--repeats", "1"],
        capture_output=True, text=True, timeout=300, env=_without_rlcard(tmp_path),
    )
    assert proc.returncode == 0, proc.stderr
    assert "running unokit alone" in proc.stdout
    assert "pip install -r benchmarks/requirements.txt" in proc.stdout
    assert "| 2 | observe-rlpolicy | unokit:" in proc.stdout
    assert "RLCard: " not in proc.stdout and "unokit/RLCard" not in proc.stdout


def test_require_rlcard_fails_clearly_without_it(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--quick", "--require-rlcard"],
        capture_output=True, text=True, timeout=120, env=_without_rlcard(tmp_path),
    )
    assert proc.returncode == 2
    assert "RLCard is not importable" in proc.stderr and "benchmarks/requirements.txt" in proc.stderr
    assert "Traceback" not in proc.stderr
