"""The strong bot's rollouts: a position of a determinized game played to the end of its round.

Every seat plays by :func:`_fast_action`, the heuristic's rules read straight from the game
(no observation is built); the searching seat alone prefers a colour the next seat lacks. The
game is the bot's own sampled world (:mod:`.sampling`): the rollout reads its public fields
and advances it with :meth:`Game.step_unchecked <unokit.core.game.Game.step_unchecked>`, with
actions the rules' own state makes legal.
"""

from __future__ import annotations

# mypyc: compile (a bot's decision runs the engine in a loop)
from collections.abc import Sequence
from math import comb
from typing import Final

from ...core.actions import (
    ACCEPT,
    ACTION_ARG,
    ACTION_CARD,
    ACTION_KIND,
    ACTION_UNO,
    CHALLENGE,
    COLOR_BASE,
    DRAW,
    K_PLAY,
    K_SWAP,
    PASS,
    SWAP_BASE,
    UNO_OFFSET,
    Action,
)
from ...core.cards import CARD_COLOR, CARD_POINTS, CARD_RANK, WILD, Card
from ...core.editions import edition_counts
from ...core.game import Game
from ...core.legality import MATCHES
from ...core.phases import COLOR, DRAWN, PLAY, RESPOND, ROUND_OVER
from ..heuristic import CHALLENGE_THRESHOLD, VOID_WEIGHT, WILD_PREFERENCE, best_color, play_key

MAX_ROLLOUT_STEPS: Final = 3000
"""A rollout stops here (valued 0) if its round has not ended."""


def _fast_action(g: Game, seat: int, void: int = -1, exact: bool = False, prev: int = -1) -> Action:
    """The default policy of the rollouts: the heuristic's rules, without allocation.

    A coloured card first, by (attack when the next seat holds 2 cards or fewer, cards held of
    its colour, points); else a wild (W+4, W, Mater, Agent P, in that order) in the colour held
    most; else draw, and play the drawn card. Answers Agent P or a stack when it can, else
    challenges or accepts a Wild Draw Four. The policy is deterministic.
    ``void``: a colour the next seat lacks, which then counts as :data:`VOID_WEIGHT` more cards
    held of it (as in :func:`~.search.informed_choice`).

    ``exact``: the heuristic's choices exactly, as the ``strong`` bot plays its rollouts: ties
    between coloured cards go to the lower card (the heuristic's order, whatever the order of
    the hand), a colour is named by :func:`~unokit.bots.heuristic.best_color` (ties: the most
    points), and a seat challenges when the heuristic's estimate of a bluff reaches its threshold
    (:func:`heuristic_challenges`, with ``prev`` the colour in play before the Wild Draw Four);
    only under ``stacking``, between several cards to stack, it takes the first where the
    heuristic may prefer another.
    Without it, the approximations of ``strong-v1``: the first such card in the hand, the colour
    held most (ties: the colour order), and a challenge of an attacker left with 4 cards or more
    (about where the estimate reaches the threshold).
    """
    phase = g.phase
    if phase == PLAY:
        return _fast_play(g, seat, void, exact)
    hand = g.hands[seat]
    if phase == DRAWN:
        return _fast_drawn(g, seat, hand, exact)
    legal = g.legal_actions(seat)
    if phase == RESPOND:
        return _fast_answer(g, seat, hand, legal, exact, prev)
    if phase == COLOR:
        return COLOR_BASE + (best_color(hand) if exact else _held_color(hand))
    # SWAP: the seat with the fewest cards.
    best_t = -1
    for a in legal:
        if ACTION_KIND[a] == K_SWAP:
            t = ACTION_ARG[a]
            if best_t < 0 or len(g.hands[t]) < len(g.hands[best_t]):
                best_t = t
    return legal[0] if best_t < 0 else SWAP_BASE + best_t


def _fast_play(g: Game, seat: int, void: int, exact: bool) -> Action:
    """:func:`_fast_action` at a turn's play: the play rule's best coloured card (with
    :func:`~unokit.bots.heuristic.play_key`), else its first wild, else draw."""
    hand = g.hands[seat]
    # Read from the hand directly: every matching card is legal here, since a W+4 is
    # played only when no coloured card matches (so none of the colour in play is held).
    match = MATCHES[g.color * 17 + CARD_RANK[g.discard[-1]]]
    count = [0, 0, 0, 0]
    for h in hand:
        if h < WILD:
            count[CARD_COLOR[h]] += 1
    nxt = g.next_seat(seat)
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
        key = play_key(c, count[col] + VOID_WEIGHT * (col == void), danger)
        if key > best_key or (exact and key == best_key and c < best):
            best_key = key
            best = c
    if best < 0:
        return DRAW
    if best >= WILD:
        best = WILD + 4 * (best - WILD) + (best_color(hand, void) if exact else _held_color(hand, void))
    return best + UNO_OFFSET if len(hand) == 2 else best


