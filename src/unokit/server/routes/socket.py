"""The rooms' WebSocket, ``/ws/{code}``: a connection (:class:`WsClient`), from the origin check
to the room's goodbye, each of its messages handled by the room (:func:`~..rooms.handle`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Final

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ..guards import Guards, Window
from ..limits import Limits, address_key
from ..models import Act, Chat, Hello
from ..protocol import RATE_LIMIT, ClientMessage, ProtocolError, dumps, parse
from ..rooms import Client, Rooms, handle
from ..security import client_address, normalize_code, origin_allowed

log = logging.getLogger("unokit.server")

MAX_QUEUE: Final = 1000
"""Messages waiting for a slow connection before the server drops it (code 1013)."""
POLICY_VIOLATION: Final = 1008
TRY_AGAIN_LATER: Final = 1013
CLOSE_TIMEOUT: Final = 5.0
"""Seconds the closing handshake of a dropped connection may take before its socket is cut."""


def socket(rooms: Rooms, limits: Limits, guards: Guards) -> APIRouter:
    """The route of ``/ws/{code}``."""
    router = APIRouter()

    @router.websocket("/ws/{code}")
    async def room_websocket(ws: WebSocket, code: str) -> None:
        client = WsClient(ws, normalize_code(code)[:32], rooms.options.refused_acts,
                          rooms.options.presence_every)
        if not guards.connect(client.key):
            await _refuse(ws, f"at most {rooms.options.sockets_per_address} connections from an address")
            return
        try:
            await _socket(rooms, limits, guards, ws, client)
        finally:
            guards.disconnect(client.key)

    return router


class WsClient(Client):
    """A WebSocket connection to ``/ws/{code}``: messages go through a queue, sent by a writer
    task, so that a slow connection never holds a room up."""

    def __init__(self, ws: WebSocket, code: str, refused_acts: int = 5, presence_every: float = 1.0) -> None:
        super().__init__(code)
        self.ws = ws
        self.address = client_address(ws.scope)
        self.key = address_key(ws)
        """The address key its limits are counted under."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.rate = Window(RATE_LIMIT)
        self.refused = Window(refused_acts)
        """Its ``act`` messages refused or stale, in the last second."""
        self.presence_every = presence_every
        self._presence: Callable[[], str] | None = None
        self._presence_timer: asyncio.TimerHandle | None = None
        self._presence_at = 0.0
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

    def presence(self, message: Callable[[], str]) -> None:
        """Send the ``room`` message of a presence change, at most one every
        :attr:`presence_every` seconds: one that comes sooner waits, and then only the last
        is made, with what is then current."""
        self._presence = message
        if self._presence_timer is not None:
            return
        loop = asyncio.get_running_loop()
        wait = self._presence_at - loop.time()
        if wait <= 0:
            self._send_presence()
        else:
            self._presence_timer = loop.call_later(wait, self._send_presence)

    def _send_presence(self) -> None:
        self._presence_timer = None
        message, self._presence = self._presence, None
        if message is None or self.closing or self.room is None:
            return
        self._presence_at = asyncio.get_running_loop().time() + self.presence_every
        self.send(message())

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
        if self._presence_timer is not None:
            self._presence_timer.cancel()
            self._presence_timer = None
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


async def _refuse(ws: WebSocket, why: str) -> None:
    """Accept a WebSocket only to say that it is one too many (``rate_limited``), and close it
    (1013: try again later)."""
    with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
        await ws.accept()
        await ws.send_text(dumps(ProtocolError("rate_limited", f"{why}: try again later").to_message()))
        await ws.close(code=TRY_AGAIN_LATER)


async def _socket(rooms: Rooms, limits: Limits, guards: Guards, ws: WebSocket, client: WsClient) -> None:
    """One WebSocket, from the origin check to the room's goodbye."""
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), rooms.options.allowed_origins):
        log.warning("refused a WebSocket from another origin")
        await ws.close(code=POLICY_VIOLATION)  # before accept: the handshake gets HTTP 403
        return
    await ws.accept()
    writer = client.writing = asyncio.get_running_loop().create_task(client.writer())
    try:
        await _serve(rooms, limits, guards, client, ws)
    finally:
        room = client.room
        if room is not None:
            await room.disconnect(client)
        client.close(client.close_code)
        with contextlib.suppress(asyncio.CancelledError):
            await writer


def _flood(client: WsClient, what: str) -> None:
    """A flood: say so (``rate_limited``), and close the connection (1008)."""
    client.send(dumps(ProtocolError("rate_limited", f"a flood: {what}; closing").to_message()))
    client.close(POLICY_VIOLATION)


async def _receive(client: WsClient, ws: WebSocket, hello_by: float) -> str | None:
    """The next message's text (``""`` for a binary one); ``None`` once the connection ended,
    or (closing it) when it has not said ``hello`` by ``hello_by`` (``time.monotonic()``)."""
    try:
        if client.room is None:
            async with asyncio.timeout(max(0.0, hello_by - time.monotonic())):
                message = await ws.receive()
        else:
            message = await ws.receive()
    except TimeoutError:
        client.send(dumps(ProtocolError("unauthorized", "no hello in time: closing").to_message()))
        client.close(POLICY_VIOLATION)
        return None
    except (WebSocketDisconnect, RuntimeError):
        return None
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    return "" if text is None else str(text)


async def _serve(rooms: Rooms, limits: Limits, guards: Guards, client: WsClient, ws: WebSocket) -> None:
    hello_by = time.monotonic() + rooms.options.hello_timeout
    while not client.closing:
        text = await _receive(client, ws, hello_by)
        if text is None:
            return
        if not client.rate.allow(time.monotonic()):
            _flood(client, f"more than {RATE_LIMIT} messages in a second")
            return
        try:
            if not text:
                raise ProtocolError("malformed", "messages are JSON text frames")
            await _message(rooms, limits, guards, client, parse(text))
        except ProtocolError as exc:
            client.send(dumps(exc.to_message()))
        except Exception:
            log.exception("error while handling a message")
            failed = ProtocolError("server_error", "the server failed on this message")
            client.send(dumps(failed.to_message()))


async def _message(rooms: Rooms, limits: Limits, guards: Guards, client: WsClient,
                   checked: ClientMessage) -> None:
    """Handle one checked message: a ``hello`` within the room's limits and the guesses'; a
    chat line within the chat's; an ``act`` applied given back to the flood count, one
    refused or stale counted in :attr:`WsClient.refused`."""
    if isinstance(checked, Hello) and client.room is None:
        limits.check(client.address, client.code, checked.token)
        try:
            guards.admit(rooms.get(client.code), checked.token is None)
            await handle(rooms, client, checked)
        except ProtocolError as exc:
            if exc.status == 404 or exc.code == "unauthorized":  # an unknown code, a wrong token
                limits.unknown(client.address)
            raise
        return
    if isinstance(checked, Chat) and client.room is not None:
        guards.chat(client.room, client.seat, client.key)
    if not isinstance(checked, Act):
        await handle(rooms, client, checked)
        return
    applied = False
    try:
        applied = await handle(rooms, client, checked)
    finally:
        if applied:
            client.rate.refund()
        elif not client.refused.allow(time.monotonic()):
            _flood(client, f"more than {client.refused.limit} refused or stale actions in a second")


__all__ = ["WsClient", "socket"]
