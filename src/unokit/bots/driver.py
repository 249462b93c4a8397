"""Drive a game with bots, through the one loop around the table (:mod:`unokit.core.drive`).

The table decides who is asked: after every action of the seat on turn, the seats that have
an out-of-turn choice (catching a missed UNO call, calling UNO, jumping in) are asked first,
starting from the seat after the one on turn, so no seat has a fixed priority; then the seat
on turn must act. Each bot sees only its own seat's observation. A bot's answer is settled by
the loop's one policy: nothing or an illegal action out of turn declines, on its turn it is
replaced by the seat's first legal action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.actions import Action
from ..core.drive import Ask, Decision, Step, drive
from ..core.events import Event
from ..core.game import Game
from ..core.table import Table
from .base import Bot

OnAction = Callable[[Game, int, Action], None]
"""Called after each applied action with the game, the seat and the action."""

OnEvents = Callable[[Game, int, Action, tuple[Event, ...]], None]
"""Called after each applied action with the game, the seat, the action and its events."""


def bot_answers(game: Game, bots: Sequence[Bot]) -> Ask:
    """The answers of ``bots`` (one per seat) to the table's decisions: each bot is shown its
    own seat's observation."""

    def answer(decision: Decision) -> Action | None:
        return bots[decision.seat].act(game.observe(decision.seat))

    return answer


def play_round(game: Game, bots: Sequence[Bot], on_action: OnAction | None = None,
               max_steps: int = 100_000, on_events: OnEvents | None = None) -> None:
    """Play the current round to its end. ``on_events`` receives each action's events (they
    are built only when it is given)."""
    on_step: Callable[[Step], None] | None = None
    if on_action is not None or on_events is not None:
        def on_step(step: Step) -> None:
            if step.action is None:
                return
            if on_events is not None:
                on_events(game, step.decision.seat, step.action, step.events)
            if on_action is not None:
                on_action(game, step.decision.seat, step.action)

    drive(Table(game), bot_answers(game, bots), events=on_events is not None, on_step=on_step,
          max_steps=max_steps * game.n)


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
