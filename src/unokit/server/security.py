"""Safe defaults: seat tokens, the client's address, the Host and Origin checks, rate limits,
the HTTP headers and the JSON error of a request that failed.

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
>>> host_allowed("localhost:8000", ()), host_allowed("127.0.0.1", ()), host_allowed("[::1]:80", ())
(True, True, True)
>>> host_allowed("evil.example", ()), host_allowed("uno.example.org", ("uno.example.org",))
(False, True)
>>> limiter = RateLimiter(2, 1.0)
>>> [limiter.allow(t) for t in (0.0, 0.1, 0.2, 1.15)]
[True, True, False, True]
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import secrets
from collections import deque
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("unokit.server")

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


LOOPBACK_HOSTS: Final = ("localhost", "127.0.0.1", "::1")
"""The names a server always answers for (the ``Host`` header): this computer's."""


def client_address(scope: Scope) -> str:
    """The address of the client of a request or a WebSocket (its ASGI ``scope``): the peer's,
    or, when the peer is a proxy of ``--forwarded-allow-ips``, the client its
    ``X-Forwarded-For`` names (uvicorn's proxy headers middleware has put it in the scope);
    ``"?"`` when the server was not told."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


def host_name(host: str | None) -> str | None:
    """The name of a ``Host`` header (no port, no brackets, lower case), or ``None``.

    >>> host_name("Uno.Example.org:443"), host_name("[::1]:8000"), host_name("::1"), host_name("")
    ('uno.example.org', '::1', '::1', None)
    """
    if not host:
        return None
    host = host.strip().lower()
    if host.startswith("["):
        name, bracket, _ = host[1:].partition("]")
        return name if bracket else None
    if host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".") or None


def host_allowed(host: str | None, allowed: Iterable[str]) -> bool:
    """Whether a request's ``Host`` header names this server: a loopback name
    (:data:`LOOPBACK_HOSTS`) or one of ``allowed`` (host names or addresses, without a port),
    so that a page of another site whose name was made to point here (DNS rebinding) is refused."""
    name = host_name(host)
    return name is not None and (name in LOOPBACK_HOSTS or name in {a.strip().lower().strip("[]")
                                                                    for a in allowed})


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


_SECRET = re.compile(r'("token"\s*:\s*")[^"]*(")|(\bBearer\s+)\S+|([?&;](?:token|access_token)=)[^&;#\s"]*',
                     re.IGNORECASE)
CLIENT_FAULTS: Final = (UnicodeDecodeError,)
"""What a client's bad data raises in the web server's own code (uvicorn's WebSocket)."""
LOGGERS: Final = ("uvicorn", "uvicorn.error", "uvicorn.access", "websockets", "websockets.server",
                  "websockets.protocol", "unokit.server")


class NoSecretsInLogs(logging.Filter):
    """Keeps seat tokens out of the logs: drops the WebSocket library's debug lines of frames
    and headers (``< TEXT '...'``, ``> TEXT '...'``), and blanks a token, a bearer
    credential or a ``token=`` of a query string (the access log's) in any other line.
    A failure that a client's bad data caused in the web server (a WebSocket text frame
    that is not UTF-8) is logged as one warning line, without its traceback.

    >>> f = NoSecretsInLogs()
    >>> r = logging.LogRecord("x", logging.INFO, "", 0, 'sent {"token": "abc"}', (), None)
    >>> f.filter(r), r.getMessage()
    (True, 'sent {"token": "…"}')
    >>> r = logging.LogRecord("x", logging.INFO, "", 0, '%s - "GET /ws/X?token=abc&a=1"', ("h",), None)
    >>> f.filter(r), r.getMessage()
    (True, 'h - "GET /ws/X?token=…&a=1"')
    >>> f.filter(logging.LogRecord("x", logging.DEBUG, "", 0, "> %s", ("TEXT '...'",), None))
    False
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg.startswith(("< ", "> ")):
            return False
        if record.exc_info and isinstance(record.exc_info[1], CLIENT_FAULTS):  # the client's, not ours
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        if isinstance(record.args, tuple):  # each argument blanked: the access log's formatter reads them
            record.args = tuple(_SECRET.sub(_blank, a) if isinstance(a, str) else a for a in record.args)
        try:
            text = record.getMessage()
        except (TypeError, ValueError):
            return True
        cleaned = _SECRET.sub(_blank, text)
        if cleaned != text:
            record.msg, record.args = cleaned, ()
        return True


def _blank(m: re.Match[str]) -> str:
    if m.group(1):
        return f"{m.group(1)}…{m.group(2)}"
    return f"{m.group(3) or m.group(4)}…"


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


SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
DATABASE_DOWN: Final = "the server cannot reach its database: try again in a moment"


class RequestGuards:
    """ASGI middleware, inside :class:`SecurityHeaders` (so that its answers carry the
    headers too): refuses a request or WebSocket for another ``Host`` (400; a WebSocket's
    handshake gets 403), a state-changing request (any method but GET, HEAD, OPTIONS) whose
    body is not ``application/json`` (415) or that comes from another site's page (its
    ``Origin``, as for the WebSocket: 403); and answers a request that failed in the server
    with the JSON error (500: ``server_error``), logged once. A client that went away in the
    middle of its request is logged as one warning line."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = (), origins: Iterable[str] = ()) -> None:
        self.app = app
        self.hosts = tuple(hosts)
        self.origins = tuple(origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        refusal = self.refusal(scope, headers)
        if refusal is not None:
            status, code, message = refusal
            log.warning("refused %s %s from %s: %s", scope.get("method", "WebSocket"), scope.get("path"),
                        client_address(scope), message)
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})  # before accept: HTTP 403
            else:
                await json_error(send, status, code, message)
            return
        await self._call(scope, receive, send)

    def refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str, str] | None:
        """Why a request is refused before it is read (its status, code and message), or ``None``."""
        host = headers.get("host")
        if not host_allowed(host, self.hosts):
            return 400, "malformed", "this server does not answer for this Host (see --allowed-host)"
        if scope["type"] != "http" or scope.get("method", "GET") in SAFE_METHODS:
            return None
        media = headers.get("content-type", "").partition(";")[0].strip().lower()
        if media != "application/json":
            return 415, "malformed", "a request's body is JSON: send Content-Type: application/json"
        if not origin_allowed(headers.get("origin"), host, self.origins):
            return 403, "unauthorized", "a page of another origin may not make this request"
        return None

    async def _call(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched_send)
        except _BodyTooLarge:
            raise
        except ClientDisconnect:
            log.warning("%s %s: the client went away before its request was whole", scope.get("method"),
                        scope.get("path"))
        except Exception as exc:
            database = type(exc).__module__.split(".")[0] in ("sqlalchemy", "psycopg", "sqlite3")
            log.exception("%s %s failed", scope.get("method", "WebSocket"), scope.get("path"))
            if scope["type"] == "http" and not started:
                await json_error(send, 500, "server_error",
                                 DATABASE_DOWN if database else "the server failed on this request")


async def json_error(send: Send, status: int, code: str, message: str,
                     headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """Answer an HTTP request with the protocol's JSON error."""
    body = json.dumps({"type": "error", "code": code, "message": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


TOO_LARGE_BODY: Final = (b'{"type":"error","code":"too_large","message":"a request body may hold at most '
                          + str(MAX_BODY).encode() + b' bytes"}')


async def _too_large(send: Send, extra: list[tuple[bytes, bytes]]) -> None:
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), *extra]})
    await send({"type": "http.response.body", "body": TOO_LARGE_BODY})


__all__ = [
    "CODE_ALPHABET",
    "LOOPBACK_HOSTS",
    "MAX_BODY",
    "AddressLimits",
    "NoSecretsInLogs",
    "RateLimiter",
    "RequestGuards",
    "SecurityHeaders",
    "client_address",
    "content_security_policy",
    "host_allowed",
    "host_name",
    "json_error",
    "keep_secrets_out_of_logs",
    "new_code",
    "new_token",
    "normalize_code",
    "origin_allowed",
    "token_hash",
    "token_matches",
]
