"""What the strong bot knows or infers about the cards it cannot see.

Everything here is read from the seat's :class:`~unokit.core.observation.Observation` alone:

* :func:`known_hands`: the cards it was shown (a Mater peek, a challenge: ``obs.seen``), less
  the cards their holders have played since, following swaps of hands;
* :func:`draw_constraints`: what the other seats' draws and wild plays say they did *not*
  hold (a seat draws at its turn only when nothing is playable), and :func:`known_voids`, the
  colour each seat is known to lack now;
* the other seats' choices, explained by the heuristic's rule (:mod:`unokit.bots.inference`:
  :func:`~unokit.bots.inference.evidence`, re-exported here with the sampler that uses it).

The match options change what a choice means (hand swaps, stacking, drawing until playable);
they are public, and every function here reads them from ``obs.options``.
"""

from __future__ import annotations

# mypyc: compile (a bot's decision runs the engine in a loop)
from ...core.actions import (
    ACTION_ARG,
    ACTION_CARD,
    ACTION_COLOR,
    ACTION_KIND,
    K_ACCEPT,
    K_CATCH,
    K_CHALLENGE,
    K_COLOR,
    K_DRAW,
    K_PLAY,
    K_SWAP,
)
from ...core.cards import AGENT_P, CARD_COLOR, CARD_RANK, DRAW_TWO, MATER, WILD, WILD_DRAW_FOUR, Card
from ...core.observation import Observation
from ...core.options import Options
from ..inference import Evidence, evidence, sample_hands

Voids = dict[int, tuple[int, int, int, int]]
"""What :func:`draw_constraints` returns: per other seat, ``(colour, rank, old, wilds)``."""


def known_hands(obs: Observation) -> dict[int, list[Card]]:
    """The cards this seat knows other seats still hold: what it was shown (``obs.seen``),
    less what each seat has played since, following swaps of hands; with the ``seven_zero``
    house rule, a hand rotation (a 0 played) forgets everything (forgetting is always
    consistent).
    """
    if not obs.seen:
        return {}
    seven_zero = obs.options.seven_zero
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


def draw_constraints(obs: Observation, options: Options | None = None) -> Voids:
    """What the other seats' draws say about their hands, assuming a seat draws at its turn
    only when it holds no playable card (true of the heuristic and strong bots; not of
    ``random``).

    For each other seat, from its latest draw at a normal turn: ``(colour, rank, old)``:
    at that moment it held no wild and no card of that colour or rank, and at least ``old``
    of the cards it holds now are still from that moment (its hand size now, less an upper
    bound of the cards it has received since). Seats whose hands were swapped since, or
    whose draws cannot be bounded (``draw_until_playable``, stacking), are left out.

    The house rules are the match's, ``obs.options``; ``options`` asks instead what the draws
    would say under other rules.
    """
    if options is None:
        options = obs.options
    if options.draw_until_playable or options.stacking != "off":
        return {}
    out: dict[int, tuple[int, int, int, int]] = {}
    for t, (col, rk, received, wilds) in _draw_events(obs, options).items():
        if t == obs.seat or col < 0:
            continue
        old = obs.hand_sizes[t] - received
        if old > 0:
            out[t] = (col, rk, old, wilds)
    return out


def _draw_events(obs: Observation, options: Options) -> dict[int, list[int]]:
    """Each seat's latest draw (or wild) at a normal turn, read from the history:
    ``seat -> [colour, rank, cards received since, wilds held]``."""
    colour = -1
    rank = -1
    first = obs.discard[0] if obs.discard else -1
    if 0 <= first < WILD:
        colour, rank = CARD_COLOR[first], CARD_RANK[first]
    pending = 0
    answering = False  # a draw card waits for its answer
    prev_seat = -2
    prev_kind = -1
    events: dict[int, list[int]] = {}  # seat -> [colour, rank, received since, wilds held]
    for seat, a in obs.history:
        kind = ACTION_KIND[a]
        if seat < 0:  # a host's penalty: draw 2
            _received(events, ACTION_ARG[a], 2)
            continue
        after_draw = prev_seat == seat and prev_kind == K_DRAW
        prev_seat, prev_kind = seat, kind
        if kind == K_PLAY:
            colour, rank, answering, pending = _played(events, seat, ACTION_CARD[a], ACTION_COLOR[a], colour,
                                                       rank, answering, pending, after_draw, options)
        elif kind == K_COLOR:
            colour = ACTION_ARG[a]
        elif kind == K_DRAW:
            events[seat] = [colour, rank, 1, 0]
        elif kind == K_CATCH:
            _received(events, ACTION_ARG[a], 2)
        elif kind == K_ACCEPT:
            answering = False
            _received(events, seat, pending or 4)
        elif kind == K_CHALLENGE:
            answering = False
            for t in events:
                events[t][2] += 6
        elif kind == K_SWAP:
            events.pop(seat, None)
            events.pop(ACTION_ARG[a], None)
    return events


def _received(events: dict[int, list[int]], seat: int, k: int) -> None:
    """``seat`` received ``k`` cards since its latest draw, if it has one."""
    if seat in events:
        events[seat][2] += k


def _played(events: dict[int, list[int]], seat: int, c: Card, named: int, colour: int, rank: int,
            answering: bool, pending: int, after_draw: bool, options: Options) -> tuple[int, int, bool, int]:
    """What ``seat`` playing ``c`` (``named``: the colour it names or takes) says, and the
    colour, rank, answer and pending count in play after it."""
    if after_draw and seat in events:
        events[seat][2] -= 1  # the drawn card left the hand again
    if c >= WILD and not answering and not after_draw and colour >= 0:
        # A wild played at a normal turn: the seat held no coloured card that matched
        # (the heuristic keeps its wilds until nothing else matches; W+4 never bluffed).
        events[seat] = [colour, rank, 0, 1]
    draw_two = c < WILD and CARD_RANK[c] == DRAW_TWO
    answering = c == WILD_DRAW_FOUR or draw_two
    if c == WILD_DRAW_FOUR:
        pending = 4
    elif draw_two:
        pending = 2
    if pending and (c == WILD_DRAW_FOUR or draw_two):
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
    return named, (CARD_RANK[c] if c < WILD else -1), answering, pending


def known_voids(obs: Observation, voids: Voids) -> list[int]:
    """For each seat, the colour it is known to lack (it drew on that colour and has received
    at most one card since: ``voids`` is :func:`draw_constraints`), or -1."""
    out = [-1] * obs.players
    for t, (col, _rank, old, _wilds) in voids.items():
        if obs.hand_sizes[t] - old <= 1:
            out[t] = col
    return out


__all__ = ["Evidence", "Voids", "draw_constraints", "evidence", "known_hands", "known_voids",
           "sample_hands"]
