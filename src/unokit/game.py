"""The game state machine: one match of rounds, every rule of RULES.md.

:class:`Game` owns legality. Any seat may ask for its legal actions at any moment
(:meth:`Game.legal_actions`), including out-of-turn ones (catching a missed UNO call,
calling UNO, jumping in). :meth:`Game.apply` either changes the state or raises one
:class:`~unokit.errors.IllegalActionError` with the reason, leaving the state exactly as it was.

>>> g = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1", "Y2"], dealer=1)
>>> g.turn, g.awaiting
(0, 'play')
>>> [action_str(a) for a in g.legal_actions(0)]
['R1', 'R1!', 'draw']
>>> g.apply(0, "R1!")
>>> g.turn, g.hand_sizes()
(1, [1, 2])

Randomness comes only from the seed (or from the stacked cards the caller gives):
the deal of round ``r`` and the shuffles within it use generators derived from
``(seed, r)``, so a record replays exactly and a saved match can resume. A simulation may
instead deal its matches from one running generator (``Game.new(..., deal_rng=...)``),
which saves seeding two generators a match; the record keeps every dealt deck all the same.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from typing import Final

from .actions import (
    ACCEPT,
    ACTION_ARG,
    ACTION_CARD,
    ACTION_COLOR,
    ACTION_KIND,
    ACTION_UNO,
    CATCH_BASE,
    CHALLENGE,
    COLOR_BASE,
    DRAW,
    K_ACCEPT,
    K_CATCH,
    K_CHALLENGE,
    K_COLOR,
    K_DRAW,
    K_PASS,
    K_PENALIZE,
    K_PLAY,
    K_SWAP,
    K_UNO,
    MAX_SEATS,
    N_ACTIONS,
    PASS,
    SWAP_BASE,
    UNO,
    UNO_OFFSET,
    Action,
    action_str,
    parse_action,
)
from .cards import (
    AGENT_P,
    CARD_COLOR,
    CARD_POINTS,
    CARD_RANK,
    DRAW_TWO,
    MATER,
    N_CARDS,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    Card,
    card_str,
    check_edition,
    edition_counts,
    edition_deck,
    parse_card,
)
from .draws import shuffle, shuffle_tail
from .errors import IllegalActionError, NotationError, OptionError
from .observation import Observation, observe
from .options import Options

# What the game waits for (``Game.phase``); ``AWAITING[phase]`` is its name.
PLAY: Final = 0
DRAWN: Final = 1
RESPOND: Final = 2
COLOR: Final = 3
SWAP: Final = 4
ROUND_OVER: Final = 5
GAME_OVER: Final = 6
AWAITING: Final = ("play", "drawn", "respond", "color", "swap", "round_over", "game_over")

_STACK_LEVEL: Final = {"off": 0, "progressive": 1, "plus4_on_plus2": 2}
_DEFAULT_OPTIONS: Final = Options()  # immutable, so one serves every game (building one checks it)

BLOCKED_AFTER: Final = 200
"""A round is blocked (docs/rules-decisions.md) when this many turns in a row have begun with
a draw or a wrong card, with no card played from a hand in between: it can loop for ever
otherwise (every card in the hands and none playable, or ``draw_until_playable`` with
``force_play`` passing the same drawn cards round). Random play never comes near it: the
longest such run in thousands of random rounds was 26 turns."""


def _playable_table() -> tuple[tuple[bool, ...], ...]:
    """``_MATCH[colour * 17 + top_rank][card]``: does ``card`` match (T1/T4) by colour, number,
    symbol, or as a wild? Wild Draw Four legality (T5) is checked separately."""
    rows: list[tuple[bool, ...]] = []
    for color in range(4):
        for top_rank in range(17):
            rows.append(
                tuple(
                    c >= WILD or CARD_COLOR[c] == color or CARD_RANK[c] == top_rank
                    for c in range(WILD + 4)
                )
            )
    return tuple(rows)


_MATCH: Final = _playable_table()

MATCHES: Final = _MATCH
"""``MATCHES[colour * 17 + CARD_RANK[top]][card]``: whether ``card`` matches the top card ``top``
with ``colour`` in play, by colour, number, symbol, or as a wild (T1/T4; Wild Draw Four
legality, T5, is a separate test). Read-only; for fast policies such as the strong bot's rollouts."""


def _play_table(uno: bool) -> tuple[tuple[Action, ...], ...]:
    """``_PLAYS[card]``: the actions that play ``card`` (a wild once per colour named);
    ``_PLAYS_UNO[card]`` adds the same plays with an UNO call, as :meth:`Game._add_play` lists them."""
    rows: list[tuple[Action, ...]] = []
    for c in range(N_CARDS):
        base = (c,) if c < WILD else tuple(range(WILD + 4 * (c - WILD), WILD + 4 * (c - WILD) + 4))
        rows.append(base + tuple(a + UNO_OFFSET for a in base) if uno else base)
    return tuple(rows)


_PLAYS: Final = _play_table(False)
_PLAYS_UNO: Final = _play_table(True)


def _plain_copy(rng: random.Random) -> random.Random:
    """A ``random.Random`` in ``rng``'s state. Seeding from 0 is cheaper than from the OS,
    which ``copy.copy`` does (20 against 29 µs)."""
    clone = random.Random(0)
    clone.setstate(rng.getstate())
    return clone


def _seat_order(active: Sequence[bool], step: int) -> list[int]:
    """For each seat, the next active seat in direction ``step`` (itself if it is the only one)."""
    n = len(active)
    out = [0] * n
    for s in range(n):
        t = (s + step) % n
        while not active[t] and t != s:
            t = (t + step) % n
        out[s] = t
    return out


