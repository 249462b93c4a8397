"""Copies and replays of the environments: ``env.clone()`` and ``copy.deepcopy`` go on in
lockstep with the original; seeded episodes replay with every opponent."""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pytest

REASON = "the RL environments need the rl extra: pip install '.[rl]' in a clone"
pytest.importorskip("gymnasium", reason=REASON)
pytest.importorskip("pettingzoo", reason=REASON)

from unokit.envs.gymnasium import UnoEnv  # noqa: E402
from unokit.envs.pettingzoo import raw_env  # noqa: E402


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert np.array_equal(a["observation"], b["observation"])
    assert np.array_equal(a["action_mask"], b["action_mask"])


@pytest.mark.parametrize("how", ["clone", "deepcopy"])
@pytest.mark.parametrize("seed", range(50))
def test_gymnasium_clone_steps_in_lockstep(seed: int, how: str) -> None:
    env = UnoEnv(players=3, opponents=["heuristic", "random"], options={"jump_in": True})
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 15)):  # clone mid-episode
        if env.step(rng.choice(env.legal_actions()))[2]:
            env.reset()
    twin = env.clone() if how == "clone" else copy.deepcopy(env)
    for _ in range(400):
        action = rng.choice(env.legal_actions())
        a = env.step(action)
        b = twin.step(action)
        _same(a[0], b[0])
        assert a[1:4] == b[1:4]
        if a[2]:
            _same(env.reset()[0], twin.reset()[0])


@pytest.mark.parametrize("seed", range(20))
def test_pettingzoo_clone_steps_in_lockstep(seed: int) -> None:
    env = raw_env(players=3, options={"jump_in": True})
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 30)):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(None if env.terminations[env.agent_selection] else int(rng.choice(np.flatnonzero(mask))))
        if not env.agents:
            env.reset()
    twin = env.clone() if seed % 2 else copy.deepcopy(env)
    for _ in range(300):
        if not env.agents:
            env.reset()
            twin.reset()
        agent = env.agent_selection
        assert twin.agent_selection == agent
        a, b = env.observe(agent), twin.observe(agent)
        _same(a, b)
        done = env.terminations[agent] or env.truncations[agent]
        action = None if done else int(rng.choice(np.flatnonzero(a["action_mask"])))
        env.step(action)
        twin.step(action)
        assert env.rewards == twin.rewards


class SeededPolicy:
    """A callable opponent with its own generator, reseeded by ``seed(n)`` (the protocol)."""

    def __init__(self) -> None:
        self.rng = random.Random()

    def seed(self, n: int) -> None:
        self.rng = random.Random(n)

    def __call__(self, obs: dict[str, Any]) -> int:
        return int(self.rng.choice(np.flatnonzero(obs["action_mask"])))


def _episodes(env: UnoEnv, seed: int, n: int) -> list[bytes]:
    """Every observation of ``n`` episodes from ``reset(seed=seed)``, the learner playing the
    first legal action."""
    seen = []
    obs, _ = env.reset(seed=seed)
    for _ in range(n):
        done = False
        while not done:
            seen.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            obs, _, done, _, _ = env.step(env.legal_actions()[0])
        seen.append(obs["observation"].tobytes())
        obs, _ = env.reset()
    return seen


def _load() -> Any:
    """Another process spinning on the CPU while the episodes play."""
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


@pytest.mark.parametrize("opponent", ["random", "heuristic", "strong.rollouts=24", "bot", "callable"])
def test_seeded_episodes_replay_with_every_opponent(opponent: str) -> None:
    from unokit.bots import make_bot

    def player() -> Any:
        if opponent == "bot":
            return make_bot("random", seed=123)  # an object: its generator reseeded at reset
        if opponent == "callable":
            return SeededPolicy()
        return opponent

    env = UnoEnv(players=3, opponents=[player()], options={"jump_in": True})
    load = _load()
    try:
        first = _episodes(env, 5, 2)
        again = _episodes(env, 5, 2)  # the same objects, reset with the same seed
        other = _episodes(UnoEnv(players=3, opponents=[player()], options={"jump_in": True}), 5, 2)
    finally:
        load.kill()
        load.wait()
    assert first == again == other


