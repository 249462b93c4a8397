"""Hypothesis property tests over random games: every edition, 2–10 players, random options from
RULES.md's tables, random seeds, random legal actions from any seat (out-of-turn ones too).

- card conservation (hands + draw pile + discard pile = the edition's deck, always);
- no leaks (a seat's observation does not depend on cards hidden from it);
- termination (every random match ends);
- illegal actions are refused and change nothing (a wrong card under ``illegal_play:
  penalize`` is the one documented exception, and then its penalty applies);
- notation round-trips, and an observation's ``legal`` is ``game.legal_actions(seat)``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import assert_whole_deck, option_maps, random_step, snapshot, walk
from unokit import EDITIONS, Game, IllegalActionError, NotationError, Options, action_str, parse_action
from unokit.core.actions import (
    ACCEPT,
    ACTION_CARD,
    ACTION_KIND,
    ACTION_UNO,
    DRAW,
    K_CHALLENGE,
    K_PLAY,
    K_SWAP,
    N_ACTIONS,
    PASS,
    UNO,
    Action,
    catch_action,
)
from unokit.core.cards import CARD_COLOR, CARD_RANK, IS_NUMBER, MATER, WILD, WILD_DRAW_FOUR
from unokit.core.editions import edition_deck
from unokit.core.errors import UnoError
from unokit.core.scoring import BLOCKED_AFTER

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def short_options(players: int, edition: str, max_target: int = 200) -> st.SearchStrategy[dict[str, Any]]:
    """A random mapping of RULES.md options that ``players`` seats can play with, its target
    always given and at most ``max_target`` (matches that end)."""
    return option_maps(players, edition, required=("target",), target=range(1, max_target + 1))


@st.composite
def matches(draw: st.DrawFn, max_target: int = 200) -> tuple[Game, random.Random]:
    """A seeded match (Game.new), dealt from its seed or from a stream (``deal_rng``), and a
    random generator to drive it."""
    edition = draw(st.sampled_from(EDITIONS))
    players = draw(st.integers(2, 10))
    options = Options.from_mapping(draw(short_options(players, edition, max_target)))
    stream = random.Random(draw(st.integers(0, 2**32))) if draw(st.booleans()) else None
    game = Game.new(edition, players, options, seed=draw(st.integers(0, 2**32)), deal_rng=stream)
    return game, random.Random(draw(st.integers(0, 2**32)))


# --------------------------------------------------------------------------- conservation


@SETTINGS
@given(matches())
def test_prop_cards_are_conserved(match: tuple[Game, random.Random]) -> None:
    """S2/T6/C6/all: the hands, the draw pile and the discard pile always hold exactly the
    edition's deck."""
    game, rng = match
    assert_whole_deck(game)
    for _ in walk(game, rng, 400):
        assert_whole_deck(game)
        if game.awaiting not in ("round_over", "game_over"):
            assert all(not game.hands[s] for s in range(game.n) if game.eliminated[s])


# --------------------------------------------------------------------------- consistency


@SETTINGS
@given(matches())
def test_prop_observation_legal_equals_legal_actions_and_notation_round_trips(
    match: tuple[Game, random.Random],
) -> None:
    """Observation: each seat's ``legal`` is ``game.legal_actions(seat)``; every legal action's
    notation round-trips; the seat on turn always has something to do while the round runs."""
    game, rng = match
    for _ in walk(game, rng, 250):
        for seat in range(game.n):
            legal = game.legal_actions(seat)
            obs = game.observe(seat)
            assert obs.legal == tuple(legal)
            assert obs.hand == tuple(game.hands[seat])
            assert len(set(legal)) == len(legal)
            for a in legal:
                assert parse_action(action_str(a)) == a
                assert game.is_legal(seat, action_str(a))
        if game.awaiting not in ("round_over", "game_over"):
            _check_invariants(game)


def _check_invariants(game: Game) -> None:
    """Rule invariants that hold between any two actions of a running round."""
    turn = game.turn
    assert game.legal_actions(turn), f"seat {turn} is stuck: {game!r}"
    assert not game.eliminated[turn]
    assert game.color in range(4) and game.direction in (1, -1)
    for s in range(game.n):
        legal = game.legal_actions(s)
        if game.eliminated[s]:
            assert legal == () and not game.hands[s]  # M4
            continue
        # P1: a call is offered exactly when one is owed, and one is owed only with one card.
        assert (UNO in legal) == game.owed[s]
        if game.owed[s]:
            assert len(game.hands[s]) == 1
        # P2: only a seat that owes a call may be caught.
        for t in game.window:
            assert game.owed[t]
            assert (s != t) == (catch_action(t) in legal)
        if s != turn:
            assert all(ACTION_KIND[a] not in (K_CHALLENGE, K_SWAP) for a in legal)
    hand = game.hands[turn]
    legal = game.legal_actions(turn)
    if game.options.wd4_bluffing == "forbid" and any(ACTION_CARD[a] == WILD_DRAW_FOUR for a in legal):
        # T5: a Wild Draw Four is offered without bluffing only when no card of the colour in
        # play is held (a just-drawn one is tested against the rest of the hand).
        assert all(CARD_COLOR[c] != game.color for c in hand)
    if game.awaiting == "respond":
        assert game.pending > 0 and DRAW not in legal and ACCEPT in legal
    if game.awaiting == "drawn" and game.drawn >= 0:
        assert game.drawn in hand
    if game.awaiting == "play":
        assert DRAW in legal and PASS not in legal


