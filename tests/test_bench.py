"""The benchmark loops and ``unokit bench`` work (functional checks only: no timing thresholds)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unokit.fast
from unokit.bench import (
    DEALS,
    ENGINE_LOOPS,
    FAST_LOOPS,
    LOOPS,
    PROCESS_SEED_STRIDE,
    engine_build,
    engine_loop,
    fast_loop,
    fast_playable_first_loop,
    gym_loop,
    measure,
    measure_parallel,
    native_core,
    observe_loop,
    pettingzoo_loop,
    playable_first_loop,
    playable_first_observe_loop,
    playable_first_playout_loop,
    playout_loop,
)
from unokit.cli import main
from unokit.core.actions import ACTION_KIND, DRAW, K_PLAY, PASS
from unokit.core.game import Game
from unokit.core.options import Options
from unokit.core.phases import DRAWN, PLAY, ROUND_OVER

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


@pytest.mark.parametrize("players", [2, 4])
def test_playable_first_loop_plays_short_rounds(players: int) -> None:
    games, steps = playable_first_loop(30, seed=1, players=players)
    assert games == 30
    # RLCard's action space: rounds of tens of steps, not the ~1,000 of uniform random play.
    assert 20 < steps / games < 150
    assert playable_first_loop(3, seed=4, players=players) == playable_first_loop(3, seed=4, players=players)
    options = Options.from_mapping({"stacking": "progressive", "seven_zero": True, "jump_in": True,
                                    "force_play": True, "draw_until_playable": True})
    assert playable_first_loop(2, seed=3, players=4, edition="cars2", options=options)[0] == 2


@pytest.mark.parametrize("players", [2, 5])
def test_playable_first_observe_loop_plays_the_same_games(players: int) -> None:
    # The observation's legal actions are the engine's, so the same seeds make the same moves.
    options = Options.from_mapping({"jump_in": True, "stacking": "progressive"})
    for edition in ("classic", "phineas-ferb"):
        assert playable_first_observe_loop(4, seed=6, players=players, edition=edition,
                                           options=options) == \
            playable_first_loop(4, seed=6, players=players, edition=edition, options=options)


@pytest.mark.skipif(engine_build() != "pure Python", reason="patches Game.step (a compiled class is fixed)")
def test_playable_first_policy_draws_only_when_nothing_is_playable() -> None:
    # Replays the policy's choices and checks each against the legal list it was taken from.
    seen = {"play": 0, "draw": 0, "drawn play": 0, "pass": 0}
    original = Game.step

    def checked(game: Game, seat: int, action: int | str) -> None:
        assert isinstance(action, int)
        legal = game.legal_actions(seat)
        plays = [a for a in legal if ACTION_KIND[a] == K_PLAY]
        if game.phase == PLAY:
            assert (action == DRAW) == (not plays)
            seen["draw" if action == DRAW else "play"] += 1
        elif game.phase == DRAWN:
            assert (action == PASS) == (not plays)
            seen["pass" if action == PASS else "drawn play"] += 1
        original(game, seat, action)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Game, "step", checked)
        playable_first_loop(5, seed=2, players=3)
    assert all(seen.values()), seen


def test_engine_build_is_named() -> None:
    # .venv is an editable, pure-Python install; scripts/test-compiled.sh runs these tests
    # again against `pip install .`, the mypyc build.
    assert engine_build() in ("pure Python", "compiled (mypyc)")


def _fields(cls: type) -> list[str]:
    """Every instance field of ``cls``: its ``__slots__`` in the pure-Python build, or the
    attribute descriptors of a class compiled by mypyc (which has no ``__slots__``; its
    properties are listed too, harmlessly)."""
    slots = getattr(cls, "__slots__", None)
    if slots is not None:
        return list(slots)
    return [n for n, v in vars(cls).items() if type(v).__name__ == "getset_descriptor"]


def test_copy_is_independent_and_complete() -> None:
    game = Game.new("classic", 3, seed=11)
    rng = __import__("random").Random(1)
    for _ in range(40):
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    other = game.copy()
    skip = ("_rng", "rng", "rounds", "_events")
    fields = [s for s in _fields(Game) if s not in skip]
    assert len(fields) > 35  # every field of the state and what is derived from it
    assert {s: getattr(other, s) for s in fields} == {s: getattr(game, s) for s in fields}
    assert other.rng.getstate() == game.rng.getstate()
    assert other.state() == game.state()
    for _ in range(200):  # both play on identically, and apart
        if game.phase >= ROUND_OVER:
            break
        a = rng.choice(game.legal_actions(game.turn))
        hands = [list(h) for h in other.hands]
        game.apply(game.turn, a)
        assert other.hands == hands
        other.apply(other.turn, a)
        assert other.hands == game.hands and other.discard == game.discard
    assert other.history == game.history and other.rounds[-1].actions is other.history


def _play_in_lockstep(games: list[Game], seed: int) -> bool:
    """Play the same random actions in every game to the end of the round, checking that the
    draw piles stay equal; returns whether the draw pile was ever reshuffled (T6)."""
    import random

    chooser = random.Random(seed)
    first = games[0]
    reshuffled = False
    while first.phase < ROUND_OVER:
        a = chooser.choice(first.legal_actions(first.turn))
        before = len(first.draw_pile)
        for g in games:
            g.apply(g.turn, a)
        reshuffled = reshuffled or len(first.draw_pile) > before
        assert all(g.draw_pile == first.draw_pile for g in games)
    return reshuffled


def test_round_generator_is_made_when_needed_from_the_seed() -> None:
    # Game.new does not seed the round's generator (T6, S3) until something draws from it; a
    # round must play the same whether it was made early (read here), late, or in a copy.
    import random

    game = Game.new("classic", 2, seed=5)
    late, early = game.copy(), game.copy()
    assert early.rng.getstate() == random.Random(f"unokit:5:{game.round_no}:play").getstate()
    copied = early.copy()  # a copy of a made generator carries its state, not its identity
    assert copied.rng is not early.rng and copied.rng.getstate() == early.rng.getstate()
    assert _play_in_lockstep([late, early, copied], 2)  # the generator was used (rounds are long)
    assert late.rng.getstate() == early.rng.getstate() == copied.rng.getstate()


def test_reseed_gives_the_generator_of_that_seed_when_first_needed() -> None:
    # The strong bot reseeds each sampled copy instead of assigning a new generator: the
    # numbers must be the same as random.Random(seed)'s, also through a copy made before the
    # generator is, and the next round goes back to the generator derived from the match seed.
    import random

    game = Game.new("classic", 2, seed=5)
    assigned, reseeded = game.copy(), game.copy()
    assigned.rng = random.Random(99)
    reseeded.reseed(99)
    copied = reseeded.copy()
    assert _play_in_lockstep([assigned, reseeded, copied], 3)
    assert assigned.rng.getstate() == reseeded.rng.getstate() == copied.rng.getstate()
    if reseeded.phase == ROUND_OVER:
        reseeded.start_round()
        derived = random.Random(f"unokit:5:{reseeded.round_no}:play")
        assert reseeded.rng.getstate() == derived.getstate()


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
    with pytest.raises(ValueError, match="unknown loop 'nope'"):
        measure("nope", games=1)
    with pytest.raises(ValueError, match=r"unknown deals 'shuffled' \(deals: stream, seeded\)"):
        measure("engine", games=1, deals="shuffled")
    with pytest.raises(ValueError, match="unknown deals"):
        engine_loop(1, deals="")
    assert {"engine": engine_loop, "observe": observe_loop,
            "engine-rlpolicy": playable_first_loop,
            "observe-rlpolicy": playable_first_observe_loop, "playout": playout_loop,
            "playout-rlpolicy": playable_first_playout_loop, "fast": fast_loop,
            "fast-rlpolicy": fast_playable_first_loop, "gym": gym_loop,
            "pettingzoo": pettingzoo_loop} == LOOPS


def test_loops_deal_from_their_stream_or_from_each_games_seed() -> None:
    # stream (the default): game i is dealt from the loop's one generator, which also makes
    # the choices; seeded: from game i's own seed.
    import random

    for deals in DEALS:
        rng = random.Random(3)
        steps = 0
        for i in range(3):
            game = Game.new("classic", 2, seed=3 * 1_000_003 + i,
                            deal_rng=rng if deals == "stream" else None)
            steps += _steps_of(game, rng)
        assert engine_loop(3, seed=3, deals=deals) == (3, steps)
        assert measure("engine", games=3, seed=3, deals=deals).steps == steps
    assert engine_loop(3, seed=3) == engine_loop(3, seed=3, deals="stream")


def _steps_of(game: Game, rng: object) -> int:
    """Play ``game``'s round as :func:`engine_loop` does: a uniform choice from ``rng``."""
    import random

    assert isinstance(rng, random.Random)
    steps = 0
    while game.phase < ROUND_OVER:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
        steps += 1
    return steps