def _fast_drawn(g: Game, seat: int, hand: list[Card], exact: bool) -> Action:
    """:func:`_fast_action` after a draw: the drawn card is played when it can be (a wild in
    the colour held most), else kept."""
    d = g.drawn
    if 0 <= d < WILD:
        playable = MATCHES[g.color * 17 + CARD_RANK[g.discard[-1]]][d]
    else:  # a wild is offered only when legal (an illegal W+4 under wd4_bluffing: forbid)
        playable = any(WILD <= a < UNO_OFFSET for a in g.legal_actions(seat))
    if not playable:
        return PASS
    a = d if d < WILD else WILD + 4 * (d - WILD) + (best_color(hand) if exact else _held_color(hand))
    return a + UNO_OFFSET if len(hand) == 2 else a


def _fast_answer(g: Game, seat: int, hand: list[Card], legal: Sequence[Action], exact: bool,
                 prev: int) -> Action:
    """:func:`_fast_action` answering a draw card: Agent P or a stack when it can, else a
    challenge when the heuristic would, else accept."""
    for a in legal:
        if ACTION_KIND[a] == K_PLAY and not ACTION_UNO[a]:
            c = ACTION_CARD[a]
            if c >= WILD:
                a = WILD + 4 * (c - WILD) + (best_color(hand) if exact else _held_color(hand))
            return a + UNO_OFFSET if len(hand) == 2 else a
    if CHALLENGE in legal and g.attacker >= 0:
        if exact:
            if heuristic_challenges(g, seat, prev):
                return CHALLENGE
        elif len(g.hands[g.attacker]) >= 4:
            return CHALLENGE
    return ACCEPT


def heuristic_challenges(g: Game, seat: int, prev: int) -> bool:
    """Whether the heuristic at ``seat`` challenges the Wild Draw Four waiting for its answer
    in ``g``: :func:`~unokit.bots.heuristic.bluff_probability` from that seat's view of the
    world (the cards it cannot see: the deck less its hand and the discard pile), with
    ``prev`` the colour in play before the Wild Draw Four."""
    attacker = g.attacker
    if attacker < 0 or prev < 0:
        return False
    held = len(g.hands[attacker])
    counts = edition_counts(g.edition)
    for c in g.hands[seat]:
        counts[c] -= 1
    for c in g.discard:
        counts[c] -= 1
    pool = 0
    of_color = 0
    for c, k in enumerate(counts):
        if k > 0:
            pool += k
            if c < WILD and CARD_COLOR[c] == prev:
                of_color += k
    if held <= 0 or pool <= 0:
        return False
    held = min(held, pool)
    return 1.0 - comb(pool - of_color, held) / comb(pool, held) >= CHALLENGE_THRESHOLD


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
            voids: Sequence[int] | None = None, exact: bool = False, prev: int = -1) -> float:
    """Play ``g`` to the end of its round with the default policy; the value for seat ``me``.

    ``me`` plays with :data:`VOID_WEIGHT` for a colour the next seat lacks: the colour it last
    drew on in the rollout while it has received no other card since, or from the start, its
    colour in ``voids`` (one colour or -1 per seat, see :func:`~.belief.known_voids`).

    Value: 1 for a round won by ``me`` (or its team), plus a share of the points won; a round
    lost costs a share of the points left in ``me``'s hand (which go to the winner, or count
    against ``me`` with alternative scoring or elimination).

    ``exact``: every seat plays the heuristic's choices exactly (:func:`_fast_action`), with
    ``prev`` the colour in play before the action that led to ``g`` (the root's candidate), for
    the answer to a Wild Draw Four; else ``strong-v1``'s approximations.
    """
    steps = 0
    n = g.n
    void = list(voids) if voids is not None else [-1] * n  # the colour a seat drew on ...
    void_size = [len(h) for h in g.hands]  # ... while it holds no more cards than this
    while g.phase < ROUND_OVER and steps < MAX_ROLLOUT_STEPS:
        seat = g.turn
        if g.phase == PLAY:
            v = -1
            if seat == me:
                nxt = g.next_seat(seat)
                if void[nxt] >= 0 and len(g.hands[nxt]) <= void_size[nxt]:
                    v = void[nxt]
            a = _fast_action(g, seat, v, exact)
            if a == DRAW:
                void[seat] = g.color
                void_size[seat] = len(g.hands[seat]) + 1
        else:
            a = _fast_action(g, seat, -1, exact, prev)
        if exact:
            prev = g.color
        g.step_unchecked(seat, a)
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


__all__ = ["MAX_ROLLOUT_STEPS", "heuristic_challenges", "rollout"]
