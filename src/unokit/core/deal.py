"""Setting up a round: who deals (S1), the deal (S2), the first card turned up and its effect
(S3), and the order of the seats still in the match."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .cards import CARD_COLOR, CARD_RANK, DRAW_TWO, REVERSE, SKIP, WILD, WILD_DRAW_FOUR, Card, card_str
from .editions import edition_counts, edition_deck
from .errors import IllegalActionError, OptionError
from .events import ColorNamed, DirectionChanged, Skipped, TurnedUp
from .phases import COLOR, GAME_OVER, PLAY, ROUND_OVER
from .piles import give
from .shuffles import shuffle, shuffle_tail
from .state import RoundStart

if TYPE_CHECKING:
    from .game import Game


def seat_order(active: Sequence[bool], step: int) -> list[int]:
    """For each seat, the next active seat in direction ``step`` (itself if it is the only one)."""
    n = len(active)
    out = [0] * n
    for s in range(n):
        t = (s + step) % n
        while not active[t] and t != s:
            t = (t + step) % n
        out[s] = t
    return out


def set_seat_order(g: Game) -> None:
    """The next active seat of each seat, both ways, and the two-player rules (S3, T3)."""
    active = [not e for e in g.eliminated]
    g._left = seat_order(active, 1)
    g._right = seat_order(active, -1)
    g.two_handed = sum(active) == 2 and g.options.two_handed_rules

def clear_round(g: Game) -> None:
    """Empty the round's piles and reset its turn, phase and pending answers (S2 deals next)."""
    n = g.n
    g.hands = [[] for _ in range(n)]
    g.draw_pile = []
    g.discard = []
    g.color = 0
    g.turn = 0
    g.direction = 1
    g.phase = PLAY
    g.drawn = -1
    g.pending = 0
    g.pending_rank = -1
    g.attacker = -1
    g.bluff = False
    g.owed = [False] * n
    g.window = []
    g.seen = [{} for _ in range(n)]
    g.history = []
    g.round_winner = -1
    g.idle_turns = 0
    g.blocked = False
    set_seat_order(g)


def set_totals(g: Game, scores: Sequence[int | float] | None, eliminated: Iterable[int]) -> None:
    """The match totals before a stacked round: ``scores`` (per team with partners) and the
    seats ``eliminated`` already (an :class:`OptionError` for a wrong count or seat)."""
    if scores is not None:
        if len(scores) != len(g.scores):
            raise OptionError(f"scores need {len(g.scores)} entries, not {len(scores)}")
        g.scores = list(scores)
    for s in eliminated:
        if not 0 <= s < g.n:
            raise OptionError(f"eliminated seat {s} is not a seat")
        g.eliminated[s] = True


def choose_dealer(g: Game) -> int:
    """S1: each active player draws a card; highest number deals; ties draw again."""
    contenders = [s for s in range(g.n) if not g.eliminated[s]]
    stream = g.deal_rng
    rng = random.Random(f"unokit:{g.seed}:dealer") if stream is None else stream
    while len(contenders) > 1:
        deck = list(edition_deck(g.edition))
        k = len(contenders)
        if stream is None:
            # Seeded: the deck is shuffled and contender i draws deck[i].
            shuffle(rng, deck)
            drawn = deck[:k]
        else:
            # From a stream: only the k cards drawn are shuffled out, from the deck's end.
            shuffle_tail(rng, deck, k)
            drawn = deck[-k:]
        # A number card counts its number, any other card 0.
        values = [CARD_RANK[c] if c < WILD and CARD_RANK[c] < 10 else 0 for c in drawn]
        best = max(values)
        contenders = [s for i, s in enumerate(contenders) if values[i] == best]
    return contenders[0]


def check_hand_size(g: Game) -> None:
    """S2: the deck deals ``hand_size`` cards to every seat and turns one up (an
    :class:`OptionError` if it is too small for that)."""
    deck_size = len(edition_deck(g.edition))
    if g.options.hand_size * g.n + 1 > deck_size:
        raise OptionError(f"hand_size {g.options.hand_size} is too large for {g.n} players: "
                          f"the {g.edition} deck has {deck_size} cards")


def deal(g: Game, deck: list[Card], dealer: int) -> tuple[list[list[Card]], Card, list[Card]]:
    """S2: hand_size cards each, one at a time from the dealer's left; then turn one up.
    Returns the hands, the card turned up and the draw pile (top first)."""
    left = seat_order([not e for e in g.eliminated], 1)
    first = left[dealer]
    order = [first]
    s = left[first]
    while s != first:
        order.append(s)
        s = left[s]
    hand_size = g.options.hand_size
    need = hand_size * len(order) + 1
    if len(deck) < need:
        raise OptionError(f"the deck has {len(deck)} cards; dealing needs at least {need}")
    hands: list[list[Card]] = [[] for _ in range(g.n)]
    i = 0
    for _ in range(hand_size):
        for seat in order:
            hands[seat].append(deck[i])
            i += 1
    return hands, deck[i], deck[i + 1:]