def test_measure_parallel_shares_the_games_out_with_their_own_seeds() -> None:
    # 7 games over 3 processes: 3, 2, 2, each process from its own seed; process 0 plays what
    # a single process would. The counts reproduce (the times do not).
    result = measure_parallel("engine-rlpolicy", 3, games=7, seed=5, players=3)
    expected = sum(playable_first_loop(n, 5 + k * PROCESS_SEED_STRIDE, 3)[1]
                   for k, n in enumerate([3, 2, 2]))
    assert (result.loop, result.games, result.steps) == ("engine-rlpolicy", 7, expected)
    assert result.seconds > 0
    # Fewer games than processes: only as many processes as games.
    one = measure_parallel("engine", 4, games=1, seed=2)
    assert (one.games, one.steps) == (1, engine_loop(1, 2)[1])
    # One process is measure itself.
    assert measure_parallel("observe", 1, games=2, seed=9).steps == measure("observe", games=2, seed=9).steps


def test_measure_parallel_time_boxed_and_bad_arguments() -> None:
    timed = measure_parallel("engine", 2, seconds=0.05)
    assert timed.games >= 2 and timed.seconds >= 0.05  # each process plays at least one game
    for kwargs in ({"jobs": 0}, {"games": 1, "seconds": 1.0}, {"loop": "nope"}, {"deals": "x"}):
        with pytest.raises(ValueError):
            measure_parallel(**{"loop": "engine", "jobs": 2, **kwargs})


