"""Several ``unokit serve`` processes on one PostgreSQL database (``docs/deploy.md``): real
processes, a real database, real kills and a real cut of the network.

Each test makes its own database and drops it (``services.pg_url``); without PostgreSQL they
skip and say how to run them (``.ci/run`` requires them).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services import TcpProxy, pg_url, url_with_database
from test_server_support import ROOT, Served, free_port

pytest.importorskip("websockets")
pytest.importorskip("uvicorn")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

__all__ = ["pg_url"]  # the fixture, imported for the tests here

LOCAL = "http://localhost"
"""The base URL of the in-process test clients: a Host the server answers for."""
FAST = {"bot_delay": 0.02, "reaction": 0, "between_rounds": 0, "options": {"target": 100000}}


def _public(view: dict[str, Any]) -> Any:
    """What every seat sees alike in a state's view."""
    return {key: view[key] for key in ("turn", "top", "color", "direction", "hand_sizes", "draw_size",
                                       "discard", "scores", "round", "owed", "pending")}


class Player:
    """A seat's client: plays at random when asked, keeps every state it was sent."""

    def __init__(self, port: int, code: str, seat: int, token: str, seed: int, idle: bool = False) -> None:
        self.port, self.code, self.seat, self.token = port, code, seat, token
        self.idle = idle
        """Never act: only its room's turn timeout plays for it."""
        self.rng = random.Random(seed)
        self.states: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.arrivals: list[tuple[float, int]] = []
        """When each state came (``time.monotonic()``) and its version."""
        self.connects = 0

    async def play(self, stop: asyncio.Event, ports: list[int] | None = None) -> None:
        """Play until ``stop``, reconnecting (to ``ports`` in turn) when the connection drops."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        ports = ports or [self.port]
        while not stop.is_set():
            port = ports[self.connects % len(ports)]
            self.connects += 1
            try:
                async with connect(f"ws://127.0.0.1:{port}/ws/{self.code}", max_size=2**20,
                                   open_timeout=5) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    while not stop.is_set():
                        try:
                            m = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                        except TimeoutError:
                            continue
                        await self._on(ws, m)
            except (ConnectionClosed, OSError, TimeoutError):
                await asyncio.sleep(0.2)

    async def _on(self, ws: Any, m: dict[str, Any]) -> None:
        if m["type"] == "error":
            self.errors.append(m)
            return
        if m["type"] != "state":
            return
        self.states.append(m)
        self.arrivals.append((time.monotonic(), m["version"]))
        if self.idle:
            return
        view = m["view"]
        if view["awaiting"] == "round_over":
            await ws.send(json.dumps({"type": "ready"}))
        elif view["turn"] == self.seat and view["legal"] and view["awaiting"] != "game_over":
            await asyncio.sleep(self.rng.random() * 0.03)
            plays = [a for a in view["legal"] if not a.startswith("catch")] or view["legal"]
            act = {"type": "act", "action": self.rng.choice(plays), "version": m["version"]}
            await ws.send(json.dumps(act))

    def versions(self) -> list[int]:
        return [m["version"] for m in self.states if not m.get("replay")]


def _room(server: Served, other: Served,
          bots: list[str | None]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A room made on ``server``, its second seat taken on ``other``, started on ``server``."""
    status, made = server.post("/api/rooms", {"name": "Ana", "bots": bots, **FAST})
    assert status == 201, made
    status, joined = other.post(f"/api/rooms/{made['code']}/join", {"name": "Ben"})
    assert status == 200, joined
    assert server.post(f"/api/rooms/{made['code']}/start", {}, token=made["token"])[0] == 200
    return made["code"], made, joined


def _serve(tmp: Path, url: str, name: str, *extra: str) -> Served:
    return Served(tmp, url, free_port(), "--rate-limit", "0", "--dev", "--grace", "5", *extra,
                  log_name=f"{name}.log")


@contextlib.contextmanager
def _two_servers(tmp: Path, url: str) -> Iterator[tuple[Served, Served]]:
    """Two ``unokit serve`` processes on one database, stopped afterwards."""
    a = _serve(tmp, url, "a")
    try:
        b = _serve(tmp, url, "b")
        try:
            yield a, b
        finally:
            b.stop()
    finally:
        a.stop()


def _owner(servers: list[Served], code: str, timeout: float = 10.0) -> Served:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        owners = [s for s in servers if s.proc.poll() is None and s.get(f"/api/dev/rooms/{code}")["owned"]]
        if len(owners) == 1:
            return owners[0]
        time.sleep(0.1)
    raise AssertionError("no single process owns the room")


