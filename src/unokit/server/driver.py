"""A room's driver: the task that asks the bots when the table asks them, plays for a person
away (or whose turn timed out), and deals the next round after the pause, until the room
closes. A bot waits ``bot_delay``; while a person may call UNO or catch a bot that did not,
and before it plays for a person away, it waits the room's ``reaction`` (if that is longer).
It goes through the engine's one loop around the table (:mod:`unokit.core.drive`):
the decision asked is :func:`~unokit.core.drive.next_decision`'s, and a bot's answer is
settled by :func:`~unokit.core.drive.settle` (out of turn, nothing or an illegal action
declines; on turn, it is replaced by the seat's first legal action).

Only the process that owns a room (:attr:`Room.owned <.rooms.Room.owned>`) runs its driver.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.actions import Action
from ..core.drive import Decision, next_decision, settle
from ..core.game import Game
from ..core.table import Table
from .models import DEFAULT_BOT
from .protocol import ProtocolError
from .records import replay_declines
from .settings import derive, room_bot
from .statuses import CLOSED, PLAYING, ROUND_OVER_STATUS

if TYPE_CHECKING:
    from .rooms import Room

log = logging.getLogger("unokit.server")


@dataclass
class _Plan:
    """What the driver does next: a bot acts (``bot``; for a person played by a bot too), the
    timeout acts for a person on turn (``timeout``), or the next round is dealt (``deal``), at
    ``at`` (``time.monotonic()``); ``decision`` is the table's, ``declined`` the declines the
    table had then."""

    kind: str
    at: float
    game: Game
    decision: Decision | None = None
    declined: int = 0
    bot: str = DEFAULT_BOT
    forget_uno: float = 0.0
    person: bool = False
    obs: Any = None
    version: int = -1
    """The game's version when a deal was planned."""


