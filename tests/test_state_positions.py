"""Positions (``Game.to_dict`` / ``Game.from_dict``, docs/records.md), snapshots, copies, pickling
and determinized worlds (``Game.from_observation``).

- a position of a random game, mid-round, of every edition and with house rules, goes through
  JSON and restores a game that goes on identically: the same legal actions for every seat, the
  same events, the same state at every step, through reshuffles (T6) and later rounds;
- ``copy()`` is equal and independent; ``pickle`` works for Game, Options and Observation (this
  file runs against the compiled build too, by ``scripts/test-compiled.sh``);
- a malformed or inconsistent position is one :class:`~unokit.core.errors.PositionError` naming the
  problem, and no mutation of a position raises anything else;
- a world dealt back into an observation plays like the real game.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import option_maps, random_step
from unokit import EDITIONS, Game, Options, RecordError, UnoError
from unokit.core.errors import PositionError
from unokit.core.events import Drew, Event, Reshuffled
from unokit.core.observation import Observation

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw: st.DrawFn) -> tuple[Game, random.Random]:
    """A new match (2 to 6 players, any edition, any options; dealt from its seed or from a
    stream) and a generator that chooses its actions."""
    edition = draw(st.sampled_from(EDITIONS))
    players = draw(st.integers(2, 6))
    # Sometimes small hands (long rounds: more reshuffles), and a target that ends a match soon.
    options = Options.from_mapping(draw(option_maps(players, edition, hand_size=range(1, 11),
                                                    target=range(1, 601))))
    seed = draw(st.integers(0, 2**32))
    stream = random.Random(seed + 1) if draw(st.booleans()) else None
    return Game.new(edition, players, options, seed=seed, deal_rng=stream), random.Random(seed)


def _step(game: Game, rng: random.Random) -> tuple[Event, ...]:
    """One random step of the match: the next round's deal when a round is over, else a random
    legal action of the seat on turn or, sometimes, of another seat out of turn."""
    if game.awaiting == "round_over":
        return game.start_round()
    seat, action = random_step(game, rng)
    return game.apply(seat, action)


def _play(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        _step(game, rng)


def _through_json(game: Game) -> Game:
    data = game.to_dict()
    text = json.dumps(data)
    assert json.loads(text) == data
    return Game.from_dict(json.loads(text))


def _legal(game: Game) -> list[tuple[int, ...]]:
    return [game.legal_actions(s) for s in range(game.n)]


def _lockstep(a: Game, b: Game, rng: random.Random, steps: int) -> list[Event]:
    """Play ``a`` and ``b`` on with the same choices; they must agree at every step. Returns
    the events."""
    seen: list[Event] = []
    for _ in range(steps):
        assert _legal(a) == _legal(b)
        assert a.state() == b.state()
        if a.is_over:
            break
        if a.awaiting == "round_over":
            events = a.start_round()
            assert b.start_round() == events
        else:
            seat, action = random_step(a, rng)
            events = a.apply(seat, action)
            assert b.apply(seat, action) == events
        seen += events
    assert a.state() == b.state()
    return seen


# --------------------------------------------------------------------------- round trips


@SETTINGS
@given(games(), st.integers(0, 250), st.integers(0, 2**32))
def test_a_position_goes_through_json_and_the_game_goes_on_identically(
        match: tuple[Game, random.Random], before: int, after_seed: int) -> None:
    game, rng = match
    _play(game, rng, before)
    restored = _through_json(game)
    assert restored.state() == game.state()
    assert restored.to_dict() == game.to_dict()
    assert _legal(restored) == _legal(game)
    assert [restored.observe(s) for s in range(game.n)] == [game.observe(s) for s in range(game.n)]
    _lockstep(game, restored, random.Random(after_seed), 300)


@SETTINGS
@given(games(), st.integers(0, 250))
def test_a_snapshot_restores_the_same_game(match: tuple[Game, random.Random], before: int) -> None:
    """``Game.from_state(game.state())``, the position without its JSON."""
    game, rng = match
    _play(game, rng, before)
    restored = Game.from_state(game.state())
    assert restored.state() == game.state()
    _lockstep(game, restored, random.Random(before), 150)


def _until(game: Game, rng: random.Random, done: Callable[[Game], bool], limit: int = 3000) -> bool:
    for _ in range(limit):
        if done(game):
            return True
        if game.is_over:
            return False
        _step(game, rng)
    return False


def _about_to_reshuffle(game: Game) -> bool:
    return game.awaiting == "play" and not game.draw_pile and len(game.discard) > 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_restored_game_draws_the_same_cards_after_a_reshuffle(edition: str) -> None:
    """T6: saved with an empty draw pile, once before the round's first reshuffle (its generator
    not made yet) and once after one (its generator mid-stream), the restored game reshuffles
    the same new draw pile and draws the same cards."""
    game = Game.new(edition, 3, Options(hand_size=12, target=10_000), seed=17)
    rng = random.Random(17)
    reshuffles = 0
    for made in (False, True):
        def ready(g: Game, made: bool = made) -> bool:
            return _about_to_reshuffle(g) and (g.state().rng is not None) == made

        assert _until(game, rng, ready), "no reshuffle came"
        restored = _through_json(game)
        seat = game.turn
        events = game.apply(seat, "draw")
        assert restored.apply(seat, "draw") == events
        assert isinstance(events[0], Reshuffled) and isinstance(events[1], Drew)
        assert restored.draw_pile == game.draw_pile
        reshuffles += 1
        _lockstep(game, restored, random.Random(reshuffles), 60)
    assert reshuffles == 2


def test_random_positions_meet_reshuffles_and_later_rounds() -> None:
    """The random games of the round-trip test reshuffle (T6) after being restored, and play
    into later rounds (so those parts of the property are exercised)."""
    reshuffles = rounds = 0
    for seed in range(20):
        rng = random.Random(seed)
        players = 2 + seed % 5
        game = Game.new(EDITIONS[seed % 3], players, Options(hand_size=3 + seed % 5, target=150),
                        seed=seed)
        _play(game, rng, 60)
        restored = _through_json(game)
        events = _lockstep(game, restored, random.Random(seed), 300)
        reshuffles += sum(isinstance(e, Reshuffled) for e in events)
        rounds += sum(type(e).__name__ == "RoundStarted" for e in events)
    assert reshuffles > 0 and rounds > 0


def test_a_position_after_a_challenge_and_a_peek_keeps_what_was_seen() -> None:
    """``seen`` (a hand shown after a challenge, P3; Mater's peek, C5) goes through JSON."""
    game = Game.from_setup(hands=[["WM", "W+4", "R1", "G1"], ["B5", "G6", "Y3"], ["Y7", "G2", "B8"]],
                           discard="R4", draw=["G9", "Y1", "B3", "B4", "Y9", "G5"], dealer=2,
                           edition="cars2")
    game.apply(0, "WM=R")
    game.apply(1, "draw")
    game.apply(1, "pass")
    game.apply(2, "draw")
    game.apply(2, "pass")
    game.apply(0, "W+4=G")  # a bluff: seat 0 holds R1 with red in play
    game.apply(1, "challenge")
    assert game.seen[0] and game.seen[1]
    restored = _through_json(game)
    assert restored.state() == game.state()
    assert restored.observe(0).seen == game.observe(0).seen


def test_a_position_of_a_game_over() -> None:
    game = Game.from_setup(hands=[["R1"], ["B5"], ["YS"]], discard="R4", draw=["G9"], dealer=2,
                           scores=[490, 0, 0])
    game.apply(0, "R1")
    assert game.is_over
    restored = _through_json(game)
    assert restored.state() == game.state() and restored.winners == [0]


# --------------------------------------------------------------------------- copies and pickles


@SETTINGS
@given(games(), st.integers(0, 150))
def test_copy_is_equal_and_independent(match: tuple[Game, random.Random], before: int) -> None:
    game, rng = match
    _play(game, rng, before)
    snap = game.state()
    twin = game.copy()
    assert twin.state() == snap
    _play(twin, random.Random(before), 30)
    assert game.state() == snap
    _play(game, random.Random(before + 1), 30)
    fresh = Game.from_state(snap)
    _play(fresh, random.Random(before), 30)
    assert fresh.state() == twin.state()


@SETTINGS
@given(games(), st.integers(0, 150), st.integers(0, pickle.HIGHEST_PROTOCOL))
def test_a_pickled_game_is_the_same_game(match: tuple[Game, random.Random], before: int,
                                         protocol: int) -> None:
    game, rng = match
    _play(game, rng, before)
    clone = pickle.loads(pickle.dumps(game, protocol))
    assert type(clone) is Game
    assert clone.state() == game.state()
    _lockstep(game, clone, random.Random(before), 60)


def test_options_and_observations_pickle() -> None:
    options = Options.from_mapping({"target": 250, "stacking": "plus4_on_plus2", "seven_zero": True,
                                    "mode": "partners", "hand_size": 5})
    game = Game.new("phineas-ferb", 4, options, seed=9)
    _play(game, random.Random(9), 40)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(options, protocol)) == options
        assert pickle.loads(pickle.dumps(Options(), protocol)) == Options()
        for seat in range(game.n):
            obs = game.observe(seat)
            back = pickle.loads(pickle.dumps(obs, protocol))
            assert type(back) is Observation
            assert back == obs
            assert list(back.history) == list(obs.history)
            assert (back.hand, back.legal, back.seen, back.options) == (obs.hand, obs.legal, obs.seen,
                                                                      obs.options)


