"""One source of refusals: ``Game.verify`` gives a reason for every action that
``Game.legal_actions`` leaves out and none for an action it lists, and the error that refuses
an action carries that same reason. Checked over random games of every edition, size and option
set, for every action of the action space, the seat on turn's and another seat's."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import random_options, random_step, snapshot
from unokit import EDITIONS, Game, IllegalActionError, NotationError
from unokit.core.actions import N_ACTIONS, PENALIZE_BASE
from unokit.core.drawing import is_wrong_card


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(EDITIONS), st.integers(2, 10), st.integers(0, 2**32))
def test_verify_refuses_exactly_what_the_legal_list_leaves_out(edition: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new(edition, players, random_options(rng, players, edition, target=40), seed=seed)
    for step in range(120):
        if game.is_over:
            break
        if game.awaiting == "round_over":
            assert all(game.verify(s, a) for s in range(players) for a in range(PENALIZE_BASE))
            game.start_round()
            continue
        seats = {game.turn, rng.randrange(players)}
        for seat in seats:
            legal = set(game.legal_actions(seat))
            for a in range(PENALIZE_BASE if step % 4 else N_ACTIONS):
                why = game.verify(seat, a)
                assert (why is None) == (a in legal), (seat, a, why)
        seat = rng.choice(sorted(seats))
        illegal = [a for a in range(PENALIZE_BASE) if a not in game.legal_actions(seat)]
        a = rng.choice(illegal)
        if not (game.rules.penalize and is_wrong_card(game, seat, a)):
            before = snapshot(game)
            with pytest.raises(IllegalActionError) as info:
                game.apply(seat, a)
            assert info.value.reason == game.verify(seat, a)
            assert snapshot(game) == before
        game.apply(*random_step(game, rng))


def test_verify_reads_notation_and_names_a_bad_action() -> None:
    game = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1"], dealer=1)
    assert game.verify(0, "R1") is None
    assert game.verify(0, "B7") == "seat 0 holds no B7"
    assert game.verify(5, "draw") == "there is no seat 5"
    with pytest.raises(NotationError):
        game.verify(0, "R10")
    with pytest.raises(NotationError):
        game.verify(0, N_ACTIONS)
