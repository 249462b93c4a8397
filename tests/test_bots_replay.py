"""Seeded games of the existing bots replay exactly: ``random`` and ``heuristic`` at their
defaults, and ``strong-v1``, the first version of the strong bot (what ``strong`` was before
it searched more and modelled the heuristic exactly), so that series measured against them stay
comparable. Each digest is of every action of a few seeded matches and the final scores."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from unokit import Game
from unokit.bots import make_bot, play_match
from unokit.core.options import Options

CASES: list[tuple[tuple[str, ...], dict[str, Any], int, int, dict[str, dict[str, Any]], str]] = [
    (("heuristic", "random"), {"target": 200}, 3, 6, {}, "34e08093fcaa1ef7"),
    (("random", "heuristic", "heuristic"), {"target": 100, "stacking": "progressive", "seven_zero": True},
     4, 4, {}, "e1c0671911a7d220"),
    (("strong-v1", "heuristic"), {"target": 1}, 5, 6, {"strong-v1": {"max_ms": 0}}, "c361945c62577b6a"),
    (("heuristic", "strong-v1", "random"), {"target": 1, "jump_in": True}, 6, 3,
     {"strong-v1": {"max_ms": 0}}, "5a45eb859fcb9f63"),
]


def digest(names: tuple[str, ...], options: dict[str, Any], seed: int, games: int,
           kw: dict[str, dict[str, Any]]) -> str:
    h = hashlib.sha256()
    for i in range(games):
        game = Game.new("classic", len(names), Options.from_mapping(options), seed=seed + i)
        bots = [make_bot(n, seed=seed * 16 + i * 4 + s, **kw.get(n, {})) for s, n in enumerate(names)]
        play_match(game, bots, on_action=lambda g, s, a: h.update(f"{s}:{a};".encode()))
        h.update(json.dumps(game.scores).encode())
    return h.hexdigest()[:16]


@pytest.mark.parametrize(("names", "options", "seed", "games", "kw", "expected"), CASES)
def test_seeded_games_of_the_existing_bots_replay(names: tuple[str, ...], options: dict[str, Any], seed: int,
                                                   games: int, kw: dict[str, dict[str, Any]],
                                                   expected: str) -> None:
    assert digest(names, options, seed, games, kw) == expected