def test_deepcopy_goes_through_the_same_pickling() -> None:
    game = Game.new("cars2", 3, seed=4)
    _play(game, random.Random(4), 25)
    twin = copy.deepcopy(game)
    assert twin.state() == game.state()
    obs = game.observe(1)
    assert copy.deepcopy(obs) == obs


# --------------------------------------------------------------------------- malformed positions


def _fresh() -> dict[str, Any]:
    """A valid position: a new 3-player classic match."""
    return Game.new("classic", 3, seed=4).to_dict()


def _game(d: dict[str, Any]) -> dict[str, Any]:
    """The object of a position that holds the game's fields (``game``, beside the format name
    and version)."""
    body = d.get("game", d)
    assert isinstance(body, dict) and "hands" in body
    return body


def _top(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        d[key] = value
    return change


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        _game(d)[key] = value
    return change


def _extra_card(card: str) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        _game(d)["hands"][0].append(card)
    return change


def _drop_draw_card(d: dict[str, Any]) -> None:
    _game(d)["draw_pile"].pop()


def _bad_hand_card(d: dict[str, Any]) -> None:
    _game(d)["hands"][1][0] = "R10"


def _one_hand_too_many(d: dict[str, Any]) -> None:
    _game(d)["hands"].append([])


def _forget(key: str) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        del _game(d)[key]
    return change


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("wrong format", _top("format", "unokit-record"), "format"),
    ("wrong version", _top("version", 2), "version"),
    ("no version", _top("version", None), "version"),
    ("unknown field", _top("hand_counts", [7, 7, 7]), "hand_counts"),
    ("unknown game field", _set("hand_counts", [7, 7, 7]), "hand_counts"),
    ("missing field", _forget("hands"), "hands"),
    ("a fifth W+4", _extra_card("W+4"), "W+4"),
    ("a card missing from a whole-deck round", _drop_draw_card, "deck"),
    ("a hand too many", _one_hand_too_many, "hands"),
    ("turn out of range", _set("turn", 9), "turn"),
    ("dealer out of range", _set("dealer", -1), "dealer"),
    ("attacker out of range", _set("attacker", 7), "attacker"),
    ("a bad card code", _bad_hand_card, "R10"),
    ("a bad colour", _set("color", "P"), "colour"),
    ("a bad phase", _set("phase", "dance"), "phase"),
    ("a bad direction", _set("direction", 2), "direction"),
    ("an empty discard pile", _set("discard", []), "discard"),
    ("n as text", _set("n", "3"), "'n'"),
    ("hands not a list", _set("hands", "R1 R2"), "'hands'"),
    ("options not an object", _set("options", ["target", 5]), "'options'"),
    ("an unknown option", _set("options", {"stack": "off"}), "stack"),
    ("a bad option value", _set("options", {"stacking": "yes"}), "stacking"),
    ("partners with 3 players", _set("options", {"mode": "partners"}), "partners"),
    ("an unknown edition", _set("edition", "flip"), "edition"),
    ("bluff as a number", _set("bluff", 1), "'bluff'"),
    ("scores of text", _set("scores", ["0", 0, 0]), "'scores'"),
    ("scores for 2 seats", _set("scores", [0, 0]), "scores"),
    ("a bad generator state", _set("rng", [3, "abc", None]), "'rng'"),
    ("drawn as a number", _set("drawn", 5), "'drawn'"),
    ("a catchable seat that does not exist", _set("window", [5]), "seat"),
    ("a winner in a live round", _set("winners", [1]), "winners"),
]


