"""Determinizations: whole games consistent with what the strong bot's seat has seen.

:func:`deal` samples the hidden cards, the other seats' hands and the draw pile, from what the
seat knows or infers about them (:mod:`.belief`); :func:`determinize` builds the game from
them with :meth:`Game.from_observation <unokit.core.game.Game.from_observation>`, the engine's
own reconstruction of a position from an observation (the phase, the pending draw, its
attacker, whether a Wild Draw Four was a bluff), checked for consistency. The world plays by
the match's rules, ``obs.options``.
"""

from __future__ import annotations

# mypyc: compile (a bot's decision runs the engine in a loop)
import random
from collections.abc import Sequence

from ...core.cards import CARD_COLOR, CARD_RANK, WILD, Card
from ...core.editions import edition_counts
from ...core.game import Game
from ...core.observation import Observation
from ...core.shuffles import shuffle
from .belief import Evidence, Voids, sample_hands


def deal(obs: Observation, rng: random.Random,
         known: dict[int, list[Card]] | None = None,
         voids: Voids | None = None,
         evid: dict[int, Evidence] | None = None,
         dealt: Sequence[Sequence[Card]] | None = None,
         depth: int = 1) -> tuple[list[list[Card]], list[Card]]:
    """Every seat's hand and the draw pile (bottom first), the hidden cards dealt at random:
    what :func:`determinize` builds its game from (see there for the arguments)."""
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
        for t, h in sample_hands(sizes, fixed, pool, evid, rng, depth=depth).items():
            hands[t] = h
        voids = None
    if voids:
        pool = _deal_voids(obs, hands, pool, voids)
    for t in range(obs.players):
        if t == obs.seat:
            continue
        need = obs.hand_sizes[t] - len(hands[t])
        if need > 0:
            hands[t].extend(pool[-need:])
            del pool[-need:]
    return hands, pool


def _deal_voids(obs: Observation, hands: list[list[Card]], pool: list[Card], voids: Voids) -> list[Card]:
    """Deal each seat with a known void (:func:`~.belief.draw_constraints`) the cards it kept
    since its draw from the cards that fit it (none of that colour or rank; no wild, when it
    held none), from the pool's end; returns the pool left."""
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
    return pool


def determinize(obs: Observation, rng: random.Random,
                known: dict[int, list[Card]] | None = None,
                voids: Voids | None = None,
                evid: dict[int, Evidence] | None = None,
                dealt: Sequence[Sequence[Card]] | None = None,
                depth: int = 1) -> Game:
    """A full :class:`~unokit.core.game.Game` consistent with ``obs``: hidden cards dealt at random.

    ``known`` (from :func:`~.belief.known_hands`) are cards placed in their holders' hands
    first. ``evid`` (from :func:`~unokit.bots.inference.evidence`): the other hands are dealt
    to explain the seats' choices (:func:`~unokit.bots.inference.sample_hands`); else ``voids``
    (from :func:`~.belief.draw_constraints`): that many of a seat's cards are dealt from the
    cards that did not match when it last drew (``depth``: how far back the sampler checks the
    choices, :func:`~unokit.bots.inference.sample_hands`). ``dealt``: the hands of a previous
    determinization (``game.hands``) to deal again, with a new draw pile. The game's random
    numbers (reshuffles) come from ``rng`` too. The game plays by ``obs.options``.
    """
    hands, pool = deal(obs, rng, known, voids, evid, dealt, depth)
    rng.randrange(2**62)  # the world's match seed once (unused in a rollout): kept, so that
    # every seeded series draws the same numbers as before
    return Game.from_observation(obs, hands, pool, rng.randrange(2**62))


__all__ = ["deal", "determinize"]
