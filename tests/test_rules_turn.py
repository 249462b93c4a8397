"""T1–T6 of RULES.md: matching, drawing, action cards, wilds, Wild Draw Four, the empty draw pile."""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import all_cards, color, draw_top_first, hand, legal, play, refused, setup, top
from unokit import IllegalActionError, NotationError

# --------------------------------------------------------------------------- T1


def test_t1_legal_plays_match_by_colour_number_or_symbol() -> None:
    """T1: on your turn you may play a card matching the top by colour, number or symbol, or a
    wild; nothing else is offered."""
    game = setup([["R1", "B4", "G9", "BS", "W", "Y4"], ["G1"]], "R4", ["Y9"], dealer=1)
    assert sorted(legal(game, 0)) == sorted(["R1", "B4", "Y4", "W=R", "W=Y", "W=G", "W=B", "draw"])
    for wrong in ("G9", "BS"):
        refused(game, 0, wrong)


def test_t1_symbols_match_the_same_symbol() -> None:
    """T1/T3: a symbol card matches its colour or the same symbol of another colour."""
    game = setup([["BS", "YR", "R+2", "G3"], ["G1"]], "GS", ["Y9"], dealer=0)
    assert sorted(legal(game, 0)) == ["BS", "G3", "draw"]
    game = setup([["BS", "YR", "R+2", "G3"], ["G1"]], "B+2", ["Y9"], dealer=0)
    # B+2 turned up: seat 1 drew 2 and was skipped; seat 0 plays on a B+2.
    assert sorted(legal(game, 0)) == ["BS", "R+2", "draw"]
    game = setup([["BR", "YR", "R+2", "G3"], ["G1"]], "GR", ["Y9"], dealer=0, two_handed_rules=False)
    assert sorted(legal(game, 0)) == ["BR", "G3", "YR", "draw"]


def test_t1_number_matches_across_colours() -> None:
    """T1: a number matches the same number of any colour, and then sets the colour."""
    game = setup([["B7", "G7"], ["G1", "Y7"], ["Y2"]], "R7", ["Y9"], dealer=2)
    play(game, (0, "B7"))
    assert (color(game), game.turn) == ("B", 1)
    refused(game, 1, "G1")
    play(game, (1, "Y7"))
    assert (color(game), top(game), game.turn) == ("Y", "Y7", 2)


def test_t1_after_a_wild_the_named_colour_is_matched() -> None:
    """T1/T4: after a wild, the colour named is the colour in play; its number means nothing."""
    game = setup([["W", "R1", "R3"], ["Y1", "R2", "G5"], ["Y2"]], "R4", ["Y9"], dealer=2)
    play(game, (0, "W=G"))
    assert sorted(legal(game, 1)) == ["G5", "draw"]
    refused(game, 1, "R2")
    refused(game, 1, "Y1")


def test_t1_only_the_seat_on_turn_plays() -> None:
    """T1: a matching card played out of turn, or a card not held, is refused; nothing changes."""
    game = setup([["R1", "G9"], ["R7", "B9"], ["R2", "B2"]], "R4", ["Y9"], dealer=2)
    assert game.turn == 0
    msg = refused(game, 1, "R7")
    assert "turn" in msg
    msg = refused(game, 0, "R8")
    assert "holds no R8" in msg
    msg = refused(game, 0, "G9")
    assert "does not match" in msg


def test_t1_out_of_range_seat_is_refused() -> None:
    """T1: an action of a seat that does not exist is refused."""
    game = setup([["R1", "R2"], ["R7", "R8"]], "R4", ["Y9"], dealer=1)
    for seat in (2, 16, 17, -1, -16):
        assert game.legal_actions(seat) == ()
        refused(game, seat, "R1")
    play(game, (0, "R1!"))
    assert game.legal_actions(16) == () and "R7" in legal(game, 1) and legal(game, 0) == []


# --------------------------------------------------------------------------- T2


def test_t2_draw_is_always_allowed_then_only_the_drawn_card() -> None:
    """T2: you may draw instead of playing even with a playable card; after drawing, only the
    drawn card may be played (if playable), or you keep it with ``pass``."""
    game = setup([["R1", "R2"], ["G1"], ["B1"]], "R4", ["R9", "G8"], dealer=2)
    assert "draw" in legal(game, 0)
    play(game, (0, "draw"))
    assert (game.turn, game.awaiting, hand(game, 0)) == (0, "drawn", ["R1", "R2", "R9"])
    assert sorted(legal(game, 0)) == ["R9", "pass"]
    refused(game, 0, "R1")
    refused(game, 0, "draw")
    play(game, (0, "R9"))
    assert (top(game), game.turn, game.awaiting) == ("R9", 1, "play")


