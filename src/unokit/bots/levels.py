"""Difficulty levels for people: ``easy``, ``normal`` and ``hard`` (see ``docs/bots.md``).

``easy`` and ``normal`` play the heuristic's rules (:mod:`unokit.bots.heuristic`) with
human-like mistakes at fixed rates (:data:`MISTAKES`): forgetting to call UNO, letting a
missed UNO call go uncaught, naming a weaker colour, and now and then a careless play. ``hard``
is the strongest bot, :class:`~unokit.bots.strong.StrongBot` at its defaults, and makes no
deliberate mistake. Every mistake is drawn from the bot's own random numbers, seeded by
``seed``: a seeded game replays exactly. A level sees only its seat's observation, like every
bot.

Their order and their ratings were measured in the arena on held-out seeds
(``docs/strength.md``): :data:`LEVEL_ELO` is the scale shown to players, anchored at
``random`` = 1000.

>>> from unokit import Game
>>> from unokit.bots import make_bot, play_match
>>> game = play_match(Game.new("classic", 2, seed=8), [make_bot("easy", seed=1), make_bot("normal", seed=2)])
>>> game.is_over
True
>>> make_bot("hard", seed=3).name
'hard'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from ..core.actions import (
    ACTION_CARD,
    ACTION_COLOR,
    ACTION_KIND,
    ACTION_UNO,
    COLOR_BASE,
    K_CATCH,
    K_PLAY,
    UNO,
    UNO_OFFSET,
    Action,
)
from ..core.cards import CARD_COLOR, WILD, WILD_DRAW_FOUR
from ..core.observation import Observation
from ..core.phases import DECIDING
from .base import Bot
from .heuristic import HeuristicBot, best_color
from .strong import (
    CONFIDENCE,
    DEFAULT_ROLLOUTS,
    INFER_DEPTH,
    MAX_MS,
    PARTICLES,
    V1_PARTICLES,
    V1_ROLLOUTS,
    StrongBot,
)

LEVELS: Final = ("easy", "normal", "hard")
"""The difficulty levels, easiest first: names that ``make_bot``, ``--bots`` and the browser's
bot seats accept beside the bot names. Their names in the player's language are the message
ids ``easy``, ``normal`` and ``hard`` (context ``bot``) of the catalogues."""


@dataclass(frozen=True)
class Mistakes:
    """A level's deliberate mistakes, each a chance per occasion.

    ``forget_uno``: it does not call UNO with its next-to-last card (and stays silent until
    it is caught or plays again); ``miss_catch``: it lets a seat that missed its UNO call go
    (decided once per chance to catch); ``weak_colour``: it names a colour at random instead
    of the one it holds most of (for a wild, or a turned-up wild); ``careless``: at a normal
    turn it plays a random playable card (never a Wild Draw Four it may not play honestly)
    instead of the heuristic's choice.
    """

    forget_uno: float = 0.0
    miss_catch: float = 0.0
    weak_colour: float = 0.0
    careless: float = 0.0


MISTAKES: Final = {
    "easy": Mistakes(forget_uno=0.5, miss_catch=0.5, weak_colour=0.5, careless=0.5),
    "normal": Mistakes(forget_uno=0.2, miss_catch=0.2, weak_colour=0.2, careless=0.1),
    "hard": Mistakes(),
}
"""The documented mistake rates of each level (``hard``: none)."""

LEVEL_ELO: Final = {"random": 1000, "easy": 1646, "normal": 1751, "hard": 1872}
"""Each level's rating, for players: one Bradley-Terry fit (one virtual draw per pair) of the
held-out arena series between neighbouring levels, 2,000 one-round heads-up games each
(random-easy, easy-normal, normal-hard; ``docs/strength.md``), shifted so that ``random`` is
1000 (``docs/strength/level_elo.py``)."""


class LevelBot:
    """A level: a bot (``bot``) that makes the mistakes ``mistakes`` with its own random numbers.

    ``name`` is the level's name; ``search_stats`` is the wrapped bot's, when it has one.
    ``split_seed``: ``seed`` is split into one for the wrapped bot and one for the mistakes
    (the heuristic's levels); otherwise it seeds the mistakes alone, and :meth:`seed` gives
    both the same number.
    """

    def __init__(self, name: str, bot: Bot, mistakes: Mistakes, seed: int | None = None, *,
                 split_seed: bool = False) -> None:
        self.name = name
        self.bot = bot
        self.mistakes = mistakes
        self.split_seed = split_seed
        self.rng = random.Random()
        self._seed(seed, wrapped=split_seed)

    def seed(self, seed: int | None) -> None:
        """Play on as a new level built with ``seed`` would (the wrapped bot reseeded too,
        where it can be)."""
        self._seed(seed, wrapped=True)

    def _seed(self, seed: int | None, wrapped: bool) -> None:
        inner, own = seed, seed
        if self.split_seed:
            rng = random.Random(seed)
            inner, own = rng.randrange(2**32), rng.randrange(2**32)
        reseed = getattr(self.bot, "seed", None)
        if wrapped and callable(reseed):
            reseed(inner)
        self.rng.seed(own)
        self._silent = False  # it forgot UNO: it does not call it out of turn either
        self._catch_moment = (-1, -1)  # (round, history length) of the last chance to catch
        self._let_go = False  # ... and whether it lets that one go

    def search_stats(self) -> dict[str, float]:
        """The wrapped bot's work (the arena's counts); empty for a bot that does not search."""
        stats = getattr(self.bot, "search_stats", None)
        return dict(stats()) if callable(stats) else {}

    def _chance(self, p: float) -> bool:
        return p > 0 and self.rng.random() < p

    def act(self, obs: Observation) -> Action | None:
        """The wrapped bot's choice, with this level's mistakes."""
        legal = obs.legal
        if not legal:
            return None
        m = self.mistakes
        if len(obs.hand) != 1:
            self._silent = False
        catches = [a for a in legal if ACTION_KIND[a] == K_CATCH]
        if catches and m.miss_catch > 0:
            moment = (obs.round_no, len(obs.history))
            if moment != self._catch_moment:  # a new chance to catch: decided once
                self._catch_moment = moment
                self._let_go = self._chance(m.miss_catch)
            if self._let_go:
                obs = _without(obs, catches)
                legal = obs.legal
                if not legal:
                    return None
        on_turn = obs.turn == obs.seat and obs.awaiting in DECIDING
        if UNO in legal and self._silent:  # it forgot: it stays silent until caught or it plays
            if len(legal) == 1:
                return None
            obs = _without(obs, [UNO])
        if on_turn and obs.awaiting == "color" and self._chance(m.weak_colour):
            return COLOR_BASE + self.rng.randrange(4)
        if on_turn and obs.awaiting == "play" and not any(ACTION_KIND[a] == K_CATCH for a in obs.legal) \
                and self._chance(m.careless):
            careless = self._careless(obs)
            if careless is not None:
                return self._uno(obs, careless)
        a = self.bot.act(obs)
        if a is None:
            return None
        if ACTION_KIND[a] == K_PLAY:
            if ACTION_CARD[a] >= WILD and self._chance(m.weak_colour):
                a = a - ACTION_COLOR[a] + self.rng.randrange(4)
            a = self._uno(obs, a)
        return a

    def _careless(self, obs: Observation) -> Action | None:
        """A random playable card, each card alike (UNO decided later), never a Wild Draw Four
        it may not play honestly; a wild named as the heuristic would, or weakly."""
        hand = obs.hand
        holds_colour = any(c < WILD and CARD_COLOR[c] == obs.color for c in hand)
        by_card: dict[int, list[Action]] = {}
        for a in obs.legal:
            if ACTION_KIND[a] != K_PLAY or ACTION_UNO[a]:
                continue
            c = ACTION_CARD[a]
            if c == WILD_DRAW_FOUR and holds_colour:
                continue
            by_card.setdefault(c, []).append(a)
        if not by_card:
            return None
        card = sorted(by_card)[self.rng.randrange(len(by_card))]
        options = by_card[card]
        if card < WILD:
            return options[0]
        colour = self.rng.randrange(4) if self._chance(self.mistakes.weak_colour) else _most_held(hand, card)
        for a in options:
            if ACTION_COLOR[a] == colour:
                return a
        return options[0]

    def _uno(self, obs: Observation, a: Action) -> Action:
        """Play ``a`` calling UNO when it leaves one card, unless it forgets (then silent)."""
        base = a - UNO_OFFSET if ACTION_UNO[a] else a
        called = base + UNO_OFFSET
        if called not in obs.legal:
            return base if base in obs.legal else a
        if self._chance(self.mistakes.forget_uno):
            self._silent = True
            return base
        return called


def _most_held(hand: tuple[int, ...], played: int) -> int:
    """The colour the hand holds most of once ``played`` has left it (the heuristic's rule)."""
    rest = list(hand)
    rest.remove(played)
    return best_color(rest)


def _without(obs: Observation, drop: list[Action]) -> Observation:
    """``obs`` with the actions ``drop`` taken out of its legal actions (a mistake the wrapped
    bot then cannot make right)."""
    legal = tuple(a for a in obs.legal if a not in drop)
    return Observation(
        obs.seat, obs.edition, obs.players, obs.hand, obs.hand_sizes, obs.top, obs.color, obs.direction,
        obs.turn, obs.awaiting, obs.draw_size, obs.discard, obs.pending, obs.attacker, obs.drawn, obs.owed,
        obs.catchable, obs.scores, obs.eliminated, obs.dealer, obs.round_no, obs.history, obs.seen, legal,
        obs.options, obs.idle_turns)


def heuristic_level(name: str, seed: int | None, mistakes: Mistakes) -> LevelBot:
    """Level ``name`` on the heuristic's rules (``easy``, ``normal``)."""
    return LevelBot(name, HeuristicBot(), mistakes, seed, split_seed=True)


def _chances(name: str, **given: Any) -> Mistakes:
    base = MISTAKES[name]
    return Mistakes(**{k: (getattr(base, k) if v is None else v) for k, v in given.items()})


def easy(seed: int | None = None, forget_uno: float | None = None, miss_catch: float | None = None,
         weak_colour: float | None = None, careless: float | None = None) -> LevelBot:
    """The ``easy`` level: the heuristic with :data:`MISTAKES` ``["easy"]`` (each option, given,
    replaces that rate)."""
    return heuristic_level("easy", seed, _chances("easy", forget_uno=forget_uno, miss_catch=miss_catch,
                                                  weak_colour=weak_colour, careless=careless))


def normal(seed: int | None = None, forget_uno: float | None = None, miss_catch: float | None = None,
           weak_colour: float | None = None, careless: float | None = None) -> LevelBot:
    """The ``normal`` level: the heuristic with :data:`MISTAKES` ``["normal"]``."""
    return heuristic_level("normal", seed, _chances("normal", forget_uno=forget_uno, miss_catch=miss_catch,
                                                    weak_colour=weak_colour, careless=careless))


def hard(seed: int | None = None, iterations: int | None = None, time_ms: float | None = None,
         forget_uno: float = 0.0, confidence: float = CONFIDENCE, rollouts: int = DEFAULT_ROLLOUTS,
         infer_draws: bool = True, wild_colours: bool = True, max_ms: float | None = MAX_MS,
         points: float = 0.5, prune: float = 2.0, infer_choices: bool = True, particles: int = PARTICLES,
         exact_model: bool = True, infer_depth: int = INFER_DEPTH) -> LevelBot:
    """The ``hard`` level: the ``strong`` bot itself (the same options and defaults, the same
    seeded play), under the level's name."""
    bot = StrongBot(seed=seed, iterations=iterations, time_ms=time_ms, forget_uno=forget_uno,
                    confidence=confidence, rollouts=rollouts, infer_draws=infer_draws,
                    wild_colours=wild_colours, max_ms=max_ms, points=points, prune=prune,
                    infer_choices=infer_choices, particles=particles, exact_model=exact_model,
                    infer_depth=infer_depth)
    return LevelBot("hard", bot, MISTAKES["hard"])


def strong_v1(seed: int | None = None, iterations: int | None = None, time_ms: float | None = None,
              forget_uno: float = 0.0, confidence: float = CONFIDENCE, rollouts: int = V1_ROLLOUTS,
              infer_draws: bool = True, wild_colours: bool = True, max_ms: float | None = MAX_MS,
              points: float = 0.5, prune: float = 2.0, infer_choices: bool = True,
              particles: int = V1_PARTICLES) -> LevelBot:
    """``strong-v1``: the first version of the strong bot (150 rollouts over 12 sampled deals, a
    sampler that looks behind one kept draw, rollouts that approximate the heuristic), kept so
    that the strong bot can be measured against it: its seeded games replay those of that
    version exactly."""
    bot = StrongBot(seed=seed, iterations=iterations, time_ms=time_ms, forget_uno=forget_uno,
                    confidence=confidence, rollouts=rollouts, infer_draws=infer_draws,
                    wild_colours=wild_colours, max_ms=max_ms, points=points, prune=prune,
                    infer_choices=infer_choices, particles=particles, exact_model=False, infer_depth=1)
    return LevelBot("strong-v1", bot, MISTAKES["hard"])


__all__ = ["LEVELS", "LEVEL_ELO", "MISTAKES", "LevelBot", "Mistakes", "easy", "hard", "heuristic_level",
           "normal", "strong_v1"]