@pytest.mark.parametrize(("change", "words"), [(c, w) for _, c, w in MALFORMED],
                         ids=[name for name, _, _ in MALFORMED])
def test_a_malformed_position_is_one_clear_error(change: Callable[[dict[str, Any]], None],
                                                 words: str) -> None:
    data = json.loads(json.dumps(_fresh()))
    Game.from_dict(data)  # valid as written
    change(data)
    with pytest.raises(PositionError) as info:
        Game.from_dict(data)
    assert words in str(info.value)


def test_position_error_is_a_record_error() -> None:
    assert issubclass(PositionError, RecordError)
    assert issubclass(PositionError, UnoError)
    assert issubclass(PositionError, ValueError)
    bad: Any
    for bad in (None, [], "unokit-position", 3):
        with pytest.raises(PositionError):
            Game.from_dict(bad)


def test_an_eliminated_seat_holding_cards_is_inconsistent() -> None:
    """M4: seats that are out hold no cards. A position where one does (here the only other
    seat of a two-player match, which leaves the seat on turn alone) must be refused: loaded,
    the game is stuck (after a 7 with ``seven_zero``, nobody can be swapped with)."""
    game = Game.from_setup(hands=[["R7", "R1", "G1"], ["B5", "G6"]], discard="R4", draw=["G9"],
                           dealer=1, options=Options(seven_zero=True), seed=1)
    data = game.to_dict()
    _game(data)["eliminated"] = [False, True]
    with pytest.raises(PositionError):
        Game.from_dict(data)


