"""RULES.md's Options and House rules tables: validation, defaults, and each option's effect."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import color, draw_top_first, hand, legal, play, refused, setup, top
from unokit import Game, OptionError, Options, card_str
from unokit.core.options import MAX_TARGET

# --------------------------------------------------------------------------- validation


def test_opt_defaults_are_the_tables_defaults() -> None:
    """Options / House rules: the defaults of both tables."""
    assert Options().as_dict() == {
        "target": 500, "scoring": "standard", "mode": "individual", "two_handed_rules": True,
        "wd4_bluffing": "allow", "illegal_play": "reject", "agent_p_draws_from": "discard",
        "hand_size": 7, "stacking": "off", "seven_zero": False, "jump_in": False,
        "draw_until_playable": False, "force_play": False,
    }
    assert Options.from_mapping({}) == Options()


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"target": "250"}, {"target": 250}),
        ({"target": 2.5}, {"target": 2.5}),
        ({"target": "1e3"}, {"target": 1000}),
        ({"hand_size": "1"}, {"hand_size": 1}),
        ({"hand_size": 15}, {"hand_size": 15}),
        ({"seven_zero": "true", "jump_in": "False"}, {"seven_zero": True}),
        ({"stacking": "plus4_on_plus2", "mode": "elimination"},
         {"stacking": "plus4_on_plus2", "mode": "elimination"}),
        ({"two_handed_rules": False}, {"two_handed_rules": False}),
    ],
)
def test_opt_values_accepted(values: dict[str, Any], expected: dict[str, Any]) -> None:
    """Options: every edition accepts every option; values may be typed or strings."""
    assert Options.from_mapping(values).changed() == expected


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"targett": 100}, "targett"),
        ({"stackin": "progressive"}, "stackin"),
        ({"target": 0}, "target"),
        ({"target": -5}, "target"),
        ({"target": "abc"}, "target"),
        ({"target": float("inf")}, "target"),
        ({"target": float("nan")}, "target"),
        ({"target": True}, "target"),
        ({"target": None}, "target"),
        ({"scoring": "lowest"}, "scoring"),
        ({"mode": "teams"}, "mode"),
        ({"two_handed_rules": "yes"}, "two_handed_rules"),
        ({"two_handed_rules": 1}, "two_handed_rules"),
        ({"wd4_bluffing": "no"}, "wd4_bluffing"),
        ({"illegal_play": "punish"}, "illegal_play"),
        ({"agent_p_draws_from": "hand"}, "agent_p_draws_from"),
        ({"hand_size": 0}, "hand_size"),
        ({"hand_size": 16}, "hand_size"),
        ({"hand_size": 2.5}, "hand_size"),
        ({"hand_size": "seven"}, "hand_size"),
        ({"stacking": "on"}, "stacking"),
        ({"stacking": True}, "stacking"),
        ({"seven_zero": "maybe"}, "seven_zero"),
        ({"jump_in": None}, "jump_in"),
        ({"draw_until_playable": 0}, "draw_until_playable"),
        ({"force_play": "on"}, "force_play"),
        ({"target": 1e9}, "target"),
        ({"target": 100_001}, "target"),
        ({"target": float("nan")}, "target"),
    ],
)
def test_opt_unknown_option_or_bad_value_is_an_error(values: dict[str, Any], named: str) -> None:
    """Options: an unknown option or a bad value raises OptionError naming it."""
    with pytest.raises(OptionError) as info:
        Options.from_mapping(values)
    assert named in str(info.value)


@pytest.mark.parametrize(
    ("values", "named"),
    [({"stacking": "maybe"}, "stacking"), ({"hand_size": 50}, "hand_size"),
     ({"mode": "team"}, "mode"), ({"target": 0}, "target"), ({"jump_in": "yes"}, "jump_in")],
)
def test_opt_the_constructor_checks_values_as_from_mapping_does(values: dict[str, Any],
                                                                named: str) -> None:
    """Options: ``Options(...)`` refuses a bad value at once, naming it (not later, in a game),
    and reads text values as :meth:`Options.from_mapping` does."""
    with pytest.raises(OptionError, match=named):
        Options(**values)
    assert Options(target="250", jump_in="true") == Options.from_mapping({"target": 250, "jump_in": True})
    assert Options(target=MAX_TARGET).target == MAX_TARGET


def test_opt_options_must_be_a_mapping_or_an_options() -> None:
    """Options: a list of options, or a dict where an Options is needed, is a clear error."""
    with pytest.raises(OptionError, match="mapping"):
        Options.from_mapping(["target=1"])  # type: ignore[arg-type]
    # (The compiled build refuses the wrong type at the call, with mypyc's own message.)
    with pytest.raises(TypeError, match="Options"):
        Game.new("classic", 2, {"target": 100}, seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="int"):
        Game.new("classic", "2", seed=1)  # type: ignore[arg-type]


def test_opt_from_strings_needs_name_equals_value() -> None:
    """Options: command-line options are ``name=value``."""
    parsed = Options.from_strings(["target=100", "force_play=true"])
    assert parsed.changed() == {"target": 100, "force_play": True}
    with pytest.raises(OptionError):
        Options.from_strings(["target"])
    with pytest.raises(OptionError):
        Options.from_strings(["=5"])


@pytest.mark.parametrize("players", [2, 3, 5, 7, 9])
def test_opt_mode_partners_needs_4_6_8_or_10_players(players: int) -> None:
    """M2/Options: partners need 4, 6, 8 or 10 players; any other count is an OptionError."""
    opts = Options.from_mapping({"mode": "partners"})
    with pytest.raises(OptionError, match="partners"):
        Game.new("classic", players, opts, seed=1)
    with pytest.raises(OptionError, match="partners"):
        Game.from_setup(hands=[["R1"]] * players, discard="R4", draw=[], options=opts)
    for ok in (4, 6, 8, 10):
        assert Game.new("classic", ok, opts, seed=1).scores == [0] * (ok // 2)


@pytest.mark.parametrize("players", [0, 1, 11])
def test_opt_players_2_to_10(players: int) -> None:
    """Cards and notation: 2 to 10 players."""
    with pytest.raises(OptionError):
        Game.new("classic", players, seed=1)


def test_opt_hand_size_too_large_for_the_deck() -> None:
    """Options: a hand_size that the deck cannot deal to every player (plus a card to turn up)
    is refused; the largest that fits is dealt."""
    with pytest.raises(OptionError, match="hand_size"):
        Game.new("classic", 10, Options.from_mapping({"hand_size": 11}), seed=1)
    game = Game.new("classic", 10, Options.from_mapping({"hand_size": 10}), seed=1)
    assert sum(len(h) for h in game.hands) >= 100


def test_opt_unknown_edition() -> None:
    """Editions: only classic, cars2 and phineas-ferb."""
    with pytest.raises(OptionError, match="edition"):
        Game.new("deluxe", 3, seed=1)


# --------------------------------------------------------------------------- Options table


def test_opt_target_ends_the_game_when_reached() -> None:
    """Options target: the match ends when the target is reached (any positive number)."""
    game = setup([["R1"], ["R5", "G6"]], "R4", ["G1"], dealer=1, target=11)
    play(game, (0, "R1"))
    assert (game.awaiting, game.winners) == ("game_over", [0])
    game = setup([["R1"], ["R5", "G6"]], "R4", ["G1"], dealer=1, target=11.5)
    play(game, (0, "R1"))
    assert game.awaiting == "round_over"


def test_opt_scoring_alternative() -> None:
    """Options scoring alternative (E3): each player adds their own hand's points."""
    game = setup([["R1"], ["R5", "G6"]], "R4", ["G1"], dealer=1, scoring="alternative", target=11)
    play(game, (0, "R1"))
    assert (game.scores, game.awaiting, game.winners) == ([0, 11], "game_over", [0])


