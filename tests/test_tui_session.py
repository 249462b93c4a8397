"""The terminal game's session: its move log is told from the events (the first card's effect,
a resumed round's moves), and the table decides who is asked, the human included."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Script
from conftest import play_args as args
from unokit import Game
from unokit.bots.registry import make_bot
from unokit.commands import play
from unokit.core.actions import Action, catch_action
from unokit.core.observation import Observation
from unokit.text.i18n import translator
from unokit.tui.session import Session


def test_the_first_cards_effect_is_told() -> None:
    """``unokit play --players 3 --seed 5`` turns up a Draw Two: the log says who draws and is skipped."""
    (session, _names), _tr = play.build(args(players=3, seed=5, lang="en"))
    assert session.log[:4] == ["Round 1: Player 3 deals.", "The first card is yellow Draw Two.",
                               "You draw 2 cards.", "You are skipped."]
    assert session.game.turn == 1
    (greek, _names), _tr = play.build(args(players=3, seed=5, lang="el"))
    assert greek.log[2:4] == ["Τραβάτε 2 κάρτες.", "Χάνετε τη σειρά σας."]


def _play_some(session: Session, moves: int) -> None:
    for _ in range(moves):
        if session.game.awaiting == "game_over":
            return
        if session.game.awaiting == "round_over":
            session.next_round()
        elif session.waiting_for_human() and not session.bots_to_move():
            session.act(session.human_legal()[0])
        else:
            session.bot_step()


def _this_round(session: Session) -> list[str]:
    """The session's log from the current round's first line on."""
    obs = session.observe()
    header = session.tr._("Round {n}: {dealer} deals.").format(n=obs.round_no + 1,
                                                               dealer=session.name(obs.dealer))
    return session.log[session.log.index(header):]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_resumed_game_shows_the_rounds_moves_so_far(tmp_path: Path, lang: str) -> None:
    (session, names), _tr = play.build(args(players=3, seed=11, lang=lang, bots="random",
                                            option=["target=500"]))
    _play_some(session, 80)
    game = session.game
    while len(game.history) < 6 or game.awaiting in ("round_over", "game_over"):
        _play_some(session, 1)
    assert game.round_no > 0  # a later round: its own moves only
    from unokit.tui.saving import SaveFile

    path = tmp_path / "save.json"
    SaveFile(session, path, bot_names=names).save()
    (again, _names), _tr = play.build(args(resume=str(path), lang=lang))
    told = _this_round(session)
    assert len(told) > 4 + len(game.history) // 2  # the deal, and a line or more per move
    assert again.log == told
    assert again.observe().hand == session.observe().hand


class Quiet:
    """A bot that plays its first legal action on its turn and never acts out of turn."""

    name = "quiet"

    def act(self, obs: Observation) -> Action | None:
        return obs.legal[0] if obs.turn == obs.seat else None



def _missed_call() -> Session:
    """Seat 1 (a bot) plays its next-to-last card without calling UNO; seat 2 is on turn next."""
    game = Game.from_setup(hands=[["G1", "G2", "G3"], ["R5", "R6"], ["Y7", "Y8", "R9"]],
                           discard="R4", draw=["B1", "B2", "B3", "B4"], dealer=0)
    session = Session(game, [None, Script("R5"), Quiet()], translator("en"))
    assert game.turn == 1 and session.bots_to_move() and not session.waiting_for_human()
    assert session.bot_step()
    assert session.log[-2:] == ["Player 2 plays red 5.", "Player 2 has one card left and did not call UNO."]
    return session


def test_the_human_may_catch_before_the_bots_go_on() -> None:
    session = _missed_call()
    game = session.game
    # The table asks the human first (out of turn): the app waits, the human may catch.
    assert game.turn == 2 and session.catchable() == [1]
    assert session.table.next_seat() == 0 and session.bots_to_move()
    session.act(catch_action(1))
    assert session.log[-2:] == ["You catch Player 2 without an UNO call.", "Player 2 draws 2 cards."]
    assert game.hand_sizes()[1] == 3


def test_a_chance_the_human_lets_pass_is_declined_for_them() -> None:
    session = _missed_call()
    game = session.game
    # The next step answers "nothing now" for the human, asks seat 1 (which does not call
    # UNO), and lets the bot on turn play: the catch window closes.
    assert session.bot_step()
    assert session.log[-1] == "Player 3 plays red 9."
    assert session.catchable() == [] and game.turn == 0 and session.waiting_for_human()
    # Seat 1 may still call UNO: it is asked first (and says nothing), then the human is on turn.
    assert session.table.next_seat() == 1 and session.bots_to_move()
    assert not session.bot_step()
    assert session.table.next_seat() == 0 and not session.bots_to_move()
    assert not session.bot_step()  # the human is on turn: nothing for the bots to do


def test_a_bot_with_nothing_to_say_out_of_turn_is_passed_over() -> None:
    game = Game.new("classic", 4, seed=3)
    bots = [None, *(make_bot("heuristic", seed=s) for s in range(3))]
    session = Session(game, bots, translator("en"))
    _play_some(session, 60)
    assert len(session.log) > 20


def test_the_moves_panel_shows_the_first_cards_effect(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    import asyncio

    from textual.widgets import RichLog

    from unokit.tui.app import UnoApp

    (session, names), _tr = play.build(args(players=3, seed=5, lang="en", delay=0))
    app = UnoApp(session, delay=10, save_path=tmp_path / "g.json", bot_names=names)

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            shown = [strip.text for strip in app.query_one("#log", RichLog).lines]
            assert "You draw 2 cards." in shown and "You are skipped." in shown
            assert "Waiting for Player 2" in str(app.query_one("#status").render())

    asyncio.run(scenario())
