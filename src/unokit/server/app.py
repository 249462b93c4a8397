"""The FastAPI application of ``unokit serve``: the client's files, the JSON endpoints and the
WebSocket of ``docs/protocol.md``.

:func:`create_app` builds it around a :class:`~.store.Store`; the store's rooms are loaded
when the application starts (a room that cannot be read is closed, and the server starts all
the same) and their bots resume.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from .. import __version__
from . import transport
from .cluster import Cluster
from .guards import Guards, close_unjoined_rooms
from .limits import Limits
from .protocol import ProtocolError
from .rooms import Rooms, ServerOptions
from .routes.pages import STATIC, pages
from .routes.rooms import room_reads, rooms_api
from .routes.socket import WsClient, socket
from .security import RequestGuards, SecurityHeaders, keep_secrets_out_of_logs
from .store import Store

log = logging.getLogger("unokit.server")


def _error(exc: ProtocolError) -> JSONResponse:
    """A refused request: the error message of the WebSocket, with its HTTP status."""
    return JSONResponse(exc.to_message(), status_code=exc.status)


def create_app(store: Store, options: ServerOptions | None = None) -> FastAPI:
    """The application, serving the rooms of ``store``. On PostgreSQL it joins the other
    processes serving the same database (:mod:`.cluster`)."""
    cluster = Cluster(store.url) if store.postgresql else None
    rooms = Rooms(store, options, cluster)
    limited = rooms.options
    transport.configure(limited.header_timeout, limited.body_timeout, limited.pings_per_second)

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
        unjoined = asyncio.get_running_loop().create_task(close_unjoined_rooms(rooms))
        yield
        janitor.cancel()
        unjoined.cancel()
        rooms.stop()
        if cluster is not None:
            await cluster.stop()

    app = FastAPI(title="unokit", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url="/openapi.json")
    app.state.rooms = rooms
    app.add_middleware(RequestGuards, hosts=rooms.options.allowed_hosts,
                       origins=rooms.options.allowed_origins)
    app.add_middleware(SecurityHeaders)
    if rooms.options.forwarded_allow_ips:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(rooms.options.forwarded_allow_ips))

    @app.exception_handler(ProtocolError)
    async def refused(_: Request, exc: ProtocolError) -> JSONResponse:
        return _error(exc)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 413: "too_large", 429: "rate_limited"}.get(exc.status_code, "malformed")
        response = _error(ProtocolError(code, str(exc.detail), exc.status_code))
        response.headers.update(exc.headers or {})  # a 405's Allow
        return response

    limits = app.state.limits = Limits(rooms)
    app.include_router(pages(rooms))
    app.include_router(rooms_api(rooms, limits))
    app.include_router(room_reads(rooms, limits))
    app.include_router(socket(rooms, limits, Guards(rooms.options)))
    static = StaticFiles(directory=STATIC, check_dir=False)
    app.mount("/static", static, name="static")
    return app


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


__all__ = ["WsClient", "create_app"]