def test_opt_mode_partners_and_elimination() -> None:
    """Options mode: partners (M2) keeps totals per team; elimination (M4) per seat, own hands."""
    game = setup([["R1"], ["G5"], ["R2", "R3"], ["B1"]], "R4", ["G1"], dealer=3, mode="partners")
    play(game, (0, "R1"))
    assert game.scores == [6, 0]
    game = setup([["R1"], ["G5"], ["R2", "R3"], ["B1"]], "R4", ["G1"], dealer=3, mode="elimination")
    play(game, (0, "R1"))
    assert game.scores == [0, 5, 5, 1]


def test_opt_two_handed_rules_false() -> None:
    """Options two_handed_rules false: a Reverse with two players flips the direction."""
    game = setup([["RR", "R1"], ["R5", "G6"]], "R4", ["G1"], dealer=1, two_handed_rules=False)
    play(game, (0, "RR"))
    assert (game.turn, game.direction) == (1, -1)
    play(game, (1, "R5"))
    assert game.turn == 0


def test_opt_wd4_bluffing_forbid_refuses_illegal_and_has_no_challenge() -> None:
    """Options wd4_bluffing forbid ("No Bluffing"): an illegal Wild Draw Four is refused; a legal
    one is drawn at once, with no challenge."""
    game = setup([["W+4", "R2", "B5"], ["R5", "G6"], ["B1"]], "R4", ["G1", "G2", "G3", "G4"], dealer=2,
                 wd4_bluffing="forbid")
    msg = refused(game, 0, "W+4=G")
    assert "Wild Draw Four" in msg
    game = setup([["W+4", "G2", "B5"], ["R5", "G6"], ["B1"]], "R4", ["G1", "G2", "G3", "G4"], dealer=2,
                 wd4_bluffing="forbid")
    play(game, (0, "W+4=G"))
    assert (game.turn, game.awaiting, game.hand_sizes()) == (2, "play", [2, 6, 1])
    refused(game, 1, "challenge")


