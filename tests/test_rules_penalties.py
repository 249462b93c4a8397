"""P1–P5 of RULES.md: UNO calls, catching, challenging a Wild Draw Four, suggestions, wrong cards."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import color, hand, legal, play, refused, setup, snapshot, top
from unokit import IllegalActionError, parse_card

# --------------------------------------------------------------------------- P1


def test_p1_call_with_the_play() -> None:
    """P1: a play of the next-to-last card may carry the UNO call (``R1!``); nobody may catch,
    and a second call is refused."""
    game = setup([["R1", "R2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G2"], dealer=2)
    assert "R1!" in legal(game, 0)
    play(game, (0, "R1!"))
    assert (game.owed[0], game.window) == (False, [])
    for seat in (1, 2):
        refused(game, seat, "catch 0")
    msg = refused(game, 0, "uno")
    assert "already" in msg


def test_p1_call_after_the_play() -> None:
    """P1: the call may be made after the play, until someone catches you; then no one can."""
    game = setup([["R1", "R2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G2"], dealer=2)
    play(game, (0, "R1"))
    assert game.owed[0] and game.window == [0]
    assert "uno" in legal(game, 0)
    play(game, (0, "uno"))
    assert not game.owed[0]
    for seat in (1, 2):
        refused(game, seat, "catch 0")
    refused(game, 0, "uno")


def test_p1_call_out_of_turn() -> None:
    """P1: the call made after the play may be made while another seat is on turn."""
    game = setup([["R1", "R2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G2"], dealer=2)
    play(game, (0, "R1"))
    assert game.turn == 1
    play(game, (0, "uno"))
    assert (game.turn, game.awaiting, game.hand_sizes()) == (1, "play", [1, 2, 2])


def test_p1_call_with_a_play_that_leaves_more_than_one_card_is_refused_whole() -> None:
    """P1: a play that carries a call which is not due (the play does not leave one card) is
    refused whole: the card stays in the hand, and it costs nothing."""
    game = setup([["R1", "R2", "R3"], ["R5", "G6"]], "R4", ["G1", "G2"], dealer=1)
    assert "R1!" not in legal(game, 0)
    msg = refused(game, 0, "R1!")
    assert "UNO" in msg
    assert hand(game, 0) == ["R1", "R2", "R3"]
    # Going out leaves no card: a call with the last card is refused too.
    game = setup([["R1"], ["R5", "G6"]], "R4", ["G1", "G2"], dealer=1)
    refused(game, 0, "R1!")
    play(game, (0, "R1"))
    assert game.awaiting in ("round_over", "game_over")


def test_p1_call_at_any_other_time_is_refused() -> None:
    """P1: ``uno`` with more than one card, or with a card that was not reached by a play (dealt
    one card), is refused and costs nothing."""
    game = setup([["R1", "R2"], ["G5"], ["R7", "Y8"]], "R4", ["G1", "G2"], dealer=2)
    msg = refused(game, 0, "uno")
    assert "holds 2" in msg
    refused(game, 1, "uno")
    refused(game, 0, "catch 1")


def test_p1_call_later_after_the_window_closed() -> None:
    """P1 (settled): a call is legal while the seat owes one, even after the catching window has
    closed; catching, though, is then no longer allowed (P2)."""
    game = setup([["R1", "R2"], ["R5", "G6", "B6"], ["R7", "Y8"]], "R4", ["G1", "G2"], dealer=2)
    play(game, (0, "R1"), (1, "R5"))
    assert game.owed[0] and game.window == []
    refused(game, 2, "catch 0")
    play(game, (0, "uno"))
    assert not game.owed[0]


def test_p1_drawing_back_up_then_one_card_again_must_call_again() -> None:
    """P1: a player who draws back up and again plays down to one card must call again."""
    game = setup([["R1", "R2"], ["R5", "R6", "G9"], ["R7", "R8", "Y2"]], "R4", ["G1", "G2", "G3", "G4"],
                 dealer=2)
    play(game, (0, "R1!"), (1, "R5"), (2, "R7"), (0, "draw"), (0, "pass"))
    assert hand(game, 0) == ["G1", "R2"]
    assert not game.owed[0]
    play(game, (1, "R6!"), (2, "R8"), (0, "R2"))
    assert game.owed[0] and game.window == [0]
    assert "uno" in legal(game, 0)
    play(game, (1, "catch 0"))
    assert hand(game, 0) == ["G1", "G2", "G3"]


# --------------------------------------------------------------------------- P2


def test_p2_any_other_player_may_catch_and_the_caught_draws_2() -> None:
    """P2: until the next player begins, any other player may catch a missed call: the caught
    player draws 2 (from the top of the draw pile)."""
    for catcher in (1, 2, 3):
        game = setup([["R1", "R2"], ["R5", "G6"], ["R7", "Y8"], ["B1", "B2"]], "R4",
                     ["G1", "G2", "G3"], dealer=3)
        play(game, (0, "R1"))
        assert "catch 0" in legal(game, catcher)
        play(game, (catcher, "catch 0"))
        assert hand(game, 0) == ["G1", "G2", "R2"]
        assert (game.owed[0], game.window, game.turn, game.awaiting) == (False, [], 1, "play")
        refused(game, 0, "uno")


def test_p2_cannot_catch_before_the_card_is_played() -> None:
    """P2: you cannot be caught before the next-to-last card is played."""
    game = setup([["R1", "R2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G2"], dealer=2)
    for seat in (1, 2):
        refused(game, seat, "catch 0")


def test_p2_a_player_cannot_catch_themselves() -> None:
    """P2: only another player may catch you."""
    game = setup([["R1", "R2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G2"], dealer=2)
    play(game, (0, "R1"))
    refused(game, 0, "catch 0")
    refused(game, 1, "catch 9")


def test_p2_next_player_may_catch_before_beginning() -> None:
    """P2: the next player may catch before beginning their turn, then take it."""
    game = setup([["R1", "R2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G2"], dealer=2)
    play(game, (0, "R1"), (1, "catch 0"), (1, "R5"))
    assert game.hand_sizes() == [3, 1, 2]


@pytest.mark.parametrize("begin", ["play", "draw"])
def test_p2_window_closes_when_the_next_player_begins(begin: str) -> None:
    """P2: once the next player has begun (plays or draws), the player can no longer be caught."""
    game = setup([["R1", "R2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G2"], dealer=2)
    play(game, (0, "R1"), (1, "R5" if begin == "play" else "draw"))
    assert game.owed[0]
    for seat in (1, 2):
        refused(game, seat, "catch 0")


@pytest.mark.parametrize("answer", ["accept", "challenge"])
def test_p2_window_closes_when_the_next_player_accepts_or_challenges(answer: str) -> None:
    """P2: accepting a draw or challenging it begins the next player's turn."""
    game = setup([["W+4", "G2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G3", "G4", "G5", "Y1", "Y2"],
                 dealer=2)
    play(game, (0, "W+4=B"))  # legal: seat 0 holds no red card
    assert game.window == [0]
    refused(game, 0, "catch 0")
    play(game, (1, answer))
    assert game.owed[0] and game.hand_sizes()[0] == 1
    for seat in (1, 2):
        refused(game, seat, "catch 0")


def test_p2_window_closes_when_the_next_player_stacks() -> None:
    """P2: playing a draw card on a draw card (stacking) begins the next player's turn."""
    game = setup([["R+2", "G2"], ["B+2", "G6"], ["R7", "Y8"]], "R4", ["G1", "G3", "G4", "G5"], dealer=2,
                 stacking="progressive")
    play(game, (0, "R+2"))
    assert game.window == [0]
    play(game, (1, "B+2"))
    assert game.owed[0]
    refused(game, 2, "catch 0")


def test_p2_window_closes_when_the_next_player_answers_with_agent_p() -> None:
    """P2: answering with Agent P begins the next player's turn."""
    game = setup([["R+2", "G2"], ["R5", "WP", "B9"], ["R7", "Y8"], ["B1", "B2"]], "R4",
                 ["G3", "G4", "G5", "Y1"], dealer=3, edition="phineas-ferb")
    play(game, (0, "R+2"))
    assert game.window == [0]
    play(game, (2, "catch 0"))
    assert game.hand_sizes()[0] == 3
    game = setup([["R+2", "G2"], ["R5", "WP", "B9"], ["R7", "Y8"], ["B1", "B2"]], "R4",
                 ["G3", "G4", "G5", "Y1"], dealer=3, edition="phineas-ferb")
    play(game, (0, "R+2"), (1, "WP=Y"))
    assert game.window == []
    for seat in (1, 2, 3):
        refused(game, seat, "catch 0")


@pytest.mark.parametrize("card", ["RS", "R+2"])
def test_p2_forced_skip_or_draw_does_not_end_the_window(card: str) -> None:
    """P2: a forced draw or skip caused by your own card does not end the window: it closes when
    the next seat that takes a decision makes it."""
    game = setup([[card, "G2"], ["R5", "G6"], ["R7", "Y8"], ["B1", "B2"]], "R4",
                 ["G1", "G3", "G4", "G5"], dealer=3)
    play(game, (0, card))
    assert game.turn == 2
    assert game.window == [0]
    for seat in (1, 2, 3):
        assert "catch 0" in legal(game, seat)
    play(game, (2, "R7"))
    for seat in (1, 2, 3):
        refused(game, seat, "catch 0")


def test_p2_forced_wild_draw_four_without_bluffing_does_not_end_the_window() -> None:
    """P2: a Wild Draw Four drawn at once (wd4_bluffing forbid) does not end the window either."""
    game = setup([["W+4", "G2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G3", "G4", "G5", "Y1"],
                 dealer=2, wd4_bluffing="forbid")
    play(game, (0, "W+4=Y"))
    assert (game.turn, game.window) == (2, [0])
    play(game, (1, "catch 0"))
    assert game.hand_sizes() == [3, 6, 2]


def test_p2_two_players_skip_window_open_until_the_player_decides_again() -> None:
    """P2 with M1: after your own Skip you play again; until you decide, you may be caught."""
    game = setup([["RS", "G2"], ["R5", "G6"]], "R4", ["G1", "G3", "G4"], dealer=1)
    play(game, (0, "RS"))
    assert (game.turn, game.window) == (0, [0])
    play(game, (1, "catch 0"))
    assert game.hand_sizes() == [3, 2]
    assert (game.turn, game.awaiting) == (0, "play")


def test_p2_only_the_first_catch_counts() -> None:
    """P2: only the first catch counts; a later catch is refused and costs nothing."""
    game = setup([["R1", "R2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G2", "G3", "G4"], dealer=2)
    play(game, (0, "R1"), (2, "catch 0"))
    assert game.hand_sizes() == [3, 2, 2]
    msg = refused(game, 1, "catch 0")
    assert "owes no UNO" in msg
    refused(game, 2, "catch 0")


def test_p2_catch_not_allowed_costs_nothing() -> None:
    """P2: a catch that is not allowed (the player called, or holds more cards) is refused."""
    game = setup([["R1", "R2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G2"], dealer=2)
    play(game, (0, "R1!"))
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.apply(1, "catch 0")
    assert snapshot(game) == before
    refused(game, 2, "catch 1")


# --------------------------------------------------------------------------- P3


def test_p3_legal_wild_draw_four_challenged_the_challenger_draws_6() -> None:
    """P3: if the Wild Draw Four was legal, the challenger draws 6 and loses their turn; the colour
    named stands; the challenged hand is shown to the challenger only."""
    draw = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"]
    game = setup([["W+4", "G2", "B3"], ["R5", "G6"], ["R7", "Y8"]], "R4", draw, dealer=2)
    play(game, (0, "W+4=B"))
    assert "challenge" in legal(game, 1)
    play(game, (1, "challenge"))
    assert hand(game, 1) == sorted(["R5", "G6", *draw[:6]])
    assert (game.turn, game.awaiting, color(game), top(game)) == (2, "play", "B", "W+4")
    assert game.observe(1).seen == {0: tuple(parse_card(c) for c in ("G2", "B3"))}
    assert game.observe(2).seen == {}
    assert game.observe(0).seen == {}


def test_p3_bluff_challenged_the_bluffer_draws_4_and_the_challenger_plays() -> None:
    """P3: if the Wild Draw Four was played illegally, its player draws 4 instead, and the
    challenger then takes their turn normally; the colour named stands."""
    draw = ["Y1", "Y2", "Y3", "Y4", "Y5"]
    game = setup([["W+4", "R2", "B3"], ["R5", "G6"], ["R7", "Y8"]], "R4", draw, dealer=2)
    play(game, (0, "W+4=G"))
    play(game, (1, "challenge"))
    assert hand(game, 0) == sorted(["R2", "B3", *draw[:4]])
    assert (game.turn, game.awaiting, color(game)) == (1, "play", "G")
    assert sorted(game.observe(1).seen[0]) == sorted(parse_card(c) for c in ("R2", "B3"))
    play(game, (1, "G6"))
    assert game.turn == 2


def test_p3_only_the_player_who_must_draw_may_challenge() -> None:
    """P3: only the player who must draw the 4 may challenge, and only before drawing."""
    game = setup([["W+4", "R2", "B3"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["Y1", "Y2", "Y3", "Y4"],
                 dealer=2)
    play(game, (0, "W+4=G"))
    refused(game, 2, "challenge")
    refused(game, 0, "challenge")
    play(game, (1, "accept"))
    refused(game, 1, "challenge")
    assert game.hand_sizes() == [2, 6, 2]


def test_p3_while_responding_only_an_answer_is_allowed() -> None:
    """P3: while a Wild Draw Four waits for an answer, no play or draw is allowed."""
    game = setup([["W+4", "R2", "B3"], ["R5", "G6", "W"], ["R7", "Y8"]], "R4", ["Y1", "Y2", "Y3", "Y4"],
                 dealer=2)
    play(game, (0, "W+4=G"))
    assert sorted(legal(game, 1)) == ["accept", "challenge"]
    for action in ("G6", "W=R", "draw", "pass", "R7"):
        refused(game, 1, action)
    refused(game, 2, "R7")


def test_p3_a_draw_two_cannot_be_challenged() -> None:
    """P3: only a Wild Draw Four can be challenged."""
    game = setup([["R+2", "R2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["Y1", "Y2"], dealer=2,
                 edition="phineas-ferb")
    play(game, (0, "R+2"))
    assert game.awaiting == "respond"
    refused(game, 1, "challenge")


def test_p3_seen_is_the_hand_at_the_challenge() -> None:
    """P3: the hand shown is the challenged hand as it is at the challenge (kept afterwards)."""
    game = setup([["W+4", "G2", "B3"], ["R5", "G6"], ["B7", "Y8"]], "R4", ["Y1", "Y2", "Y3", "Y4", "Y5",
                 "Y6", "Y7"], dealer=2)
    play(game, (0, "W+4=B"), (1, "challenge"), (2, "B7"), (0, "B3"))
    assert sorted(game.observe(1).seen[0]) == sorted(parse_card(c) for c in ("G2", "B3"))


# --------------------------------------------------------------------------- P4


def test_p4_host_gives_the_suggestion_penalty() -> None:
    """P4: a player who makes suggestions draws 2, given by the host; the turn does not change."""
    game = setup([["R1", "R2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G2", "G3"], dealer=2)
    game.apply_host("penalize 2")
    assert hand(game, 2) == ["G1", "G2", "R7", "Y8"]
    assert (game.turn, game.awaiting) == (0, "play")
    assert game.history[-1][0] == -1


def test_p4_penalty_is_a_hosts_action_only() -> None:
    """P4: no seat may give the penalty, and the host can do nothing else; a seat that is not in
    the game cannot be penalized."""
    game = setup([["R1", "R2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G2", "G3"], dealer=2)
    for seat in range(3):
        refused(game, seat, "penalize 1")
    before = snapshot(game)
    for action in ("R1", "draw", "penalize 3", "penalize 9"):
        with pytest.raises(IllegalActionError):
            game.apply_host(action)
    assert snapshot(game) == before


def test_p4_no_penalty_after_the_round() -> None:
    """P4: once the round is over, the host's penalty is refused."""
    game = setup([["R1"], ["R5", "G6"]], "R4", ["G1", "G2", "G3"], dealer=1)
    play(game, (0, "R1"))
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.apply_host("penalize 1")
    assert snapshot(game) == before


# --------------------------------------------------------------------------- P5


def test_p5_wrong_card_rejected_by_default() -> None:
    """P5: with illegal_play reject (default), a wrong card is refused with a clear error."""
    game = setup([["R1", "G2"], ["R5", "G6"]], "R4", ["G1"], dealer=1)
    msg = refused(game, 0, "G2")
    assert "G2 does not match R4" in msg


def test_p5_wrong_card_penalized() -> None:
    """P5: with illegal_play penalize, the wrong card is accepted as noticed at once: the player
    keeps it, draws 2, and play goes on with the next player. It is not offered as legal."""
    game = setup([["R1", "G2", "B5"], ["R5", "G6"], ["Y1"]], "R4", ["G1", "G3", "G4"], dealer=2,
                 illegal_play="penalize")
    assert "G2" not in legal(game, 0)
    game.apply(0, "G2")
    assert hand(game, 0) == ["B5", "G1", "G2", "G3", "R1"]
    assert (game.turn, game.awaiting, top(game), color(game)) == (1, "play", "R4", "R")


def test_p5_only_a_held_card_at_a_normal_turn_is_a_wrong_card() -> None:
    """P5: a card not held, out of turn, any card but the drawn one after a draw, a play while a
    draw card waits for an answer, and a refused UNO call are refused even with penalize."""
    opts: dict[str, Any] = {"illegal_play": "penalize"}
    game = setup([["R1", "G2", "B5"], ["R5", "G6"], ["Y1"]], "R4", ["G1", "G3", "G4"], dealer=2, **opts)
    refused(game, 0, "B9")  # not held
    refused(game, 1, "G6")  # out of turn
    refused(game, 0, "G2!")  # the call is refused whole
    play(game, (0, "draw"))
    refused(game, 0, "B5")  # after a draw
    refused(game, 0, "G2")
    game = setup([["W+4", "G2", "B5"], ["R5", "G6"], ["Y1"]], "R4", ["G1", "G3", "G4", "G5"], dealer=2,
                 **opts)
    play(game, (0, "W+4=Y"))
    refused(game, 1, "G6")  # while a draw card waits for an answer
    game = setup([["R1", "G2"], ["R5", "G6"]], "W", ["G1", "G3"], dealer=1, **opts)
    refused(game, 0, "G2")  # the turned-up wild's colour must be named first


def test_p5_wrong_card_carrying_an_uno_call_is_refused_even_from_two_cards() -> None:
    """P5 with P1: a wrong card stays in the hand, so an UNO call with it could never be valid;
    a play carrying a refused call is refused whole, even when the hand holds two cards."""
    game = setup([["R1", "G2"], ["R5", "G6"], ["Y1"]], "R4", ["G1", "G3", "G4"], dealer=2,
                 illegal_play="penalize")
    refused(game, 0, "G2!")
    game.apply(0, "G2")  # the same wrong card without the call is penalized
    assert game.hand_sizes() == [4, 2, 1]


def test_p5_illegal_wild_draw_four_is_a_bluff_not_a_wrong_card() -> None:
    """P5: an illegal Wild Draw Four is a bluff, not a wrong card: with wd4_bluffing forbid it is
    refused even with penalize."""
    game = setup([["W+4", "R2", "B5"], ["R5", "G6"]], "R4", ["G1", "G3", "G4"], dealer=1,
                 illegal_play="penalize", wd4_bluffing="forbid")
    refused(game, 0, "W+4=G")


def test_p5_wrong_card_with_penalize_ends_the_uno_window() -> None:
    """P5 with P2: the penalized wrong card is the next player's decision."""
    game = setup([["R1", "R2"], ["R5", "G6", "B7"], ["Y1"]], "R4", ["G1", "G3", "G4"], dealer=2,
                 illegal_play="penalize")
    play(game, (0, "R1"))
    game.apply(1, "G6")
    assert game.hand_sizes() == [1, 5, 1]
    refused(game, 2, "catch 0")
