"""Events as a seat sees them (:mod:`unokit.core.events`), over random games.

- the fold: a simple consumer that keeps only what the events tell a seat reproduces that seat's
  observation of every hand size, the top card, the colour in play and its own hand;
- visibility: drawn cards are shown to the drawer alone, a spectator sees no hidden card, and
  every event is JSON-ready;
- no leak: the events a seat is told do not depend on cards hidden from it;
- ``legal_actions`` is a tuple that a caller cannot use to change the game;
- ``apply`` (with events) and ``step`` (without) change the state alike.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import random_options, random_step, snapshot
from unokit import EDITIONS, Game, IllegalActionError, Options
from unokit.core.actions import ACTION_CARD, ACTION_KIND, K_PENALIZE, K_PLAY, N_ACTIONS
from unokit.core.cards import CARD_COLOR, CARD_RANK, MATER, WILD
from unokit.core.events import (
    EVENT_TYPES,
    Challenged,
    ColorNamed,
    Drew,
    Event,
    HandsRotated,
    HandsSwapped,
    Peeked,
    Played,
    Reshuffled,
    RoundEnded,
    RoundStarted,
    TurnedUp,
)

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def random_games(draw: st.DrawFn, max_players: int = 10) -> tuple[Game, random.Random]:
    """A new match of any edition, 2 to ``max_players`` seats, house rules sometimes, and a
    generator to play it with (random legal actions of the seat on turn and out of turn)."""
    edition = draw(st.sampled_from(EDITIONS))
    players = draw(st.integers(2, max_players))
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    options = random_options(rng, players, edition) if draw(st.booleans()) else Options()
    return Game.new(edition, players, options, seed=seed), rng


def _play_on(game: Game, rng: random.Random) -> tuple[Event, ...]:
    """One random step of the match: the next round's deal when a round is over, else a random
    legal action (of the seat on turn, or out of turn). Returns its events."""
    if game.awaiting == "round_over":
        return game.start_round()
    seat, action = random_step(game, rng)
    return game.apply(seat, action)


# --------------------------------------------------------------------------- the fold


class Fold:
    """What a seat (``None``: a spectator) can keep from the events it is told, and nothing else:
    every seat's hand size, the top card, the colour in play and (for a seat) its own hand; and
    the discard pile, which is public.

    The colour of a wild turned up first (S3) is unknown until it is named: ``color`` is then
    ``None``, and the game's observation (which waits for ``color C``) is not compared on it.
    Agent P's attacker taking cards from under the top of the discard pile does not change the
    top card: they are the cards under it, taken from the top down. A 0 under ``seven_zero``
    passes every hand of an active seat to the next active seat (seats out of a Challenge UNO
    match, told by RoundEnded, are passed over)."""

    def __init__(self, seat: int | None, n: int) -> None:
        self.seat = seat
        self.n = n
        self.sizes = [0] * n
        self.hand: Counter[int] = Counter()
        self.top = -1
        self.discard: list[int] = []
        self.color: int | None = None
        self.out = [False] * n

    def _next(self, s: int, direction: int) -> int:
        t = (s + direction) % self.n
        while self.out[t] and t != s:
            t = (t + direction) % self.n
        return t

    def feed(self, event: Event) -> None:
        me = self.seat
        e = event.seen_by(me)
        if isinstance(e, RoundStarted):
            self.sizes = list(e.hand_sizes)
            own = e.hands[me] if me is not None else None
            assert all(h is None for s, h in enumerate(e.hands) if s != me)
            self.hand = Counter(own or ())
            self.color = None
            self.discard = []
        elif isinstance(e, TurnedUp):
            if not e.returned:  # a returned Wild Draw Four goes back into the draw pile
                self.top = e.card
                self.discard = [e.card]
                self.color = CARD_COLOR[e.card] if e.card < WILD else None
        elif isinstance(e, Played):
            self.sizes[e.seat] -= 1
            self.top = e.card
            self.discard.append(e.card)
            self.color = e.color
            if e.seat == me:
                self.hand[e.card] -= 1
        elif isinstance(e, ColorNamed):
            self.color = e.color
        elif isinstance(e, Drew):
            self.sizes[e.seat] += e.count
            if e.source == "discard":
                assert e.cards is not None and len(e.cards) == e.count
                under = self.discard[-1 - e.count:-1]
                assert tuple(reversed(under)) == e.cards
                self.discard[-1 - e.count:-1] = []
            if e.seat == me:
                assert e.cards is not None and len(e.cards) == e.count
                self.hand.update(e.cards)
        elif isinstance(e, HandsSwapped):
            a, b = e.seat, e.target
            self.sizes[a], self.sizes[b] = self.sizes[b], self.sizes[a]
            if me in (a, b):
                assert e.hands is not None
                self.hand = Counter(e.hands[0] if me == a else e.hands[1])
        elif isinstance(e, HandsRotated):
            new = [0] * self.n
            for s in range(self.n):
                if not self.out[s]:
                    new[self._next(s, e.direction)] = self.sizes[s]
            self.sizes = new
            if me is not None:
                mine = e.hands[me]
                assert mine is not None
                self.hand = Counter(mine)
        elif isinstance(e, Reshuffled):
            self.discard = [self.top]
        elif isinstance(e, RoundEnded):
            self.out = list(e.eliminated)

    def check(self, game: Game) -> None:
        obs = game.observe(self.seat if self.seat is not None else 0)
        assert tuple(self.sizes) == obs.hand_sizes
        assert self.top == obs.top
        assert tuple(self.discard) == obs.discard
        if obs.awaiting != "color":
            assert self.color == obs.color
        if self.seat is not None:
            assert +self.hand == Counter(obs.hand)


@SETTINGS
@given(random_games(), st.integers(50, 400))
def test_folded_events_reproduce_each_seats_observation(match: tuple[Game, random.Random],
                                                        steps: int) -> None:
    game, rng = match
    folds = [Fold(s, game.n) for s in range(game.n)] + [Fold(None, game.n)]
    opening = game.opening_events()
    assert isinstance(opening[0], RoundStarted)
    for f in folds:
        for e in opening:
            f.feed(e)
        f.check(game)
    for _ in range(steps):
        if game.is_over:
            break
        events = _play_on(game, rng)
        for f in folds:
            for e in events:
                f.feed(e)
            f.check(game)


def test_the_fold_covers_every_kind_of_change() -> None:
    """The random games of the fold meet swaps, rotations, Agent P's discard draws, wrong cards
    and the first wild's colour (so the property is not vacuous for them)."""
    kinds: Counter[str] = Counter()
    for seed in range(40):
        rng = random.Random(seed)
        edition = EDITIONS[seed % 3]
        options = Options(seven_zero=True, illegal_play="penalize", hand_size=5)
        game = Game.new(edition, 2 + seed % 4, options, seed=seed)
        folds = [Fold(s, game.n) for s in range(game.n)] + [Fold(None, game.n)]
        for f in folds:
            for e in game.opening_events():
                f.feed(e)
        for _ in range(300):
            if game.is_over:
                break
            events = _play_on(game, rng)
            for e in events:
                kinds[type(e).__name__] += 1
                if isinstance(e, Drew) and e.source == "discard":
                    kinds["Drew from the discard"] += 1
            for f in folds:
                for e in events:
                    f.feed(e)
                f.check(game)
    for kind in ("HandsSwapped", "HandsRotated", "ColorNamed", "Reshuffled", "RoundStarted",
                 "Drew from the discard", "RoundEnded"):
        assert kinds[kind] > 0, kind


