"""The pages and the read-only API that every client reads first: the web client's page, the
health checks, the configuration (``/api/config``), the catalogs, the words for events and the
rules."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, PlainTextResponse, Response

from ... import __version__
from ...bots.registry import bot_names
from ...core.actions import MAX_SEATS, MIN_SEATS
from ...core.editions import RECORDS
from ...core.errors import UnoError
from ...core.options import OPTION_SPECS, OptionSpec
from ...text.events import narration_json
from ...text.i18n import LANGUAGE_NAMES, LANGUAGES
from ..catalogs import bot_choices, catalog_json, rules_json
from ..models import (
    DEFAULT_BETWEEN_ROUNDS,
    DEFAULT_BOT,
    DEFAULT_BOT_DELAY,
    DEFAULT_FORGET_UNO,
    DEFAULT_REACTION,
    MAX_BETWEEN_ROUNDS,
    MAX_BOT_DELAY,
    MAX_CHAT,
    MAX_MESSAGE_BYTES,
    MAX_NAME,
    MAX_REACTION,
    MAX_TURN_TIMEOUT,
    MIN_TURN_TIMEOUT,
    PROTOCOL_VERSION,
)
from ..protocol import CHAT_HISTORY, RATE_LIMIT, ProtocolError
from ..rooms import Rooms

STATIC: Final = Path(__file__).parent.parent / "static"
"""The web client's files."""


def pages(rooms: Rooms) -> APIRouter:
    """The routes of the pages, the health checks, the configuration, catalogs and rules."""
    router = APIRouter()

    def index() -> Response:
        page = STATIC / "index.html"
        if not page.is_file():
            return PlainTextResponse("the unokit web client is not installed\n", status_code=503)
        return FileResponse(page, media_type="text/html; charset=utf-8",
                            headers={"Cache-Control": "no-cache"})

    @router.get("/", include_in_schema=False)
    async def root() -> Response:
        return index()

    @router.get("/r/{code}", include_in_schema=False)
    async def room_link(code: str) -> Response:
        return index()

    @router.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"ok": True}

    @router.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__, "protocol": PROTOCOL_VERSION, "rooms": len(rooms.rooms),
                "server": rooms.server_id, "owned": sum(1 for r in rooms.rooms.values() if r.owned)}

    @router.get("/api/config")
    async def config() -> dict[str, Any]:
        return _config_json(rooms)

    @router.get("/api/i18n/{lang}")
    async def i18n(lang: str) -> dict[str, Any]:
        try:
            return catalog_json(lang)
        except UnoError as exc:
            raise ProtocolError("not_found", str(exc)) from None

    @router.get("/api/narration")
    async def narration(request: Request) -> Response:
        return _narration(request)

    @router.get("/api/rules/{lang}/{edition}")
    async def rules(lang: str, edition: str) -> dict[str, str]:
        try:
            return rules_json(lang, edition)
        except (UnoError, OSError) as exc:
            raise ProtocolError("not_found", str(exc)) from None
    return router


def options_config(specs: Sequence[OptionSpec] = OPTION_SPECS) -> dict[str, dict[str, Any]]:
    """``/api/config``'s ``options``: each option's ``type`` (its kind) and ``default``, with a
    choice's ``choices`` or a number's ``min`` and ``max`` (for the new-room form: the least
    whole number allowed, and the largest); its ``group`` (``match`` or ``house``) and the
    message ids of its name (``label``; the option's name without one) and, for a choice, of
    each value's (``choice_labels``, by value; the value without one)."""
    options: dict[str, dict[str, Any]] = {}
    for spec in specs:
        entry: dict[str, Any] = {"type": spec.kind, "default": spec.default, "group": spec.group,
                                 "label": spec.label or spec.name}
        if spec.kind == "choice":
            entry["choices"] = list(spec.choices)
            labels = spec.choice_labels or spec.choices
            entry["choice_labels"] = dict(zip(spec.choices, labels, strict=True))
        elif spec.kind != "bool":
            above = spec.exclusive_minimum
            entry["min"] = spec.minimum if above is None else math.floor(above) + 1
            entry["max"] = spec.maximum
        options[spec.name] = entry
    return options


@lru_cache(maxsize=1)
def _narration_body() -> tuple[bytes, str]:
    """The words for events as JSON, and its entity tag."""
    body = json.dumps(narration_json(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _narration(request: Request) -> Response:
    """``GET /api/narration``: the same for every client while the server runs, so it is
    revalidated by its tag (``304`` when the client's copy is current)."""
    body, tag = _narration_body()
    headers = {"Cache-Control": "no-cache", "ETag": tag}
    if tag in (t.strip() for t in request.headers.get("if-none-match", "").split(",")):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


def _config_json(rooms: Rooms) -> dict[str, Any]:
    options = options_config()
    return {
        "version": __version__,
        "protocol": PROTOCOL_VERSION,
        "dev": rooms.options.dev,
        "languages": list(LANGUAGES),
        "language_names": dict(LANGUAGE_NAMES),
        "editions": [{"name": e.name, "title": e.title,
                      "special": None if e.special is None else _card(e.special),
                      "special_name": e.special_name} for e in RECORDS.values()],
        "bots": bot_names(),
        "bot_choices": bot_choices(),
        "min_players": MIN_SEATS,
        "max_players": MAX_SEATS,
        "options": options,
        "defaults": {"edition": "classic", "players": 4, "bot": DEFAULT_BOT,
                     "bot_delay": DEFAULT_BOT_DELAY, "reaction": DEFAULT_REACTION,
                     "forget_uno": DEFAULT_FORGET_UNO,
                     "between_rounds": DEFAULT_BETWEEN_ROUNDS, "turn_timeout": None},
        "limits": {"message_bytes": MAX_MESSAGE_BYTES, "name_chars": MAX_NAME, "chat_chars": MAX_CHAT,
                   "messages_per_second": RATE_LIMIT, "bot_delay_max": MAX_BOT_DELAY,
                   "reaction_max": MAX_REACTION, "between_rounds_max": MAX_BETWEEN_ROUNDS,
                   "turn_timeout_min": MIN_TURN_TIMEOUT,
                   "turn_timeout_max": MAX_TURN_TIMEOUT, "chat_history": CHAT_HISTORY},
    }


def _card(c: int) -> str:
    from ...core.cards import card_str

    return card_str(c)


__all__ = ["STATIC", "options_config", "pages"]