# A JSON value of any shape, with the values a position holds most often.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.integers() | st.floats(allow_nan=False,
                                                                                  allow_infinity=False)
    | st.sampled_from(["", "R1", "W+4", "WP", "WM", "B+2", "R", "Y", "play", "drawn", "respond",
                       "color", "swap", "round_over", "game_over", "classic", "cars2", "0 draw",
                       "host penalize 1", "1 catch 0"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["0", "1", "2", "dealer", "deck", "target", "mode", "x"]), inner, max_size=3),
    max_leaves=6,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, list):
        for i, v in enumerate(value[:8]):
            out += _paths(v, (*prefix, i))
    elif isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    return out


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 120), st.data())
def test_a_mutated_position_loads_into_a_usable_game_or_is_a_position_error(
        match: tuple[Game, random.Random], before: int, data: st.DataObject) -> None:
    """Any one value of a position replaced by any JSON value: ``from_dict`` raises
    PositionError or gives a game that works (every seat's legal actions and observation, the
    seat on turn has something to do, it saves and loads again, and it plays on)."""
    game, rng = match
    _play(game, rng, before)
    position = json.loads(json.dumps(game.to_dict()))
    paths = [p for p in _paths(position) if p]
    path = data.draw(st.sampled_from(paths))
    value = data.draw(JSON_VALUES)
    target = position
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    try:
        loaded = Game.from_dict(position)
    except PositionError:
        return
    for seat in range(loaded.n):
        loaded.legal_actions(seat)
        loaded.observe(seat)
    if loaded.awaiting not in ("round_over", "game_over"):
        assert loaded.legal_actions(loaded.turn), f"seat {loaded.turn} is on turn with nothing to do"
    assert Game.from_dict(json.loads(json.dumps(loaded.to_dict()))).state() == loaded.state()
    for _ in range(20):
        if loaded.awaiting in ("round_over", "game_over"):
            break
        seat, action = random_step(loaded, rng)
        loaded.apply(seat, action)