# --------------------------------------------------------------------------- visibility


def _hidden_cards_absent(e: Event, seat: int | None) -> None:
    """What ``seat`` (``None``: a spectator) is told of ``e`` holds no card hidden from it."""
    v = e.seen_by(seat)
    assert type(v) is type(e)
    if isinstance(e, Drew):
        assert isinstance(v, Drew)
        if e.source == "discard" or seat == e.seat:
            assert v == e
        else:
            assert v.cards is None and v.count == e.count
    elif isinstance(e, RoundStarted):
        assert isinstance(v, RoundStarted)
        assert v.hand_sizes == e.hand_sizes
        assert all(h is None for s, h in enumerate(v.hands) if s != seat)
        if seat is not None:
            assert v.hands[seat] == e.hands[seat]
    elif isinstance(e, Challenged):
        assert isinstance(v, Challenged)
        assert v.hand == (e.hand if seat == e.challenger else None)
    elif isinstance(e, Peeked):
        assert isinstance(v, Peeked)
        assert v.shown == (e.shown if seat == e.seat else None)
    elif isinstance(e, HandsSwapped):
        assert isinstance(v, HandsSwapped)
        assert v.hands == (e.hands if seat in (e.seat, e.target) else None)
    elif isinstance(e, HandsRotated):
        assert isinstance(v, HandsRotated)
        assert all(h is None for s, h in enumerate(v.hands) if s != seat)
        if seat is not None:
            assert v.hands[seat] == e.hands[seat]
    else:
        assert v == e  # every other event is public
    json.dumps(v.to_dict())


