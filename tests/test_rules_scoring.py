"""E1–E3 (end of a round, scoring) and M1–M4 (two players, partners, rotation, elimination)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from conftest import assert_whole_deck, hand, legal, play, refused, setup
from unokit import Game, IllegalActionError, Options
from unokit.bots import RandomBot, play_round
from unokit.core.cards import hand_points
from unokit.core.options import MAX_TARGET

# --------------------------------------------------------------------------- E1


def test_e1_the_round_ends_as_soon_as_a_player_has_no_cards() -> None:
    """E1: the round ends as soon as a player has no cards; nothing more can be played in it."""
    game = setup([["R1"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G2"], dealer=2)
    play(game, (0, "R1"))
    assert (game.awaiting, game.round_winner) == ("round_over", 0)
    for seat in range(3):
        assert legal(game, seat) == []
    for seat, action in ((1, "R5"), (1, "draw"), (2, "R7"), (1, "uno"), (2, "catch 0")):
        refused(game, seat, action)


def test_e1_last_card_draw_two_the_next_player_draws_and_they_count() -> None:
    """E1: if the last card is a Draw Two, the next player first draws 2, and those cards count."""
    game = setup([["R+2"], ["R5", "G6"], ["R7", "Y8"]], "R4", ["G1", "G2", "G3"], dealer=2)
    play(game, (0, "R+2"))
    assert hand(game, 1) == ["G1", "G2", "G6", "R5"]
    assert game.scores == [5 + 6 + 1 + 2 + 7 + 8, 0, 0]


@pytest.mark.parametrize("edition", ["classic", "phineas-ferb"])
def test_e1_last_card_wild_draw_four_no_challenge_no_agent_p(edition: str) -> None:
    """E1: a last Wild Draw Four: the next player draws 4 first, with no challenge and no Agent P
    answer, and those cards count."""
    answer = "WP" if edition == "phineas-ferb" else "W"
    game = setup([["W+4", "R9"], [answer, "R6"], ["R7"]], "R4", ["G1", "G2", "G3", "G4", "G5"],
                 dealer=2, edition=edition)
    play(game, (0, "R9"), (1, "R6"), (2, "draw"), (2, "pass"))
    play(game, (0, "W+4=G"))
    assert game.awaiting == "round_over"
    assert hand(game, 1) == sorted([answer, "G2", "G3", "G4", "G5"])
    assert game.scores == [50 + 2 + 3 + 4 + 5 + 7 + 1, 0, 0]


def test_e1_last_card_draw_two_two_players() -> None:
    """E1 with M1: going out on a Draw Two, the other player draws 2."""
    game = setup([["R+2"], ["R5"]], "R4", ["G1", "G2"], dealer=1)
    play(game, (0, "R+2"))
    assert (game.hand_sizes(), game.scores) == ([0, 3], [8, 0])


# --------------------------------------------------------------------------- E2


def test_e2_points_face_value_symbols_20_wilds_50() -> None:
    """E2: the winner scores the cards left in the opponents' hands: face value, symbols 20,
    wilds (W, W+4, WM) 50."""
    game = setup([["R1"], ["R0", "Y9", "GS", "BR", "R+2", "W", "W+4"], ["WM", "B3"]], "R4", ["G1"],
                 dealer=2, edition="cars2")
    play(game, (0, "R1"))
    assert game.scores == [0 + 9 + 20 + 20 + 20 + 50 + 50 + 50 + 3, 0, 0]
    game = setup([["R1"], ["WP"]], "R4", ["G1"], dealer=1, edition="phineas-ferb")
    play(game, (0, "R1"))
    assert game.scores == [50, 0]


def test_e2_below_the_target_the_match_goes_on() -> None:
    """E2: below the target the round is over but not the match; the totals carry over."""
    game = setup([["R1"], ["R5", "G6"], ["R7"]], "R4", ["G1"], dealer=2, scores=[100, 30, 450])
    play(game, (0, "R1"))
    assert (game.awaiting, game.scores, game.winners) == ("round_over", [118, 30, 450], [])
    game.start_round()
    assert game.awaiting in ("play", "color")
    assert game.scores == [118, 30, 450]
    assert_whole_deck(game)


@pytest.mark.parametrize(("before", "over"), [(489, False), (490, True), (495, True)])
def test_e2_the_first_to_reach_the_target_wins(before: int, over: bool) -> None:
    """E2: the first player to reach 500 (reaching it exactly counts) wins the game."""
    game = setup([["R1"], ["R5", "G5"]], "R4", ["G1"], dealer=1, scores=[before, 499])
    play(game, (0, "R1"))
    assert game.scores == [before + 10, 499]
    assert game.awaiting == ("game_over" if over else "round_over")
    assert game.winners == ([0] if over else [])
    if over:
        assert game.is_over
        with pytest.raises(IllegalActionError):
            game.start_round()


# --------------------------------------------------------------------------- E3


def test_e3_each_player_adds_their_own_hand() -> None:
    """E3: with alternative scoring each player adds the points left in their own hand."""
    game = setup([["R1"], ["R5", "G6"], ["W", "Y8"]], "R4", ["G1"], dealer=2, scoring="alternative",
                 scores=[10, 20, 30])
    play(game, (0, "R1"))
    assert (game.scores, game.awaiting, game.round_winner) == ([10, 31, 88], "round_over", 0)


def test_e3_when_anyone_reaches_the_target_the_lowest_total_wins() -> None:
    """E3: when anyone reaches the target, the player with the lowest total wins (not
    necessarily the one who went out)."""
    game = setup([["R1"], ["R5"], ["W", "Y8"]], "R4", ["G1"], dealer=2, scoring="alternative",
                 scores=[200, 100, 450])
    play(game, (0, "R1"))
    assert game.scores == [200, 105, 508]
    assert (game.awaiting, game.winners) == ("game_over", [1])


def test_e3_players_tied_for_lowest_share_the_win() -> None:
    """E3 settled: players tied for the lowest total share the win."""
    game = setup([["R1"], ["R5"], ["W", "Y8"]], "R4", ["G1"], dealer=2, scoring="alternative",
                 scores=[105, 100, 450])
    play(game, (0, "R1"))
    assert game.scores == [105, 105, 508]
    assert sorted(game.winners) == [0, 1]


# --------------------------------------------------------------------------- M1


def test_m1_reverse_acts_as_a_skip() -> None:
    """M1: with two players a Reverse acts as a Skip: its player plays again; the direction
    does not change."""
    game = setup([["RR", "R1", "G1"], ["R5", "G6"]], "R4", ["Y1"], dealer=1)
    play(game, (0, "RR"))
    assert (game.turn, game.direction, game.awaiting) == (0, 1, "play")
    play(game, (0, "R1"))
    assert game.turn == 1


def test_m1_skip_the_same_player_plays_again() -> None:
    """M1: after a Skip the same player plays again."""
    game = setup([["RS", "R1", "G1"], ["R5", "G6"]], "R4", ["Y1"], dealer=1)
    play(game, (0, "RS"))
    assert game.turn == 0


def test_m1_after_a_draw_card_is_drawn_play_is_back_with_its_player() -> None:
    """M1: after a Draw Two or Wild Draw Four has been drawn, play is back with its player."""
    game = setup([["R+2", "R1", "G1"], ["R5", "G6"]], "R4", ["Y1", "Y2"], dealer=1)
    play(game, (0, "R+2"))
    assert (game.turn, game.hand_sizes()) == (0, [2, 4])
    game = setup([["W+4", "B1", "G1"], ["R5", "G6"]], "R4", ["Y1", "Y2", "Y3", "Y4"], dealer=1)
    play(game, (0, "W+4=B"), (1, "accept"))
    assert (game.turn, game.hand_sizes()) == (0, [2, 6])


def test_m1_legal_wild_draw_four_challenged_play_is_back_with_its_player() -> None:
    """M1 with P3: the challenger who draws 6 loses the turn, so play is back with the attacker;
    a caught bluffer draws 4 and the challenger plays."""
    draw = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]
    game = setup([["W+4", "B1", "G1"], ["R5", "G6"]], "R4", draw, dealer=1)
    play(game, (0, "W+4=B"), (1, "challenge"))
    assert (game.turn, game.hand_sizes()) == (0, [2, 8])
    game = setup([["W+4", "R1", "G1"], ["R5", "G6"]], "R4", draw, dealer=1)
    play(game, (0, "W+4=B"), (1, "challenge"))
    assert (game.turn, game.hand_sizes()) == (1, [6, 2])


def test_m1_off_reverse_flips_the_direction() -> None:
    """M1 off (two_handed_rules false): a Reverse flips the direction, so with two players the
    other player is next."""
    game = setup([["RR", "R1", "G1"], ["R5", "G6"]], "R4", ["Y1", "Y2"], dealer=1, two_handed_rules=False)
    play(game, (0, "RR"))
    assert (game.turn, game.direction) == (1, -1)
    game = setup([["RS", "R1", "G1"], ["R5", "G6"]], "R4", ["Y1", "Y2"], dealer=1, two_handed_rules=False)
    play(game, (0, "RS"))
    assert game.turn == 0  # a Skip with two players comes back round regardless


def test_m1_only_with_two_players() -> None:
    """M1: with three players a Reverse is a Reverse."""
    game = setup([["RR", "R1", "G1"], ["R5", "G6"], ["B1"]], "R4", ["Y1"], dealer=2)
    play(game, (0, "RR"))
    assert (game.turn, game.direction) == (2, -1)


# --------------------------------------------------------------------------- M2


def test_m2_partners_sit_across_and_score_the_opposing_hands() -> None:
    """M2: partners sit across (seat i with i + n/2); when either partner goes out the round ends
    and every card in the opposing players' hands scores for the winning team."""
    game = setup([["R1", "R2"], ["G1", "G2"], ["R3"], ["B4", "W"]], "R4", ["Y1"], dealer=1, mode="partners")
    assert [game.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert game.scores == [0, 0]
    play(game, (2, "R3"))
    assert (game.awaiting, game.round_winner) == ("round_over", 0)
    assert game.scores == [1 + 2 + 4 + 50, 0]


def test_m2_six_players() -> None:
    """M2: with six players the teams are {0, 3}, {1, 4}, {2, 5}."""
    game = setup([["R9"], ["G1"], ["R3", "B3"], ["R1", "R2"], ["Y1"], ["Y2", "Y3"]], "R4", ["Y4"],
                 dealer=4, mode="partners", scores=[10, 20, 30])
    assert [game.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert game.turn == 5
    play(game, (5, "draw"), (5, "pass"), (0, "R9"))
    assert game.round_winner == 0
    assert game.scores == [10 + 1 + 6 + 1 + 2 + 3 + 4, 20, 30]


def test_m2_a_team_wins_at_the_target() -> None:
    """M2: a team wins at the target."""
    game = setup([["R1", "R2"], ["G1", "G2"], ["R3"], ["B4", "W"]], "R4", ["Y1"], dealer=1,
                 mode="partners", scores=[450, 499], target=500)
    play(game, (2, "R3"))
    assert (game.awaiting, game.winners, game.scores) == ("game_over", [0], [507, 499])


def test_m2_partners_with_alternative_scoring_each_team_adds_its_own() -> None:
    """M2 with E3 (settled): each team adds its own members' points; the lowest team wins."""
    game = setup([["R1", "R2"], ["G1", "G2"], ["R3"], ["B4", "W"]], "R4", ["Y1"], dealer=1,
                 mode="partners", scoring="alternative", scores=[0, 480], target=500)
    play(game, (2, "R3"))
    assert game.scores == [3, 480 + 3 + 54]
    assert (game.awaiting, game.winners) == ("game_over", [0])


# --------------------------------------------------------------------------- M3


def test_m3_partner_rotation_with_four_players() -> None:
    """M3: with four players each player partners every other player for 4 hands (12 hands);
    each keeps the points scored in each partnership; the highest total wins.

    The engine plays each hand as a partners round (seat i with i + 2); the rotation is the
    table's arrangement of players into seats. This checks that a partners round credits its
    points to the team, so that both partners' partnership totals get them.
    """
    players = ["a", "b", "c", "d"]
    pairings = [(("a", "b"), ("c", "d")), (("a", "c"), ("b", "d")), (("a", "d"), ("b", "c"))]
    totals: Counter[tuple[str, str]] = Counter()
    hands_played = 0
    for k, ((p1, p2), (q1, q2)) in enumerate(pairings):
        seating = [p1, q1, p2, q2]  # partners across
        for h in range(4):
            game = Game.new("classic", 4, Options.from_mapping({"mode": "partners", "target": MAX_TARGET}),
                            seed=100 * k + h)
            play_round(game, [RandomBot(seed=10 * h + s) for s in range(4)])
            assert game.awaiting == "round_over"
            team = game.round_winner
            assert team in (0, 1)
            won = int(game.scores[team])
            losers = [s for s in range(4) if game.team_of(s) != team]
            assert won == sum(hand_points(game.hands[s]) for s in losers)
            for s in (team, team + 2):
                partner = seating[(s + 2) % 4]
                totals[(seating[s], partner)] += won
            hands_played += 1
    assert hands_played == 12
    partnerships = {(x, y) for x in players for y in players if x != y}
    assert set(totals) <= partnerships
    for x, y in totals:
        assert totals[(x, y)] == totals[(y, x)]


# --------------------------------------------------------------------------- M4


def test_m4_running_total_of_own_hand_and_scoring_is_ignored() -> None:
    """M4: each player's running total is the points left in their own hand at the end of each
    round (whatever ``scoring`` says)."""
    for scoring in ("standard", "alternative"):
        game = setup([["R1"], ["R5", "G6"], ["W", "Y8"]], "R4", ["G1"], dealer=2, mode="elimination",
                     scoring=scoring, scores=[10, 20, 30])
        play(game, (0, "R1"))
        assert (game.scores, game.awaiting, game.eliminated) == ([10, 31, 88], "round_over", [False] * 3)


def test_m4_reaching_the_target_puts_a_player_out() -> None:
    """M4: a player who reaches the target is out of the game; the others go on."""
    game = setup([["R1"], ["R5", "G6"], ["W", "Y8"], ["B1"]], "R4", ["G1"], dealer=3, mode="elimination",
                 scores=[10, 489, 30, 0])
    play(game, (0, "R1"))
    assert game.eliminated == [False, True, False, False]
    assert (game.awaiting, game.winners) == ("round_over", [])
    game.start_round()
    assert game.hand_sizes()[1] == 0
    assert sum(game.hand_sizes()) == 21
    assert_whole_deck(game)
    assert legal(game, 1) == []


def test_m4_out_seats_are_passed_over_as_next_player() -> None:
    """M4: seats that are out are passed over whenever "the next player" is meant: after a play,
    a Skip, a Reverse, a Draw Two and when going out on a draw card (E1)."""
    hands = [["R1", "RS", "R+2", "RR"], [], ["G1", "R2"], ["B1", "R3"]]
    game = setup(hands, "R4", ["Y1", "Y2", "Y3", "Y4"], dealer=3, eliminated=[1], mode="elimination")
    assert game.turn == 0
    play(game, (0, "R1"))
    assert game.turn == 2
    game = setup(hands, "R4", ["Y1", "Y2"], dealer=3, eliminated=[1], mode="elimination")
    play(game, (0, "RS"))
    assert game.turn == 3
    game = setup(hands, "R4", ["Y1", "Y2"], dealer=3, eliminated=[1], mode="elimination")
    play(game, (0, "R+2"))
    assert (game.turn, game.hand_sizes()) == (3, [3, 0, 4, 2])
    game = setup(hands, "R4", ["Y1", "Y2"], dealer=3, eliminated=[1], mode="elimination")
    play(game, (0, "RR"), (3, "R3"))
    assert game.turn == 2
    play(game, (2, "R2"))
    assert game.turn == 0
    game = setup([["R+2"], [], ["G1"]], "R4", ["Y1", "Y2"], dealer=2, eliminated=[1], mode="elimination")
    play(game, (0, "R+2"))
    assert game.hand_sizes() == [0, 0, 3]


def test_m4_out_seats_cannot_act_or_be_acted_on() -> None:
    """M4: a seat that is out holds no cards, has no actions, and is not a target."""
    game = setup([["R1", "R2"], [], ["G1", "R7"]], "R4", ["Y1"], dealer=2, eliminated=[1], mode="elimination")
    assert legal(game, 1) == []
    refused(game, 1, "draw")
    refused(game, 1, "uno")
    before = game.hand_sizes()
    with pytest.raises(IllegalActionError):
        game.apply_host("penalize 1")
    assert game.hand_sizes() == before
    with pytest.raises(Exception, match="eliminated"):
        setup([["R1"], ["G1"], ["B1"]], "R4", [], eliminated=[1], mode="elimination")


def test_m4_the_deal_and_the_dealer_pass_over_out_seats() -> None:
    """M4: out seats are passed over in dealing and in choosing the dealer: the deal passes to
    the next seat still in, and cards are dealt only to seats still in."""
    game = setup([["R1"], [], ["G1", "R7"], ["B1"]], "R4", ["Y1"], dealer=0, eliminated=[1],
                 mode="elimination")
    play(game, (2, "draw"), (2, "pass"), (3, "draw"), (3, "pass"), (0, "R1"))
    assert game.awaiting == "round_over"
    game.start_round()
    assert game.dealer == 2
    assert game.hand_sizes() == [7, 0, 7, 7]
    deck = game.rounds[-1].deck
    assert deck is not None
    assert game.hands[3][:2] == [deck[0], deck[3]]
    assert game.hands[0][:2] == [deck[1], deck[4]]
    assert game.hands[2][:2] == [deck[2], deck[5]]
    with pytest.raises(Exception, match="not an active seat"):
        setup([["R1"], [], ["G1"]], "R4", ["Y1"], dealer=1, eliminated=[1], mode="elimination")


def test_m4_two_left_play_head_to_head_under_m1() -> None:
    """M4: when two remain they play under M1 (a Reverse acts as a Skip)."""
    game = setup([["RR", "R1", "G2"], [], ["R5", "G6"]], "R4", ["Y1"], dealer=2, eliminated=[1],
                 mode="elimination")
    play(game, (0, "RR"))
    assert (game.turn, game.direction) == (0, 1)


def test_m4_head_to_head_the_one_who_reaches_the_target_loses() -> None:
    """M4: head to head, the one who reaches the target loses, and the winner of that final hand
    wins the game."""
    game = setup([["R1"], [], ["R5", "G6"]], "R4", ["Y1"], dealer=2, eliminated=[1], mode="elimination",
                 scores=[499, 600, 489])
    play(game, (0, "R1"))
    assert game.scores == [499, 600, 500]
    assert (game.awaiting, game.winners, game.eliminated) == ("game_over", [0], [False, True, True])


def test_m4_several_out_at_once_leaves_the_winner() -> None:
    """M4: if all but the round's winner reach the target at once, the winner wins."""
    game = setup([["R1"], ["R5"], ["G6"]], "R4", ["Y1"], dealer=2, mode="elimination",
                 scores=[0, 495, 495])
    play(game, (0, "R1"))
    assert (game.awaiting, game.winners, game.eliminated) == ("game_over", [0], [False, True, True])


def test_m4_matches_play_out_to_a_single_winner() -> None:
    """M4: seeded elimination matches end with every seat but the winner out."""
    rng = random.Random(4)
    for seed in range(12):
        n = rng.randint(3, 6)
        game = Game.new("classic", n, Options.from_mapping({"mode": "elimination", "target": 60}), seed=seed)
        bots = [RandomBot(seed=seed * 10 + s) for s in range(n)]
        while not game.is_over:
            play_round(game, bots)
            assert_whole_deck(game)
            for s in range(n):
                assert game.eliminated[s] == (game.scores[s] >= 60)
            if not game.is_over:
                game.start_round()
                assert all(not game.hands[s] for s in range(n) if game.eliminated[s])
        assert len(game.winners) == 1
        assert sum(game.eliminated) == n - 1
        assert not game.eliminated[game.winners[0]]
