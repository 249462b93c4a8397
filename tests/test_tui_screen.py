"""``unokit play`` as a new player sees it, driven headless through Textual's pilot: what is on
the screen at 80x24 and 160x50 with 2 and 10 players (the newest moves, the key bar), the keys
offered, saving, a resumed Wild Draw Four, a bluff in your hand, the hands you have seen, the
last play and the round's points."""

from __future__ import annotations

import asyncio
import io
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

pytest.importorskip("textual")

from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import RichLog, Static

from conftest import Script
from conftest import play_args as args
from unokit import Game, Options
from unokit.commands import play
from unokit.core.actions import parse_action
from unokit.core.cards import card_str
from unokit.text.i18n import translator
from unokit.tui.app import UnoApp
from unokit.tui.saving import SaveFile
from unokit.tui.screens import AskScreen, ScoreScreen
from unokit.tui.session import Session
from unokit.tui.view import TURN_STYLE

SIZES = [(80, 24), (160, 50)]



def screen_text(app: UnoApp) -> str:
    """The screen as the player reads it: its characters, row by row."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system=None, record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def rows(app: UnoApp) -> list[str]:
    return [row.rstrip() for row in screen_text(app).rstrip("\n").split("\n")]


def flat(text: str) -> str:
    """Text without the panels' borders and line breaks, to find a wrapped line in."""
    for ch in "│╭╮╰╯─▁▂▃▄▅▆▇█":
        text = text.replace(ch, " ")
    return " ".join(text.split())


def newest_visible(app: UnoApp) -> bool:
    """Whether the newest line of the move log is on the screen, whole."""
    newest = app.session.log[-1]
    log = app.query_one("#log", RichLog)
    shown = [log.render_line(y).text for y in range(log.scrollable_content_region.height)]
    return " ".join(newest.split()) in flat(" ".join(shown)) and " ".join(newest.split()) in flat(
        screen_text(app))


def keys_row(app: UnoApp) -> str:
    return str(app.query_one("#keys", Static).render())


