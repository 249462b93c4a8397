"""A room's seats and connections: what sits at a seat (:class:`Seat`), and a connection as
a room sees it (:class:`Client`)."""

from __future__ import annotations

import abc
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .protocol import dumps
from .store import SeatData

if TYPE_CHECKING:
    from .rooms import Room

class Client(abc.ABC):
    """A connection as a room sees it: the room it said ``hello`` to (``code``), its seat
    (``None``: a spectator) and a way to send text (:meth:`send`, which a kind of connection
    defines: the WebSocket endpoint's queues it for the socket)."""

    def __init__(self, code: str | None = None) -> None:
        self.code = code
        self.room: Room | None = None
        self.seat: int | None = None
        self.token_hash: str | None = None
        """The hash of the token its seat was entered with (a moved seat is followed by it)."""

    @abc.abstractmethod
    def send(self, text: str) -> None:
        """Queue a message for the connection (never blocks)."""

    def presence(self, message: Callable[[], str]) -> None:
        """A presence change (a connection made or ended): send the ``room`` message
        ``message()`` makes (a kind of connection may send it later, with what is then
        current)."""
        self.send(message())

    def close(self) -> None:  # noqa: B027 (a connection with nothing to close needs nothing here)
        """Close the connection (after what was queued is sent)."""

    def send_off(self, reason: str) -> None:
        """The connection leaves its room (``left``, with ``reason``), and is closed."""
        self.send(dumps({"type": "left", "reason": reason}))
        self.close()
        self.room = None


@dataclass
class Seat:
    """A seat: ``kind`` is ``human`` (a person sits there), ``open`` or ``bot``."""

    seat: int
    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    ready: bool = False
    away: bool = False
    """A person silent past ``turn_timeout``: a bot plays for them until they act again."""

    def data(self) -> SeatData:
        """The seat as stored."""
        return SeatData(self.seat, self.kind, self.name, self.bot, self.token_hash, self.ready, self.away)

    def set(self, data: SeatData) -> None:
        """Make the seat the stored one."""
        self.kind, self.name, self.bot, self.token_hash = data.kind, data.name, data.bot, data.token_hash
        self.ready, self.away = data.ready, data.away


__all__ = ["Client", "Seat"]
