"""Game records (docs/records.md), `unokit replay`, `unokit demo` and `unokit conformance`.

The property test plays random matches (every edition, 2-10 players, random options, host
penalties included), writes the record through JSON, replays it and checks that the replayed
game is the identical state, at the end and part-way through a round.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import random_step, snapshot, walk
from test_properties import matches
from unokit import Game, Options, RecordError
from unokit.cli import main
from unokit.conformance import run_files, run_scenario, scenario_files
from unokit.core.actions import Action, penalize_action
from unokit.core.record import load_game, read_record, record_of, replay, same_game, write_record

SCENARIOS = Path(__file__).parent / "scenarios"


def _state(game: Game) -> tuple[Any, ...]:
    """The game's snapshot, but for the caller's deal stream, which a record does not keep."""
    state, *views = snapshot(game)
    return (dataclasses.replace(state, deal_rng=None), *views)


def _penalty(game: Game, rng: random.Random) -> Action | None:
    """Now and then a host's penalty on a seat still in the match."""
    if rng.random() < 0.02:
        return penalize_action(rng.choice([s for s in range(game.n) if not game.eliminated[s]]))
    return None


def _play(game: Game, rng: random.Random, steps: int) -> None:
    for _ in walk(game, rng, steps, host=_penalty):
        pass


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches(max_target=150), st.integers(0, 600))
def test_prop_record_replays_to_the_identical_state(match: tuple[Game, random.Random], steps: int) -> None:
    """Round-trip: record -> JSON -> replay gives the same state, including every seat's view,
    the legal actions, the in-round random generator and the match totals."""
    game, rng = match
    _play(game, rng, steps)
    data = json.loads(json.dumps(record_of(game)))
    again = replay(data)
    assert _state(again) == _state(game)
    # The replayed game goes on exactly like the original (given its stream, if it had one).
    if game.deal_rng is not None:
        again.deal_rng = copy.copy(game.deal_rng)
    _play(game, random.Random(1), 50)
    _play(again, random.Random(1), 50)
    assert _state(again) == _state(game)


def test_record_of_a_stacked_round_keeps_the_piles_and_totals() -> None:
    """A round set up with stacked piles is recorded as piles, with the totals before it."""
    game = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1", "Y2"],
                           dealer=1, scores=[10, 20], seed=5)
    game.apply(0, "draw")
    game.apply(0, "pass")
    data = record_of(game)
    assert data["rounds"][0]["hands"] == [["R1", "G2"], ["R5", "B7"]]
    assert data["rounds"][0]["draw"] == ["Y1", "Y2"]
    assert data["rounds"][0]["scores"] == [10, 20]
    assert data["rounds"][0]["actions"] == ["0 draw", "0 pass"]
    assert _state(replay(data)) == _state(game)


def test_replay_stops_part_way_with_upto() -> None:
    """``upto=(round, n)`` replays the first n actions of a round."""
    game = Game.from_setup(hands=[["R1", "G2", "B3"], ["R5", "B7"]], discard="R3", draw=["Y1"],
                           dealer=1)
    game.apply(0, "R1")
    partial = replay(record_of(game), upto=(0, 0))
    assert partial.hand_sizes() == [3, 2]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="chess"), "not a unokit record"),
        (lambda d: d.update(version=9), "unsupported record version"),
        (lambda d: d.update(rounds=[]), "non-empty 'rounds'"),
        (lambda d: d.update(options={"stacking": "maybe"}), "'options': option 'stacking'"),
        (lambda d: d["rounds"][0].update(deck=["R1", "XX"]), "round 1: 'deck': 'XX' is not a card"),
        (lambda d: d["rounds"][0]["actions"].insert(0, "0 W+4"), "round 1: 'actions': 'W\\+4': a wild card"),
        (lambda d: d["rounds"][0].update(deck=["R1", "R2"]), "round 1: bad deal"),
        (lambda d: d["rounds"][0]["actions"].insert(0, "zero draw"), "not a seat number"),
        (lambda d: d["rounds"][0]["actions"].insert(0, "1 catch 9"), "round 1, action 1"),
        (lambda d: d.update(options=["target=1"]), "'options' must be an object"),
        (lambda d: d.update(edition="uno"), "unknown edition 'uno'"),
        (lambda d: d.pop("edition"), "'edition' must be one of"),
        (lambda d: d["rounds"][0].update(eliminated=[9]), "'eliminated': seat 9 does not exist"),
        (lambda d: d["rounds"][0].pop("deck"), "'hands', 'discard', 'draw' missing"),
    ],
)
def test_malformed_records_are_one_clear_error(change: Any, message: str) -> None:
    """A bad record raises RecordError naming what is wrong (and where)."""
    game = Game.new("classic", 3, seed=4)
    data = json.loads(json.dumps(record_of(game)))
    change(data)
    with pytest.raises(RecordError, match=message):
        replay(data)


