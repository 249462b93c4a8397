"""Following a room that other server processes change too (on PostgreSQL): their
notifications replayed on this copy (an action or a deal that comes right after this copy's,
a chat line, the presence), and the room read again from the database whenever this copy
cannot be brought up to date that way (:meth:`Follower.reload`)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.actions import Action
from ..core.codec import parse_action_line
from ..core.errors import RecordError, UnoError
from ..core.events import Event
from ..core.game import Game
from ..core.record import VERSION as RECORD_VERSION
from ..core.record import replay, round_events
from ..core.table import Table
from .protocol import CHAT_HISTORY, dumps
from .records import record_after, replay_declines, resume
from .statuses import CLOSED, LOBBY, PLAYING, ROUND_OVER_STATUS, status_of
from .store import ChatData, RoomData

if TYPE_CHECKING:
    from .rooms import Room

log = logging.getLogger("unokit.server")


class Follower:
    """What follows ``room``'s changes made elsewhere, and reads it again from the database."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.diverged = False
        """This copy changed without being stored (a write failed): read it again whole."""
        self._reloading = False
        self._notes: list[dict[str, Any]] = []
        self._task: asyncio.Task[None] | None = None

    def note(self, change: dict[str, Any]) -> None:
        """Another process changed the room (its notification): follow it."""
        self._notes.append(change)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._follow())

    async def _follow(self) -> None:
        while self._notes:
            async with self.room.lock:
                notes, self._notes = self._notes, []
                try:
                    for change in notes:
                        if not self.room.dirty:
                            self._follow_one(change)
                    if self.room.dirty:
                        self.reload()
                except Exception:
                    log.exception("room %s: following a change failed; reading the room again",
                                  self.room.code)
                    self.diverged = self.room.dirty = True
                    self.reload()
            await asyncio.sleep(0)

    def _follow_one(self, change: dict[str, Any]) -> None:
        """Apply one change another process made: replay an action or a deal that comes right
        after this copy's; add a chat line; read the presence; else read the room again."""
        kind = change.get("k")
        if kind == "chat":
            message = change.get("m")
            if isinstance(message, dict) and (not self.room.chat or message["id"] > self.room.chat[-1].id):
                self.room.add_chat(ChatData(message["id"], message["seat"], message["name"], message["text"],
                                        message["time"]), dumps(message))
            return
        if kind == "presence":
            self._set_remote(self.room.store.present(self.room.code, self.room.rooms.server_id or ""))
            self.room.send_room()
            self.room.next_round_if_ready()
            self.room.kick_driver()
            return
        rev = change.get("r")
        if isinstance(rev, int) and rev <= self.room.rev:
            return  # this copy has it already
        game = self.room.game
        if (kind in ("act", "deal") and rev == self.room.rev + 1 and game is not None
                and change.get("g") == self.room.game_no and change.get("v") == game.version + 1):
            done = self._step(parse_action_line(str(change.get("l"))) if kind == "act" else None)
            if done is None:
                self.room.dirty = True
                return
            if game.version != change.get("v"):
                self.diverged = self.room.dirty = True
                return
            self.room.rev = rev
            self._tell_step(*done)
            return
        self.room.dirty = True

    def _set_remote(self, present: frozenset[int]) -> None:
        now = time.monotonic()
        for seat in self.room.remote - present:
            if not any(c.seat == seat for c in self.room.clients):
                self.room.gone[seat] = now
        self.room.remote = present

    def reload(self) -> None:
        """Read the room again from the database and tell the connections what changed: the
        actions and deals this copy missed are replayed (each seat is sent their events);
        a copy that cannot be brought up to date that way is replaced, and its connections
        sent the match again. If the database cannot be read, the room stays to be read
        again (``_dirty``)."""
        if self._reloading:  # a change refused while reading the room: read it again later
            self.room.dirty = True
            return
        self._reloading = True
        try:
            self._reload()
        finally:
            self._reloading = False

    def _reload(self) -> None:
        try:
            data = self.room.store.load_room(self.room.code, CHAT_HISTORY, self.room.rooms.server_id)
        except Exception as exc:
            log.warning("room %s cannot be read from the database (%s)", self.room.code, exc)
            self.room.dirty = True
            return
        self.room.dirty = False
        if data is None or data.status == CLOSED:
            if self.room.status != CLOSED:
                self.room.close_here(data.closed_reason if data is not None else "format")
            return
        before = json.dumps(self.room.room_message(None))
        diverged, self.diverged = self.diverged, False
        try:
            self._sync(data, diverged)
        except (UnoError, TypeError, ValueError, KeyError) as exc:
            log.error("room %s cannot be read again (%s): closing it", self.room.code, exc)
            self.room.close("format")
            return
        self.room.set_deadline()
        if json.dumps(self.room.room_message(None)) != before:
            self.room.send_room()
        self.room.next_round_if_ready()
        self.room.kick_driver()

    def _sync(self, data: RoomData, diverged: bool) -> None:
        game = self.room.game
        caught_up = False
        if (not diverged and game is not None and self.room.table is not None and data.record is not None
                and data.game_no == self.room.game_no and data.version >= game.version):
            caught_up = self._catch_up(data.record) and game.version == data.version
        if not caught_up:
            opening = self.room.game_no != data.game_no or game is None
            self.room.status = data.status
            self.restore(data)
            if self.room.game is not None:
                fresh = self.room.game.history == [] and len(self.room.game.rounds) == 1 and opening
                if fresh:
                    self.room.send_game(self.room.game.opening_events())
                elif self.room.announced != (self.room.game_no, self.room.game.version):
                    self.room.send_game(round_events(self.room.game), replay=True)
                # else: the game read is the one last announced (a change refused): nothing new
        else:
            self._apply_declined(data.declined)
        self.room.rev = data.rev
        self.room.status = data.status if self.room.game is None else self._status_of_room(data.status)
        self.room.host, self.room.closed_reason = data.host, data.closed_reason
        for seat, stored in zip(self.room.seats, data.seats, strict=True):
            seat.set(stored)
        self._set_remote(data.present)
        known = self.room.chat[-1].id if self.room.chat else 0
        for line in data.chat:
            if line.id > known:
                text = dumps(line.to_message())
                for c in self.room.clients:
                    c.send(text)
        self.room.chat = list(data.chat)
        self._follow_seats()

    def _status_of_room(self, stored: str) -> str:
        return stored if stored in (LOBBY, CLOSED) or self.room.game is None else status_of(self.room.game)

    def _catch_up(self, record: dict[str, Any]) -> bool:
        """Replay the record's actions and deals that come after this copy's game, telling the
        connections of each; ``False`` if the game is not a beginning of the record's."""
        assert self.room.game is not None
        steps = record_after(self.room.game, record)
        if steps is None:
            return False
        for step in steps:
            done = self._step(step)
            if done is None:
                return False
            self._tell_step(*done)
        return True

    def _step(self, step: tuple[int, Action] | None) -> tuple[str, tuple[Event, ...]] | None:
        """Apply one change of a record to this copy's game: a seat's action, or the next
        round's deal (``None``). Returns the status after it and its events, or ``None`` if
        this copy cannot take it (a host's action, an action between rounds, a deal in a round)."""
        game, table = self.room.game, self.room.table
        assert game is not None and table is not None
        if step is None:
            if self.room.status != ROUND_OVER_STATUS:
                return None
            return PLAYING, table.start_round()
        seat, action = step
        if seat < 0 or self.room.status != PLAYING:
            return None
        events = table.act(seat, action)
        return status_of(game), events

    def _tell_step(self, status: str, events: Sequence[Event]) -> None:
        """A change of the record applied (:meth:`_step`): a new round of asking, and the
        connections told."""
        self.room.declined = []
        self.room.changed(status, events)

    def _apply_declined(self, declined: Sequence[int]) -> None:
        """The declines the owner stored, as far as this copy's table has not seen them."""
        table = self.room.table
        if table is None:
            return
        self.room.declined.extend(replay_declines(table, declined[len(self.room.declined):]))

    def _follow_seats(self) -> None:
        """The connections follow their person when seats were moved elsewhere; a person no
        longer seated is told so."""
        for c in list(self.room.clients):
            if c.seat is None or c.token_hash is None:
                continue
            seat = next((s.seat for s in self.room.seats
                         if s.kind == "human" and s.token_hash == c.token_hash), None)
            if seat is None:
                self.room.clients.remove(c)
                c.send_off("kicked")
            else:
                c.seat = seat

    def restore(self, data: RoomData) -> None:
        """Set the game from the stored record (from its position, when that is the record's)."""
        self.room.game_no = data.game_no
        self.room.version_base = data.version_base
        if data.record is None:
            self.room.game = self.room.table = None
            return
        record = data.record
        if record.get("version") != RECORD_VERSION:
            raise RecordError(f"record version {record.get('version')!r}, this server reads {RECORD_VERSION}")
        game = None
        if data.position is not None:
            try:
                game = resume(Game.from_dict(data.position), record)
            except (UnoError, TypeError, ValueError, KeyError, IndexError):
                game = None
            if game is not None and game.version != data.version:
                game = None
        if game is None:
            game = replay(record)
        table = Table(game)
        replay_declines(table, data.declined)
        self.room.game, self.room.table = game, table
        self.room.declined = list(data.declined)
        if data.status not in (LOBBY, CLOSED):
            self.room.status = status_of(game)


__all__ = ["Follower"]
