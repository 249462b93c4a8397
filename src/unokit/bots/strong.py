"""``strong``: determinized Monte Carlo search over the hidden cards (see ``docs/bots.md``).

At each decision with more than one sensible choice, the bot samples *determinizations*:
full games consistent with everything its seat has seen. The cards it cannot see (the
edition's deck minus its own hand and the discard pile) are dealt at random to the other
seats by their hand sizes, with the cards it knows they hold (from a Mater peek or a
challenge, ``obs.seen``, less the cards they have played since) placed first, and the other
cards dealt so as to explain every choice each seat made, taking it to play like the heuristic
(:mod:`unokit.bots.inference`; where house rules turn that off, only the cards that a seat's
draws and wild plays say it did not hold, :func:`draw_constraints`, are kept out of its hand);
the rest form the draw pile in random order. From each determinization every
candidate action is played out to the end of the round by the heuristic's rules for every
seat (:func:`_fast_action`), with the same sampled world and the same random numbers for
every candidate (common random numbers); the bot's own seat plays there with a preference for
a colour the next seat lacks. Candidates clearly behind are dropped as the samples come in
(:func:`prune`), and so is a challenge that no sample makes a success. The default move (the
heuristic's, steered to a colour the next seat lacks: :func:`informed_choice`) is kept unless
another candidate beats it significantly over these paired samples (:func:`choose`).
Out-of-turn choices (catching, calling UNO, jumping in) follow the heuristic bot: always
catch, always call.

The budget is explicit: ``rollouts`` per decision (at least ``iterations``
determinizations; deterministic given the seed), capped at ``max_ms`` milliseconds (50 by
default; ``max_ms=0`` for no cap and exact reproducibility), or instead ``time_ms``
milliseconds per decision (measured with ``time.perf_counter``). See ``docs/strength.md``
for the measured times.

The bot reads only its :class:`~unokit.observation.Observation`, plus the match options,
which are public (every seat knows the rules it plays by).

>>> from unokit import Game
>>> from unokit.bots import HeuristicBot, StrongBot, play_match
>>> game = Game.new("classic", 2, seed=4)
>>> bots = [StrongBot(seed=1, rollouts=8, iterations=2, max_ms=0), HeuristicBot(seed=2)]
>>> play_match(game, bots).is_over
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Final

from ..actions import (
    ACCEPT,
    ACTION_ARG,
    ACTION_CARD,
    ACTION_COLOR,
    ACTION_KIND,
    ACTION_UNO,
    CHALLENGE,
    COLOR_BASE,
    DRAW,
    K_ACCEPT,
    K_CATCH,
    K_CHALLENGE,
    K_COLOR,
    K_DRAW,
    K_PLAY,
    K_SWAP,
    PASS,
    SWAP_BASE,
    UNO,
    UNO_OFFSET,
    Action,
)
from ..cards import (
    AGENT_P,
    CARD_COLOR,
    CARD_POINTS,
    CARD_RANK,
    DRAW_TWO,
    MATER,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    Card,
    edition_counts,
)
from ..draws import shuffle
from ..game import AWAITING, COLOR, DRAWN, MATCHES, PLAY, RESPOND, ROUND_OVER, Game
from ..observation import Observation
from ..options import Options
from .heuristic import (
    VOID_WEIGHT,
    WILD_PREFERENCE,
    HeuristicBot,
    best_color,
    color_before_last_wd4,
    next_seat,
)
from .inference import Evidence, evidence, sample_hands

DEFAULT_ITERATIONS: Final = 8
"""The least number of determinizations per decision (each plays out every candidate once)."""

MAX_MS: Final = 50.0
"""The default cap on a decision's time in iteration mode: the search stops early (after at
least one determinization) when it runs past it, which can happen only on a slow or busy
machine. ``max_ms=0`` removes the cap, making every decision a function of the seed alone."""

DEFAULT_ROLLOUTS: Final = 150
"""Rollouts per decision by default, counted over the candidates still searched (at least
``iterations`` determinizations), so the work per decision stays about the same."""

CONFIDENCE: Final = 1.0
"""The search departs from the heuristic's own choice only for a candidate whose mean gain
over it, paired over the same determinizations, exceeds this many standard errors."""

PARTICLES: Final = 12
"""With the inference from choices, the number of distinct deals of the other hands per
decision (sampling them is the costly part); further determinizations deal these again, each
with a new draw pile."""

_ON_TURN: Final = ("play", "drawn", "respond", "color", "swap")
_MAX_ROLLOUT_STEPS: Final = 3000


def known_hands(obs: Observation, seven_zero: bool = False) -> dict[int, list[Card]]:
    """The cards this seat knows other seats still hold: what it was shown (``obs.seen``),
    less what each seat has played since, following swaps of hands; with ``seven_zero``, a
    hand rotation (a 0 played) forgets everything (forgetting is always consistent).
    """
    if not obs.seen:
        return {}
    me = obs.seat
    hist = obs.history
    last_peek = -1
    last_challenge = -1
    challenged = -1
    last_wd4_seat = -1
    for i, (seat, a) in enumerate(hist):
        kind = ACTION_KIND[a]
        if kind == K_PLAY and ACTION_CARD[a] == WILD_DRAW_FOUR:
            last_wd4_seat = seat
        if seat != me:
            continue
        if kind == K_PLAY and ACTION_CARD[a] == MATER:
            last_peek = i
        elif kind == K_CHALLENGE:
            last_challenge = i
            challenged = last_wd4_seat
    since: dict[int, list[int]] = {}
    for t in obs.seen:
        at = last_challenge if (t == challenged and last_challenge > last_peek) else last_peek
        if at >= 0:
            since.setdefault(at, []).append(t)
    if not since:
        return {}
    known: dict[int, list[Card]] = {}
    for i in range(min(since), len(hist)):
        if i in since:
            for t in since[i]:
                known[t] = list(obs.seen[t])
            continue
        seat, a = hist[i]
        kind = ACTION_KIND[a]
        if kind == K_PLAY:
            c = ACTION_CARD[a]
            hand = known.get(seat)
            if hand is not None and c in hand:
                hand.remove(c)
            if seven_zero and c < WILD and CARD_RANK[c] == 0:
                known.clear()
        elif kind == K_SWAP:
            target = ACTION_ARG[a]
            a_hand = known.pop(seat, None)
            b_hand = known.pop(target, None)
            if a_hand is not None:
                known[target] = a_hand
            if b_hand is not None:
                known[seat] = b_hand
    known.pop(me, None)
    return known


class StrongBot:
    """Determinized Monte Carlo search (see the module docstring).

    Args:
        seed: seeds the bot's random numbers (its sampling and its rollouts).
        iterations: the least number of determinizations per decision (ignored when
            ``time_ms`` is given).
        rollouts: rollouts per decision, counted over the candidates still searched.
        time_ms: a time budget per decision instead of an iteration count.
        options: the match options (public rules); the defaults if not given.
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
    """

    name = "strong"

    def __init__(self, seed: int | None = None, iterations: int | None = None,
                 time_ms: float | None = None, options: Options | None = None,
                 forget_uno: float = 0.0, confidence: float = CONFIDENCE, rollouts: int = DEFAULT_ROLLOUTS,
                 infer_draws: bool = True, wild_colours: bool = True, max_ms: float | None = MAX_MS,
                 points: float = 0.5, prune: float = 2.0, infer_choices: bool = True,
                 particles: int = PARTICLES) -> None:
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
        self.options = options if options is not None else Options()
        self.forget_uno = forget_uno
        self._helper = HeuristicBot(seed=self.rng.randrange(2**32), forget_uno=forget_uno)
        self.last_iterations = 0
        self.last_seconds = 0.0

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
        known = known_hands(obs, self.options.seven_zero)
        voids = draw_constraints(obs, self.options) if self.infer_draws else None
        evid = evidence(obs, self.options) if self.infer_choices else None
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
                break
            if self.time_ms is None and done >= self.iterations and used >= self.rollouts:
                break
            if len(alive) == 1 and done >= 1:
                break
            if evid and done >= self.particles:
                world = determinize(obs, self.options, self.rng, dealt=dealt[done % self.particles])
            else:
                world = determinize(obs, self.options, self.rng, known, voids, evid)
                dealt.append(world.hands)
            bluffs += world.bluff
            roll_seed = self.rng.randrange(2**62)
            for i in alive:
                g = world.copy()
                g.reseed(roll_seed)  # the same reshuffles for every candidate
                g._do(obs.seat, candidates[i])
                values[i].append(rollout(g, obs.seat, self.points, root_voids))
            done += 1
            used += len(alive)
            if challenge in alive and not bluffs and done >= self.iterations:
                alive.remove(challenge)
            if self.prune > 0 and len(alive) > 1 and done >= self.iterations and done % 4 == 0:
                alive = prune(values, alive, self.prune)
        self.last_iterations = done
        self.last_seconds = time.perf_counter() - start
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


def known_voids(obs: Observation, voids: dict[int, tuple[int, int, int, int]]) -> list[int]:
    """For each seat, the colour it is known to lack (it drew on that colour and has received
    at most one card since: ``voids`` is :func:`draw_constraints`), or -1."""
    out = [-1] * obs.players
    for t, (col, _rank, old, _wilds) in voids.items():
        if obs.hand_sizes[t] - old <= 1:
            out[t] = col
    return out


def informed_choice(obs: Observation, lacking: Sequence[int]) -> Action | None:
    """The heuristic's rule for a turn's play or a colour, with one change: a colour the next
    seat lacks (``lacking``, from :func:`known_voids`) counts as :data:`VOID_WEIGHT` more cards
    held of it (``void`` in :meth:`HeuristicBot.choose_play`). ``None`` for other decisions, or
    when no such colour is known.

    Measured alone against the heuristic (2 players, 10,000 one-round games): 52.1% [51.1%, 53.1%].
    """
    if obs.awaiting not in ("play", "drawn", "color") or obs.turn != obs.seat:
        return None
    void = lacking[next_seat(obs)]
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


def draw_constraints(obs: Observation, options: Options) -> dict[int, tuple[int, int, int, int]]:
    """What the other seats' draws say about their hands, assuming a seat draws at its turn
    only when it holds no playable card (true of the heuristic and strong bots; not of
    ``random``).

    For each other seat, from its latest draw at a normal turn: ``(colour, rank, old)``:
    at that moment it held no wild and no card of that colour or rank, and at least ``old``
    of the cards it holds now are still from that moment (its hand size now, less an upper
    bound of the cards it has received since). Seats whose hands were swapped since, or
    whose draws cannot be bounded (``draw_until_playable``, stacking), are left out.
    """
    if options.draw_until_playable or options.stacking != "off":
        return {}
    hist = obs.history
    colour = -1
    rank = -1
    first = obs.discard[0] if obs.discard else -1
    if first >= 0 and first < WILD:
        colour, rank = CARD_COLOR[first], CARD_RANK[first]
    elif first >= WILD:
        rank = -1
    pending = 0
    answering = False  # a draw card waits for its answer
    prev_seat = -2
    prev_kind = -1
    events: dict[int, list[int]] = {}  # seat -> [colour, rank, received since, wilds held]
    for seat, a in hist:
        kind = ACTION_KIND[a]
        if seat < 0:  # a host's penalty: draw 2
            target = ACTION_ARG[a]
            if target in events:
                events[target][2] += 2
            continue
        last_seat, last_kind = prev_seat, prev_kind
        prev_seat, prev_kind = seat, kind
        if kind == K_PLAY:
            c = ACTION_CARD[a]
            if last_seat == seat and last_kind == K_DRAW and seat in events:
                events[seat][2] -= 1  # the drawn card left the hand again
            if (c >= WILD and not answering and not (last_seat == seat and last_kind == K_DRAW)
                    and colour >= 0):
                # A wild played at a normal turn: the seat held no coloured card that matched
                # (the heuristic keeps its wilds until nothing else matches; W+4 never bluffed).
                events[seat] = [colour, rank, 0, 1]
            answering = c == WILD_DRAW_FOUR or (c < WILD and CARD_RANK[c] == DRAW_TWO)
            colour = ACTION_COLOR[a]
            rank = CARD_RANK[c] if c < WILD else -1
            if c == WILD_DRAW_FOUR:
                pending = 4
            elif c < WILD and CARD_RANK[c] == DRAW_TWO:
                pending = 2
            if pending and (c == WILD_DRAW_FOUR or (c < WILD and CARD_RANK[c] == DRAW_TWO)):
                # The victim may draw at once, with no entry in the history: count the cards
                # as received by every seat (an over-count only loosens the constraint).
                for t in events:
                    if t != seat:
                        events[t][2] += pending
            elif c == AGENT_P:
                for t in events:
                    if t != seat:
                        events[t][2] += 4
            if options.seven_zero and c < WILD and CARD_RANK[c] == 0:
                events.clear()
        elif kind == K_COLOR:
            colour = ACTION_ARG[a]
        elif kind == K_DRAW:
            events[seat] = [colour, rank, 1, 0]
        elif kind == K_CATCH:
            target = ACTION_ARG[a]
            if target in events:
                events[target][2] += 2
        elif kind == K_ACCEPT:
            answering = False
            if seat in events:
                events[seat][2] += pending or 4
        elif kind == K_CHALLENGE:
            answering = False
            for t in events:
                events[t][2] += 6
        elif kind == K_SWAP:
            events.pop(seat, None)
            events.pop(ACTION_ARG[a], None)
    out: dict[int, tuple[int, int, int, int]] = {}
    for t, (col, rk, received, wilds) in events.items():
        if t == obs.seat or col < 0:
            continue
        old = obs.hand_sizes[t] - received
        if old > 0:
            out[t] = (col, rk, old, wilds)
    return out


def has_play(actions: Sequence[Action]) -> bool:
    """Whether ``actions`` hold a card play."""
    return any(ACTION_KIND[a] == K_PLAY for a in actions)


def determinize(obs: Observation, options: Options, rng: random.Random,
                known: dict[int, list[Card]] | None = None,
                voids: dict[int, tuple[int, int, int, int]] | None = None,
                evid: dict[int, Evidence] | None = None,
                dealt: Sequence[Sequence[Card]] | None = None) -> Game:
    """A full :class:`Game` consistent with ``obs``: hidden cards dealt at random.

    ``known`` (from :func:`known_hands`) are cards placed in their holders' hands first.
    ``evid`` (from :func:`~unokit.bots.inference.evidence`): the other hands are dealt to
    explain the seats' choices (:func:`~unokit.bots.inference.sample_hands`); else ``voids``
    (from :func:`draw_constraints`): that many of a seat's cards are dealt from the cards that
    did not match when it last drew. ``dealt``: the hands of a previous determinization
    (``game.hands``) to deal again, with a new draw pile. The game's random numbers
    (reshuffles) come from ``rng`` too.
    """
    counts = edition_counts(obs.edition)
    for c in obs.hand:
        counts[c] -= 1
    for c in obs.discard:
        counts[c] -= 1
    hands: list[list[Card]] = [[] for _ in range(obs.players)]
    hands[obs.seat] = list(obs.hand)
    if dealt is not None:
        for t in range(obs.players):
            if t != obs.seat:
                hands[t] = list(dealt[t])
                for c in dealt[t]:
                    counts[c] -= 1
        known = None
        evid = None
        voids = None
    if known:
        for t, cards in known.items():
            size = obs.hand_sizes[t]
            for c in cards:
                if len(hands[t]) >= size:
                    break
                if counts[c] > 0:
                    counts[c] -= 1
                    hands[t].append(c)
    pool: list[Card] = []
    for c, k in enumerate(counts):
        if k > 0:
            pool.extend([c] * k)
    shuffle(rng, pool)
    if evid is not None:
        sizes = {t: obs.hand_sizes[t] for t in range(obs.players) if t != obs.seat}
        fixed = {t: hands[t] for t in sizes if hands[t]}
        for t, h in sample_hands(sizes, fixed, pool, evid, rng).items():
            hands[t] = h
        voids = None
    if voids:
        for t, (col, rk, old, wilds) in voids.items():
            need = min(old, obs.hand_sizes[t]) - len(hands[t])
            if need <= 0:
                continue
            i = len(pool) - 1
            while i >= 0 and need > 0:
                c = pool[i]
                if (c < WILD and CARD_COLOR[c] != col and CARD_RANK[c] != rk) or (wilds and c >= WILD):
                    hands[t].append(c)
                    pool[i] = -1
                    need -= 1
                i -= 1
            pool = [c for c in pool if c >= 0]
    for t in range(obs.players):
        if t == obs.seat:
            continue
        need = obs.hand_sizes[t] - len(hands[t])
        if need > 0:
            hands[t].extend(pool[-need:])
            del pool[-need:]
    g = Game(obs.edition, obs.players, options, rng.randrange(2**62))
    g.eliminated = list(obs.eliminated)
    g._clear_round()
    g.scores = list(obs.scores)
    g.round_no = obs.round_no
    g.dealer = obs.dealer
    g.hands = hands
    g.draw_pile = pool
    g.discard = list(obs.discard)
    g.color = obs.color
    g.turn = obs.turn
    g.direction = obs.direction
    g.phase = AWAITING.index(obs.awaiting)
    g.drawn = obs.drawn if g.phase == DRAWN else -1
    g.owed = list(obs.owed)
    g.window = list(obs.catchable)
    g.reseed(rng.randrange(2**62))  # made only if a rollout of this very world shuffles
    if g.phase == RESPOND:
        g.pending = obs.pending
        for seat, a in reversed(obs.history):
            if ACTION_KIND[a] == K_PLAY:
                c = ACTION_CARD[a]
                g.attacker = seat
                g.pending_rank = 14 if c == WILD_DRAW_FOUR else DRAW_TWO
                if c == WILD_DRAW_FOUR:
                    prev = color_before_last_wd4(obs)
                    g.bluff = any(CARD_COLOR[h] == prev for h in hands[seat] if h < WILD)
                break
    return g




def _fast_action(g: Game, seat: int, void: int = -1) -> Action:
    """The default policy of the rollouts: the heuristic's rules, without allocation.

    A coloured card first, by (attack when the next seat holds 2 cards or fewer, cards held of
    its colour, points); else a wild (W+4, W, Mater, Agent P, in that order) in the colour held
    most; else draw, and play the drawn card. Answers Agent P or a stack when it can, challenges a
    W+4 from a seat left with 4 cards or more (about where the heuristic's estimate of a bluff
    reaches its threshold), else accepts. The policy is deterministic.
    ``void``: a colour the next seat lacks, which then counts as :data:`VOID_WEIGHT` more cards
    held of it (as in :func:`informed_choice`).
    """
    phase = g.phase
    hand = g.hands[seat]
    if phase == PLAY:
        # Read from the hand directly: every matching card is legal here, since a W+4 is
        # played only when no coloured card matches (so none of the colour in play is held).
        match = MATCHES[g.color * 17 + CARD_RANK[g.discard[-1]]]
        count = [0, 0, 0, 0]
        for h in hand:
            if h < WILD:
                count[CARD_COLOR[h]] += 1
        nxt = (seat + g.direction) % g.n
        danger = len(g.hands[nxt]) <= 2
        best = -1
        best_key = -1
        wild_key = 9
        for c in hand:
            if not match[c]:
                continue
            if c >= WILD:
                k = WILD_PREFERENCE[c]
                if k < wild_key:
                    wild_key = k
                    if best < 0 or best >= WILD:
                        best = c
                continue
            col = CARD_COLOR[c]
            key = CARD_POINTS[c] + 64 * (count[col] + VOID_WEIGHT * (col == void)) \
                + 64 * 200 * (danger and CARD_RANK[c] >= SKIP)
            if key > best_key:
                best_key = key
                best = c
        if best < 0:
            return DRAW
        if best >= WILD:
            best = WILD + 4 * (best - WILD) + _held_color(hand, void)
        return best + UNO_OFFSET if len(hand) == 2 else best
    if phase == DRAWN:
        # The drawn card is played when it can be (a wild in the colour held most), else kept.
        d = g.drawn
        if 0 <= d < WILD:
            playable = MATCHES[g.color * 17 + CARD_RANK[g.discard[-1]]][d]
        else:  # a wild is offered only when legal (an illegal W+4 under wd4_bluffing: forbid)
            playable = any(WILD <= a < UNO_OFFSET for a in g.legal_actions(seat))
        if not playable:
            return PASS
        a = d if d < WILD else WILD + 4 * (d - WILD) + _held_color(hand)
        return a + UNO_OFFSET if len(hand) == 2 else a
    legal = g.legal_actions(seat)
    if phase == RESPOND:
        for a in legal:
            if ACTION_KIND[a] == K_PLAY and not ACTION_UNO[a]:
                c = ACTION_CARD[a]
                if c >= WILD:
                    a = WILD + 4 * (c - WILD) + _held_color(hand)
                return a + UNO_OFFSET if len(hand) == 2 else a
        if CHALLENGE in legal and g.attacker >= 0 and len(g.hands[g.attacker]) >= 4:
            return CHALLENGE
        return ACCEPT
    if phase == COLOR:
        return COLOR_BASE + _held_color(hand)
    # SWAP: the seat with the fewest cards.
    best_t = -1
    for a in legal:
        if ACTION_KIND[a] == K_SWAP:
            t = ACTION_ARG[a]
            if best_t < 0 or len(g.hands[t]) < len(g.hands[best_t]):
                best_t = t
    return legal[0] if best_t < 0 else SWAP_BASE + best_t


def _held_color(hand: list[Card], void: int = -1) -> int:
    count = [0, 0, 0, 0]
    for c in hand:
        if c < WILD:
            count[CARD_COLOR[c]] += 1
    if void >= 0 and count[void]:
        count[void] += VOID_WEIGHT
    best = 0
    for col in (1, 2, 3):
        if count[col] > count[best]:
            best = col
    return best


def rollout(g: Game, me: int, points: float = 0.5,
            voids: Sequence[int] | None = None) -> float:
    """Play ``g`` to the end of its round with the default policy; the value for seat ``me``.

    ``me`` plays with :data:`VOID_WEIGHT` for a colour the next seat lacks: the colour it last
    drew on in the rollout while it has received no other card since, or from the start, its
    colour in ``voids`` (one colour or -1 per seat, see :func:`known_voids`).

    Value: 1 for a round won by ``me`` (or its team), plus a share of the points won; a round
    lost costs a share of the points left in ``me``'s hand (which go to the winner, or count
    against ``me`` with alternative scoring or elimination).
    """
    steps = 0
    n = g.n
    void = list(voids) if voids is not None else [-1] * n  # the colour a seat drew on ...
    void_size = [len(h) for h in g.hands]  # ... while it holds no more cards than this
    while g.phase < ROUND_OVER and steps < _MAX_ROLLOUT_STEPS:
        seat = g.turn
        if g.phase == PLAY:
            v = -1
            if seat == me:
                nxt = (seat + g.direction) % n
                if void[nxt] >= 0 and len(g.hands[nxt]) <= void_size[nxt]:
                    v = void[nxt]
            a = _fast_action(g, seat, v)
            if a == DRAW:
                void[seat] = g.color
                void_size[seat] = len(g.hands[seat]) + 1
        else:
            a = _fast_action(g, seat)
        g._do(seat, a)
        steps += 1
    if g.phase < ROUND_OVER:
        return 0.0
    mine = sum(CARD_POINTS[c] for c in g.hands[me])
    won = g.round_winner == g.team_of(me)
    if g.options.scoring == "standard" and g.options.mode != "elimination":
        if won:
            gained = sum(CARD_POINTS[c] for s, h in enumerate(g.hands) if g.team_of(s) != g.round_winner
                         for c in h)
            return 1.0 + points * min(gained, 200) / 200.0
        return -points * min(mine, 200) / 200.0
    return (1.0 if won else 0.0) - points * min(mine, 200) / 200.0


__all__ = ["DEFAULT_ITERATIONS", "DEFAULT_ROLLOUTS", "StrongBot", "determinize", "draw_constraints",
           "informed_choice", "known_hands", "known_voids", "rollout"]
