"""``bot.seed(n)``: a bot reseeded plays on exactly as a new one built with ``seed=n`` (the
environments build their named opponents once and reseed them at every reset)."""

from __future__ import annotations

from typing import Any

import pytest

from unokit import Game, Options
from unokit.bots import make_bot
from unokit.bots.base import Bot
from unokit.bots.driver import play_round
from unokit.bots.forgetful import make_table_bot

# Every bot and level a name gives, with options that make each of them draw on its generators
# (the strong bot without a clock, so that its play is a function of its seed).
SPECS: list[tuple[str, dict[str, Any]]] = [
    ("random", {}),
    ("heuristic", {"forget_uno": 0.5}),
    ("easy", {}),
    ("normal", {}),
    ("strong", {"rollouts": 8, "max_ms": 0, "forget_uno": 0.3}),
    ("hard", {"rollouts": 8, "max_ms": 0}),
    ("strong-v1", {"rollouts": 8, "max_ms": 0}),
]


def _actions(bots: list[Bot], seed: int) -> list[tuple[int, int]]:
    """Every (seat, action) of a 3-player round with jump-in, dealt from ``seed``."""
    game = Game.new("classic", 3, Options(jump_in=True), seed=seed)
    taken: list[tuple[int, int]] = []
    play_round(game, bots, on_action=lambda g, seat, a: taken.append((seat, a)))
    return taken


@pytest.mark.parametrize(("name", "options"), SPECS, ids=[s[0] for s in SPECS])
def test_a_reseeded_bot_plays_as_a_new_one(name: str, options: dict[str, Any]) -> None:
    used = [make_bot(name, seed=s, **options) for s in (1, 2, 3)]
    for seed in range(90, 100):
        _actions(used, seed)  # their generators and their state move on
    for bot, n in zip(used, (11, 12, 13), strict=True):
        bot.seed(n)  # type: ignore[attr-defined]
    fresh = [make_bot(name, seed=n, **options) for n in (11, 12, 13)]
    assert _actions(used, 5) == _actions(fresh, 5)


def test_a_reseeded_table_bot_plays_as_a_new_one() -> None:
    """``make_table_bot`` wraps a bot without its own UNO forgetting in a ``ForgetfulBot``."""
    used = [make_table_bot("random", s, 0.5) for s in (1, 2, 3)]
    _actions(used, 99)
    for bot, n in zip(used, (11, 12, 13), strict=True):
        bot.seed(n)  # type: ignore[attr-defined]
    assert _actions(used, 5) == _actions([make_table_bot("random", n, 0.5) for n in (11, 12, 13)], 5)


def test_the_seed_changes_the_play() -> None:
    """The comparison above can fail: other seeds give other games."""
    a = [make_bot("random", seed=n) for n in (11, 12, 13)]
    b = [make_bot("random", seed=n) for n in (21, 22, 23)]
    assert _actions(a, 5) != _actions(b, 5)
