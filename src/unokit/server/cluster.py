"""Several ``unokit serve`` processes on one PostgreSQL database: one set of rooms.

Every process holds every open room (loaded at start, and when another process announces a
new one) and serves the connections that reach it. The database is the only shared state:

- **Changes** are transactions that check and count up the room's revision
  (:class:`~.store.RoomConflict` when another process changed it first: that process's change
  stands, this one is refused as ``stale`` and the room read again). Each commits a
  PostgreSQL ``NOTIFY`` (:data:`~.store.CHANNEL`) that carries the change: an action's
  notation, a deal, a chat line, or only that the room changed.
- **Followers**: each process ``LISTEN``\\ s and applies what the others did to its copy of
  the room (an action is replayed by its own engine, so its connections get the same events
  in the same order); a gap in the revisions, or a change it cannot replay, makes it read the
  room again. After its listening connection was lost, it reads every room again.
- **Ownership**: one process at a time runs a room's bots and timers: the one that holds the
  room's session-level advisory lock, on its own connection. Every :data:`SWEEP` seconds each
  process tries to take the rooms nobody holds; when a process dies its connection closes,
  PostgreSQL releases its locks, and another process takes its rooms at its next sweep
  (within :data:`SWEEP` seconds, with the room read again from the database). A process that
  loses its lock connection stops driving every room at once.
- **Presence**: which seats have a connection where (``presence`` rows, per process), so that
  the owner knows whether a person is there to play; a process that stops beating its
  heartbeat for :data:`HEARTBEAT_TIMEOUT` seconds is dropped with its presence.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol

from .store import CHANNEL, libpq_url

log = logging.getLogger("unokit.server")

SWEEP: Final = 1.0
"""Seconds between two heartbeats of a process, each of which also takes the rooms nobody
drives (so a dead process's rooms are taken within this, once PostgreSQL has closed its
connection)."""
HEARTBEAT_TIMEOUT: Final = 5.0
"""Seconds after its last heartbeat that a process counts as gone (its presence with it)."""
RETRY: Final = 0.5
"""Seconds between two tries to reach the database again."""
ROOM_LOCK: Final = "unokit-room:"
"""What the advisory lock of a room is keyed on, with its code."""


class Members(Protocol):
    """What the cluster needs of the server's rooms (:class:`~.rooms.Rooms`)."""

    def codes(self) -> list[str]:
        """The codes of the open rooms this process holds."""

    def notified(self, payload: str) -> None:
        """Another process changed a room (a ``NOTIFY`` payload)."""

    def resync(self) -> None:
        """Read every room again (notifications may have been missed)."""

    def owned(self, code: str, owned: bool) -> None:
        """This process now drives (or no longer drives) the room's bots and timers."""

    def republish(self) -> None:
        """Write this process's presence again (it may have been dropped)."""

    def gone(self, codes: list[str]) -> None:
        """Presence of a dead process was dropped in these rooms."""