def test_opt_wd4_bluffing_forbid_with_agent_p_asks_without_challenge() -> None:
    """Options wd4_bluffing forbid in phineas-ferb: the attacked seat is asked (Agent P), with no
    challenge offered."""
    game = setup([["W+4", "G2", "B5"], ["R5", "G6"], ["B1"]], "R4", ["G1", "G2", "G3", "G4"], dealer=2,
                 edition="phineas-ferb", wd4_bluffing="forbid")
    play(game, (0, "W+4=G"))
    assert (game.awaiting, legal(game, 1)) == ("respond", ["accept"])


def test_opt_illegal_play_penalize() -> None:
    """Options illegal_play penalize (P5): a wrong card costs 2 cards and the turn."""
    game = setup([["G2", "B5"], ["R5", "G6"]], "R4", ["G1", "G3", "G4"], dealer=1, illegal_play="penalize")
    game.apply(0, "B5")
    assert (hand(game, 0), game.turn) == (["B5", "G1", "G2", "G3"], 1)


def test_opt_agent_p_draws_from_draw() -> None:
    """Options agent_p_draws_from draw (C6): the attacker draws from the draw pile."""
    game = setup([["R+2", "G3"], ["WP", "Y5"]], "R4", ["G9", "G8"], dealer=1, edition="phineas-ferb",
                 agent_p_draws_from="draw")
    play(game, (0, "R+2"), (1, "WP=B!"))
    assert hand(game, 0) == ["G3", "G8", "G9"]


@pytest.mark.parametrize(("players", "size"), [(2, 1), (2, 15), (4, 3), (7, 15), (10, 10)])
def test_opt_hand_size_deals_that_many(players: int, size: int) -> None:
    """Options hand_size (S2): each player is dealt that many cards."""
    for edition in ("classic", "cars2", "phineas-ferb"):
        game = Game.new(edition, players, Options.from_mapping({"hand_size": size}), seed=size)
        sizes = game.hand_sizes()
        first = [s for s in range(players) if sizes[s] != size]
        # Only the dealer's left neighbour may hold 2 more (a Draw Two turned up).
        assert sizes.count(size) >= players - 1
        assert all(sizes[s] == size + 2 for s in first)


# --------------------------------------------------------------------------- stacking


def _stack_game(stacking: str) -> Game:
    return setup([["R+2", "G1", "G2"], ["B+2", "Y1", "Y2"], ["G+2", "B5", "B6"], ["W+4", "R9", "R8"]], "R4",
                 [f"{c}{n}" for c in "YB" for n in (3, 4, 6, 7, 8, 9)], dealer=3, stacking=stacking)


