"""C5 (Special Agent Mater) and C6 (Agent P) of RULES.md."""

from __future__ import annotations

from conftest import color, draw_top_first, hand, legal, play, refused, setup, top
from unokit import Game, card_str

# --------------------------------------------------------------------------- C5


def _seen_text(game: Game, seat: int) -> dict[int, list[str]]:
    return {t: sorted(card_str(c) for c in cs) for t, cs in game.observe(seat).seen.items()}


def test_c5_mater_is_a_wild() -> None:
    """C5/T4: Special Agent Mater is playable on anything and names the colour."""
    game = setup([["WM", "R1", "G1"], ["B5", "G6"], ["Y7"]], "R4", ["G9"], dealer=2, edition="cars2")
    assert {f"WM={c}" for c in "RYGB"} <= set(legal(game, 0))
    play(game, (0, "WM=Y"))
    assert (top(game), color(game), game.turn) == ("WM", "Y", 1)


def test_c5_mater_shows_every_other_hand_at_that_moment() -> None:
    """C5: the Mater player sees every other player's hand as it is at that moment; no one else
    sees anything, and the view does not follow later changes."""
    game = setup([["WM", "R1", "G1"], ["B5", "G6"], ["Y7", "G2"], ["W", "R9", "R8"]], "R4", ["G9"],
                 dealer=3, edition="cars2")
    play(game, (0, "WM=G"))
    want = {1: ["B5", "G6"], 2: ["G2", "Y7"], 3: ["R8", "R9", "W"]}
    assert _seen_text(game, 0) == want
    for seat in (1, 2, 3):
        assert game.observe(seat).seen == {}
    play(game, (1, "G6"), (2, "G2"))
    assert _seen_text(game, 0) == want


def test_c5_a_second_mater_shows_the_hands_again() -> None:
    """C5: each Mater played shows the hands as they are when it is played."""
    game = setup([["WM", "WM", "G1"], ["B5", "G6", "G7"]], "R4", ["G9"], dealer=1, edition="cars2")
    play(game, (0, "WM=G"), (1, "G6"))
    assert _seen_text(game, 0) == {1: ["B5", "G6", "G7"]}
    play(game, (0, "WM=B"))
    assert _seen_text(game, 0) == {1: ["B5", "G7"]}


def test_c5_mater_as_the_last_card_ends_the_round() -> None:
    """C5/E1: a Mater that is the last card goes out like any wild."""
    game = setup([["WM"], ["B5", "G6"]], "R4", ["G9"], dealer=1, edition="cars2")
    play(game, (0, "WM=R"))
    assert (game.awaiting, game.round_winner, game.scores) == ("round_over", 0, [11, 0])


# --------------------------------------------------------------------------- C6


def test_c6_agent_p_is_a_wild_on_your_turn() -> None:
    """C6/T4: Agent P is playable on your own turn like any wild."""
    game = setup([["WP", "R1", "G1"], ["B5", "G6"]], "R4", ["G9"], dealer=1, edition="phineas-ferb")
    assert {f"WP={c}" for c in "RYGB"} <= set(legal(game, 0))
    play(game, (0, "WP=B"))
    assert (top(game), color(game), game.turn) == ("WP", "B", 1)


def test_c6_answer_a_draw_two_attacker_takes_the_cards_under_agent_p() -> None:
    """C6: answering a Draw Two, you name the colour and the attacker draws the 2 cards directly
    under the Agent P (the draw card itself first); play continues from you to the next player,
    and the attacker is not skipped."""
    game = setup([["R1", "B1", "B2"], ["R+2", "G3", "G4"], ["WP", "Y5", "Y6"], ["R7", "R8"]], "R4",
                 ["G9", "G8"], dealer=3, edition="phineas-ferb")
    play(game, (0, "R1"), (1, "R+2"))
    assert (game.turn, game.awaiting) == (2, "respond")
    assert "WP=G" in legal(game, 2)
    play(game, (2, "WP=G"))
    assert hand(game, 1) == ["G3", "G4", "R+2", "R1"]
    assert [card_str(c) for c in game.discard] == ["R4", "WP"]
    assert draw_top_first(game) == ["G9", "G8"]
    assert (game.turn, game.awaiting, color(game)) == (3, "play", "G")
    assert hand(game, 2) == ["Y5", "Y6"]


def test_c6_two_players_the_attacker_plays_next() -> None:
    """C6 settled: with two players, the attacker (not skipped) plays next."""
    game = setup([["R+2", "G3", "G4"], ["WP", "Y5", "Y6"]], "R4", ["G9", "G8"], dealer=1,
                 edition="phineas-ferb")
    play(game, (0, "R+2"), (1, "WP=Y"))
    assert hand(game, 0) == ["G3", "G4", "R+2", "R4"]
    assert (game.turn, game.awaiting, color(game)) == (0, "play", "Y")


def test_c6_answer_a_wild_draw_four_discard_runs_short() -> None:
    """C6: answering a Wild Draw Four, the attacker takes the 4 cards under the Agent P, then from
    the draw pile if the discard pile runs short; the colour named by Agent P stands."""
    game = setup([["W+4", "G3", "G4"], ["WP", "Y5", "Y6"], ["B1"]], "R4", ["G9", "G8", "G7"], dealer=2,
                 edition="phineas-ferb")
    play(game, (0, "W+4=B"))
    assert sorted(legal(game, 1)) == sorted(["accept", "challenge", *(f"WP={c}" for c in "RYGB")])
    play(game, (1, "WP=R"))
    assert hand(game, 0) == ["G3", "G4", "G8", "G9", "R4", "W+4"]
    assert [card_str(c) for c in game.discard] == ["WP"]
    assert draw_top_first(game) == ["G7"]
    assert (game.turn, color(game)) == (2, "R")


