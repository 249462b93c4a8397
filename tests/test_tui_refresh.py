"""One refresh of ``unokit play``'s screen builds what it shows once: the view's frame, and in it
each piece (the hand, the status line, the key bar, the table's lines, the seen hands, the
players), however many panels and layout checks use it. Counted through Textual's pilot, over
a few moves, the bots' turns, a note and a resized terminal, with the table as a list and as a
grid."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from conftest import play_args as args
from unokit.commands import play
from unokit.core.phases import COLOR, DRAWN, RESPOND, SWAP
from unokit.tui.app import UnoApp
from unokit.tui.screens import ScoreScreen
from unokit.tui.view import View

BUILT = ("frame", "hand_views", "status_text", "keys_text", "info_lines", "seen_text", "seat_lines",
         "seat_grid", "layout")
"""The view's builders counted: the frame, and the pieces it is made of."""


def _count_builds(monkeypatch: pytest.MonkeyPatch, calls: Counter[str]) -> None:
    """Count every call of the view's builders in ``calls`` (each still builds as it does)."""
    for name in BUILT:
        original: Callable[..., Any] = getattr(View, name)

        def counted(self: View, *a: Any, _name: str = name, _original: Callable[..., Any] = original,
                    **k: Any) -> Any:
            calls[_name] += 1
            return _original(self, *a, **k)

        monkeypatch.setattr(View, name, counted)


async def _back_to_the_human(pilot: Pilot[None], app: UnoApp) -> None:
    s = app.session
    for _ in range(2000):
        if isinstance(app.screen, ScoreScreen) or (s.waiting_for_human() and not s.bots_to_move()):
            return
        await pilot.pause()
    raise AssertionError("the bots never handed back to the human")


async def _move(pilot: Pilot[None], app: UnoApp) -> None:
    """The human's move by keys: the first card they may play, else a draw (and a pass)."""
    s, game = app.session, app.session.game
    if game.phase == COLOR:
        keys = ["r"]
    elif game.phase == SWAP:
        keys = [str(game.next_seat(s.human) + 1)]
    elif game.phase == RESPOND and not app.view.playable():
        keys = ["a"]
    elif game.phase == DRAWN:
        keys = ["p"] if not app.view.playable() else ["enter", "r"]
    elif app.view.playable():
        card = next(c for c in app.view.hand() if c in app.view.playable())
        keys = ["home", *["right"] * app.view.hand().index(card), "enter", "r"]
    else:
        keys = ["d"]
    await pilot.press(*keys)
    await _back_to_the_human(pilot, app)


@pytest.mark.parametrize(("players", "size", "mode"), [(2, (80, 24), "list"), (10, (80, 24), "grid")])
def test_a_refresh_builds_the_frame_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int,
                                         size: tuple[int, int], mode: str) -> None:
    (session, names), _tr = play.build(args(players=players, seed=7, lang="en", option=["target=5000"]))
    app = UnoApp(session, delay=0, save_path=tmp_path / "g.json", bot_names=names)
    calls: Counter[str] = Counter()
    _count_builds(monkeypatch, calls)
    refreshes: list[Counter[str]] = []
    refresh = app.refresh_view

    def counted_refresh() -> None:
        calls.clear()
        refresh()
        refreshes.append(calls.copy())

    monkeypatch.setattr(app, "refresh_view", counted_refresh)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await _back_to_the_human(pilot, app)
            assert app.view.table_mode() == mode
            await pilot.press("right", "left", "end", "escape", "c")  # "c": a note (nobody to catch)
            for _ in range(6):
                if isinstance(app.screen, ScoreScreen):
                    break
                await _move(pilot, app)
            await pilot.resize_terminal(size[0] + 20, size[1] + 6)
            await pilot.pause()
            await pilot.pause()

    asyncio.run(main())
    drawn = [built for built in refreshes if built]
    assert len(drawn) >= 10, refreshes
    for built in drawn:
        assert built["frame"] == 1, built
        assert max(built.values()) == 1, built  # no piece built twice
        assert built["layout"] == 0, built  # the frame fits the layout from its own pieces
        assert built["seat_lines"] + built["seat_grid"] == 1, built
    players_drawn = {"list": "seat_lines", "grid": "seat_grid"}[mode]
    assert sum(built[players_drawn] for built in drawn) >= 10