def test_house_stacking_progressive_draw_two_on_draw_two() -> None:
    """House stacking progressive: a player who must draw from a Draw Two may play a Draw Two
    (any colour); the total passes on; the first who cannot add draws it all and loses the turn;
    a Wild Draw Four may not be added on a Draw Two."""
    game = _stack_game("progressive")
    play(game, (0, "R+2"))
    assert (game.turn, game.awaiting, game.pending) == (1, "respond", 2)
    assert sorted(legal(game, 1)) == ["B+2", "accept"]
    play(game, (1, "B+2"))
    assert (game.turn, game.pending, color(game)) == (2, 4, "B")
    play(game, (2, "G+2"))
    assert (game.turn, game.pending) == (3, 6)
    assert legal(game, 3) == ["accept"]
    refused(game, 3, "W+4=R")
    play(game, (3, "accept"))
    assert game.hand_sizes() == [2, 2, 2, 9]
    assert (game.turn, game.awaiting, game.pending) == (0, "play", 0)


def test_house_stacking_may_decline_to_add() -> None:
    """House stacking: the player who will not add draws the total."""
    game = _stack_game("progressive")
    play(game, (0, "R+2"), (1, "accept"))
    assert (game.hand_sizes(), game.turn) == ([2, 5, 3, 3], 2)


def test_house_stacking_wild_draw_four_on_wild_draw_four() -> None:
    """House stacking progressive: on a Wild Draw Four a Wild Draw Four may be added; a Draw Two
    never."""
    draw = [f"Y{n}" for n in range(1, 10)]
    game = setup([["W+4", "G1", "G3"], ["W+4", "B+2", "Y+2", "G2"], ["B1"]], "R4", draw, dealer=2,
                 stacking="progressive")
    play(game, (0, "W+4=B"))
    assert sorted(legal(game, 1)) == sorted(["accept", "challenge", *(f"W+4={c}" for c in "RYGB")])
    refused(game, 1, "B+2")
    play(game, (1, "W+4=R"))
    assert (game.turn, game.pending) == (2, 8)
    play(game, (2, "accept"))
    assert (game.hand_sizes(), game.turn) == ([2, 3, 9], 0)


def test_house_stacking_plus4_on_plus2() -> None:
    """House stacking plus4_on_plus2: as progressive, and a Wild Draw Four may be added on a Draw
    Two (never a Draw Two on a Wild Draw Four); a legal one survives the challenge."""
    game = _stack_game("plus4_on_plus2")
    play(game, (0, "R+2"), (1, "B+2"), (2, "G+2"))
    assert "W+4=Y" in legal(game, 3)
    play(game, (3, "W+4=Y"))
    assert (game.turn, game.pending) == (0, 10)
    assert sorted(legal(game, 0)) == ["accept", "challenge"]
    play(game, (0, "challenge"))  # legal: seat 3 held no green card
    assert (game.hand_sizes(), game.turn, color(game)) == ([14, 2, 2, 2], 1, "Y")
    game = setup([["W+4", "G1"], ["B+2", "G2", "B3"], ["B1"]], "R4", ["Y1", "Y2", "Y3", "Y4"], dealer=2,
                 stacking="plus4_on_plus2")
    play(game, (0, "W+4=B"))
    refused(game, 1, "B+2")


def test_house_stacking_bluff_challenged_the_bluffer_takes_the_total() -> None:
    """House stacking (settled): a caught bluffer draws the whole pending total; the challenger
    then plays."""
    draw = [f"Y{n}" for n in range(1, 10)]
    game = setup([["R+2", "G1"], ["W+4", "R5", "Y1"], ["B1", "G9"]], "R4", draw, dealer=2,
                 stacking="plus4_on_plus2")
    play(game, (0, "R+2"), (1, "W+4=G"), (2, "challenge"))
    assert (game.hand_sizes(), game.turn, game.awaiting, color(game)) == ([1, 8, 2], 2, "play", "G")


def test_house_stacking_legal_challenged_the_challenger_takes_total_plus_2() -> None:
    """House stacking (settled): a failed challenge costs the whole total + 2, and the turn."""
    draw = [f"Y{n}" for n in range(1, 10)]
    game = setup([["W+4", "G1"], ["W+4", "B5", "Y1"], ["B1", "G9"]], "R4", draw, dealer=2,
                 stacking="progressive")
    play(game, (0, "W+4=G"), (1, "W+4=R"), (2, "challenge"))
    assert (game.hand_sizes(), game.turn) == ([1, 2, 12], 0)