def check_counts(g: Game, hands: list[list[Card]], discard: Card, draw: list[Card]) -> None:
    """Stacked piles hold no more of a face than the edition's deck (an :class:`OptionError`)."""
    limits = edition_counts(g.edition)
    counts = [0] * len(limits)
    for h in hands:
        for c in h:
            counts[c] += 1
    counts[discard] += 1
    for c in draw:
        counts[c] += 1
    for c, (have, limit) in enumerate(zip(counts, limits, strict=True)):
        if have > limit:
            raise OptionError(f"{have} × {card_str(c)} given, but the {g.edition} deck has {limit}")


def turn_up_first_card(g: Game) -> None:
    """S3: the first card's effect, and who starts."""
    first = g._left[g.dealer]
    top = g.discard[-1]
    ev = g._events
    while top == WILD_DRAW_FOUR and any(c != WILD_DRAW_FOUR for c in g.draw_pile):
        # Back into the draw pile at a random place below the top card; turn the next.
        if ev is not None:
            ev.append(TurnedUp(top, True))
        g.discard.pop()
        pos = g.rng.randrange(len(g.draw_pile))  # index 0 is the bottom
        g.draw_pile.insert(pos, top)
        top = g.draw_pile.pop()
        g.discard.append(top)
    if ev is not None:
        ev.append(TurnedUp(top))
    g.phase = PLAY
    g.turn = first
    if top >= WILD:
        # Settled: a W+4 that cannot be replaced (only W+4s left) counts as a Wild.
        g.phase = COLOR
        return
    g.color = CARD_COLOR[top]
    rank = CARD_RANK[top]
    if rank == SKIP or (rank == REVERSE and g.two_handed):
        g.turn = g._left[first]
        if ev is not None:
            ev.append(Skipped(first))
    elif rank == REVERSE:
        g.direction = -1
        g.turn = g.dealer
        if ev is not None:
            ev.append(DirectionChanged(-1))
    elif rank == DRAW_TWO:
        give(g, first, 2, "first_card")
        g.turn = g._left[first]
        if ev is not None:
            ev.append(Skipped(first))


def next_deal(g: Game, dealer: int | None) -> tuple[int, int]:
    """The number and the dealer of the next round (S1: after the first, the deal passes
    left); an error if the round is not over, or the dealer is not a seat still in."""
    round_no = g.round_no
    if g.rounds:
        if g.phase == GAME_OVER:
            raise IllegalActionError(-1, "next round", "the game is over")
        if g.phase != ROUND_OVER:
            raise IllegalActionError(-1, "next round", "the round is not over")
        round_no += 1
        if dealer is None:
            dealer = seat_order([not e for e in g.eliminated], 1)[g.dealer]
    elif dealer is None:
        dealer = g.dealer
    if not 0 <= dealer < g.n or g.eliminated[dealer]:
        raise OptionError(f"dealer {dealer} is not an active seat")
    return round_no, dealer


def round_piles(g: Game, round_no: int, dealer: int, deck: Sequence[Card] | None,
                hands: list[list[Card]] | None, discard: Card | None, draw: list[Card] | None,
                ) -> tuple[RoundStart, list[list[Card]], Card, list[Card]]:
    """How the round starts and its piles: ``deck`` dealt by S2 (shuffled when not given),
    or the stacked ``hands``, ``discard`` and ``draw``; checked against the deck and the
    seats still in."""
    own_deck = hands is None and deck is None  # the edition's deck, shuffled: counts are right
    if hands is None:
        if deck is None:
            shuffled = list(edition_deck(g.edition))
            stream = g.deal_rng
            shuffle(g._round_rng("deal", round_no) if stream is None else stream, shuffled)
            deck = shuffled
        hands, discard, draw = deal(g, list(deck), dealer)
        start = RoundStart(dealer, tuple(deck), None)
    else:
        if discard is None or draw is None or len(hands) != g.n:
            raise OptionError("a stacked round needs hands for every seat, a discard and a draw pile")
        start = RoundStart(dealer, None, (tuple(tuple(h) for h in hands), discard, tuple(draw)))
    for s in range(g.n):
        if g.eliminated[s] and hands[s]:
            raise OptionError(f"seat {s} is eliminated and cannot hold cards")
    assert discard is not None and draw is not None  # given with hands, or dealt
    if not own_deck:
        check_counts(g, hands, discard, draw)
    return start, hands, discard, draw


def begin_round(g: Game, round_no: int, start: RoundStart, hands: list[list[Card]], discard: Card,
                draw: list[Card]) -> None:
    """Set the new round's state from its piles (its first card is not turned up yet)."""
    g.round_no = round_no
    clear_round(g)
    g._version += 1
    g.dealer = start.dealer
    start.scores = tuple(g.scores)
    start.eliminated = tuple(s for s in range(g.n) if g.eliminated[s])
    start.actions = g.history
    g.rounds.append(start)
    g.hands = [list(h) for h in hands]
    g.draw_pile = list(reversed(draw))
    g.discard = [discard]
    g._rng = None  # the round's generator is made when first needed
    g._rng_seed = None



def name_color(g: Game, seat: int, color: int) -> None:
    """S3: the seat on turn names the colour of the wild turned up first."""
    g.color = color
    g.phase = PLAY
    if g._events is not None:
        g._events.append(ColorNamed(seat, color))


__all__ = ["begin_round", "check_counts", "check_hand_size", "choose_dealer", "clear_round", "deal",
           "name_color", "next_deal", "round_piles", "seat_order", "set_seat_order", "set_totals",
           "turn_up_first_card"]
