"""The PettingZoo AEC environment: every seat an agent, full rules, 2–10 players.

>>> from unokit.envs import pettingzoo_env
>>> env = pettingzoo_env.env(players=3, options={"jump_in": True})
>>> env.reset(seed=1)
>>> env.agents
['player_0', 'player_1', 'player_2']
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs), obs["action_mask"].shape
(['action_mask', 'observation'], (176,))
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
...     env.step(action)
>>> env.agents
[]

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). Observations are PettingZoo's
classic-game dicts: ``{"observation": float32 vector, "action_mask": int8 vector of 176}``
(``docs/rl.md`` has the layout). The action space is ``Discrete(176)``: the engine's 175
actions and 175 itself, "nothing now".

**Who is asked, in order** (:mod:`unokit.core.table`): after the seat on turn acts (and when a
round is dealt), every other seat that now has an out-of-turn choice (catch a missed UNO
call, call UNO, jump in) is asked once, in turn order from the seat after the one on turn;
each may take one of those actions or answer "nothing now" (175). Then the seat on turn is
asked and must act. The agents are the caller's own, and ``agent_iter`` is the loop: an
agent's action outside its mask is refused (not settled as :mod:`unokit.core.drive` settles
a bot's answer). ``agent_selection`` is always the seat the table asks, so every
out-of-turn decision is reachable by a learning agent. A seat with no such choice is never
asked out of turn, and "nothing now" is legal only for a seat asked out of turn.

An episode is one round by default, or the whole match with ``episode="match"`` (a seat
eliminated in ``mode: elimination`` is terminated when its last round ends). Rewards come
at the end of each round (``reward="round"``, ``"match"`` or ``"score"``:
:mod:`unokit.envs.core`). :func:`env` wraps :class:`raw_env` as PettingZoo's classic games
are: an action outside the mask ends the episode with -1 for the agent that took it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import logger, spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]

from ..core.actions import N_ACTIONS, action_str
from ..core.errors import IllegalActionError
from ..core.options import Options
from ..core.phases import ROUND_OVER
from .core import Match, agent_name
from .encoding import N_ENV_ACTIONS, NOTHING

__all__ = ["env", "raw_env"]

Obs = dict[str, npt.NDArray[Any]]


def env(**kwargs: Any) -> raw_env:
    """The environment as PettingZoo's classic games give it: :class:`raw_env` (same
    arguments) where an action outside the mask ends the episode with reward -1 for its agent
    (PettingZoo's ``TerminateIllegalWrapper``) and the API must be used in order (``reset``
    first, as ``OrderEnforcingWrapper`` checks). Both are built into :class:`raw_env`: the
    wrappers' attribute forwarding cost more than the game itself."""
    kwargs.setdefault("illegal_reward", -1.0)
    return raw_env(**kwargs)


def _notation(action: int) -> str:
    return action_str(action) if 0 <= action < N_ACTIONS else str(action)


