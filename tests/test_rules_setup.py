"""S1 (dealer), S2 (deal), S3 (first card) of RULES.md."""

from __future__ import annotations

import random
import types
from collections import Counter
from collections.abc import MutableSequence
from typing import Any, ClassVar

import pytest

import unokit.core.deal
from conftest import assert_whole_deck, color, draw_top_first, hand, legal, play, refused, setup, top
from unokit import Game, Options, card_str, edition_deck, parse_card
from unokit.bench import engine_build
from unokit.core.errors import OptionError
from unokit.core.options import MAX_TARGET

# --------------------------------------------------------------------------- S1


class _ScriptedDealerDraws(random.Random):
    """A ``random.Random`` whose S1 dealer-draw shuffles put scripted cards on top.

    The S1 draws are not visible through the API, so the test scripts them: each shuffle of the
    dealer generator puts the next scripted cards at the top of the deck, in seat order of the
    contenders. Every other generator behaves as usual.
    """

    script: ClassVar[list[list[str]]] = []

    def __init__(self, x: Any = None) -> None:
        super().__init__(x)
        self.dealer_rng = isinstance(x, str) and x.endswith(":dealer")

    def shuffle(self, x: MutableSequence[Any]) -> None:
        if not self.dealer_rng:
            super().shuffle(x)
            return
        assert self.script, "the dealer was drawn for more often than the test scripted"
        wanted = [parse_card(t) for t in self.script.pop(0)]
        rest = list(x)
        for c in wanted:
            rest.remove(c)
        x[:] = wanted + rest


def _dealer_from_draws(monkeypatch: pytest.MonkeyPatch, players: int, *draws: list[str],
                       edition: str = "classic") -> int:
    """The dealer Game.new chooses when the S1 draws give the cards ``draws`` (one list per
    draw, in seat order of the seats that draw)."""
    if engine_build() != "pure Python":
        pytest.skip("scripts S1 by patching unokit.core.deal.random, which the compiled engine binds "
                    "at import")
    _ScriptedDealerDraws.script = [list(d) for d in draws]
    fake = types.SimpleNamespace(Random=_ScriptedDealerDraws, SystemRandom=random.SystemRandom)
    monkeypatch.setattr(unokit.core.deal, "random", fake)
    game = Game.new(edition, players, seed=1)
    assert not _ScriptedDealerDraws.script, "not every scripted draw was used"
    return game.dealer


def test_s1_highest_number_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """S1: each player draws a card; the highest number deals."""
    assert _dealer_from_draws(monkeypatch, 4, ["R3", "G9", "B2", "Y8"]) == 1


def test_s1_symbols_and_wilds_count_as_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    """S1: symbols and wilds count as 0, so a 1 beats a Skip, a Draw Two and a Wild Draw Four."""
    assert _dealer_from_draws(monkeypatch, 5, ["RS", "W+4", "G+2", "Y1", "W"]) == 3
    assert _dealer_from_draws(monkeypatch, 3, ["WM", "B1", "RR"], edition="cars2") == 1


def test_s1_ties_draw_again_among_themselves(monkeypatch: pytest.MonkeyPatch) -> None:
    """S1 settled: the seats tied for highest draw again, among themselves only, until one wins."""
    # Seats 1 and 3 tie on 9; they alone draw again: R5 for seat 1, G7 for seat 3.
    # Had every seat drawn again, seat 1 (with the G7) would deal.
    assert _dealer_from_draws(monkeypatch, 4, ["R3", "G9", "B2", "Y9"], ["R5", "G7"]) == 3


def test_s1_ties_repeat_until_one_is_highest(monkeypatch: pytest.MonkeyPatch) -> None:
    """S1 settled: a tie among the tied seats draws again, as often as needed; a tie on 0 counts."""
    dealer = _dealer_from_draws(monkeypatch, 3, ["RS", "W", "R0"], ["B4", "Y4", "G4"], ["R2", "B2", "Y6"])
    assert dealer == 2


def test_s1_game_new_is_seeded_and_any_seat_may_deal() -> None:
    """S1: Game.new chooses the dealer from the seed: the same seed gives the same match; over
    many seeds every seat deals, about equally often."""
    for players in (2, 3, 4, 7, 10):
        dealers = Counter(Game.new("classic", players, seed=s).dealer for s in range(60 * players))
        assert set(dealers) == set(range(players))
        assert max(dealers.values()) < 2.2 * min(dealers.values())
    a, b = Game.new("cars2", 5, seed=123), Game.new("cars2", 5, seed=123)
    assert (a.dealer, a.hands, a.draw_pile, a.discard) == (b.dealer, b.hands, b.draw_pile, b.discard)
    c = Game.new("cars2", 5, seed=124)
    assert (a.hands, a.draw_pile) != (c.hands, c.draw_pile)


