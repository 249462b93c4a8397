"""Safe defaults: seat tokens, the WebSocket origin check, rate limits, and the HTTP headers.

>>> token = new_token()
>>> digest = token_hash(token)
>>> token_matches(token, digest), token_matches("guess", digest), token_matches(token, None)
(True, False, False)
>>> origin_allowed("http://localhost:8000", "localhost:8000", ())
True
>>> origin_allowed("https://evil.example", "localhost:8000", ())
False
>>> origin_allowed(None, "localhost:8000", ())
True
>>> limiter = RateLimiter(2, 1.0)
>>> [limiter.allow(t) for t in (0.0, 0.1, 0.2, 1.15)]
[True, True, False, True]
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from collections import deque
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CODE_ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Room codes: no 0/O, 1/I/L, so that a code read aloud or copied by hand comes out right."""
CODE_LENGTH: Final = 14
"""14 characters of 31: 69 random bits, past the 64 a code must hold at least."""
MAX_BODY: Final = 4096


def new_code() -> str:
    """A new random room code (:data:`CODE_LENGTH` characters of :data:`CODE_ALPHABET`,
    from :mod:`secrets`).

    >>> len(new_code()), len(CODE_ALPHABET) ** CODE_LENGTH >= 2 ** 64
    (14, True)
    """
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """A code as the client may type it: case and surrounding spaces do not matter."""
    return code.strip().upper()


def new_token() -> str:
    """A new seat token (192 random bits, URL-safe text)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, digest: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``digest``, compared in constant time."""
    if digest is None:
        return False
    return hmac.compare_digest(token_hash(token).encode("ascii"), digest.encode("ascii"))


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str]) -> bool:
    """Whether a WebSocket handshake's ``Origin`` may connect: none (not a browser), the
    server's own host (the ``Host`` header, either scheme), or one of ``allowed`` (full
    origins such as ``https://uno.example.org``, or ``*``)."""
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    wanted = {a.strip().rstrip("/").lower() for a in allowed}
    if "*" in wanted or origin in wanted:
        return True
    if origin == "null" or not host:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == host.strip().lower()


class RateLimiter:
    """At most ``limit`` events in any window of ``seconds``."""

    def __init__(self, limit: int, seconds: float = 1.0) -> None:
        self.limit = limit
        self.seconds = seconds
        self._times: deque[float] = deque()

    def allow(self, now: float) -> bool:
        """Count an event at ``now`` if the limit allows it; returns whether it did."""
        if self.blocked(now):
            return False
        self._times.append(now)
        return True

    def blocked(self, now: float) -> bool:
        """Whether an event at ``now`` would be refused (nothing is counted)."""
        times = self._times
        while times and times[0] <= now - self.seconds:
            times.popleft()
        return len(times) >= self.limit


class AddressLimits:
    """A :class:`RateLimiter` per client address: at most ``limit`` events of one kind in any
    window of ``seconds`` from one address (``limit`` 0: no limit). The table forgets every
    address when it holds too many (an attacker with that many addresses is not slowed down
    by a per-address limit anyway).

    >>> joins = AddressLimits(2, 10.0)
    >>> [joins.allow("10.0.0.1", t) for t in (0.0, 1.0, 2.0)], joins.allow("10.0.0.2", 2.0)
    ([True, True, False], True)
    >>> AddressLimits(0).allow("10.0.0.1", 0.0)
    True
    """

    MAX_ADDRESSES: Final = 10_000

    def __init__(self, limit: int, seconds: float = 10.0) -> None:
        self.limit = limit
        self.seconds = seconds
        self._by: dict[str, RateLimiter] = {}

    def _of(self, address: str) -> RateLimiter:
        limiter = self._by.get(address)
        if limiter is None:
            if len(self._by) >= self.MAX_ADDRESSES:
                self._by.clear()
            limiter = self._by[address] = RateLimiter(self.limit, self.seconds)
        return limiter

    def allow(self, address: str, now: float) -> bool:
        """Count an event of ``address`` at ``now`` if its limit allows it."""
        return self.limit <= 0 or self._of(address).allow(now)

    def blocked(self, address: str, now: float) -> bool:
        """Whether ``address`` is over its limit now (nothing is counted)."""
        return self.limit > 0 and address in self._by and self._by[address].blocked(now)