class Game:
    """A match of UNO: the current round's state plus the match totals.

    Build one with :meth:`new` (a seeded match: dealer chosen by S1, cards dealt by S2)
    or :meth:`from_setup` (a stacked round, as in the conformance scenarios).

    ``deal_rng`` is the generator later rounds are dealt from, or ``None`` to deal each
    round from the seed (see :meth:`new`); a caller may set it, e.g. to go on dealing a
    replayed match from its stream.
    """

    __slots__ = (
        "_agent_p_discard",
        "_bluffing",
        "_cache",
        "_cache_key",
        "_force",
        "_jump_in",
        "_left",
        "_penalize",
        "_respond_all",
        "_right",
        "_rng",
        "_rng_seed",
        "_seven_zero",
        "_stack",
        "_until_playable",
        "_version",
        "attacker",
        "blocked",
        "bluff",
        "color",
        "deal_rng",
        "dealer",
        "direction",
        "discard",
        "draw_pile",
        "drawn",
        "edition",
        "eliminated",
        "hands",
        "history",
        "idle_turns",
        "n",
        "options",
        "owed",
        "pending",
        "pending_rank",
        "phase",
        "round_no",
        "round_winner",
        "rounds",
        "scores",
        "seed",
        "seen",
        "teams",
        "turn",
        "two_handed",
        "window",
        "winners",
    )

    edition: str
    options: Options
    n: int
    seed: int
    scores: list[int | float]
    eliminated: list[bool]
    round_no: int
    dealer: int
    winners: list[int]
    round_winner: int
    hands: list[list[Card]]
    draw_pile: list[Card]
    discard: list[Card]
    color: int
    turn: int
    direction: int
    phase: int
    drawn: int
    pending: int
    pending_rank: int
    attacker: int
    bluff: bool
    owed: list[bool]
    window: list[int]
    seen: list[dict[int, tuple[Card, ...]]]
    idle_turns: int
    blocked: bool
    history: list[tuple[int, Action]]
    rounds: list[RoundStart]
    _rng: random.Random | None
    _rng_seed: int | None
    deal_rng: random.Random | None
    teams: int
    two_handed: bool

    # ------------------------------------------------------------------ construction

    def __init__(self, edition: str, players: int, options: Options | None = None,
                 seed: int | None = None, *, _copy_of: Game | None = None) -> None:
        """An empty match; use :meth:`new` or :meth:`from_setup` rather than this directly.

        ``_copy_of`` is private: :meth:`copy`'s path (the other arguments are ignored).
        """
        if _copy_of is not None:
            self._copy_from(_copy_of)
            return
        self.edition = check_edition(edition)
        opts = options if options is not None else _DEFAULT_OPTIONS
        if isinstance(players, bool) or not isinstance(players, int):
            raise TypeError(f"players must be an int, not {type(players).__name__}")
        if not isinstance(opts, Options):
            raise TypeError(f"options must be an unokit Options, not {type(opts).__name__} "
                            "(build one with Options.from_mapping)")
        if not 2 <= players <= MAX_SEATS:
            raise OptionError(f"players must be 2 to {MAX_SEATS}, not {players}")
        if opts.mode == "partners" and players not in (4, 6, 8, 10):
            raise OptionError(f"mode 'partners' needs 4, 6, 8 or 10 players, not {players}")
        self.options = opts
        self.n = players
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.teams = players // 2 if opts.mode == "partners" else 0
        self.scores = [0] * (self.teams or players)
        self.eliminated = [False] * players
        self.round_no = 0
        self.dealer = 0
        self.winners = []
        self.round_winner = -1
        self.rounds = []
        self._stack = _STACK_LEVEL[opts.stacking]
        self._bluffing = opts.wd4_bluffing == "allow"
        self._penalize = opts.illegal_play == "penalize"
        self._seven_zero = opts.seven_zero
        self._jump_in = opts.jump_in
        self._until_playable = opts.draw_until_playable
        self._force = opts.force_play
        self._respond_all = self._stack > 0 or self.edition == "phineas-ferb"
        self._agent_p_discard = opts.agent_p_draws_from == "discard"
        self._cache_key = -1
        self._cache: list[Action] = []
        self._version = 0
        self._rng = None
        self._rng_seed = None
        self.deal_rng = None
        self._clear_round()

    def _clear_round(self) -> None:
        n = self.n
        self.hands = [[] for _ in range(n)]
        self.draw_pile = []
        self.discard = []
        self.color = 0
        self.turn = 0
        self.direction = 1
        self.phase = PLAY
        self.drawn = -1
        self.pending = 0
        self.pending_rank = -1
        self.attacker = -1
        self.bluff = False
        self.owed = [False] * n
        self.window = []
        self.seen = [{} for _ in range(n)]
        self.history = []
        self.round_winner = -1
        self.idle_turns = 0
        self.blocked = False
        active = [not e for e in self.eliminated]
        self._left = _seat_order(active, 1)
        self._right = _seat_order(active, -1)
        self.two_handed = sum(active) == 2 and self.options.two_handed_rules

    @classmethod
    def new(cls, edition: str = "classic", players: int = 4, options: Options | None = None,
            seed: int | None = None, *, deal_rng: random.Random | None = None) -> Game:
        """A new seeded match: the dealer is chosen by S1 and the first round is dealt (S2, S3).

        ``deal_rng`` deals the match from a generator the caller keeps, rather than from two
        generators seeded from ``seed`` for it alone: S1's draw for dealer and every round's
        shuffle come from it. It is for simulations that play many matches from one running
        generator (as RLCard deals its games), where seeding a generator for each deal and
        for each dealer draw is a fifth of a short random round. Reshuffles within a round
        (T6) still come from the round's generator, seeded from ``seed`` (which is taken
        from the stream when not given, so the stream alone decides the match). The record
        keeps every dealt deck, so it replays exactly; a match resumed from its record deals
        its later rounds from ``seed`` unless it is given the stream again (:attr:`deal_rng`),
        as the stream is the caller's, not part of the match. A :meth:`copy` deals from a
        copy of the stream, so playing it on never moves the original's.

        >>> g = Game.new("classic", 3, seed=7)
        >>> sum(g.hand_sizes()), g.awaiting in ("play", "color")
        (21, True)
        >>> streamed = random.Random(1)
        >>> a, b = Game.new("classic", 2, deal_rng=streamed), Game.new("classic", 2, deal_rng=streamed)
        >>> a.hands != b.hands  # each match deals the stream's next cards
        True
        """
        if deal_rng is not None and not isinstance(deal_rng, random.Random):
            raise TypeError(f"deal_rng must be a random.Random, not {type(deal_rng).__name__}")
        from_stream = seed is None and deal_rng is not None
        game = cls(edition, players, options, 0 if from_stream else seed)
        deck_size = len(edition_deck(game.edition))
        if game.options.hand_size * players + 1 > deck_size:
            raise OptionError(
                f"hand_size {game.options.hand_size} is too large for {players} players: "
                f"the {game.edition} deck has {deck_size} cards"
            )
        game.deal_rng = deal_rng
        if from_stream and deal_rng is not None:
            # The stream alone decides the match; drawn once the arguments are checked, so a
            # bad one leaves the stream where it was.
            game.seed = deal_rng.getrandbits(63)
        game.dealer = game._choose_dealer()
        game.start_round(dealer=game.dealer)
        return game

    @classmethod
    def from_setup(
        cls,
        hands: Sequence[Sequence[str | Card]],
        discard: str | Card,
        draw: Sequence[str | Card],
        dealer: int = 0,
        edition: str = "classic",
        options: Options | None = None,
        scores: Sequence[int | float] | None = None,
        eliminated: Iterable[int] = (),
        seed: int | None = None,
    ) -> Game:
        """A round with stacked cards: ``hands`` per seat, the turned-up ``discard`` card
        (its S3 effect applies), and the ``draw`` pile *top card first*.

        The game plays with exactly the cards given. ``scores`` are the match totals
        before this round (per team with partners); ``eliminated`` are seats already out.
        """
        game = cls(edition, len(hands), options, seed)
        if scores is not None:
            if len(scores) != len(game.scores):
                raise OptionError(f"scores need {len(game.scores)} entries, not {len(scores)}")
            game.scores = list(scores)
        for s in eliminated:
            if not 0 <= s < game.n:
                raise OptionError(f"eliminated seat {s} is not a seat")
            game.eliminated[s] = True
        game.dealer = dealer
        cards = [[_card(c) for c in h] for h in hands]
        game.start_round(
            dealer=dealer, hands=cards, discard=_card(discard), draw=[_card(c) for c in draw]
        )
        return game

    def _round_rng(self, purpose: str, round_no: int) -> random.Random:
        return random.Random(f"unokit:{self.seed}:{round_no}:{purpose}")

    @property
    def rng(self) -> random.Random:
        """The round's generator: T6 reshuffles, and where S3 puts a turned-up W+4 back.

        It is seeded from the match seed and the round number when it is first needed (most
        short rounds never reshuffle, and seeding a generator costs as much as several
        plays), so a round plays the same whenever that is. Assign another generator to
        replace it, or :meth:`reseed` the round (as a search does to sample other futures).
        """
        rng = self._rng
        if rng is None:
            seed = self._rng_seed
            if seed is None:
                rng = self._rng = self._round_rng("play", self.round_no)
            else:
                rng = self._rng = random.Random(seed)
        return rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

    def reseed(self, seed: int) -> None:
        """Make the rest of the round's generator ``random.Random(seed)``, seeded when first
        needed: the same numbers as assigning ``rng = random.Random(seed)``, without the cost
        of seeding (as much as several plays) where nothing is shuffled before the round ends.
        A search that plays many sampled futures of one position reseeds each copy."""
        self._rng = None
        self._rng_seed = seed

    def _choose_dealer(self) -> int:
        """S1: each active player draws a card; highest number deals; ties draw again."""
        contenders = [s for s in range(self.n) if not self.eliminated[s]]
        stream = self.deal_rng
        rng = random.Random(f"unokit:{self.seed}:dealer") if stream is None else stream
        while len(contenders) > 1:
            deck = list(edition_deck(self.edition))
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

    def start_round(
        self,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
        hands: list[list[Card]] | None = None,
        discard: Card | None = None,
        draw: list[Card] | None = None,
    ) -> None:
        """Deal a round. With no arguments after a round is over: the next round, the deal
        passing left (S1), with a deck shuffled from the seed (or from the match's
        ``deal_rng``, see :meth:`new`).

        ``deck`` (top card first) is dealt by S2 instead of a shuffled one; ``hands``,
        ``discard`` and ``draw`` (top first) give the piles directly.
        """
        round_no = self.round_no
        if self.rounds:
            if self.phase == GAME_OVER:
                raise IllegalActionError(-1, "next round", "the game is over")
            if self.phase != ROUND_OVER:
                raise IllegalActionError(-1, "next round", "the round is not over")
            round_no += 1
            if dealer is None:
                dealer = self._left_of_dealer()
        elif dealer is None:
            dealer = self.dealer
        if not 0 <= dealer < self.n or self.eliminated[dealer]:
            raise OptionError(f"dealer {dealer} is not an active seat")
        # Everything is checked before anything changes.
        own_deck = hands is None and deck is None  # the edition's deck, shuffled: counts are right
        if hands is None:
            if deck is None:
                shuffled = list(edition_deck(self.edition))
                stream = self.deal_rng
                shuffle(self._round_rng("deal", round_no) if stream is None else stream, shuffled)
                deck = shuffled
            hands, discard, draw = self._deal(list(deck), dealer)
            start = RoundStart(dealer, tuple(deck), None)
        else:
            if discard is None or draw is None or len(hands) != self.n:
                raise OptionError("a stacked round needs hands for every seat, a discard and a draw pile")
            start = RoundStart(dealer, None, (tuple(tuple(h) for h in hands), discard, tuple(draw)))
        for s in range(self.n):
            if self.eliminated[s] and hands[s]:
                raise OptionError(f"seat {s} is eliminated and cannot hold cards")
        if not own_deck:
            self._check_counts(hands, discard, draw)
        self.round_no = round_no
        self._clear_round()
        self._version += 1
        self.dealer = dealer
        start.scores = tuple(self.scores)
        start.eliminated = tuple(s for s in range(self.n) if self.eliminated[s])
        start.actions = self.history
        self.rounds.append(start)
        self.hands = [list(h) for h in hands]
        self.draw_pile = list(reversed(draw))
        self.discard = [discard]
        self._rng = None  # the round's generator is made when first needed
        self._rng_seed = None
        self._turn_up_first_card()

    def _left_of_dealer(self) -> int:
        return _seat_order([not e for e in self.eliminated], 1)[self.dealer]

    def _deal(self, deck: list[Card], dealer: int) -> tuple[list[list[Card]], Card, list[Card]]:
        """S2: hand_size cards each, one at a time from the dealer's left; then turn one up."""
        left = _seat_order([not e for e in self.eliminated], 1)
        first = left[dealer]
        order = [first]
        s = left[first]
        while s != first:
            order.append(s)
            s = left[s]
        hand_size = self.options.hand_size
        need = hand_size * len(order) + 1
        if len(deck) < need:
            raise OptionError(f"the deck has {len(deck)} cards; dealing needs at least {need}")
        hands: list[list[Card]] = [[] for _ in range(self.n)]
        i = 0
        for _ in range(hand_size):
            for seat in order:
                hands[seat].append(deck[i])
                i += 1
        return hands, deck[i], deck[i + 1:]

    def _check_counts(self, hands: list[list[Card]], discard: Card, draw: list[Card]) -> None:
        limits = edition_counts(self.edition)
        counts = [0] * len(limits)
        for h in hands:
            for c in h:
                counts[c] += 1
        counts[discard] += 1
        for c in draw:
            counts[c] += 1
        for c, (have, limit) in enumerate(zip(counts, limits, strict=True)):
            if have > limit:
                raise OptionError(
                    f"{have} × {card_str(c)} given, but the {self.edition} deck has {limit}"
                )

    def _turn_up_first_card(self) -> None:
        """S3: the first card's effect, and who starts."""
        first = self._left[self.dealer]
        top = self.discard[-1]
        while top == WILD_DRAW_FOUR and any(c != WILD_DRAW_FOUR for c in self.draw_pile):
            # Back into the draw pile at a random place below the top card; turn the next.
            self.discard.pop()
            pos = self.rng.randrange(len(self.draw_pile))  # index 0 is the bottom
            self.draw_pile.insert(pos, top)
            top = self.draw_pile.pop()
            self.discard.append(top)
        rank = CARD_RANK[top]
        self.phase = PLAY
        self.turn = first
        if top >= WILD:
            # Settled: a W+4 that cannot be replaced (only W+4s left) counts as a Wild.
            self.phase = COLOR
            return
        self.color = CARD_COLOR[top]
        if rank == SKIP:
            self.turn = self._left[first]
        elif rank == REVERSE:
            if self.two_handed:
                self.turn = self._left[first]
            else:
                self.direction = -1
                self.turn = self.dealer
        elif rank == DRAW_TWO:
            self._give(first, 2)
            self.turn = self._left[first]

    # ------------------------------------------------------------------ queries

    @property
    def awaiting(self) -> str:
        """What the game waits for: ``play``, ``drawn``, ``respond``, ``color``, ``swap``,
        ``round_over`` or ``game_over``."""
        return AWAITING[self.phase]

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self.discard[-1]

    @property
    def version(self) -> int:
        """A counter that changes whenever the state changes (for caches and UIs)."""
        return self._version

    @property
    def is_over(self) -> bool:
        """Whether the match has ended (``awaiting == 'game_over'``)."""
        return self.phase == GAME_OVER

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may know now: see :class:`~unokit.observation.Observation`."""
        return observe(self, seat)

    def hand_sizes(self) -> list[int]:
        """Every seat's number of cards."""
        return [len(h) for h in self.hands]

    def next_seat(self, seat: int) -> int:
        """The active seat after ``seat`` in the current direction."""
        return (self._left if self.direction == 1 else self._right)[seat]

    def team_of(self, seat: int) -> int:
        """The team of ``seat`` with ``mode: partners`` (seats k and k + n/2); else the seat."""
        return seat % self.teams if self.teams else seat

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, in a stable order. Includes out-of-turn actions.

        The list is cached until the state changes; do not modify it.
        """
        if not 0 <= seat < self.n:
            return []  # never cached: the key of a seat out of range could be another seat's
        key = self._version * 16 + seat
        if key != self._cache_key:
            self._cache = self._legal(seat)
            self._cache_key = key
        return self._cache

    def is_legal(self, seat: int, action: Action | str) -> bool:
        """Whether ``seat`` may take ``action`` now."""
        a = parse_action(action) if isinstance(action, str) else action
        return a in self.legal_actions(seat)

    def _legal(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase >= ROUND_OVER or not 0 <= seat < self.n or self.eliminated[seat]:
            return []
        hand = self.hands[seat]
        out: list[Action] = []
        if seat == self.turn:
            if phase == PLAY:
                # The hot path: each matching face once, in hand order, with its play actions.
                match = _MATCH[self.color * 17 + CARD_RANK[self.discard[-1]]]
                plays = _PLAYS_UNO if len(hand) == 2 else _PLAYS
                done = 0
                for c in hand:
                    if match[c]:
                        bit = 1 << c
                        if not done & bit:
                            done |= bit
                            out += plays[c]
                if done >> WILD_DRAW_FOUR & 1 and not (self._bluffing or self._t5_ok(WILD_DRAW_FOUR, hand)):
                    # wd4_bluffing: forbid: an illegal W+4 (T5) is not offered.
                    out = [a for a in out if ACTION_CARD[a] != WILD_DRAW_FOUR]
                out.append(DRAW)
            elif phase == DRAWN:
                d = self.drawn
                if d >= 0 and _MATCH[self.color * 17 + CARD_RANK[self.discard[-1]]][d] and (
                        self._bluffing or self._t5_ok(d, hand)):  # _drawn_playable, inlined
                    out += (_PLAYS_UNO if len(hand) == 2 else _PLAYS)[d]
                    if not (self._force and self._t5_ok(d, hand)):
                        out.append(PASS)
                else:
                    out.append(PASS)
            elif phase == RESPOND:
                self._respond_actions(out, hand)
            elif phase == COLOR:
                out.extend(range(COLOR_BASE, COLOR_BASE + 4))
            else:  # SWAP
                for t in range(self.n):
                    if t != seat and not self.eliminated[t]:
                        out.append(SWAP_BASE + t)
        elif self._jump_in and phase <= DRAWN:
            top = self.discard[-1]
            if top < WILD and top in hand:
                self._add_play(out, top, hand, len(hand) == 2)
        if self.owed[seat]:
            out.append(UNO)
        for t in self.window:
            if t != seat:
                out.append(CATCH_BASE + t)
        return out

    def _add_play(self, out: list[Action], c: Card, hand: list[Card], uno: bool) -> None:
        if c < WILD:
            out.append(c)
            if uno:
                out.append(c + UNO_OFFSET)
            return
        if c == WILD_DRAW_FOUR and not self._bluffing and not self._t5_ok(c, hand):
            return
        base = WILD + 4 * (c - WILD)
        out.extend(range(base, base + 4))
        if uno:
            out.extend(range(base + UNO_OFFSET, base + UNO_OFFSET + 4))

    def _t5_ok(self, c: Card, hand: list[Card]) -> bool:
        """T5: a W+4 is legal only if the hand holds no other card of the colour in play."""
        if c != WILD_DRAW_FOUR:
            return True
        color = self.color
        for h in hand:  # noqa: SIM110 (a plain loop is faster here)
            if CARD_COLOR[h] == color:
                return False
        return True

    def _drawn_playable(self, d: Card, hand: list[Card]) -> bool:
        if not _MATCH[self.color * 17 + CARD_RANK[self.discard[-1]]][d]:
            return False
        return self._bluffing or self._t5_ok(d, hand)

    def _respond_actions(self, out: list[Action], hand: list[Card]) -> None:
        out.append(ACCEPT)
        if self.pending_rank == 14 and self._bluffing:
            out.append(CHALLENGE)
        uno = len(hand) == 2
        if AGENT_P in hand:
            self._add_play(out, AGENT_P, hand, uno)
        if self._stack:
            if self.pending_rank == DRAW_TWO:
                done = 0
                for c in hand:
                    if c < WILD and CARD_RANK[c] == DRAW_TWO and not done & (1 << c):
                        done |= 1 << c
                        self._add_play(out, c, hand, uno)
            if WILD_DRAW_FOUR in hand and (self.pending_rank == 14 or self._stack == 2):
                self._add_play(out, WILD_DRAW_FOUR, hand, uno)

    # ------------------------------------------------------------------ acting

    def apply(self, seat: int, action: Action | str) -> None:
        """Apply ``seat``'s ``action`` (an int or its notation) or raise without changing anything.

        Raises :class:`~unokit.errors.NotationError` for bad syntax and
        :class:`~unokit.errors.IllegalActionError` (with ``reason``) for an action not allowed now.
        """
        a = parse_action(action) if isinstance(action, str) else action
        if not 0 <= seat < self.n:
            raise IllegalActionError(seat, _text(a), f"there is no seat {seat}")
        # legal_actions(seat), with its cache hit inlined (this is the hottest call).
        legal = self._cache if self._cache_key == self._version * 16 + seat else self.legal_actions(seat)
        if a in legal:
            self._do(seat, a)
            return
        _check_action_number(a)
        if (self._penalize and self.phase == PLAY and seat == self.turn
                and ACTION_KIND[a] == K_PLAY and not ACTION_UNO[a]
                and ACTION_CARD[a] in self.hands[seat]
                and not _MATCH[self.color * 17 + CARD_RANK[self.discard[-1]]][ACTION_CARD[a]]):
            # P5: a wrong card (never one carrying an UNO call: the card stays in the hand,
            # so the call would be refused, and a refused call refuses the whole action).
            self._wrong_card(seat, a)
            return
        raise IllegalActionError(seat, _text(a), self._reason(seat, a))

    def apply_host(self, action: Action | str) -> None:
        """Apply a host's action: ``penalize N`` gives seat N the P4 penalty (draw 2)."""
        a = parse_action(action) if isinstance(action, str) else action
        _check_action_number(a)
        if ACTION_KIND[a] != K_PENALIZE:
            raise IllegalActionError(-1, _text(a), "the host can only penalize a seat (P4)")
        target = ACTION_ARG[a]
        if self.phase >= ROUND_OVER:
            raise IllegalActionError(-1, _text(a), "the round is over")
        if target >= self.n or self.eliminated[target]:
            raise IllegalActionError(-1, _text(a), f"seat {target} is not in the game")
        self._version += 1
        self.history.append((-1, a))
        self._give(target, 2)

    def _do(self, seat: int, a: Action) -> None:
        self._version += 1
        self.history.append((seat, a))
        kind = ACTION_KIND[a]
        if kind == K_PLAY:
            c = ACTION_CARD[a]
            if self.phase == RESPOND and seat == self.turn:
                self.idle_turns = 0
                if c == AGENT_P:
                    self._agent_p(seat, ACTION_COLOR[a], ACTION_UNO[a])
                else:
                    self._stack_on(seat, c, ACTION_COLOR[a], ACTION_UNO[a])
            else:
                if self.phase != DRAWN or seat != self.turn:
                    self.idle_turns = 0  # a card from the hand (not the one just drawn)
                self._play(seat, c, ACTION_COLOR[a], ACTION_UNO[a])
        elif kind == K_DRAW:
            self._draw_turn(seat)
        elif kind == K_PASS:
            self._close_window()
            self.drawn = -1
            self.turn = (self._left if self.direction == 1 else self._right)[seat]
            self.phase = PLAY
        elif kind == K_UNO:
            self.owed[seat] = False
            if seat in self.window:
                self.window.remove(seat)
        elif kind == K_CATCH:
            self._give(ACTION_ARG[a], 2)
        elif kind == K_ACCEPT:
            self._close_window()
            self._give(seat, self.pending)
            self._end_respond()
            self.turn = self.next_seat(seat)
        elif kind == K_CHALLENGE:
            self._challenge(seat)
        elif kind == K_COLOR:
            self.color = ACTION_ARG[a]
            self.phase = PLAY
        else:  # K_SWAP
            self._swap(seat, ACTION_ARG[a])

    def _close_window(self) -> None:
        """P2: the next action closes the catch window. Most actions find it empty, and
        clearing an empty list still costs a slice deletion (3% of a compiled two-player
        random round, 1% at four players)."""
        if self.window:
            self.window.clear()

    def _give(self, seat: int, k: int) -> list[Card]:
        """``seat`` draws ``k`` cards (T6 when the draw pile runs out). Returns them."""
        if self.owed[seat]:
            self.owed[seat] = False
        window = self.window
        if window and seat in window:
            window.remove(seat)
        pile = self.draw_pile
        hand = self.hands[seat]
        if len(pile) >= k:  # the usual case: no reshuffle needed
            got = pile[-1:-k - 1:-1]  # the top k cards, in the order they are drawn
            del pile[len(pile) - k:]
            hand += got
            return got
        got = []
        for _ in range(k):
            if not pile:
                if not self._reshuffle():
                    break
                pile = self.draw_pile
            c = pile.pop()
            hand.append(c)
            got.append(c)
        return got

    def _reshuffle(self) -> bool:
        """T6: the discard pile except its top card becomes the draw pile, shuffled."""
        if len(self.discard) <= 1:
            return False
        top = self.discard.pop()
        pile = self.discard
        shuffle(self.rng, pile)
        self.draw_pile = pile
        self.discard = [top]
        return True

    def _play(self, seat: int, c: Card, color: int, uno: bool) -> None:
        """A card played at a normal turn, as the drawn card, or by jumping in."""
        self._close_window()
        hand = self.hands[seat]
        prev_color = self.color
        hand.remove(c)
        self.discard.append(c)
        self.drawn = -1
        self.turn = seat
        self.phase = PLAY
        if c >= WILD:
            self.color = color
        else:
            self.color = CARD_COLOR[c]
        left = len(hand)
        if left == 0:
            self._go_out(seat, c, 0)
            return
        if left == 1 and not uno:
            self.owed[seat] = True
            self.window.append(seat)
        rank = CARD_RANK[c]
        nxt = self._left if self.direction == 1 else self._right
        if rank < 10:
            if self._seven_zero and rank == 7:
                self.phase = SWAP
                return
            if self._seven_zero and rank == 0:
                self._rotate_hands(seat, uno)
            self.turn = nxt[seat]
        elif rank == SKIP:
            self.turn = nxt[nxt[seat]]
        elif rank == REVERSE:
            if self.two_handed:
                self.turn = seat
            else:
                self.direction = -self.direction
                self.turn = (self._left if self.direction == 1 else self._right)[seat]
        elif rank == DRAW_TWO:
            self._attack(seat, 2, DRAW_TWO, False)
        elif c == WILD_DRAW_FOUR:
            hand_legal = True
            for h in hand:
                if CARD_COLOR[h] == prev_color:
                    hand_legal = False
                    break
            self._attack(seat, 4, 14, not hand_legal)
        else:
            if c == MATER:
                self._peek(seat)
            self.turn = nxt[seat]

    def _attack(self, seat: int, k: int, rank: int, bluff: bool) -> None:
        victim = self.next_seat(seat)
        if self._respond_all or (rank == 14 and self._bluffing):
            self.phase = RESPOND
            self.pending = k
            self.pending_rank = rank
            self.attacker = seat
            self.bluff = bluff
            self.turn = victim
        else:
            self._give(victim, k)
            self.turn = self.next_seat(victim)

    def _end_respond(self) -> None:
        self.phase = PLAY
        self.pending = 0
        self.pending_rank = -1
        self.attacker = -1
        self.bluff = False

    def _stack_on(self, seat: int, c: Card, color: int, uno: bool) -> None:
        """House rule ``stacking``: add a draw card; the total passes on."""
        self._close_window()
        hand = self.hands[seat]
        bluff = c == WILD_DRAW_FOUR and not self._t5_ok(c, hand)
        hand.remove(c)
        self.discard.append(c)
        self.color = color if c >= WILD else CARD_COLOR[c]
        total = self.pending + (4 if c == WILD_DRAW_FOUR else 2)
        if not hand:
            self.pending = total
            self._go_out(seat, c, total)
            return
        if len(hand) == 1 and not uno:
            self.owed[seat] = True
            self.window.append(seat)
        self.pending = total
        self.pending_rank = 14 if c == WILD_DRAW_FOUR else DRAW_TWO
        self.attacker = seat
        self.bluff = bluff
        self.turn = self.next_seat(seat)

    def _agent_p(self, seat: int, color: int, uno: bool) -> None:
        """C6: answer a draw card with Agent P; the attacker draws instead."""
        self._close_window()
        hand = self.hands[seat]
        hand.remove(AGENT_P)
        self.discard.append(AGENT_P)
        self.color = color
        attacker, k = self.attacker, self.pending
        self._end_respond()
        if self._agent_p_discard:
            under = self.discard
            taken: list[Card] = []
            while len(taken) < k and len(under) > 1:
                taken.append(under.pop(-2))
            if self.owed[attacker]:
                self.owed[attacker] = False
            if attacker in self.window:
                self.window.remove(attacker)
            self.hands[attacker].extend(taken)
            if len(taken) < k:
                self._give(attacker, k - len(taken))
        else:
            self._give(attacker, k)
        if not hand:
            self._end_round(seat)
            return
        if len(hand) == 1 and not uno:
            self.owed[seat] = True
            self.window.append(seat)
        self.turn = self.next_seat(seat)

    def _challenge(self, seat: int) -> None:
        """P3: the W+4's player shows their hand; a bluffer draws instead, else +2 more."""
        self._close_window()
        attacker = self.attacker
        self.seen[seat][attacker] = tuple(self.hands[attacker])
        k, bluff = self.pending, self.bluff
        self._end_respond()
        if bluff:
            self._give(attacker, k)
            self.turn = seat
        else:
            self._give(seat, k + 2)
            self.turn = self.next_seat(seat)

    def _peek(self, seat: int) -> None:
        """C5: the Mater player sees every other hand as it is now."""
        seen = self.seen[seat]
        for t in range(self.n):
            if t != seat and not self.eliminated[t]:
                seen[t] = tuple(self.hands[t])

    def _draw_turn(self, seat: int) -> None:
        """T2 (and ``draw_until_playable``): draw, then wait for the drawn card's play or a pass."""
        self._close_window()
        self.idle_turns += 1
        hand = self.hands[seat]
        pile = self.draw_pile
        if pile:  # the usual case: _give(seat, 1) without a reshuffle
            self.owed[seat] = False
            d = pile.pop()
            hand.append(d)
        else:
            got = self._give(seat, 1)
            d = got[0] if got else -1
        if self._until_playable:
            while d >= 0 and not self._drawn_playable(d, hand):
                got = self._give(seat, 1)
                if not got:
                    break  # the piles ran dry: the last card stays drawn, unplayable
                d = got[0]
        self.drawn = d
        self.phase = DRAWN
        if self.idle_turns >= BLOCKED_AFTER:
            self._block(seat)

    def _wrong_card(self, seat: int, a: Action) -> None:
        """P5 with ``illegal_play: penalize``: keep the card, draw 2, play goes on."""
        self._version += 1
        self.history.append((seat, a))
        self._close_window()
        self._give(seat, 2)
        self.turn = self.next_seat(seat)
        self.phase = PLAY
        self.idle_turns += 1
        if self.idle_turns >= BLOCKED_AFTER:
            self._block(seat)

    def _swap(self, seat: int, target: int) -> None:
        """``seven_zero``: after a 7, swap hands with ``target``."""
        hands = self.hands
        called = len(hands[seat]) == 1 and not self.owed[seat]
        hands[seat], hands[target] = hands[target], hands[seat]
        self._recheck_uno((seat, target), seat if called else -1)
        self.turn = self.next_seat(seat)
        self.phase = PLAY

    def _rotate_hands(self, seat: int, called: bool) -> None:
        """``seven_zero``: after a 0, every hand passes to the next player in the direction."""
        nxt = self._left if self.direction == 1 else self._right
        old = self.hands
        new: list[list[Card]] = [[] for _ in range(self.n)]
        movers = [s for s in range(self.n) if not self.eliminated[s]]
        for s in movers:
            new[nxt[s]] = old[s]
        self.hands = new
        self._recheck_uno(movers, seat if called and len(old[seat]) == 1 else -1)

    def _recheck_uno(self, seats: Iterable[int], called: int) -> None:
        """A hand that drops to one card by a swap must call UNO (seven_zero)."""
        for s in seats:
            if s in self.window:
                self.window.remove(s)
            if len(self.hands[s]) == 1 and s != called:
                self.owed[s] = True
                self.window.append(s)
            else:
                self.owed[s] = False

    # ------------------------------------------------------------------ end of round

    def _go_out(self, seat: int, c: Card, stacked_total: int) -> None:
        """E1: the round ends; a last Draw Two / W+4 still makes the next player draw."""
        if c == WILD_DRAW_FOUR or (c < WILD and CARD_RANK[c] == DRAW_TWO):
            k = stacked_total or (4 if c == WILD_DRAW_FOUR else 2)
            self._give(self.next_seat(seat), k)
        elif c == MATER:
            self._peek(seat)
        self._end_round(seat)

    def _block(self, seat: int) -> None:
        """A blocked round (see :data:`BLOCKED_AFTER`) ends: the side (seat, or team with
        partners) holding the fewest points wins it, as if it had gone out; then the fewest
        cards; then the first in turn order from ``seat``, who made the last draw."""
        self.blocked = True
        held: dict[int, tuple[int, int]] = {}  # side: (points, cards) in its hands
        for s in range(self.n):
            if not self.eliminated[s]:
                points, cards = held.get(self.team_of(s), (0, 0))
                hand = self.hands[s]
                held[self.team_of(s)] = (points + sum([CARD_POINTS[c] for c in hand]), cards + len(hand))
        nxt = self._left if self.direction == 1 else self._right
        order = [seat]
        while nxt[order[-1]] != seat:
            order.append(nxt[order[-1]])
        # min() keeps the first of equals: the turn order from ``seat`` breaks the last ties.
        self._end_round(min(order, key=lambda t: held[self.team_of(t)]))

    def _end_round(self, winner: int) -> None:
        """E2 / E3 / M2 / M4 scoring, then the game-over test."""
        self._close_window()
        self.owed = [False] * self.n
        self.drawn = -1
        self.round_winner = self.team_of(winner)
        points = [sum([CARD_POINTS[c] for c in h]) for h in self.hands]
        opts = self.options
        scores = self.scores
        target = opts.target
        if opts.mode == "elimination":
            for s in range(self.n):
                if not self.eliminated[s]:
                    scores[s] += points[s]
            for s in range(self.n):
                if not self.eliminated[s] and scores[s] >= target:
                    self.eliminated[s] = True
            left = [s for s in range(self.n) if not self.eliminated[s]]
            if len(left) <= 1:
                self.winners = left
        elif opts.scoring == "standard":
            side = self.round_winner
            scores[side] += sum(
                points[s] for s in range(self.n) if self.team_of(s) != side
            )
            if scores[side] >= target:
                self.winners = [side]
        else:
            for s in range(self.n):
                scores[self.team_of(s)] += points[s]
            if max(scores) >= target:
                low = min(scores)
                self.winners = [i for i, v in enumerate(scores) if v == low]
        self.phase = GAME_OVER if self.winners else ROUND_OVER

    # ------------------------------------------------------------------ explanations

    def _reason(self, seat: int, a: Action) -> str:
        """Why ``a`` is not legal for ``seat`` now (called only after it was found illegal)."""
        phase = self.phase
        kind = ACTION_KIND[a]
        if phase == GAME_OVER:
            return "the game is over"
        if phase == ROUND_OVER:
            return "the round is over; start the next round"
        if self.eliminated[seat]:
            return "that seat is out of the game"
        hand = self.hands[seat]
        if kind == K_UNO:
            if len(hand) != 1:
                return f"UNO is called with one card left, and seat {seat} holds {len(hand)}"
            return "UNO was already called, or is not owed"
        if kind == K_CATCH:
            t = ACTION_ARG[a]
            if t == seat:
                return "a player cannot catch themselves"
            if t >= self.n:
                return f"there is no seat {t}"
            if not self.owed[t]:
                return f"seat {t} owes no UNO call"
            return f"seat {t} can no longer be caught: the next player has begun their turn"
        if kind == K_PENALIZE:
            return "only the host can give the suggestion penalty (P4)"
        if kind == K_PLAY:
            c = ACTION_CARD[a]
            if c not in hand:
                return f"seat {seat} holds no {card_str(c)}"
            if ACTION_UNO[a] and len(hand) != 2:
                return "UNO is called only with the play of the next-to-last card"
        if seat != self.turn:
            if kind == K_PLAY and self._jump_in and phase <= DRAWN:
                return f"out of turn, only a card identical to {card_str(self.top)} may jump in"
            return f"it is seat {self.turn}'s turn ({self.awaiting})"
        if phase == COLOR:
            return "the colour of the turned-up wild must be named first (color R/Y/G/B)"
        if phase == SWAP:
            return "choose whom to swap hands with (swap N)"
        if phase == RESPOND:
            if kind == K_CHALLENGE:
                if self.pending_rank != 14:
                    return "only a Wild Draw Four can be challenged"
                return "challenges are off (wd4_bluffing: forbid)"
            if kind == K_PLAY:
                return "a draw card waits for an answer: accept, challenge, or Agent P / stack"
            return "a draw card was played on you: accept it (or challenge / answer)"
        if kind == K_ACCEPT:
            return "there is no draw card to accept"
        if kind == K_CHALLENGE:
            return "there is no Wild Draw Four to challenge"
        if kind in (K_COLOR, K_SWAP):
            return "there is no colour or swap to choose now"
        if phase == DRAWN:
            if kind == K_DRAW:
                return "you have drawn already: play the drawn card or pass"
            if kind == K_PASS:
                return "a playable drawn card must be played (force_play)"
            if ACTION_CARD[a] != self.drawn:
                return "after drawing, only the drawn card may be played"
            return f"the drawn {card_str(self.drawn)} does not match"
        if kind == K_PASS:
            return "you can pass only after drawing"
        c = ACTION_CARD[a]
        if c == WILD_DRAW_FOUR:
            return "you hold a card of the colour in play, so Wild Draw Four is illegal"
        return f"{card_str(c)} does not match {card_str(self.top)} (colour in play {'RYGB'[self.color]})"

    # ------------------------------------------------------------------ copying

    def copy(self) -> Game:
        """An independent copy (for search): hands and piles are copied, tables shared."""
        return Game("", 0, _copy_of=self)

    def _copy_from(self, o: Game) -> None:
        """Make this new object a copy of ``o``, field by field (every slot is set here).

        Explicit assignments rather than ``Game.__new__`` and ``__slots__``: the same code runs
        compiled by mypyc (whose classes cannot be created without ``__init__``) and is faster
        in CPython too.
        """
        self.edition = o.edition
        self.options = o.options
        self.n = o.n
        self.seed = o.seed
        self.teams = o.teams
        self.scores = list(o.scores)
        self.eliminated = list(o.eliminated)
        self.round_no = o.round_no
        self.dealer = o.dealer
        self.winners = list(o.winners)
        self.round_winner = o.round_winner
        self._stack = o._stack
        self._bluffing = o._bluffing
        self._penalize = o._penalize
        self._seven_zero = o._seven_zero
        self._jump_in = o._jump_in
        self._until_playable = o._until_playable
        self._force = o._force
        self._respond_all = o._respond_all
        self._agent_p_discard = o._agent_p_discard
        self._cache_key = -1
        self._cache = o._cache
        self._version = o._version
        self.hands = [list(h) for h in o.hands]
        self.draw_pile = list(o.draw_pile)
        self.discard = list(o.discard)
        self.color = o.color
        self.turn = o.turn
        self.direction = o.direction
        self.phase = o.phase
        self.drawn = o.drawn
        self.pending = o.pending
        self.pending_rank = o.pending_rank
        self.attacker = o.attacker
        self.bluff = o.bluff
        self.owed = list(o.owed)
        self.window = list(o.window)
        self.seen = [dict(s) for s in o.seen]
        self.idle_turns = o.idle_turns
        self.blocked = o.blocked
        self.history = history = list(o.history)
        self._left = o._left
        self._right = o._right
        self.two_handed = o.two_handed
        rounds = self.rounds = list(o.rounds)
        if rounds:
            last = rounds[-1]
            rounds[-1] = RoundStart(last.dealer, last.deck, last.piles, last.scores,
                                    last.eliminated, history)
        self._rng_seed = o._rng_seed
        # None: made from the seed when first needed, as in the original.
        self._rng = None if o._rng is None else _plain_copy(o._rng)
        # A copy deals its later rounds as the original would, without moving its stream.
        deal_rng = o.deal_rng
        if deal_rng is None:
            self.deal_rng = None
        elif type(deal_rng) is random.Random:
            self.deal_rng = _plain_copy(deal_rng)
        else:
            self.deal_rng = copy.copy(deal_rng)  # of its own class, with its own state

    def __repr__(self) -> str:
        return (
            f"<Game {self.edition} {self.n}p round {self.round_no} {self.awaiting} "
            f"turn {self.turn} top {card_str(self.top)} colour {'RYGB'[self.color]}>"
        )


