"""Who is asked next: the one table driver for bots, the terminal, a server and RL environments.

Any seat may act whenever :meth:`Game.legal_actions <unokit.core.game.Game.legal_actions>` lists
something for it, but a table asks its seats in a fixed order, so that no seat has a standing
priority over another:

1. After the seat on turn has acted or a seat has jumped in (and when a round is dealt), each
   other active seat that now has an out-of-turn choice (catch a missed UNO call, call UNO,
   jump in) is asked once, in turn order starting after the seat on turn. A seat asked out of
   turn may act, or answer "nothing now" (:meth:`Table.decline`); either way it is not asked
   again until the next round of asking. A seat with no such choice when its place comes is
   passed over.
2. Then the seat on turn is asked, and must act: it plays, draws, passes, answers a draw card
   (accept, challenge, stack, Agent P), names a colour or chooses whom to swap with.

The table never waits: :meth:`Table.waiting_on` returns the seats that may be asked now, in
order, and :meth:`Table.next_seat` the first of them, so that a loop of bots, a server
waiting on browsers and an RL environment stepping one agent at a time drive it alike. A seat
may also act out of this order (a person clicking *catch* while a bot thinks): :meth:`act`
applies any legal action of any seat.

>>> from unokit import Game
>>> from unokit.core.table import Table
>>> game = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1", "Y2"], dealer=1)
>>> table = Table(game)
>>> table.next_seat(), table.must_act(0)
(0, True)
>>> [type(e).__name__ for e in table.act(0, "R1")]  # no UNO call: seat 1 may catch seat 0
['Played', 'UnoMissed']
>>> table.waiting_on()  # seat 0 may still call UNO, before seat 1 (on turn, who may catch it)
(0, 1)
>>> table.decline(0)
>>> table.next_seat(), table.must_act(1)
(1, True)
"""

from __future__ import annotations

import functools
from typing import Any, Final, NamedTuple

from .actions import ACTION_KIND, K_CATCH, K_PLAY, K_UNO, Action, parse_action
from .errors import IllegalActionError
from .events import Event
from .game import Game
from .phases import ROUND_OVER


def has_out_of_turn_choice(game: Game, seat: int) -> bool:
    """Whether ``seat`` may now catch a missed UNO call, call UNO, or jump in."""
    for a in game.legal_actions(seat):
        kind = ACTION_KIND[a]
        if kind in (K_CATCH, K_UNO, K_PLAY):
            return True
    return False


class Decision(NamedTuple):
    """A seat the table asks now: ``must`` when it is the seat on turn (which must act; a seat
    asked out of turn may decline), at the game's ``version`` (an answer to an older version
    is stale)."""

    seat: int
    must: bool
    version: int


_decision: Final = functools.partial(tuple.__new__, Decision)  # without NamedTuple's Python __new__

def _is_play(a: Action) -> bool:
    """Whether ``a`` plays a card (a seat that plays one out of turn has jumped in)."""
    return 0 <= a < len(ACTION_KIND) and ACTION_KIND[a] == K_PLAY


def out_of_turn_order(game: Game) -> list[int]:
    """The seats other than the one on turn that are asked out of turn, in order (starting
    after the seat on turn); empty when no seat can have an out-of-turn choice now."""
    if not game.window and not any(game.owed) and not game.options.jump_in:
        return []
    n = game.n
    order = [(game.turn + i) % n for i in range(1, n)]
    return [s for s in order if not game.eliminated[s]]