def test_workers_need_postgresql(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "unokit", "serve", "--workers", "2", "--port", "0",
                           "--database", f"sqlite:///{tmp_path / 'rooms.db'}"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode != 0
    assert "--workers 2 needs a PostgreSQL --database" in done.stderr
    assert "Traceback" not in done.stderr


def test_two_processes_serve_one_table_the_same_game_in_the_same_order(
        tmp_path: Path, pg_url: str) -> None:
    with _two_servers(tmp_path, pg_url) as (a, b):
        code, made, joined = _room(a, b, [None, "heuristic", "heuristic"])
        players = [Player(a.port, code, 0, made["token"], 1),
                   Player(b.port, code, joined["seat"], joined["token"], 2)]

        async def go() -> None:
            stop = asyncio.Event()
            tasks = [asyncio.create_task(p.play(stop)) for p in players]
            await asyncio.sleep(6)
            stop.set()
            await asyncio.gather(*tasks)

        asyncio.run(go())
        va, vb = players[0].versions(), players[1].versions()
        assert len(va) > 50 and len(vb) > 50
        # Each client saw every version, one at a time, in order (no gap; a version is sent
        # again, the same, only after a refusal as stale) ...
        for p, versions in zip(players, (va, vb), strict=True):
            assert all(y - x in (0, 1) for x, y in itertools.pairwise(versions)), versions
            repeats = sum(1 for x, y in itertools.pairwise(versions) if x == y)
            assert repeats <= sum(1 for e in p.errors if e["code"] == "stale")
            views: dict[int, Any] = {}
            for m in p.states:
                assert views.setdefault(m["version"], m["view"]) == m["view"]
        # ... and both saw the same game: what every seat sees alike is equal at every version.
        seen_a = {m["version"]: _public(m["view"]) for m in players[0].states}
        seen_b = {m["version"]: _public(m["view"]) for m in players[1].states}
        common = sorted(set(seen_a) & set(seen_b))
        assert len(common) > 50
        assert all(seen_a[v] == seen_b[v] for v in common)
        # Each process serves the room from the same record: the stored game is the one both saw.
        stored = a.get(f"/api/dev/rooms/{code}")
        assert stored["version"] == b.get(f"/api/dev/rooms/{code}")["version"] >= max(common)
        assert not [e for p in players for e in p.errors if e["code"] not in ("stale", "illegal")]


def test_the_owner_killed_another_process_takes_the_bots_within_5_seconds(
        tmp_path: Path, pg_url: str) -> None:
    with _two_servers(tmp_path, pg_url) as (a, b):
        code, made, joined = _room(a, b, [None, "heuristic", "heuristic"])
        owner = _owner([a, b], code)
        other = b if owner is a else a
        # Both people play on the process that stays; the bots are driven by the owner.
        players = [Player(other.port, code, 0, made["token"], 3),
                   Player(other.port, code, joined["seat"], joined["token"], 4)]
        killed_at: list[float] = []

        async def go() -> None:
            stop = asyncio.Event()
            tasks = [asyncio.create_task(p.play(stop)) for p in players]
            await asyncio.sleep(2)
            owner.kill()  # SIGKILL: its database connections close, its locks are released
            killed_at.append(time.monotonic())
            await asyncio.sleep(8)
            stop.set()
            await asyncio.gather(*tasks)

        asyncio.run(go())
        arrivals = sorted(a for p in players for a in p.arrivals)
        assert other.get(f"/api/dev/rooms/{code}")["owned"]
        at_kill = max(v for t, v in arrivals if t <= killed_at[0])
        resumed = [t - killed_at[0] for t, v in arrivals if t > killed_at[0] and v > at_kill + 3]
        assert resumed, "the table stopped after the owner died"
        assert resumed[0] < 5.0, resumed[0]
        assert max(v for _, v in arrivals) > at_kill + 30  # and it went on


def test_clients_behind_a_proxy_go_on_with_the_other_process_when_one_is_killed(
        tmp_path: Path, pg_url: str) -> None:
    with _two_servers(tmp_path, pg_url) as (a, b), \
            TcpProxy([("127.0.0.1", a.port), ("127.0.0.1", b.port)]) as proxy:
        front = Served.__new__(Served)
        front.port = proxy.port
        code, made, joined = _room(front, front, [None, "heuristic", "heuristic"])
        # A room whose person never acts: only its turn timeout plays for them.
        idle = front.post("/api/rooms", {"name": "Cy", "bots": ["heuristic"], "turn_timeout": 1, **FAST})[1]
        assert front.post(f"/api/rooms/{idle['code']}/start", {}, token=idle["token"])[0] == 200
        players = [Player(proxy.port, code, 0, made["token"], 5),
                   Player(proxy.port, code, joined["seat"], joined["token"], 6),
                   Player(proxy.port, idle["code"], 0, idle["token"], 7, idle=True)]
        before: list[int] = []

        async def go() -> None:
            stop = asyncio.Event()
            tasks = [asyncio.create_task(p.play(stop)) for p in players]
            await asyncio.sleep(2.5)
            before.extend(max(p.versions()) for p in players)
            a.kill()  # every client behind the proxy was on a: they reconnect, and reach b
            await asyncio.sleep(8)
            stop.set()
            await asyncio.gather(*tasks)

        asyncio.run(go())
        assert all(p.connects >= 2 for p in players)
        after = [max(p.versions()) for p in players]
        # Both tables went on: the bots, and the idle room's timer, moved to b.
        assert all(x > y + 5 for x, y in zip(after, before, strict=True)), (before, after)
        assert b.get(f"/api/dev/rooms/{code}")["owned"] and b.get(f"/api/dev/rooms/{idle['code']}")["owned"]


def test_a_database_cut_refuses_actions_clearly_and_service_resumes_by_itself(
        tmp_path: Path, pg_url: str) -> None:
    from websockets.sync.client import connect

    proxy = TcpProxy([("127.0.0.1", 5432)])
    database = pg_url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
    server = _serve(tmp_path, database, "cut")
    try:
        status, made = server.post("/api/rooms", {"name": "Ana", "bots": [None], "between_rounds": 0,
                                                  "options": {"target": 100000}})
        assert status == 201
        code = made["code"]
        status, joined = server.post(f"/api/rooms/{code}/join", {"name": "Ben"})
        assert server.post(f"/api/rooms/{code}/start", {}, token=made["token"])[0] == 200
        turn = server.get(f"/api/dev/rooms/{code}")["position"]["game"]["turn"]
        token = made["token"] if turn == 0 else joined["token"]  # two people: nobody acts but them
        with connect(f"ws://127.0.0.1:{server.port}/ws/{code}", max_size=2**20) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))

            def state() -> dict[str, Any]:
                while True:
                    m = json.loads(ws.recv(timeout=15))
                    if m["type"] in ("state", "error"):
                        return m

            m = state()
            assert m["view"]["turn"] == turn and m["view"]["legal"]
            version = m["version"]
            position = server.get(f"/api/dev/rooms/{code}")["position"]
            proxy.cut()
            ws.send(json.dumps({"type": "act", "action": m["view"]["legal"][0], "version": version}))
            refused = state()
            assert refused["type"] == "error" and refused["code"] == "server_error", refused
            assert "database" in refused["message"] or "save" in refused["message"]
            assert server.get("/healthz") == {"ok": True}  # the server stays up
            proxy.restore()
            # Nothing was half-applied: the stored game, and the server's, is where it was.
            end = time.monotonic() + 15
            while True:
                try:
                    dev = server.get(f"/api/dev/rooms/{code}")
                    break
                except OSError:
                    assert time.monotonic() < end
                    time.sleep(0.2)
            assert dev["version"] == version and dev["position"] == position
            # Service resumes by itself: the same action is taken now.
            ws.send(json.dumps({"type": "act", "action": m["view"]["legal"][0], "version": version}))
            while True:
                m2 = state()
                if m2["type"] == "state" and m2["version"] > version:
                    break
                assert m2["type"] != "error" or m2["code"] != "server_error", m2
        assert server.get(f"/api/dev/rooms/{code}")["version"] > version
    finally:
        proxy.close()
        server.stop()