def test_a_named_strong_opponent_plays_without_a_clock() -> None:
    from unokit.envs.gymnasium import make_opponent

    assert make_opponent("strong", 1).max_ms is None  # type: ignore[attr-defined]
    assert make_opponent("strong.max_ms=50", 1).max_ms == 50  # type: ignore[attr-defined]
    assert make_opponent("strong.rollouts=10", 1).rollouts == 10  # type: ignore[attr-defined]
    with pytest.raises(Exception, match="no_such"):
        UnoEnv(opponents=["strong.no_such=1"])


def test_encoder_takes_the_plain_dict_of_options_the_environments_take() -> None:
    from unokit import Game, Options
    from unokit.envs import Encoder

    game = Game.new("classic", 2, Options(stacking="progressive"), seed=1)
    a = Encoder("classic", 2, {"stacking": "progressive"})
    b = Encoder("classic", 2, Options(stacking="progressive"))
    assert a.options == b.options
    assert np.array_equal(a.encode(game, 0), b.encode(game, 0))


def test_info_names_the_learning_seat_and_opponents_swap_between_episodes() -> None:
    env = UnoEnv(players=3, opponents=["random"], seat="random")
    for seed in range(5):
        _, info = env.reset(seed=seed)
        assert info["seat"] == env.seat
    calls: list[int] = []

    def first(obs: dict[str, Any]) -> int:
        calls.append(1)
        return int(np.flatnonzero(obs["action_mask"])[0])

    env.set_opponents([first])
    env.reset(seed=0)
    done = False
    while not done:
        _, _, done, _, info = env.step(env.legal_actions()[0])
        assert info["seat"] == env.seat
    assert calls  # the swapped-in policy played
    with pytest.raises(ValueError, match="opponents"):
        env.set_opponents([first] * 3)


def test_rlcard_action_set_draws_only_when_nothing_is_playable() -> None:
    from unokit.core.actions import ACTION_KIND, K_DRAW, K_PASS, K_PLAY

    env = UnoEnv(players=2, opponents=["random"], actions="rlcard")
    full = UnoEnv(players=2, opponents=["random"])
    assert full.actions == "full"
    rng = random.Random(3)
    seen_play = seen_draw = 0
    for seed in range(30):
        env.reset(seed=seed)
        done = False
        while not done:
            legal = env.legal_actions()
            kinds = {ACTION_KIND[a] for a in legal if a < len(ACTION_KIND)}
            if K_PLAY in kinds:
                assert not kinds & {K_DRAW, K_PASS}
                seen_play += 1
            elif K_DRAW in kinds:
                seen_draw += 1
            _, _, done, _, info = env.step(rng.choice(legal))
            assert "illegal_action" not in info
    assert seen_play and seen_draw
    env.reset(seed=0)
    draws = [a for a in range(len(ACTION_KIND)) if ACTION_KIND[a] == K_DRAW]
    if any(ACTION_KIND[a] == K_PLAY for a in env.legal_actions()) and draws:
        _, _, done, _, info = env.step(draws[0])  # outside the restricted mask
        assert done and info.get("illegal_action")
    with pytest.raises(ValueError, match="actions"):
        UnoEnv(actions="short")


def test_named_opponents_are_built_once_and_play_as_new_ones() -> None:
    """A bot name gives one bot a seat, reseeded at each reset: the same episodes as bots built
    anew at every reset (here by setting the names again before each one)."""
    names = ["random", "easy", "strong.rollouts=8"]
    env = UnoEnv(players=4, opponents=names, options={"jump_in": True})
    built = env.opponents
    renewed = UnoEnv(players=4, opponents=names, options={"jump_in": True})
    for seed in range(3):
        env.reset(seed=seed)
        renewed.set_opponents(names)
        renewed.reset(seed=seed)
        assert all(a is b for a, b in zip(env.opponents, built, strict=True))
        assert not any(a is b for a, b in zip(env.opponents, renewed.opponents, strict=True))
        done = False
        while not done:
            action = env.legal_actions()[-1]
            assert renewed.legal_actions()[-1] == action
            obs, _, done, _, _ = env.step(action)
            again, _, done_too, _, _ = renewed.step(action)
            _same(obs, again)
            assert done == done_too
