"""``unokit.core.playout``: the engine's own random play to the end of a round plays exactly the
game a Python loop of ``legal_actions`` / ``rng.choice`` / ``apply`` plays."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import setup, snapshot
from test_properties import matches
from unokit.bench import (
    DEALS,
    engine_loop,
    playable_first_loop,
    playable_first_playout_loop,
    playout_loop,
)
from unokit.core.actions import ACTION_KIND, DRAW, K_PLAY
from unokit.core.game import Game
from unokit.core.options import Options
from unokit.core.phases import DRAWN, PLAY, ROUND_OVER
from unokit.core.playout import POLICIES, playout


def python_round(game: Game, rng: random.Random, policy: str) -> int:
    """The reference: the policy written as a caller would, with ``rng.choice``."""
    steps = 0
    while game.phase < ROUND_OVER:
        seat = game.turn
        legal: Sequence[int] = game.legal_actions(seat)
        if policy == "playable-first" and game.phase == PLAY:
            plays = [a for a in legal if ACTION_KIND[a] == K_PLAY]
            a = rng.choice(plays) if plays else DRAW
        elif policy == "playable-first" and game.phase == DRAWN:
            plays = [a for a in legal if ACTION_KIND[a] == K_PLAY]
            a = rng.choice(plays) if plays else legal[0]
        else:
            a = rng.choice(legal)
        game.apply(seat, a)
        steps += 1
    return steps


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches(), st.sampled_from(POLICIES), st.integers(0, 30))
def test_prop_playout_plays_the_python_loops_game(match: tuple[Game, random.Random], policy: str,
                                                  first: int) -> None:
    game, rng = match
    for _ in range(first):  # start from a position inside the round, too
        if game.phase >= ROUND_OVER:
            break
        seat = game.turn
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    twin, twin_rng = game.copy(), random.Random()
    twin_rng.setstate(rng.getstate())
    steps = playout(game, rng, policy)
    assert steps == python_round(twin, twin_rng, policy)
    assert game.phase >= ROUND_OVER
    assert snapshot(game) == snapshot(twin)
    assert rng.getstate() == twin_rng.getstate()  # the same draws from the generator


@pytest.mark.parametrize("deals", DEALS)
@pytest.mark.parametrize("players", [2, 4, 10])
def test_playout_loops_play_the_python_loops_games(players: int, deals: str) -> None:
    assert (playout_loop(3, seed=2, players=players, deals=deals)
            == engine_loop(3, seed=2, players=players, deals=deals))
    assert (playable_first_playout_loop(40, seed=2, players=players, deals=deals)
            == playable_first_loop(40, seed=2, players=players, deals=deals))


@pytest.mark.parametrize("edition", ["classic", "cars2", "phineas-ferb"])
def test_playout_loops_with_house_rules_and_matches(edition: str) -> None:
    options = Options.from_mapping({"stacking": "progressive", "seven_zero": True, "jump_in": True,
                                    "target": 150})
    for policy_loop, python_loop in ((playout_loop, engine_loop),
                                     (playable_first_playout_loop, playable_first_loop)):
        ours = policy_loop(2, seed=5, players=4, edition=edition, options=options, match=True)
        assert ours == python_loop(2, seed=5, players=4, edition=edition, options=options,
                                   match=True)


def test_playout_counts_each_applied_action_and_ends_the_round() -> None:
    game = Game.new("classic", 3, seed=11)
    before = len(game.history)
    steps = playout(game, random.Random(4), "playable-first")
    assert steps == len(game.history) - before > 0
    assert game.awaiting in ("round_over", "game_over")
    assert playout(game, random.Random(4)) == 0  # nothing left to play in this round


def test_playout_ends_a_blocked_round() -> None:
    # Nobody can play and the draw pile is empty (T6): the round is blocked, not endless.
    game = setup([["R1", "R2"], ["R3", "R4"]], "B9", [], draw_until_playable=True)
    assert playout(game, random.Random(0)) > 0
    assert game.blocked and game.awaiting in ("round_over", "game_over")


class ScriptedRandom(random.Random):
    """A subclass with its own ``random()``: choices must come from its own methods."""

    def random(self) -> float:
        return 0.5


def test_playout_with_a_generator_subclass_uses_its_methods() -> None:
    game = Game.new("classic", 2, seed=3)
    twin = game.copy()
    playout(game, ScriptedRandom(), "uniform")
    python_round(twin, ScriptedRandom(), "uniform")
    assert snapshot(game) == snapshot(twin)


def test_unknown_policy_is_a_clear_error_and_plays_nothing() -> None:
    game = Game.new("classic", 2, seed=3)
    before = snapshot(game)
    with pytest.raises(ValueError, match=r"unknown playout policy 'greedy' \(policies: uniform, "
                                         r"playable-first\)"):
        playout(game, random.Random(0), "greedy")
    assert snapshot(game) == before