# --------------------------------------------------------------------------- from_observation


@SETTINGS
@given(games(), st.integers(0, 200))
def test_a_world_dealt_back_into_an_observation_plays_like_the_game(
        match: tuple[Game, random.Random], before: int) -> None:
    """The true hidden cards dealt back into each seat's observation give a world with the same
    legal actions for every seat, and the same observation for that seat. (The one exception:
    the seat on turn has just drawn, and another seat observes; that seat does not know which
    card was drawn: see the test after this one.)"""
    game, rng = match
    _play(game, rng, before)
    if game.awaiting in ("round_over", "game_over"):
        return
    for seat in range(game.n):
        obs = game.observe(seat)
        world = Game.from_observation(obs, game.hands, game.draw_pile, seed=1)
        assert world.observe(seat) == obs
        for t in range(game.n):
            if game.awaiting == "drawn" and t == game.turn != seat:
                continue
            assert world.legal_actions(t) == game.legal_actions(t), (seat, t)


def test_a_world_seen_by_another_seat_keeps_the_drawn_card_playable() -> None:
    """T2 in a world built from another seat's observation: the seat on turn has drawn a
    playable card (the last card of its hand) and may play it or pass, as in the real game."""
    game = Game.new("classic", 3, seed=0)
    rng = random.Random(0)
    assert _until(game, rng, lambda g: g.awaiting == "drawn" and len(g.legal_actions(g.turn)) > 1)
    other = (game.turn + 1) % 3
    world = Game.from_observation(game.observe(other), game.hands, game.draw_pile, seed=1)
    assert world.legal_actions(game.turn) == game.legal_actions(game.turn)


def _world_inputs() -> tuple[Game, list[list[int]], list[int]]:
    game = Game.new("classic", 3, seed=4)
    _play(game, random.Random(4), 9)
    assert game.awaiting not in ("round_over", "game_over")
    return game, [list(h) for h in game.hands], list(game.draw_pile)


def test_from_observation_refuses_a_world_that_does_not_fit() -> None:
    game, hands, pile = _world_inputs()
    obs = game.observe(0)
    Game.from_observation(obs, hands, pile, seed=1)  # the true world fits

    wrong_own = [list(h) for h in hands]
    mine = next(i for i, c in enumerate(wrong_own[0]) if c not in wrong_own[1])
    wrong_own[0][mine], wrong_own[1][0] = wrong_own[1][0], wrong_own[0][mine]
    with pytest.raises(PositionError, match="hand"):
        Game.from_observation(obs, wrong_own, pile, seed=1)

    wrong_size = [list(h) for h in hands]
    moved = wrong_size[1].pop()
    with pytest.raises(PositionError, match="holds"):
        Game.from_observation(obs, wrong_size, [*pile, moved], seed=1)

    with pytest.raises(PositionError, match="deck"):
        Game.from_observation(obs, hands, [*pile, pile[0]], seed=1)

    with pytest.raises(PositionError, match="deck"):
        Game.from_observation(obs, hands, pile[1:], seed=1)

    with pytest.raises(PositionError):
        Game.from_observation(obs, hands[:2], pile, seed=1)
