"""Faults, with real ``unokit serve`` processes: SIGKILL in the middle of rounds under load (no
acknowledged action lost), and a client that stops reading (it is dropped, the table goes on,
and it may reconnect)."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import random
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from services import pg_url
from test_server_support import Served, free_port
from unokit.server.store import database_url

pytest.importorskip("websockets")
pytest.importorskip("uvicorn")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

__all__ = ["pg_url"]  # the fixture, imported for the tests here


# ---------------------------------------------------------------------- SIGKILL under load


class Seat:
    def __init__(self, code: str, seat: int, token: str) -> None:
        self.code, self.seat, self.token = code, seat, token
        self.last: dict[str, Any] | None = None
        """The last state received: the last change acknowledged to this client."""
        self.pending: dict[str, Any] | None = None
        """What it sent and has not seen answered (the act or ready, with the version it saw)."""


async def _play(port: int, seat: Seat, stop: asyncio.Event, rng: random.Random) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    try:
        async with connect(f"ws://127.0.0.1:{port}/ws/{seat.code}", max_size=2**20) as ws:
            await ws.send(json.dumps({"type": "hello", "token": seat.token}))
            while not stop.is_set():
                m = json.loads(await ws.recv())
                if m["type"] == "error":
                    seat.pending = None
                if m["type"] != "state":
                    continue
                seat.last = m
                if seat.pending is not None and seat.pending["version"] < m["version"]:
                    seat.pending = None
                view = m["view"]
                if view["awaiting"] == "round_over":
                    seat.pending = {"type": "ready", "version": m["version"]}
                    await ws.send(json.dumps({"type": "ready"}))
                elif view["turn"] == seat.seat and view["legal"] and view["awaiting"] != "game_over":
                    plays = [a for a in view["legal"] if not a.startswith("catch")] or view["legal"]
                    act = {"type": "act", "action": rng.choice(plays), "version": m["version"]}
                    seat.pending = act
                    await ws.send(json.dumps(act))
    except (ConnectionClosed, OSError):
        pass


def test_a_server_killed_under_load_keeps_every_acknowledged_action(tmp_path: Path) -> None:
    _killed_under_load(tmp_path, database_url(tmp_path / "rooms.db"))


def test_a_server_on_postgresql_killed_under_load_keeps_every_acknowledged_action(
        tmp_path: Path, pg_url: str) -> None:
    _killed_under_load(tmp_path, pg_url)


def _killed_under_load(tmp_path: Path, database: str) -> None:
    port = free_port()
    server = Served(tmp_path, database, port, "--rate-limit", "0")
    seats: list[Seat] = []
    try:
        for _ in range(8):
            status, made = server.post("/api/rooms", {"name": "A", "bots": [None], "bot_delay": 0,
                                                      "between_rounds": 0, "options": {"target": 100000}})
            assert status == 201
            status, bo = server.post(f"/api/rooms/{made['code']}/join", {"name": "B"})
            seats += [Seat(made["code"], 0, made["token"]), Seat(made["code"], 1, bo["token"])]
            assert server.post(f"/api/rooms/{made['code']}/start", {}, token=made["token"])[0] == 200

        async def load() -> None:
            stop = asyncio.Event()
            rng = random.Random(5)
            tasks = [asyncio.create_task(_play(port, s, stop, random.Random(rng.random()))) for s in seats]
            await asyncio.sleep(2.5)  # every room in the middle of a round, acts in flight
            server.proc.kill()  # SIGKILL, at once (the clients keep what they saw)
            await asyncio.wait(tasks, timeout=10)
            stop.set()

        asyncio.run(load())
        server.proc.wait(10)
        assert all(s.last is not None for s in seats)
        assert sum(s.last["version"] for s in seats if s.last) > 8 * 20  # under load: many changes
        server.stop()
        server = Served(tmp_path, database, port, "--rate-limit", "0", "--dev", log_name="serve2.log")
        from websockets.sync.client import connect

        for code in sorted({s.code for s in seats}):
            mine = [s for s in seats if s.code == code]
            restored = server.get(f"/api/dev/rooms/{code}")["version"]
            acked = max(s.last["version"] for s in mine if s.last)
            # Nothing acknowledged is lost; at most the one change in flight was stored, and
            # only one that a client did send.
            assert acked <= restored <= acked + 1, (code, acked, restored)
            if restored == acked + 1:
                assert any(s.pending is not None and s.pending["version"] == acked for s in mine), code
            for s in mine:
                with connect(f"ws://127.0.0.1:{port}/ws/{code}", max_size=2**20) as ws:
                    ws.send(json.dumps({"type": "hello", "token": s.token}))
                    while (m := json.loads(ws.recv(timeout=10)))["type"] != "state":
                        pass
                    assert m["version"] == restored
                    assert s.last is not None
                    if s.last["version"] == restored:  # the client's last state is the restored one
                        assert m["view"] == s.last["view"], code
    finally:
        server.stop()


# ---------------------------------------------------------------------- a slow consumer


def _raw_websocket(port: int, path: str) -> socket.socket:
    """A WebSocket opened by hand on a socket with a tiny receive buffer, so that a client that
    stops reading fills up at once."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _frame(text: str) -> bytes:
    data = text.encode()
    mask = os.urandom(4)
    assert len(data) < 126
    return bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_a_client_that_stops_reading_is_dropped_and_the_table_goes_on(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    port = free_port()
    server = Served(tmp_path, database_url(tmp_path / "rooms.db"), port, "--rate-limit", "0")
    try:
        status, made = server.post("/api/rooms", {
            "name": "Host", "bots": ["heuristic", "heuristic", "heuristic"], "bot_delay": 0,
            "between_rounds": 0, "turn_timeout": 1, "reaction": 0, "options": {"target": 100000}})
        assert status == 201
        code = made["code"]
        arrivals: list[tuple[float, int]] = []
        done = threading.Event()

        def host() -> None:  # reads all, never acts: a bot plays for it after turn_timeout (reaction 0)
            with connect(f"ws://127.0.0.1:{port}/ws/{code}", max_size=2**20) as ws:
                ws.send(json.dumps({"type": "hello", "token": made["token"]}))
                while not done.is_set():
                    try:
                        m = json.loads(ws.recv(timeout=0.5))
                    except TimeoutError:
                        continue
                    if m["type"] == "state":
                        arrivals.append((time.monotonic(), m["version"]))

        reader = threading.Thread(target=host, daemon=True)
        reader.start()
        slow = _raw_websocket(port, f"/ws/{code}")
        slow.sendall(_frame('{"type":"hello"}'))  # a spectator, who never reads again
        time.sleep(0.3)
        assert server.post(f"/api/rooms/{code}/start", {}, token=made["token"])[0] == 200
        end = time.monotonic() + 90
        while "dropping a connection" not in server.log() and time.monotonic() < end:
            time.sleep(0.2)
        assert "dropping a connection" in server.log()
        dropped_at = time.monotonic()
        time.sleep(2.0)
        # The table never waited on the slow one: the host got states all along.
        assert arrivals and arrivals[-1][1] > 500
        started = [t for t, _ in arrivals if t > arrivals[0][0] + 2.0]  # after the first turn_timeout
        gaps = [b - a for a, b in itertools.pairwise(started)]
        assert gaps and max(gaps) < 1.5, max(gaps)
        assert any(t > dropped_at for t in started)  # and it goes on after the drop
        # The slow one's socket was closed by the server: reading it ends.
        slow.settimeout(15)
        total = 0
        try:
            while chunk := slow.recv(65536):
                total += len(chunk)
        except (ConnectionResetError, TimeoutError) as exc:
            assert not isinstance(exc, TimeoutError), "the dropped socket was not closed"
        slow.close()
        # It may reconnect: it is sent the match again.
        with connect(f"ws://127.0.0.1:{port}/ws/{code}", max_size=2**20) as ws:
            ws.send(json.dumps({"type": "hello"}))
            while (m := json.loads(ws.recv(timeout=10)))["type"] != "state":
                pass
            assert m["version"] > 500
        done.set()
        reader.join(5)
        assert server.get("/healthz") == {"ok": True}
    finally:
        server.stop()
