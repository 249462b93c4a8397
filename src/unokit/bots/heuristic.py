"""``heuristic``: a fixed, documented strategy (see ``docs/bots.md``).

The rules, in order of precedence:

- **Out of turn**: always catch a seat that missed its UNO call; always call UNO when owed
  (unless ``forget_uno`` makes it forget); jump in whenever the house rule allows it.
- **A normal turn**: play a coloured card if one matches, choosing the card whose colour the
  hand holds most of (so the hand keeps matching), then the one worth most points; attack
  (Draw Two, Skip, Reverse) first when the next seat is close to going out. Wild cards are
  kept for when nothing else matches; then a legal Wild Draw Four before a plain Wild, and
  Agent P last (it is worth more as an answer). It never bluffs a Wild Draw Four. It draws only
  when nothing is playable, and plays the drawn card when it can.
- **Colours**: it names the colour it holds most of (ties: most points in that colour).
- **A draw card played on it**: answer with Agent P if it holds one; stack when the house rule
  allows and it holds a card to stack; challenge a Wild Draw Four when the cards it can see
  make a bluff likely (see :func:`bluff_probability`); otherwise accept.
- **Swap (seven_zero)**: swap with the seat holding the fewest cards.
- **UNO**: always called with the play of the next-to-last card.

>>> from unokit import Game
>>> from unokit.bots import HeuristicBot, play_match
>>> game = play_match(Game.new("classic", 2, seed=3), [HeuristicBot(seed=1), HeuristicBot(seed=2)])
>>> game.is_over
True
"""

from __future__ import annotations

# mypyc: compile (a bot's decision runs the engine in a loop)
import random
from collections.abc import Sequence
from math import comb
from typing import Final

from ..core.actions import (
    ACCEPT,
    ACTION_ARG,
    ACTION_CARD,
    ACTION_COLOR,
    ACTION_KIND,
    ACTION_UNO,
    CHALLENGE,
    DRAW,
    K_CATCH,
    K_COLOR,
    K_PLAY,
    K_SWAP,
    PASS,
    UNO,
    UNO_OFFSET,
    Action,
)
from ..core.cards import (
    AGENT_P,
    CARD_COLOR,
    CARD_POINTS,
    CARD_RANK,
    MATER,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    Card,
)
from ..core.editions import edition_counts
from ..core.observation import Observation, color_before_top
from ..core.phases import DECIDING

WILD_PREFERENCE: Final = {WILD_DRAW_FOUR: 0, WILD: 1, MATER: 2, AGENT_P: 3}
"""The order in which the heuristic plays its wild faces when nothing coloured matches (lowest
first): Wild Draw Four, Wild, Mater, and Agent P last (it is worth more as an answer)."""

VOID_WEIGHT: Final = 5
"""How many cards held a colour that the next seat lacks is worth in the strong bot's variant
of the rule (``void`` in :func:`best_color` and :meth:`HeuristicBot.choose_play`; 5: in
effect, first among the colours it can play)."""

CHALLENGE_THRESHOLD: Final = 0.6
"""Challenge a Wild Draw Four when the estimated chance of a bluff is at least this."""


def play_key(c: Card, held: int, danger: bool) -> int:
    """The heuristic's play rule: its order among the coloured cards that match (it plays the
    highest). Attack cards (Skip, Reverse, Draw Two) first when the next seat is close to going
    out (``danger``), then ``held``, the cards the hand holds of the card's colour (the strong
    bot's variant adds :data:`VOID_WEIGHT` for a colour the next seat lacks), then the card's
    points; equal keys go to the lower card (:func:`prefers`). The heuristic bot, the strong
    bot's rollouts and the inference of what a heuristic seat holds all read it from here.

    >>> from unokit.core.cards import parse_card
    >>> r9, rs = parse_card("R9"), parse_card("RS")
    >>> play_key(rs, 3, False) > play_key(r9, 3, False), play_key(rs, 3, True) > play_key(r9, 3, True)
    (True, True)
    >>> play_key(r9, 4, False) > play_key(rs, 3, False), play_key(r9, 4, True) > play_key(rs, 3, True)
    (True, False)
    """
    return CARD_POINTS[c] + 64 * held + 12800 * (danger and CARD_RANK[c] >= SKIP)


