"""What the PettingZoo and Gymnasium environments share: a match driven by the table, its
seeds, its episodes and its rewards.

An episode is one round (``episode="round"``, a fresh match dealt at each reset) or a whole
match (``episode="match"``: every round to the target, as elimination needs). Rewards come at
the end of each round (:data:`REWARDS`):

* ``"round"`` (the default): +1 to each seat of the side that won the round, -1 to every
  other seat still in the match (RLCard's payoffs).
* ``"match"``: 0 until the match ends, then +1 to the winners' seats and -1 to the others.
* ``"score"``: the change of the seat's side's match score in the round over the target;
  negated where a low score is good (``scoring: alternative``, ``mode: elimination``).

A seat out of the match (eliminated) gets 0.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..core.actions import ACTION_KIND, K_DRAW, K_PASS, K_PLAY
from ..core.drive import Ask, drive
from ..core.game import Game
from ..core.options import Options
from ..core.phases import ROUND_OVER
from ..core.table import Table
from .encoding import NOTHING, Encoder

__all__ = ["ACTION_SETS", "EPISODES", "REWARDS", "Match", "agent_name", "make_options", "restrict_rlcard"]

ACTION_SETS: Final = ("full", "rlcard")
"""The learning seat's action sets: ``"full"``, the printed rules' (the default), and
``"rlcard"``, RLCard's shorter one: no drawing while a card is playable, and a playable drawn
card is played (not the printed rules: only the learning seat's mask is restricted)."""

_KINDS = np.array([*ACTION_KIND, -1], dtype=np.int64)
_PLAYS = _KINDS == K_PLAY
_DRAW_OR_PASS = (_KINDS == K_DRAW) | (_KINDS == K_PASS)


def restrict_rlcard(mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """``mask`` under RLCard's action set (:data:`ACTION_SETS`): where a card can be played,
    drawing and passing (keeping a drawn card) are taken out. Changes ``mask`` in place."""
    if mask[_PLAYS].any():
        mask[_DRAW_OR_PASS] = 0
    return mask

EPISODES: Final = ("round", "match")
"""What an episode is: one round, or a whole match."""
REWARDS: Final = ("round", "match", "score")
"""The reward schemes (see the module's docstring)."""


def agent_name(seat: int) -> str:
    """The PettingZoo name of ``seat``: ``player_0`` …"""
    return f"player_{seat}"


def make_options(options: Options | Mapping[str, Any] | None) -> Options:
    """Match options from an :class:`~unokit.core.options.Options`, a mapping of names to values
    (``{"stacking": "progressive"}``, values typed or as text) or ``None`` (the defaults)."""
    if options is None:
        return Options()
    if isinstance(options, Options):
        return options
    return Options.from_mapping(options)


def check_choice(what: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"unknown {what} {value!r} (choose from {', '.join(choices)})")
    return value


class Match:
    """One environment's match: the game, its table, the encoder and the reward bookkeeping.

    ``stream`` deals every match of the environment (``Game.new(..., deal_rng=stream)``), so
    that a seeded reset and the resets after it are reproducible.
    """

    def __init__(self, edition: str, players: int, options: Options | Mapping[str, Any] | None,
                 episode: str, reward: str) -> None:
        opts = make_options(options)
        self.game = Game.new(edition, players, opts, seed=0)  # checks the edition, players and options
        self.table = Table(self.game)
        self.edition = edition
        self.players = players
        self.options = opts
        self.episode = check_choice("episode", episode, EPISODES)
        self.reward = check_choice("reward", reward, REWARDS)
        self.encoder = Encoder(edition, players, opts)
        self.stream: random.Random | None = None
        self._before: list[int | float] = []
        self._active: list[bool] = []
        self._start()
        low = opts.scoring == "alternative" or opts.mode == "elimination"
        self._sign = -1.0 if low else 1.0
        self._inv_target = 1.0 / float(opts.target)

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        """A copy that plays on alone: the game through its position (``Game.to_dict`` /
        ``from_dict``), the table's asking state (:meth:`Table.onto
        <unokit.core.table.Table.onto>`), the dealing stream, and an encoder of its own."""
        clone = Match.__new__(Match)
        memo[id(self)] = clone
        clone.__dict__.update(self.__dict__)
        clone.game = Game.from_dict(self.game.to_dict())
        clone.table = self.table.onto(clone.game)
        clone.encoder = Encoder(self.edition, self.players, self.options)
        clone.stream = copy.deepcopy(self.stream, memo)
        clone._before = list(self._before)
        clone._active = list(self._active)
        return clone

    def seed(self, seed: int | None) -> random.Random:
        """The dealing stream: a new one from ``seed``, or the running one when ``seed`` is
        ``None`` (from the system's entropy the first time)."""
        if seed is not None:
            self.stream = random.Random(seed)
        elif self.stream is None:
            self.stream = random.Random(random.SystemRandom().getrandbits(63))
        return self.stream

    def deal(self) -> Game:
        """A new match dealt from the stream (call :meth:`seed` first)."""
        assert self.stream is not None
        self.game = Game.new(self.edition, self.players, self.options, deal_rng=self.stream)
        self.table = Table(self.game)
        self._start()
        return self.game

    def load(self, position: Mapping[str, Any]) -> Game:
        """Go on from a saved position (:meth:`Game.to_dict <unokit.core.game.Game.to_dict>`)
        of a match with the environment's edition, players and options."""
        game = Game.from_dict(position)
        if (game.edition, game.n, game.options) != (self.edition, self.players, self.options):
            raise ValueError(f"the position is a {game.n}-player {game.edition} match with other options "
                             f"than the environment's {self.players}-player {self.edition} match")
        self.game = game
        self.table = Table(game)
        self._start()
        return game

    def refusal(self, seat: int, action: int) -> str | None:
        """Why the asked agent's ``action`` (:data:`~unokit.envs.encoding.NOTHING` included) is
        outside its action mask, or ``None`` when it is in it."""
        if action == NOTHING:
            return "the seat on turn must act" if seat == self.game.turn else None
        if action in self.game.legal_actions(seat):
            return None
        return self.game.verify(seat, action) or f"action {action} is not in the mask"

    def play(self, ask: Ask | Sequence[Ask | None]) -> bool:
        """Let :func:`~unokit.core.drive.drive` ask the seats the environment plays itself
        (``ask`` answers :data:`~unokit.core.drive.WAIT` for an agent's seat, or is one ask a
        seat with ``None`` for the agents'); ``True`` when the round is over, ``False`` when
        an agent is asked."""
        drive(self.table, ask)
        return self.game.phase >= ROUND_OVER  # the table asks someone until the round is over

    def next_round(self) -> None:
        """Deal the match's next round (after a round that did not end the match)."""
        self.game.start_round(events=False)
        self._start()

    def _start(self) -> None:
        """Note what a round's rewards are measured from: the scores, and who plays it."""
        self._before = list(self.game.scores)
        self._active = [not e for e in self.game.eliminated]

    def episode_over(self) -> bool:
        """After a round: whether the episode ends with it."""
        return self.episode == "round" or self.game.is_over

    def round_rewards(self) -> list[float]:
        """Every seat's reward for the round just ended (see the module's docstring)."""
        game = self.game
        n = self.players
        out = [0.0] * n
        active = self._active
        scheme = self.reward
        if scheme == "round":
            winner = game.round_winner
            for s in range(n):
                if active[s]:
                    out[s] = 1.0 if game.team_of(s) == winner else -1.0
        elif scheme == "match":
            winners = game.winners
            for s in range(n):
                if not active[s]:
                    continue
                if game.is_over:
                    out[s] = 1.0 if game.team_of(s) in winners else -1.0
                elif game.eliminated[s]:
                    out[s] = -1.0  # out of the match without winning it
        else:
            before = self._before
            sign = self._sign
            inv = self._inv_target
            for s in range(n):
                if active[s]:
                    side = game.team_of(s)
                    out[s] = sign * float(game.scores[side] - before[side]) * inv
        return out

    def render_text(self, seat: int) -> str:
        """The game as ``seat`` sees it, in a few lines of card notation."""
        game = self.game
        obs = game.observe(seat)
        lines = [f"round {game.round_no}, seat {seat} of {game.n}: {game.awaiting}, seat {game.turn} "
                 f"on turn, top {obs.top_text()} (colour {'RYGB'[game.color]}), direction "
                 f"{'+1' if game.direction == 1 else '-1'}, scores {list(game.scores)}",
                 f"hand: {' '.join(obs.hand_text())}",
                 f"hand sizes: {list(obs.hand_sizes)}, draw pile {obs.draw_size}",
                 f"legal: {' '.join(obs.legal_text()) or '-'}"]
        return "\n".join(lines)