def run(app: UnoApp, size: tuple[int, int], scenario: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(pilot)

    asyncio.run(main())


def played_session(players: int, seed: int, lines: int, lang: str = "en") -> tuple[Session, list[str]]:
    """A new match of ``unokit play`` played (the human plays its first legal action) until its
    log has ``lines`` lines or more, in the middle of a round."""
    (session, names), _tr = play.build(args(players=players, seed=seed, lang=lang, option=["target=5000"]))
    while len(session.log) < lines or session.observe().awaiting == "round_over":
        if session.observe().awaiting == "round_over":
            session.next_round()
        elif session.waiting_for_human() and not session.bots_to_move():
            session.act(session.human_legal()[0])
        else:
            session.bot_step()
    return session, names



# ---------------------------------------------------------------- 1. the first card's effect


@pytest.mark.parametrize(("players", "seed", "lines"), [
    (3, 5, ["The first card is yellow Draw Two.", "You draw 2 cards.", "You are skipped."]),
    (2, 9, ["The first card is red Skip.", "You are skipped."]),
])
def test_the_first_cards_effect_is_on_the_screen(tmp_path: Path, players: int, seed: int,
                                                 lines: list[str]) -> None:
    (session, names), _tr = play.build(args(players=players, seed=seed, lang="en"))
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json", bot_names=names)

    async def scenario(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        assert all(line in text for line in lines), text

    run(app, (80, 24), scenario)


@pytest.mark.parametrize(("lang", "lines"), [
    ("en", ["Round 2: you deal.", "The first card is red Draw Two.", "Player 2 draws 2 cards.",
            "Player 2 is skipped."]),
    ("el", ["Γύρος 2: μοιράζετε εσείς.", "Η πρώτη κάρτα είναι κόκκινο Πάρε Δύο.",
            "Ο Παίκτης 2 τραβάει 2 κάρτες.", "Ο Παίκτης 2 χάνει τη σειρά του."]),
])
def test_the_first_cards_effect_is_told_in_round_two(tmp_path: Path, lang: str, lines: list[str]) -> None:
    game = Game.from_setup(hands=[["R1"], ["R5", "B7"]], discard="R3", draw=["Y1", "Y2", "G7"], dealer=1,
                           seed=10)
    session = Session(game, [None, Script()], translator(lang))
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json")

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("enter")  # R1, the last card: the round is over
        await pilot.pause()
        assert isinstance(app.screen, ScoreScreen)
        await pilot.press("enter")  # the next round
        await pilot.pause()
        assert session.log[-len(lines):] == lines
        text = screen_text(app)
        assert all(line in text for line in lines), text

    run(app, (80, 24), scenario)


# ---------------------------------------------------------------- 2. and 3. the newest moves, the key bar


@pytest.mark.parametrize("players", [2, 10])
def test_the_newest_move_stays_visible_after_a_resize(tmp_path: Path, players: int) -> None:
    session, names = played_session(players, 3, 120)
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json", bot_names=names)

    async def scenario(pilot: Pilot[None]) -> None:
        assert newest_visible(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert newest_visible(app), screen_text(app)
        await pilot.resize_terminal(160, 50)
        await pilot.pause()
        await pilot.pause()
        assert newest_visible(app), screen_text(app)

    run(app, (160, 50), scenario)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [2, 10])
def test_the_newest_move_stays_visible_when_the_status_grows(tmp_path: Path, size: tuple[int, int],
                                                             players: int) -> None:
    session, names = played_session(players, 3, 120)
    save = tmp_path / "a-folder-with-a-long-name" / "and-another-one" / "the-game-saved-here.json"
    save.parent.mkdir(parents=True)
    app = UnoApp(session, delay=60, save_path=save, bot_names=names)

    async def scenario(pilot: Pilot[None]) -> None:
        before = app.query_one("#status").size.height
        await pilot.press("s")  # "Game saved to …": the status line grows to two lines or more
        await pilot.pause()
        await pilot.pause()
        assert app.query_one("#status").size.height > before
        assert newest_visible(app), screen_text(app)
        assert rows(app)[-1].strip().endswith("Esc cancel")

    run(app, size, scenario)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [2, 10])
@pytest.mark.parametrize("lang", ["en", "el"])
def test_the_table_leaves_room_for_the_moves_and_the_keys(tmp_path: Path, size: tuple[int, int],
                                                          players: int, lang: str) -> None:
    session, names = played_session(players, 3, 40, lang)
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json", bot_names=names)
    tr = translator(lang)

    async def scenario(pilot: Pilot[None]) -> None:
        shown = rows(app)
        assert len(shown) == size[1]
        assert shown[-1].strip().endswith("Esc " + tr._("cancel")), shown  # the key bar, whole
        assert newest_visible(app), "\n".join(shown)
        log = app.query_one("#log", RichLog)
        assert log.scrollable_content_region.height >= 3  # a few moves, not one
        assert app.view.table_mode() == ("grid" if size == (80, 24) and players == 10 else "list")
        assert "seat" not in screen_text(app).lower()  # people read Player 1 … N
        table = flat(str(app.query_one("#table", Static).render()) if app.view.table_mode() == "list" else
                     screen_text(app))
        for seat in range(players):
            assert session.name(seat) in table or f" {seat + 1} " in f" {table} "

    run(app, size, scenario)


# ---------------------------------------------------------------- 4. the key bar


def _keys(app: UnoApp) -> list[str]:
    return [key for key, _what in app.view.key_items()]


ALWAYS = ["?", "s", "q", "Esc"]


def test_the_key_bar_shows_the_legal_keys_only(tmp_path: Path) -> None:
    # Phineas and Ferb: a Draw Two played on you may be answered with Agent P or taken, never
    # challenged; then a wild card asks for its colour.
    game = Game.from_setup(hands=[["WP", "G7", "G2", "W"], ["R+2", "Y1", "B4", "G9"]], discard="R5",
                           draw=["Y9", "B6", "B7", "B8", "Y8", "B9", "R9", "R1"], dealer=0,
                           edition="phineas-ferb")
    session = Session(game, [None, Script("R+2")], translator("en"))
    app = UnoApp(session, delay=0, save_path=tmp_path / "g.json")

    async def scenario(pilot: Pilot[None]) -> None:
        for _ in range(20):
            await pilot.pause()
            if game.awaiting == "respond":
                break
        assert game.awaiting == "respond" and game.turn == 0
        keys = _keys(app)
        assert "x" not in keys and "challenge" not in keys_row(app)
        assert keys == ["←/→", "Enter", "a", *ALWAYS]
        assert "x: challenge" not in str(app.query_one("#status", Static).render())
        await pilot.press("a")  # take the two cards: now my turn, to play
        for _ in range(20):
            await pilot.pause()
            if game.awaiting == "play" and game.turn == 0:
                break
        assert game.turn == 0 and game.awaiting == "play", session.log
        assert _keys(app) == ["←/→", "Enter", "d", *ALWAYS]
        await pilot.press("end", "enter")  # a wild card: its colour is asked
        await pilot.pause()
        assert _keys(app) == ["r y g b", *ALWAYS]
        assert "r y g b choose the colour" in keys_row(app)
        await pilot.press("escape")
        await pilot.pause()
        assert _keys(app) == ["←/→", "Enter", "d", *ALWAYS]

    run(app, (80, 24), scenario)


def test_the_key_bar_in_greek(tmp_path: Path) -> None:
    game = Game.from_setup(hands=[["WP", "G7", "G2", "W"], ["R+2", "Y1", "B4", "G9"]], discard="R5",
                           draw=["Y9", "B6", "B7", "B8", "Y8", "B9", "R9", "R1"], dealer=0,
                           edition="phineas-ferb")
    session = Session(game, [None, Script("R+2")], translator("el"))
    session.bot_step()
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json")

    async def scenario(pilot: Pilot[None]) -> None:
        assert game.awaiting == "respond"
        keys = keys_row(app)
        assert keys == ("←/→ επιλογή κάρτας  Enter απάντηση  a αποδοχή  ? κανόνες  s αποθήκευση  "
                        "q έξοδος  Esc ακύρωση")
        assert "αμφισβήτηση" not in keys and "x " not in keys
        assert rows(app)[-1].strip().endswith("Esc ακύρωση")

    run(app, (80, 24), scenario)


def test_the_key_bar_while_the_bots_play(tmp_path: Path) -> None:
    session, names = played_session(4, 2, 0)
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json", bot_names=names)

    async def scenario(pilot: Pilot[None]) -> None:
        if not session.waiting_for_human():
            assert _keys(app) == ALWAYS
            assert keys_row(app) == "? rules  s save  q quit  Esc cancel"

    run(app, (80, 24), scenario)


def test_a_wild_draw_four_to_answer_offers_the_challenge(tmp_path: Path) -> None:
    game = Game.from_setup(hands=[["R1", "G2", "Y3"], ["W+4", "R5", "B7"]], discard="R3",
                           draw=["Y1", "Y2", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9"], dealer=0)
    session = Session(game, [None, Script("W+4=G")], translator("en"))
    session.bot_step()
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json")

    async def scenario(pilot: Pilot[None]) -> None:
        assert _keys(app) == ["a", "x", *ALWAYS]

    run(app, (80, 24), scenario)


# ---------------------------------------------------------------- 6. saving


def test_saving_says_where_and_how_to_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (session, names), _tr = play.build(args(players=2, seed=4, lang="en"))
    app = UnoApp(session, delay=60, bot_names=names)  # the default file: in the current folder

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("s")
        await pilot.pause()
        status = flat(str(app.query_one("#status", Static).render()))
        assert f"Game saved to {tmp_path / 'unokit-game.json'}." in status
        assert "Resume it with: unokit play --resume unokit-game.json" in status

    run(app, (80, 24), scenario)
    assert (tmp_path / "unokit-game.json").exists()
    assert app.farewell() == (f"Game saved to {tmp_path / 'unokit-game.json'}. "
                              "Resume it with: unokit play --resume unokit-game.json")


def test_a_save_elsewhere_is_named_in_full(tmp_path: Path) -> None:
    (session, names), _tr = play.build(args(players=2, seed=4, lang="fr"))
    path = tmp_path / "my games" / "g.json"
    path.parent.mkdir()
    app = UnoApp(session, delay=60, save_path=path, bot_names=names)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("s")
        await pilot.pause()

    run(app, (80, 24), scenario)
    assert app.view.status_message == f"Partie sauvegardée. Pour la reprendre : unokit play --resume '{path}'"


def test_another_games_save_is_not_overwritten_without_asking(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    (first, names), _tr = play.build(args(players=3, seed=1, lang="en"))
    SaveFile(first, bot_names=names).write(other)
    before = other.read_text()
    (session, names), _tr = play.build(args(players=2, seed=2, lang="el", save=str(other)))
    app = UnoApp(session, delay=60, save_path=other, bot_names=names)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, AskScreen)
        assert "περιέχει άλλο παιχνίδι" in str(app.screen.query_one("#ask-question", Static).render())
        await pilot.press("n")  # keep it
        await pilot.pause()
        assert other.read_text() == before and "Δεν αποθηκεύτηκε" in app.view.status_message
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("y")  # overwrite it
        await pilot.pause()
        assert other.read_text() != before
        assert json.loads(other.read_text())["seed"] == 2
        await pilot.press("s")  # this game's save now: no question
        await pilot.pause()
        assert not isinstance(app.screen, AskScreen)

    run(app, (80, 24), scenario)


def test_this_games_older_save_is_overwritten_without_a_question(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    session, names = played_session(2, 5, 4)
    SaveFile(session, bot_names=names).write(path)
    (again, names), _tr = play.build(args(resume=str(path), lang="en"))
    again_app = UnoApp(again, delay=60, save_path=tmp_path / "copy.json", bot_names=names)
    again_app.saves.write(tmp_path / "copy.json")
    (third, names), _tr = play.build(args(resume=str(path), lang="en", save=str(tmp_path / "copy.json")))
    app = UnoApp(third, delay=60, save_path=tmp_path / "copy.json", bot_names=names)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("s")
        await pilot.pause()
        assert not isinstance(app.screen, AskScreen) and "Game saved" in app.view.status_message

    run(app, (80, 24), scenario)


# ---------------------------------------------------------------- 7. a resumed Wild Draw Four


@pytest.mark.parametrize(("lang", "told", "status"), [
    ("en", "Player 2 plays Wild Draw Four on red and names green.", "The colour before it was red."),
    ("el", "Ο Παίκτης 2 ρίχνει Μπαλαντέρ Πάρε Τέσσερις πάνω στο κόκκινο και διαλέγει πράσινο.",
     "Πριν από αυτήν το χρώμα ήταν κόκκινο."),
])
def test_a_resumed_wild_draw_four_can_be_judged(tmp_path: Path, lang: str, told: str, status: str) -> None:
    game = Game.from_setup(hands=[["R1", "G2", "Y3"], ["W+4", "R5", "B7"]], discard="R3",
                           draw=["Y1", "Y2", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9"], dealer=0)
    session = Session(game, [None, Script("W+4=G")], translator(lang))
    session.bot_step()
    path = tmp_path / "g.json"
    SaveFile(session, bot_names=["heuristic"]).write(path)
    (again, names), _tr = play.build(args(resume=str(path), lang=lang))
    assert told in again.log
    app = UnoApp(again, delay=60, save_path=path, bot_names=names, resumed=path)

    async def scenario(pilot: Pilot[None]) -> None:
        text = flat(screen_text(app))
        assert flat(told) in text and flat(status) in text
        await pilot.press("x")  # it was a bluff (Player 2 held R5)
        await pilot.pause()
        assert any("bluff" in line or "μπλόφα" in line for line in again.log[-3:])

    run(app, (80, 24), scenario)


# ---------------------------------------------------------------- 8. a bluff in your hand


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["playable, but a bluff: you hold a card of the colour in play (red)", "! a bluff"]),
    ("el", ["παίζεται, αλλά είναι μπλόφα", "! μπλόφα"]),
    ("es", ["es un farol", "! un farol"]),
])
def test_a_wild_draw_four_held_with_the_colour_is_marked_a_bluff(tmp_path: Path, lang: str,
                                                                words: list[str]) -> None:
    game = Game.from_setup(hands=[["W+4", "R1", "G2"], ["Y5", "B7"]], discard="R3", draw=["Y1", "Y2"],
                           dealer=1)
    session = Session(game, [None, Script()], translator(lang))
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json")

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("end")  # the W+4 (sorted last)
        await pilot.pause()
        hand = str(app.query_one("#hand", Static).render())
        assert all(w in hand for w in words), hand
        await pilot.press("home")  # R1: plainly playable
        await pilot.pause()
        hand = str(app.query_one("#hand", Static).render())
        assert words[0] not in hand and words[1] in hand
        chips, marks = hand.split("\n")[:2]
        assert marks[chips.index("W+4") + 1] == "!"  # the W+4's mark: ! instead of •
        assert marks[chips.index("R1")] == "▲"

    run(app, (80, 24), scenario)


def test_a_wild_draw_four_without_the_colour_is_no_bluff(tmp_path: Path) -> None:
    game = Game.from_setup(hands=[["W+4", "G1", "G2"], ["Y5", "B7"]], discard="R3", draw=["Y1", "Y2"],
                           dealer=1)
    session = Session(game, [None, Script()], translator("en"))
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json")

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("end")
        await pilot.pause()
        hand = str(app.query_one("#hand", Static).render())
        assert "Wild Draw Four (W+4), playable" in hand and "bluff" not in hand

    run(app, (80, 24), scenario)


# ---------------------------------------------------------------- 9. the hands you have seen


@pytest.mark.parametrize(("lang", "when", "drawn"), [
    ("en", "Player 2, seen in round 1, move 2:", "+4 cards drawn since"),
    ("el", "Παίκτης 2, όπως φάνηκε στον γύρο 1, κίνηση 2:", "+4 κάρτες τραβηγμένες μετά"),
])
def test_the_hands_seen_say_when_and_drop_the_cards_played_since(tmp_path: Path, lang: str, when: str,
                                                                drawn: str) -> None:
    game = Game.from_setup(hands=[["R1", "G2", "Y3", "B4"], ["W+4", "R5", "B7", "G8"]], discard="R3",
                           draw=["Y1", "Y2", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "B1", "B2"], dealer=0)
    session = Session(game, [None, Script("W+4=G", "G8")], translator(lang))
    app = UnoApp(session, delay=0, save_path=tmp_path / "g.json")

    async def scenario(pilot: Pilot[None]) -> None:
        for _ in range(20):
            await pilot.pause()
            if game.awaiting == "respond":
                break
        seen = app.query_one("#seen", Static)
        log = app.query_one("#log", RichLog)
        assert not seen.display and log.size.width >= app.size.width - 2  # no room taken when empty
        await pilot.press("x")  # a bluff: Player 2 shows R5 B7 G8 and draws 4
        await pilot.pause()
        assert seen.display
        text = str(seen.render())
        assert when in text and "R5 G8 B7" in text and drawn in text
        await pilot.press("home", *["right"] * app.view.hand().index(parse_action("G2")), "enter")
        # Player 1 plays G2; Player 2 then plays G8
        for _ in range(20):
            await pilot.pause()
            if game.turn == 0:
                break
        text = str(seen.render())
        assert "R5 B7" in text and "G8" not in text and drawn in text
        region = seen.region  # on the screen, beside the moves
        assert region.width > 10 and region.height > 3 and region.right <= app.size.width

    run(app, (80, 24), scenario)


# ---------------------------------------------------------------- 11. words: bots, colour letters


def test_bot_names_and_colour_letters_are_in_the_players_language(tmp_path: Path) -> None:
    session, names = played_session(3, 4, 0, "es")
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json", bot_names=names)

    async def scenario(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        assert "Jugador 2 (heurístico)" in text and "heuristic" not in text
        assert "R rojo · Y amarillo · G verde · B azul" in text

    run(app, (80, 24), scenario)


def test_the_levels_are_named_in_the_players_language_with_their_ratings(tmp_path: Path) -> None:
    from unokit.bots import LEVEL_ELO

    (session, names), tr = play.build(args(players=4, seed=4, lang="fr", bots="easy,normal,hard"))
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json", bot_names=names)

    async def scenario(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        for seat, level in enumerate(("easy", "normal", "hard"), start=1):
            word = tr.pgettext("bot", level)
            assert word != level
            assert f"{tr._('Player {n}').format(n=seat + 1)} ({word} · Elo {LEVEL_ELO[level]})" in text

    run(app, (80, 24), scenario)


# ---------------------------------------------------------------- 12. who played what


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [2, 10])
def test_the_last_play_is_highlighted_for_a_moment(tmp_path: Path, size: tuple[int, int],
                                                   players: int) -> None:
    session, names = played_session(players, 3, 0)
    for _ in range(40):  # until a bot has just played
        if session.last_play is not None and session.last_play[0] != 0:
            break
        if session.waiting_for_human() and not session.bots_to_move():
            session.act(session.human_legal()[0])
        else:
            session.bot_step()
    seat, card = session.last_play or (-1, -1)
    # A long moment, so that a slow machine still sees it; its end is then brought forward
    # rather than waited for.
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json", bot_names=names, flash=600)

    async def scenario(pilot: Pilot[None]) -> None:
        assert app.view.flashing() == (seat, card)
        text = flat(screen_text(app))
        assert f"(played by Player {seat + 1})" in text
        if app.view.table_mode() == "list":
            line = next(li for li in str(app.query_one("#table", Static).render()).split("\n")
                        if f"Player {seat + 1} (" in li)
            assert line.rstrip().endswith(f"←  {card_str(card)}"), line
        app.view.flash_until = time.monotonic()  # the moment is over (brought forward): the highlight goes
        app.refresh_view()
        await pilot.pause()
        assert app.view.flashing() is None
        assert "←" not in str(app.query_one("#table", Static).render())
        assert f"(played by Player {seat + 1})" in flat(screen_text(app))  # still said, quietly

    run(app, size, scenario)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [2, 10])
def test_the_seat_on_turn_is_marked(tmp_path: Path, size: tuple[int, int], players: int) -> None:
    session, names = played_session(players, 3, 0)
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json", bot_names=names)

    async def scenario(pilot: Pilot[None]) -> None:
        turn = session.observe().turn
        if app.view.table_mode() == "list":
            text = app.view.seat_lines()
            line = text.plain.split("\n")[turn]
            assert line.startswith("▶ ") and f"Player {turn + 1}" in line
        else:
            grid = app.view.seat_grid()
            cells = list(grid.columns[turn + 1].cells)
            text = cells[0]
            assert isinstance(text, Text) and text.plain.startswith("▶")
        spans = [s for s in text.spans if str(s.style) == TURN_STYLE]
        assert spans, "the seat on turn is drawn reversed"
        assert "▶" in screen_text(app)

    run(app, size, scenario)


def _quick_round(players: int) -> Game:
    """Player 1 goes out with their only card; every other player holds two cards."""
    hands = [["R1"]] + [[f"G{i}", f"Y{i}"] for i in range(1, players)]
    return Game.from_setup(hands=hands, discard="R4", draw=["B1", "B2", "B3", "B4"], dealer=players - 1,
                           options=Options.from_mapping({"target": 5000}))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [2, 10])
def test_the_score_table_shows_each_hands_points(tmp_path: Path, size: tuple[int, int], players: int) -> None:
    game = _quick_round(players)
    session = Session(game, [None, *(Script() for _ in range(players - 1))], translator("en"))
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json")

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ScoreScreen)
        text = screen_text(app)
        for word in ("Cards left", "Points in hand", "This round", "Total"):
            assert word in text, text
        assert "Target: 5000 points" in text  # the whole table and its keys fit
        total = sum(2 * i for i in range(1, players))
        console = Console(width=72, file=io.StringIO(), color_system=None, record=True)
        console.print(app.view.score_table())
        table = [flat(r) for r in console.export_text().split("\n")]
        winner = next(r for r in table if "Player 1 ★" in r)
        assert winner.split()[-4:] == ["0", "0", f"+{total}", str(total)], winner
        last = next(r for r in table if r.startswith(f"Player {players} "))
        assert last.split()[-4:] == ["2", str(2 * (players - 1)), "0", "0"], last
        assert "Enter: next round" in text  # the whole table and its keys fit

    run(app, size, scenario)


def test_the_score_table_in_greek(tmp_path: Path) -> None:
    game = _quick_round(10)
    session = Session(game, [None, *(Script() for _ in range(9))], translator("el"))
    app = UnoApp(session, delay=60, save_path=tmp_path / "g.json")

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("enter")
        await pilot.pause()
        text = flat(screen_text(app))
        for word in ("Βαθμολογία μετά τον γύρο 1", "Παίκτης 1 ★ 0 0 +90 90", "Παίκτης 10 2 18 0 0",
                     "Στόχος: 5000 βαθμοί", "Enter: επόμενος γύρος"):
            assert word in text, (word, text)
        console = Console(width=120, file=io.StringIO(), color_system=None, record=True)
        console.print(app.view.score_table())
        header = console.export_text()
        assert all(w in header for w in ("Κάρτες στο χέρι", "Βαθμοί στο χέρι", "Αυτός ο γύρος", "Σύνολο"))

    run(app, (80, 24), scenario)


def test_the_greek_genitive(tmp_path: Path) -> None:
    game = Game.from_setup(hands=[["R1", "G2", "Y3"], ["W+4", "R5", "B7"]], discard="R3",
                           draw=["Y1", "Y2", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9"], dealer=0)
    session = Session(game, [None, Script("W+4=G")], translator("el"))
    app = UnoApp(session, delay=0, save_path=tmp_path / "g.json")

    async def scenario(pilot: Pilot[None]) -> None:
        for _ in range(20):
            await pilot.pause()
            if game.awaiting == "respond":
                break
        await pilot.press("x")
        await pilot.pause()
        text = flat(screen_text(app))
        assert "Παίκτη 2: ήταν μπλόφα!" in text and "του Παίκτης" not in text
        assert "Αμφισβητείτε το Μπαλαντέρ Πάρε Τέσσερις του Παίκτη 2: ήταν μπλόφα!" in session.log

    run(app, (80, 24), scenario)



def test_a_resumed_game_as_it_was_saved_quits_at_once(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    session, names = played_session(2, 5, 12)
    SaveFile(session, bot_names=names).write(path)
    (again, names), _tr = play.build(args(resume=str(path), lang="en"))
    app = UnoApp(again, delay=60, save_path=path, bot_names=names, resumed=path)
    exits: list[bool] = []
    app.exit = lambda *a, **k: exits.append(True)  # type: ignore[method-assign]

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert exits == [True] and not isinstance(app.screen, AskScreen)

    run(app, (80, 24), scenario)
    assert app.farewell().startswith(f"Game saved to {path}.") or app.farewell().startswith("Game saved.")