def test_write_and_load_a_record(tmp_path: Path) -> None:
    """write_record / load_game round-trip through a file; a non-JSON file is a RecordError."""
    game = Game.new("phineas-ferb", 4, seed=8)
    for _ in range(30):
        seat, action = random_step(game, random.Random(3))
        game.apply(seat, action)
    path = tmp_path / "game.json"
    write_record(game, path)
    assert _state(load_game(path)) == _state(game)
    assert read_record(path)["edition"] == "phineas-ferb"
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match=r"bad\.json") as info:
        load_game(bad)
    assert str(info.value).count("bad.json") == 1  # the file is named once, not twice


def test_same_game_knows_a_save_of_the_match_from_anything_else() -> None:
    """same_game: a record of the match at another moment is the same game; another seed,
    edition, option or deal is not, nor is anything that is no record."""
    game = Game.new("classic", 3, seed=6)
    mine = json.loads(json.dumps(record_of(game)))
    older = json.loads(json.dumps(mine))
    for _ in range(12):
        seat, action = random_step(game, random.Random(2))
        game.apply(seat, action)
    later = json.loads(json.dumps(record_of(game)))
    assert later["rounds"][0]["actions"] != mine["rounds"][0]["actions"]
    assert same_game(later, mine) and same_game(older, mine) and same_game(mine, later)
    assert not same_game(record_of(Game.new("classic", 3, seed=7)), mine)
    assert not same_game(record_of(Game.new("cars2", 3, seed=6)), mine)
    assert not same_game(record_of(Game.new("classic", 3, Options(target=300), seed=6)), mine)
    other_deal = json.loads(json.dumps(mine))
    other_deal["rounds"][0]["dealer"] = (mine["rounds"][0]["dealer"] + 1) % 3
    assert not same_game(other_deal, mine)
    for junk in (None, "text", [mine], {}, {**mine, "rounds": []}, {**mine, "rounds": "x"},
                 {**mine, "rounds": [None]}):
        assert not same_game(junk, mine), junk


