"""The strong bot's search: :class:`StrongBot` (see :mod:`unokit.bots.strong`).

At each decision with more than one sensible choice it samples determinizations
(:mod:`.sampling`, from what it knows or infers: :mod:`.belief`), plays every candidate out
on each (:mod:`.rollouts`) with common random numbers, drops the candidates clearly behind
(:func:`prune`), and keeps the default move (:func:`informed_choice`, else the heuristic's)
unless another candidate beats it significantly (:func:`choose`). The match options are
public: it reads them from each observation (``obs.options``).
"""

from __future__ import annotations

# mypyc: compile (a bot's decision runs the engine in a loop)
import math
import random
import time
from collections.abc import Sequence
from typing import Final

from ...core.actions import (
    ACCEPT,
    ACTION_CARD,
    ACTION_COLOR,
    ACTION_KIND,
    ACTION_UNO,
    CHALLENGE,
    COLOR_BASE,
    DRAW,
    K_CATCH,
    K_PLAY,
    UNO,
    UNO_OFFSET,
    Action,
)
from ...core.cards import WILD, Card
from ...core.observation import Observation
from ...core.phases import DECIDING
from ..heuristic import HeuristicBot, best_color
from .belief import draw_constraints, evidence, known_hands, known_voids
from .rollouts import rollout
from .sampling import determinize

DEFAULT_ITERATIONS: Final = 8
"""The least number of determinizations per decision (each plays out every candidate once)."""

MAX_MS: Final = 50.0
"""The default cap on a decision's time in iteration mode: the search stops early (after at
least one determinization) when it runs past it, which can happen only on a slow or busy
machine. ``max_ms=0`` removes the cap, making every decision a function of the seed alone."""

DEFAULT_ROLLOUTS: Final = 450
"""Rollouts per decision by default, counted over the candidates still searched (at least
``iterations`` determinizations), so the work per decision stays about the same. Three times
``strong-v1``'s 150: on development seeds this bought 2 to 3 points against the heuristic
heads-up, and twice as many again about nothing (``docs/strength.md``)."""

V1_ROLLOUTS: Final = 150
"""The rollouts per decision of ``strong-v1``, the first version of the strong bot."""

V1_PARTICLES: Final = 12
"""The sampled deals per decision of ``strong-v1``."""

CONFIDENCE: Final = 1.0
"""The search departs from the heuristic's own choice only for a candidate whose mean gain
over it, paired over the same determinizations, exceeds this many standard errors."""

PARTICLES: Final = 24
"""With the inference from choices, the number of distinct deals of the other hands per
decision (sampling them is the costly part); further determinizations deal these again, each
with a new draw pile."""

INFER_DEPTH: Final = 2
"""How many of a seat's latest kept draws the sampler looks behind, trying each card it holds
as the one drawn (:func:`~unokit.bots.inference.violations`; ``strong-v1``: 1)."""

_ON_TURN: Final = DECIDING