def _s1_value(card: str) -> int:
    """S1, written out again: a number card counts its number; symbols and wilds count 0."""
    return int(card[1]) if len(card) == 2 and card[0] in "RYGB" and card[1].isdigit() else 0


@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_s1_s2_a_streamed_match_draws_for_dealer_and_deals_from_the_stream(players: int) -> None:
    """S1/S2 with ``deal_rng``: the contenders draw the last cards of a shuffled deck (k
    draws, from the deck's end), ties draw again among themselves, then the round is dealt
    from a whole shuffle of the same stream, one card at a time from the dealer's left."""
    deck = [card_str(c) for c in edition_deck("classic")]
    for stream_seed in range(40):
        stream, ref = random.Random(stream_seed), random.Random(stream_seed)
        game = Game.new("classic", players, seed=1, deal_rng=stream)
        # The reference: a partial Fisher-Yates with randrange, and S1 from the card names.
        contenders = list(range(players))
        while len(contenders) > 1:
            cards = list(deck)
            k = len(contenders)
            for i in range(len(cards) - 1, len(cards) - 1 - k, -1):
                j = ref.randrange(i + 1)
                cards[i], cards[j] = cards[j], cards[i]
            values = [_s1_value(c) for c in cards[-k:]]
            contenders = [s for s, v in zip(contenders, values, strict=True) if v == max(values)]
        assert game.dealer == contenders[0]
        shuffled = list(deck)
        ref.shuffle(shuffled)
        for n in range(7):
            for i in range(players):
                seat = (game.dealer + 1 + i) % players
                # Hands keep their dealt cards first (S3 may add cards after them).
                assert card_str(game.hands[seat][n]) == shuffled[n * players + i]
        assert [card_str(c) for c in game.rounds[0].deck or ()] == shuffled  # what the record keeps
        assert stream.getstate() == ref.getstate()  # nothing else was drawn from the stream


def test_s1_a_streamed_match_lets_any_seat_deal_and_each_match_deals_afresh() -> None:
    """S1 with ``deal_rng``: over many matches from one stream every seat deals about equally
    often; the same stream state deals the same match, and a stream without a seed gives the
    match its seed too."""
    for players in (2, 3, 4, 7, 10):
        stream = random.Random(players)
        dealers = Counter(Game.new("classic", players, seed=0, deal_rng=stream).dealer
                          for _ in range(60 * players))
        assert set(dealers) == set(range(players))
        assert max(dealers.values()) < 2.2 * min(dealers.values())
    a = Game.new("cars2", 5, deal_rng=random.Random(9))
    b = Game.new("cars2", 5, deal_rng=random.Random(9))
    assert (a.seed, a.dealer, a.hands, a.draw_pile) == (b.seed, b.dealer, b.hands, b.draw_pile)
    stream = random.Random(9)
    c, d = Game.new("cars2", 5, seed=3, deal_rng=stream), Game.new("cars2", 5, seed=3, deal_rng=stream)
    assert (c.hands, c.draw_pile) != (d.hands, d.draw_pile)
    with pytest.raises(TypeError, match=r"deal_rng must be a random\.Random, not int"):
        Game.new("classic", 2, deal_rng=7)  # type: ignore[arg-type]
    # Bad arguments leave the stream where it was.
    before = stream.getstate()
    for bad in ({"players": 1}, {"players": 10, "options": Options.from_mapping({"hand_size": 15})}):
        with pytest.raises(OptionError):
            Game.new("classic", deal_rng=stream, **bad)  # type: ignore[arg-type]
    assert stream.getstate() == before


def test_s1_a_streamed_match_deals_later_rounds_from_the_stream_and_copies_keep_theirs() -> None:
    """S1/S2 with ``deal_rng``: later rounds are dealt from the stream, passing left; a copy
    deals from a copy of the stream, so it deals what the original will, and never moves it."""
    stream = random.Random(5)
    game = Game.new("classic", 3, Options.from_mapping({"target": MAX_TARGET}), seed=2, deal_rng=stream)
    _finish_round(game)
    twin = game.copy()
    before = stream.getstate()
    twin.start_round()
    assert stream.getstate() == before  # the copy's deal did not touch the original's stream
    expected = list(edition_deck("classic"))
    ref = random.Random()
    ref.setstate(before)
    ref.shuffle(expected)
    assert list(twin.rounds[-1].deck or ()) == expected
    game.start_round()
    assert game.hands == twin.hands and game.dealer == twin.dealer == (twin.rounds[0].dealer + 1) % 3
    assert_whole_deck(game)