def test_t2_pass_keeps_the_drawn_card() -> None:
    """T2: after drawing you may choose to keep even a playable card and end the turn."""
    game = setup([["R1", "R2"], ["G1"], ["B1"]], "R4", ["R9", "G8"], dealer=2)
    play(game, (0, "draw"), (0, "pass"))
    assert (hand(game, 0), game.turn, game.awaiting, top(game)) == (["R1", "R2", "R9"], 1, "play", "R4")


def test_t2_unplayable_drawn_card_only_pass() -> None:
    """T2: an unplayable drawn card is kept; the game waits for ``pass`` (the turn never ends by
    itself)."""
    game = setup([["R1", "R2"], ["G1"], ["B1"]], "R4", ["G8", "R9"], dealer=2)
    play(game, (0, "draw"))
    assert (game.turn, game.awaiting) == (0, "drawn")
    assert legal(game, 0) == ["pass"]
    refused(game, 0, "G8")
    refused(game, 0, "R1")
    play(game, (0, "pass"))
    assert game.turn == 1


def test_t2_holding_no_playable_card_you_must_draw() -> None:
    """T2: with no playable card, drawing is the only choice."""
    game = setup([["G1", "B2"], ["G1"]], "R4", ["G8"], dealer=1)
    assert legal(game, 0) == ["draw"]
    refused(game, 0, "pass")
    refused(game, 0, "G1")


def test_t2_pass_only_after_drawing() -> None:
    """T2: ``pass`` ends a turn only after a draw."""
    game = setup([["R1", "B2"], ["G1"]], "R4", ["G8"], dealer=1)
    msg = refused(game, 0, "pass")
    assert "after drawing" in msg


def test_t2_drawn_card_is_known_only_to_its_drawer() -> None:
    """T2: the drawn card is in the drawer's observation, and in no one else's."""
    game = setup([["R1", "B2"], ["G1"], ["B5"]], "R4", ["G8", "Y1"], dealer=2)
    play(game, (0, "draw"))
    assert top(game) == "R4"
    assert game.observe(0).drawn >= 0
    assert game.observe(1).drawn == -1


# --------------------------------------------------------------------------- T3


def test_t3_draw_two_next_draws_2_and_loses_their_turn() -> None:
    """T3: Draw Two: the next player draws 2 and loses their turn."""
    game = setup([["R+2", "R1"], ["G1"], ["B1", "R5"]], "R4", ["Y1", "Y2", "Y3"], dealer=2)
    play(game, (0, "R+2"))
    assert hand(game, 1) == ["G1", "Y1", "Y2"]
    assert (game.turn, game.awaiting, color(game)) == (2, "play", "R")


def test_t3_skip_next_loses_their_turn() -> None:
    """T3: Skip: the next player loses their turn (wrapping around the table)."""
    game = setup([["R1"], ["G1"], ["RS", "R3"]], "R4", ["Y1"], dealer=1)
    assert game.turn == 2
    play(game, (2, "RS"))
    assert (game.turn, game.hand_sizes()) == (1, [1, 1, 1])


def test_t3_reverse_flips_the_direction() -> None:
    """T3: Reverse: the direction flips; a second Reverse flips it back."""
    game = setup([["RR", "R1"], ["G1", "R2"], ["B1", "R3"], ["YR", "R5"]], "R4", ["Y1"], dealer=3)
    play(game, (0, "RR"))
    assert (game.direction, game.turn) == (-1, 3)
    play(game, (3, "YR"))
    assert (game.direction, game.turn, color(game)) == (1, 0, "Y")


def test_t3_skip_going_right() -> None:
    """T3: a Skip going right skips the seat to the right."""
    game = setup([["RR", "R1"], ["G1", "R2"], ["RS", "R3"], ["B5", "R5"]], "R4", ["Y1"], dealer=3)
    play(game, (0, "RR"), (3, "R5"), (2, "RS"))
    assert game.turn == 0


def test_t3_draw_two_on_draw_two_of_another_colour() -> None:
    """T3: each symbol card may be played on the same symbol (a Draw Two on a Draw Two, after the
    first has been drawn)."""
    game = setup([["R+2", "R1"], ["G1", "G+2"], ["B+2", "B5"]], "R4", ["Y1", "Y2", "Y3", "Y4"], dealer=2)
    play(game, (0, "R+2"))
    assert game.turn == 2
    play(game, (2, "B+2"))
    assert hand(game, 0) == ["R1", "Y3", "Y4"]
    assert (game.turn, color(game)) == (1, "B")


# --------------------------------------------------------------------------- T4