# --------------------------------------------------------------------------- termination


def _keen_step(game: Game, rng: random.Random) -> tuple[int, Action]:
    """A random legal action that mostly plays a card when it can (a uniformly random policy
    may keep drawing and passing for tens of thousands of steps), sometimes out of turn."""
    if rng.random() < 0.2:
        return random_step(game, rng, eagerness=1.0)
    seat = game.turn
    legal = game.legal_actions(seat)
    plays = [a for a in legal if ACTION_KIND[a] == K_PLAY]
    if plays and rng.random() < 0.9:
        return seat, rng.choice(plays)
    return seat, rng.choice(legal)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches(max_target=40))
def test_prop_every_random_match_ends(match: tuple[Game, random.Random]) -> None:
    """E2/E3/M2/M4: a random match with a small target ends (within 20,000 actions), with
    winners; with elimination, every seat but the winner is out."""
    game, rng = match
    for _ in walk(game, rng, 20_000, step=_keen_step):
        # A round ends blocked exactly when BLOCKED_AFTER idle turns are reached (never beyond).
        assert game.idle_turns <= BLOCKED_AFTER
        assert game.blocked == (game.idle_turns == BLOCKED_AFTER)
    assert game.is_over, f"the match did not end: {game!r}, options {game.options.changed()}"
    assert game.winners
    if game.options.mode == "elimination":
        assert len(game.winners) == 1 and sum(game.eliminated) == game.n - 1


# --------------------------------------------------------------------------- illegal actions


def _is_wrong_card(game: Game, seat: int, a: Action) -> bool:
    """P5: with ``illegal_play: penalize``, is ``a`` a wrong card (a held, unmatched card played at
    a normal turn, without a refused UNO call)?"""
    if not (game.options.illegal_play == "penalize" and game.awaiting == "play" and seat == game.turn):
        return False
    if ACTION_KIND[a] != K_PLAY:
        return False
    c = ACTION_CARD[a]
    hand = game.hands[seat]
    if c not in hand or c >= WILD:
        return False
    if ACTION_UNO[a]:  # the wrong card stays in the hand, so its UNO call is refused: no P5
        return False
    return CARD_COLOR[c] != game.color and CARD_RANK[c] != CARD_RANK[game.top]


@SETTINGS
@given(matches())
def test_prop_illegal_actions_are_refused_and_change_nothing(match: tuple[Game, random.Random]) -> None:
    """P5 and the engine contract: an action not in legal_actions raises IllegalActionError (bad
    text raises NotationError) and leaves the game exactly as it was; the one exception is a
    wrong card under ``illegal_play: penalize``, which costs 2 cards and the turn."""
    game, rng = match
    bad_texts = ["", "R7!!", "W", "catch 10", "play", "R+4", "color"]
    for _ in walk(game, rng, 120):
        if game.awaiting in ("round_over", "game_over") or rng.random() < 0.5:
            continue
        before = snapshot(game)
        for _ in range(4):
            seat = rng.randrange(-1, game.n + 1)
            a = rng.randrange(N_ACTIONS)
            if 0 <= seat < game.n and a in game.legal_actions(seat):
                continue
            if 0 <= seat < game.n and _is_wrong_card(game, seat, a):
                probe = game.copy()
                size = len(probe.hands[seat])
                probe.apply(seat, a)
                assert ACTION_CARD[a] in probe.hands[seat]
                assert len(probe.hands[seat]) <= size + 2
                assert probe.turn != seat
                continue
            try:
                game.apply(seat, a)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"seat {seat} {action_str(a)!r} was accepted but is not legal")
            assert snapshot(game) == before, f"refusing seat {seat} {action_str(a)!r} changed the game"
        text = rng.choice(bad_texts)
        try:
            game.apply(game.turn, text)
        except NotationError:
            pass
        else:
            raise AssertionError(f"{text!r} was accepted")
        assert snapshot(game) == before


# --------------------------------------------------------------------------- no leaks


def _deal(rng: random.Random, edition: str, players: int) -> tuple[list[list[int]], int, list[int]]:
    """A random stacked round from the whole deck: hands of 1–7 cards, a number card turned up
    (so no S3 effect draws a hidden card), the rest as the draw pile (top first)."""
    deck = list(edition_deck(edition))
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(rng.randint(1, 7))] for _ in range(players)]
    discard = next(c for c in deck if IS_NUMBER[c])
    deck.remove(discard)
    return hands, discard, deck


def _hide(rng: random.Random, hands: list[list[int]], seat: int) -> list[list[int]]:
    """The same hands, but the other seats' cards dealt among them at random (same sizes)."""
    pool = [c for s, h in enumerate(hands) if s != seat for c in h]
    rng.shuffle(pool)
    out = []
    for s, h in enumerate(hands):
        if s == seat:
            out.append(list(h))
        else:
            out.append(pool[: len(h)])
            del pool[: len(h)]
    return out


