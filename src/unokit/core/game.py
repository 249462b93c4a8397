"""The game state machine: one match of rounds, every rule of the rule book (``docs/rules.md``).

:class:`Game` owns legality. Any seat may ask for its legal actions at any moment
(:meth:`Game.legal_actions`), including out-of-turn ones (catching a missed UNO call,
calling UNO, jumping in). :meth:`Game.apply` either changes the state or raises one
:class:`~unokit.core.errors.IllegalActionError` with the reason, leaving the state exactly as it was.

>>> g = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1", "Y2"], dealer=1)
>>> g.turn, g.awaiting
(0, 'play')
>>> [action_str(a) for a in g.legal_actions(0)]
['R1', 'R1!', 'draw']
>>> g.apply(0, "R1!")  # what happened, as events
(Played(seat=0, card=1, color=0, uno=True, jump_in=False),)
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
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

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
    CARD_COLOR,
    CARD_POINTS,
    CARD_RANK,
    DRAW_TWO,
    N_CARDS,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    WILD_DRAW_FOUR_RANK,
    Card,
    card_str,
    parse_card,
)
from .draws import shuffle, shuffle_tail
from .editions import check_edition, edition, edition_counts, edition_deck
from .errors import IllegalActionError, NotationError, OptionError, PositionError, UnoError
from .events import (
    Accepted,
    AgentPAnswered,
    Caught,
    Challenged,
    ColorNamed,
    DirectionChanged,
    DrawPending,
    Drew,
    Event,
    GameEnded,
    HandsRotated,
    HandsSwapped,
    HostPenalty,
    Passed,
    Peeked,
    Played,
    Reshuffled,
    RoundEnded,
    RoundStarted,
    Skipped,
    TurnedUp,
    UnoCalled,
    UnoMissed,
    WrongCard,
)
from .observation import HistoryView, Observation
from .options import Options
from .phases import AWAITING, COLOR, DRAWN, GAME_OVER, PLAY, RESPOND, ROUND_OVER, SWAP
from .state import DICTS, FIELDS, LIST, LISTS, ROUNDS, VALUE, RoundStart, State, freeze, thaw

_STACK_LEVEL: Final = {"off": 0, "progressive": 1, "plus4_on_plus2": 2}
_DEFAULT_OPTIONS: Final = Options()  # immutable, so one serves every game (building one checks it)

BLOCKED_AFTER: Final = 200
"""A round is blocked (``docs/rules.md``) when this many turns in a row have begun with
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


def _copy_rng(rng: random.Random | None) -> random.Random | None:
    """A copy of a generator of the game (``None`` stays ``None``; another class keeps its class)."""
    if rng is None:
        return None
    if type(rng) is random.Random:
        return _plain_copy(rng)
    return copy.copy(rng)