def test_workers_serve_one_port_on_postgresql(tmp_path: Path, pg_url: str) -> None:
    server = Served(tmp_path, pg_url, free_port(), "--rate-limit", "0", "--workers", "2")
    try:
        servers: set[str] = set()
        end = time.monotonic() + 30
        while len(servers) < 2 and time.monotonic() < end:  # each new connection: any of the two
            servers.add(server.get("/api/health")["server"])
        status, made = server.post("/api/rooms", {"name": "Ana", "bots": ["heuristic"], **FAST})
        assert status == 201
        for _ in range(10):  # whichever process answers knows the room
            assert server.get(f"/api/rooms/{made['code']}")["code"] == made["code"]
        assert len(servers) == 2, servers
    finally:
        server.stop()


def test_url_with_database_names_another_database() -> None:
    assert url_with_database("postgresql://u@h:5/a", "b") == "postgresql://u@h:5/b"


def test_a_change_from_a_stale_copy_is_refused_and_writes_nothing(pg_url: str) -> None:
    from unokit.server.store import RoomConflict, RoomData, SeatData, Store

    one, two = Store(pg_url), Store(pg_url)  # two processes' stores
    try:
        seats = [SeatData(0, "human", "Ana", None, "0" * 64), SeatData(1, "open", None, None, None)]
        one.create_room(RoomData("ROOMCODE", "lobby", {"edition": "classic"}, 0, seats))
        rev = two.update_room("ROOMCODE", seats=[SeatData(1, "human", "Ben", None, "1" * 64)], rev=0)
        assert rev == 1
        with pytest.raises(RoomConflict):  # one's copy is at revision 0: behind
            one.update_room("ROOMCODE", seats=[SeatData(1, "human", "Cy", None, "2" * 64)], rev=0)
        stored = one.load_room("ROOMCODE")
        assert stored is not None and stored.rev == 1 and stored.seats[1].name == "Ben"
        with pytest.raises(RoomConflict):
            one.close_room("ROOMCODE", "empty", rev=0)
        assert one.room_status("ROOMCODE") == ("lobby", None)
        # Presence: what each process says it has, seen by the others only.
        one.set_presence("server-1", "ROOMCODE", {0: 2})
        two.set_presence("server-2", "ROOMCODE", {1: 1})
        assert one.present("ROOMCODE", "server-1") == frozenset({1})
        assert two.present("ROOMCODE", "server-2") == frozenset({0})
        one.set_presence("server-1", "ROOMCODE", {})
        assert two.present("ROOMCODE", "server-2") == frozenset()
    finally:
        one.close()
        two.close()


