"""The one loop around the table: ask the seat the table waits on, settle its answer, apply it.

Every caller that lets players (bots, people, RL policies) take their decisions goes through
these three steps: the bot driver, the arena and the tournament, the terminal game, the RL
environments and the web server. A synchronous caller runs :func:`drive`; the server, which
asks a bot in a thread and applies its answer later, calls :func:`next_decision` and
:func:`settle` itself.

A player's answer is settled by one policy, the same for everyone:

- a legal action is taken as it is;
- nothing (``None``) or an illegal action from a seat asked **out of turn** is "nothing now":
  the seat declines, and the next one is asked;
- nothing or an illegal action from the **seat on turn**, which must act, is replaced by the
  seat's first legal action (:func:`fallback`), and the step says it was replaced.

>>> from unokit import Game
>>> from unokit.core.table import Table
>>> game = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1"], dealer=1)
>>> table = Table(game)
>>> decision = next_decision(table)
>>> decision.seat, decision.must
(0, True)
>>> settle(table, decision, None)     # nothing on its turn: its first legal action, replaced
(1, True)
>>> taken = []
>>> drive(table, lambda d: None, on_step=taken.append, until=lambda step: step.decision.must)
1
>>> [(s.decision.seat, s.action, s.replaced) for s in taken]
[(0, 1, True)]
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from .actions import Action
from .errors import IllegalActionError, UnoError
from .events import Event
from .game import Game
from .table import Decision, Table


class Step(NamedTuple):
    """What one decision came to: the ``action`` applied (``None``: the seat declined), whether
    the player's answer was ``replaced`` by the policy, and the action's ``events`` (empty when
    the loop was asked for none, or when the seat declined)."""

    decision: Decision
    action: Action | None
    replaced: bool
    events: tuple[Event, ...] = ()


WAIT: Final = -1
"""An answer that is no decision yet: a person still thinking. :func:`drive` stops there."""

Ask = Callable[[Decision], "Action | None"]
"""How a caller gets a seat's answer: an action, ``None`` (nothing now), or :data:`WAIT`."""


def next_decision(table: Table) -> Decision | None:
    """The decision the table waits on, or ``None`` when the round is over."""
    return table.asked()


def fallback(game: Game, seat: int) -> Action:
    """The action taken for the seat on turn when its player gave nothing legal: its first
    legal action (:meth:`Game.legal_actions <unokit.core.game.Game.legal_actions>` lists the
    plays in hand order, then draw; accepting a draw card first; colours in R, Y, G, B order)."""
    legal = game.legal_actions(seat)
    if not legal:
        raise IllegalActionError(seat, "nothing", "the seat has no legal action")
    return legal[0]


def settle(table: Table, decision: Decision, answer: Action | None) -> tuple[Action | None, bool]:
    """The policy: ``(action to apply, replaced)`` for ``answer`` to ``decision``; the action
    is ``None`` when the seat declines. Raises :class:`IllegalActionError` for a stale
    decision (the game or the asking moved on since it was made)."""
    if table.game.version != decision.version or table.next_seat() != decision.seat:
        raise IllegalActionError(decision.seat, "nothing", "the table has moved on since the seat was asked")
    return _policy(table.game, decision, answer)


def _policy(game: Game, decision: Decision, answer: Action | None) -> tuple[Action | None, bool]:
    if answer is not None and answer in game.legal_actions(decision.seat):
        return answer, False
    if not decision.must:
        return None, answer is not None
    return fallback(game, decision.seat), True


def take(table: Table, decision: Decision, answer: Action | None, *, events: bool = True) -> Step:
    """Settle ``answer`` to ``decision`` (:func:`settle`) and apply it: the action, or the
    seat's decline."""
    action, replaced = settle(table, decision, answer)
    return apply(table, decision, action, replaced=replaced, events=events)


def apply(table: Table, decision: Decision, action: Action | None, *, replaced: bool = False,
          events: bool = True) -> Step:
    """Apply a settled ``action`` for ``decision`` (``None``: the seat declines), as
    :func:`take` does after :func:`settle`; for a caller that has checked the answer itself
    (an RL environment checks an agent's action against its mask)."""
    if action is None:
        table.decline(decision.seat)
        return Step(decision, None, replaced)
    if events:
        return Step(decision, action, replaced, table.act(decision.seat, action))
    table.step(decision.seat, action)
    return Step(decision, action, replaced)


def drive(table: Table, ask: Ask | Sequence[Ask | None], *, events: bool = False,
          until: Callable[[Step], bool] | None = None, on_step: Callable[[Step], None] | None = None,
          max_steps: int | None = None) -> int:
    """Ask, settle and apply until the round is over, ``ask`` answers :data:`WAIT`, or
    ``until(step)`` is true after a step (``ask`` may be one ask a seat, ``None`` for a seat
    played from outside the loop: :data:`WAIT` when it is asked); returns the number of steps
    taken (declines included). ``events``: build each action's events (into :attr:`Step.events`) for
    ``on_step``. ``max_steps`` bounds the loop (a :class:`RuntimeError` past it) for callers
    that must never hang."""
    game = table.game
    asks: Sequence[Ask | None] = [ask] * game.n if callable(ask) else ask  # one ask a seat
    if on_step is None and until is None and not events:
        return _drive_plain(table, asks, max_steps)
    taken = 0
    while True:
        decision = table.asked()
        if decision is None:
            return taken
        one = asks[decision[0]]
        if one is None:
            return taken
        answer = one(decision)
        if answer == WAIT:
            return taken
        taken += 1
        action, replaced = _policy(game, decision, answer)
        step = apply(table, decision, action, replaced=replaced, events=events)
        if on_step is not None:
            on_step(step)
        if until is not None and until(step):
            return taken
        if max_steps is not None and taken >= max_steps:
            raise RuntimeError(f"the round did not end within {max_steps} decisions")


def _drive_plain(table: Table, asks: Sequence[Ask | None], max_steps: int | None) -> int:
    """:func:`drive` with no :class:`Step` to build (no events, ``until`` or ``on_step``): the
    policy inlined, the game checking the answer (refused, nothing changes). The loop of the
    RL environments and of simulations, kept lean: it runs once a decision."""
    game = table.game
    asked_now = table.asked
    step = table.step
    checked = game.rules.penalize  # a wrong card is taken with its penalty: check it first
    limit = sys.maxsize if max_steps is None else max_steps
    taken = 0
    while True:
        decision = asked_now()
        if decision is None:
            return taken
        seat, must, _ = decision
        one = asks[seat]
        if one is None:
            return taken
        answer = one(decision)
        if answer == WAIT:
            return taken
        taken += 1
        if answer is not None and (not checked or answer in game.legal_actions(seat)):
            try:
                step(seat, answer)
            except UnoError:
                _instead(table, seat, must)
        else:
            _instead(table, seat, must)
        if taken >= limit:
            raise RuntimeError(f"the round did not end within {max_steps} decisions")


def _instead(table: Table, seat: int, must: bool) -> None:
    """The policy for an answer of nothing or an illegal action: the seat on turn takes
    :func:`fallback`, a seat asked out of turn declines."""
    if must:
        table.step(seat, fallback(table.game, seat))
    else:
        table.decline(seat)


__all__ = ["WAIT", "Ask", "Decision", "Step", "apply", "drive", "fallback", "next_decision", "settle", "take"]
