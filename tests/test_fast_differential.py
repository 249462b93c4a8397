"""The native core (``unokit.fast``) plays exactly the engine's games: random matches over
every edition, 2-10 players and random options, compared action by action (every seat's legal
actions before, the whole state after; refusals with the same error), every conformance
scenario, the batch loops against ``unokit.bench``'s, and malformed positions.

Skipped when the extension is not built (an editable install, no compiler); with
``UNOKIT_REQUIRE_FAST=1`` (``scripts/test.sh`` where a compiler is there) that is a failure.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import unokit.fast
from unokit import Game
from unokit.bench import engine_loop, playable_first_loop
from unokit.conformance import build_game, scenario_files
from unokit.core.errors import OptionError, PositionError, UnoError
from unokit.core.options import Options

if not unokit.fast.AVAILABLE:
    if os.environ.get("UNOKIT_REQUIRE_FAST") == "1":
        raise RuntimeError(f"UNOKIT_REQUIRE_FAST=1, but {unokit.fast.WHY}")
    pytest.skip(unokit.fast.WHY, allow_module_level=True)

import fast_diff
from unokit.fast import FastGame, play

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("UNOKIT_CONFORMANCE", ROOT.parent / "shared" / "conformance"))


def test_random_matches_play_the_same_actions_and_positions() -> None:
    """At least 200,000 actions compared, within three minutes."""
    start = time.perf_counter()
    tally = fast_diff.run(200_000, seed=20261203)
    took = time.perf_counter() - start
    assert tally.actions >= 200_000 and tally.refusals > 1000 and tally.reloads > 1000
    assert took < 180, f"{tally.actions} actions took {took:.0f} s"


def _scenarios() -> list[Path]:
    folders = [ROOT / "tests" / "scenarios"] + ([SHARED] if SHARED.is_dir() else [])
    return scenario_files(folders)


@pytest.mark.parametrize("path", _scenarios(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_conformance_scenario_plays_the_same(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    game = build_game(data["setup"])
    fast = FastGame.from_game(game)
    for i, step in enumerate(data["steps"], start=1):
        if "do" not in step:
            continue
        seat, text = step["seat"], step["do"]
        for s in range(game.n):
            assert fast.legal_actions(s) == game.legal_actions(s), (i, s)
        try:
            game.step(seat, text)
        except UnoError as exc:
            with pytest.raises(type(exc)) as mine:
                fast.step(seat, text)
            assert str(mine.value) == str(exc)
        else:
            fast.step(seat, text)
        fast_diff.same(game, fast, f"step {i}")


@pytest.mark.parametrize("edition", ["classic", "cars2", "phineas-ferb"])
@pytest.mark.parametrize("players", [2, 4, 7])
def test_the_batch_plays_the_bench_loops_games(edition: str, players: int) -> None:
    """``play`` without Python between steps: the very games of the Python loops, step for step."""
    rng = random.Random(players)
    opts = fast_diff.random_options(rng, players, edition)
    for policy, loop in (("uniform", engine_loop), ("playable-first", playable_first_loop)):
        for deals, match in (("stream", False), ("seeded", False), ("stream", True)):
            games = 3 if match else 20
            want = loop(games, seed=7, players=players, edition=edition, options=opts, match=match,
                        deals=deals)
            got = play(games, seed=7, players=players, edition=edition, options=opts, policy=policy,
                       match=match, deals=deals)
            assert got == want, (policy, deals, match)


def test_the_batch_reports_progress_and_refuses_what_it_does_not_know() -> None:
    seen: list[int] = []
    assert play(3, progress=seen.append)[0] == 3 and seen == [1, 2, 3]
    with pytest.raises(ValueError, match="unknown policy 'greedy'"):
        play(1, policy="greedy")
    with pytest.raises(OptionError, match="hand_size 15 is too large for 10 players"):
        play(1, players=10, options=Options(hand_size=15))


def test_new_refuses_what_the_engine_refuses() -> None:
    with pytest.raises(OptionError, match="mode 'partners' needs 4, 6, 8 or 10 players"):
        FastGame.new("classic", 5, Options(mode="partners"), seed=1)
    with pytest.raises(OptionError, match="unknown edition 'uno-flip'"):
        FastGame.new("uno-flip", 2, seed=1)
    game = FastGame.new("classic", 2, seed=3)
    assert game.awaiting in ("play", "color") and not game.is_over
    assert game.to_game().state() == Game.new("classic", 2, seed=3).state()


def _mutations() -> st.SearchStrategy[Any]:
    leaf = st.none() | st.booleans() | st.integers(-3, 300) | st.integers() | st.floats() \
        | st.text(max_size=4) | st.sampled_from(["R1", "W+4", "play", "respond", "R", "classic"])
    return st.recursive(leaf, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=8)


_BASE = Game.new("phineas-ferb", 3, Options(stacking="progressive"), seed=11)
for _ in range(12):
    _BASE.step(_BASE.turn, _BASE.legal_actions(_BASE.turn)[0])
_POSITION = _BASE.to_dict()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=st.sampled_from(sorted(_POSITION["game"])), value=_mutations(),
       index=st.integers(0, 5))
def test_malformed_positions_raise_position_error(field: str, value: Any, index: int) -> None:
    """A position with one field replaced (or one entry of a list field): PositionError, as the
    engine says, or the same game when the engine takes it."""
    data = json.loads(json.dumps(_POSITION))
    old = data["game"][field]
    if isinstance(old, list) and old and index < len(old):
        old[index] = value
    else:
        data["game"][field] = value
    try:
        game = Game.from_dict(data)
    except PositionError as exc:
        with pytest.raises(PositionError) as mine:
            FastGame.from_dict(data)
        assert str(mine.value) == str(exc)
        return
    try:
        fast = FastGame.from_dict(data)
    except PositionError as exc:  # a value the engine holds but the C core cannot: named
        assert "unokit.fast cannot hold" in str(exc)
        return
    assert fast.state() == game.state()


def test_without_the_extension_the_engine_plays_alone() -> None:
    """With the extension absent, ``import unokit`` works and ``unokit.fast`` says why in one line."""
    code = ("import sys; sys.modules['unokit.fast._core'] = None\n"
            "import unokit, unokit.fast\n"
            "from unokit.bench import native_core\n"
            "print(unokit.fast.AVAILABLE); print(unokit.fast.WHY); print(native_core())\n"
            "try:\n    unokit.fast.FastGame.new('classic', 2, seed=1)\n"
            "except RuntimeError as exc:\n    print('refused:', exc)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")}).stdout.splitlines()
    assert out[0] == "False"
    assert out[1].startswith("unokit.fast is unavailable: its C extension is not built")
    assert "native core: not built" in out[2]
    assert out[3] == f"refused: {out[1]}"