def color_before_top(obs: Observation) -> int:
    """The colour that was in play just before the last Wild Draw Four of ``obs``'s round (or -1):
    the last play or colour choice before that card, or the colour of the first turned-up card."""
    hist = obs.history
    i = len(hist) - 1
    while i >= 0:
        _, a = hist[i]
        if ACTION_KIND[a] == K_PLAY and ACTION_CARD[a] == WILD_DRAW_FOUR:
            break
        i -= 1
    if i < 0:
        return -1
    j = i - 1
    while j >= 0:
        _, a = hist[j]
        kind = ACTION_KIND[a]
        if kind in (K_PLAY, K_COLOR):
            return ACTION_COLOR[a]
        j -= 1
    first = obs.discard[0]
    return CARD_COLOR[first] if first < WILD else -1


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
        "_answer_card",
        "_bluffing",
        "_cache",
        "_cache_key",
        "_events",
        "_force",
        "_jump_in",
        "_left",
        "_peek_card",
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
        self._set_rules()
        self.scores = [0] * (self.teams or players)
        self.eliminated = [False] * players
        self.round_no = 0
        self.dealer = 0
        self.winners = []
        self.round_winner = -1
        self.rounds = []
        self._version = 0
        self._rng = None
        self._rng_seed = None
        self.deal_rng = None
        self._clear_round()

    def _set_rules(self) -> None:
        """What is derived from the edition and the options (read once, not at every step)."""
        opts = self.options
        self.teams = self.n // 2 if opts.mode == "partners" else 0
        self._stack = _STACK_LEVEL[opts.stacking]
        self._bluffing = opts.wd4_bluffing == "allow"
        self._penalize = opts.illegal_play == "penalize"
        self._seven_zero = opts.seven_zero
        self._jump_in = opts.jump_in
        self._until_playable = opts.draw_until_playable
        self._force = opts.force_play
        ed = edition(self.edition)
        # The edition's special card, -1 where it has none: C5's peek (Mater), C6's answer (Agent P).
        self._peek_card = -1 if ed.peek_card is None else ed.peek_card
        self._answer_card = -1 if ed.answer_card is None else ed.answer_card
        self._respond_all = self._stack > 0 or ed.answers_draw_cards
        self._agent_p_discard = opts.agent_p_draws_from == "discard"
        self._cache_key = -1
        self._cache: list[Action] = []
        self._events: list[Event] | None = None

    def _set_seat_order(self) -> None:
        """The next active seat of each seat, both ways, and the two-player rules (S3, T3)."""
        active = [not e for e in self.eliminated]
        self._left = _seat_order(active, 1)
        self._right = _seat_order(active, -1)
        self.two_handed = sum(active) == 2 and self.options.two_handed_rules

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
        self._set_seat_order()

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
        game.start_round(dealer=game.dealer, events=False)
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
            dealer=dealer, hands=cards, discard=_card(discard), draw=[_card(c) for c in draw], events=False
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
        *,
        events: bool = True,
    ) -> tuple[Event, ...]:
        """Deal a round and return its events (the deal, the first card and its effect, S3;
        with ``events=False``, the fast path of a simulation, none are built and ``()`` is
        returned).
        With no arguments after a round is over: the next round, the deal passing left (S1),
        with a deck shuffled from the seed (or from the match's ``deal_rng``, see :meth:`new`).

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
        if not events:
            self._turn_up_first_card()
            return ()
        told: list[Event] = [
            RoundStarted(round_no, dealer, tuple([len(h) for h in self.hands]),
                         tuple([tuple(h) for h in self.hands]))
        ]
        self._events = told
        try:
            self._turn_up_first_card()
        finally:
            self._events = None
        return tuple(told)

    def opening_events(self) -> tuple[Event, ...]:
        """The events of the current round's deal, as :meth:`start_round` returned them: the
        deal, the first card turned up and its effect (S3). For a game restored or resumed
        mid-round, which did not see its deal happen."""
        if not self.rounds:
            return ()
        start = self.rounds[-1]
        if start.deck is None and start.piles is None:
            return ()  # a round taken from an observation: its deal is unknown
        scratch = Game(self.edition, self.n, self.options, self.seed)
        scratch.scores = list(start.scores)
        scratch.eliminated = [s in start.eliminated for s in range(self.n)]
        scratch.round_no = self.round_no
        scratch.dealer = start.dealer
        if start.deck is not None:
            return scratch.start_round(dealer=start.dealer, deck=start.deck)
        hands, discard, draw = start.piles  # type: ignore[misc]
        return scratch.start_round(dealer=start.dealer, hands=[list(h) for h in hands],
                                   discard=discard, draw=list(draw))

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
        ev = self._events
        while top == WILD_DRAW_FOUR and any(c != WILD_DRAW_FOUR for c in self.draw_pile):
            # Back into the draw pile at a random place below the top card; turn the next.
            if ev is not None:
                ev.append(TurnedUp(top, True))
            self.discard.pop()
            pos = self.rng.randrange(len(self.draw_pile))  # index 0 is the bottom
            self.draw_pile.insert(pos, top)
            top = self.draw_pile.pop()
            self.discard.append(top)
        if ev is not None:
            ev.append(TurnedUp(top))
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
            if ev is not None:
                ev.append(Skipped(first))
        elif rank == REVERSE:
            if self.two_handed:
                self.turn = self._left[first]
                if ev is not None:
                    ev.append(Skipped(first))
            else:
                self.direction = -1
                self.turn = self.dealer
                if ev is not None:
                    ev.append(DirectionChanged(-1))
        elif rank == DRAW_TWO:
            self._give(first, 2, "first_card")
            self.turn = self._left[first]
            if ev is not None:
                ev.append(Skipped(first))

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
        """What ``seat`` may know now: see :class:`~unokit.core.observation.Observation`."""
        # Built at every step of a simulation, so kept lean. Every mutable part of the game is
        # copied (tuples, a dict); the history is an O(1) view of the append-only log.
        if not 0 <= seat < self.n:  # -1 would index the last seat's hand: another seat's cards
            raise UnoError(f"there is no seat {seat} (seats are 0 to {self.n - 1})")
        turn = self.turn
        phase = self.phase
        discard = self.discard
        history = self.history
        return Observation(
            seat,
            self.edition,
            self.n,
            tuple(self.hands[seat]),
            tuple([len(h) for h in self.hands]),
            discard[-1],
            self.color,
            self.direction,
            turn,
            AWAITING[phase],
            len(self.draw_pile),
            tuple(discard),
            self.pending,
            self.attacker,
            self.drawn if (seat == turn and phase == DRAWN) else -1,
            tuple(self.owed),
            tuple(self.window),
            tuple(self.scores),
            tuple(self.eliminated),
            self.dealer,
            self.round_no,
            HistoryView(history, len(history)),
            dict(self.seen[seat]),
            self.legal_actions(seat),
            self.options,
            self.idle_turns,
        )

    def hand_sizes(self) -> list[int]:
        """Every seat's number of cards."""
        return [len(h) for h in self.hands]

    def next_seat(self, seat: int) -> int:
        """The active seat after ``seat`` in the current direction."""
        return (self._left if self.direction == 1 else self._right)[seat]

    def team_of(self, seat: int) -> int:
        """The team of ``seat`` with ``mode: partners`` (seats k and k + n/2); else the seat."""
        return seat % self.teams if self.teams else seat

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now, in a stable order. Includes out-of-turn actions.

        An immutable tuple, kept until the state changes.
        """
        if not 0 <= seat < self.n:
            return ()  # never cached: the key of a seat out of range could be another seat's
        key = self._version * 16 + seat
        if key != self._cache_key:
            self._cache = self._legal(seat)
            self._cache_key = key
        return tuple(self._cache)

    def _legal_list(self, seat: int) -> list[Action]:
        """:meth:`legal_actions` as the engine's own cached list, which its callers inside the
        engine (the playout) only read: no tuple is made for them."""
        if not 0 <= seat < self.n:
            return []
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
        if self.pending_rank == WILD_DRAW_FOUR_RANK and self._bluffing:
            out.append(CHALLENGE)
        uno = len(hand) == 2
        answer = self._answer_card
        if answer >= 0 and answer in hand:
            self._add_play(out, answer, hand, uno)
        if self._stack:
            if self.pending_rank == DRAW_TWO:
                done = 0
                for c in hand:
                    if c < WILD and CARD_RANK[c] == DRAW_TWO and not done & (1 << c):
                        done |= 1 << c
                        self._add_play(out, c, hand, uno)
            if WILD_DRAW_FOUR in hand and (self.pending_rank == WILD_DRAW_FOUR_RANK or self._stack == 2):
                self._add_play(out, WILD_DRAW_FOUR, hand, uno)

    # ------------------------------------------------------------------ acting

    def apply(self, seat: int, action: Action | str) -> tuple[Event, ...]:
        """Apply ``seat``'s ``action`` (an int or its notation) and return what happened, as
        :mod:`events <unokit.core.events>`; or raise without changing anything.

        Raises :class:`~unokit.core.errors.NotationError` for bad syntax and
        :class:`~unokit.core.errors.IllegalActionError` (with ``reason``) for an action not allowed now.
        A simulation that does not need the events calls :meth:`step`, which skips building them.
        """
        events: list[Event] = []
        self._events = events
        try:
            self.step(seat, action)
        finally:
            self._events = None
        return tuple(events)

    def step(self, seat: int, action: Action | str) -> None:
        """:meth:`apply` without building its events: the same checks and the same change of
        state, for the loops that play many games (playouts, benchmarks, the arena)."""
        a = parse_action(action) if isinstance(action, str) else action
        if not 0 <= seat < self.n:
            raise IllegalActionError(seat, _text(a), f"there is no seat {seat}")
        # legal_actions(seat), with its cache hit inlined (this is the hottest call).
        legal = self._cache if self._cache_key == self._version * 16 + seat else self._legal_list(seat)
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

    def step_unchecked(self, seat: int, action: Action) -> None:
        """Apply an action that the caller knows to be legal (it read the rules' own state to
        choose it), with no check and no events: the inner loop of a bot's rollouts. An illegal
        action here corrupts the game; anything else should call :meth:`apply` or :meth:`step`."""
        self._do(seat, action)

    def apply_host(self, action: Action | str) -> tuple[Event, ...]:
        """Apply a host's action: ``penalize N`` gives seat N the P4 penalty (draw 2). Returns its events."""
        a = parse_action(action) if isinstance(action, str) else action
        _check_action_number(a)
        if ACTION_KIND[a] != K_PENALIZE:
            raise IllegalActionError(-1, _text(a), "the host can only penalize a seat (P4)")
        target = ACTION_ARG[a]
        if self.phase >= ROUND_OVER:
            raise IllegalActionError(-1, _text(a), "the round is over")
        if target >= self.n or self.eliminated[target]:
            raise IllegalActionError(-1, _text(a), f"seat {target} is not in the game")
        events: list[Event] = [HostPenalty(target)]
        self._events = events
        try:
            self._version += 1
            self.history.append((-1, a))
            self._give(target, 2, "host")
        finally:
            self._events = None
        return tuple(events)

    def _do(self, seat: int, a: Action) -> None:
        self._version += 1
        self.history.append((seat, a))
        kind = ACTION_KIND[a]
        if kind == K_PLAY:
            c = ACTION_CARD[a]
            if self._events is not None:
                self._events.append(Played(seat, c, ACTION_COLOR[a] if c >= WILD else CARD_COLOR[c],
                                           ACTION_UNO[a], seat != self.turn))
            if self.phase == RESPOND and seat == self.turn:
                self.idle_turns = 0
                if c == self._answer_card:
                    self._agent_p(seat, ACTION_COLOR[a], ACTION_UNO[a])
                else:
                    self._stack_on(seat, c, ACTION_COLOR[a], ACTION_UNO[a])
            else:
                if self.phase != DRAWN or seat != self.turn:
                    self.idle_turns = 0  # a card from the hand (not the one just drawn)
                self._play(seat, c, ACTION_COLOR[a], ACTION_UNO[a])
            return
        if kind == K_DRAW:
            self._draw_turn(seat)
            return
        ev = self._events
        if kind == K_PASS:
            self._close_window()
            self.drawn = -1
            self.turn = (self._left if self.direction == 1 else self._right)[seat]
            self.phase = PLAY
            if ev is not None:
                ev.append(Passed(seat))
        elif kind == K_UNO:
            self.owed[seat] = False
            if seat in self.window:
                self.window.remove(seat)
            if ev is not None:
                ev.append(UnoCalled(seat))
        elif kind == K_CATCH:
            if ev is not None:
                ev.append(Caught(seat, ACTION_ARG[a]))
            self._give(ACTION_ARG[a], 2, "caught")
        elif kind == K_ACCEPT:
            self._close_window()
            k = self.pending
            if ev is not None:
                ev.append(Accepted(seat, k))
            self._give(seat, k, self._pending_reason())
            self._end_respond()
            self.turn = self.next_seat(seat)
            if ev is not None:
                ev.append(Skipped(seat))
        elif kind == K_CHALLENGE:
            self._challenge(seat)
        elif kind == K_COLOR:
            self.color = ACTION_ARG[a]
            self.phase = PLAY
            if ev is not None:
                ev.append(ColorNamed(seat, ACTION_ARG[a]))
        else:  # K_SWAP
            self._swap(seat, ACTION_ARG[a])

    def _pending_reason(self) -> str:
        """Why the seat answering a draw card draws (for its :class:`Drew` event)."""
        single = 4 if self.pending_rank == WILD_DRAW_FOUR_RANK else 2
        if self.pending > single:
            return "stack"
        return "wild_draw_four" if single == 4 else "draw_two"

    def _close_window(self) -> None:
        """P2: the next action closes the catch window. Most actions find it empty, and
        clearing an empty list still costs a slice deletion (3% of a compiled two-player
        random round, 1% at four players)."""
        if self.window:
            self.window.clear()

    def _give(self, seat: int, k: int, reason: str | None) -> list[Card]:
        """``seat`` draws ``k`` cards (T6 when the draw pile runs out) for ``reason`` (told in a
        :class:`Drew` event; ``None``: the caller tells it). Returns them."""
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
        else:
            got = []
            for _ in range(k):
                if not pile:
                    if not self._reshuffle():
                        break
                    pile = self.draw_pile
                c = pile.pop()
                hand.append(c)
                got.append(c)
        ev = self._events
        if ev is not None and reason is not None:
            ev.append(Drew(seat, len(got), tuple(got), reason))
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
        ev = self._events
        if ev is not None:
            ev.append(Reshuffled(len(pile)))
        return True

    def _owe(self, seat: int) -> None:
        """``seat`` is down to one card without calling UNO: it may be caught (P2)."""
        self.owed[seat] = True
        self.window.append(seat)
        ev = self._events
        if ev is not None:
            ev.append(UnoMissed(seat))

    def _play(self, seat: int, c: Card, color: int, uno: bool) -> None:
        """A card played at a normal turn, as the drawn card, or by jumping in."""
        if self.window:  # _close_window(), inlined on this hot path
            self.window.clear()
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
            self._owe(seat)
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
            if self._events is not None:
                self._events.append(Skipped(nxt[seat]))
        elif rank == REVERSE:
            if self.two_handed:
                self.turn = seat
                if self._events is not None:
                    self._events.append(Skipped(nxt[seat]))
            else:
                self.direction = -self.direction
                self.turn = (self._left if self.direction == 1 else self._right)[seat]
                if self._events is not None:
                    self._events.append(DirectionChanged(self.direction))
        elif rank == DRAW_TWO:
            self._attack(seat, 2, DRAW_TWO, False)
        elif c == WILD_DRAW_FOUR:
            hand_legal = True
            for h in hand:
                if CARD_COLOR[h] == prev_color:
                    hand_legal = False
                    break
            self._attack(seat, 4, WILD_DRAW_FOUR_RANK, not hand_legal)
        else:
            if c == self._peek_card:
                self._peek(seat)
            self.turn = nxt[seat]

    def _attack(self, seat: int, k: int, rank: int, bluff: bool) -> None:
        victim = self.next_seat(seat)
        ev = self._events
        if self._respond_all or (rank == WILD_DRAW_FOUR_RANK and self._bluffing):
            self.phase = RESPOND
            self.pending = k
            self.pending_rank = rank
            self.attacker = seat
            self.bluff = bluff
            self.turn = victim
            if ev is not None:
                ev.append(DrawPending(victim, k, seat))
        else:
            self._give(victim, k, "draw_two" if rank == DRAW_TWO else "wild_draw_four")
            self.turn = self.next_seat(victim)
            if ev is not None:
                ev.append(Skipped(victim))

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
            self._owe(seat)
        self.pending = total
        self.pending_rank = WILD_DRAW_FOUR_RANK if c == WILD_DRAW_FOUR else DRAW_TWO
        self.attacker = seat
        self.bluff = bluff
        self.turn = self.next_seat(seat)
        ev = self._events
        if ev is not None:
            ev.append(DrawPending(self.turn, total, seat))

    def _agent_p(self, seat: int, color: int, uno: bool) -> None:
        """C6: answer a draw card with the edition's answer card (Agent P); the attacker draws instead."""
        self._close_window()
        hand = self.hands[seat]
        answer = self._answer_card
        hand.remove(answer)
        self.discard.append(answer)
        self.color = color
        attacker, k = self.attacker, self.pending
        self._end_respond()
        ev = self._events
        if ev is not None:
            ev.append(AgentPAnswered(seat, attacker, k))
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
            if ev is not None and taken:
                ev.append(Drew(attacker, len(taken), tuple(taken), "agent_p", "discard"))
            if len(taken) < k:
                self._give(attacker, k - len(taken), "agent_p")
        else:
            self._give(attacker, k, "agent_p")
        if not hand:
            self._end_round(seat)
            return
        if len(hand) == 1 and not uno:
            self._owe(seat)
        self.turn = self.next_seat(seat)

    def _challenge(self, seat: int) -> None:
        """P3: the W+4's player shows their hand; a bluffer draws instead, else +2 more."""
        self._close_window()
        attacker = self.attacker
        shown = tuple(self.hands[attacker])
        self.seen[seat][attacker] = shown
        k, bluff = self.pending, self.bluff
        self._end_respond()
        ev = self._events
        if ev is not None:
            ev.append(Challenged(seat, attacker, bluff, shown))
        if bluff:
            self._give(attacker, k, "challenge")
            self.turn = seat
        else:
            self._give(seat, k + 2, "challenge")
            self.turn = self.next_seat(seat)
            if ev is not None:
                ev.append(Skipped(seat))

    def _peek(self, seat: int) -> None:
        """C5: the Mater player sees every other hand as it is now."""
        seen = self.seen[seat]
        for t in range(self.n):
            if t != seat and not self.eliminated[t]:
                seen[t] = tuple(self.hands[t])
        ev = self._events
        if ev is not None:
            ev.append(Peeked(seat, tuple(sorted(seen.items()))))

    def _draw_turn(self, seat: int) -> None:
        """T2 (and ``draw_until_playable``): draw, then wait for the drawn card's play or a pass."""
        if self.window:  # _close_window(), inlined on this hot path
            self.window.clear()
        self.idle_turns += 1
        hand = self.hands[seat]
        pile = self.draw_pile
        if pile:  # the usual case: _give(seat, 1) without a reshuffle
            self.owed[seat] = False
            d = pile.pop()
            hand.append(d)
            ev = self._events
            if ev is None and not self._until_playable:
                self.drawn = d
                self.phase = DRAWN
                if self.idle_turns >= BLOCKED_AFTER:
                    self._block(seat)
                return
            drawn = [d]
        else:
            drawn = self._give(seat, 1, None)
            d = drawn[0] if drawn else -1
        if self._until_playable:
            while d >= 0 and not self._drawn_playable(d, hand):
                got = self._give(seat, 1, None)
                if not got:
                    break  # the piles ran dry: the last card stays drawn, unplayable
                d = got[0]
                drawn.append(d)
        ev = self._events
        if ev is not None:
            ev.append(Drew(seat, len(drawn), tuple(drawn), "turn"))
        self.drawn = d
        self.phase = DRAWN
        if self.idle_turns >= BLOCKED_AFTER:
            self._block(seat)

    def _wrong_card(self, seat: int, a: Action) -> None:
        """P5 with ``illegal_play: penalize``: keep the card, draw 2, play goes on."""
        self._version += 1
        self.history.append((seat, a))
        self._close_window()
        ev = self._events
        if ev is not None:
            ev.append(WrongCard(seat, ACTION_CARD[a]))
        self._give(seat, 2, "penalty")
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
        ev = self._events
        if ev is not None:
            ev.append(HandsSwapped(seat, target, (tuple(hands[seat]), tuple(hands[target]))))
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
        ev = self._events
        if ev is not None:
            ev.append(HandsRotated(self.direction, tuple([tuple(h) for h in new])))
        self._recheck_uno(movers, seat if called and len(old[seat]) == 1 else -1)

    def _recheck_uno(self, seats: Iterable[int], called: int) -> None:
        """A hand that drops to one card by a swap must call UNO (seven_zero)."""
        for s in seats:
            if s in self.window:
                self.window.remove(s)
            if len(self.hands[s]) == 1 and s != called:
                self._owe(s)
            else:
                self.owed[s] = False

    # ------------------------------------------------------------------ end of round

    def _go_out(self, seat: int, c: Card, stacked_total: int) -> None:
        """E1: the round ends; a last Draw Two / W+4 still makes the next player draw."""
        if c == WILD_DRAW_FOUR or (c < WILD and CARD_RANK[c] == DRAW_TWO):
            k = stacked_total or (4 if c == WILD_DRAW_FOUR else 2)
            reason = "stack" if stacked_total > (4 if c == WILD_DRAW_FOUR else 2) else (
                "wild_draw_four" if c == WILD_DRAW_FOUR else "draw_two")
            self._give(self.next_seat(seat), k, reason)
        elif c == self._peek_card:
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
            if not left:
                # A blocked round in which every seat still in reached the target: the winner
                # of that final hand wins the game (M4; docs/rules.md, "A round that cannot end").
                self.eliminated[winner] = False
                left = [winner]
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
        ev = self._events
        if ev is not None:
            ev.append(RoundEnded(winner, tuple(points), tuple(scores), tuple(self.eliminated), self.blocked))
            if self.winners:
                ev.append(GameEnded(tuple(self.winners)))

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
                if self.pending_rank != WILD_DRAW_FOUR_RANK:
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

    # ------------------------------------------------------------------ state, positions, copies

    def state(self) -> State:
        """A frozen snapshot of every field of the game (:class:`~unokit.core.state.State`).
        Two games in the same state give equal snapshots."""
        return State(**{name: freeze(kind, getattr(self, attr)) for name, attr, kind in FIELDS})

    @classmethod
    def from_state(cls, state: State) -> Game:
        """The game in ``state`` (which is checked for consistency: see :meth:`from_dict`)."""
        if not isinstance(state, State):
            raise TypeError(f"state must be an unokit State, not {type(state).__name__}")
        try:
            game = cls(state.edition, state.n, state.options, state.seed)
        except OptionError as exc:
            raise PositionError(str(exc)) from None
        game._load({name: getattr(state, name) for name, _, _ in FIELDS})
        game._check_position()
        return game

    def _load(self, values: Mapping[str, Any]) -> None:
        """Set every field from ``values`` (``{field: value as a State holds it}``), then what
        is derived from them."""
        for name, attr, kind in FIELDS:
            setattr(self, attr, thaw(kind, values[name]))
        self.history = self.rounds[-1].actions if self.rounds else []
        self._set_rules()
        self._set_seat_order()

    def to_dict(self) -> dict[str, Any]:
        """The whole game as a JSON-ready position (``docs/records.md``): settings, scores, every
        hand and pile, every round's deal and actions, the phase, and the random generators'
        state. :meth:`from_dict` restores it, and the restored game goes on identically."""
        from .position import state_to_json

        return state_to_json(self.state())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """The game of a position written by :meth:`to_dict`. A malformed or inconsistent
        position (an unknown or missing field, the wrong format or version, more cards of a
        face than the deck holds, a seat that does not exist, ...) raises one
        :class:`~unokit.core.errors.PositionError` naming what is wrong."""
        from .position import state_from_json

        return cls.from_state(state_from_json(data))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its state (in both builds: a compiled class has no default pickling)."""
        return (Game.from_state, (self.state(),))

    def _check_position(self) -> None:
        """Raise :class:`~unokit.core.errors.PositionError` if the fields do not make a game."""
        n = self.n

        def bad(why: str) -> PositionError:
            return PositionError(f"inconsistent position: {why}")

        sides = self.teams or n
        for name, value, size in (("hands", self.hands, n), ("owed", self.owed, n),
                                  ("seen", self.seen, n), ("eliminated", self.eliminated, n),
                                  ("scores", self.scores, sides)):
            if len(value) != size:
                raise bad(f"{name} has {len(value)} entries for {size}")
        if not self.discard:
            raise bad("the discard pile is empty")
        cards = [c for h in self.hands for c in h] + self.draw_pile + self.discard
        counts = [0] * N_CARDS
        for c in cards:
            counts[c] += 1
        limits = edition_counts(self.edition)
        for c in range(N_CARDS):
            if counts[c] > limits[c]:
                raise bad(f"{counts[c]} × {card_str(c)}, but the {self.edition} deck has {limits[c]}")
        if self.rounds and self.rounds[-1].deck is not None and len(cards) != sum(limits):
            raise bad(f"{len(cards)} cards in play, but the round was dealt the whole deck of {sum(limits)}")
        seats = range(n)
        for name, seat in (("turn", self.turn), ("dealer", self.dealer)):
            if seat not in seats:
                raise bad(f"{name} is seat {seat}, which does not exist")
        for name, seat in (("attacker", self.attacker), ("round_winner", self.round_winner)):
            if seat != -1 and seat not in range(sides if name == "round_winner" else n):
                raise bad(f"{name} is {seat}, which does not exist")
        if any(s not in seats for s in self.window):
            raise bad("the window names a seat that does not exist")
        if any(t not in seats for d in self.seen for t in d):
            raise bad("seen names a seat that does not exist")
        if any(w not in range(sides) for w in self.winners):
            raise bad("winners names a seat or team that does not exist")
        if self.direction not in (1, -1):
            raise bad(f"direction is {self.direction} (1 or -1)")
        if not 0 <= self.color < 4:
            raise bad(f"colour {self.color} is not a colour")
        if self.phase < ROUND_OVER and self.eliminated[self.turn]:
            raise bad(f"seat {self.turn} is on turn but eliminated")
        if self.phase < ROUND_OVER:  # (a round just ended keeps the hands it was scored on)
            for s in seats:
                if self.eliminated[s] and self.hands[s]:
                    raise bad(f"seat {s} is out of the game but holds cards")
            if self.eliminated.count(False) < 2:
                raise bad("a round needs two seats still in the game")
        if self.phase == DRAWN and self.drawn >= 0 and self.drawn not in self.hands[self.turn]:
            raise bad(f"the drawn {card_str(self.drawn)} is not in seat {self.turn}'s hand")
        if self.phase == RESPOND and (self.attacker < 0 or self.pending <= 0):
            raise bad("a draw card waits for an answer, but no attacker or count is set")
        if (self.phase == GAME_OVER) != bool(self.winners):
            raise bad("the match is over exactly when it has winners")
        for r in self.rounds:
            if r.dealer not in seats:
                raise bad(f"a round's dealer is seat {r.dealer}, which does not exist")
            dealt = list(r.deck) if r.deck is not None else (
                [c for h in r.piles[0] for c in h] + [r.piles[1]] + list(r.piles[2])
                if r.piles is not None else [])
            if any(not 0 <= c < N_CARDS for c in dealt):
                raise bad("a round's deal holds a card that does not exist")
            dealt_counts = [0] * N_CARDS
            for c in dealt:
                dealt_counts[c] += 1
            for c in range(N_CARDS):
                if dealt_counts[c] > limits[c]:
                    raise bad(f"a round was dealt {dealt_counts[c]} × {card_str(c)}, "
                              f"but the deck has {limits[c]}")
            for seat, a in r.actions:
                if not -1 <= seat < n or not 0 <= a < N_ACTIONS:
                    raise bad(f"the action {a} of seat {seat} in a round's log does not exist")

    @classmethod
    def from_observation(cls, obs: Observation, hands: Sequence[Sequence[Card]],
                         draw_pile: Sequence[Card], seed: int) -> Game:
        """A full game consistent with ``obs`` (a *determinization*, for a search over hidden
        cards): ``hands`` gives every seat's cards (``obs.seat``'s must be its own hand), and
        ``draw_pile`` the draw pile, bottom first. The cards of the hands, the draw pile and the
        discard pile must be exactly the edition's deck, and each hand as large as ``obs`` says
        (the hands shown to the seat, ``obs.seen``, are not checked: they may have changed since).
        When another seat has just drawn, the card it drew is hidden: the world's is the last
        card of that seat's hand.
        The round's generator (T6 reshuffles) is seeded from ``seed``. Raises
        :class:`~unokit.core.errors.PositionError` if the world does not fit the observation.
        """
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
            raise PositionError(
                f"the hands, the draw pile and the discard pile must be the {obs.edition} deck")
        phase = AWAITING.index(obs.awaiting)
        if phase >= ROUND_OVER:
            raise PositionError("the round is over: there is no decision to take in it")
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
        seen[seat] = dict(obs.seen)
        values: dict[str, Any] = {
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
        # Checked above against the observation; a search builds many worlds, so the State and
        # the whole-position check of from_state are left out.
        game = cls(obs.edition, obs.players, obs.options, seed)
        game._load(values)
        return game

    def copy(self) -> Game:
        """An independent copy (for search): hands and piles are copied, tables shared."""
        return Game("", 0, _copy_of=self)

    def _copy_from(self, o: Game) -> None:
        """Make this new object a copy of ``o``, field by field of :class:`~unokit.core.state.State`.

        Through ``__init__`` rather than ``Game.__new__``: the same code runs compiled by mypyc
        (whose classes cannot be created without ``__init__``).
        """
        for _, attr, kind in FIELDS:
            value = getattr(o, attr)
            if kind == VALUE:
                setattr(self, attr, value)
            elif kind == LIST:
                setattr(self, attr, list(value))
            elif kind == LISTS:
                setattr(self, attr, [list(h) for h in value])
            elif kind == DICTS:
                setattr(self, attr, [dict(s) for s in value])
            elif kind == ROUNDS:
                rounds = list(value)
                if rounds:  # the current round's log goes on in the copy alone
                    last = rounds[-1]
                    rounds[-1] = RoundStart(last.dealer, last.deck, last.piles, last.scores,
                                            last.eliminated, list(last.actions))
                setattr(self, attr, rounds)
            else:
                setattr(self, attr, _copy_rng(value))
        self.history = self.rounds[-1].actions if self.rounds else list(o.history)
        self._set_rules()
        # The seat order of the round (not recomputed: a round's order is fixed when it is dealt).
        self._left = o._left
        self._right = o._right
        self.two_handed = o.two_handed

    def __repr__(self) -> str:
        return (
            f"<Game {self.edition} {self.n}p round {self.round_no} {self.awaiting} "
            f"turn {self.turn} top {card_str(self.top)} colour {'RYGB'[self.color]}>"
        )


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


__all__ = [
    "ACCEPT", "AWAITING", "CHALLENGE", "COLOR", "DRAW", "DRAWN", "GAME_OVER", "PASS", "PLAY", "RESPOND",
    "ROUND_OVER", "SWAP", "UNO", "Game", "RoundStart", "State", "color_before_top",
]