def test_t4_wild_on_anything_naming_any_colour() -> None:
    """T4: a Wild is playable on anything, even holding other playable cards, naming any of the
    four colours (the current one included)."""
    for c in "RYGB":
        game = setup([["W", "R1"], ["G1"]], "R4", ["Y1"], dealer=1)
        assert {f"W={x}" for x in "RYGB"} <= set(legal(game, 0))
        play(game, (0, f"W={c}"))
        assert (color(game), top(game), game.turn) == (c, "W", 1)


def test_t4_wild_on_a_wild() -> None:
    """T4: a wild is playable on a wild."""
    game = setup([["W", "R1"], ["W", "G1"]], "R4", ["Y1"], dealer=1)
    play(game, (0, "W=B"), (1, "W=Y"))
    assert color(game) == "Y"


def test_t4_wild_must_name_a_colour() -> None:
    """T4: a wild played without naming a colour is not an action at all."""
    game = setup([["W", "R1"], ["G1"]], "R4", ["Y1"], dealer=1)
    refused(game, 0, "W", NotationError)
    refused(game, 0, "W=X", NotationError)


# --------------------------------------------------------------------------- T5


def test_t5_wild_draw_four_next_draws_4_and_loses_turn() -> None:
    """T5: a Wild Draw Four: you name the colour, the next player draws 4 and loses their turn."""
    game = setup([["W+4", "B1"], ["G1"], ["Y5"]], "R4", ["Y1", "Y2", "Y3", "Y4", "Y6"], dealer=2)
    play(game, (0, "W+4=B"))
    assert (game.turn, game.awaiting) == (1, "respond")  # wd4_bluffing allow: it may challenge
    play(game, (1, "accept"))
    assert hand(game, 1) == ["G1", "Y1", "Y2", "Y3", "Y4"]
    assert (game.turn, color(game), top(game)) == (2, "B", "W+4")
    # Without bluffing the draw happens at once.
    game = setup([["W+4", "B1"], ["G1"], ["Y5"]], "R4", ["Y1", "Y2", "Y3", "Y4", "Y6"], dealer=2,
                 wd4_bluffing="forbid")
    play(game, (0, "W+4=Y"))
    assert hand(game, 1) == ["G1", "Y1", "Y2", "Y3", "Y4"]
    assert (game.turn, game.awaiting, color(game)) == (2, "play", "Y")


def test_t5_legal_only_without_a_card_of_the_colour_in_play() -> None:
    """T5: a Wild Draw Four is legal only when you hold no other card of the colour in play;
    cards of the matching number or symbol and wild cards do not count."""
    ok = setup([["W+4", "G4", "BS", "W", "W+4"], ["G1"]], "RS", ["Y1"], dealer=0, wd4_bluffing="forbid")
    assert {f"W+4={c}" for c in "RYGB"} <= set(legal(ok, 0))
    bad = setup([["W+4", "R9", "G4"], ["G1"]], "R4", ["Y1"], dealer=1, wd4_bluffing="forbid")
    assert not any(a.startswith("W+4") for a in legal(bad, 0))
    msg = refused(bad, 0, "W+4=G")
    assert "colour in play" in msg


def test_t5_colour_in_play_after_a_wild() -> None:
    """T5: the colour in play is the one named for the wild below, not the wild's own."""
    game = setup([["W", "B9"], ["W+4", "R1", "B1", "B2"], ["Y1"]], "R4", ["Y9"], dealer=2,
                 wd4_bluffing="forbid")
    play(game, (0, "W=G"))
    assert any(a.startswith("W+4") for a in legal(game, 1))
    game = setup([["W", "B9"], ["W+4", "R1", "B1", "B2"], ["Y1"]], "R4", ["Y9"], dealer=2,
                 wd4_bluffing="forbid")
    play(game, (0, "W=B"))
    assert not any(a.startswith("W+4") for a in legal(game, 1))


def test_t5_illegal_wild_draw_four_is_offered_as_a_bluff() -> None:
    """T5: with wd4_bluffing allow (default), an illegal Wild Draw Four may still be played."""
    game = setup([["W+4", "R9"], ["G1"]], "R4", ["Y1"], dealer=1)
    assert {f"W+4={c}" for c in "RYGB"} <= set(legal(game, 0))
    play(game, (0, "W+4=G"))
    assert (game.turn, game.awaiting) == (1, "respond")