class StrongBot:
    """Determinized Monte Carlo search (see :mod:`unokit.bots.strong`).

    It plays by the rules of the match it is in: the options of each observation it is given
    (``obs.options``), which its sampled worlds carry.

    Args:
        seed: seeds the bot's random numbers (its sampling and its rollouts).
        iterations: the least number of determinizations per decision (ignored when
            ``time_ms`` is given).
        rollouts: rollouts per decision, counted over the candidates still searched.
        time_ms: a time budget per decision instead of an iteration count.
        forget_uno: the chance it forgets to call UNO when it should.
        confidence: how sure the search must be to overrule the heuristic (:data:`CONFIDENCE`).
        infer_draws: deal hidden cards by :func:`draw_constraints` (a seat that drew held
            nothing playable), and steer the default move by it (:func:`informed_choice`).
        infer_choices: deal hidden cards to explain the other seats' choices
            (:mod:`unokit.bots.inference`).
        particles: with ``infer_choices``, the distinct deals sampled per decision
            (:data:`PARTICLES`).
        wild_colours: search every colour for a wild card (else only the most-held colour).
        max_ms: the time cap of iteration mode (:data:`MAX_MS`; 0 or ``None``: none).
        points: the weight of the points in a rollout's value (a win counts 1).
        prune: drop a candidate whose mean is this many standard errors below the best
            (0: never).
        exact_model: the rollouts play the heuristic's choices exactly (its tie-breaks, the
            colour it names, its challenge rule; :func:`~.rollouts.rollout`); ``False``:
            ``strong-v1``'s approximations.
        infer_depth: how many kept draws back the sampler tries each card as the one drawn
            (:data:`INFER_DEPTH`).

    ``search_stats()`` says how many decisions it searched, on how many the ``max_ms`` cap
    bound, and their time (the arena prints them).
    """

    name = "strong"

    def __init__(self, seed: int | None = None, iterations: int | None = None,
                 time_ms: float | None = None, forget_uno: float = 0.0,
                 confidence: float = CONFIDENCE, rollouts: int = DEFAULT_ROLLOUTS,
                 infer_draws: bool = True, wild_colours: bool = True, max_ms: float | None = MAX_MS,
                 points: float = 0.5, prune: float = 2.0, infer_choices: bool = True,
                 particles: int = PARTICLES, exact_model: bool = True,
                 infer_depth: int = INFER_DEPTH) -> None:
        self.infer_choices = infer_choices
        if particles < 1:
            raise ValueError("particles must be at least 1")
        self.particles = particles
        self.points = points
        self.prune = prune
        self.max_ms = max_ms or None
        self.confidence = confidence
        self.wild_colours = wild_colours
        self.rollouts = rollouts
        self.infer_draws = infer_draws
        self.rng = random.Random(seed)
        self.iterations = iterations if iterations is not None else DEFAULT_ITERATIONS
        if self.iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.time_ms = time_ms
        self.forget_uno = forget_uno
        self._helper = HeuristicBot(seed=self.rng.randrange(2**32), forget_uno=forget_uno)
        self.exact_model = exact_model
        self.infer_depth = infer_depth
        self.last_iterations = 0
        self.last_seconds = 0.0
        self.searched = 0
        self.capped = 0
        self.search_seconds = 0.0

    def seed(self, seed: int | None) -> None:
        """Play on as a new bot built with ``seed`` (and the same options) would."""
        self.rng.seed(seed)
        self._helper.seed(self.rng.randrange(2**32))

    def act(self, obs: Observation) -> Action | None:
        """Search the decision in ``obs`` (or follow the heuristic out of turn)."""
        legal = obs.legal
        if not legal:
            return None
        if obs.turn != obs.seat or obs.awaiting not in _ON_TURN:
            return self._helper.out_of_turn(obs)
        for a in legal:
            if ACTION_KIND[a] == K_CATCH:
                return a
        if UNO in legal and not (self.forget_uno > 0 and self.rng.random() < self.forget_uno):
            return UNO
        candidates = self.candidates(obs)
        if len(candidates) == 1:
            return candidates[0]
        return self.search(obs, candidates)

    def search_stats(self) -> dict[str, float]:
        """What this bot has counted since it was made: ``searched`` decisions, ``capped``
        (those on which the time cap ``max_ms`` stopped the search before its budget of
        rollouts) and ``seconds`` (their total time). The arena sums them per bot."""
        return {"searched": float(self.searched), "capped": float(self.capped),
                "seconds": self.search_seconds}

    def candidates(self, obs: Observation) -> list[Action]:
        """The choices worth searching: UNO always called with a play, no catches (made
        first), no voluntary draw when a card can be played, and, unless ``wild_colours``,
        one colour per wild face (the colour the rest of the hand holds most of)."""
        legal = obs.legal
        legal_set = set(legal)
        out: list[Action] = []
        seen_faces: set[int] = set()
        for a in legal:
            kind = ACTION_KIND[a]
            if kind == K_PLAY:
                if ACTION_UNO[a]:
                    continue
                c = ACTION_CARD[a]
                if c >= WILD and c in seen_faces and not self.wild_colours:
                    continue
                if c >= WILD and not self.wild_colours:
                    seen_faces.add(c)
                    rest = list(obs.hand)
                    rest.remove(c)
                    a = a - ACTION_COLOR[a] + best_color(rest)
                if a + UNO_OFFSET in legal_set and not (
                        self.forget_uno > 0 and self.rng.random() < self.forget_uno):
                    a += UNO_OFFSET
                out.append(a)
            elif kind == K_CATCH or a == UNO:
                continue
            else:
                out.append(a)
        if has_play(out) and DRAW in out:
            out.remove(DRAW)
        return out or [legal[0]]

    def search(self, obs: Observation, candidates: Sequence[Action]) -> Action:
        """Play out every candidate on sampled determinizations, then keep the default move
        (:meth:`_favourite`) unless another candidate beats it by a significant margin (see
        :data:`CONFIDENCE`)."""
        start = time.perf_counter()
        values: list[list[float]] = [[] for _ in candidates]
        budget = self.time_ms if self.time_ms is not None else self.max_ms
        deadline = start + budget / 1000.0 if budget is not None else None
        known = known_hands(obs)
        voids = draw_constraints(obs) if self.infer_draws else None
        evid = evidence(obs) if self.infer_choices else None
        root_voids = known_voids(obs, voids or {})
        alive = list(range(len(candidates)))
        dealt: list[list[list[Card]]] = []
        # A challenge that no determinization makes a success only adds 2 cards to accepting.
        challenge = candidates.index(CHALLENGE) if CHALLENGE in candidates and ACCEPT in candidates else -1
        bluffs = 0
        done = 0
        used = 0
        while True:
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                if self.time_ms is None and (done < self.iterations or used < self.rollouts):
                    self.capped += 1  # the cap bound: the budget was not reached
                break
            if self.time_ms is None and done >= self.iterations and used >= self.rollouts:
                break
            if len(alive) == 1 and done >= 1:
                break
            if evid and done >= self.particles:
                world = determinize(obs, self.rng, dealt=dealt[done % self.particles])
            else:
                world = determinize(obs, self.rng, known, voids, evid, None, self.infer_depth)
                dealt.append(world.hands)
            bluffs += world.bluff
            roll_seed = self.rng.randrange(2**62)
            for i in alive:
                g = world.copy()
                g.reseed(roll_seed)  # the same reshuffles for every candidate
                g.step_unchecked(obs.seat, candidates[i])
                values[i].append(rollout(g, obs.seat, self.points, root_voids, self.exact_model, obs.color))
            done += 1
            used += len(alive)
            if challenge in alive and not bluffs and done >= self.iterations:
                alive.remove(challenge)
            if self.prune > 0 and len(alive) > 1 and done >= self.iterations and done % 4 == 0:
                alive = prune(values, alive, self.prune)
        self.last_iterations = done
        self.last_seconds = time.perf_counter() - start
        self.searched += 1
        self.search_seconds += self.last_seconds
        favourite = self._favourite(obs, candidates, root_voids)
        favourite = alive.index(favourite) if favourite in alive else -1
        return candidates[alive[choose([values[i] for i in alive], favourite, self.confidence)]]

    def _favourite(self, obs: Observation, candidates: Sequence[Action],
                   lacking: Sequence[int] = ()) -> int:
        """The index of the search's default among ``candidates`` (or -1): the heuristic's
        choice, steered towards a colour the next seat lacks (``lacking``, per seat, from
        :func:`known_voids`; :func:`informed_choice`)."""
        favourite = informed_choice(obs, lacking) if lacking else None
        if favourite is None:
            favourite = self._helper.act(obs)
        if favourite is None:
            return -1
        for i, a in enumerate(candidates):
            if a == favourite or (ACTION_KIND[a] == K_PLAY and ACTION_KIND[favourite] == K_PLAY
                                  and ACTION_CARD[a] == ACTION_CARD[favourite]
                                  and ACTION_COLOR[a] == ACTION_COLOR[favourite]):
                return i
        return -1