def _finish_round(game: Game) -> None:
    """Play random legal actions (seat on turn only) until the round is over."""
    rng = random.Random(0)
    for _ in range(20_000):
        if game.awaiting in ("round_over", "game_over"):
            return
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    raise AssertionError("the round did not end")


@pytest.mark.parametrize("players", [2, 3, 5, 10])
def test_s1_deal_passes_left_in_later_rounds(players: int) -> None:
    """S1 settled: in later rounds the deal passes to the left (dealer + 1), wrapping around."""
    game = Game.new("classic", players, Options.from_mapping({"target": MAX_TARGET}), seed=players)
    dealers = [game.dealer]
    for _ in range(players + 1):
        _finish_round(game)
        assert game.awaiting == "round_over"
        game.start_round()
        dealers.append(game.dealer)
        assert_whole_deck(game)
    assert dealers == [(dealers[0] + i) % players for i in range(players + 2)]


def test_s1_start_round_only_after_the_round_is_over() -> None:
    """S1: the next round is dealt only once the round is over."""
    game = setup([["R1", "R2"], ["G1", "G2"]], "R4", ["Y1"])
    before = (game.hands, game.dealer)
    with pytest.raises(unokit.IllegalActionError):
        game.start_round()
    assert (game.hands, game.dealer) == before


# --------------------------------------------------------------------------- S2


def _stacked_deck(turned: str, players: int, hand_size: int = 7) -> list[int]:
    """The classic deck with ``turned`` moved to the place S2 turns up."""
    deck = list(edition_deck("classic"))
    i = deck.index(parse_card(turned))
    j = players * hand_size
    deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (3, 1), (4, 3), (10, 6)])
def test_s2_deal_one_at_a_time_from_the_dealers_left(players: int, dealer: int) -> None:
    """S2: 7 cards each, one at a time, starting left of the dealer; the rest is the draw pile
    (face down) and its top card is turned over to start the discard pile."""
    deck = _stacked_deck("Y5", players)
    game = Game("classic", players)
    game.start_round(dealer=dealer, deck=deck)
    order = [(dealer + 1 + k) % players for k in range(players)]
    for k, seat in enumerate(order):
        assert game.hands[seat] == deck[k : 7 * players : players]
    assert game.discard == [parse_card("Y5")]
    assert game.draw_pile == list(reversed(deck[7 * players + 1 :]))
    assert game.draw_pile[-1] == deck[7 * players + 1]
    assert_whole_deck(game)


def test_s2_game_new_deals_its_recorded_deck() -> None:
    """S2: a seeded match deals its shuffled deck by S2 (the deck is recorded for replay)."""
    for seed in range(30):
        game = Game.new("phineas-ferb", 4, seed=seed)
        deck = game.rounds[0].deck
        assert deck is not None
        order = [(game.dealer + 1 + k) % 4 for k in range(4)]
        for k, seat in enumerate(order):
            assert game.hands[seat][:7] == list(deck[k:28:4])
        assert_whole_deck(game)


def test_s2_hand_sizes_and_pile_sizes_after_the_deal() -> None:
    """S2: every player holds 7 cards; the draw pile holds the rest but the turned-up card."""
    for edition, size in (("classic", 108), ("cars2", 112), ("phineas-ferb", 112)):
        for players in range(2, 11):
            game = Game(edition, players)
            game.start_round(dealer=0, deck=_stacked_deck("G3", players) + list(edition_deck(edition)[108:]))
            assert game.hand_sizes() == [7] * players
            assert len(game.draw_pile) == size - 7 * players - 1
            assert len(game.discard) == 1


# --------------------------------------------------------------------------- S3


def test_s3_number_card_sets_the_colour_and_left_neighbour_starts() -> None:
    """S3: a number card: its colour is in play; the dealer's left neighbour starts, going left."""
    game = setup([["R1"], ["G2"], ["B3"], ["Y4"]], "G7", ["Y1"], dealer=3)
    assert (game.turn, game.awaiting, color(game), game.direction) == (0, "play", "G", 1)
    assert game.hand_sizes() == [1, 1, 1, 1]


