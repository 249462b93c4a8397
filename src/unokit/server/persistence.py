"""Storing a room's changes: each written with the room's revision checked and announced to
the other processes; a change refused (another process changed the room first, or the
database failed) leaves the room read again, and the client told why."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..core.game import Game
from ..core.record import record_of
from .protocol import ProtocolError
from .store import RoomConflict, SeatData

if TYPE_CHECKING:
    from .rooms import Room

log = logging.getLogger("unokit.server")

StoreWrite = Callable[[int, "str | None"], int]
"""One write of the room to the store (a :class:`~.store.Store` method), given the revision it
is checked against and the notification to the other processes; returns the new revision."""


class RoomWriter:
    """What stores ``room``'s changes, each kind of change by a method of its own."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def seats(self, seats: Sequence[SeatData], *, host: int | None = None, set_host: bool = False) -> None:
        """Store a change of ``seats`` (and of the host: with ``set_host``, which allows ``None``)."""
        store, code = self.room.store, self.room.code
        self._write(lambda rev, note: store.update_room(code, host=host, set_host=set_host, seats=seats,
                                                        rev=rev, note=note), {"k": "room"})

    def start_game(self, game: Game, *, game_no: int, version_base: int, status: str,
                   seats: Sequence[SeatData]) -> None:
        """Store the room's new match ``game`` (just dealt), and its seats."""
        store, code = self.room.store, self.room.code
        record, position = record_of(game), game.to_dict()
        self._write(lambda rev, note: store.start_game(
            code, game_no=game_no, record=record, position=position, version=game.version,
            version_base=version_base, status=status, seats=seats, rev=rev, note=note),
            {"k": "room"}, diverged=True)

    async def append_action(self, game: Game, line: str, *, game_no: int, status: str, keep: bool,
                            unready: bool) -> None:
        """Store the action ``line`` just applied to ``game`` (with the position after it if
        ``keep``), off the event loop on PostgreSQL (:meth:`_write_off_loop`)."""
        store, code = self.room.store, self.room.code
        round_index, idx, version = len(game.rounds) - 1, len(game.history) - 1, game.version
        position = game.to_dict() if keep else None
        await self._write_off_loop(lambda rev, note: store.append_action(
            code, game_no=game_no, round_index=round_index, idx=idx, line=line, position=position,
            version=version, status=status, rev=rev, unready=unready, note=note),
            {"k": "act", "g": game_no, "v": version, "l": line}, diverged=True)

    def add_round(self, game: Game, *, game_no: int, status: str) -> None:
        """Store the round just dealt in ``game``."""
        store, code = self.room.store, self.room.code
        deal, position = record_of(game)["rounds"][-1], game.to_dict()
        round_index, version = len(game.rounds) - 1, game.version
        self._write(lambda rev, note: store.add_round(
            code, game_no=game_no, round_index=round_index, deal=deal, position=position, version=version,
            status=status, rev=rev, note=note), {"k": "deal", "g": game_no, "v": version}, diverged=True)

    def _write(self, write: StoreWrite, note: dict[str, Any], *, diverged: bool = False) -> None:
        """Store a change of the room with ``write``, checking the room's revision, and
        announce it (``note``) to the other processes. If another process changed the room
        first, or the database fails, nothing is stored, the room is read again (whole, with
        ``diverged``: the change was made to the game), and the change is refused."""
        rev, change = self._revision(note)
        try:
            self.room.rev = write(rev, change)
        except Exception as exc:
            raise self._refusal(exc, diverged) from None

    async def _write_off_loop(self, write: StoreWrite, note: dict[str, Any], *,
                              diverged: bool = False) -> None:
        """:meth:`_write`, in a worker thread on PostgreSQL (a round trip to a database server
        must not hold the event loop up: other rooms go on meanwhile; this room waits, under
        its lock); at once on SQLite (a local commit, well under a millisecond)."""
        if not self.room.store.postgresql:
            self._write(write, note, diverged=diverged)
            return
        rev, change = self._revision(note)
        try:
            self.room.rev = await asyncio.to_thread(write, rev, change)
        except Exception as exc:
            raise self._refusal(exc, diverged) from None

    def _refusal(self, exc: Exception, diverged: bool) -> ProtocolError:
        """A write failed (``exc``): read the room again; what the client is told."""
        if not isinstance(exc, RoomConflict):
            log.error("room %s: a change could not be stored; reading the room again", self.room.code,
                      exc_info=exc)
        self.room.follower.diverged = self.room.follower.diverged or diverged
        self.room.dirty = True
        self.room.reload()
        if isinstance(exc, RoomConflict):
            return ProtocolError("stale", "the room changed at the same moment: look again and retry")
        return ProtocolError("server_error", "the server could not save the change: try again in a moment")

    def _revision(self, note: dict[str, Any]) -> tuple[int, str | None]:
        """The room's revision this change is checked against, and its notification."""
        change = self.room.rooms.note({**note, "c": self.room.code, "r": self.room.rev + 1})
        return self.room.rev, change


__all__ = ["RoomWriter", "StoreWrite"]
