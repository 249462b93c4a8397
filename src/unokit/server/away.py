"""A room's people who are not there to play: disconnected (a bot plays for them once the
grace is over), or silent past ``turn_timeout`` (``away``: a bot plays for them until they
come back); the deadline every connection is shown; and the host's role, which passes to the
next person when the host is gone before the start.

A bot playing for a person waits the room's ``reaction`` before it acts (``bot_delay`` if
that is longer), so that they can still take their turn back; the deadline shows when.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .protocol import ProtocolError
from .statuses import LOBBY, PLAYING

if TYPE_CHECKING:
    from ..core.game import Game
    from .persistence import RoomWriter
    from .rooms import Rooms
    from .seats import Client, Seat
    from .settings import Settings


class Away:
    """The part of :class:`~.rooms.Room` that knows who is there to play (a mixin)."""

    rooms: Rooms
    settings: Settings
    seats: list[Seat]
    game: Game | None
    status: str
    host: int | None
    last_change: float
    deadline: float | None
    gone: dict[int, float]
    clients: list[Client]
    remote: frozenset[int]
    writer: RoomWriter
    _since: float
    _back: dict[int, float]

    def connected(self, seat: int) -> bool:
        """Whether a connection holds ``seat`` now (here, or on another process)."""
        return seat in self.remote or any(c.seat == seat for c in self.clients)

    def store_seats(self, *seats: Seat) -> None:
        """Store a change of ``seats`` (their kind, person, readiness...); refused as
        :meth:`RoomWriter.seats <.persistence.RoomWriter.seats>` refuses."""
        self.writer.seats([s.data() for s in seats])

    def played_for_at(self, seat: int) -> float | None:
        """When a bot may play for the person at ``seat`` (``time.monotonic()``): at once if
        they are away, after the grace if they are disconnected (counted from when they left,
        or from when this process began to serve the room); ``None`` while they are there to
        play."""
        if self.seats[seat].away:
            return self.last_change
        if not self.connected(seat):
            return max(self.last_change, self.gone.get(seat, self._since) + self.rooms.options.grace)
        return None

    def serving(self) -> None:
        """This process serves the room from now: a disconnected person's grace counts from
        now (not from what a process before it saw)."""
        self._since = time.monotonic()

    def _come_back(self, seat: int) -> None:
        """The person at ``seat`` is back (they acted, said hello, or said ``back``): no bot
        plays for them."""
        self._back[seat] = time.monotonic()
        s = self.seats[seat]
        if s.away:
            s.away = False
            self.store_seats(s)
        self.set_deadline()

    def timeout_at(self, seat: int) -> float | None:
        """When the timeout acts for the person at ``seat`` on turn (``time.monotonic()``)."""
        timeout = self.settings.turn_timeout
        if timeout is None:
            return None
        return max(self.last_change, self._back.get(seat, 0.0)) + timeout

    def set_deadline(self) -> None:
        """When the timeout will act for the person on turn, or when a bot will play for them
        while they are away (shown to everyone), if it may."""
        self.deadline = None
        game = self.game
        if game is None or self.status != PLAYING or self.seats[game.turn].kind != "human":
            return
        s = self.seats[game.turn]
        if s.away:
            at: float | None = self.last_change + max(self.settings.bot_delay, self.settings.reaction)
        else:
            at = self.timeout_at(game.turn)
        if at is not None:
            self.deadline = round(time.time() + at - time.monotonic(), 3)

    def pass_host(self) -> bool:
        """Before the start, a host with no connection hands the role to the next connected
        person (in seat order after them); whether it moved. Stored, or refused as
        :meth:`RoomWriter.seats <.persistence.RoomWriter.seats>` refuses."""
        host = self.host
        if self.status != LOBBY or host is None or self.connected(host):
            return False
        n = len(self.seats)
        for step in range(1, n):
            s = self.seats[(host + step) % n]
            if s.kind == "human" and self.connected(s.seat):
                try:
                    self.writer.seats([s.data()], host=s.seat, set_host=True)
                except ProtocolError:
                    return False
                self.host = s.seat
                return True
        return False