def test_house_stacking_agent_p_sends_the_total_to_the_attacker() -> None:
    """House stacking with C6 (settled): Agent P sends the whole total to the attacker (the last
    player who added), taken from under the Agent P then from the draw pile."""
    game = setup([["R+2", "G1", "G2"], ["B+2", "Y1", "Y2"], ["WP", "B5", "B6"]], "R4", ["G9", "G8"],
                 dealer=2, edition="phineas-ferb", stacking="progressive")
    play(game, (0, "R+2"), (1, "B+2"), (2, "WP=Y"))
    assert hand(game, 1) == ["B+2", "G9", "R+2", "R4", "Y1", "Y2"]
    assert ([card_str(c) for c in game.discard], game.turn, game.awaiting) == (["WP"], 0, "play")


def test_house_stacking_going_out_on_a_stack() -> None:
    """House stacking with E1 (settled): going out on an added draw card, the next player draws
    the whole total."""
    game = setup([["R+2", "G1", "G2"], ["B+2"], ["B5"]], "R4", ["G9", "G8", "G7", "G6"], dealer=2,
                 stacking="progressive")
    play(game, (0, "R+2"), (1, "B+2"))
    assert (game.awaiting, game.round_winner) == ("round_over", 1)
    assert hand(game, 2) == ["B5", "G6", "G7", "G8", "G9"]


def test_house_stacking_off_draw_two_applies_at_once() -> None:
    """House stacking off (default): a Draw Two is drawn at once in classic."""
    game = setup([["R+2", "G1", "G2"], ["B+2", "Y1"], ["B5"]], "R4", ["G9", "G8"], dealer=2)
    play(game, (0, "R+2"))
    assert (game.turn, game.awaiting, game.hand_sizes()) == (2, "play", [2, 4, 1])


# --------------------------------------------------------------------------- seven_zero


def test_house_seven_zero_seven_swaps_hands() -> None:
    """House seven_zero: playing a 7, you swap hands with a player of your choice."""
    game = setup([["R7", "G1", "G2"], ["B1", "B2", "B3", "B4"], ["Y1", "Y2"]], "R4", ["G9"], dealer=2,
                 seven_zero=True)
    play(game, (0, "R7"))
    assert (game.turn, game.awaiting) == (0, "swap")
    assert sorted(legal(game, 0)) == ["swap 1", "swap 2"]
    for action in ("swap 0", "swap 3", "draw", "G1"):
        refused(game, 0, action)
    refused(game, 1, "B1")
    play(game, (0, "swap 1"))
    assert (hand(game, 0), hand(game, 1)) == (["B1", "B2", "B3", "B4"], ["G1", "G2"])
    assert (game.turn, game.awaiting, top(game)) == (1, "play", "R7")


def test_house_seven_zero_zero_passes_every_hand_on() -> None:
    """House seven_zero: playing a 0, every player passes their hand to the next player in the
    direction of play."""
    hands = [["R0", "G1", "G2"], ["B1", "B2"], ["Y1", "Y2", "Y3"], ["R9", "W", "G7", "G8"]]
    game = setup(hands, "R4", ["G9"], dealer=3, seven_zero=True)
    play(game, (0, "R0"))
    assert [hand(game, s) for s in range(4)] == [
        sorted(hands[3]), ["G1", "G2"], sorted(hands[1]), sorted(hands[2])]
    assert game.turn == 1
    # Going right, the hands pass right.
    hands = [["RR", "R0", "G1", "G2"], ["B1", "B2"], ["Y1", "Y2", "Y3"], ["R9", "W", "G7", "G8"]]
    game = setup(hands, "R4", ["G9"], dealer=3, seven_zero=True)
    play(game, (0, "RR"), (3, "R9"), (2, "draw"), (2, "pass"), (1, "draw"), (1, "pass"))
    before = [hand(game, s) for s in range(4)]
    play(game, (0, "R0"))
    assert [hand(game, s) for s in range(4)] == [before[1], before[2], before[3], ["G1", "G2"]]
    assert game.turn == 3