def test_t5_drawn_wild_draw_four_tested_against_the_rest_of_the_hand() -> None:
    """T5: a Wild Draw Four just drawn follows the same test against the rest of the hand."""
    # Forbidden bluff: holding a red card, the drawn W+4 cannot be played.
    game = setup([["R9", "G1"], ["G2"]], "R4", ["W+4"], dealer=1, wd4_bluffing="forbid")
    play(game, (0, "draw"))
    assert legal(game, 0) == ["pass"]
    refused(game, 0, "W+4=G")
    # Holding no red card, it can.
    game = setup([["B9", "G1"], ["G2"]], "R4", ["W+4", "Y1", "Y2", "Y3", "Y4"], dealer=1,
                 wd4_bluffing="forbid")
    play(game, (0, "draw"))
    assert "W+4=G" in legal(game, 0)
    play(game, (0, "W+4=G"))
    assert game.hand_sizes() == [2, 5]
    # With bluffing allowed, a drawn bluff is playable and a challenge finds it out.
    game = setup([["R9", "G1"], ["G2"]], "R4", ["W+4", "Y1", "Y2", "Y3", "Y4"], dealer=1)
    play(game, (0, "draw"), (0, "W+4=B"), (1, "challenge"))
    assert game.hand_sizes() == [6, 1]


# --------------------------------------------------------------------------- T6


def test_t6_empty_draw_pile_reshuffles_the_discard_pile() -> None:
    """T6: when a card must be drawn and the draw pile is empty, the discard pile except its top
    card is shuffled to form a new draw pile."""
    game = setup([["R1", "R2", "R3", "G7"], ["R5", "R6", "B7"], ["Y1"]], "R4", ["G9"], dealer=2)
    play(game, (0, "R1"), (1, "R5"), (2, "draw"), (2, "pass"), (0, "R2"))
    assert game.draw_pile == []
    before = all_cards(game)
    play(game, (1, "draw"))
    assert game.discard == [game.top] and top(game) == "R2"
    drawn = list((Counter(hand(game, 1)) - Counter(["R6", "B7"])).elements())
    assert len(drawn) == 1
    assert sorted(draw_top_first(game) + drawn) == ["R1", "R4", "R5"]
    assert all_cards(game) == before


def test_t6_reshuffle_happens_within_a_multi_card_draw() -> None:
    """T6: a Draw Two with one card left in the draw pile takes it, then reshuffles for the next."""
    game = setup([["R+2", "R1", "R3"], ["G1"], ["Y9"]], "R4", ["B1"], dealer=2)
    before = all_cards(game)
    play(game, (0, "R+2"))
    assert hand(game, 1) == ["B1", "G1", "R4"]
    assert (game.hand_sizes(), [top(game)], len(game.discard), game.draw_pile) == ([2, 3, 1], ["R+2"], 1, [])
    assert all_cards(game) == before


def test_t6_no_cards_at_all_draws_what_exists() -> None:
    """T6 settled: if even after reshuffling there are no cards, the draw gives as many cards as
    exist (possibly none) and play goes on; the game still waits for ``pass``."""
    game = setup([["G1", "G2"], ["B1"], ["Y1"]], "R4", [], dealer=2)
    play(game, (0, "draw"))
    assert (game.hand_sizes(), game.awaiting, game.turn) == ([2, 1, 1], "drawn", 0)
    assert legal(game, 0) == ["pass"]
    play(game, (0, "pass"))
    assert game.turn == 1


def test_t6_draw_two_with_too_few_cards_gives_what_exists() -> None:
    """T6 settled: a Draw Two with one card in all the piles gives that one card."""
    game = setup([["R+2", "R1"], ["G1"], ["Y9"]], "R4", [], dealer=2)
    play(game, (0, "R+2"))
    assert hand(game, 1) == ["G1", "R4"]
    assert (game.turn, game.draw_pile, len(game.discard)) == (2, [], 1)


def test_t6_reshuffle_is_seeded() -> None:
    """T6: the shuffle comes from the seed: the same seed gives the same new pile."""
    piles = []
    for seed in (5, 5, 6, 7, 8):
        game = setup([["R1", "R2", "R3", "R5", "R6", "G7"], ["R1", "R2", "R3", "R5", "R6", "G8"]], "R4",
                     [], dealer=1, seed=seed)
        for c in ("R1", "R2", "R3", "R5"):
            play(game, (0, c), (1, c))
        play(game, (0, "draw"))
        pile = draw_top_first(game)
        assert len(pile) == 7
        piles.append(pile)
    assert piles[0] == piles[1]
    assert len({tuple(p) for p in piles}) >= 3


def test_t2_turn_state_unchanged_by_refusals() -> None:
    """T2 with P5: every refusal during a drawn turn raises IllegalActionError and changes nothing."""
    game = setup([["R1", "B2"], ["G1"]], "R4", ["G8"], dealer=1)
    play(game, (0, "draw"))
    for action in ("R1", "B2", "draw", "accept", "challenge", "color G", "swap 1", "catch 1", "uno"):
        refused(game, 0, action)
    with pytest.raises(IllegalActionError):
        game.apply(1, "G1")
