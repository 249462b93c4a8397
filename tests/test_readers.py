"""The position and record readers refuse every malformed field with one clear error.

For every field of a position (``Game.from_dict``, every field of :class:`~unokit.core.state.State`)
and of a record (``replay``, the settings and each round entry), values of the wrong type and
out of range are refused with one :class:`~unokit.core.errors.PositionError` or
:class:`~unokit.core.errors.RecordError` whose message names the field. Nothing else is ever
raised, and a valid position or record beside them still loads.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from unokit import Game, RecordError
from unokit.bots import RandomBot, play_match
from unokit.core.codec import ROUND_FIELDS, parse_action_line
from unokit.core.errors import PositionError
from unokit.core.position import state_from_json
from unokit.core.record import RECORD_FIELDS, record_of, replay
from unokit.core.state import FIELDS


def _position() -> dict[str, Any]:
    """A valid mid-round position of a 3-player match (a few draws in)."""
    game = Game.new("classic", 3, seed=4)
    for _ in range(5):
        game.apply(game.turn, game.legal_actions(game.turn)[-1])
    return json.loads(json.dumps(game.to_dict()))


# Per field of a position: values of the wrong type, and out of range.
BAD_FIELDS: dict[str, list[Any]] = {
    "edition": [5, None, "flip"],
    "options": [[], "x", {"stack": 1}, {"target": "x"}],
    "n": ["3", True, 3.0, None, 1, 11],
    "seed": ["1", True, 1.5, None],
    "deal_rng": [5, [3, "x", None], [3, [1, 2], None, 4]],
    "scores": ["0", None, [True, 0, 0], ["0", 0, 0], [0, 0]],
    "eliminated": ["no", None, [0, 0, 0], [False, False]],
    "round_no": ["0", True, 1.0, None, -1],
    "dealer": ["0", True, None, -1, 3],
    "winners": [0, [True], ["0"], [5]],
    "round_winner": ["0", True, -2, 3],
    "rounds": [{}, "x", None, [5], [{"dealer": "0"}], [{"dealer": True, "deck": []}]],
    "hands": ["R1", None, [[1]], [["R10"]]],
    "draw_pile": ["R1", None, [1], ["X"]],
    "discard": ["R1", None, [1], []],
    "color": [0, None, "", "RY", "P", "r"],
    "turn": [True, "0", 1.0, None, -1, 3],
    "direction": [True, "1", None, 0, 2],
    "phase": [0, None, "dance"],
    "drawn": [5, True, "R10"],
    "pending": [True, "0", 1.5, -1],
    "pending_rank": [True, "x", -2, 99],
    "attacker": [True, "0", -2, 3],
    "bluff": [1, "true", None],
    "owed": [None, [0, 0, 0], [False]],
    "window": [0, [True], ["0"], [5]],
    "seen": [None, [], ["x"], [{"x": []}, {}, {}], [{"1": [5]}, {}, {}], [{"7": []}, {}, {}]],
    "idle_turns": [True, "0", 1.5, -1],
    "blocked": [0, "false", None],
    "rng": [5, [3, "abc", None], [3, [True] * 624 + [624], None], [3, [1] * 624 + [624]]],
    "rng_seed": [True, "1", 1.5],
    "version": [True, "1", 1.5, None, -1],
}


def test_every_field_of_a_position_has_malformed_cases() -> None:
    assert set(BAD_FIELDS) == {name for name, _, _ in FIELDS}


def _names(message: str, field: str) -> bool:
    words = {"color": "colou?r", "rounds": "rounds?", "window": "window", "winners": "winners"}
    return re.search(rf"\b{words.get(field, re.escape(field))}\b", message) is not None


@pytest.mark.parametrize(("field", "value"), [(f, v) for f, vs in BAD_FIELDS.items() for v in vs],
                         ids=[f"{f}={v!r}" for f, vs in BAD_FIELDS.items() for v in vs])
def test_a_malformed_position_field_is_one_position_error_naming_it(field: str, value: Any) -> None:
    data = _position()
    Game.from_dict(data)
    data["game"][field] = value
    with pytest.raises(PositionError) as info:
        Game.from_dict(data)
    assert _names(str(info.value), field), str(info.value)


@pytest.mark.parametrize("line", ["x R7", "-1 R7", "1.5 draw", "\u00b2 draw", "\u0661 draw", " 1 draw", "R7",
                                  "1", 7, None])
def test_an_action_line_whose_seat_is_not_a_plain_number_is_refused(line: Any) -> None:
    """Without the check, ``"-1 R7"`` would read as the host's action (seat -1)."""
    with pytest.raises(RecordError):
        parse_action_line(line)
    data = _position()
    data["game"]["rounds"][-1]["actions"].append(line)
    with pytest.raises(PositionError, match="rounds"):
        state_from_json(data)


