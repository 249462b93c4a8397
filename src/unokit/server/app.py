"""The FastAPI application of ``unokit serve``: the client's files, the JSON endpoints and the
WebSocket of ``docs/protocol.md``.

:func:`create_app` builds it around a :class:`~.store.Store`; the store's rooms are loaded
when the application starts (a room that cannot be read is closed, and the server starts all
the same) and their bots resume.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final, Literal, get_args, get_origin, get_type_hints

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect, WebSocketState

from .. import __version__
from ..bots.registry import bot_names
from ..core.actions import MAX_SEATS
from ..core.editions import RECORDS
from ..core.errors import UnoError
from ..core.options import MAX_TARGET, Options
from ..core.record import record_of
from ..i18n import LANGUAGE_NAMES, LANGUAGES
from .catalogs import catalog_json, rules_json
from .cluster import Cluster
from .models import (
    DEFAULT_BETWEEN_ROUNDS,
    DEFAULT_BOT,
    DEFAULT_BOT_DELAY,
    DEFAULT_FORGET_UNO,
    MAX_BETWEEN_ROUNDS,
    MAX_BOT_DELAY,
    MAX_CHAT,
    MAX_MESSAGE_BYTES,
    MAX_NAME,
    MAX_TURN_TIMEOUT,
    MIN_TURN_TIMEOUT,
    CreateRoom,
    Hello,
    JoinRoom,
)
from .protocol import RATE_LIMIT, ProtocolError, check_name, check_size, dumps, malformed, parse
from .rooms import Client, Rooms, ServerOptions, handle
from .security import (
    AddressLimits,
    RateLimiter,
    SecurityHeaders,
    keep_secrets_out_of_logs,
    normalize_code,
    origin_allowed,
)
from .store import Store

log = logging.getLogger("unokit.server")

STATIC: Final = Path(__file__).parent / "static"
MAX_QUEUE: Final = 1000
"""Messages waiting for a slow connection before the server drops it (code 1013)."""
POLICY_VIOLATION: Final = 1008
TRY_AGAIN_LATER: Final = 1013
CLOSE_TIMEOUT: Final = 5.0
"""Seconds the closing handshake of a dropped connection may take before its socket is cut."""


class WsClient(Client):
    """A WebSocket connection to ``/ws/{code}``: messages go through a queue, sent by a writer
    task, so that a slow connection never holds a room up."""

    def __init__(self, ws: WebSocket, code: str) -> None:
        super().__init__(code)
        self.ws = ws
        self.address = ws.client.host if ws.client is not None else "?"
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


def _choices() -> dict[str, list[str]]:
    """The values of each option that is a choice (the ``Literal`` types of :class:`Options`)."""
    hints = get_type_hints(Options)
    return {f.name: [str(v) for v in get_args(hints[f.name])] for f in dataclasses.fields(Options)
            if get_origin(hints[f.name]) is Literal}


def _config_json(rooms: Rooms) -> dict[str, Any]:
    defaults = Options()
    choices = _choices()
    options: dict[str, Any] = {}
    for name, value in defaults.as_dict().items():
        if name in choices:
            options[name] = {"type": "choice", "default": value, "choices": choices[name]}
        elif isinstance(value, bool):
            options[name] = {"type": "bool", "default": value}
        elif name == "target":
            options[name] = {"type": "number", "default": value, "min": 1, "max": MAX_TARGET}
        else:
            options[name] = {"type": "int", "default": value, "min": 1, "max": 15}
    return {
        "version": __version__,
        "dev": rooms.options.dev,
        "languages": list(LANGUAGES),
        "language_names": dict(LANGUAGE_NAMES),
        "editions": [{"name": e.name, "title": e.title,
                      "special": None if e.special is None else _card(e.special)} for e in RECORDS.values()],
        "bots": bot_names(),
        "max_players": MAX_SEATS,
        "options": options,
        "defaults": {"edition": "classic", "players": 4, "bot": DEFAULT_BOT,
                     "bot_delay": DEFAULT_BOT_DELAY, "forget_uno": DEFAULT_FORGET_UNO,
                     "between_rounds": DEFAULT_BETWEEN_ROUNDS, "turn_timeout": None},
        "limits": {"message_bytes": MAX_MESSAGE_BYTES, "name_chars": MAX_NAME, "chat_chars": MAX_CHAT,
                   "messages_per_second": RATE_LIMIT, "bot_delay_max": MAX_BOT_DELAY,
                   "between_rounds_max": MAX_BETWEEN_ROUNDS, "turn_timeout_min": MIN_TURN_TIMEOUT,
                   "turn_timeout_max": MAX_TURN_TIMEOUT},
    }


def _card(c: int) -> str:
    from ..core.cards import card_str

    return card_str(c)


def _error(exc: ProtocolError) -> JSONResponse:
    """A refused request: the error message of the WebSocket, with its HTTP status."""
    return JSONResponse(exc.to_message(), status_code=exc.status)


def create_app(store: Store, options: ServerOptions | None = None) -> FastAPI:
    """The application, serving the rooms of ``store``. On PostgreSQL it joins the other
    processes serving the same database (:mod:`.cluster`)."""
    cluster = Cluster(store.url) if store.postgresql else None
    rooms = Rooms(store, options, cluster)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        keep_secrets_out_of_logs()
        loaded = rooms.load()
        if loaded:
            log.info("resumed %d room(s)", len(loaded))
        if cluster is not None:
            cluster.start(rooms)
            await cluster.ready()
            log.info("serving with the other processes of the database as server %s", cluster.id)
        rooms.start()
        janitor = asyncio.get_running_loop().create_task(_close_idle_rooms(rooms))
        yield
        janitor.cancel()
        rooms.stop()
        if cluster is not None:
            await cluster.stop()

    app = FastAPI(title="unokit", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.rooms = rooms
    app.add_middleware(SecurityHeaders)

    @app.exception_handler(ProtocolError)
    async def refused(_: Request, exc: ProtocolError) -> JSONResponse:
        return _error(exc)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 413: "too_large", 429: "rate_limited"}.get(exc.status_code, "malformed")
        return _error(ProtocolError(code, str(exc.detail), exc.status_code))

    def index() -> Response:
        page = STATIC / "index.html"
        if not page.is_file():
            return PlainTextResponse("the unokit web client is not installed\n", status_code=503)
        return FileResponse(page, media_type="text/html; charset=utf-8",
                            headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def root() -> Response:
        return index()

    @app.get("/r/{code}", include_in_schema=False)
    async def room_link(code: str) -> Response:
        return index()

    @app.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__, "rooms": len(rooms.rooms),
                "server": rooms.server_id, "owned": sum(1 for r in rooms.rooms.values() if r.owned)}

    @app.get("/api/config")
    async def config() -> dict[str, Any]:
        return _config_json(rooms)

    @app.get("/api/i18n/{lang}")
    async def i18n(lang: str) -> dict[str, Any]:
        try:
            return catalog_json(lang)
        except UnoError as exc:
            raise ProtocolError("not_found", str(exc)) from None

    @app.get("/api/rules/{lang}/{edition}")
    async def rules(lang: str, edition: str) -> dict[str, str]:
        try:
            return rules_json(lang, edition)
        except (UnoError, OSError) as exc:
            raise ProtocolError("not_found", str(exc)) from None

    @app.get("/api/rooms")
    async def public_rooms() -> dict[str, Any]:
        return {"rooms": rooms.public()}

    posts = AddressLimits(rooms.options.posts_per_10s, 10.0)
    limits = app.state.limits = Limits(rooms)

    def room_of(request: Request, code: str) -> Any:
        """The room ``code`` for an HTTP request (an unknown code counts against its address)."""
        return limits.room(_address(request), code)

    async def body_of(request: Request) -> bytes:
        if not posts.allow(_address(request), time.monotonic()):
            raise ProtocolError("rate_limited", "too many requests: wait a moment")
        body = await request.body()
        check_size(body)
        return body or b"{}"

    @app.post("/api/rooms", status_code=201)
    async def create_room(request: Request) -> Response:
        try:
            body = CreateRoom.model_validate_json(await body_of(request))
        except ValidationError as exc:
            raise malformed(exc, "POST /api/rooms") from None
        room, token = await rooms.create(body)
        return JSONResponse({"code": room.code, "seat": 0, "token": token, "link": f"/r/{room.code}"},
                            status_code=201)

    @app.post("/api/rooms/{code}/join")
    async def join_room(code: str, request: Request) -> Response:
        try:
            body = JoinRoom.model_validate_json(await body_of(request))
        except ValidationError as exc:
            raise malformed(exc, "POST /api/rooms/{code}/join") from None
        name = check_name(body.name)
        limits.join(_address(request))
        room = room_of(request, code)
        seat, token = await room.take_seat(name, body.seat)
        return JSONResponse({"code": room.code, "seat": seat, "token": token, "link": f"/r/{room.code}"})

    @app.post("/api/rooms/{code}/start")
    async def start_room(code: str, request: Request) -> Response:
        await body_of(request)  # counted, and its size checked; its content is not read
        room = room_of(request, code)
        try:
            await room.start(_bearer(request))
        except ProtocolError as exc:
            if exc.code == "unauthorized" and exc.status == 401:  # a token that is no seat's
                limits.unknown(_address(request))
            raise
        return JSONResponse({"ok": True})

    @app.get("/api/rooms/{code}")
    async def room_summary(code: str, request: Request) -> dict[str, Any]:
        key = normalize_code(code)
        limits.check(_address(request))
        room = rooms.rooms.get(key)
        if room is not None:
            summary: dict[str, Any] = room.summary()
            return summary
        if key in rooms.closed:
            return {"code": key, "status": "closed", "closed_reason": rooms.closed[key]}
        limits.unknown(_address(request))
        raise ProtocolError("not_found", "there is no room with this code")

    @app.get("/api/rooms/{code}/record")
    async def room_record(code: str, request: Request) -> Response:
        room = room_of(request, code)
        async with room.locked():
            if room.game is None or not room.game.is_over:
                raise ProtocolError("illegal", "the match is not over")
            return JSONResponse(record_of(room.game))

    if rooms.options.dev:
        @app.get("/api/dev/rooms/{code}")
        async def dev_room(code: str) -> dict[str, Any]:
            room = rooms.get(code)
            if room.game is None:
                raise ProtocolError("illegal", "no game in this room")
            async with room.locked():
                return {"version": room.version, "status": room.status, "position": room.game.to_dict(),
                        "declined": list(room.declined), "owned": room.owned, "server": rooms.server_id}

    @app.websocket("/ws/{code}")
    async def room_websocket(ws: WebSocket, code: str) -> None:
        await _socket(rooms, limits, ws, WsClient(ws, normalize_code(code)[:32]))

    static = StaticFiles(directory=STATIC, check_dir=False)
    app.mount("/static", static, name="static")
    return app


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


class Limits:
    """The per-address limits of ``--rate-limit`` (``ServerOptions.rate_limit`` in ten
    seconds; 0: none): on joins (``POST .../join``) and on guesses (a room code that is no
    room's, a token that is no seat's: past the limit, every lookup and ``hello`` from the
    address is refused for a while, right ones too), so that codes and tokens cannot be
    enumerated. A ``hello`` that finds its room and seat is not limited (a reload, a
    reconnection)."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        self.joins = AddressLimits(rooms.options.rate_limit, 10.0)
        self.unknowns = AddressLimits(rooms.options.rate_limit, 10.0)

    def check(self, address: str) -> None:
        """Refuse every lookup of an address past its limit of unknown codes."""
        if self.unknowns.blocked(address, time.monotonic()):
            raise ProtocolError("rate_limited", "too many unknown room codes: wait a moment")

    def unknown(self, address: str) -> None:
        """Count a guess of ``address``: an unknown code, a wrong token."""
        self.unknowns.allow(address, time.monotonic())

    def join(self, address: str) -> None:
        """Count a join (or a hello) of ``address``; refuse it past the limit."""
        if not self.joins.allow(address, time.monotonic()):
            raise ProtocolError("rate_limited", "too many joins from this address: wait a moment")

    def room(self, address: str, code: str) -> Any:
        """The room ``code`` (see :meth:`Rooms.get`), counting an unknown code."""
        self.check(address)
        try:
            return self.rooms.get(code)
        except ProtocolError as exc:
            if exc.status == 404:
                self.unknown(address)
            raise


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


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


async def _close_idle_rooms(rooms: Rooms) -> None:
    """Every ten minutes, close the rooms left idle for ``--idle-hours``."""
    while True:
        await asyncio.sleep(600)
        try:
            closed = await rooms.close_idle(rooms.options.idle_hours * 3600)
        except Exception:
            log.exception("closing the idle rooms failed")
            continue
        if closed:
            log.info("closed %d idle room(s)", len(closed))


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
                limits.check(client.address)
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


__all__ = ["WsClient", "create_app"]