def test_c6_agent_p_draws_from_the_draw_pile() -> None:
    """C6 with agent_p_draws_from draw: the attacker draws from the draw pile instead."""
    game = setup([["R1", "B1", "B2"], ["R+2", "G3", "G4"], ["WP", "Y5", "Y6"]], "R4", ["G9", "G8", "G7"],
                 dealer=2, edition="phineas-ferb", agent_p_draws_from="draw")
    play(game, (0, "R1"), (1, "R+2"), (2, "WP=B"))
    assert hand(game, 1) == ["G3", "G4", "G8", "G9"]
    assert [card_str(c) for c in game.discard] == ["R4", "R1", "R+2", "WP"]
    assert draw_top_first(game) == ["G7"]
    assert game.turn == 0


def test_c6_agent_p_as_the_last_card_attacker_still_draws_and_they_count() -> None:
    """C6 settled: if the Agent P was the responder's last card, the attacker still draws, and
    those cards count for scoring (as in E1)."""
    for source, drawn in (("discard", ["R+2", "R1"]), ("draw", ["G9", "G8"])):
        game = setup([["R1", "B1", "B2"], ["R+2", "G3"], ["WP"]], "R4", ["G9", "G8"], dealer=2,
                     edition="phineas-ferb", agent_p_draws_from=source)
        play(game, (0, "R1"), (1, "R+2!"), (2, "WP=B"))
        assert hand(game, 1) == sorted(["G3", *drawn])
        assert (game.awaiting, game.round_winner) == ("round_over", 2)
        points = {"R+2": 20, "R1": 1, "G9": 9, "G8": 8}
        assert game.scores == [0, 0, 3 + 3 + sum(points[c] for c in drawn)]


def test_c6_agent_p_cannot_itself_be_answered() -> None:
    """C6 settled: Agent P cannot be answered: the attacker simply draws and play goes on."""
    game = setup([["R+2", "WP", "G4"], ["WP", "Y5", "Y6"]], "R4", ["G9", "G8"], dealer=1,
                 edition="phineas-ferb")
    play(game, (0, "R+2"), (1, "WP=Y"))
    assert (game.turn, game.awaiting) == (0, "play")
    assert "accept" not in legal(game, 0)
    assert hand(game, 0) == ["G4", "R+2", "R4", "WP"]


def test_c6_challenge_and_agent_p_exclude_each_other() -> None:
    """C6 settled: a challenge and an Agent P answer exclude each other."""
    game = setup([["W+4", "G3", "G4"], ["WP", "Y5", "Y6"], ["B1"]], "R4",
                 ["G9", "G8", "G7", "G6", "G5", "G2", "G1"], dealer=2, edition="phineas-ferb")
    play(game, (0, "W+4=B"), (1, "WP=R"))
    refused(game, 1, "challenge")
    game = setup([["W+4", "G3", "G4"], ["WP", "Y5", "Y6"], ["B1"]], "R4",
                 ["G9", "G8", "G7", "G6", "G5", "G2", "G1"], dealer=2, edition="phineas-ferb")
    play(game, (0, "W+4=B"), (1, "challenge"))  # legal W+4: seat 1 draws 6, loses its turn
    assert game.turn == 2
    refused(game, 1, "WP=R")


def test_c6_only_the_player_attacked_may_answer() -> None:
    """C6: only the player the draw card was played on answers with Agent P, and only before
    drawing."""
    game = setup([["R+2", "G3", "G4"], ["Y5", "Y6", "WP"], ["WP", "B1"]], "R4", ["G9", "G8"], dealer=2,
                 edition="phineas-ferb")
    play(game, (0, "R+2"))
    refused(game, 2, "WP=B")
    play(game, (1, "accept"))
    assert game.turn == 2
    refused(game, 1, "WP=B")
    assert hand(game, 1) == ["G8", "G9", "WP", "Y5", "Y6"]


def test_c6_every_attacked_seat_is_asked() -> None:
    """C6: in phineas-ferb the attacked seat is asked whether or not it holds Agent P, so the
    question gives nothing away."""
    game = setup([["R+2", "G3", "G4"], ["Y5", "Y6"]], "R4", ["G9", "G8"], dealer=1, edition="phineas-ferb")
    play(game, (0, "R+2"))
    assert (game.turn, game.awaiting, legal(game, 1)) == (1, "respond", ["accept"])
    play(game, (1, "accept"))
    assert (game.turn, hand(game, 1)) == (0, ["G8", "G9", "Y5", "Y6"])


def test_c6_agent_p_answer_may_carry_the_uno_call() -> None:
    """C6 with P1: an Agent P answer that leaves one card must be called (with it or after)."""
    game = setup([["R+2", "G3", "G4"], ["WP", "Y5"], ["B1", "B2"]], "R4", ["G9", "G8"], dealer=2,
                 edition="phineas-ferb")
    play(game, (0, "R+2"))
    assert "WP=Y!" in legal(game, 1)
    play(game, (1, "WP=Y"))
    assert game.window == [1]
    play(game, (0, "catch 1"))
    assert game.hand_sizes() == [4, 3, 2]


def test_c5_mater_shows_no_hand_of_a_seat_that_is_out() -> None:
    """C5 with M4: seats that are out hold no cards, and the Mater peek passes over them."""
    game = setup([["WM", "R1"], [], ["Y7", "G2"]], "R4", ["G9"], dealer=2, edition="cars2",
                 mode="elimination", eliminated=[1])
    play(game, (0, "WM=G!"))
    assert _seen_text(game, 0) == {2: ["G2", "Y7"]}
