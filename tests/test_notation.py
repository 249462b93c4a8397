"""Cards and notation (RULES.md) and the action notation of conformance/README.md."""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import refused, setup, snapshot
from unokit import (
    EDITIONS,
    IllegalActionError,
    NotationError,
    action_str,
    card_str,
    edition_deck,
    parse_action,
    parse_card,
)
from unokit.core.actions import N_ACTIONS
from unokit.core.cards import CARD_POINTS, N_CARDS, hand_points, parse_color

ALL_CARD_CODES = (
    [f"{c}{r}" for c in "RYGB" for r in ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")]
    + ["W", "W+4", "WM", "WP"]
)


def test_notation_every_card_round_trips() -> None:
    """Cards and notation: every card code parses and prints back exactly, and every card has a
    code."""
    assert sorted(card_str(c) for c in range(N_CARDS)) == sorted(ALL_CARD_CODES)
    for text in ALL_CARD_CODES:
        assert card_str(parse_card(text)) == text
    for c in range(N_CARDS):
        assert parse_card(card_str(c)) == c


def test_notation_every_action_round_trips() -> None:
    """conformance/README.md: every action's notation parses and prints back exactly; the texts
    are all different."""
    texts = [action_str(a) for a in range(N_ACTIONS)]
    assert len(set(texts)) == N_ACTIONS
    for a, text in enumerate(texts):
        assert parse_action(text) == a


def test_notation_every_documented_form_exists() -> None:
    """conformance/README.md: the documented actions are exactly the action space."""
    plays = [c for c in ALL_CARD_CODES if not c.startswith("W")]
    plays += [f"{w}={c}" for w in ("W", "W+4", "WM", "WP") for c in "RYGB"]
    expected = plays + [p + "!" for p in plays]
    expected += ["draw", "pass", "uno", "challenge", "accept"]
    expected += [f"color {c}" for c in "RYGB"]
    expected += [f"{word} {s}" for word in ("catch", "swap", "penalize") for s in range(10)]
    assert sorted(action_str(a) for a in range(N_ACTIONS)) == sorted(expected)
    for text in ("R7", "W+4=B", "R7!", "W=G!", "WM=R", "WP=Y", "draw", "pass", "uno", "catch 2",
                 "challenge", "accept", "color G", "swap 3"):
        assert action_str(parse_action(text)) == text


@pytest.mark.parametrize(
    "text",
    ["", "r7", "R10", "X9", "R", "W+2", "+2", "R+4", "RS2", " R7", "R7 ", "Wild", "w", "W+ 4", "G-2"],
)
def test_notation_bad_card_codes(text: str) -> None:
    """Cards and notation: text that is not a card code raises NotationError naming it."""
    with pytest.raises(NotationError) as info:
        parse_card(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("W", "must name a colour"),
        ("W+4", "must name a colour"),
        ("WM!", "must name a colour"),
        ("R7=G", "only a wild card names a colour"),
        ("W=X", "is not a colour"),
        ("W=g", "is not a colour"),
        ("Q=G", "is not a card code"),
        ("catch", "seat number"),
        ("catch 10", "seat number"),
        ("catch x", "seat number"),
        ("swap -1", "seat number"),
        ("penalize", "seat number"),
        ("color", "color takes"),
        ("color X", "color takes"),
        ("color g", "color takes"),
        ("R7!!", "not an action"),
        ("draw!", "not an action"),
        ("Draw", "not an action"),
        ("pass ", "not an action"),
        ("", "not an action"),
        ("R7 !", "not an action"),
        ("catch  2", "seat number"),
    ],
)
def test_notation_bad_action_text(text: str, hint: str) -> None:
    """conformance/README.md: text that is not an action raises NotationError with a clear
    message naming the text."""
    with pytest.raises(NotationError) as info:
        parse_action(text)
    message = str(info.value)
    assert repr(text) in message
    assert hint in message