_PLAIN = HeuristicBot(seed=0)
"""The heuristic's rule for :func:`informed_choice` (it never forgets UNO, so it draws no
random numbers)."""



def informed_choice(obs: Observation, lacking: Sequence[int]) -> Action | None:
    """The heuristic's rule for a turn's play or a colour, with one change: a colour the next
    seat lacks (``lacking``, from :func:`known_voids`) counts as :data:`VOID_WEIGHT` more cards
    held of it (``void`` in :meth:`HeuristicBot.choose_play`). ``None`` for other decisions, or
    when no such colour is known.

    Alone against the heuristic heads-up it wins a little over half of one-round games (52.1%
    [51.1%, 53.1%] of 10,000 on development seeds, below the held-out ones).
    """
    if obs.awaiting not in ("play", "drawn", "color") or obs.turn != obs.seat:
        return None
    void = lacking[obs.next_seat()]
    if void < 0:
        return None
    if obs.awaiting == "color":
        return COLOR_BASE + best_color(obs.hand, void)
    return _PLAIN.choose_play(obs, void)


def prune(values: Sequence[Sequence[float]], alive: list[int], z: float) -> list[int]:
    """The candidates of ``alive`` still worth sampling: those not worse than the one with the
    best mean by more than ``z`` standard errors of the paired difference (all of ``alive``
    hold values over the same determinizations).

    >>> prune([[0.0, 0.0, 0.0, 0.1], [1.0, 1.0, 0.9, 1.0], [1.0, 0.0, 1.0, 0.0]], [0, 1, 2], 2.0)
    [1, 2]
    """
    n = len(values[alive[0]])
    means = {i: sum(values[i]) / n for i in alive}
    best = max(alive, key=lambda i: (means[i], -i))
    base = values[best]
    out = []
    for i in alive:
        if i != best:
            diffs = [x - y for x, y in zip(values[i], base, strict=True)]
            mean = means[i] - means[best]
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean + z * math.sqrt(var / n) < 0:
                continue
        out.append(i)
    return out


