"""Drive a game with bots: who is asked, and in what order.

After every action, the seats that have an out-of-turn choice (catching a missed UNO
call, calling UNO, jumping in) are asked first, starting from the seat after the one on
turn, so no seat has a fixed priority; then the seat on turn must act. Each bot sees only
its own seat's observation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..actions import ACTION_KIND, K_CATCH, K_PLAY, K_UNO, Action
from ..errors import IllegalActionError
from ..game import ROUND_OVER, Game
from .base import Bot

OnAction = Callable[[Game, int, Action], None]
"""Called after each applied action with the game, the seat and the action."""


def out_of_turn_seats(game: Game) -> list[int]:
    """The seats other than the one on turn that may get an out-of-turn choice now, in the
    order they are asked (starting after the seat on turn). Empty when no one can have one."""
    if not game.window and not any(game.owed) and not game.options.jump_in:
        return []
    n = game.n
    order = [(game.turn + i) % n for i in range(1, n)]
    return [s for s in order if not game.eliminated[s]]


def has_out_of_turn_choice(game: Game, seat: int) -> bool:
    """Whether ``seat`` may now catch a missed UNO call, call UNO, or jump in."""
    return any(ACTION_KIND[a] in (K_CATCH, K_UNO, K_PLAY) for a in game.legal_actions(seat))


def step(game: Game, bots: Sequence[Bot], on_action: OnAction | None = None) -> None:
    """One round of asking: out-of-turn choices first, then the seat on turn acts once."""
    for seat in out_of_turn_seats(game):
        if not has_out_of_turn_choice(game, seat):
            continue
        action = bots[seat].act(game.observe(seat))
        if action is None:
            continue
        _apply(game, seat, action, bots, on_action)
        if game.phase >= ROUND_OVER:
            return
    seat = game.turn
    action = bots[seat].act(game.observe(seat))
    if action is None:
        raise IllegalActionError(seat, "nothing", f"bot {bots[seat].name!r} must act on its turn")
    _apply(game, seat, action, bots, on_action)


def _apply(game: Game, seat: int, action: Action, bots: Sequence[Bot],
           on_action: OnAction | None) -> None:
    if action not in game.legal_actions(seat):
        raise IllegalActionError(seat, str(action), f"bot {bots[seat].name!r} chose an illegal action")
    game.apply(seat, action)
    if on_action is not None:
        on_action(game, seat, action)


def play_round(game: Game, bots: Sequence[Bot], on_action: OnAction | None = None,
               max_steps: int = 100_000) -> None:
    """Play the current round to its end."""
    for _ in range(max_steps):
        if game.phase >= ROUND_OVER:
            return
        step(game, bots, on_action)
    raise RuntimeError(f"round did not end within {max_steps} steps")


def play_match(game: Game, bots: Sequence[Bot], on_action: OnAction | None = None,
               on_round_end: Callable[[Game], None] | None = None,
               max_rounds: int = 10_000) -> Game:
    """Play ``game`` to the end of the match with one bot per seat; returns the game."""
    if len(bots) != game.n:
        raise ValueError(f"{game.n} seats need {game.n} bots, not {len(bots)}")
    for _ in range(max_rounds):
        play_round(game, bots, on_action)
        if on_round_end is not None:
            on_round_end(game)
        if game.is_over:
            return game
        game.start_round()
    raise RuntimeError(f"match did not end within {max_rounds} rounds")