@pytest.mark.parametrize(("dealer", "starts"), [(0, 2), (2, 0), (3, 1)])
def test_s3_skip_skips_the_dealers_left_neighbour(dealer: int, starts: int) -> None:
    """S3: a Skip: the dealer's left neighbour is skipped; the seat after them starts."""
    game = setup([["R1"], ["G2"], ["B3"], ["Y4"]], "BS", ["Y1"], dealer=dealer)
    assert (game.turn, game.awaiting, color(game), game.direction) == (starts, "play", "B", 1)
    assert game.hand_sizes() == [1, 1, 1, 1]


@pytest.mark.parametrize("dealer", [0, 1, 3])
def test_s3_reverse_turns_right_and_the_dealer_starts(dealer: int) -> None:
    """S3: a Reverse: the direction becomes right (-1) and the dealer starts."""
    game = setup([["R1", "Y1"], ["G2", "Y2"], ["B3", "Y3"], ["B4", "Y4"]], "YR", ["G1"], dealer=dealer)
    assert (game.turn, game.direction, color(game)) == (dealer, -1, "Y")
    play(game, (dealer, f"Y{dealer + 1}"))
    assert game.turn == (dealer - 1) % 4


def test_s3_draw_two_left_neighbour_draws_2_and_is_skipped() -> None:
    """S3: a Draw Two: the dealer's left neighbour draws 2 (the top of the draw pile) and is
    skipped; the seat after them starts."""
    game = setup([["R1"], ["G2"], ["B3"]], "R+2", ["Y1", "Y2", "Y3"], dealer=1)
    assert hand(game, 2) == ["B3", "Y1", "Y2"]
    assert (game.turn, game.awaiting, color(game)) == (0, "play", "R")
    assert draw_top_first(game) == ["Y3"]


@pytest.mark.parametrize(
    ("edition", "options"),
    [
        ("phineas-ferb", {}),
        ("classic", {"stacking": "progressive"}),
        ("classic", {"stacking": "plus4_on_plus2"}),
    ],
)
def test_s3_draw_two_turned_up_applies_at_once(edition: str, options: dict[str, Any]) -> None:
    """S3 (settled): a turned-up Draw Two applies at once: no respond, no stacking, no Agent P,
    even for a left neighbour who holds a Draw Two or Agent P."""
    game = setup([["R1"], ["G+2", "WP" if edition == "phineas-ferb" else "W+4"], ["B3"]], "R+2",
                 ["Y1", "Y2", "Y3"], edition=edition, **options)
    assert game.hand_sizes() == [1, 4, 1]
    assert (game.turn, game.awaiting) == (2, "play")
    refused(game, 1, "G+2")
    refused(game, 1, "accept")


@pytest.mark.parametrize(("turned", "edition"), [("W", "classic"), ("WM", "cars2"), ("WP", "phineas-ferb")])
def test_s3_wild_left_neighbour_names_the_colour_then_plays(turned: str, edition: str) -> None:
    """S3: a Wild, Special Agent Mater or Agent P turned up: the dealer's left neighbour names the
    colour, then takes the first turn (choosing is not their turn). No Mater peek (C5)."""
    game = setup([["R1", "B5"], ["G2", "B6"], ["B3", "Y7"]], turned, ["Y1"], dealer=0, edition=edition)
    assert (game.turn, game.awaiting) == (1, "color")
    assert legal(game, 1) == ["color R", "color Y", "color G", "color B"]
    refused(game, 2, "color G")
    refused(game, 1, "G2")
    refused(game, 1, "draw")
    play(game, (1, "color G"))
    assert (game.turn, game.awaiting, color(game), top(game)) == (1, "play", "G", turned)
    assert all(game.observe(s).seen == {} for s in range(3))
    refused(game, 1, "color B")
    play(game, (1, "G2"))
    assert game.turn == 2


def test_s3_wild_the_current_colour_may_be_any() -> None:
    """S3/T4: the colour named for a turned-up wild may be any of the four."""
    for c in "RYGB":
        game = setup([["R1"], ["G2"]], "W", ["Y1"], dealer=1)
        play(game, (0, f"color {c}"))
        assert color(game) == c


