"""Drive a game with bots, through the one table driver (:mod:`unokit.core.table`).

The table decides who is asked: after every action of the seat on turn, the seats that have
an out-of-turn choice (catching a missed UNO call, calling UNO, jumping in) are asked first,
starting from the seat after the one on turn, so no seat has a fixed priority; then the seat
on turn must act. Each bot sees only its own seat's observation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.actions import Action
from ..core.errors import IllegalActionError
from ..core.events import Event
from ..core.game import Game
from ..core.phases import ROUND_OVER
from ..core.table import Table
from .base import Bot

OnAction = Callable[[Game, int, Action], None]
"""Called after each applied action with the game, the seat and the action."""

OnEvents = Callable[[Game, int, Action, tuple[Event, ...]], None]
"""Called after each applied action with the game, the seat, the action and its events."""


def ask(table: Table, bots: Sequence[Bot]) -> tuple[int, Action | None]:
    """Ask the seat the table waits on; returns ``(seat, action)``, the action ``None`` when
    a seat asked out of turn takes nothing now (its turn to be asked passes)."""
    seat = table.next_seat()
    if seat is None:
        raise IllegalActionError(-1, "nothing", "the round is over")
    game = table.game
    action = bots[seat].act(game.observe(seat))
    if action is None:
        if table.must_act(seat):
            raise IllegalActionError(seat, "nothing", f"bot {bots[seat].name!r} must act on its turn")
        table.decline(seat)
        return seat, None
    if action not in game.legal_actions(seat):
        raise IllegalActionError(seat, str(action), f"bot {bots[seat].name!r} chose an illegal action")
    return seat, action


def play_round(game: Game, bots: Sequence[Bot], on_action: OnAction | None = None,
               max_steps: int = 100_000, on_events: OnEvents | None = None) -> None:
    """Play the current round to its end. ``on_events`` receives each action's events (they
    are built only when it is given)."""
    table = Table(game)
    for _ in range(max_steps * game.n):
        if game.phase >= ROUND_OVER:
            return
        seat, action = ask(table, bots)
        if action is None:
            continue
        if on_events is not None:
            on_events(game, seat, action, table.act(seat, action))
        else:
            table.step(seat, action)
        if on_action is not None:
            on_action(game, seat, action)
    raise RuntimeError(f"round did not end within {max_steps} steps")


def play_match(game: Game, bots: Sequence[Bot], on_action: OnAction | None = None,
               on_round_end: Callable[[Game], None] | None = None,
               max_rounds: int = 10_000, on_events: OnEvents | None = None) -> Game:
    """Play ``game`` to the end of the match with one bot per seat; returns the game."""
    if len(bots) != game.n:
        raise ValueError(f"{game.n} seats need {game.n} bots, not {len(bots)}")
    for _ in range(max_rounds):
        play_round(game, bots, on_action, on_events=on_events)
        if on_round_end is not None:
            on_round_end(game)
        if game.is_over:
            return game
        game.start_round(events=False)
    raise RuntimeError(f"match did not end within {max_rounds} rounds")
