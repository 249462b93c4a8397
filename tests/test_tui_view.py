"""What the terminal game shows, without a terminal: :class:`unokit.tui.view.View` drawn from a
session (the hand and its cursor, the keys offered, the status line, the table as a list or a
grid, the last play's highlight, the score table)."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("rich")

from rich.console import Console
from rich.text import Text

from conftest import Script
from unokit import Game, Options
from unokit.bots.registry import make_bot
from unokit.core.actions import parse_action
from unokit.core.cards import parse_card
from unokit.text.i18n import translator
from unokit.tui.session import Session
from unokit.tui.view import TURN_STYLE, View, rows_of

ALWAYS = ["?", "s", "q", "Esc"]



def _view(hands: list[list[str]], discard: str, *bot_plays: str, lang: str = "en",
          dealer: int = 1) -> View:
    game = Game.from_setup(hands=hands, discard=discard, draw=["Y1", "Y2", "Y4", "Y5", "Y6", "Y7"],
                           dealer=dealer)
    return View(Session(game, [None, Script(*bot_plays)], translator(lang)))


def _keys(view: View) -> list[str]:
    return [key for key, _what in view.key_items()]


def test_the_cursor_starts_on_the_first_playable_card() -> None:
    view = _view([["R1", "G2", "W"], ["R5", "B7"]], "G3")
    assert view.hand() == [parse_card(c) for c in ("R1", "G2", "W")]  # in display order
    assert view.playable() == {parse_card("G2"), parse_card("W")}
    assert view.cursor == 0
    view.follow()
    assert view.cursor == 1  # G2: R1 does not match G3
    view.cursor = 0  # moved back by the player: the same decision, the cursor stays
    view.follow()
    assert view.cursor == 0
    assert "not playable now" in view.hand_view().plain


def test_the_keys_and_the_status_follow_the_decision() -> None:
    view = _view([["R1", "G2", "W"], ["R5", "B7"]], "G3")
    assert _keys(view) == ["←/→", "Enter", "d", *ALWAYS]
    assert view.keys_text().plain == ("←/→ choose a card  Enter play  d draw  ? rules  s save  q quit  "
                                      "Esc cancel")
    assert view.status_text().plain == "Your turn: play a matching card, or draw."
    view.choosing_color = parse_card("W")
    assert _keys(view) == ["r y g b", *ALWAYS]
    assert "Choose the colour for Wild" in view.status_text().plain
    view.choosing_color = -1
    view.status_message = "A message."
    assert view.status_text().plain.startswith("A message.\n")


def test_a_wild_draw_four_played_on_you_offers_accept_and_challenge() -> None:
    view = _view([["R1", "G2", "Y3"], ["W+4", "R5", "B7"]], "R3", "W+4=G", dealer=0)
    view.session.bot_step()
    assert _keys(view) == ["a", "x", *ALWAYS]
    assert "The colour before it was red." in view.status_text().plain
    assert view.respond_hint() == "a: accept, x: challenge"


def test_a_wild_draw_four_held_with_the_colour_is_a_bluff() -> None:
    view = _view([["W+4", "R1", "G2"], ["Y5", "B7"]], "R3")
    assert view.as_bluffs() == {parse_card("W+4")}
    view.cursor = view.hand().index(parse_card("W+4"))
    assert "playable, but a bluff" in view.hand_view().plain


@pytest.mark.parametrize(("players", "size", "mode"), [
    (2, (80, 24), "list"), (10, (160, 50), "list"), (10, (80, 24), "grid"),
])
def test_the_table_is_a_grid_when_a_line_per_player_leaves_no_room(players: int, size: tuple[int, int],
                                                                    mode: str) -> None:
    game = Game.new("classic", players, seed=3)
    bots = [None, *(make_bot("random", seed=i) for i in range(1, players))]
    view = View(Session(game, bots, translator("en")), width=size[0], height=size[1])
    assert view.table_mode() == mode
    turn = view.obs().turn
    if mode == "list":
        text = view.seat_lines()
        assert text.plain.split("\n")[turn].startswith("▶ ")
        assert view.table_title() == "Table"
    else:
        cell = next(iter(view.seat_grid().columns[turn + 1].cells))
        assert isinstance(cell, Text) and cell.plain.startswith("▶")
        text = cell
        assert view.table_title() == "Table · opponents: random · Elo 1000"
    assert any(str(s.style) == TURN_STYLE for s in text.spans)


def test_the_last_play_is_highlighted_for_a_moment() -> None:
    view = _view([["R1", "G2", "Y3"], ["R5", "B7", "G8"]], "R3")
    view.flash = 600
    assert not view.follow() and view.flashing() is None  # nothing played yet
    view.session.act(parse_action("R1"))
    assert view.follow()  # a new play: its highlight starts
    assert view.flashing() == (0, parse_card("R1"))
    assert not view.follow()  # the same play
    view.flash_until = 0.0  # the moment is over
    assert view.flashing() is None


def test_the_score_table_counts_the_points_left_in_hand() -> None:
    game = Game.from_setup(hands=[["R1"], ["G1", "Y9"]], discard="R4", draw=["B1", "B2"], dealer=1,
                           options=Options.from_mapping({"target": 5000}))
    session = Session(game, [None, Script()], translator("en"))
    session.act(parse_action("R1"))
    console = Console(width=72, file=io.StringIO(), color_system=None, record=True)
    console.print(View(session).score_table())
    rows = [" ".join(r.split()) for r in console.export_text().split("\n")]
    assert any(r.startswith("Player 1 ★ 0 0 +10 10") for r in rows), rows
    assert any(r.startswith("Player 2 2 10 0 0") for r in rows), rows
    assert any("Target: 5000 points" in r for r in rows), rows


def test_the_words_are_the_players_language() -> None:
    view = _view([["R1", "G2", "W"], ["R5", "B7"]], "G3", lang="el")
    assert view.keys_text().plain.endswith("Esc ακύρωση")


def test_rows_of_counts_wrapped_rows() -> None:
    assert rows_of("abcd\nef", 2) == 3
    assert rows_of("", 10) == 1
