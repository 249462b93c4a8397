"""A room's record as the server reads it back: a stored position brought up to the end of
the record (:func:`resume`), the record's changes after a game (:func:`record_after`), the
stored declines replayed on a table (:func:`replay_declines`), and an action's notation as a
client sends it (:func:`game_action`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..core.actions import Action
from ..core.codec import parse_action_line
from ..core.errors import NotationError
from ..core.game import Game
from ..core.record import record_of
from ..core.table import Table


def replay_declines(table: Table, seats: Iterable[int]) -> list[int]:
    """Decline ``seats`` in order on ``table``, as far as each is the seat asked next and may
    decline (it is asked out of turn); returns the seats declined."""
    done = []
    for seat in seats:
        if table.next_seat() != seat or table.must_act(seat):
            break
        table.decline(seat)
        done.append(seat)
    return done


def resume(game: Game, record: dict[str, Any]) -> Game | None:
    """``game`` (a stored position) brought up to the end of ``record`` by the record's actions
    and deals after it, or ``None`` if the position is not a beginning of the record."""
    own = record_of(game)
    rounds, mine = record["rounds"], own["rounds"]
    r = len(mine) - 1
    if ({k: v for k, v in own.items() if k != "rounds"} != {k: v for k, v in record.items() if k != "rounds"}
            or r >= len(rounds) or mine[:r] != rounds[:r]
            or {k: v for k, v in mine[r].items() if k != "actions"}
            != {k: v for k, v in rounds[r].items() if k != "actions"}
            or mine[r]["actions"] != rounds[r]["actions"][:len(mine[r]["actions"])]):
        return None
    for step in record_after(game, record) or ():
        if step is None:
            game.start_round(events=False)
        elif step[0] < 0:
            game.apply_host(step[1])
        else:
            game.step(*step)
    return game if record_of(game) == record else None


def record_after(game: Game, record: dict[str, Any]) -> Iterator[tuple[int, Action] | None] | None:
    """The changes of ``record`` after ``game``'s last one, in order, for the caller to apply
    one by one: each action as ``(seat, action)`` (seat -1: the host), and ``None`` where the
    next round is dealt. ``None`` if the record has fewer rounds, or fewer actions in the
    game's round, than the game (it is not a beginning of the record)."""
    rounds = record["rounds"]
    r, start = len(game.rounds) - 1, len(game.history)
    if r >= len(rounds) or start > len(rounds[r]["actions"]):
        return None

    def steps(r: int, start: int) -> Iterator[tuple[int, Action] | None]:
        while True:
            for line in rounds[r]["actions"][start:]:
                yield parse_action_line(line)
            r += 1
            if r >= len(rounds):
                return
            yield None
            start = 0

    return steps(r, start)


def game_action(text: str) -> Action:
    """An action's notation as the engine reads it (``R7``, ``catch 2``); raises NotationError."""
    from ..core.actions import parse_action

    if len(text) > 40:
        raise NotationError("not an action")
    return parse_action(text.strip())


__all__ = ["game_action", "record_after", "replay_declines", "resume"]
