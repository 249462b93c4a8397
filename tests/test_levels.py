"""Difficulty levels: registered by name, hard is the strong bot, mistakes at their rates, seeded."""

from __future__ import annotations

import pytest

from unokit import Game
from unokit.bots import (
    LEVEL_ELO,
    LEVELS,
    MISTAKES,
    Bot,
    ForgetfulBot,
    HeuristicBot,
    LevelBot,
    bot_names,
    make_bot,
    make_table_bot,
    play_match,
)
from unokit.bots.registry import BOT_OPTIONS, parse_bot_options
from unokit.core.actions import ACTION_COLOR, ACTION_KIND, ACTION_UNO, K_CATCH, UNO, action_str
from unokit.core.errors import OptionError
from unokit.core.options import Options


def _game(hands: list[list[str]], discard: str, draw: list[str]) -> Game:
    return Game.from_setup(hands=hands, discard=discard, draw=draw, dealer=len(hands) - 1)


def test_levels_are_registered_beside_the_bots() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    for name in LEVELS:
        assert name in bot_names()
        bot = make_bot(name, seed=1)
        assert isinstance(bot, LevelBot) and bot.name == name
    assert parse_bot_options(["easy.forget_uno=0.9", "hard.rollouts=20"]) == (
        ("easy", (("forget_uno", 0.9),)), ("hard", (("rollouts", 20),)))
    with pytest.raises(OptionError, match="bot 'easy' has no option 'rollouts'"):
        make_bot("easy", rollouts=3)
    assert {o.name for o in BOT_OPTIONS["hard"]} == {o.name for o in BOT_OPTIONS["strong"]}


def test_the_ratings_are_anchored_at_random_and_ordered() -> None:
    assert LEVEL_ELO["random"] == 1000
    ratings = [LEVEL_ELO[n] for n in ("random", *LEVELS)]
    assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings)


def _actions(game: Game, bots: list[Bot]) -> list[int]:
    log: list[int] = []
    play_match(game, bots, on_action=lambda g, s, x: log.append(x))
    return log


def test_hard_is_the_strong_bot() -> None:
    """Same seed and options: the same decisions (hard is strong under the level's name)."""
    for seed in range(3):
        game = Game.new("classic", 3, Options(target=1), seed=seed)
        a = [make_bot("hard", seed=7, rollouts=12, max_ms=0), HeuristicBot(seed=1), HeuristicBot(seed=2)]
        b = [make_bot("strong", seed=7, rollouts=12, max_ms=0), HeuristicBot(seed=1), HeuristicBot(seed=2)]
        assert _actions(game.copy(), a) == _actions(game.copy(), b)
    assert MISTAKES["hard"] == type(MISTAKES["hard"])()  # no deliberate mistake


@pytest.mark.parametrize("name", ["easy", "normal"])
def test_mistakes_are_seeded(name: str) -> None:
    logs = [_actions(Game.new("classic", 2, Options(target=1), seed=4),
                     [make_bot(name, seed=3), make_bot("heuristic", seed=5)]) for _ in range(2)]
    assert logs[0] == logs[1]


def _rate(hits: int, n: int, expected: float) -> None:
    assert abs(hits / n - expected) < 0.05, (hits / n, expected)


@pytest.mark.parametrize("name", ["easy", "normal"])
def test_forgetting_uno_at_its_rate(name: str) -> None:
    obs = _game([["R1", "G2"], ["R5", "B7"]], "R3", ["Y1", "Y2"]).observe(0)
    n = 600
    forgot = 0
    for seed in range(n):
        a = make_bot(name, seed=seed).act(obs)
        assert a is not None and a in obs.legal
        forgot += not ACTION_UNO[a]
    _rate(forgot, n, MISTAKES[name].forget_uno)


def test_a_forgetful_level_stays_silent_until_it_plays_again() -> None:
    game = _game([["R1", "G2"], ["R5", "B7"], ["Y9", "Y8"]], "R3", ["Y1", "Y2"])
    bot = make_bot("easy", seed=0, forget_uno=1.0)
    a = bot.act(game.observe(0))
    assert a is not None and not ACTION_UNO[a]
    game.apply(0, a)
    obs = game.observe(0)
    assert UNO in obs.legal
    assert bot.act(obs) is None  # it does not remember to call it out of turn


@pytest.mark.parametrize("name", ["easy", "normal"])
def test_missing_a_catch_at_its_rate(name: str) -> None:
    game = _game([["R1", "G2"], ["R5", "B7"], ["Y9", "Y8"]], "R3", ["Y1", "Y2"])
    game.apply(0, "R1")  # no UNO call
    obs = game.observe(2)
    assert any(ACTION_KIND[a] == K_CATCH for a in obs.legal)
    n = 600
    missed = 0
    for seed in range(n):
        bot = make_bot(name, seed=seed)
        a = bot.act(obs)
        missed += a is None or ACTION_KIND[a] != K_CATCH
        assert bot.act(obs) == a  # decided once for that chance
    _rate(missed, n, MISTAKES[name].miss_catch)


@pytest.mark.parametrize("name", ["easy", "normal"])
def test_a_weaker_colour_at_its_rate(name: str) -> None:
    game = _game([["W", "B2", "B3", "B7"], ["R5", "B7"]], "G9", ["Y1", "Y2"])
    obs = game.observe(0)
    n = 800
    weak = 0
    for seed in range(n):
        a = make_bot(name, seed=seed, careless=0.0).act(obs)
        assert a is not None and a in obs.legal
        assert action_str(a).startswith("W=")
        weak += ACTION_COLOR[a] != 3  # blue is the colour held most
    # A random colour is a weaker one three times in four.
    _rate(weak, n, 0.75 * MISTAKES[name].weak_colour)


def test_careless_plays_are_legal_and_never_a_bluff() -> None:
    obs = _game([["W+4", "R2", "B3", "R7"], ["R5", "B7"]], "R9", ["Y1", "Y2"]).observe(0)
    picks = set()
    for seed in range(200):
        a = make_bot("easy", seed=seed, careless=1.0).act(obs)
        assert a is not None and a in obs.legal
        assert not action_str(a).startswith("W+4")  # it holds red: a W+4 would be a bluff
        picks.add(action_str(a).rstrip("!"))
    assert picks == {"R2", "R7"}


def test_at_a_table_with_people_a_level_keeps_its_own_rates() -> None:
    """The terminal game and the server make their bots with ``make_table_bot``: the table's
    ``forget_uno`` is a bot's chance to forget UNO, but a level forgets at its own rate."""
    obs = _game([["R1", "G2"], ["R5", "B7"]], "R3", ["Y1", "Y2"]).observe(0)

    def called(name: str, seed: int, forget_uno: float) -> bool:
        a = make_table_bot(name, seed, forget_uno).act(obs)
        assert a is not None and a in obs.legal
        return bool(ACTION_UNO[a])

    n = 600
    for name in ("easy", "normal"):
        _rate(sum(not called(name, seed, 0.0) for seed in range(n)), n, MISTAKES[name].forget_uno)
    assert all(called("hard", seed, 1.0) for seed in range(5))  # no deliberate mistake
    for name in ("random", "heuristic", "strong"):
        assert not any(called(name, seed, 1.0) for seed in range(5)), name
    assert isinstance(make_table_bot("random", 1, 0.3), ForgetfulBot)
    with pytest.raises(OptionError, match="unknown bot 'nobody'"):
        make_table_bot("nobody", 1, 0.3)