def test_cli_demo_saves_a_record_that_replay_prints(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`unokit demo --save F` plays a seeded match; `unokit replay F` prints the same moves."""
    path = tmp_path / "demo.json"
    assert main(["demo", "--players", "3", "--seed", "2", "--option", "target=60",
                 "--save", str(path)]) == 0
    demo_out = capsys.readouterr().out
    assert main(["replay", str(path)]) == 0
    replay_out = capsys.readouterr().out
    assert demo_out == replay_out
    assert "== Round 1: dealer Player" in replay_out
    assert "hands: Player 1:" in replay_out
    assert "Winner: Player" in replay_out
    assert "seat" not in replay_out  # people read players numbered from 1


def test_cli_conformance_prints_one_line_each_and_a_total(capsys: pytest.CaptureFixture[str]) -> None:
    """`unokit conformance DIR` prints PASS lines and the closing count, exit 0."""
    assert main(["conformance", str(SCENARIOS)]) == 0
    lines = capsys.readouterr().out.splitlines()
    files = list(SCENARIOS.rglob("*.json"))
    assert sum(line.startswith("PASS ") for line in lines) == len(files)
    assert lines[-1] == f"{len(files)} passed, 0 failed"


def test_cli_replay_says_when_a_record_ends_before_the_match(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A saved, unfinished game replays to where it stops, and says that the match goes on."""
    game = Game.new("classic", 2, seed=3)
    _play(game, random.Random(1), 5)
    path = tmp_path / "saved.json"
    write_record(game, path)
    assert main(["replay", str(path)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("The record ends before the match is over: Player ")
    assert f"unokit play --resume {path}" in last
    finished = tmp_path / "done.json"
    assert main(["demo", "--players", "2", "--seed", "1", "--option", "target=30",
                 "--save", str(finished)]) == 0
    capsys.readouterr()
    assert main(["replay", str(finished)]) == 0
    assert "The record ends" not in capsys.readouterr().out


def test_conformance_a_bad_edition_or_options_is_one_failed_scenario(tmp_path: Path) -> None:
    """One scenario with an unknown edition or options given as a list fails alone, named; the
    run goes on to the next file."""
    base = {"name": "ok", "setup": {"hands": [["R1"], ["R2"]], "discard": "R3", "draw": ["R4"]},
            "steps": [{"expect": {"turn": 1}}]}
    bad_edition = json.loads(json.dumps(base))
    bad_edition["setup"]["edition"] = "uno"
    bad_options = json.loads(json.dumps(base))
    bad_options["setup"]["options"] = ["target=1"]
    for name, data in (("a", bad_edition), ("b", bad_options), ("c", base)):
        (tmp_path / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
    results = run_files(scenario_files([tmp_path]))
    assert [r.passed for r in results] == [False, False, True]
    assert "unknown edition 'uno'" in results[0].message
    assert "options must be a mapping" in results[1].message


def test_conformance_strict_fails_an_error_step_that_is_not_an_action() -> None:
    """``"error": true`` on text that is not an action passes by default (the engine refuses
    to read it) and is a malformed scenario with ``strict``, which catches misspelt actions."""
    data = {"name": "typo", "setup": {"hands": [["R1"], ["R2"]], "discard": "R3", "draw": ["R4"]},
            "steps": [{"seat": 1, "do": "frob", "error": True}]}
    assert run_scenario(data).passed
    strict = run_scenario(data, strict=True)
    assert not strict.passed and "malformed scenario" in strict.message and "frob" in strict.message
    refused = {**data, "steps": [{"seat": 0, "do": "R1", "error": True}]}  # out of turn
    assert run_scenario(refused, strict=True).passed


def test_cli_conformance_reports_failures_and_malformed_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A wrong expectation is `FAIL name: step N: ...`; a malformed scenario names the file and
    the step and does not crash; exit 1; --json gives the same results."""
    wrong = json.loads((SCENARIOS / "10-skip-turned-up-first-the-dealer-s-left-neighbour-is-skipped.json")
                       .read_text(encoding="utf-8"))
    wrong["steps"][0]["expect"]["turn"] = 1
    (tmp_path / "a-wrong.json").write_text(json.dumps(wrong), encoding="utf-8")
    broken = {"name": "broken", "setup": {"hands": [["R1"], ["R2"]], "discard": "R3", "draw": []},
              "steps": [{"seat": 1, "do": "R2", "expect": {"colour": "R"}}]}
    (tmp_path / "b-broken.json").write_text(json.dumps(broken), encoding="utf-8")
    (tmp_path / "c-not-json.json").write_text("{", encoding="utf-8")
    assert main(["conformance", str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"FAIL {wrong['name']}: step 1: turn: expected 1, got 2"
    assert lines[1].startswith("FAIL broken: step 1: malformed scenario: unknown expect key 'colour'")
    assert "b-broken.json" in lines[1]
    assert lines[2].startswith("FAIL ") and "c-not-json.json is not JSON" in lines[2]
    assert lines[-1] == "0 passed, 3 failed"
    assert main(["conformance", "--json", str(tmp_path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert (out["passed"], out["failed"]) == (0, 3)
    assert out["results"][0]["step"] == 1


def test_cli_bad_input_is_one_line_without_traceback(tmp_path: Path) -> None:
    """Bad input: one `unokit: error:` line on stderr, exit 2, no traceback."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "unokit-record", "version": 1, "rounds": [{"dealer": 9}]}',
                   encoding="utf-8")
    for args in (["replay", str(bad)], ["replay", str(tmp_path / "missing.json")],
                 ["demo", "--option", "stacking=yes"], ["demo", "--players", "11"],
                 ["demo", "--bots", "nobody"], ["conformance", str(tmp_path / "empty")],
                 ["arena", "--bots", "random", "--edition", "uno", "--games", "2"],
                 ["demo", "--option", "target=1e9"]):
        run = subprocess.run([sys.executable, "-m", "unokit", *args], capture_output=True, text=True,
                             timeout=120, check=False)
        assert run.returncode == 2, (args, run.stderr)
        assert run.stderr.startswith("unokit: error: "), (args, run.stderr)
        assert "Traceback" not in run.stderr
        assert len(run.stderr.strip().splitlines()) == 1


def test_narration_tells_draws_wrong_cards_and_missed_calls() -> None:
    """The replay's sentences name the effects: forced draws, a penalised wrong card (P5), a
    missed UNO call and the end of the round."""
    from unokit.narrate import describe

    game = Game.from_setup(hands=[["R1", "G2", "R+2"], ["R5", "G6"], ["Y1"]], discard="R4",
                           draw=["G1", "G3", "G4", "B1", "B2"], dealer=2,
                           options=Options.from_mapping({"illegal_play": "penalize"}))
    lines = []
    for seat, text in ((0, "G2"), (1, "R5"), (2, "draw"), (2, "pass"), (0, "R+2")):
        lines.append("; ".join(describe(e.seen_by(None)) for e in game.apply(seat, text)))
    assert lines[0] == "Player 1 plays G2, a wrong card: it goes back to the hand; Player 1 draws 2"
    assert lines[1] == "Player 2 plays R5; Player 2 has one card left and did not call UNO"
    assert lines[2] == "Player 3 draws"
    assert lines[3] == "Player 3 keeps the card and passes"
    assert lines[4] == "Player 1 plays R+2; Player 2 draws 2; Player 2 is skipped"