class Cluster:
    """This process's membership of the servers on one PostgreSQL database."""

    def __init__(self, url: str) -> None:
        self.id = secrets.token_hex(8)
        """This process's id (in ``servers`` and ``presence`` rows, and in its notifications)."""
        self.conninfo = libpq_url(url)
        self.owned: set[str] = set()
        """The rooms whose advisory lock this process holds."""
        self.members: Members | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.listening = asyncio.Event()
        self.beating = asyncio.Event()
        self._sweep_now = asyncio.Event()

    def start(self, members: Members) -> None:
        """Start listening and beating (in the running event loop)."""
        self.members = members
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._keep())]

    async def ready(self, timeout: float = 10.0) -> None:
        """Wait until the process listens and has beaten once (so it is a member)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self.listening.wait()
                await self.beating.wait()

    async def stop(self) -> None:
        """Leave the cluster: stop listening and beating, release the rooms, drop this
        process's row and presence."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        self._lose_all()
        import psycopg

        with contextlib.suppress(psycopg.Error, OSError):
            async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True,
                                                             connect_timeout=2) as conn:
                await conn.execute("DELETE FROM presence WHERE server = %s", (self.id,))
                await conn.execute("DELETE FROM servers WHERE id = %s", (self.id,))

    async def _listen(self) -> None:
        """Receive the other processes' notifications, for good (reconnecting)."""
        async def follow(conn: Any) -> None:
            assert self.members is not None
            await conn.execute(f"LISTEN {CHANNEL}")
            self.members.resync()  # what changed while nobody listened
            self.listening.set()
            async for note in conn.notifies():
                self.members.notified(note.payload)

        await self._connected(follow, "the listening connection to the database failed ({}): reconnecting",
                              self.listening.clear)

    async def _keep(self) -> None:
        """Beat the heartbeat, take the rooms nobody drives, drop dead processes; on a
        connection of its own, which holds the rooms' advisory locks."""
        async def keep(conn: Any) -> None:
            # a host that vanishes without closing the connection releases its locks soon
            for setting in ("tcp_keepalives_idle = 2", "tcp_keepalives_interval = 1",
                            "tcp_keepalives_count = 2"):
                await conn.execute(f"SET {setting}")
            await self._beat(conn, first=True)
            while True:
                await self._claim(conn)
                await self._reap(conn)
                self.beating.set()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(SWEEP):
                        await self._sweep_now.wait()
                self._sweep_now.clear()
                await self._beat(conn)

        def lost() -> None:
            self.beating.clear()
            self._lose_all()

        await self._connected(keep, "the database connection that holds the rooms failed ({}): "
                                    "driving none until it is back", lost)

    async def _connected(self, work: Callable[[Any], Awaitable[None]], failed: str,
                         lost: Callable[[], None]) -> None:
        """Run ``work`` on a connection of its own, for good: when the connection fails (a
        warning: ``failed`` with the error) or ``work`` does, ``lost()`` and a new connection."""
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True,
                                                                 connect_timeout=3) as conn:
                    await work(conn)
            except asyncio.CancelledError:
                raise
            except (psycopg.Error, OSError) as exc:
                log.warning(failed.format(exc))
            except Exception:
                log.exception("a connection of the cluster failed")
            lost()
            await asyncio.sleep(RETRY)

    def sweep_soon(self) -> None:
        """Try to take the rooms nobody drives now, not at the next sweep (a room just made)."""
        self._sweep_now.set()

    async def _beat(self, conn: Any, first: bool = False) -> None:
        cursor = await conn.execute(
            "INSERT INTO servers (id, started_at, heartbeat) VALUES (%s, EXTRACT(EPOCH FROM now()), "
            "EXTRACT(EPOCH FROM now())) ON CONFLICT (id) DO UPDATE SET heartbeat = EXCLUDED.heartbeat "
            "RETURNING (xmax = 0)", (self.id,))
        inserted = (await cursor.fetchone())[0]
        if (first or inserted) and self.members is not None:
            # this process was dropped (it could not beat for a while): its presence with it
            self.members.republish()

    async def _claim(self, conn: Any) -> None:
        """Take every room nobody holds; let go of the rooms closed since."""
        assert self.members is not None
        codes = set(self.members.codes())
        for code in sorted(self.owned - codes):
            await conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (ROOM_LOCK + code,))
            self.owned.discard(code)
        wanted = sorted(codes - self.owned)
        if not wanted:
            return
        cursor = await conn.execute(
            "SELECT c FROM unnest(%s::text[]) AS c WHERE pg_try_advisory_lock(hashtextextended(%s || c, 0))",
            (wanted, ROOM_LOCK))
        for (code,) in await cursor.fetchall():
            self.owned.add(code)
            self.members.owned(code, True)

    async def _reap(self, conn: Any) -> None:
        """Drop the processes whose heartbeat stopped, and their presence."""
        assert self.members is not None
        cursor = await conn.execute(
            "DELETE FROM servers WHERE heartbeat < EXTRACT(EPOCH FROM now()) - %s RETURNING id",
            (HEARTBEAT_TIMEOUT,))
        dead = [row[0] for row in await cursor.fetchall()]
        cursor = await conn.execute(
            "DELETE FROM presence WHERE server <> %s AND server NOT IN (SELECT id FROM servers) "
            "RETURNING room_code", (self.id,))
        codes = sorted({row[0] for row in await cursor.fetchall()})
        if dead:
            log.warning("server process(es) %s stopped beating: dropped", ", ".join(dead))
        if codes:
            self.members.gone(codes)

    def _lose_all(self) -> None:
        """Drive no room any more (the locks went with the connection)."""
        owned, self.owned = self.owned, set()
        if self.members is not None:
            for code in sorted(owned):
                self.members.owned(code, False)


def note_sender(cluster: Cluster | None) -> Callable[[dict[str, Any]], str | None]:
    """A function that turns a change into the payload of its notification (``None``
    without a cluster: nobody to tell)."""
    import json

    def note(change: dict[str, Any]) -> str | None:
        if cluster is None:
            return None
        return json.dumps({**change, "o": cluster.id}, separators=(",", ":"))

    return note


__all__ = ["HEARTBEAT_TIMEOUT", "SWEEP", "Cluster", "Members", "note_sender"]