def choose(values: Sequence[Sequence[float]], favourite: int, confidence: float) -> int:
    """The chosen candidate, given each candidate's rollout values over the same
    determinizations (paired samples).

    Without a favourite (``-1``), the best mean. Otherwise the favourite, unless some
    candidates beat it significantly: the mean paired difference exceeds ``confidence``
    standard errors; then the one among them with the largest mean difference.

    >>> choose([[0.0, 1.0, 0.0], [1.0, 1.0, 1.0]], -1, 2.0)
    1
    >>> choose([[0.0, 1.0, 0.0, 1.0], [1.0, 0.0, 1.0, 1.0]], 0, 2.0)
    0
    >>> choose([[0.0, 0.1, 0.0, 0.2], [0.5, 0.5, 0.6, 0.6]], 0, 2.0)
    1
    """
    n = len(values[0]) if values else 0
    if favourite < 0 or n < 2:
        means = [sum(v) / len(v) if v else 0.0 for v in values]
        return max(range(len(values)), key=lambda i: (means[i], -i))
    best = favourite
    best_gain = 0.0
    base = values[favourite]
    for i, v in enumerate(values):
        if i == favourite:
            continue
        diffs = [x - y for x, y in zip(v, base, strict=True)]
        mean = sum(diffs) / n
        if mean <= best_gain:
            continue
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > confidence * math.sqrt(var / n):
            best, best_gain = i, mean
    return best


def has_play(actions: Sequence[Action]) -> bool:
    """Whether ``actions`` hold a card play."""
    return any(ACTION_KIND[a] == K_PLAY for a in actions)


__all__ = ["CONFIDENCE", "DEFAULT_ITERATIONS", "DEFAULT_ROLLOUTS", "INFER_DEPTH", "MAX_MS", "PARTICLES",
           "V1_PARTICLES", "V1_ROLLOUTS", "StrongBot", "choose", "has_play", "informed_choice", "prune"]