class Table:
    """Drives one :class:`~unokit.core.game.Game`: who is asked next, in and out of turn.

    The table follows the game it is given; an action applied to the game directly (not
    through the table) starts a new round of asking, as an action of the seat on turn does.
    A jump-in starts one too: the jumper's card is played as if on turn, and play goes on from
    it, so the seats after it are asked about the new top card.
    """

    __slots__ = ("_cycle", "_next", "_version", "game")

    def __init__(self, game: Game) -> None:
        self.game = game
        self._cycle: list[int] = []
        self._next = 0
        self._version = -1
        self._restart()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and deep-copied) as its game and where its asking is, in both builds (a
        compiled class has no default pickling)."""
        return (_table, (self.game, self._cycle, self._next, self._version))

    def _restart(self) -> None:
        """A new round of asking: the out-of-turn seats first, then the seat on turn."""
        self._cycle = out_of_turn_order(self.game)
        self._next = 0
        self._version = self.game.version

    def onto(self, game: Game) -> Table:
        """A table for ``game``, a copy of this table's game (``Game.from_dict`` of its
        ``to_dict``), that goes on asking where this one is: the same seats left to ask."""
        table = Table(game)
        if self._version == self.game.version:
            table._cycle = list(self._cycle)
            table._next = self._next
            table._version = game.version
        return table

    def _sync(self) -> None:
        if self.game.version != self._version:  # changed behind the table's back
            self._restart()

    def waiting_on(self) -> tuple[int, ...]:
        """The seats that may be asked now, in the order they are asked: the out-of-turn seats
        still to be asked that have a choice, then the seat on turn. Empty when the round is over."""
        self._sync()
        game = self.game
        if game.phase >= ROUND_OVER:
            return ()
        seats = [s for s in self._cycle[self._next:] if has_out_of_turn_choice(game, s)]
        seats.append(game.turn)
        return tuple(seats)

    def next_seat(self) -> int | None:
        """The seat to ask now (``None`` when the round is over). Out-of-turn seats whose place
        has come without a choice are passed over for good."""
        self._sync()
        game = self.game
        if game.phase >= ROUND_OVER:
            return None
        cycle = self._cycle
        while self._next < len(cycle):
            seat = cycle[self._next]
            if has_out_of_turn_choice(game, seat):
                return seat
            self._next += 1
        return game.turn

    def asked(self) -> Decision | None:
        """The decision the table waits on: :meth:`next_seat`, :meth:`must_act` of it and the
        game's version in one :class:`Decision`; ``None`` when the round is over."""
        self._sync()
        game = self.game
        if game.phase >= ROUND_OVER:
            return None
        cycle = self._cycle
        n = len(cycle)
        while self._next < n:  # as next_seat, inlined: one call a decision in every loop
            seat = cycle[self._next]
            if has_out_of_turn_choice(game, seat):
                return _decision((seat, False, self._version))
            self._next += 1
        return _decision((game.turn, True, self._version))

    def must_act(self, seat: int) -> bool:
        """Whether ``seat`` is the seat on turn, which must act when it is asked (an
        out-of-turn seat may decline)."""
        return self.next_seat() == seat and self._next >= len(self._cycle)

    def act(self, seat: int, action: Action | str) -> tuple[Event, ...]:
        """Apply ``seat``'s action (checked by the game, which raises and changes nothing if
        it is illegal) and return its events."""
        self._sync()
        a = parse_action(action) if isinstance(action, str) else action
        restarts = seat == self.game.turn or _is_play(a)
        events = self.game.apply(seat, a)
        self._after(seat, restarts)
        return events

    def step(self, seat: int, action: Action | str) -> None:
        """:meth:`act` without building events (for simulations)."""
        game = self.game
        if game.version != self._version:  # _sync, inlined: one call a decision in every loop
            self._restart()
        if seat == game.turn:  # the usual step, kept short: the seat on turn acted
            game.step(seat, action)
            self._restart()
            return
        a = parse_action(action) if isinstance(action, str) else action
        game.step(seat, a)
        self._after(seat, _is_play(a))

    def _after(self, seat: int, restarts: bool) -> None:
        if restarts:
            self._restart()  # the seat on turn acted, or a seat jumped in: a new round of asking
            return
        cycle = self._cycle
        place = -1  # where the seat that acted is among the seats still to be asked
        for k in range(self._next, len(cycle)):
            if cycle[k] == seat:
                place = k
                break
        if place >= 0:
            self._next = place + 1
        self._version = self.game.version

    def decline(self, seat: int) -> None:
        """``seat``, asked out of turn, takes no action now ("nothing now"); the next seat is
        asked. The seat on turn cannot decline its own decision."""
        nxt = self.next_seat()
        if nxt is None:
            raise IllegalActionError(seat, "nothing", "the round is over")
        if seat != nxt:
            raise IllegalActionError(seat, "nothing", f"seat {nxt} is asked now, not seat {seat}")
        if self._next >= len(self._cycle):
            raise IllegalActionError(seat, "nothing", "the seat on turn must act")
        self._next += 1

    def start_round(self) -> tuple[Event, ...]:
        """Deal the next round (after a round is over) and return its events."""
        events = self.game.start_round()
        self._restart()
        return events


def _table(game: Game, cycle: list[int], nxt: int, version: int) -> Table:
    """A table unpickled: ``game``'s, asking where it was."""
    table = Table(game)
    table._cycle, table._next, table._version = list(cycle), nxt, version
    return table


__all__ = ["Decision", "Table", "has_out_of_turn_choice", "out_of_turn_order"]