def test_action_lines_read_back() -> None:
    assert parse_action_line("2 R7!") == (2, 75)
    assert parse_action_line("host penalize 1") == (-1, 166)
    assert parse_action_line("10 draw") == (10, 136)


def test_a_position_keeps_a_just_drawn_r0() -> None:
    """Card code 0 (R0) is a card like any other: a seat holding a just-drawn R0 keeps it."""
    game = Game.from_setup(hands=[["G1", "G2"], ["B5", "B6"]], discard="R4", draw=["R0", "Y1"], dealer=1)
    game.apply(0, "draw")
    assert game.drawn == 0 and game.awaiting == "drawn"
    data = json.loads(json.dumps(game.to_dict()))
    assert data["game"]["drawn"] == "R0"
    again = Game.from_dict(data)
    assert again.drawn == 0 and again.state() == game.state()
    assert again.legal_actions(0) == game.legal_actions(0)


# ------------------------------------------------------------------ records


def _record() -> dict[str, Any]:
    game = play_match(Game.new("classic", 3, seed=2), [RandomBot(seed=s) for s in range(3)])
    data = json.loads(json.dumps(record_of(game)))
    assert len(data["rounds"]) >= 2
    return data


BAD_SETTINGS: dict[str, list[Any]] = {
    "format": [None, "x", 1],
    "version": [None, 2, True, "1"],
    "edition": [5, None, "flip"],
    "players": ["3", True, 3.0, None, 1, 11],
    "options": [[], "x", {"stack": 1}, {"target": "x"}],
    "seed": ["1", True, 1.5, None],
    "rounds": [[], {}, "x", None, [5]],
}
BAD_ROUND: dict[str, list[Any]] = {
    "dealer": ["0", True, 1.0, None, -1, 3],
    "scores": ["0", 5, [True, 0, 0], ["0", 0, 0]],
    "eliminated": ["x", 0, [True], ["0"], [5]],
    "deck": ["R1", None, [1], ["X"], ["R1"]],
    "hands": ["R1", [["X"]]],
    "actions": ["x", [5], ["x R7"], ["-1 R7"], ["1.5 draw"], ["0 dance"], [None]],
}


def test_every_field_of_a_record_has_malformed_cases() -> None:
    assert set(BAD_SETTINGS) | {"play"} == set(RECORD_FIELDS)
    assert set(BAD_ROUND) | {"discard", "draw"} == set(ROUND_FIELDS)


def _record_error_naming(data: dict[str, Any], field: str) -> None:
    with pytest.raises(RecordError) as info:
        replay(data)
    message = str(info.value)
    words = {"rounds": "rounds?|round 1", "format": "format|record", "version": "version"}
    assert re.search(rf"\b({words.get(field, re.escape(field))})\b", message), message


@pytest.mark.parametrize(("field", "value"), [(f, v) for f, vs in BAD_SETTINGS.items() for v in vs],
                         ids=[f"{f}={v!r}" for f, vs in BAD_SETTINGS.items() for v in vs])
def test_a_malformed_record_setting_is_one_record_error_naming_it(field: str, value: Any) -> None:
    data = _record()
    replay(data)
    data[field] = value
    _record_error_naming(data, field)


@pytest.mark.parametrize("r", [0, 1])
@pytest.mark.parametrize(("field", "value"), [(f, v) for f, vs in BAD_ROUND.items() for v in vs],
                         ids=[f"{f}={v!r}" for f, vs in BAD_ROUND.items() for v in vs])
def test_a_malformed_round_field_is_one_record_error_naming_it(field: str, value: Any, r: int) -> None:
    data = _record()
    data["rounds"][r][field] = value
    if field == "hands":
        data["rounds"][r].pop("deck")
        data["rounds"][r].update(discard="R1", draw=[])
    _record_error_naming(data, field)


@pytest.mark.parametrize("where", ["record", "round"])
def test_an_unknown_record_field_is_refused(where: str) -> None:
    data = _record()
    (data if where == "record" else data["rounds"][0])["extra"] = 1
    with pytest.raises(RecordError, match=r"unknown .*'extra'"):
        replay(data)


def test_the_record_and_the_position_write_rounds_alike() -> None:
    """One codec: a position's rounds are the record's rounds."""
    game = play_match(Game.new("cars2", 4, seed=6), [RandomBot(seed=s) for s in range(4)])
    assert game.to_dict()["game"]["rounds"] == record_of(game)["rounds"]
