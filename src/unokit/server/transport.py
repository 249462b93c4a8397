"""uvicorn's HTTP and WebSocket protocols with the limits uvicorn has no setting for: an HTTP
request has :attr:`TimedHttp.header_timeout` seconds for its request line and headers and
:attr:`TimedHttp.body_timeout` for its body, or its connection is closed (a client that sends a
request a byte at a time holds nothing for long); a WebSocket may send
:attr:`LimitedWebSocket.pings_per_second` ping frames in any second, or it is closed (1008).

``unokit serve`` runs uvicorn with them (``http=TimedHttp, ws=LimitedWebSocket``);
:func:`configure` sets their limits from the server's options, in every worker process.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .guards import Window

POLICY_VIOLATION = 1008


class TimedHttp(HttpToolsProtocol):
    """uvicorn's ``httptools`` protocol, with a deadline on each request's headers (from the
    connection, or from the first byte of a later request on it) and on its body (from its
    headers); past either, the connection is closed."""

    header_timeout: ClassVar[float] = 10.0
    body_timeout: ClassVar[float] = 30.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def _arm(self, seconds: float) -> None:
        self._disarm()
        if seconds > 0:
            self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.logger.info("closed a connection whose request came too slowly")
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:  # a later request on a kept-alive connection
            self._arm(self.header_timeout)

    def on_headers_complete(self) -> None:
        self._arm(self.body_timeout)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()


class LimitedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, closing (1008) a connection past
    :attr:`pings_per_second` ping frames in any second (0: no limit)."""

    pings_per_second: ClassVar[int] = 5

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pings = Window(self.pings_per_second, 1.0)

    def handle_ping(self) -> None:
        if self.close_sent:
            return
        if self.pings_per_second > 0 and not self._pings.allow(self.loop.time()):
            self.logger.info("closed a WebSocket that sent too many pings")
            self.conn.fail(POLICY_VIOLATION, "too many pings")
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.transport.close()
            return
        super().handle_ping()


def configure(header_timeout: float, body_timeout: float, pings_per_second: int) -> None:
    """Set the protocols' limits (``unokit serve``'s options)."""
    TimedHttp.header_timeout = header_timeout
    TimedHttp.body_timeout = body_timeout
    LimitedWebSocket.pings_per_second = pings_per_second


__all__ = ["LimitedWebSocket", "TimedHttp", "configure"]
