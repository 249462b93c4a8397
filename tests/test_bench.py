"""The benchmark loops and ``unokit bench`` work (functional checks only: no timing thresholds)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from unokit.bench import LOOPS, engine_loop, measure, observe_loop
from unokit.cli import main
from unokit.options import Options

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("players", [2, 4, 10])
def test_engine_loop_counts(players: int) -> None:
    games, steps = engine_loop(3, seed=1, players=players)
    assert games == 3
    assert steps >= 3  # every round takes at least one action


def test_loops_play_the_same_games() -> None:
    # Building observations must not change the game: same seeds, same steps.
    assert engine_loop(4, seed=7, players=3) == observe_loop(4, seed=7, players=3)


def test_loops_are_reproducible() -> None:
    assert engine_loop(3, seed=5, players=2) == engine_loop(3, seed=5, players=2)


@pytest.mark.parametrize("edition", ["classic", "cars2", "phineas-ferb"])
def test_editions_and_house_rules(edition: str) -> None:
    options = Options.from_mapping({"stacking": "progressive", "seven_zero": True, "jump_in": True})
    games, steps = engine_loop(2, seed=3, players=4, edition=edition, options=options)
    assert games == 2 and steps > 0


def test_match_mode_plays_whole_matches() -> None:
    options = Options.from_mapping({"target": 50})
    _, match_steps = engine_loop(1, seed=2, players=2, options=options, match=True)
    _, round_steps = engine_loop(1, seed=2, players=2, options=options)
    assert match_steps >= round_steps


def test_measure_by_games_and_by_seconds() -> None:
    done: list[int] = []
    result = measure("observe", games=3, players=2, progress=done.append)
    assert (result.loop, result.games) == ("observe", 3)
    assert done == [1, 2, 3]
    assert result.steps > 0 and result.seconds > 0
    assert result.games_per_s > 0 and result.steps_per_s > result.games_per_s
    assert result.steps_per_game == result.steps / 3
    timed = measure("engine", seconds=0.05, players=2)
    assert timed.games >= 1 and timed.seconds >= 0.05
    with pytest.raises(ValueError):
        measure("engine", games=1, seconds=1.0)
    assert set(LOOPS) == {"engine", "observe"}


def test_unokit_bench_command(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["bench", "--games", "2", "--players", "3", "--option", "stacking=progressive",
                   "--no-progress"])
    out = capsys.readouterr().out
    assert status == 0
    assert "3 players" in out and "stacking=progressive" in out
    assert "engine" in out and "observe" in out and "rounds/s" in out and "steps/s" in out


def test_unokit_bench_seconds_and_one_loop(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.05", "--loop", "engine", "--match", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "matches/s" in out and "observe" not in out.split("\n", 1)[1]


def test_unokit_bench_rejects_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "0"]) == 2
    assert main(["bench", "--games", "1", "--option", "nope=1"]) == 2
    assert "unokit: error:" in capsys.readouterr().err


@pytest.mark.parametrize("script", ["bench.py", "memory.py"])
def test_benchmark_scripts_quick_mode(script: str) -> None:
    # The CI smoke run: works with or without rlcard installed.
    args = [sys.executable, str(ROOT / "benchmarks" / script), "--quick"]
    if script == "bench.py":
        args += ["--players", "2", "--repeats", "1"]
    else:
        args += ["--samples", "2"]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "unokit" in proc.stdout or "RSS" in proc.stdout