def prefers(x: Card, held_x: int, c: Card, held_c: int, danger: bool) -> bool:
    """Whether the play rule (:func:`play_key`) plays ``x`` rather than ``c`` (equal keys: the
    lower card)."""
    kx = play_key(x, held_x, danger)
    kc = play_key(c, held_c, danger)
    return kx > kc or (kx == kc and x < c)


def best_color(hand: Sequence[Card], void: int = -1) -> int:
    """The colour ``hand`` holds most of (ties broken by points, then by colour order).

    ``void``: a colour the next seat is known to lack, which then counts as
    :data:`VOID_WEIGHT` more cards held of it if the hand holds any (the strong bot's variant
    of the rule; the heuristic itself never passes one).

    >>> from unokit.core.cards import parse_card
    >>> best_color([parse_card(c) for c in ("G1", "B7", "G9", "W")])
    2
    >>> best_color([parse_card(c) for c in ("G1", "B7", "G9", "W")], void=3)
    3
    """
    count = [0, 0, 0, 0]
    points = [0, 0, 0, 0]
    for c in hand:
        if c < WILD:
            col = CARD_COLOR[c]
            count[col] += 1
            points[col] += CARD_POINTS[c]
    if void >= 0 and count[void]:
        count[void] += VOID_WEIGHT
    best = 0
    for col in (1, 2, 3):
        if count[col] > count[best] or (count[col] == count[best] and points[col] > points[best]):
            best = col
    return best


def color_before_last_wd4(obs: Observation) -> int:
    """The colour that was in play just before the last Wild Draw Four of the round (or -1).

    Read from the public history: the last play or colour choice before that card, or the
    colour of the first turned-up card (the engine's :func:`unokit.core.game.color_before_top`).
    """
    return color_before_top(obs)


def unseen_counts(obs: Observation) -> list[int]:
    """For each card, how many copies the seat cannot locate: the edition's deck minus its own
    hand and the discard pile."""
    counts = edition_counts(obs.edition)
    for c in obs.hand:
        counts[c] -= 1
    for c in obs.discard:
        counts[c] -= 1
    return [max(0, k) for k in counts]


def bluff_probability(obs: Observation) -> float:
    """The chance that the Wild Draw Four waiting for this seat's answer was a bluff (T5).

    If the attacker's hand was shown to this seat (``obs.seen``), that decides it when it
    still fits the hand size; otherwise the attacker's other cards are treated as drawn at
    random from the cards this seat cannot see, and the chance that at least one has the
    colour that was in play is computed (hypergeometric).
    """
    attacker = -1
    for seat, a in reversed(obs.history):
        if ACTION_KIND[a] == K_PLAY and ACTION_CARD[a] == WILD_DRAW_FOUR:
            attacker = seat
            break
    if attacker < 0:
        return 0.0
    prev = color_before_last_wd4(obs)
    if prev < 0:
        return 0.0
    held = obs.hand_sizes[attacker]
    counts = unseen_counts(obs)
    pool = sum(counts)
    of_color = sum(k for c, k in enumerate(counts) if c < WILD and CARD_COLOR[c] == prev)
    if held <= 0 or pool <= 0:
        return 0.0
    held = min(held, pool)
    p_none = comb(pool - of_color, held) / comb(pool, held)
    return 1.0 - p_none


