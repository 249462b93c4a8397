"""What one client may hold and send on the WebSocket, so that one visitor cannot crowd the
others out (``docs/deploy.md``): WebSockets per address (:func:`~.limits.address_key`), per room
and spectators per room (:meth:`Guards.connect`, :meth:`Guards.admit`), chat lines per seat and
per address (:meth:`Guards.chat`); and the closing of rooms nobody joined
(:func:`close_unjoined_rooms`). These are counted in each process; the open rooms per address
are counted in the database (:meth:`.rooms.Rooms.create`).

>>> w = Window(2, 1.0)
>>> [w.allow(t) for t in (0.0, 0.1, 0.2)], w.refund(), w.allow(0.3), w.allow(1.15)
([True, True, False], None, True, True)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import TYPE_CHECKING

from .protocol import ProtocolError
from .security import AddressLimits

if TYPE_CHECKING:
    from .rooms import Room, Rooms, ServerOptions

log = logging.getLogger("unokit.server")


class Window:
    """At most ``limit`` events in any window of ``seconds`` (``limit`` 0: no limit), the last
    one given back by :meth:`refund` when it turned out not to count."""

    def __init__(self, limit: int, seconds: float = 1.0) -> None:
        self.limit = limit
        self.seconds = seconds
        self._times: deque[float] = deque()

    def allow(self, now: float) -> bool:
        """Count an event at ``now`` if the limit allows it; returns whether it did."""
        if self.limit <= 0:
            return True
        times = self._times
        while times and times[0] <= now - self.seconds:
            times.popleft()
        if len(times) >= self.limit:
            return False
        times.append(now)
        return True

    def refund(self) -> None:
        """The last event counted does not count after all."""
        if self._times:
            self._times.pop()


class Guards:
    """The WebSocket limits of one process (:class:`~.rooms.ServerOptions`)."""

    def __init__(self, options: ServerOptions) -> None:
        self.options = options
        self.sockets: dict[str, int] = {}
        """The WebSockets open from each address key."""
        self.chat_seats = AddressLimits(options.chat_per_seat, 1.0)
        self.chat_addresses = AddressLimits(options.chat_per_address, 1.0)

    def connect(self, key: str) -> bool:
        """Count a new WebSocket from the address ``key``; ``False`` (nothing counted) past
        :attr:`~.rooms.ServerOptions.sockets_per_address`."""
        most = self.options.sockets_per_address
        held = self.sockets.get(key, 0)
        if most > 0 and held >= most:
            return False
        self.sockets[key] = held + 1
        return True

    def disconnect(self, key: str) -> None:
        """A WebSocket counted by :meth:`connect` has ended."""
        held = self.sockets.get(key, 0) - 1
        if held > 0:
            self.sockets[key] = held
        else:
            self.sockets.pop(key, None)

    def admit(self, room: Room, spectator: bool) -> None:
        """Refuse (``rate_limited``) a ``hello`` to ``room`` that holds as many connections as
        it may here, or, for a spectator, as many spectators."""
        options = self.options
        if 0 < options.sockets_per_room <= len(room.clients):
            raise ProtocolError("rate_limited", f"this room has {options.sockets_per_room} connections, "
                                                "the most it may: try again later", 503)
        spectators = sum(1 for c in room.clients if c.seat is None)
        if spectator and 0 < options.spectators_per_room <= spectators:
            raise ProtocolError("rate_limited", f"this room has {options.spectators_per_room} spectators, "
                                                "the most it may: try again later", 503)

    def chat(self, room: Room, seat: int | None, key: str) -> None:
        """Count a chat line of ``seat`` in ``room`` from the address ``key``; refuse it
        (``rate_limited``) past :attr:`~.rooms.ServerOptions.chat_per_seat` a second for the
        seat (over all its connections) or :attr:`~.rooms.ServerOptions.chat_per_address` for
        the address."""
        now = time.monotonic()
        if seat is not None and not self.chat_seats.allow(f"{room.code}/{seat}", now):
            raise ProtocolError("rate_limited", f"at most {self.options.chat_per_seat} chat lines a second "
                                                "from a seat: wait a moment")
        if not self.chat_addresses.allow(key, now):
            raise ProtocolError("rate_limited", f"at most {self.options.chat_per_address} chat lines a "
                                                "second from an address: wait a moment")


async def close_unjoined_rooms(rooms: Rooms) -> None:
    """Close, for as long as the server runs, the rooms nobody connected to within
    :attr:`~.rooms.ServerOptions.unjoined_minutes` of their making (``idle``)."""
    seconds = rooms.options.unjoined_minutes * 60
    while True:
        await asyncio.sleep(min(30.0, max(0.2, seconds / 4)))
        try:
            closed = await rooms.close_unjoined(seconds)
        except Exception:
            log.exception("closing the rooms nobody joined failed")
            continue
        if closed:
            log.info("closed %d room(s) nobody joined", len(closed))


__all__ = ["Guards", "Window", "close_unjoined_rooms"]
