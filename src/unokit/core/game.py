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

The rules are split by concern: this module keeps the turn machine (who is on turn, what a
play does, the phases), and reads the rest from the rule modules of ``unokit.core``:
:mod:`~unokit.core.rules` (the :class:`~unokit.core.rules.Rules` value of the edition and
options), :mod:`~unokit.core.legality` (what is legal, and why not), :mod:`~unokit.core.deal`
(S1-S3), :mod:`~unokit.core.drawing` (T2, P5), :mod:`~unokit.core.draw_cards` (T3, T4, P3, C6,
stacking), :mod:`~unokit.core.uno_calls` (P1, P2), :mod:`~unokit.core.house_rules`
(``seven_zero``), :mod:`~unokit.core.specials` (C5), :mod:`~unokit.core.scoring` (E1-E3, M2,
M4), :mod:`~unokit.core.piles` (drawing cards, T6). Those modules read and change the game's
fields directly; nothing outside ``unokit.core`` does.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from .actions import (
    ACTION_ARG,
    ACTION_CARD,
    ACTION_COLOR,
    ACTION_KIND,
    ACTION_UNO,
    K_ACCEPT,
    K_CATCH,
    K_CHALLENGE,
    K_COLOR,
    K_DRAW,
    K_PASS,
    K_PENALIZE,
    K_PLAY,
    K_UNO,
    MAX_SEATS,
    MIN_SEATS,
    N_ACTIONS,
    Action,
    action_str,
    parse_action,
)
from .cards import (
    CARD_COLOR,
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
from .deal import (
    begin_round,
    check_hand_size,
    choose_dealer,
    clear_round,
    name_color,
    next_deal,
    round_piles,
    set_seat_order,
    set_totals,
    turn_up_first_card,
)
from .draw_cards import accept, agent_p, attack, challenge, go_out, stack_on
from .drawing import draw_turn, host_penalty, is_wrong_card, pass_turn, wrong_card
from .editions import check_edition
from .errors import IllegalActionError, NotationError, OptionError, PositionError
from .events import (
    DirectionChanged,
    Event,
    Played,
    RoundStarted,
    Skipped,
)
from .house_rules import rotate_hands, swap
from .legality import legal, reason
from .observation import Observation, observe
from .options import Options
from .phases import AWAITING, DRAWN, GAME_OVER, PLAY, RESPOND, ROUND_OVER, SWAP
from .position import check_consistency, state_from_json, state_to_json
from .rules import Rules, rules_for
from .specials import peek
from .state import FIELDS, RoundStart, State, copy_fields, freeze, thaw
from .uno_calls import call, catch, owe
from .worlds import check_world, world_fields

_DEFAULT_OPTIONS: Final = Options()  # immutable, so one serves every game (building one checks it)


class Game:
    """A match of UNO: the current round's state plus the match totals.

    Build one with :meth:`new` (a seeded match: dealer chosen by S1, cards dealt by S2)
    or :meth:`from_setup` (a stacked round, as in the conformance scenarios).

    ``deal_rng`` is the generator later rounds are dealt from, or ``None`` to deal each
    round from the seed (see :meth:`new`); a caller may set it, e.g. to go on dealing a
    replayed match from its stream.
    """

    __slots__ = (
        "_cache", "_cache_key", "_events", "_left", "_legal_tuples", "_legal_version", "_right", "_rng",
        "_rng_seed", "_version", "attacker", "blocked", "bluff", "color", "deal_rng", "dealer",
        "direction", "discard", "draw_pile", "drawn", "edition", "eliminated", "hands", "history",
        "idle_turns", "n", "options", "owed", "pending", "pending_rank", "phase", "round_no",
        "round_winner", "rounds", "rules", "scores", "seed", "seen", "turn", "two_handed", "window",
        "winners",
    )

    edition: str
    options: Options
    rules: Rules
    """The rules of the edition and options, read once (:class:`~unokit.core.rules.Rules`)."""
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
    _version: int
    _events: list[Event] | None
    _left: list[int]
    _right: list[int]
    _cache: list[Action]
    _cache_key: int
    _legal_tuples: list[tuple[Action, ...]]
    _legal_version: list[int]
    deal_rng: random.Random | None
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
        if not MIN_SEATS <= players <= MAX_SEATS:
            raise OptionError(f"players must be {MIN_SEATS} to {MAX_SEATS}, not {players}")
        if opts.mode == "partners" and players not in (4, 6, 8, 10):
            raise OptionError(f"mode 'partners' needs 4, 6, 8 or 10 players, not {players}")
        self.options = opts
        self.n = players
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._set_rules()
        self.scores = [0] * (self.rules.teams or players)
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
        clear_round(self)

    def _set_rules(self) -> None:
        """The rules of the edition and options, and an empty cache of the legal actions."""
        self.rules = rules_for(self.edition, self.options, self.n)
        self._cache_key = -1
        self._cache = []
        self._legal_tuples = [()] * self.n
        self._legal_version = [-1] * self.n
        self._events = None

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
        check_hand_size(game)
        game.deal_rng = deal_rng
        if from_stream and deal_rng is not None:
            # The stream alone decides the match; drawn once the arguments are checked, so a
            # bad one leaves the stream where it was.
            game.seed = deal_rng.getrandbits(63)
        game.dealer = choose_dealer(game)
        game.start_round(dealer=game.dealer, events=False)
        return game

    @classmethod
    def from_setup(cls, hands: Sequence[Sequence[str | Card]], discard: str | Card,
                   draw: Sequence[str | Card], dealer: int = 0, edition: str = "classic",
                   options: Options | None = None, scores: Sequence[int | float] | None = None,
                   eliminated: Iterable[int] = (), seed: int | None = None) -> Game:
        """A round with stacked cards: ``hands`` per seat, the turned-up ``discard`` card
        (its S3 effect applies), and the ``draw`` pile *top card first*.

        The game plays with exactly the cards given. ``scores`` are the match totals
        before this round (per team with partners); ``eliminated`` are seats already out.
        """
        game = cls(edition, len(hands), options, seed)
        set_totals(game, scores, eliminated)
        game.dealer = dealer
        game.start_round(dealer=dealer, hands=[[_card(c) for c in h] for h in hands], discard=_card(discard),
                         draw=[_card(c) for c in draw], events=False)
        return game

    def _round_rng(self, purpose: str, round_no: int) -> random.Random:
        return random.Random(f"unokit:{self.seed}:{round_no}:{purpose}")

    @property
    def rng(self) -> random.Random:
        """The round's generator: T6 reshuffles, and where S3 puts a turned-up W+4 back.

        Seeded from the match seed and the round number when first needed (most rounds never
        reshuffle), so a round plays the same whenever that is. Assign another generator to
        replace it, or :meth:`reseed` the round.
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
        """Make the rest of the round's generator ``random.Random(seed)`` (for a search's
        sampled futures), seeded only when first needed: seeding costs as much as several plays."""
        self._rng = None
        self._rng_seed = seed

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
        ``discard`` and ``draw`` (top first) give the piles directly. Everything is checked
        before anything changes.
        """
        round_no, dealer = next_deal(self, dealer)
        start, hands, discard, draw = round_piles(self, round_no, dealer, deck, hands, discard, draw)
        begin_round(self, round_no, start, hands, discard, draw)
        if not events:
            turn_up_first_card(self)
            return ()
        told: list[Event] = [
            RoundStarted(round_no, dealer, tuple([len(h) for h in self.hands]),
                         tuple([tuple(h) for h in self.hands]))
        ]
        self._events = told
        try:
            turn_up_first_card(self)
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
        return observe(self, seat)

    def hand_sizes(self) -> list[int]:
        """Every seat's number of cards."""
        return [len(h) for h in self.hands]

    def next_seat(self, seat: int) -> int:
        """The active seat after ``seat`` in the current direction."""
        return (self._left if self.direction == 1 else self._right)[seat]

    def team_of(self, seat: int) -> int:
        """The team of ``seat`` with ``mode: partners`` (seats k and k + n/2); else the seat."""
        teams = self.rules.teams
        return seat % teams if teams else seat

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now, in a stable order. Includes out-of-turn actions.

        An immutable tuple, kept for each seat until the state changes
        (:func:`unokit.core.legality.legal` lists them).
        """
        if not 0 <= seat < self.n:
            return ()
        version = self._version
        if self._legal_version[seat] != version:
            key = version * 16 + seat  # _legal_list(seat), inlined
            if key != self._cache_key:
                self._cache = legal(self, seat)
                self._cache_key = key
            self._legal_tuples[seat] = tuple(self._cache)
            self._legal_version[seat] = version
        return self._legal_tuples[seat]

    def _legal_list(self, seat: int) -> list[Action]:
        """:meth:`legal_actions` as the engine's own list (kept for the last seat asked), for
        :meth:`step` and the playout, which only read it. ``seat`` must be a seat."""
        key = self._version * 16 + seat
        if key != self._cache_key:
            self._cache = legal(self, seat)
            self._cache_key = key
        return self._cache

    def is_legal(self, seat: int, action: Action | str) -> bool:
        """Whether ``seat`` may take ``action`` now."""
        a = parse_action(action) if isinstance(action, str) else action
        return a in self.legal_actions(seat)

    def verify(self, seat: int, action: Action | str) -> str | None:
        """Why ``seat`` may not take ``action`` now, or ``None`` when it may: the one source of
        refusals, with :meth:`legal_actions` its fast enumerator (every action the list leaves
        out has a reason; none it lists has one). Under ``illegal_play: penalize`` a wrong card
        that has a reason here is taken with its penalty all the same (P5).

        >>> g = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1"], dealer=1)
        >>> g.verify(0, "R1"), g.verify(0, "G2"), g.verify(1, "R5")
        (None, 'G2 does not match R3 (colour in play R)', "it is seat 0's turn (play)")
        """
        a = parse_action(action) if isinstance(action, str) else action
        _check_action_number(a)
        if not 0 <= seat < self.n:
            return f"there is no seat {seat}"
        if a in self.legal_actions(seat):
            return None
        return reason(self, seat, a)

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
        if self._cache_key == self._version * 16 + seat:
            legal_now: Sequence[Action] = self._cache
        elif self._legal_version[seat] == self._version:
            legal_now = self._legal_tuples[seat]
        else:
            legal_now = self._legal_list(seat)
        if a in legal_now:
            self._do(seat, a)
            return
        _check_action_number(a)
        if self.rules.penalize and is_wrong_card(self, seat, a):
            wrong_card(self, seat, a)  # P5: taken back, with a penalty
            return
        raise IllegalActionError(seat, _text(a), reason(self, seat, a))

    def step_unchecked(self, seat: int, action: Action) -> None:
        """Apply an action the caller knows to be legal, with no check and no events (a bot's
        rollouts): an illegal one corrupts the game. Anything else calls :meth:`step`."""
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
        events: list[Event] = []
        self._events = events
        try:
            host_penalty(self, a, target)
        finally:
            self._events = None
        return tuple(events)

    def _do(self, seat: int, a: Action) -> None:
        """The turn machine: apply the legal action ``a`` of ``seat``."""
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
                if c == self.rules.answer_card:
                    agent_p(self, seat, ACTION_COLOR[a], ACTION_UNO[a])
                else:
                    stack_on(self, seat, c, ACTION_COLOR[a], ACTION_UNO[a])
            else:
                if self.phase != DRAWN or seat != self.turn:
                    self.idle_turns = 0  # a card from the hand (not the one just drawn)
                self._play(seat, c, ACTION_COLOR[a], ACTION_UNO[a])
        elif kind == K_DRAW:
            draw_turn(self, seat)
        elif kind == K_PASS:
            pass_turn(self, seat)
        elif kind == K_UNO:
            call(self, seat)
        elif kind == K_CATCH:
            catch(self, seat, ACTION_ARG[a])
        elif kind == K_ACCEPT:
            accept(self, seat)
        elif kind == K_CHALLENGE:
            challenge(self, seat)
        elif kind == K_COLOR:
            name_color(self, seat, ACTION_ARG[a])
        else:  # K_SWAP
            swap(self, seat, ACTION_ARG[a])

    def _play(self, seat: int, c: Card, color: int, uno: bool) -> None:
        """A card played at a normal turn, as the drawn card, or by jumping in."""
        if self.window:  # close_window(), inlined on this hot path
            self.window.clear()
        hand = self.hands[seat]
        prev_color = self.color
        hand.remove(c)
        self.discard.append(c)
        self.drawn = -1
        self.turn = seat
        self.phase = PLAY
        self.color = color if c >= WILD else CARD_COLOR[c]
        left = len(hand)
        if left == 0:
            go_out(self, seat, c, 0)
            return
        if left == 1 and not uno:
            owe(self, seat)
        rank = CARD_RANK[c]
        nxt = self._left if self.direction == 1 else self._right
        if rank < 10:
            if rank == 7 and self.rules.seven_zero:
                self.phase = SWAP
                return
            if rank == 0 and self.rules.seven_zero:
                rotate_hands(self, seat, uno)
            self.turn = nxt[seat]
        elif rank == SKIP:
            self.turn = nxt[nxt[seat]]
            if self._events is not None:
                self._events.append(Skipped(nxt[seat]))
        elif rank == REVERSE:
            self._reverse(seat, nxt)
        elif rank == DRAW_TWO:
            attack(self, seat, 2, DRAW_TWO, False)
        elif c == WILD_DRAW_FOUR:
            # A bluff (P3) when the hand held a card of the colour in play before it.
            bluff = False
            for h in hand:
                if CARD_COLOR[h] == prev_color:
                    bluff = True
                    break
            attack(self, seat, 4, WILD_DRAW_FOUR_RANK, bluff)
        else:
            if c == self.rules.peek_card:
                peek(self, seat)
            self.turn = nxt[seat]

    def _reverse(self, seat: int, nxt: list[int]) -> None:
        """A Reverse: the direction changes, or with two players (T3) the next seat is skipped."""
        if self.two_handed:
            self.turn = seat
            if self._events is not None:
                self._events.append(Skipped(nxt[seat]))
        else:
            self.direction = -self.direction
            self.turn = (self._left if self.direction == 1 else self._right)[seat]
            if self._events is not None:
                self._events.append(DirectionChanged(self.direction))

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
        check_consistency(game)
        return game

    def _load(self, values: Mapping[str, Any]) -> None:
        """Set every field from ``values`` (``{field: value as a State holds it}``), then what
        is derived from them."""
        for name, attr, kind in FIELDS:
            setattr(self, attr, thaw(kind, values[name]))
        self.history = self.rounds[-1].actions if self.rounds else []
        self._set_rules()
        set_seat_order(self)

    def to_dict(self) -> dict[str, Any]:
        """The whole game as a JSON-ready position (``docs/records.md``): settings, scores, every
        hand and pile, every round's deal and actions, the phase, and the random generators'
        state. :meth:`from_dict` restores it, and the restored game goes on identically."""
        return state_to_json(self.state())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """The game of a position written by :meth:`to_dict`. A malformed or inconsistent
        position (an unknown or missing field, the wrong format or version, more cards of a
        face than the deck holds, a seat that does not exist, ...) raises one
        :class:`~unokit.core.errors.PositionError` naming what is wrong."""
        return cls.from_state(state_from_json(data))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its state (in both builds: a compiled class has no default pickling)."""
        return (Game.from_state, (self.state(),))

    @classmethod
    def from_observation(cls, obs: Observation, hands: Sequence[Sequence[Card]],
                         draw_pile: Sequence[Card], seed: int) -> Game:
        """A full game consistent with ``obs`` (a *determinization*, for a search over hidden
        cards): ``hands`` gives every seat's cards (``obs.seat``'s its own), and ``draw_pile``
        the draw pile, bottom first; with the discard pile, exactly the edition's deck, each
        hand as large as ``obs`` says (the hands in ``obs.seen`` may have changed since). A card
        another seat has just drawn is hidden: the world's is the last of its hand. The round's
        generator (T6) is seeded from ``seed``. A :class:`~unokit.core.errors.PositionError` if
        the world does not fit (:mod:`unokit.core.worlds`)."""
        check_world(obs, hands, draw_pile)
        # Checked against the observation; a search builds many worlds, so the State and the
        # whole-position check of from_state are left out.
        game = cls(obs.edition, obs.players, obs.options, seed)
        game._load(world_fields(obs, hands, draw_pile, seed))
        return game

    def copy(self) -> Game:
        """An independent copy (for search): hands and piles are copied, tables shared."""
        return Game("", 0, _copy_of=self)

    def _copy_from(self, o: Game) -> None:
        """Make this new object a copy of ``o``, field by field of :class:`~unokit.core.state.State`.

        Through ``__init__`` rather than ``Game.__new__``: the same code runs compiled by mypyc
        (whose classes cannot be created without ``__init__``).
        """
        copy_fields(self, o)
        self.history = self.rounds[-1].actions if self.rounds else list(o.history)
        self.rules = o.rules
        self._events = None
        # The legal actions of the same state (immutable tuples), and the seat order of the
        # round (not recomputed: a round's order is fixed when it is dealt).
        self._cache_key = o._cache_key
        self._cache = o._cache
        self._legal_tuples = list(o._legal_tuples)
        self._legal_version = list(o._legal_version)
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


__all__ = ["Game"]