class Driver:
    """The driver of ``room``: started by :meth:`kick` after a change, stopped by :meth:`stop`."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def kick(self) -> None:
        """Wake the driver (start it if needed) after a change."""
        room = self.room
        self._wake.set()
        if room.owned and room.status in (PLAYING, ROUND_OVER_STATUS) \
                and (self._task is None or self._task.done()):
            self._task = asyncio.get_running_loop().create_task(self._drive())

    def stop(self) -> None:
        """Stop the driver (the server is shutting down, or another process drives the room)."""
        if self._task is not None:
            self._task.cancel()

    async def _drive(self) -> None:
        """Ask the bots when the table asks them, play for a person away, deal the next round
        after the pause; until the room closes."""
        room = self.room
        try:
            while room.status != CLOSED and room.owned:
                await asyncio.sleep(0)  # never a loop that keeps the event loop (a store failing on and on)
                try:
                    async with room.locked():
                        plan = self._plan()
                        self._wake.clear()  # a change from now on wakes the driver to plan again
                except ProtocolError:  # the database is away: try again in a moment
                    await asyncio.sleep(0.5)
                    continue
                if plan is None:
                    await self._wake.wait()
                elif plan.kind == "deal":
                    await self._deal(plan)
                else:
                    await self._turn(plan)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: the driver failed", room.code)

    async def _deal(self, plan: _Plan) -> None:
        """Deal the next round at ``plan.at``, unless something changed meanwhile."""
        if await self._sleep_until(plan.at):
            async with self.room.locked():
                game = self.room.game
                if game is plan.game and game is not None and game.version == plan.version:
                    self.room.next_round_if_ready(anyway=True)

    async def _sleep_until(self, at: float) -> bool:
        """Wait until ``at`` (``time.monotonic()``); ``False`` if a change came first."""
        wait = at - time.monotonic()
        if wait <= 0:
            return not self._wake.is_set()
        try:
            async with asyncio.timeout(wait):  # not wait_for, which may swallow a cancellation (3.11)
                await self._wake.wait()
        except TimeoutError:
            return True
        return False

    def _plan(self) -> _Plan | None:
        """What the driver does next (the table passes over the people it asks out of turn:
        their out-of-turn actions are legal whenever they like), or ``None``: wait."""
        room = self.room
        game, table = room.game, room.table
        if game is None or table is None:
            return None
        if room.status == ROUND_OVER_STATUS:
            if not any(s.kind == "human" and room.connected(s.seat) for s in room.seats):
                return None  # nobody to play the next round with: wait for someone to come back
            return _Plan("deal", room.last_change + room.settings.between_rounds, game, version=game.version)
        if room.status != PLAYING:
            return None
        declined = len(room.declined)
        plan = None
        while (decision := next_decision(table)) is not None:
            plan = self._plan_for(game, decision)
            if plan is not None or decision.must:
                break
            room.declined.extend(replay_declines(table, [decision.seat]))
        if len(room.declined) != declined:
            self._save_declined()
        return plan

    def _plan_for(self, game: Game, decision: Decision) -> _Plan | None:
        """The plan for the seat the table asks (``None``: a person to wait for, or to pass
        over when asked out of turn)."""
        room, settings = self.room, self.room.settings
        seat, must = decision.seat, decision.must
        s = room.seats[seat]
        delay, declined = settings.bot_delay, len(room.declined)
        slow = max(delay, settings.reaction)
        if s.kind == "bot":
            wait = slow if self._people_may_act(game) else delay
            return _Plan("bot", room.last_change + wait, game, decision, declined,
                         s.bot or settings.fill_bot, settings.forget_uno, False, game.observe(seat))
        auto = room.played_for_at(seat)
        if auto is not None and (must or auto <= time.monotonic()):
            return _Plan("bot", max(auto, room.last_change + slow), game, decision, declined,
                         DEFAULT_BOT, 0.0, True, game.observe(seat))
        at = room.timeout_at(seat) if must else None
        if at is not None:
            return _Plan("timeout", at, game, decision, declined, DEFAULT_BOT, 0.0, True, None)
        return None

    def _people_may_act(self, game: Game) -> bool:
        """Whether a call or catch window is open in which a person may act: a seat that owes
        its UNO call may still call it (a person there) or be caught (by a person anywhere);
        then no bot acts for ``reaction`` seconds."""
        room = self.room
        return bool(game.window) and any(s.kind == "human" and not s.away and room.connected(s.seat)
                                         for s in room.seats)

    def _save_declined(self) -> None:
        """Store the declines since the last change (the next owner goes on from them)."""
        room = self.room
        assert room.game is not None
        try:
            room.store.save_declined(room.code, room.declined, room.game.version)
        except Exception as exc:  # the next owner asks them again: nothing is lost
            log.warning("room %s: declines could not be stored (%s)", room.code, exc)

    async def _turn(self, plan: _Plan) -> None:
        """A bot's decision (or the timeout's, for a person): decided at once (in a thread),
        applied at ``plan.at`` unless something changed meanwhile."""
        room, game, decision = self.room, plan.game, plan.decision
        assert decision is not None
        action: Action | None = None
        seed = derive(game.seed, room.game_no, decision.seat, decision.version)
        if plan.kind == "bot":
            bot = room_bot(plan.bot, seed, plan.forget_uno)
            try:
                action = await asyncio.to_thread(bot.act, plan.obs)
            except Exception:
                log.exception("room %s: bot %s failed to decide", room.code, plan.bot)
            if action is None and not decision.must:
                plan.at = 0  # nothing to do: decline at once (no pause tells of a choice)
        if not await self._sleep_until(plan.at):
            return  # something changed: plan again
        async with room.locked():
            table = room.table
            if not self._still(plan, table):
                return
            assert table is not None
            if plan.kind == "timeout":
                if not self._time_out(decision.seat):
                    return
                action = room_bot(DEFAULT_BOT, seed, 0.0).act(game.observe(decision.seat))
            settled, _ = settle(table, decision, action)
            if settled is None:
                room.declined.extend(replay_declines(table, [decision.seat]))
                self._save_declined()
                self.kick()
                return
            with contextlib.suppress(ProtocolError):  # stored nothing, reloaded: the next plan starts over
                await room.apply_action(decision.seat, settled)

    def _still(self, plan: _Plan, table: Table | None) -> bool:
        """Whether ``plan`` still stands: nothing changed in the room since it was made."""
        room, decision = self.room, plan.decision
        assert decision is not None
        if (room.status != PLAYING or room.game is not plan.game or table is None
                or plan.game.version != decision.version or len(room.declined) != plan.declined
                or table.next_seat() != decision.seat):
            return False
        return not (plan.kind == "bot" and plan.person and room.played_for_at(decision.seat) is None)
        # else they came back meanwhile

    def _time_out(self, seat: int) -> bool:
        """The person on turn let ``turn_timeout`` pass: a bot plays for them from now on
        (stored, and everyone told); ``False`` if the plan no longer stands."""
        room = self.room
        s = room.seats[seat]
        if not room.connected(seat) or s.away:
            return False  # planned again as a person played for
        s.away = True
        try:
            room.store_seats(s)
        except ProtocolError:
            return False  # read again: the next plan starts over
        room.send_room()
        return True


__all__ = ["Driver"]