def test_house_seven_zero_last_card_does_nothing() -> None:
    """House seven_zero: a 7 or 0 that is the last card does nothing: the round ends."""
    for last in ("R7", "R0"):
        game = setup([[last], ["B1", "B2"], ["Y1"]], "R4", ["G9"], dealer=2, seven_zero=True)
        play(game, (0, last))
        assert (game.awaiting, game.hand_sizes()) == ("round_over", [0, 2, 1])


def test_house_seven_zero_one_card_by_a_swap_must_call_uno() -> None:
    """House seven_zero: a hand that drops to one card by a swap must call UNO (and may be
    caught until the next player begins)."""
    game = setup([["R7", "G1"], ["B1", "B2", "B3"], ["Y1", "Y2"]], "R4", ["G9", "G8"], dealer=2,
                 seven_zero=True)
    play(game, (0, "R7!"), (0, "swap 1"))
    assert hand(game, 1) == ["G1"]
    assert (game.owed, game.window) == ([False, True, False], [1])
    assert "catch 1" in legal(game, 2) and "uno" in legal(game, 1)
    play(game, (2, "catch 1"))
    assert game.hand_sizes() == [3, 3, 2]
    # Or they call it.
    game = setup([["R7", "G1"], ["B1", "B2", "B3"], ["Y1", "Y2"]], "R4", ["G9", "G8"], dealer=2,
                 seven_zero=True)
    play(game, (0, "R7"), (0, "swap 1"), (1, "uno"))
    refused(game, 2, "catch 1")
    refused(game, 0, "catch 1")


def test_house_seven_zero_one_card_by_the_zero_must_call_uno() -> None:
    """House seven_zero: a hand that drops to one card by a 0's passing must call UNO."""
    game = setup([["R0", "G1"], ["B1", "B2", "B3"], ["Y1", "Y2"]], "R4", ["G9", "G8"], dealer=2,
                 seven_zero=True)
    play(game, (0, "R0!"))
    assert hand(game, 1) == ["G1"]
    assert game.owed == [False, True, False] and 1 in game.window
    play(game, (1, "uno"))
    assert not any(game.owed)


def test_house_seven_zero_off_seven_and_zero_are_plain() -> None:
    """House seven_zero off (default): 7 and 0 are plain numbers."""
    game = setup([["R7", "G1", "G2"], ["B1", "B2", "B3", "B4"], ["Y1"]], "R4", ["G9"], dealer=2)
    play(game, (0, "R7"))
    assert (game.turn, game.awaiting, game.hand_sizes()) == (1, "play", [2, 4, 1])


# --------------------------------------------------------------------------- jump_in


def test_house_jump_in_identical_card_out_of_turn() -> None:
    """House jump_in: out of turn, a player holding a card identical to the top card (same colour
    and number or symbol) may play it; play continues from them."""
    game = setup([["R1", "G2"], ["B1", "B2"], ["R4", "Y3", "B4"], ["B9", "G7"]], "R4", ["G9"], dealer=3,
                 jump_in=True)
    assert game.turn == 0
    assert "R4" in legal(game, 2)
    refused(game, 2, "B4")  # same number, other colour
    refused(game, 1, "B1")
    play(game, (2, "R4"))
    assert (game.turn, top(game), hand(game, 2)) == (3, "R4", ["B4", "Y3"])


def test_house_jump_in_with_a_symbol_keeps_its_effect() -> None:
    """House jump_in: a jumped-in Skip skips the player after the one who jumped in."""
    game = setup([["RS", "G2", "G3"], ["B1", "B2"], ["Y3", "Y4"], ["RS", "B9", "G7"]], "R4", ["G9"],
                 dealer=3, jump_in=True)
    play(game, (0, "RS"))
    assert game.turn == 2
    play(game, (3, "RS"))
    assert (game.turn, hand(game, 3)) == (1, ["B9", "G7"])


def test_house_jump_in_never_with_a_wild() -> None:
    """House jump_in: never with a wild."""
    game = setup([["W", "G2"], ["B1", "B2"], ["W", "Y3"]], "R4", ["G9"], dealer=2, jump_in=True)
    play(game, (0, "W=G"))
    refused(game, 2, "W=G")


