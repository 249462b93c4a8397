"""``unokit play`` driven headless through Textual's pilot: a whole match, by key presses."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from decisions import DecisionsSession
from unokit import Game, Options
from unokit.bots.registry import make_bot
from unokit.core.actions import ACTION_CARD, ACTION_KIND, K_PLAY, UNO, Action, parse_action
from unokit.core.cards import card_str, parse_card
from unokit.core.observation import Observation
from unokit.core.phases import COLOR, DRAWN, RESPOND, ROUND_OVER, SWAP
from unokit.core.record import load_game
from unokit.text.i18n import translator
from unokit.tui.app import UnoApp
from unokit.tui.screens import ScoreScreen
from unokit.tui.session import Session


class ScriptedBot:
    """Plays the given actions on its turns, then hands over to a heuristic bot."""

    name = "scripted"

    def __init__(self, script: list[str]) -> None:
        self.script = [parse_action(a) for a in script]
        self.then = make_bot("heuristic", seed=3)
        self.quiet = True

    def act(self, obs: Observation) -> Action | None:
        if obs.turn != obs.seat and (self.script or self.quiet):
            return None  # never calls UNO after its scripted plays: there is something to catch
        if self.script:
            return self.script.pop(0)
        self.quiet = False
        return self.then.act(obs)


async def settle(pilot: Pilot[None], app: UnoApp) -> None:
    """Wait until the human must decide, a score table is up, or the game is over."""
    for _ in range(5000):
        g = app.session.game
        if isinstance(app.screen, ScoreScreen):
            return
        if g.phase < ROUND_OVER and app.session.waiting_for_human() and not app.session.bots_to_move():
            return
        if app.session.catchable() and g.turn == app.session.human:
            return
        await pilot.pause()
    raise AssertionError("the app never came back to the human")


async def press(pilot: Pilot[None], app: UnoApp, *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot, app)


async def select(pilot: Pilot[None], app: UnoApp, card: str) -> None:
    """Move the cursor onto ``card`` with the arrow keys."""
    target = app.view.hand().index(parse_card(card))
    await pilot.press("home", *(["right"] * target))
    assert app.view.hand()[app.view.cursor] == parse_card(card)


async def policy_move(pilot: Pilot[None], app: UnoApp) -> None:
    """A simple human: catch, call UNO, otherwise play the first playable card, else draw."""
    s = app.session
    g = s.game
    if s.catchable():
        await press(pilot, app, "c")
        return
    if UNO in s.human_legal():
        await press(pilot, app, "u")
        return
    if g.phase == COLOR:
        await press(pilot, app, "r")
    elif g.phase == SWAP:
        await press(pilot, app, str(g.next_seat(s.human) + 1))
    elif g.phase == RESPOND:
        await press(pilot, app, "a")
    elif g.phase == DRAWN:
        playable = [a for a in s.human_legal() if ACTION_KIND[a] == K_PLAY]
        if playable:
            await press(pilot, app, "enter", *(["r"] if ACTION_CARD[playable[0]] >= 52 else []))
        else:
            await press(pilot, app, "p")
    else:
        playable = app.view.playable()
        if not playable:
            await press(pilot, app, "d")
            return
        card = next(c for c in app.view.hand() if c in playable)
        await select(pilot, app, card_str(card))
        if len(g.hands[s.human]) == 2:
            await pilot.press("u")  # arm the UNO call for the next-to-last card
        await press(pilot, app, "enter", *(["r"] if card >= 52 else []))


def test_whole_match_makes_every_kind_of_decision(tmp_path: Path) -> None:
    # Round 1 is stacked so that every decision comes up; later rounds are dealt from the seed.
    game = Game.from_setup(
        hands=[["WP", "G7", "G2"], ["R+2", "W+4", "Y1", "B4", "G9"]],
        discard="R5",
        draw=["Y9", "B6", "B7", "B8", "Y8", "B9", "R9", "R1", "R2", "R3", "R4", "G1"],
        dealer=1,
        edition="phineas-ferb",
        options=Options.from_mapping({"seven_zero": True, "target": 60}),
        seed=5,
    )
    bot = ScriptedBot(["R+2", "W+4=G", "G2"])
    session = DecisionsSession(game, [None, bot], translator("en"), bot_kinds=["", "scripted"])
    save = tmp_path / "game.json"
    app = UnoApp(session, delay=0, save_path=save, bot_names=["heuristic"])

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            # 1. Draw (Y9 does not match R5) and pass.
            await press(pilot, app, "d")
            assert game.awaiting == "drawn" and game.drawn == parse_card("Y9")
            await press(pilot, app, "p")
            # 2. The bot plays R+2; answer with Agent P naming yellow.
            assert game.awaiting == "respond"
            await select(pilot, app, "WP")
            await press(pilot, app, "enter", "y")
            assert game.hand_sizes()[1] == 5  # took R+2 and R5, then played the W+4
            # 3. The bot bluffs a Wild Draw Four (it holds Y1): challenge it.
            assert game.awaiting == "respond" and game.top == 53
            await press(pilot, app, "x")
            assert game.hand_sizes()[1] == 9 and game.turn == 0
            assert "Player 2" in str(app.query_one("#seen").render())  # its hand was shown
            # 4. Play G7 and swap hands with player 2.
            await select(pilot, app, "G7")
            await press(pilot, app, "enter")
            assert game.awaiting == "swap"
            await press(pilot, app, "2")
            # 5. The bot plays G2 without calling UNO: catch it.
            assert session.catchable() == [1], "\n".join(session.log)
            await press(pilot, app, "c")
            assert game.hand_sizes()[1] == 3
            # The rest of the match: a simple policy, through the keys.
            for _ in range(3000):
                if game.is_over:
                    break
                if isinstance(app.screen, ScoreScreen):
                    await press(pilot, app, "enter")
                    continue
                await policy_move(pilot, app)
            assert game.is_over
            assert isinstance(app.screen, ScoreScreen) and app.screen.final
            await pilot.press("s")
            await pilot.press("q")

    asyncio.run(scenario())
    kinds = {"play", "draw", "pass", "color", "uno", "catch", "challenge", "agent_p", "swap"}
    assert kinds <= session.decisions
    log = "\n".join(session.log)
    for words in ("answer with Agent P", "it was a bluff", "swap hands with Player 2",
                  "catch Player 2 without an UNO call", "won the game"):
        assert words in log
    # The saved record replays to the same final state.
    again = load_game(save)
    assert again.is_over and again.scores == game.scores and again.hands == game.hands
    assert json.loads(save.read_text())["play"]["bots"] == ["heuristic"]


def test_help_and_language(tmp_path: Path) -> None:
    game = Game.new("cars2", 3, seed=2)
    tr = translator("es")
    session = Session(game, [None, make_bot("random", seed=1), make_bot("random", seed=2)], tr)
    app = UnoApp(session, delay=0, save_path=tmp_path / "g.json")

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert "Tu mano" in str(app.query_one("#hand").border_title)
            await pilot.press("question_mark")
            await pilot.pause()
            assert type(app.screen).__name__ == "HelpScreen"
            await pilot.press("escape")
            await pilot.pause()
            while game.awaiting != "play" or app.session.catchable() or UNO in app.session.human_legal():
                await policy_move(pilot, app)
            assert game.turn == 0
            await press(pilot, app, "d")
            await pilot.press("q")

    asyncio.run(scenario())
    assert any("roba una carta" in line for line in session.log)