def test_unokit_bench_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "4", "--jobs", "2", "--loop", "engine", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "(4 rounds," in out and "2 processes at once" in out
    assert main(["bench", "--games", "3", "--jobs", "2", "--loop", "engine", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["jobs"] == 2 and doc["loops"][0]["games"] == 3
    assert main(["bench", "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


def test_unokit_bench_command(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["bench", "--games", "2", "--players", "3", "--option", "stacking=progressive",
                   "--no-progress"])
    out = capsys.readouterr().out
    assert status == 0
    assert "3 players" in out and "stacking=progressive" in out
    assert "rounds/s" in out and "steps/s" in out
    lines = out.splitlines()
    k = 1 + len(ENGINE_LOOPS)  # the native core's loops too, where it is built
    rows = [line.split()[0] for line in lines[1:k]]
    assert rows == ["engine", "observe", "engine-rlpolicy", "observe-rlpolicy", "playout",
                    "playout-rlpolicy", *(FAST_LOOPS if unokit.fast.AVAILABLE else ())]
    assert lines[k].startswith("  Python ") and native_core() in lines[k]
    # The pure-Python build points to the compiled one; the compiled build does not.
    assert (len(lines) == k + 2 and "mypyc" in lines[k + 1]) == (engine_build() == "pure Python")


def test_unokit_bench_seconds_and_one_loop(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.05", "--loop", "engine", "--match", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "matches/s" in out and "observe" not in out.split("\n", 1)[1]


def test_unokit_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["bench", "--games", "3", "--players", "3", "--loop", "engine-rlpolicy",
                   "--option", "stacking=progressive", "--seed", "4", "--json"])
    out = capsys.readouterr().out
    assert status == 0
    doc = json.loads(out)  # nothing but the JSON document on stdout
    assert doc["players"] == 3 and doc["edition"] == "classic" and doc["seed"] == 4
    assert doc["options"] == {"stacking": "progressive"} and doc["game"] == "round"
    assert doc["engine_build"] == engine_build()
    [row] = doc["loops"]
    assert row["loop"] == "engine-rlpolicy" and row["games"] == 3
    # The same seeded games as the library call: the counts, not the times, are reproducible.
    assert row["steps"] == playable_first_loop(3, 4, 3, "classic",
                                               Options.from_strings(["stacking=progressive"]))[1]
    assert row["steps_per_game"] == row["steps"] / 3 and row["games_per_s"] > 0
    assert doc["deals"] == "stream"
    # --deals seeded plays the games dealt from each game's own seed.
    assert main(["bench", "--games", "3", "--players", "3", "--loop", "engine-rlpolicy",
                 "--deals", "seeded", "--seed", "4", "--json"]) == 0
    seeded = json.loads(capsys.readouterr().out)
    assert seeded["deals"] == "seeded"
    assert seeded["loops"][0]["steps"] == playable_first_loop(3, 4, 3, deals="seeded")[1]


def test_unokit_bench_rejects_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "0"]) == 2
    assert main(["bench", "--games", "1", "--option", "nope=1"]) == 2
    assert "unokit: error:" in capsys.readouterr().err
    for bad in (["--players", "1"], ["--players", "2", "--option", "mode=partners"],
                ["--players", "10", "--option", "hand_size=15"]):
        assert main(["bench", "--games", "1", *bad]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("unokit: error:") == 1, (bad, out, err)


def test_benchmark_arena_scaling_line(tmp_path: Path) -> None:
    # bench.py --arena-games: the arena with --jobs 1 and 2, and beside it the same games played
    # bare in 1 and 2 processes (what the machine gives two processes). No thresholds.
    out = tmp_path / "scaling.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--quick", "--arena-games", "4",
         "--arena-only", "--repeats", "1", "--json", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "unokit arena --bots heuristic,heuristic --games 4" in proc.stdout
    assert "the same games played bare" in proc.stdout
    doc = json.loads(out.read_text())
    assert doc["rows"] == []  # --arena-only: no loop tables
    for key in ("arena", "process_scaling"):
        runs = doc[key]["runs"]
        assert sorted(jobs for jobs, _ in runs) == [1, 2] and all(rate > 0 for _, rate in runs)
        # The CPU time of each run beside its wall clock: how busy the two processes were.
        cpu = doc[key]["cpu_seconds"]
        assert [j for j, _ in cpu] == [j for j, _ in runs] and all(c > 0 for _, c in cpu)
        summary = doc[key]["summary"]
        assert summary["cpu_ratio"] == pytest.approx(summary["cpu_2"] / summary["cpu_1"])
        assert 0 < summary["cpus_busy"] <= 2.5  # CPU seconds over wall seconds, 2 processes
    assert proc.stdout.count("  CPU time a run") == 2
    rate = dict(doc["arena"]["runs"])
    verdict = "met" if rate[2] / rate[1] >= 1.8 else "not met"
    assert f"(target: 1.8×, {verdict})" in proc.stdout


@pytest.mark.parametrize("loop_args", [["--quick"], ["--loop", "observe-rlpolicy", "--quick"],
                                       ["--loop", "arena", "--games", "20", "--players", "3"]])
def test_memory_benchmark_runs(loop_args: list[str]) -> None:
    # The CI smoke run of benchmarks/memory.py (bench.py: tests/test_bench_rlcard.py).
    args = [sys.executable, str(ROOT / "benchmarks" / "memory.py"), *loop_args, "--samples", "2"]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "RSS growth over" in proc.stdout and "PASS" in proc.stdout
    if "arena" in loop_args:
        assert "arena loop: heuristic,heuristic matches, 3 players" in proc.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--loop", "arena", "--bots", "heuristic,nobody", "--games", "2"], "unknown bot 'nobody'"),
    (["--games", "0"], "--games must be at least 1"),
    (["--players", "11"], "--players must be 2 to 10, not 11"),
    (["--samples", "0"], "--samples must be at least 1"),
])
def test_memory_benchmark_rejects_bad_arguments(args: list[str], message: str) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "memory.py"), *args],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert message in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "2", "11"], "--players: 11 is not a player count (2 to 10)"),
    (["--target-seconds", "0"], "--target-seconds must be positive"),
    (["--memory-games", "0"], "--memory-games must be at least 1"),
    (["--arena-games", "-1"], "--arena-games must be at least 0"),
    (["--deals", "nope"], "--deals: invalid choice: 'nope'"),
])
def test_benchmark_rejects_bad_arguments(args: list[str], message: str) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--quick", *args],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_fast_draws_replay_random_shuffle_and_randrange() -> None:
    # The deal, T6 and the strong bot's sampling use unokit.core.shuffles: it must give exactly
    # random.shuffle's order and randrange's numbers and leave the generator in the same state,
    # or every seed and record would deal differently and the strength series would not replay.
    import random

    from unokit.core.shuffles import randbelow, shuffle

    for seed in range(200):
        for n in (0, 1, 2, 3, 7, 108, 112):
            a, b = list(range(n)), list(range(n))
            r1, r2 = random.Random(seed), random.Random(seed)
            r1.shuffle(a)
            shuffle(r2, b)
            assert a == b and r1.getstate() == r2.getstate()
        r1, r2 = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 5, 52, 63, 64, 65, 107, 2**62):
            assert r1.randrange(n) == randbelow(r2, n)
        assert r1.getstate() == r2.getstate()
    with pytest.raises(ValueError, match="n >= 1"):
        randbelow(random.Random(0), 0)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 112), st.integers(0, 120))
