"""The rooms' WebSocket, ``/ws/{code}``: a connection (:class:`WsClient`), from the origin check
to the room's goodbye, each of its messages handled by the room (:func:`~..rooms.handle`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Final

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ..limits import Limits
from ..models import Hello
from ..protocol import RATE_LIMIT, ProtocolError, dumps, parse
from ..rooms import Client, Rooms, handle
from ..security import RateLimiter, client_address, normalize_code, origin_allowed

log = logging.getLogger("unokit.server")

MAX_QUEUE: Final = 1000
"""Messages waiting for a slow connection before the server drops it (code 1013)."""
POLICY_VIOLATION: Final = 1008
TRY_AGAIN_LATER: Final = 1013
CLOSE_TIMEOUT: Final = 5.0
"""Seconds the closing handshake of a dropped connection may take before its socket is cut."""


def socket(rooms: Rooms, limits: Limits) -> APIRouter:
    """The route of ``/ws/{code}``."""
    router = APIRouter()

    @router.websocket("/ws/{code}")
    async def room_websocket(ws: WebSocket, code: str) -> None:
        await _socket(rooms, limits, ws, WsClient(ws, normalize_code(code)[:32]))

    return router


class WsClient(Client):
    """A WebSocket connection to ``/ws/{code}``: messages go through a queue, sent by a writer
    task, so that a slow connection never holds a room up."""

    def __init__(self, ws: WebSocket, code: str) -> None:
        super().__init__(code)
        self.ws = ws
        self.address = client_address(ws.scope)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.rate = RateLimiter(RATE_LIMIT)
        self.closing = False
        self.close_code = 1000
        self.writing: asyncio.Task[None] | None = None
        self.dropped = False

    def send(self, text: str) -> None:
        if self.closing:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.drop()
            return
        self.queue.put_nowait(text)

    def drop(self) -> None:
        """A connection that does not read its messages (its queue is full) is dropped: its
        writer, stuck on a full socket, is stopped, the socket closed (1013), and the room
        forgets it at once; the client may reconnect and is sent the match again."""
        log.warning("dropping a connection that does not read its messages")
        self.dropped = True
        self.close(TRY_AGAIN_LATER)
        if self.writing is not None:
            self.writing.cancel()
        room = self.room
        if room is not None:
            asyncio.get_running_loop().create_task(room.disconnect(self))

    def close(self, code: int = 1000) -> None:
        if not self.closing:
            self.closing = True
            self.close_code = code
            self.queue.put_nowait(None)

    async def writer(self) -> None:
        """Send the queued messages until :meth:`close`, then close the socket."""
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            self.closing = True
            if self.ws.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect, TimeoutError,
                                         asyncio.CancelledError):
                    async with asyncio.timeout(CLOSE_TIMEOUT):
                        await self.ws.close(code=self.close_code)


async def _socket(rooms: Rooms, limits: Limits, ws: WebSocket, client: WsClient) -> None:
    """One WebSocket, from the origin check to the room's goodbye."""
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), rooms.options.allowed_origins):
        log.warning("refused a WebSocket from another origin")
        await ws.close(code=POLICY_VIOLATION)  # before accept: the handshake gets HTTP 403
        return
    await ws.accept()
    writer = client.writing = asyncio.get_running_loop().create_task(client.writer())
    try:
        await _serve(rooms, limits, client, ws)
    finally:
        room = client.room
        if room is not None:
            await room.disconnect(client)
        client.close(client.close_code)
        with contextlib.suppress(asyncio.CancelledError):
            await writer


async def _serve(rooms: Rooms, limits: Limits, client: WsClient, ws: WebSocket) -> None:
    while not client.closing:
        try:
            message = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        now = time.monotonic()
        try:
            if not client.rate.allow(now):
                flood = ProtocolError("rate_limited",
                                      f"a flood: more than {RATE_LIMIT} messages in a second; closing")
                client.send(dumps(flood.to_message()))
                client.close(POLICY_VIOLATION)
                return
            if text is None:
                raise ProtocolError("malformed", "messages are JSON text frames")
            checked = parse(text)
            if isinstance(checked, Hello) and client.room is None:
                limits.check(client.address, client.code, checked.token)
                try:
                    await handle(rooms, client, checked)
                except ProtocolError as exc:
                    if exc.status == 404 or exc.code == "unauthorized":  # an unknown code, a wrong token
                        limits.unknown(client.address)
                    raise
            else:
                await handle(rooms, client, checked)
        except ProtocolError as exc:
            client.send(dumps(exc.to_message()))
        except Exception:
            log.exception("error while handling a message")
            failed = ProtocolError("server_error", "the server failed on this message")
            client.send(dumps(failed.to_message()))


__all__ = ["WsClient", "socket"]
