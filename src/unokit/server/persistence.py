"""Storing a room's changes: each written with the room's revision checked and announced to
the other processes; a change refused (another process changed the room first, or the
database failed) leaves the room read again, and the client told why."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .protocol import ProtocolError
from .store import RoomConflict

if TYPE_CHECKING:
    from .rooms import Room

log = logging.getLogger("unokit.server")


class RoomWriter:
    """What stores ``room``'s changes (:meth:`write`)."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def write(self, method: Callable[..., int], note: dict[str, Any], *, diverged: bool = False,
               **values: Any) -> None:
        """Store a change of the room with ``method`` (of :class:`~.store.Store`), checking the
        room's revision, and announce it (``note``) to the other processes. If another
        process changed the room first, or the database fails, nothing is stored, the room is
        read again (whole, with ``diverged``: the change was made to the game), and the change
        is refused."""
        try:
            self.room.rev = method(self.room.code, **self._args(note, values))
        except Exception as exc:
            raise self._refusal(exc, diverged) from None

    async def write_off_loop(self, method: Callable[..., int], note: dict[str, Any], *,
                              diverged: bool = False, **values: Any) -> None:
        """:meth:`write`, in a worker thread on PostgreSQL (a round trip to a database server
        must not hold the event loop up: other rooms go on meanwhile; this room waits, under
        its lock); at once on SQLite (a local commit, well under a millisecond)."""
        if not self.room.store.postgresql:
            self.write(method, note, diverged=diverged, **values)
            return
        args = self._args(note, values)
        try:
            self.room.rev = await asyncio.to_thread(method, self.room.code, **args)
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

    def _args(self, note: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        change = self.room.rooms.note({**note, "c": self.room.code, "r": self.room.rev + 1})
        return {"rev": self.room.rev, "note": change, **values}


__all__ = ["RoomWriter"]