class RoundStart:
    """How a round began and what was done in it: the dealer, the match totals before it,
    either the deck dealt by S2 (``deck``, top first) or the stacked piles
    (``piles``: hands, discard, draw top-first), and the round's actions ``(seat, action)``
    (seat -1 for a host's action)."""

    __slots__ = ("actions", "dealer", "deck", "eliminated", "piles", "scores")

    def __init__(self, dealer: int, deck: tuple[Card, ...] | None,
                 piles: tuple[tuple[tuple[Card, ...], ...], Card, tuple[Card, ...]] | None,
                 scores: tuple[int | float, ...] = (), eliminated: tuple[int, ...] = (),
                 actions: list[tuple[int, Action]] | None = None) -> None:
        self.dealer = dealer
        self.deck = deck
        self.piles = piles
        self.scores = scores
        self.eliminated = eliminated
        self.actions: list[tuple[int, Action]] = actions if actions is not None else []


def _card(c: str | Card) -> Card:
    if isinstance(c, str):
        return parse_card(c)
    if isinstance(c, bool) or not 0 <= c < N_CARDS:
        raise NotationError(f"{c!r} is not a card")
    return c


def _check_action_number(a: Action) -> None:
    if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < N_ACTIONS:
        raise NotationError(f"{a!r} is not an action number (0 to {N_ACTIONS - 1})")


def _text(a: Action) -> str:
    return action_str(a) if 0 <= a < len(ACTION_KIND) else repr(a)


__all__ = ["ACCEPT", "AWAITING", "CHALLENGE", "DRAW", "PASS", "UNO", "Game", "RoundStart"]