def test_notation_bad_text_given_to_a_game_changes_nothing() -> None:
    """conformance/README.md: the game refuses bad notation with NotationError, unchanged."""
    game = setup([["R1", "W"], ["G2"]], "R4", ["Y1"], dealer=1)
    for text in ("W", "R1!!", "catch", "X9", "play R1"):
        refused(game, 0, text, NotationError)


def test_notation_colours() -> None:
    """Cards and notation: the colour letters R, Y, G, B."""
    assert [parse_color(c) for c in "RYGB"] == [0, 1, 2, 3]
    for bad in ("", "r", "RY", "W", "X"):
        with pytest.raises(NotationError):
            parse_color(bad)


def test_notation_edition_decks_and_points() -> None:
    """Cards and notation: each colour has one 0, two of each 1–9, two of each symbol; 4 W and
    4 W+4; cars2 adds 4 WM, phineas-ferb 4 WP; points are face value, symbols 20, wilds 50."""
    classic = Counter(card_str(c) for c in edition_deck("classic"))
    assert len(edition_deck("classic")) == 108
    for c in "RYGB":
        assert classic[f"{c}0"] == 1
        for r in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"):
            assert classic[f"{c}{r}"] == 2
    assert (classic["W"], classic["W+4"], classic["WM"], classic["WP"]) == (4, 4, 0, 0)
    cars = Counter(card_str(c) for c in edition_deck("cars2"))
    pf = Counter(card_str(c) for c in edition_deck("phineas-ferb"))
    assert cars - classic == Counter({"WM": 4}) and len(edition_deck("cars2")) == 112
    assert pf - classic == Counter({"WP": 4}) and len(edition_deck("phineas-ferb")) == 112
    assert set(EDITIONS) == {"classic", "cars2", "phineas-ferb"}
    for text in ALL_CARD_CODES:
        rank = text[1:] if text[0] in "RYGB" else None
        want = 50 if rank is None else (int(rank) if rank.isdigit() else 20)
        assert CARD_POINTS[parse_card(text)] == want
    mixed = ("R0", "G9", "BS", "YR", "R+2", "W", "W+4", "WM", "WP")
    assert hand_points([parse_card(t) for t in mixed]) == 269


@pytest.mark.parametrize("action", [-1, -200, 175, 1000])
def test_notation_action_numbers_outside_the_action_space_are_refused(action: int) -> None:
    """Actions are the ints 0 … N_ACTIONS - 1: any other int given to ``apply`` or
    ``apply_host`` is refused with unokit's own error (IllegalActionError or NotationError),
    and changes nothing; it is never legal."""
    game = setup([["R1", "W"], ["G2"]], "R4", ["Y1"], dealer=1)
    before = snapshot(game)
    assert not game.is_legal(0, action)
    with pytest.raises((IllegalActionError, NotationError)):
        game.apply(0, action)
    with pytest.raises((IllegalActionError, NotationError)):
        game.apply_host(action)
    assert snapshot(game) == before


def test_notation_negative_action_number_is_not_a_hosts_penalty() -> None:
    """Actions are the ints 0 … N_ACTIONS - 1: ``-1`` is not an alias of ``penalize 9``."""
    hands = [["R1", "W"], ["G2", "B5"]] + [[f"Y{k}"] for k in range(2, 10)]
    game = setup(hands, "R4", ["G3", "G4", "G5"], dealer=9)
    before = snapshot(game)
    with pytest.raises((IllegalActionError, NotationError)):
        game.apply_host(-1)
    assert snapshot(game) == before


def test_notation_negative_action_number_is_not_a_wrong_card() -> None:
    """P5 with the action space: ``-175 + a`` is not an alias of action ``a``, so it cannot be
    accepted as a penalized wrong card."""
    game = setup([["R1", "G2"], ["B5"]], "R4", ["Y2", "Y3"], dealer=1, illegal_play="penalize")
    before = snapshot(game)
    with pytest.raises((IllegalActionError, NotationError)):
        game.apply(0, -175 + parse_action("G2"))
    assert snapshot(game) == before