def test_s3_wild_draw_four_goes_back_below_the_top_card() -> None:
    """S3: a turned-up Wild Draw Four goes back into the draw pile at a random place below the
    top card, and the next top card is turned over instead (with its own S3 effect)."""
    positions = set()
    for seed in range(40):
        rest = ["G1", "B2", "Y3", "R4", "G5", "B6"]
        game = setup([["R1"], ["G2"], ["B3"]], "W+4", ["RS", *rest], dealer=0, seed=seed)
        assert game.discard == [parse_card("RS")]
        # RS's own S3 effect: seat 1 is skipped.
        assert (game.turn, color(game)) == (2, "R")
        pile = draw_top_first(game)
        assert sorted(pile) == sorted([*rest, "W+4"])
        assert [c for c in pile if c != "W+4"] == rest
        positions.add(pile.index("W+4"))
    assert len(positions) >= 4, "the Wild Draw Four should go back at a random place"


def test_s3_wild_draw_four_repeats_while_it_is_a_wild_draw_four() -> None:
    """S3: repeat while the newly turned card is a Wild Draw Four."""
    for seed in range(30):
        game = setup([["R1"], ["G2"]], "W+4", ["W+4", "W+4", "B7", "G1", "B2"], dealer=0, seed=seed)
        assert card_str(game.discard[-1]) == "B7"
        assert len(game.discard) == 1
        pile = draw_top_first(game)
        assert pile.count("W+4") == 3 and [c for c in pile if c != "W+4"] == ["G1", "B2"]
        assert (game.turn, game.awaiting, color(game)) == (1, "play", "B")


def test_s3_wild_draw_four_with_no_other_card_to_turn() -> None:
    """S3 (a point RULES.md leaves open): with no other card in the draw pile to turn over, the
    Wild Draw Four stays up and the left neighbour names the colour, as for a Wild."""
    game = setup([["R1"], ["G2"]], "W+4", [], dealer=0)
    assert (top(game), game.turn, game.awaiting) == ("W+4", 1, "color")
    play(game, (1, "color G"))
    assert game.hand_sizes() == [1, 1]


def test_s3_first_player_is_passed_over_by_whoever_is_out() -> None:
    """S3 with M4: the dealer's left neighbour is the next seat still in the game."""
    game = setup([["R1"], [], ["B3"], ["Y4"]], "G7", ["Y1"], dealer=0, eliminated=[1], mode="elimination")
    assert game.turn == 2
    game = setup([["R1"], [], ["B3"], ["Y4"]], "G+2", ["Y1", "Y2"], dealer=0, eliminated=[1],
                 mode="elimination")
    assert (game.turn, game.hand_sizes()) == (3, [1, 0, 3, 1])


def test_s3_two_players_reverse_first_acts_as_skip() -> None:
    """S3 with M1 (settled): with two players a turned-up Reverse acts as a Skip: the dealer
    starts and the direction stays left (+1). Without two_handed_rules, the S3 Reverse rule."""
    game = setup([["R1", "R2"], ["G2", "G3"]], "GR", ["Y1"], dealer=0)
    assert (game.turn, game.direction) == (0, 1)
    game = setup([["R1", "R2"], ["G2", "G3"]], "GR", ["Y1"], dealer=1)
    assert (game.turn, game.direction) == (1, 1)
    game = setup([["R1", "R2"], ["G2", "G3"]], "GR", ["Y1"], dealer=0, two_handed_rules=False)
    assert (game.turn, game.direction) == (0, -1)


def test_s3_two_players_skip_and_draw_two_first() -> None:
    """S3 with two players: a Skip or Draw Two turned up: the non-dealer is skipped, the dealer
    starts (after the non-dealer drew 2 for a Draw Two)."""
    game = setup([["R1"], ["G2"]], "YS", ["Y1", "Y2"], dealer=1)
    assert (game.turn, game.hand_sizes()) == (1, [1, 1])
    game = setup([["R1"], ["G2"]], "Y+2", ["Y1", "Y2"], dealer=1)
    assert (game.turn, game.hand_sizes()) == (1, [3, 1])


def test_s3_stacked_round_checks_card_counts() -> None:
    """S2/S3: a stacked round may not hold more of a card than the edition's deck."""
    with pytest.raises(OptionError):
        setup([["WM"], ["G2"]], "R1", [])
    with pytest.raises(OptionError):
        setup([["R0", "R0"], ["G2"]], "R1", [])
    with pytest.raises(OptionError):
        setup([["W+4", "W+4", "W+4"], ["W+4", "W+4"]], "R1", [])
    with pytest.raises(OptionError):
        setup([["R1"], ["G2"]], "R1", [], dealer=2)