def test_a_process_dropped_for_a_silent_heartbeat_writes_its_presence_again(
        tmp_path: Path, pg_url: str) -> None:
    import psycopg
    from websockets.sync.client import connect

    server = _serve(tmp_path, pg_url, "a")
    try:
        status, made = server.post("/api/rooms", {"name": "Ana", "bots": ["heuristic"]})
        assert status == 201
        with connect(f"ws://127.0.0.1:{server.port}/ws/{made['code']}") as ws, \
                psycopg.connect(pg_url, autocommit=True) as db:
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            ws.recv(timeout=10)

            def presence() -> list[tuple[Any, ...]]:
                return db.execute("SELECT room_code, seat, connections FROM presence").fetchall()

            end = time.monotonic() + 10
            while not presence() and time.monotonic() < end:
                time.sleep(0.1)
            assert presence() == [(made["code"], 0, 1)]
            # What another process does to one whose heartbeat stopped for 5 s:
            db.execute("DELETE FROM servers")
            db.execute("DELETE FROM presence")
            end = time.monotonic() + 10
            while not presence() and time.monotonic() < end:
                time.sleep(0.1)
            assert presence() == [(made["code"], 0, 1)]  # written again at its next heartbeat
    finally:
        server.stop()


def test_an_action_from_a_stale_copy_is_refused_and_a_room_made_elsewhere_is_found(pg_url: str) -> None:
    from unokit import Game, Options
    from unokit.core.record import record_of
    from unokit.server.cluster import Cluster
    from unokit.server.rooms import Rooms, Settings
    from unokit.server.store import RoomConflict, RoomData, SeatData, Store

    one, two = Store(pg_url), Store(pg_url)
    try:
        game = Game.new("classic", 2, seed=3)
        seats = [SeatData(0, "human", "Ana", None, "0" * 64), SeatData(1, "bot", None, "heuristic", None)]
        settings = Settings("classic", 2, ["human", "heuristic"], Options(), 0.5, 0.0, "heuristic", 3)
        one.create_room(RoomData("ROOMCODE", "lobby", settings.to_json(), 0, seats))
        rev = one.start_game("ROOMCODE", game_no=0, record=record_of(game), position=game.to_dict(),
                             version=game.version, version_base=0, status="playing", seats=seats, rev=0)
        common = {"game_no": 0, "round_index": 0, "idx": 0, "position": None, "version": game.version + 1,
                  "status": "playing"}
        assert two.append_action("ROOMCODE", line="0 draw", rev=rev, **common) == rev + 1
        with pytest.raises(RoomConflict):  # one's copy is still at rev: behind
            one.append_action("ROOMCODE", line="1 draw", rev=rev, **common)
        stored = one.load_room("ROOMCODE")
        assert stored is not None and stored.record is not None
        assert stored.record["rounds"][0]["actions"] == ["0 draw"] and stored.rev == rev + 1
        # A process that has not heard of a room yet reads it from the database when asked.
        rooms = Rooms(two, cluster=Cluster(pg_url))
        assert "ROOMCODE" not in rooms.rooms
        assert rooms.get("roomcode").code == "ROOMCODE"
    finally:
        one.close()
        two.close()