class HeuristicBot:
    """The documented rule-based strategy of this module.

    ``forget_uno`` is the chance it forgets to call UNO when it should (so that others have
    something to catch); ``challenge_threshold`` is the bluff chance above which it challenges.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None, forget_uno: float = 0.0,
                 challenge_threshold: float = CHALLENGE_THRESHOLD) -> None:
        self.rng = random.Random(seed)
        self.forget_uno = forget_uno
        self.challenge_threshold = challenge_threshold

    def seed(self, seed: int | None) -> None:
        """Play on as a new bot built with ``seed`` would."""
        self.rng.seed(seed)

    def _calls_uno(self) -> bool:
        return not (self.forget_uno > 0 and self.rng.random() < self.forget_uno)

    def act(self, obs: Observation) -> Action | None:
        """The heuristic's choice for ``obs`` (``None`` out of turn when it has nothing to do)."""
        legal = obs.legal
        if not legal:
            return None
        if obs.turn != obs.seat or obs.awaiting not in DECIDING:
            return self.out_of_turn(obs)
        for a in legal:
            if ACTION_KIND[a] == K_CATCH:
                return a
        awaiting = obs.awaiting
        if awaiting == "color":
            return [a for a in legal if ACTION_KIND[a] == K_COLOR][best_color(obs.hand)]
        if awaiting == "swap":
            swaps = [a for a in legal if ACTION_KIND[a] == K_SWAP]
            return min(swaps, key=lambda a: (obs.hand_sizes[ACTION_ARG[a]], ACTION_ARG[a]))
        if awaiting == "respond":
            return self.respond(obs)
        if UNO in legal and self._calls_uno():
            return UNO
        return self.choose_play(obs)

    def out_of_turn(self, obs: Observation) -> Action | None:
        """Catch first, then call UNO, then jump in."""
        legal = obs.legal
        for a in legal:
            if ACTION_KIND[a] == K_CATCH:
                return a
        if UNO in legal and self._calls_uno():
            return UNO
        plays = [a for a in legal if ACTION_KIND[a] == K_PLAY]
        if plays:
            return self._with_uno(plays, plays[0])
        return None

    def respond(self, obs: Observation) -> Action:
        """Answer a Draw Two or Wild Draw Four: Agent P, stack, challenge or accept."""
        legal = obs.legal
        plays = [a for a in legal if ACTION_KIND[a] == K_PLAY]
        colour = best_color(obs.hand)
        agent_p = [a for a in plays if ACTION_CARD[a] == AGENT_P and ACTION_COLOR[a] == colour]
        if agent_p:
            return self._with_uno(plays, agent_p[0])
        stack = [a for a in plays if ACTION_CARD[a] != AGENT_P
                 and (ACTION_CARD[a] < WILD or ACTION_COLOR[a] == colour)]
        if stack:
            stack.sort(key=lambda a: (ACTION_CARD[a] >= WILD, -_color_count(obs.hand, ACTION_COLOR[a])))
            return self._with_uno(plays, stack[0])
        if CHALLENGE in legal and bluff_probability(obs) >= self.challenge_threshold:
            return CHALLENGE
        return ACCEPT

    def choose_play(self, obs: Observation, void: int = -1) -> Action:
        """A normal turn or a drawn card: the play the strategy prefers, else draw or pass.

        ``void``: a colour the next seat is known to lack, counted as :data:`VOID_WEIGHT` more
        cards held of it, for playing and for naming (the strong bot's variant; -1: none)."""
        legal = obs.legal
        plays = [a for a in legal if ACTION_KIND[a] == K_PLAY]
        hand = obs.hand
        if not plays:
            return DRAW if DRAW in legal else PASS
        colour = best_color(hand, void)
        danger = obs.hand_sizes[obs.next_seat()] <= 2
        coloured = [a for a in plays if ACTION_CARD[a] < WILD and not ACTION_UNO[a]]
        if coloured:
            def key(a: Action) -> tuple[int, int]:
                c = ACTION_CARD[a]
                held = _color_count(hand, CARD_COLOR[c]) + (VOID_WEIGHT if CARD_COLOR[c] == void else 0)
                return (play_key(c, held, danger), -c)
            return self._with_uno(plays, max(coloured, key=key))
        wilds = [a for a in plays if ACTION_COLOR[a] == colour and not ACTION_UNO[a]]
        # Never bluff: a W+4 is played only when it is legal (T5).
        holds_colour = any(c < WILD and CARD_COLOR[c] == obs.color for c in hand)
        if holds_colour:
            wilds = [a for a in wilds if ACTION_CARD[a] != WILD_DRAW_FOUR]
        if wilds:
            best = min(wilds, key=lambda a: WILD_PREFERENCE[ACTION_CARD[a]])
            return self._with_uno(plays, best)
        if DRAW in legal:
            return DRAW
        return PASS

    def _with_uno(self, plays: Sequence[Action], a: Action) -> Action:
        """``a`` with the UNO call added when the play leaves one card (unless it forgets)."""
        if ACTION_UNO[a]:
            return a
        called = a + UNO_OFFSET
        if called in plays and self._calls_uno():
            return called
        return a


def _color_count(hand: Sequence[Card], colour: int) -> int:
    return sum(1 for c in hand if c < WILD and CARD_COLOR[c] == colour)
