"""The table driver (``unokit.core.table``): who is asked next, in and out of turn.

The rules it keeps (``docs/engine.md``, "One table driver"):

- after the seat on turn acts, or a seat jumps in (and when a round is dealt), a new round of
  asking begins: each other active seat that has an out-of-turn choice (catch, UNO, jump in)
  is asked once, in turn order from the seat after the one on turn; then the seat on turn;
- a seat asked out of turn may decline; one that declines or acts out of turn is not asked
  again in that round of asking; a seat with no choice when its place comes is passed over;
- the seat on turn must act: it cannot decline;
- nothing is asked once the round is over.

Each rule has a stacked situation below, for every kind of out-of-turn decision (catch, UNO,
jump-in) and the decisions of the seat on turn that answer a draw card (challenge, Agent P),
with partners and with eliminated seats; then a property over random games checks the asking
against a model of these rules at every step.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import random_options, setup
from unokit import EDITIONS, Game, IllegalActionError
from unokit.core.actions import ACTION_KIND, K_CATCH, K_PLAY, K_UNO, Action
from unokit.core.table import Table, has_out_of_turn_choice, out_of_turn_order

# ------------------------------------------------------------------ jump-in


def test_a_seat_holding_the_identical_card_is_asked_out_of_turn_before_the_seat_on_turn() -> None:
    """Jump-in: seats 0 and 2 hold R5; seat 0 plays it; seat 2 may jump in, then seat 1."""
    game = setup([["R5", "G1", "G2"], ["B1", "B2", "B3"], ["R5", "Y1", "Y2"]], "R3", ["Y8"],
                 dealer=2, jump_in=True)
    table = Table(game)
    assert table.waiting_on() == (0,)
    table.act(0, "R5")
    assert table.waiting_on() == (2, 1)
    assert table.next_seat() == 2 and not table.must_act(2) and not table.must_act(1)
    table.decline(2)
    assert table.waiting_on() == (1,) and table.must_act(1)


def test_without_jump_in_the_identical_card_is_not_asked_for() -> None:
    game = setup([["R5", "G1", "G2"], ["B1", "B2", "B3"], ["R5", "Y1", "Y2"]], "R3", ["Y8"], dealer=2)
    table = Table(game)
    table.act(0, "R5")
    assert table.waiting_on() == (1,)


def test_a_jump_in_that_moves_the_turn_starts_a_new_round_of_asking() -> None:
    """Four players: seat 0 plays R5, seat 2 jumps in with R5, and play goes on from seat 2:
    seat 3 is on turn and is asked alone (it is not listed twice), and its own action starts
    the next round of asking, in which seat 0 is on turn and must act."""
    game = setup([["R5", "G1", "G2"], ["B1", "B2", "B3"], ["R5", "Y1", "Y2"], ["R1", "B5", "G9"]],
                 "R3", ["Y7", "Y8"], dealer=3, jump_in=True)
    table = Table(game)
    table.act(0, "R5")
    assert table.waiting_on() == (2, 1)
    events = table.act(2, "R5")
    assert [type(e).__name__ for e in events] == ["Played"] and events[0].jump_in  # type: ignore[attr-defined]
    assert game.turn == 3
    assert table.waiting_on() == (3,) and table.must_act(3)
    table.act(3, "R1")
    assert game.turn == 0
    assert table.waiting_on() == (0,) and table.must_act(0)


def test_a_jump_in_that_keeps_the_turn_asks_the_seats_after_it_again() -> None:
    """Three players: seat 2 plays R5 and seat 1 holds the other: jumping in, seat 1 plays on
    from itself, so seat 2 is on turn again; the new top card is asked about anew (seat 0,
    holding nothing identical, is passed over) and seat 2 must act."""
    game = setup([["G1", "G2", "G3"], ["R5", "B1", "B2"], ["R5", "Y1", "Y2"]], "R3", ["Y7", "Y8"],
                 dealer=1, jump_in=True)
    table = Table(game)
    assert game.turn == 2
    table.act(2, "R5")
    assert table.waiting_on() == (1, 0)
    table.act(1, "R5")
    assert game.turn == 2
    assert table.waiting_on() == (2,) and table.must_act(2)


def test_a_jumper_that_forgets_uno_may_be_caught_by_the_seats_asked_after_it() -> None:
    """The jump-in is a new play: seat 2 jumps in down to one card without calling UNO; the
    new round of asking, from seat 3 on turn, asks seats 0, 1 and 2 (who may call) first."""
    game = setup([["R5", "G1", "G2"], ["B1", "B2", "B3"], ["R5", "Y1"], ["R1", "B5", "G9"]],
                 "R3", ["Y7", "Y8"], dealer=3, jump_in=True)
    table = Table(game)
    table.act(0, "R5")
    table.act(2, "R5")
    assert game.window == [2] and game.turn == 3
    assert table.waiting_on() == (0, 1, 2, 3)


# ------------------------------------------------------------------ UNO and catching


def test_a_seat_that_forgot_uno_is_asked_before_the_seats_that_may_catch_it_in_turn_order() -> None:
    """Seat 0 plays down to one card without calling: the seats after the seat on turn (2,
    then 0 itself) are asked out of turn, then seat 1 on turn, which may catch too."""
    game = setup([["R1", "R2"], ["R3", "B1", "B2"], ["G1", "G2", "G3"]], "R4", ["Y8"], dealer=2)
    table = Table(game)
    table.act(0, "R1")
    assert table.waiting_on() == (2, 0, 1)
    table.decline(2)
    assert table.waiting_on() == (0, 1)


def test_a_seat_that_still_owes_uno_after_the_window_closed_is_still_asked() -> None:
    """Seat 0 plays down to one card without calling; seat 1 plays, which closes the catch
    window; seat 0 may still call UNO, so it is asked before seat 2, now on turn."""
    game = setup([["R1", "R2"], ["R3", "B1", "B2"], ["G1", "G2", "G3"]], "R4", ["Y8"], dealer=2)
    table = Table(game)
    table.act(0, "R1")
    table.act(1, "R3")
    assert game.window == [] and game.owed[0]
    assert table.waiting_on() == (0, 2)
    table.act(0, "uno")
    assert table.waiting_on() == (2,)


def test_a_seat_that_acts_out_of_turn_is_not_asked_again_in_the_same_round_of_asking() -> None:
    """Seat 3 owes UNO from an earlier turn; seat 0 plays down to one card without calling.
    Seat 3 catches seat 0 before its place comes: the asking moves past it, although calling
    UNO is still legal for it, and seat 0, caught, has nothing left to do: only seat 1 is asked."""
    game = setup([["R6", "R7"], ["R8", "B1", "B2"], ["Y1", "Y2", "Y3"], ["R1", "R2"]], "R4",
                 ["G7", "G8", "G9"], dealer=2)
    table = Table(game)
    table.act(3, "R1")
    table.decline(1)
    table.decline(2)
    table.decline(3)
    table.act(0, "R6")
    assert game.owed[3] and game.window == [0]
    assert table.waiting_on() == (2, 3, 0, 1)
    table.act(3, "catch 0")
    assert game.legal_actions(3)  # seat 3 may still call UNO
    assert table.waiting_on() == (1,)
    assert table.must_act(1)


def test_a_seat_that_acts_after_declining_does_not_move_the_asking_back() -> None:
    """Seats 2 and 3 decline; then seat 2, already asked, catches seat 0 after all: the asking
    stays where it was (seat 3 is not asked again), and seat 0, caught, has nothing to do."""
    game = setup([["R6", "R7"], ["R8", "B1", "B2"], ["Y1", "Y2", "Y3"], ["R1", "R2"]], "R4",
                 ["G7", "G8", "G9"], dealer=2)
    table = Table(game)
    table.act(3, "R1")
    for seat in (1, 2, 3):
        table.decline(seat)
    table.act(0, "R6")
    assert table.waiting_on() == (2, 3, 0, 1)
    table.decline(2)
    table.decline(3)
    table.act(2, "catch 0")
    assert table.waiting_on() == (1,)


def test_catching_out_of_order_passes_over_the_seats_before_the_catcher() -> None:
    """Seat 3 catches while seat 2 is being asked: seat 2 is passed over for this round."""
    game = setup([["R6", "R7"], ["R8", "B1", "B2"], ["Y1", "Y2", "Y3"], ["B3", "B4", "G5"]], "R4",
                 ["G7", "G8", "G9"], dealer=3)
    table = Table(game)
    table.act(0, "R6")
    assert table.waiting_on() == (2, 3, 0, 1)
    table.act(3, "catch 0")
    assert table.waiting_on() == (1,)


def test_a_seat_on_turn_that_acts_early_starts_a_new_round_of_asking() -> None:
    """The seat on turn may act before the out-of-turn seats are done (a bot not waiting): its
    action starts the next round of asking at once."""
    game = setup([["R1", "R2"], ["R3", "B1", "B2"], ["G1", "G2", "G3"]], "R4", ["Y8"], dealer=2)
    table = Table(game)
    table.act(0, "R1")
    assert table.waiting_on() == (2, 0, 1)
    table.act(1, "catch 0")  # the seat on turn catches: it stays on turn, and is asked again
    assert game.turn == 1
    assert table.waiting_on() == (1,)


def test_partners_may_catch_and_are_asked_like_any_seat() -> None:
    """With partners, seat 2 (seat 0's partner) is asked in its place, like the opponents."""
    game = setup([["R1", "R2"], ["R3", "B1", "B2"], ["G1", "G2", "G3"], ["Y1", "Y2", "Y3"]], "R4",
                 ["Y8", "Y9"], dealer=3, mode="partners")
    table = Table(game)
    table.act(0, "R1")
    assert table.waiting_on() == (2, 3, 0, 1)
    assert game.team_of(2) == game.team_of(0)


def test_an_eliminated_seat_is_never_asked() -> None:
    """Challenge UNO: seat 2 is out; seats 1 and 3 may catch seat 0, seat 2 is not asked."""
    game = setup([["R1", "R2"], ["R3", "B1", "B2"], [], ["Y1", "Y2", "Y3"]], "R4", ["Y8", "Y9"],
                 dealer=3, mode="elimination", eliminated=[2], scores=[0, 0, 600, 0])
    table = Table(game)
    assert game.turn == 0
    table.act(0, "R1")
    assert 2 not in out_of_turn_order(game)
    assert table.waiting_on() == (3, 0, 1)


# ------------------------------------------------------------------ the seat on turn


def test_the_seat_on_turn_must_act_and_cannot_decline() -> None:
    game = setup([["R1", "R2", "R3"], ["R4", "B1", "B2"]], "R5", ["Y8"], dealer=1)
    table = Table(game)
    assert table.waiting_on() == (0,) and table.must_act(0)
    with pytest.raises(IllegalActionError, match="the seat on turn must act"):
        table.decline(0)
    assert table.waiting_on() == (0,)


def test_only_the_seat_asked_now_may_decline() -> None:
    game = setup([["R1", "R2"], ["R3", "B1", "B2"], ["G1", "G2", "G3"]], "R4", ["Y8"], dealer=2)
    table = Table(game)
    table.act(0, "R1")
    with pytest.raises(IllegalActionError, match="seat 2 is asked now, not seat 0"):
        table.decline(0)
    assert table.waiting_on() == (2, 0, 1)


def test_a_challenge_is_asked_of_the_victim_on_turn_after_the_catchers() -> None:
    """A Wild Draw Four played as the next-to-last card without calling UNO: the others may
    catch its player first; then the victim, on turn, must answer (accept or challenge)."""
    game = setup([["W+4", "R2"], ["R3", "B1", "B2"], ["G1", "G2", "G3"]], "B4", ["Y8", "Y9", "Y7", "Y6"],
                 dealer=2)
    table = Table(game)
    table.act(0, "W+4=G")
    assert game.awaiting == "respond" and game.turn == 1
    assert table.waiting_on() == (2, 0, 1)
    table.decline(2)
    table.decline(0)
    assert table.must_act(1)
    assert {"accept", "challenge"} <= {a for a in map(_text, game.legal_actions(1))}
    with pytest.raises(IllegalActionError):
        table.decline(1)
    table.act(1, "challenge")  # a legal W+4: seat 1 draws 6 and is skipped
    assert game.turn == 2
    assert table.waiting_on() == (0, 2)  # seat 0 still owes its UNO call


def test_agent_p_is_asked_of_the_seat_answering_a_draw_card() -> None:
    """Phineas and Ferb: the seat that must answer a Draw Two may play Agent P (C6); it is the
    seat on turn, so it is asked after nobody else and must act."""
    game = setup([["R+2", "R1", "G7"], ["WP", "B1", "B2"], ["G1", "G2", "G3"]], "R4", ["Y8", "Y9", "Y7"],
                 dealer=2, edition="phineas-ferb")
    table = Table(game)
    table.act(0, "R+2")
    assert game.awaiting == "respond" and game.turn == 1
    assert table.waiting_on() == (1,) and table.must_act(1)
    assert any(_text(a).startswith("WP") for a in game.legal_actions(1))
    table.act(1, "WP=B")
    assert table.waiting_on() == (game.turn,)


# ------------------------------------------------------------------ the end of a round


def test_nothing_is_asked_once_the_round_is_over() -> None:
    """When the round is over but the match is not, nobody is asked; the next deal asks again."""
    game = setup([["R1"], ["R3", "B1", "B2"]], "R4", ["Y8", "Y9"], dealer=1, target=500)
    table = Table(game)
    table.act(0, "R1")
    assert game.awaiting == "round_over"
    assert table.waiting_on() == ()
    assert table.next_seat() is None and table.asked() is None
    assert not any(table.must_act(s) for s in range(game.n))
    with pytest.raises(IllegalActionError, match="the round is over"):
        table.decline(1)
    table.start_round()
    assert table.waiting_on() == (game.turn,)


def test_an_action_applied_behind_the_tables_back_starts_a_new_round_of_asking() -> None:
    game = setup([["R1", "R2"], ["R3", "B1", "B2"], ["G1", "G2", "G3"]], "R4", ["Y8"], dealer=2)
    table = Table(game)
    table.act(0, "R1")
    table.decline(2)
    assert table.waiting_on() == (0, 1)
    game.apply(1, "R3")  # not through the table
    assert table.waiting_on() == (0, 2)


# ------------------------------------------------------------------ random games against a model


def _text(a: Action) -> str:
    from unokit import action_str

    return action_str(a)


class _Model:
    """The documented asking, written out plainly: the offsets (from the seat on turn) still to
    be asked in the current round of asking start at ``after``."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.restart()

    def restart(self) -> None:
        self.turn = self.game.turn
        self.after = 1

    def offset(self, seat: int) -> int:
        return (seat - self.turn) % self.game.n

    def waiting_on(self) -> tuple[int, ...]:
        game = self.game
        if game.awaiting in ("round_over", "game_over"):
            return ()
        seats = [s for k in range(self.after, game.n)
                 if not game.eliminated[s := (self.turn + k) % game.n] and _has_choice(game, s)]
        return (*seats, game.turn)

    def acted(self, seat: int, action: Action, was_on_turn: bool) -> None:
        if was_on_turn or ACTION_KIND[action] == K_PLAY:
            self.restart()
        elif self.offset(seat) >= self.after:
            self.after = self.offset(seat) + 1

    def declined(self, seat: int) -> None:
        self.after = self.offset(seat) + 1


def _has_choice(game: Game, seat: int) -> bool:
    return any(ACTION_KIND[a] in (K_CATCH, K_UNO, K_PLAY) for a in game.legal_actions(seat))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(EDITIONS), st.integers(2, 10), st.integers(0, 2**32), st.booleans())
def test_the_table_asks_exactly_the_seats_with_a_choice_in_turn_order(
        edition: str, players: int, seed: int, jump_in: bool) -> None:
    """Random games, every seat sometimes acting out of its place, declining or acting: the
    seats asked are exactly those with a legal action, in the documented order; the seat on
    turn is last and alone must act; every action or decline moves the asking on."""
    rng = random.Random(seed)
    options = random_options(rng, players, edition, target=60)
    if jump_in and not options.jump_in:
        options = type(options).from_mapping({**options.changed(), "jump_in": True})
    game = Game.new(edition, players, options, seed=seed)
    table = Table(game)
    model = _Model(game)
    for _ in range(600):
        if game.is_over:
            break
        if game.awaiting == "round_over":
            table.start_round()
            model.restart()
            continue
        waiting = table.waiting_on()
        assert waiting == model.waiting_on(), f"{game!r}"
        turn = game.turn
        assert waiting[-1] == turn and turn not in waiting[:-1]
        offsets = [(s - turn) % game.n for s in waiting[:-1]]
        assert offsets == sorted(set(offsets)), "out-of-turn seats are asked in turn order"
        for s in waiting[:-1]:
            assert has_out_of_turn_choice(game, s) and not game.eliminated[s]
        assert table.next_seat() == waiting[0]
        assert [s for s in range(game.n) if table.must_act(s)] == ([turn] if len(waiting) == 1 else [])
        assert table.asked() == (waiting[0], len(waiting) == 1, game.version)
        seat = waiting[0]
        roll = rng.random()
        if roll < 0.15:  # someone acts out of its place (a person clicking while a bot thinks)
            movers = [s for s in range(game.n) if game.legal_actions(s)]
            seat = rng.choice(movers)
        elif seat != turn and roll < 0.55:
            table.decline(seat)
            model.declined(seat)
            assert table.waiting_on() == model.waiting_on()
            continue
        action = rng.choice(game.legal_actions(seat))
        was_on_turn = seat == game.turn
        table.act(seat, action)
        model.acted(seat, action, was_on_turn)


def test_a_table_pickles_and_deep_copies_asking_where_it_was() -> None:
    import copy
    import pickle

    game = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1", "Y2"], dealer=1)
    table = Table(game)
    table.act(0, "R1")  # no UNO call: seat 0 may still call it, before seat 1 (who may catch it)
    assert table.waiting_on() == (0, 1)
    for twin in (copy.deepcopy(table), pickle.loads(pickle.dumps(table))):
        assert twin.game is not game and twin.game.to_dict() == game.to_dict()
        assert twin.waiting_on() == (0, 1)
        twin.decline(0)
        assert twin.waiting_on() == (1,) and table.waiting_on() == (0, 1)  # each asks on its own
