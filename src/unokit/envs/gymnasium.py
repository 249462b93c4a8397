"""The Gymnasium environment ``unokit/Uno-v0``: one learning seat, the others played by
unokit's bots or by any policy.

>>> import gymnasium
>>> import unokit.envs  # registers unokit/Uno-v0
>>> env = gymnasium.make("unokit/Uno-v0", players=3, opponents=["heuristic", "random"])
>>> obs, info = env.reset(seed=7)
>>> obs["observation"].shape == env.observation_space["observation"].shape
True
>>> bool((obs["action_mask"] == info["action_mask"]).all())
True
>>> terminated = False
>>> while not terminated:
...     action = int(obs["action_mask"].nonzero()[0][0])
...     obs, reward, terminated, truncated, info = env.step(action)
>>> reward in (1.0, -1.0)
True

The observation is ``{"observation": float32 vector, "action_mask": int8 vector of 176}``
(``docs/rl.md`` has the layout); ``info["action_mask"]`` is the same mask, and
:meth:`UnoEnv.action_masks` returns it as booleans for sb3-contrib's ``MaskablePPO``. The
action space is ``Discrete(176)``: the engine's 175 actions and 175, "nothing now".

``env.step`` applies the learning seat's action and then plays the other seats, through
the table (:mod:`unokit.core.table`), until the learning seat is asked again or the episode ends.
The learning seat is asked out of turn like any other (to call UNO, catch a missed call,
jump in), and may answer "nothing now" there; it is never asked when it has nothing to do.
The other seats are played by the one loop around the table (:mod:`unokit.core.drive`): an
opponent that answers nothing or an illegal action declines when asked out of turn and takes
its first legal action on its turn. The learning seat's own action outside the mask ends the
episode with ``illegal_reward``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots.base import Bot
from ..bots.registry import BOT_OPTIONS, make_bot
from ..core.actions import Action
from ..core.drive import Ask, Decision
from ..core.options import Options
from ..core.phases import ROUND_OVER
from .core import ACTION_SETS, Match, check_choice, restrict_rlcard
from .encoding import N_ENV_ACTIONS, NOTHING
from .seeding import reseed

__all__ = ["ENV_ID", "Opponent", "Policy", "UnoEnv"]

ENV_ID = "unokit/Uno-v0"

Obs = dict[str, npt.NDArray[Any]]
Policy = Callable[[Obs], int | np.integer[Any]]
"""A policy for another seat: given that seat's observation dict (the learning seat's
format), an action in ``range(176)`` (175: nothing now, only when asked out of turn)."""
Opponent: TypeAlias = "str | Bot | Policy"
"""A bot's name (``"heuristic"``, ``"random"``, ``"strong"``: a bot built once, when the
opponents are set, and reseeded from the environment's stream at each reset, so that it plays
as a new bot with that seed would), a :class:`~unokit.bots.base.Bot`, or a :data:`Policy`."""

def make_opponent(spec: str, seed: int) -> Bot:
    """The bot a name ``NAME`` or ``NAME.OPTION=VALUE,...`` gives (``strong.rollouts=200``),
    seeded with ``seed``. A bot that takes a wall-clock cap (``max_ms``) plays without one
    unless the name asks for it: a seeded episode replays whatever the machine's load. Names
    with a prefix (``policy:PATH``) take no options."""
    name, options = spec, {}
    head, dot, rest = spec.partition(".")
    if dot and ":" not in head and "/" not in head and "=" in rest:
        name = head
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key:
                raise ValueError(f"opponent {spec!r}: an option is written NAME=VALUE, not {item!r}")
            options[key.strip()] = value.strip()
    if any(o.name == "max_ms" for o in BOT_OPTIONS.get(name, ())):
        options.setdefault("max_ms", "0")
    return make_bot(name, seed=seed, **options)


class UnoEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """UNO for one learning seat.

    ``edition``: ``classic``, ``cars2`` or ``phineas-ferb``. ``players``: 2 to 10.
    ``opponents``: one per other seat, in seat order from the learning seat's left; the last
    fills the seats left (``["heuristic"]`` plays every other seat with the heuristic bot).
    ``options``: the match options (:class:`~unokit.core.options.Options` or a mapping such as
    ``{"stacking": "progressive", "jump_in": True}``). ``seat``: the learning seat's number,
    or ``"random"`` (drawn at each reset). ``episode``: ``"round"`` (a fresh match dealt at
    each reset, played for one round) or ``"match"``. ``reward``: ``"round"`` (+1 or -1 a
    round), ``"match"`` or ``"score"`` (:mod:`unokit.envs.core`). ``illegal_reward``: an
    action outside the mask ends the episode with this reward (and ``info["illegal_action"]``).
    ``render_mode``: ``None``, ``"human"`` or ``"ansi"``. ``actions``: ``"full"`` (the printed
    rules) or ``"rlcard"``
    (RLCard's shorter action set for the learning seat, not the printed rules: no drawing
    while a card is playable, a playable drawn card played). ``info["seat"]`` is the learning
    seat's number; :meth:`set_opponents` swaps the opponents between episodes.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, edition: str = "classic", players: int = 2,
                 opponents: Sequence[Opponent] | Opponent = ("heuristic",),
                 options: Options | Mapping[str, Any] | None = None, seat: int | str = 0,
                 episode: str = "round", reward: str = "round", illegal_reward: float = -1.0,
                 render_mode: str | None = None, actions: str = "full") -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (human, ansi or None)")
        self._match = Match(edition, players, options, episode, reward)
        self.set_opponents(opponents)
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < players):
            raise ValueError(f"seat must be 0 to {players - 1} or 'random', not {seat!r}")
        self._seat_choice = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.illegal_reward = float(illegal_reward)
        self.actions = check_choice("actions", actions, ACTION_SETS)
        self.render_mode = render_mode
        enc = self._match.encoder
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(enc.low, enc.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (N_ENV_ACTIONS,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(N_ENV_ACTIONS)
        self._players: list[Any] = [None] * players
        self._asks: list[Ask | None] = [None] * players
        self._mask: npt.NDArray[np.int8] = np.zeros(N_ENV_ACTIONS, dtype=np.int8)
        self._pending = 0.0
        self._done = True

    @property
    def opponents(self) -> tuple[Bot | Policy, ...]:
        """The other seats' players, in seat order from the learning seat's left (a bot name
        given is the bot built for it, once)."""
        learner = self.seat
        n = self._match.players
        seated = [self._players[(learner + k) % n] for k in range(1, n)]
        return tuple(seated) if all(p is not None for p in seated) else tuple(self._opponents)

    @property
    def game(self) -> Any:
        """The :class:`~unokit.core.game.Game` being played (read it, don't change it)."""
        return self._match.game

    # ------------------------------------------------------------------ the other seats

    def _seat(self, seat: int, opponent: Bot | Policy, seed: int) -> None:
        """Seat ``opponent`` reseeded with ``seed`` (:func:`~unokit.envs.seeding.reseed`), and
        its ask. Nothing here holds the match: the asks read it from the environment, so a copy
        of the environment (:meth:`clone`) plays its own."""
        reseed(opponent, seed)
        self._players[seat] = opponent
        self._asks[seat] = self._ask_bot if hasattr(opponent, "act") else self._ask_policy

    def _ask_bot(self, decision: Decision) -> Action | None:
        """A bot opponent's answer to ``decision``."""
        seat = decision[0]
        answer: Action | None = self._players[seat].act(self._match.game.observe(seat))
        return answer

    def _ask_policy(self, decision: Decision) -> Action | None:
        """A policy opponent's answer to ``decision``, from the learning seat's kind of observation."""
        seat = decision[0]
        m = self._match
        game = m.game
        enc = m.encoder
        out = seat != game.turn
        obs: Obs = {"observation": enc.encode(game, seat, out), "action_mask": enc.mask(game, seat, out)}
        a = int(self._players[seat](obs))
        return None if a == NOTHING else a

    def _advance(self) -> tuple[float, bool]:
        """Play the other seats (through the one loop, :func:`~unokit.core.drive.drive`, whose
        policy settles an opponent's answer of nothing or an illegal action) until the learning
        seat is asked or the episode ends; the learning seat's reward meanwhile, and whether
        the episode is over."""
        m = self._match
        learner = self.seat
        reward = 0.0
        while m.play(self._asks):  # the learning seat's ask is None: the loop waits there
            reward += m.round_rewards()[learner]
            if m.episode_over() or m.game.eliminated[learner]:
                return reward, True
            m.next_round()
        return reward, False

    def set_opponents(self, opponents: Sequence[Opponent] | Opponent) -> None:
        """Swap the other seats' players, as the constructor's ``opponents`` (one per other
        seat from the learning seat's left, the last filling the rest); they play from the next
        :meth:`reset` on (self-play: put a snapshot of the learner there between episodes)."""
        players = self._match.players
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            opponents = [opponents]
        if not opponents or len(opponents) > players - 1:
            raise ValueError(f"{players} players need 1 to {players - 1} opponents, not {len(opponents)}")
        chosen: list[Opponent] = list(opponents)
        chosen += [chosen[-1]] * (players - 1 - len(chosen))
        built: list[Bot | Policy] = []
        for o in chosen:
            if isinstance(o, str):
                built.append(make_opponent(o, 0))  # one bot a seat, reseeded at each reset
            elif hasattr(o, "act") or callable(o):
                built.append(o)
            else:
                raise TypeError(f"an opponent is a bot name, a Bot or a callable policy, not {o!r}")
        self._opponents: list[Bot | Policy] = built

    # ------------------------------------------------------------------ the API

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Obs, dict[str, Any]]:
        """Deal a new match (from ``seed``, or going on from the last seeded reset) and play
        the other seats up to the learning seat's first decision. ``options={"position": ...}``
        goes on from a saved position (:meth:`Game.to_dict <unokit.core.game.Game.to_dict>`)
        of a match like the environment's instead of dealing; the match options are the
        constructor's."""
        super().reset(seed=seed)
        m = self._match
        if seed is not None or m.stream is None:
            m.seed(int(self.np_random.integers(0, 2**63 - 1)))
        stream = m.seed(None)
        n = m.players
        if self._seat_choice == "random":
            self.seat = stream.randrange(n)
        others = [(self.seat + k) % n for k in range(1, n)]
        self._players = [None] * n
        self._asks = [None] * n
        for seat, opponent in zip(others, self._opponents, strict=True):
            self._seat(seat, opponent, stream.getrandbits(63))
        position = (options or {}).get("position")
        while True:
            if position is None:
                m.deal()
            else:
                m.load(position)
            reward, done = self._advance()
            if not done:
                break
            if position is not None:
                raise ValueError("the position's episode ends before the learning seat is asked")
            # The round (or match) ended before the learning seat had anything to decide:
            # not an episode. Deal the next one.
        self._pending = reward
        self._done = False
        obs, info = self._observe(False)
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action: int | np.integer[Any]) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Apply the learning seat's ``action``, then play the others until it is asked again."""
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        m = self._match
        game = m.game
        seat = self.seat
        a = int(action)
        restricted = self.actions != "full" and not (0 <= a < N_ENV_ACTIONS and self._mask[a])
        if restricted or (a not in game.legal_actions(seat) and m.refusal(seat, a) is not None):
            self._done = True
            obs, info = self._observe(True)
            info["illegal_action"] = True
            return obs, self.illegal_reward, True, False, info
        if a == NOTHING:  # an agent is the caller's own: checked against the mask, applied as it is
            m.table.decline(seat)
        else:
            m.table.step(seat, a)
        reward, done = self._advance()
        if self._pending:
            reward += self._pending
            self._pending = 0.0
        self._done = done
        obs, info = self._observe(done)
        if done:
            info["round_winner"] = m.game.round_winner
            info["scores"] = tuple(m.game.scores)
        if self.render_mode == "human":
            self.render()
        return obs, reward, done, False, info

    def _observe(self, done: bool) -> tuple[Obs, dict[str, Any]]:
        m = self._match
        game = m.game
        seat = self.seat
        enc = m.encoder
        if done or game.phase >= ROUND_OVER:
            # The last observation's mask holds only "nothing now": never empty, so masked
            # sampling works on it (under make_vec's next-step autoreset the action taken on
            # it is ignored and the environment resets).
            out = False
            mask = np.zeros(N_ENV_ACTIONS, dtype=np.int8)
            mask[NOTHING] = 1
        else:
            out = seat != game.turn
            mask = enc.mask(game, seat, out)
            if self.actions == "rlcard" and not out:
                restrict_rlcard(mask)
        self._mask = mask
        return ({"observation": enc.encode(game, seat, out), "action_mask": mask},
                {"action_mask": mask, "seat": seat})

    def clone(self) -> UnoEnv:
        """An independent copy of the environment, mid-episode included, that goes on exactly
        as this one would: the match through its position, the table's asking state, the
        dealing stream and copies of the opponents (``copy.deepcopy(env)`` is the same)."""
        return copy.deepcopy(self)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (what sb3-contrib's ``MaskablePPO`` asks for)."""
        return self._mask.astype(bool)

    def legal_actions(self) -> list[Action]:
        """The learning seat's legal actions now, as action numbers (175: nothing now)."""
        return [int(a) for a in self._mask.nonzero()[0]]

    def render(self) -> str | None:
        """The game as the learning seat sees it (``human``: printed; ``ansi``: returned)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (human or ansi)")
            return None
        text = self._match.render_text(self.seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None