def test_shuffle_tail_fills_the_places_a_whole_shuffle_would(seed: int, n: int, k: int) -> None:
    # Streamed S1 draws k cards with shuffle_tail: they must be the very cards a whole shuffle
    # puts in the last k places (a uniform draw), at the cost of k draws only.
    import random

    from unokit.core.shuffles import shuffle_tail

    whole, tail = list(range(n)), list(range(n))
    random.Random(seed).shuffle(whole)
    rng = random.Random(seed)
    shuffle_tail(rng, tail, k)
    kept = min(k, n)
    assert tail[n - kept:] == whole[n - kept:]
    assert sorted(tail) == list(range(n))  # a permutation: nothing lost or duplicated
    # It drew once per place (randrange's numbers), no more.
    ref = random.Random(seed)
    for i in range(n - 1, max(n - 1 - k, 0), -1):
        ref.randrange(i + 1)
    assert rng.getstate() == ref.getstate()


def test_fast_draws_leave_other_generator_classes_to_their_own_methods() -> None:
    import random

    from unokit.core.shuffles import randbelow, shuffle

    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

        def randrange(self, *args: object, **kwargs: object) -> int:  # type: ignore[override]
            return 42

    x = [1, 2, 3]
    shuffle(Reversing(0), x)
    assert x == [3, 2, 1]
    assert randbelow(Reversing(0), 5) == 42
    from unokit.core.shuffles import shuffle_tail

    class Zeros(random.Random):
        def randrange(self, *args: object, **kwargs: object) -> int:  # type: ignore[override]
            return 0

    y = [1, 2, 3, 4, 5, 6]
    shuffle_tail(Zeros(0), y, 2)  # the last two places swap with place 0, in turn
    assert y == [5, 2, 3, 4, 6, 1]


