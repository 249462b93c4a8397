"""Helpers of the server's tests (``tests/test_server_*.py``): an application on a fresh
database, a WebSocket peer that reads with a timeout and checks every message it gets against
the protocol (its schema, and the order and versions of ``events`` and ``state``), an
in-process client, and a subprocess ``unokit serve``. A few tests of the helpers themselves
keep them honest."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

import anyio

with warnings.catch_warnings():  # starlette's test client warns about its httpx
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from unokit.server.app import create_app
from unokit.server.models import SERVER_MESSAGE, CreateRoom
from unokit.server.protocol import ProtocolError, parse
from unokit.server.rooms import Client, Room, Rooms, ServerOptions, handle
from unokit.server.store import Store

ROOT = Path(__file__).parents[1]
Message = dict[str, Any]


def app_client(url: str = "sqlite://", **options: Any) -> TestClient:
    """A test client of an application on the database ``url`` (use it in a ``with``, so that
    every WebSocket shares one event loop and the rooms load)."""
    options.setdefault("dev", True)
    options.setdefault("posts_per_10s", 1000)
    options.setdefault("rate_limit", 0)
    options.setdefault("allowed_hosts", ("testserver",))  # the test client's Host
    store = Store(url)
    return TestClient(create_app(store, ServerOptions(**options)))


class Order:
    """Checks the order of what one connection is sent: after ``hello``, a ``room``; each
    ``events`` followed at once by the ``state`` of its version; the versions of the states
    rising by exactly one, but for the state after a ``stale`` refusal (the current one again)
    and a replay (after ``hello``, or when the server reloads a room it failed to store)."""

    def __init__(self) -> None:
        self.version: int | None = None
        self.pending: Message | None = None
        self.stale = False

    def note(self, m: Message) -> None:
        SERVER_MESSAGE.validate_python(m)
        kind = m["type"]
        if self.pending is not None:
            assert kind == "state" and m["version"] == self.pending["version"], (self.pending, m)
        if kind == "events":
            if self.version is not None and not m["replay"]:
                assert m["version"] == self.version + 1, (self.version, m["version"])
            self.pending = m
        elif kind == "state":
            if self.pending is None:
                assert self.stale, "a state without its events, and no stale refusal before it"
                assert self.version is None or m["version"] >= self.version
            self.version = m["version"]
            self.pending = None
            self.stale = False
        elif kind == "error" and m["code"] == "stale":
            self.stale = True


class Peer:
    """A WebSocket of the test client: ``send`` a message, ``recv`` the next one (failing
    after a timeout instead of hanging), ``until`` a message that matches."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.seen: list[Message] = []
        self.view: dict[str, Any] | None = None
        self.version = -1
        self.room: Message | None = None
        self.status: str | None = None
        self.order = Order()
        self.closed: int | None = None

    def send(self, **message: Any) -> None:
        self.ws.send_text(json.dumps(message))

    def recv(self, timeout: float = 10.0) -> Message:
        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        raw = self.ws.portal.call(get)
        if raw["type"] == "websocket.close":
            self.closed = raw.get("code")
            message: Message = {"type": "_closed", "code": raw.get("code")}
        else:
            message = json.loads(raw["text"])
            self.order.note(message)
            self._note(message)
        self.seen.append(message)
        return message

    def _note(self, m: Message) -> None:
        if m["type"] == "room":
            self.room, self.status = m, m["status"]
        elif m["type"] == "state":
            self.view, self.version = m["view"], m["version"]

    def until(self, match: str | Callable[[Message], bool], timeout: float = 10.0) -> Message:
        """Read until a message of type ``match`` (or one ``match`` accepts)."""
        end = time.monotonic() + timeout
        while True:
            m = self.recv(max(0.01, end - time.monotonic()))
            if m["type"] == "_closed" and match != "_closed":
                raise AssertionError(f"the server closed the socket ({m['code']}) before {match}")
            if (m["type"] == match) if isinstance(match, str) else match(m):
                return m

    def error(self, code: str) -> Message:
        m = self.until("error")
        assert m["code"] == code, m
        return m

    def drain(self, quiet: float = 0.15) -> list[Message]:
        """Every message that comes until none has for ``quiet`` seconds."""
        out = []
        while True:
            try:
                out.append(self.recv(quiet))
            except TimeoutError:
                return out

    def my_turn(self) -> bool:
        v = self.view
        return (v is not None and v["seat"] is not None and v["turn"] == v["seat"]
                and v["awaiting"] not in ("round_over", "game_over") and bool(v["legal"]))


@contextmanager
def socket_to(client: TestClient, code: str, **headers: str) -> Iterator[Peer]:
    """A WebSocket to the room ``code`` that has not said ``hello`` yet."""
    with client.websocket_connect(f"/ws/{code}", headers=dict(headers)) as ws:
        yield Peer(ws)


@contextmanager
def peer(client: TestClient, code: str, token: str | None = None, **headers: str) -> Iterator[Peer]:
    """A WebSocket to the room ``code`` that said ``hello`` (with ``token``: at its seat; else
    as a spectator) and read the ``room`` message that answers it."""
    with socket_to(client, code, **headers) as p:
        p.send(type="hello", **({} if token is None else {"token": token}))
        p.until("room")
        yield p