def test_a_seat_taken_or_a_start_made_on_a_copy_gone_stale_is_made_again_on_the_room_as_it_is(
        pg_url: str) -> None:
    """Two processes that have not heard of each other's changes yet (their notifications
    are not followed here: no lifespan, so every change meets a stale copy): a join and a
    start refused as stale are made again on the room read afresh, not refused."""
    from fastapi.testclient import TestClient

    from unokit.server.app import create_app
    from unokit.server.store import Store

    one, two = Store(pg_url), Store(pg_url)
    try:
        a, b = TestClient(create_app(one), base_url=LOCAL), TestClient(create_app(two), base_url=LOCAL)
        made = a.post("/api/rooms", json={"name": "Ana", "bots": [None, None, "heuristic"]}).json()
        code = made["code"]
        assert b.post(f"/api/rooms/{code}/join", json={"name": "Ben"}).json()["seat"] == 1
        # a still holds seat 1 as open: its write is refused, and made again at seat 2.
        cy = a.post(f"/api/rooms/{code}/join", json={"name": "Cy"})
        assert cy.status_code == 200, cy.text
        assert cy.json()["seat"] == 2
        # b has not heard of Cy: the host's start there is made on the room as it is.
        started = b.post(f"/api/rooms/{code}/start", json={},
                         headers={"Authorization": f"Bearer {made['token']}"})
        assert started.status_code == 200, started.text
        stored = one.load_room(code)
        assert stored is not None and stored.status == "playing"
        assert [(s.kind, s.name) for s in stored.seats] == [
            ("human", "Ana"), ("human", "Ben"), ("human", "Cy"), ("bot", None)]
    finally:
        one.close()
        two.close()


def test_a_room_made_by_another_process_is_summarized_by_any_process(pg_url: str) -> None:
    from fastapi.testclient import TestClient

    from unokit import Options
    from unokit.server.app import create_app
    from unokit.server.rooms import Settings
    from unokit.server.store import RoomData, SeatData, Store

    one, two, three = Store(pg_url), Store(pg_url), Store(pg_url)
    try:
        seats = [SeatData(0, "human", "Ana", None, "0" * 64), SeatData(1, "bot", None, "heuristic", None)]
        settings = Settings("classic", 2, ["human", "heuristic"], Options(), 0.5, 0.0, "heuristic", 3)
        one.create_room(RoomData("ROOMCODE", "lobby", settings.to_json(), 0, seats))
        app = create_app(two)  # another process, which has not heard of the room (no notification)
        assert "ROOMCODE" not in app.state.rooms.rooms
        response = TestClient(app, base_url=LOCAL).get("/api/rooms/roomcode")
        assert response.status_code == 200, response.text
        assert response.json()["code"] == "ROOMCODE" and response.json()["status"] == "lobby"
        one.close_room("ROOMCODE", "empty", rev=0)
        closed = TestClient(create_app(three), base_url=LOCAL).get("/api/rooms/ROOMCODE")
        assert closed.json() == {"code": "ROOMCODE", "status": "closed", "closed_reason": "empty"}
    finally:
        one.close()
        two.close()
        three.close()


def test_a_person_connected_to_another_process_is_waited_for_not_played_for(
        tmp_path: Path, pg_url: str) -> None:
    from websockets.sync.client import connect

    with _two_servers(tmp_path, pg_url) as (a, b):
        status, made = a.post("/api/rooms", {"name": "Ana", "bots": ["heuristic"], "bot_delay": 0.02,
                                             "between_rounds": 0, "options": {"target": 100000}})
        assert status == 201
        code = made["code"]
        with connect(f"ws://127.0.0.1:{b.port}/ws/{code}", max_size=2**20) as ws:  # Ana is on b only
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            end = time.monotonic() + 10
            while not a.get(f"/api/rooms/{code}")["seats"][0]["connected"]:
                assert time.monotonic() < end, "the owner never learnt that Ana is connected"
                time.sleep(0.1)
            assert a.post(f"/api/rooms/{code}/start", {}, token=made["token"])[0] == 200
            assert _owner([a, b], code) is a  # it made the room: it drives it
            time.sleep(1)  # the bot plays until it is Ana's turn; then the table waits for her
            waiting = a.get(f"/api/dev/rooms/{code}")
            assert waiting["position"]["game"]["turn"] == 0
            time.sleep(7)  # past the 5 s of grace (--grace 5) that a disconnected person gets
            assert a.get(f"/api/dev/rooms/{code}")["version"] == waiting["version"]
            assert a.get(f"/api/rooms/{code}")["seats"][0]["connected"]