@SETTINGS
@given(random_games(), st.integers(20, 200))
def test_each_seat_and_a_spectator_see_no_hidden_card(match: tuple[Game, random.Random], steps: int) -> None:
    game, rng = match
    events = list(game.opening_events())
    for _ in range(steps):
        if game.is_over:
            break
        events += _play_on(game, rng)
    for e in events:
        assert type(e) in EVENT_TYPES
        data = e.to_dict()
        assert data["type"] == type(e).__name__
        json.dumps(data)
        for seat in [*range(game.n), None]:
            _hidden_cards_absent(e, seat)


# --------------------------------------------------------------------------- no leak


def _other_deal(game: Game, seat: int, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """The cards hidden from ``seat`` (the other hands and the draw pile), dealt again at random
    into hands and a draw pile of the same sizes."""
    hidden = [c for t, h in enumerate(game.hands) if t != seat for c in h] + list(game.draw_pile)
    rng.shuffle(hidden)
    hands: list[list[int]] = []
    for t, h in enumerate(game.hands):
        if t == seat:
            hands.append(list(h))
        else:
            hands.append(hidden[:len(h)])
            del hidden[:len(h)]
    return hands, hidden


def _private_play(game: Game, seat: int, a: int) -> bool:
    """Whether playing ``a`` shows ``seat`` nothing that depends on the hidden cards: a card
    that neither ends the round, nor passes hands round (a 0 under ``seven_zero``), nor peeks
    (Mater)."""
    if ACTION_KIND[a] != K_PLAY or len(game.hands[seat]) < 2:
        return False
    card = ACTION_CARD[a]
    if card == MATER:
        return False
    return not (game.options.seven_zero and card < WILD and CARD_RANK[card] == 0)


@SETTINGS
@given(random_games(), st.integers(0, 80), st.integers(0, 2**32))
def test_a_seats_events_do_not_depend_on_cards_hidden_from_it(
        match: tuple[Game, random.Random], steps: int, deal_seed: int) -> None:
    game, rng = match
    for _ in range(steps):
        if game.is_over:
            break
        _play_on(game, rng)
    if game.awaiting != "play":
        return
    seat = game.turn
    obs = game.observe(seat)
    deal = random.Random(deal_seed)
    worlds = [Game.from_observation(obs, *_other_deal(game, seat, deal), seed=5) for _ in range(2)]
    assert worlds[0].legal_actions(seat) == worlds[1].legal_actions(seat) == obs.legal
    for a in obs.legal:
        if not _private_play(game, seat, a):
            continue
        told = []
        for world in worlds:
            events = world.copy().apply(seat, a)
            told.append(([e.seen_by(seat) for e in events], [e.seen_by(None) for e in events]))
        assert told[0] == told[1], a


# --------------------------------------------------------------------------- legal actions


def _reasons(game: Game) -> list[list[str]]:
    """Why each action that is not legal is refused, for every seat (nothing changes)."""
    out = []
    for seat in range(game.n):
        legal = set(game.legal_actions(seat))
        why = []
        for a in range(N_ACTIONS):
            if a in legal or ACTION_KIND[a] == K_PENALIZE:
                continue
            try:
                game.apply(seat, a)
            except IllegalActionError as exc:
                why.append(exc.reason)
            else:  # pragma: no cover - a refused action must raise
                raise AssertionError(f"{a} was applied for seat {seat} though not listed as legal")
        out.append(why)
    return out


def test_legal_actions_are_a_tuple_that_cannot_be_changed_through() -> None:
    for seed in range(6):
        game = Game.new(EDITIONS[seed % 3], 3, seed=seed)
        rng = random.Random(seed)
        for _ in range(seed * 7):
            _play_on(game, rng)
        if game.awaiting in ("round_over", "game_over"):
            continue
        before = snapshot(game)
        reasons = _reasons(game)
        for seat in range(game.n):
            la = game.legal_actions(seat)
            assert isinstance(la, tuple)
            try:
                la.clear()  # type: ignore[attr-defined]
            except AttributeError:
                pass
            else:  # pragma: no cover
                raise AssertionError("legal_actions returned a mutable sequence")
            as_list = list(la)
            as_list.clear()
            as_list.append(0)
            la += (0, 1, 2)  # a new tuple: the game's is untouched
            obs = game.observe(seat)
            obs.seen.clear()
            obs.seen[seat] = (0,)
            assert isinstance(obs.legal, tuple)
        assert snapshot(game) == before
        assert _reasons(game) == reasons


# --------------------------------------------------------------------------- apply and step


@SETTINGS
@given(random_games(), st.integers(10, 300))
def test_apply_and_step_change_the_state_alike(match: tuple[Game, random.Random], steps: int) -> None:
    game, rng = match
    silent = game.copy()
    for _ in range(steps):
        if game.is_over:
            break
        if game.awaiting == "round_over":
            assert game.start_round() and silent.start_round()
        else:
            seat, action = random_step(game, rng)
            game.apply(seat, action)
            silent.step(seat, action)
        assert silent.state() == game.state()


# --------------------------------------------------------------------------- JSON of events


def _cards_back(name: str, value: object) -> object:
    """An event field's JSON value read back into the event's own value (cards from notation)."""
    from unokit import parse_card

    if value is None:
        return None
    if name == "card":
        assert isinstance(value, str), f"{name}: {value!r} is not card notation"
        return parse_card(value)
    if name in ("cards", "hand"):
        assert isinstance(value, list) and all(isinstance(c, str) for c in value), f"{name}: {value!r}"
        return tuple(parse_card(c) for c in value)
    if name == "hands":
        assert isinstance(value, list)
        return tuple(None if h is None else _cards_back("cards", h) for h in value)
    if name == "shown":
        assert isinstance(value, dict)
        return tuple((int(s), _cards_back("cards", h)) for s, h in value.items())
    return tuple(value) if isinstance(value, list) else value


def test_a_challenge_writes_the_shown_hand_in_card_notation() -> None:
    game = Game.from_setup(hands=[["W+4", "R2", "G5"], ["R3", "B1", "B2"]], discard="B4",
                           draw=["Y8", "Y9", "Y7", "Y6", "Y5", "Y4"], dealer=1)
    game.apply(0, "W+4=G")
    (challenged, *_rest) = game.apply(1, "challenge")
    assert isinstance(challenged, Challenged)
    assert challenged.to_dict() == {"type": "Challenged", "challenger": 1, "attacker": 0, "won": False,
                                    "hand": ["R2", "G5"]}
    assert challenged.seen_by(0).to_dict()["hand"] is None


@SETTINGS
@given(random_games(), st.integers(20, 200))
def test_every_event_writes_its_cards_in_notation_and_reads_back(match: tuple[Game, random.Random],
                                                                  steps: int) -> None:
    """Every field of every event, as JSON, holds cards as notation (never as numbers), and
    reads back to the event's own value."""
    from dataclasses import fields

    game, rng = match
    events = list(game.opening_events())
    for _ in range(steps):
        if game.is_over:
            break
        events += _play_on(game, rng)
    for e in events:
        data = e.to_dict()
        for f in fields(e):
            assert _cards_back(f.name, data[f.name]) == getattr(e, f.name), (e, f.name)