class raw_env(AECEnv):  # type: ignore[misc, unused-ignore]
    """UNO as a PettingZoo AEC environment.

    ``edition``: ``classic``, ``cars2`` or ``phineas-ferb``; ``players``: 2 to 10;
    ``options``: the match options (:class:`~unokit.core.options.Options` or a mapping such as
    ``{"stacking": "progressive"}``); ``episode``: ``"round"`` or ``"match"``; ``reward``:
    ``"round"``, ``"match"`` or ``"score"``; ``render_mode``: ``None``, ``"human"`` (prints)
    or ``"ansi"`` (returns the text). ``illegal_reward``: ``None`` (the default here), an
    action outside the mask raises :class:`~unokit.core.errors.IllegalActionError`; a number, it
    ends the episode with that reward for its agent and 0 for the others (:func:`env`: -1).
    The match options are the constructor's (``reset``'s ``options`` take only a ``position``).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "unokit_uno_v0",
                                          "is_parallelizable": False}

    def __init__(self, edition: str = "classic", players: int = 2,
                 options: Options | Mapping[str, Any] | None = None, episode: str = "round",
                 reward: str = "round", render_mode: str | None = None,
                 illegal_reward: float | None = None) -> None:
        super().__init__()
        self.illegal_reward = illegal_reward
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (human, ansi or None)")
        self._match = Match(edition, players, options, episode, reward)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(players)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        enc = self._match.encoder
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(enc.low, enc.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (N_ENV_ACTIONS,), dtype=np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ENV_ACTIONS) for a in self.possible_agents}
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        self._rewarded = False
        self._reset_done = False

    @property
    def game(self) -> Any:
        """The :class:`~unokit.core.game.Game` being played (read it, don't change it)."""
        return self._match.game

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s observations (the same object at every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(176)`` (the same object at every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match (from ``seed``, or going on from the last seeded reset's stream);
        ``options={"position": ...}`` goes on from a saved position
        (:meth:`Game.to_dict <unokit.core.game.Game.to_dict>`) of a match like the
        environment's instead."""
        m = self._match
        m.seed(seed)
        position = (options or {}).get("position")
        if position is None:
            m.deal()
        else:
            m.load(position)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._rewarded = False
        self._reset_done = True
        self._select()

    def _select(self) -> None:
        seat = self._match.table.next_seat()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> Obs:
        """``agent``'s observation: its vector, and its action mask (all zeros unless it is
        the agent asked now)."""
        if not self._reset_done:
            raise AttributeError("observe() needs reset() first")
        m = self._match
        seat = self._seat_of[agent]
        game = m.game
        enc = m.encoder
        if (agent == self.agent_selection and game.phase < ROUND_OVER
                and not self.terminations.get(agent, True)):
            out = seat != game.turn
            mask = enc.mask(game, seat, out)
        else:
            out = False
            mask = np.zeros(N_ENV_ACTIONS, dtype=np.int8)
        return {"observation": enc.encode(game, seat, out), "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Apply the selected agent's action (``None`` for an agent already done)."""
        if not self._reset_done:
            raise AttributeError("step() needs reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is not done: it needs an action, not None")
        m = self._match
        seat = self._seat_of[agent]
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        a = int(action)
        game = m.game
        reason = None if a in game.legal_actions(seat) else m.refusal(seat, a)
        if reason is not None:
            if self.illegal_reward is None:
                raise IllegalActionError(seat, "nothing" if a == NOTHING else _notation(a), reason)
            self._illegal(agent)
            return
        if a == NOTHING:  # an agent is the caller's own: checked against the mask, applied as it is
            m.table.decline(seat)
        else:
            m.table.step(seat, a)
        if game.phase >= ROUND_OVER:
            self._end_round()
        self._select()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _illegal(self, agent: str) -> None:
        """An action outside the mask: the episode ends, with the illegal reward for ``agent``."""
        assert self.illegal_reward is not None
        for a in self.agents:
            self.rewards[a] = 0.0
            self.terminations[a] = True
        self.rewards[agent] = float(self.illegal_reward)
        self.infos[agent] = {"illegal_action": True}
        self._rewarded = True
        self._accumulate_rewards()
        self._deads_step_first()

    def _end_round(self) -> None:
        m = self._match
        game = m.game
        rewards = m.round_rewards()
        for s, r in enumerate(rewards):
            name = self.possible_agents[s]
            if name in self.rewards:
                self.rewards[name] = r
        self._rewarded = True
        self._accumulate_rewards()
        if m.episode_over():
            for a in self.agents:
                self.terminations[a] = True
            return
        for a in self.agents:
            if game.eliminated[self._seat_of[a]]:
                self.terminations[a] = True
        m.next_round()

    def render(self) -> str | None:
        """The game as the agent asked now sees it (``human``: printed; ``ansi``: returned)."""
        if self.render_mode is None:
            logger.warn("render() called without a render_mode (human or ansi)")
            return None
        text = self._match.render_text(self._seat_of[self.agent_selection])
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def clone(self) -> raw_env:
        """An independent copy of the environment, mid-game included, that goes on exactly as
        this one would: the match through its position, the table's asking state and the
        dealing stream (``copy.deepcopy(env)`` is the same)."""
        return copy.deepcopy(self)

    def close(self) -> None:
        """Nothing to release."""
