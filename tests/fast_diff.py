"""The differential check of the native core (``unokit.fast``) against the engine: random games
over every edition, 2-10 players and random options, played on both, comparing every seat's
legal actions before each action and the whole state after it (shared by
``tests/test_fast_differential.py`` and ``benchmarks/fast_differential.py``)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from conftest import random_options, random_step
from unokit import Game
from unokit.core.actions import N_ACTIONS
from unokit.core.editions import EDITIONS
from unokit.core.errors import UnoError
from unokit.fast import FastGame


@dataclass
class Tally:
    """What a run compared."""

    games: int = 0
    actions: int = 0
    refusals: int = 0
    reloads: int = 0


def same(game: Game, fast: FastGame, where: str) -> None:
    """The two hold the same state (every field, generators and the rounds' logs included)."""
    if fast.state() != game.state():
        mine, theirs = fast.state(), game.state()
        diff = [name for name in mine.__dataclass_fields__ if getattr(mine, name) != getattr(theirs, name)]
        raise AssertionError(f"{where}: the native core differs in {diff}")


def _try_refused(game: Game, fast: FastGame, rng: random.Random, tally: Tally) -> None:
    """A random action of a random seat: both refuse it with the same error, or both take it."""
    seat, action = rng.randrange(game.n), rng.randrange(N_ACTIONS)
    try:
        game.step(seat, action)
    except UnoError as exc:
        try:
            fast.step(seat, action)
        except UnoError as mine:
            assert (type(mine), str(mine)) == (type(exc), str(exc)), (seat, action)
            tally.refusals += 1
            return
        raise AssertionError(f"the native core took {action} of seat {seat}: {exc}") from None
    fast.step(seat, action)  # a legal action, or a wrong card under illegal_play: penalize


def play_one(rng: random.Random, tally: Tally, max_actions: int = 600) -> None:
    """One random match (or its first ``max_actions`` actions) on both engines."""
    edition = rng.choice(EDITIONS[:3])
    players = rng.randint(2, 10)
    options = random_options(rng, players, edition)
    seed = rng.randrange(2**63)
    game, fast = Game.new(edition, players, options, seed), FastGame.new(edition, players, options, seed)
    assert fast.to_dict() == game.to_dict()
    tally.games += 1
    for i in range(max_actions):
        if game.is_over:
            break
        if game.awaiting == "round_over":
            game.start_round(events=False)
            fast.start_round()
            assert fast.to_dict() == game.to_dict(), "a new round's deal"
            continue
        for s in range(players):
            assert fast.legal_actions(s) == game.legal_actions(s), (i, s)
        if rng.random() < 0.05:
            _try_refused(game, fast, rng, tally)
        else:
            seat, action = random_step(game, rng)
            game.step(seat, action)
            fast.step(seat, action)
        tally.actions += 1
        same(game, fast, f"action {i}")
        if rng.random() < 0.02:  # the position read back, mid-round
            position = game.to_dict()
            if rng.random() < 0.3:  # near a blocked round (200 turns begun with a draw in a row)
                position["game"]["idle_turns"] = rng.randint(190, 199)
                game = Game.from_dict(position)
            fast = FastGame.from_dict(position)
            tally.reloads += 1
    assert fast.to_dict() == game.to_dict()


def run(actions: int, seed: int) -> Tally:
    """Random matches until ``actions`` actions have been compared."""
    rng = random.Random(seed)
    tally = Tally()
    while tally.actions < actions:
        play_one(rng, tally)
    return tally
