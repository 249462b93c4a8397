"""The seats as an observation tells them (``Observation.next_seat``, ``play_order``,
``side_of``): the same as the game's own order of play, in random games of every edition,
mode and size, eliminated seats and reversals included."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import random_options, random_step
from unokit import EDITIONS, Game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(EDITIONS), st.integers(2, 10), st.integers(0, 2**32))
def test_an_observation_knows_the_order_of_play(edition: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new(edition, players, random_options(rng, players, edition, target=40), seed=seed)
    for _ in range(400):
        if game.is_over:
            break
        if game.awaiting == "round_over":
            game.start_round()
            continue
        for seat in range(players):
            obs = game.observe(seat)
            assert obs.side_of(seat) == game.team_of(seat)
            if game.eliminated[seat]:
                continue
            assert obs.next_seat() == game.next_seat(seat)
            order = obs.play_order()
            assert order[0] == game.turn and len(order) == game.eliminated.count(False)
            assert all(game.next_seat(a) == b for a, b in zip(order, order[1:] + order[:1], strict=True))
        game.apply(*random_step(game, rng))