def content_security_policy(host: str | None) -> str:
    """The CSP of every page: the client's own scripts and styles only (no inline script or
    style, no ``eval``), its WebSocket on the same host, no framing."""
    connect = "'self'"
    if host and all(ch.isalnum() or ch in ".-:[]" for ch in host):
        connect += f" ws://{host} wss://{host}"
    return ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"font-src 'self'; connect-src {connect}; object-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'")


_SECRET = re.compile(r'("token"\s*:\s*")[^"]*(")|(\bBearer\s+)\S+', re.IGNORECASE)
LOGGERS: Final = ("uvicorn", "uvicorn.error", "uvicorn.access", "websockets", "websockets.server",
                  "websockets.protocol", "unokit.server")


class NoSecretsInLogs(logging.Filter):
    """Keeps seat tokens out of the logs: drops the WebSocket library's debug lines of frames
    and headers (``< TEXT '...'``, ``> TEXT '...'``), and blanks a token or a bearer
    credential in any other line.

    >>> f = NoSecretsInLogs()
    >>> r = logging.LogRecord("x", logging.INFO, "", 0, 'sent {"token": "abc"}', (), None)
    >>> f.filter(r), r.getMessage()
    (True, 'sent {"token": "…"}')
    >>> f.filter(logging.LogRecord("x", logging.DEBUG, "", 0, "> %s", ("TEXT '...'",), None))
    False
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg.startswith(("< ", "> ")):
            return False
        try:
            text = record.getMessage()
        except (TypeError, ValueError):
            return True
        if _SECRET.search(text):
            record.msg = _SECRET.sub(lambda m: f"{m.group(1)}…{m.group(2)}" if m.group(1) else
                                     f"{m.group(3)}…", text)
            record.args = ()
        return True


def keep_secrets_out_of_logs() -> None:
    """Put :class:`NoSecretsInLogs` on the server's loggers and on their handlers (once)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        for target in (logger, *logger.handlers):
            if not any(isinstance(f, NoSecretsInLogs) for f in target.filters):
                target.addFilter(NoSecretsInLogs())


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP response, and a 413 for a request
    body over :data:`MAX_BODY` bytes (by its ``Content-Length``, or as it arrives)."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host")
        extra = [
            (b"content-security-policy", content_security_policy(host).encode("latin-1")),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY"),
        ]
        length = headers.get("content-length", "0")
        if not length.isdigit() or int(length) > self.max_body:
            await _too_large(send, extra)
            return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise _BodyTooLarge
            return message

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = dict(message)
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        try:
            await self.app(scope, limited_receive, send_with_headers)
        except _BodyTooLarge:
            if not started:
                await _too_large(send, extra)


class _BodyTooLarge(Exception):
    pass


TOO_LARGE_BODY: Final = (b'{"type":"error","code":"too_large","message":"a request body may hold at most '
                          + str(MAX_BODY).encode() + b' bytes"}')


async def _too_large(send: Send, extra: list[tuple[bytes, bytes]]) -> None:
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), *extra]})
    await send({"type": "http.response.body", "body": TOO_LARGE_BODY})


__all__ = [
    "CODE_ALPHABET",
    "MAX_BODY",
    "AddressLimits",
    "NoSecretsInLogs",
    "RateLimiter",
    "SecurityHeaders",
    "content_security_policy",
    "keep_secrets_out_of_logs",
    "new_code",
    "new_token",
    "normalize_code",
    "origin_allowed",
    "token_hash",
    "token_matches",
]