def _reveals(game: Game, seat: int, a: Action) -> bool:
    """Actions by ``seat`` that rightly show it hidden cards: a Mater peek, a challenge, a swap,
    and a 0 with seven_zero (hands change owners)."""
    kind = ACTION_KIND[a]
    if kind in (K_CHALLENGE, K_SWAP):
        return True
    if kind == K_PLAY:
        c = ACTION_CARD[a]
        if c == MATER:
            return True
        if game.options.seven_zero and c < WILD and CARD_RANK[c] in (0, 7):
            return True
    return False


_BLIND = ("draw", "pass", "accept", "uno", "color R", "color Y", "color G", "color B")


@pytest.mark.parametrize("seat", [-1, -3, 3, 10])
def test_observing_a_seat_that_does_not_exist_is_an_error(seat: int) -> None:
    """Observation: only seats 0 … n-1 can be observed. -1 must not be read as Python's last
    item, which would show the last seat's hand to a caller that has no seat."""
    game = Game.new("classic", 3, seed=2)
    with pytest.raises(UnoError, match=f"no seat {seat}"):
        game.observe(seat)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(EDITIONS),
    st.integers(2, 10),
    st.integers(0, 2**32),
    st.data(),
)
def test_prop_no_leaks_when_hidden_hands_differ(
    edition: str, players: int, seed: int, data: st.DataObject
) -> None:
    """Observation: two games that differ only in the cards of the other seats' hands look the
    same to a seat, also after the same actions (its own, and the others' blind ones: draws,
    passes, accepting, naming a colour, UNO calls and catches)."""
    options = Options.from_mapping(data.draw(short_options(players, edition)))
    rng = random.Random(seed)
    hands, discard, draw = _deal(rng, edition, players)
    seat = rng.randrange(players)
    dealer = rng.randrange(players)
    a, b = (
        Game.from_setup(h, discard, list(draw), dealer=dealer, edition=edition, options=options, seed=seed)
        for h in (hands, _hide(rng, hands, seat))
    )
    for _ in range(150):
        if a.awaiting in ("round_over", "game_over"):
            break  # the round's scoring rightly shows the hands' points
        assert a.observe(seat) == b.observe(seat)
        mine = [x for x in a.legal_actions(seat) if not _reveals(a, seat, x)]
        if a.turn == seat or (mine and rng.random() < 0.3):
            if not mine:
                break
            actor, action = seat, rng.choice(mine)
        else:
            actor = a.turn
            blind = [x for x in _BLIND if a.is_legal(actor, x) and b.is_legal(actor, x)]
            blind += [t for t in (f"catch {s}" for s in a.window) if a.is_legal(actor, t)]
            if not blind:
                break
            action = parse_action(rng.choice(blind))
        sizes = (a.hand_sizes(), b.hand_sizes())
        a.apply(actor, action)
        b.apply(actor, action)
        if actor != seat and a.hand_sizes() != b.hand_sizes() and options.draw_until_playable:
            # A draw that goes on until a playable card may rightly depend on the drawer's hand
            # (a Wild Draw Four's T5 test): the public hand sizes then differ. Not a leak.
            assert sizes[0] == sizes[1]
            break


@SETTINGS
@given(st.sampled_from(EDITIONS), st.integers(2, 10), st.integers(0, 2**32), st.data())
def test_prop_no_leaks_when_hidden_cards_and_draw_pile_differ(
    edition: str, players: int, seed: int, data: st.DataObject
) -> None:
    """Observation: hidden cards may sit anywhere among the other hands and the draw pile: the
    seat's view (and its first own action's result, when it plays without drawing) is the same."""
    options = Options.from_mapping(data.draw(short_options(players, edition)))
    rng = random.Random(seed)
    hands, discard, draw = _deal(rng, edition, players)
    seat = rng.randrange(players)
    dealer = rng.randrange(players)
    pool = [c for s, h in enumerate(hands) if s != seat for c in h] + draw
    rng.shuffle(pool)
    other: list[list[int]] = []
    for s, h in enumerate(hands):
        if s == seat:
            other.append(list(h))
        else:
            other.append(pool[: len(h)])
            del pool[: len(h)]
    assert len(pool) == len(draw)
    a = Game.from_setup(hands, discard, draw, dealer=dealer, edition=edition, options=options, seed=seed)
    b = Game.from_setup(other, discard, pool, dealer=dealer, edition=edition, options=options, seed=seed)
    assert a.observe(seat) == b.observe(seat)
    if a.turn == seat and a.awaiting == "play":
        plays = [x for x in a.legal_actions(seat)
                 if ACTION_KIND[x] == K_PLAY and not _reveals(a, seat, x)
                 and CARD_RANK[ACTION_CARD[x]] != 12 and ACTION_CARD[x] != 53]
        if plays:
            action = rng.choice(plays)
            a.apply(seat, action)
            b.apply(seat, action)
            if a.awaiting not in ("round_over", "game_over"):
                assert a.observe(seat) == b.observe(seat)
