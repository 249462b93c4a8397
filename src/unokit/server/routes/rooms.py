"""The rooms' HTTP API: the public rooms, making a room, joining it, starting it, its summary
and its record (and, with ``--dev``, its position)."""

from __future__ import annotations

import time
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError

from ...core.record import record_of
from ..limits import Limits, address, address_key, bearer
from ..models import CreateRoom, JoinRoom, request_body
from ..protocol import ProtocolError, check_name, check_size, malformed
from ..rooms import Rooms
from ..security import AddressLimits, normalize_code

ANY_JSON: Final = {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}}
"""The body of ``POST .../start``: a JSON object (``{}``), not read."""


def rooms_api(rooms: Rooms, limits: Limits) -> APIRouter:
    """The routes that make, join and start rooms, and list the public ones."""
    router = APIRouter()

    @router.get("/api/rooms")
    async def public_rooms() -> dict[str, Any]:
        return {"rooms": rooms.public()}

    posts = AddressLimits(rooms.options.posts_per_10s, 10.0)

    def room_of(request: Request, code: str) -> Any:
        """The room ``code`` for an HTTP request (an unknown code counts against its address)."""
        return limits.room(address(request), code)

    async def body_of(request: Request) -> bytes:
        if not posts.allow(address(request), time.monotonic()):
            raise ProtocolError("rate_limited", "too many requests: wait a moment")
        body = await request.body()
        check_size(body)
        return body or b"{}"

    @router.post("/api/rooms", status_code=201, openapi_extra={"requestBody": request_body(CreateRoom)})
    async def create_room(request: Request) -> Response:
        try:
            body = CreateRoom.model_validate_json(await body_of(request))
        except ValidationError as exc:
            raise malformed(exc, "POST /api/rooms") from None
        room, token = await rooms.create(body, creator=address_key(request))
        return JSONResponse({"code": room.code, "seat": 0, "token": token, "link": f"/r/{room.code}"},
                            status_code=201)

    @router.post("/api/rooms/{code}/join", openapi_extra={"requestBody": request_body(JoinRoom)})
    async def join_room(code: str, request: Request) -> Response:
        try:
            body = JoinRoom.model_validate_json(await body_of(request))
        except ValidationError as exc:
            raise malformed(exc, "POST /api/rooms/{code}/join") from None
        name = check_name(body.name)
        limits.join(address(request))
        room = room_of(request, code)
        seat, token = await room.take_seat(name, body.seat)
        return JSONResponse({"code": room.code, "seat": seat, "token": token, "link": f"/r/{room.code}"})

    @router.post("/api/rooms/{code}/start", openapi_extra={"requestBody": ANY_JSON})
    async def start_room(code: str, request: Request) -> Response:
        await body_of(request)  # counted, and its size checked; its content is not read
        room = limits.room(address(request), code, bearer(request))
        try:
            await room.start(bearer(request))
        except ProtocolError as exc:
            if exc.code == "unauthorized" and exc.status == 401:  # a token that is no seat's
                limits.unknown(address(request))
            raise
        return JSONResponse({"ok": True})

    return router


def room_reads(rooms: Rooms, limits: Limits) -> APIRouter:
    """The routes that read a room: its summary, its record (and, with ``--dev``, its
    position)."""
    router = APIRouter()

    @router.get("/api/rooms/{code}")
    async def room_summary(code: str, request: Request) -> dict[str, Any]:
        key = normalize_code(code)
        limits.check(address(request))
        room = rooms.find(key)  # held here, or made by another process (read from the database)
        if room is not None:
            summary: dict[str, Any] = room.summary()
            return summary
        if key in rooms.closed:
            return {"code": key, "status": "closed", "closed_reason": rooms.closed[key]}
        limits.unknown(address(request))
        raise ProtocolError("not_found", "there is no room with this code")

    @router.get("/api/rooms/{code}/record")
    async def room_record(code: str, request: Request) -> Response:
        room = limits.room(address(request), code)
        async with room.locked():
            if room.game is None or not room.game.is_over:
                raise ProtocolError("illegal", "the match is not over")
            return JSONResponse(record_of(room.game))

    if rooms.options.dev:
        @router.get("/api/dev/rooms/{code}")
        async def dev_room(code: str) -> dict[str, Any]:
            room = rooms.get(code)
            if room.game is None:
                raise ProtocolError("illegal", "no game in this room")
            async with room.locked():
                return {"version": room.version, "status": room.status, "position": room.game.to_dict(),
                        "declined": list(room.declined), "owned": room.owned, "server": rooms.server_id}
    return router


__all__ = ["room_reads", "rooms_api"]
