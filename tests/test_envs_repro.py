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