def test_house_jump_in_off() -> None:
    """House jump_in off (default): an identical card out of turn is refused."""
    game = setup([["R1", "G2"], ["B1", "B2"], ["R4", "Y3"]], "R4", ["G9"], dealer=2)
    refused(game, 2, "R4")


# --------------------------------------------------------------------------- draw_until_playable


def test_house_draw_until_playable_keeps_drawing() -> None:
    """House draw_until_playable: a player who draws keeps drawing until they draw a playable
    card (which they may then play, or keep)."""
    game = setup([["G1", "G2"], ["B1"]], "R4", ["B7", "Y2", "R7", "G9"], dealer=1, draw_until_playable=True)
    play(game, (0, "draw"))
    assert hand(game, 0) == ["B7", "G1", "G2", "R7", "Y2"]
    assert sorted(legal(game, 0)) == ["R7", "pass"]
    assert draw_top_first(game) == ["G9"]


def test_house_draw_until_playable_stops_when_the_piles_run_dry() -> None:
    """House draw_until_playable with T6: with no playable card left anywhere, the drawing stops
    and play goes on."""
    game = setup([["G1", "G2"], ["B1"]], "R4", ["B7", "Y2"], dealer=1, draw_until_playable=True)
    play(game, (0, "draw"))
    assert (hand(game, 0), legal(game, 0)) == (["B7", "G1", "G2", "Y2"], ["pass"])
    play(game, (0, "pass"))
    assert game.turn == 1


def test_house_draw_until_playable_skips_a_forbidden_wild_draw_four() -> None:
    """House draw_until_playable with wd4_bluffing forbid: an illegal Wild Draw Four is not
    playable, so the drawing goes on."""
    game = setup([["R1", "G2"], ["B1"]], "R4", ["W+4", "B3", "R9"], dealer=1, draw_until_playable=True,
                 wd4_bluffing="forbid")
    play(game, (0, "draw"))
    assert hand(game, 0) == ["B3", "G2", "R1", "R9", "W+4"]


# --------------------------------------------------------------------------- force_play


def test_house_force_play_a_playable_drawn_card_must_be_played() -> None:
    """House force_play: a drawn card that is playable must be played; an unplayable one is kept."""
    game = setup([["G1", "G2"], ["B1"]], "R4", ["R9", "B3"], dealer=1, force_play=True)
    play(game, (0, "draw"))
    assert legal(game, 0) == ["R9"]
    refused(game, 0, "pass")
    game = setup([["G1", "G2"], ["B1"]], "R4", ["B3", "R9"], dealer=1, force_play=True)
    play(game, (0, "draw"))
    assert legal(game, 0) == ["pass"]


def test_house_force_play_a_drawn_bluff_is_not_forced() -> None:
    """House force_play (settled): a drawn Wild Draw Four that would be a bluff is not forced;
    a legal one is."""
    game = setup([["R1", "G2"], ["B1"]], "R4", ["W+4", "B3"], dealer=1, force_play=True)
    play(game, (0, "draw"))
    assert sorted(legal(game, 0)) == sorted(["pass", *(f"W+4={c}" for c in "RYGB")])
    game = setup([["B1", "G2"], ["B1"]], "R4", ["W+4", "B3"], dealer=1, force_play=True)
    play(game, (0, "draw"))
    assert sorted(legal(game, 0)) == sorted(f"W+4={c}" for c in "RYGB")


def test_house_seven_zero_passes_over_seats_that_are_out() -> None:
    """House seven_zero with M4: a seat that is out is no swap partner and is passed over when
    the hands pass on."""
    hands = [["R7", "R0", "G1"], [], ["B1", "B2"], ["Y1", "Y2", "Y3"]]
    game = setup(hands, "R4", ["G9"], dealer=3, seven_zero=True, mode="elimination", eliminated=[1])
    play(game, (0, "R7"))
    assert sorted(legal(game, 0)) == ["swap 2", "swap 3"]
    refused(game, 0, "swap 1")
    game = setup(hands, "R4", ["G9"], dealer=3, seven_zero=True, mode="elimination", eliminated=[1])
    play(game, (0, "R0"))
    assert [hand(game, s) for s in range(4)] == [["Y1", "Y2", "Y3"], [], ["G1", "R7"], ["B1", "B2"]]
    assert game.turn == 2