def test_observation_init_takes_every_field_in_order() -> None:
    # Observation.__init__ is written out (so mypyc builds it natively): it must stay in step
    # with the dataclass fields, which equality, repr and dataclasses.replace rely on.
    import dataclasses
    import inspect

    from unokit.core.observation import Observation

    fields = [f.name for f in dataclasses.fields(Observation)]
    if engine_build() == "pure Python":  # a compiled __init__ shows only (*args, **kwargs)
        assert list(inspect.signature(Observation.__init__).parameters)[1:] == fields
    obs = Game.new("classic", 3, seed=2).observe(1)
    copy = dataclasses.replace(obs, seat=obs.seat)
    assert copy == obs and copy is not obs
    assert dataclasses.replace(obs, color=(obs.color + 1) % 4) != obs


def test_compare_times_two_builds_run_by_run_and_judges_the_medians(tmp_path: Path) -> None:
    import unokit

    src = Path(unokit.__file__).parent.parent  # the build under test, on both sides
    out = tmp_path / "compare.json"
    script = str(ROOT / "benchmarks" / "compare.py")
    proc = subprocess.run([sys.executable, script, str(src), str(src), "--loops", "engine", "playout",
                           "--runs", "2", "--seconds", "0.2", "--limit", "1000", "--json", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    for loop in ("engine", "playout"):
        entry = report["loops"][loop]
        assert len(entry["runs"]["before"]) == len(entry["runs"]["after"]) == 2
        assert entry["same_steps"], entry  # the same games on both sides
        assert f"{loop} " in proc.stdout
    assert "against the limit of -1000%: kept" in proc.stdout


def test_compare_refuses_a_folder_without_unokit(tmp_path: Path) -> None:
    script = str(ROOT / "benchmarks" / "compare.py")
    proc = subprocess.run([sys.executable, script, str(tmp_path), str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "holds no unokit package" in proc.stderr
    assert "Traceback" not in proc.stderr
