"""Determinized worlds: the full state of a game consistent with one seat's observation and a
guess of the hidden cards (for a search over them), as
:meth:`Game.from_observation <unokit.core.game.Game.from_observation>` builds it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import CARD_COLOR, DRAW_TWO, N_CARDS, WILD, WILD_DRAW_FOUR, WILD_DRAW_FOUR_RANK, Card
from .editions import edition_counts
from .errors import PositionError
from .observation import Observation, color_before_top
from .phases import AWAITING, DRAWN, RESPOND, ROUND_OVER
from .state import RoundStart


def check_world(obs: Observation, hands: Sequence[Sequence[Card]], draw_pile: Sequence[Card]) -> None:
    """Raise :class:`PositionError` unless ``hands`` and ``draw_pile`` fit ``obs``: a hand per
    seat, the seat's own as observed, every hand of the observed size, and with the discard
    pile exactly the edition's deck; and the round must still be going on."""
    seat = obs.seat
    if len(hands) != obs.players:
        raise PositionError(f"{obs.players} seats need {obs.players} hands, not {len(hands)}")
    if sorted(hands[seat]) != sorted(obs.hand):
        raise PositionError(f"seat {seat}'s hand must be the observed one")
    for t, h in enumerate(hands):
        if len(h) != obs.hand_sizes[t]:
            raise PositionError(f"seat {t} holds {obs.hand_sizes[t]} cards, not {len(h)}")
    counts = [0] * N_CARDS
    for c in [c for h in hands for c in h] + list(draw_pile) + list(obs.discard):
        counts[c] += 1
    if counts != edition_counts(obs.edition):
        raise PositionError(f"the hands, the draw pile and the discard pile must be the {obs.edition} deck")
    if AWAITING.index(obs.awaiting) >= ROUND_OVER:
        raise PositionError("the round is over: there is no decision to take in it")


def world_fields(obs: Observation, hands: Sequence[Sequence[Card]], draw_pile: Sequence[Card],
                 seed: int) -> dict[str, Any]:
    """Every field of the world (``{field: value as a State holds it}``, see
    :mod:`unokit.core.state`), once :func:`check_world` accepted it. What the observation
    implies is rebuilt: the card another seat just drew (its hand's last), the rank of the draw
    card waiting for an answer, and whether a Wild Draw Four waiting for one was a bluff."""
    phase = AWAITING.index(obs.awaiting)
    drawn = obs.drawn
    if phase == DRAWN and drawn < 0 and hands[obs.turn]:
        drawn = hands[obs.turn][-1]  # hidden from this seat: the world's is its last card
    pending_rank = -1
    bluff = False
    if phase == RESPOND:
        top = obs.top
        pending_rank = WILD_DRAW_FOUR_RANK if top == WILD_DRAW_FOUR else DRAW_TWO
        if top == WILD_DRAW_FOUR:
            prev = color_before_top(obs)
            bluff = any(CARD_COLOR[h] == prev for h in hands[obs.attacker] if h < WILD)
    history = list(obs.history)
    start = RoundStart(obs.dealer, None, None, obs.scores,
                       tuple(t for t in range(obs.players) if obs.eliminated[t]), history)
    seen: list[dict[int, tuple[Card, ...]]] = [{} for _ in range(obs.players)]
    seen[obs.seat] = dict(obs.seen)
    return {
        "edition": obs.edition, "options": obs.options, "n": obs.players, "seed": seed,
        "deal_rng": None, "scores": tuple(obs.scores), "eliminated": tuple(obs.eliminated),
        "round_no": obs.round_no, "dealer": obs.dealer, "winners": (), "round_winner": -1,
        "rounds": (start.frozen(),), "hands": tuple(tuple(h) for h in hands),
        "draw_pile": tuple(draw_pile), "discard": tuple(obs.discard), "color": obs.color,
        "turn": obs.turn, "direction": obs.direction, "phase": phase,
        "drawn": drawn if phase == DRAWN else -1, "pending": obs.pending,
        "pending_rank": pending_rank, "attacker": obs.attacker, "bluff": bluff,
        "owed": tuple(obs.owed), "window": tuple(obs.catchable),
        "seen": tuple(tuple(sorted(s.items())) for s in seen), "idle_turns": obs.idle_turns,
        "blocked": False, "rng": None, "rng_seed": seed, "version": len(history),
    }


__all__ = ["check_world", "world_fields"]