def create(client: TestClient, name: str = "Ana", **body: Any) -> Message:
    """``POST /api/rooms`` (``bot_delay`` 0 unless given); returns ``{"code", "seat", "token"}``."""
    body.setdefault("bot_delay", 0)
    r = client.post("/api/rooms", json={"name": name, **body})
    assert r.status_code == 201, r.text
    made: Message = r.json()
    return made


def join(client: TestClient, code: str, name: str, **body: Any) -> Message:
    r = client.post(f"/api/rooms/{code}/join", json={"name": name, **body})
    assert r.status_code == 200, r.text
    joined: Message = r.json()
    return joined


def start(client: TestClient, code: str, token: str) -> None:
    r = client.post(f"/api/rooms/{code}/start", json={}, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text


# ---------------------------------------------------------------------- in process


class Collect(Client):
    """A client that keeps its messages as text (byte for byte what a socket would carry),
    each checked as a :class:`Peer` checks them."""

    def __init__(self, code: str | None = None) -> None:
        super().__init__(code)
        self.order = Order()
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.order.note(json.loads(text))
        self.sent.append(text)

    def messages(self) -> list[Message]:
        return [json.loads(t) for t in self.sent]

    def states(self) -> list[Message]:
        return [m for m in self.messages() if m["type"] == "state"]


async def request(rooms: Rooms, client: Client, **message: Any) -> Message | None:
    """Handle one message as the server would (parsed from its text); returns the error it
    answered, if any."""
    try:
        await handle(rooms, client, parse(json.dumps(message)))
    except ProtocolError as exc:
        return exc.to_message()
    return None


async def make_room(rooms: Rooms, name: str = "Ana", **body: Any) -> tuple[Room, str]:
    """A room made as ``POST /api/rooms`` makes it (``bot_delay`` 0 unless given)."""
    body.setdefault("bot_delay", 0)
    return await rooms.create(CreateRoom.model_validate({"name": name, **body}))


async def enter(rooms: Rooms, room: Room, token: str | None) -> Collect:
    """A client that said ``hello`` to ``room``."""
    c = Collect(room.code)
    assert await request(rooms, c, type="hello", **({} if token is None else {"token": token})) is None
    return c


async def settle(seconds: float = 0.05) -> None:
    """Let the rooms' drivers run a little."""
    await asyncio.sleep(seconds)


# ---------------------------------------------------------------------- a real server


def http_from(source: str) -> Any:
    """An HTTP client whose connections come from the address ``source`` (127.0.0.2, ...: a
    client of its own to the server's limits)."""
    import httpx

    return httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=20)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Served:
    """``unokit serve`` in a subprocess, its output in a file."""

    def __init__(self, tmp: Path, database: str, port: int, *extra: str, log_name: str = "serve.log") -> None:
        self.port = port
        self.log_path = tmp / log_name
        self._log = self.log_path.open("ab")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "unokit", "serve", "--port", str(port), "--database", database, *extra],
            stdout=self._log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        self.wait_ready()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise AssertionError(f"unokit serve exited: {self.log_path.read_text()}")
            try:
                with urllib.request.urlopen(self.base + "/api/health", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"unokit serve did not start: {self.log_path.read_text()}")

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            return json.loads(r.read())

    def post(self, path: str, body: dict[str, Any], token: str | None = None) -> tuple[int, Any]:
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        if token is not None:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self._log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._log.close()

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


# ---------------------------------------------------------------------- the helpers' own tests


def test_a_peer_times_out_instead_of_hanging() -> None:
    with app_client() as client:
        code = create(client)["code"]
        with peer(client, code) as p, pytest.raises(TimeoutError):
            p.until("chat_history")
            p.recv(0.2)


def test_the_order_check_refuses_what_the_protocol_forbids() -> None:
    order = Order()
    order.note({"type": "events", "version": 3, "replay": True, "events": []})
    with pytest.raises(AssertionError):  # an events message not followed by its state
        order.note({"type": "chat", "id": 1, "seat": 0, "name": "A", "text": "hi", "time": 1.0})
    order = Order()
    order.note({"type": "events", "version": 3, "replay": True, "events": []})
    order.note({"type": "state", "version": 3, "deadline": None, "view": _VIEW})
    with pytest.raises(AssertionError):  # a version skipped
        order.note({"type": "events", "version": 5, "replay": False, "events": []})
    with pytest.raises(AssertionError):  # a state alone, with no stale refusal before it
        Order().note({"type": "state", "version": 3, "deadline": None, "view": _VIEW})
    with pytest.raises(ValueError):  # a field the protocol does not have
        order.note({"type": "left", "reason": "left", "why": "?"})


def test_collect_keeps_the_text_it_is_sent() -> None:
    c = Collect()
    c.send('{"type":"left","reason":"left"}')
    assert c.messages() == [{"type": "left", "reason": "left"}]


_VIEW: Message = {
    "seat": None, "names": ["A", None], "hand": [], "hand_sizes": [7, 7], "top": "R7", "color": 0,
    "direction": 1, "turn": 0, "awaiting": "play", "legal": [], "draw_size": 93, "seen": {},
    "eliminated": [False, False], "scores": [0, 0], "target": 500, "round": 0, "dealer": 1,
    "edition": "classic", "players": 2, "teams": 0, "discard": ["R7"], "pending": 0, "attacker": None,
    "drawn": None, "owed": [False, False], "catchable": [], "idle_turns": 0, "round_winner": None,
    "winners": [], "options": {}, "sides": [0, 1], "order": [0, 1], "next": 1, "around": [1],
}
