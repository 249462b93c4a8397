"""The environments' benchmark loops: ``unokit bench --loop gym`` and ``--loop pettingzoo``, and
their rows in ``benchmarks/bench.py`` (functional checks only: no timing thresholds).

Needs the rl extra (``pip install '.[rl]' in a clone``); skipped without it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REASON = "the RL environments need the rl extra: pip install '.[rl]' in a clone"
pytest.importorskip("gymnasium", reason=REASON)
pytest.importorskip("pettingzoo", reason=REASON)

from unokit.bench import ENGINE_LOOPS, LOOPS, RL_LOOPS, gym_loop, measure, pettingzoo_loop  # noqa: E402
from unokit.cli import main  # noqa: E402
from unokit.core.options import Options  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("loop", [gym_loop, pettingzoo_loop])
@pytest.mark.parametrize("players", [2, 4])
def test_rl_loops_count_and_repeat(loop: object, players: int) -> None:
    assert callable(loop)
    games, steps = loop(3, seed=2, players=players)
    assert games == 3 and steps >= 3
    assert loop(3, seed=2, players=players) == (games, steps)  # seeded: the same games
    assert loop(2, seed=2, players=players, deals="seeded") == loop(2, seed=2, players=players,
                                                                    deals="seeded")


def test_rl_loops_whole_matches_and_options() -> None:
    options = Options.from_mapping({"target": 50, "stacking": "progressive", "jump_in": True})
    for loop in (gym_loop, pettingzoo_loop):
        games, steps = loop(1, seed=1, players=3, edition="cars2", options=options, match=True)
        assert games == 1 and steps > 0
    with pytest.raises(ValueError, match="unknown deals"):
        gym_loop(1, deals="shuffled")


def test_loops_table() -> None:
    assert set(LOOPS) == set(ENGINE_LOOPS) | set(RL_LOOPS)
    assert measure("gym", games=2, players=2).steps > 0
    assert measure("pettingzoo", games=2, players=2).games == 2


def test_unokit_bench_rl_loops(capsys: pytest.CaptureFixture[str]) -> None:
    for loop in RL_LOOPS:
        assert main(["bench", "--loop", loop, "--games", "2", "--players", "3", "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        [row] = doc["loops"]
        assert row["loop"] == loop and row["games"] == 2 and row["steps"] > 0
    # --loop all is the engine's loops: nothing optional.
    assert main(["bench", "--games", "1", "--json"]) == 0
    assert [r["loop"] for r in json.loads(capsys.readouterr().out)["loops"]] == list(ENGINE_LOOPS)


def test_benchmark_script_runs_the_rl_loops() -> None:
    pytest.importorskip("rlcard", reason="RLCard is not installed (benchmarks/requirements.txt)")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--quick", "--require-rlcard",
         "--players", "2", "--repeats", "1", "--loops", "gym", "pettingzoo"],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "| 2 | gym | unokit: Gymnasium" in proc.stdout
    assert "| 2 | pettingzoo | RLCard: env.run" in proc.stdout
    assert "Gymnasium env ≥ 10× env.run" in proc.stdout and "PettingZoo env ≥ 10× env.run" in proc.stdout
