"""The limits against one visitor who means harm, with real ``unokit serve`` processes: each
client is a loopback source address of its own (127.0.0.2, 127.0.0.3, ...), so that the server
sees distinct addresses. Waits are bounded generously and no timing is asserted tightly: the
machine is shared."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from services import pg_url
from test_server_support import Served, free_port, http_from
from unokit.server.limits import key_of
from unokit.server.store import database_url

websockets = pytest.importorskip("websockets")
pytest.importorskip("httpx")

from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

Message = dict[str, Any]
__all__ = ["pg_url"]  # the fixture, imported for the tests here


def addr(n: int) -> str:
    """The ``n``-th client's loopback address (127.0.0.2 is the first)."""
    return f"127.0.0.{n + 1}"


@contextlib.contextmanager
def serving(tmp: Path, *flags: str) -> Iterator[Served]:
    server = Served(tmp, database_url(tmp / "rooms.db"), free_port(), *flags)
    try:
        yield server
    finally:
        server.stop()


def post(server: Served, source: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    with http_from(source) as client:
        return client.post(server.base + path, json=body, headers=headers)


def make(server: Served, source: str, **body: Any) -> Message:
    reply = post(server, source, "/api/rooms", {"name": "Ana", **body})
    assert reply.status_code == 201, reply.text
    made: Message = reply.json()
    return made


async def ws(server: Served, source: str, code: str) -> ClientConnection:
    return await connect(f"ws://127.0.0.1:{server.port}/ws/{code}", local_addr=(source, 0),
                         open_timeout=30, max_size=2**20)


async def recv(conn: ClientConnection, timeout: float = 20.0) -> Message:
    message: Message = json.loads(await asyncio.wait_for(conn.recv(), timeout))
    return message


async def until(conn: ClientConnection, kind: str, timeout: float = 20.0) -> Message:
    end = time.monotonic() + timeout
    while True:
        message = await recv(conn, max(0.01, end - time.monotonic()))
        if message["type"] == kind or (kind == "rate_limited" and message.get("code") == kind):
            return message


async def hello(server: Served, source: str, code: str, token: str | None = None) -> tuple[ClientConnection,
                                                                                           Message]:
    """A connection that said hello: its first answer (``room``, or the error that refused it)."""
    conn = await ws(server, source, code)
    with contextlib.suppress(ConnectionClosed):
        await conn.send(json.dumps({"type": "hello", "token": token}))
    try:
        return conn, await recv(conn)
    except ConnectionClosed:
        return conn, {"type": "closed"}


async def closed(conn: ClientConnection, timeout: float = 30.0) -> int | None:
    """Read until the server closes ``conn``; its close code."""
    with contextlib.suppress(ConnectionClosed):
        async with asyncio.timeout(timeout):
            while True:
                await conn.recv()
    return conn.close_code


@contextlib.asynccontextmanager
async def closing(conns: list[ClientConnection]) -> AsyncIterator[list[ClientConnection]]:
    try:
        yield conns
    finally:
        await asyncio.gather(*(c.close() for c in conns), return_exceptions=True)


def refused(message: Message) -> bool:
    return message.get("type") == "error" and message.get("code") == "rate_limited"


# ---------------------------------------------------------------------- rooms per address


def test_open_rooms_are_counted_per_address_in_the_database(tmp_path: Path) -> None:
    with serving(tmp_path, "--rooms-per-address", "3") as server:
        for _ in range(3):
            make(server, addr(1))
        again = post(server, addr(1), "/api/rooms", {"name": "Ana"})
        assert again.status_code == 429 and again.json()["code"] == "rate_limited"
        make(server, addr(2))  # another address is not held up
    with serving(tmp_path, "--rooms-per-address", "3") as server:  # a process that made none of them
        assert post(server, addr(1), "/api/rooms", {"name": "Ana"}).status_code == 429
        make(server, addr(2))
    with sqlite3.connect(tmp_path / "rooms.db") as db:
        assert dict(db.execute("SELECT creator, count(*) FROM rooms GROUP BY creator").fetchall()) == {
            addr(1): 3, addr(2): 2}


def test_open_rooms_per_address_are_counted_over_every_process(tmp_path: Path, pg_url: str) -> None:
    a = Served(tmp_path, pg_url, free_port(), "--rooms-per-address", "2")
    try:
        b = Served(tmp_path, pg_url, free_port(), "--rooms-per-address", "2", log_name="b.log")
        try:
            make(a, addr(1))
            make(b, addr(1))
            for server in (a, b):
                assert post(server, addr(1), "/api/rooms", {"name": "Ana"}).status_code == 429
            make(a, addr(2))
        finally:
            b.stop()
    finally:
        a.stop()


def test_a_room_nobody_joined_closes_and_frees_its_makers_count(tmp_path: Path) -> None:
    with serving(tmp_path, "--rooms-per-address", "2", "--unjoined-minutes", "0.05") as server:
        lonely = make(server, addr(1))
        kept = make(server, addr(1))

        async def keep_one() -> None:
            conn, first = await hello(server, addr(1), kept["code"], kept["token"])
            assert first["type"] == "room"
            async with closing([conn]):
                end = time.monotonic() + 60
                while server.get(f"/api/rooms/{lonely['code']}").get("status") != "closed":
                    assert time.monotonic() < end, "the room nobody joined stayed open"
                    await asyncio.sleep(0.5)
                await asyncio.sleep(4)  # past the time the joined room would have closed
                assert server.get(f"/api/rooms/{kept['code']}")["status"] == "lobby"

        asyncio.run(keep_one())
        made = make(server, addr(1))  # the closed room no longer counts
        assert post(server, addr(1), "/api/rooms", {"name": "Ana"}).status_code == 429
        assert made["code"] not in (lonely["code"], kept["code"])


# ---------------------------------------------------------------------- WebSockets


def test_two_hundred_sockets_from_one_address_get_sixty(tmp_path: Path) -> None:
    with serving(tmp_path, "--sockets-per-room", "0", "--spectators-per-room", "0") as server:
        code = make(server, addr(1))["code"]

        async def flood() -> None:
            answers = []
            async with closing([]) as conns:
                for _ in range(200):
                    conn, first = await hello(server, addr(3), code)
                    conns.append(conn)
                    answers.append(first)
                admitted = [a for a in answers if a["type"] == "room"]
                assert len(admitted) == 60
                assert all(refused(a) for a in answers if a["type"] != "room")
                other, first = await hello(server, addr(4), code)  # another address is let in
                conns.append(other)
                assert first["type"] == "room"
                first_ones = [c for c, a in zip(conns, answers, strict=False) if a["type"] == "room"][:10]
                await asyncio.gather(*(c.close() for c in first_ones))
                await asyncio.sleep(1)
                again = [await hello(server, addr(3), code) for _ in range(11)]
                conns.extend(c for c, _ in again)
                assert [a["type"] for _, a in again].count("room") == 10

        asyncio.run(flood())


def test_a_room_holds_forty_connections_and_twenty_spectators(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        made = make(server, addr(1))

        async def crowd() -> None:
            async with closing([]) as conns:
                watchers = []
                for i in range(25):
                    conn, first = await hello(server, addr(10 + i % 5), made["code"])
                    conns.append(conn)
                    watchers.append(first)
                assert [a["type"] for a in watchers].count("room") == 20
                assert all(refused(a) for a in watchers[20:])
                tabs = []
                for i in range(21):
                    conn, first = await hello(server, addr(20 + i % 3), made["code"], made["token"])
                    conns.append(conn)
                    tabs.append(first)
                assert [a["type"] for a in tabs].count("room") == 20  # 20 spectators + 20 = 40
                assert refused(tabs[-1])

        asyncio.run(crowd())


def test_an_ipv6_address_is_counted_by_its_64_network() -> None:
    assert key_of("2001:db8:0:1::5") == key_of("2001:db8:0:1:ffff::9") == "2001:db8:0:1::/64"
    assert key_of("2001:db8:0:2::5") != key_of("2001:db8:0:1::5")
    assert key_of("127.0.0.2") != key_of("127.0.0.3")


# ---------------------------------------------------------------------- chat


async def _chat_burst(conns: list[ClientConnection], lines: int) -> tuple[int, int, float]:
    """Send ``lines`` chat lines over ``conns`` at once; (accepted, refused, seconds it took)."""
    started = time.monotonic()
    for i in range(lines):
        await conns[i % len(conns)].send(json.dumps({"type": "chat", "text": f"line {i}"}))
    refused_lines = 0
    last = started
    watcher = conns[0]
    seen: set[str] = set()
    for conn in conns:  # every line is answered: a refusal to its sender, or the line to everyone
        with contextlib.suppress(TimeoutError):
            while True:
                message = await recv(conn, 3.0)
                if refused(message):
                    refused_lines += 1
                elif message["type"] == "chat" and conn is watcher:
                    seen.add(message["text"])
                else:
                    continue
                last = max(last, time.monotonic())
    return len(seen), refused_lines, last - started  # the server took at most that long


def test_one_seats_chat_over_many_connections_is_limited_as_one(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        made = make(server, addr(1), bots=[None, None])

        async def talk() -> None:
            async with closing([]) as conns:
                for i in range(4):
                    conn, first = await hello(server, addr(2 + i), made["code"], made["token"])
                    assert first["type"] == "room"
                    conns.append(conn)
                accepted, refusals, took = await _chat_burst(conns, 12)
                assert accepted + refusals == 12
                assert 1 <= accepted <= 5 * (int(took) + 1)

        asyncio.run(talk())


def test_an_address_chats_at_most_ten_lines_a_second(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        made = make(server, addr(1), bots=[None, None])
        tokens = [made["token"]]
        for name in ("Bo", "Cy"):
            joined = post(server, addr(1), f"/api/rooms/{made['code']}/join", {"name": name})
            tokens.append(joined.json()["token"])

        async def talk() -> None:
            async with closing([]) as conns:
                for token in tokens:
                    conn, first = await hello(server, addr(1), made["code"], token)
                    assert first["type"] == "room"
                    conns.append(conn)
                accepted, refusals, took = await _chat_burst(conns, 15)  # 5 a seat: the seats allow 15
                assert accepted + refusals == 15
                assert 1 <= accepted <= 10 * (int(took) + 1)

        asyncio.run(talk())


def test_a_room_keeps_its_last_two_hundred_chat_lines(tmp_path: Path) -> None:
    with serving(tmp_path, "--chat-per-seat", "0", "--chat-per-address", "0") as server:
        made = make(server, addr(1), bots=[None])

        async def talk() -> list[str]:
            seen: list[str] = []
            async with closing([]) as conns:
                for i in range(15):
                    conn, _ = await hello(server, addr(2 + i), made["code"], made["token"])
                    conns.append(conn)
                for i in range(240):  # 16 a connection: under its 20 messages a second
                    await conns[i % 15].send(json.dumps({"type": "chat", "text": f"line {i}"}))
                while len(seen) < 240:  # in the order they were stored
                    message = await recv(conns[0], 60)
                    if message["type"] == "chat":
                        seen.append(message["text"])
            return seen

        seen = asyncio.run(talk())
        with sqlite3.connect(tmp_path / "rooms.db") as db:
            kept = [t for (t,) in db.execute("SELECT text FROM chat WHERE room_code = ? ORDER BY id",
                                             (made["code"],))]
        assert len(set(seen)) == 240 and kept == seen[-200:]
        history = asyncio.run(_history(server, made["code"]))
        assert [m["text"] for m in history] == seen[-100:]


async def _history(server: Served, code: str) -> list[Message]:
    conn, _ = await hello(server, addr(30), code)
    async with closing([conn]):
        messages: list[Message] = (await until(conn, "chat_history"))["messages"]
        return messages


# ---------------------------------------------------------------------- presence


def test_a_hundred_spectators_coming_send_a_player_few_room_messages(tmp_path: Path) -> None:
    with serving(tmp_path, "--spectators-per-room", "0", "--sockets-per-room", "0") as server:
        made = make(server, addr(1))

        async def watch() -> None:
            player, first = await hello(server, addr(1), made["code"], made["token"])
            assert first["type"] == "room"
            async with closing([player]) as conns:
                started = time.monotonic()
                for i in range(100):
                    conns.append((await hello(server, addr(2 + i % 40), made["code"]))[0])
                joined = time.monotonic() - started
                rooms = []
                end = time.monotonic() + 30
                while not rooms or rooms[-1]["spectators"] < 100:
                    message = await recv(player, max(0.01, end - time.monotonic()))
                    if message["type"] == "room":
                        rooms.append(message)
                took = time.monotonic() - started
                assert len(rooms) <= took + 2 < 100, (len(rooms), joined, took)

        asyncio.run(watch())


# ---------------------------------------------------------------------- pings, silence, slowness


def test_a_ping_flood_is_closed_and_does_not_slow_another_client(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        code = make(server, addr(1))["code"]

        async def flood() -> tuple[list[int | None], int]:
            codes = []
            end = time.monotonic() + 4
            while time.monotonic() < end:
                conn, _ = await hello(server, addr(2), code)
                for _ in range(200):
                    if conn.transport.is_closing():
                        break
                    conn.transport.write(b"\x89\x80\x00\x00\x00\x00")  # a masked ping, no payload
                    await asyncio.sleep(0)
                codes.append(await closed(conn, 10))
            return codes, len(codes)

        async def measure() -> list[float]:
            times = []
            conn, _ = await hello(server, addr(3), code)
            async with closing([conn]):
                for _ in range(8):
                    started = time.monotonic()
                    await asyncio.wait_for(await conn.ping(), 30)  # a calm client: 2 pings a second
                    times.append(time.monotonic() - started)
                    await asyncio.sleep(0.5)
                assert conn.close_code is None
            return times

        async def both() -> None:
            (codes, floods), times = await asyncio.gather(flood(), measure())
            assert floods >= 1 and None not in codes  # each flood was cut off
            assert codes.count(1008) >= floods / 2, codes  # said so (unless a reset came first)
            assert max(times) < 3.0, times

        asyncio.run(both())


def test_a_silent_websocket_and_a_silent_connection_are_closed(tmp_path: Path) -> None:
    with serving(tmp_path, "--hello-timeout", "1", "--header-timeout", "1") as server:
        code = make(server, addr(1))["code"]

        async def silent() -> None:
            quiet = await ws(server, addr(2), code)
            chatty = await ws(server, addr(3), code)  # messages that are not hello do not count
            greeted, first = await hello(server, addr(4), code)
            assert first["type"] == "room"
            async with closing([quiet, chatty, greeted]):
                await chatty.send(json.dumps({"type": "chat", "text": "hi"}))
                assert await closed(quiet) == 1008
                assert await closed(chatty) == 1008
                await asyncio.sleep(1.5)
                assert greeted.close_code is None

        asyncio.run(silent())
        with socket.create_connection(("127.0.0.1", server.port), source_address=(addr(5), 0)) as raw:
            raw.settimeout(30)
            assert raw.recv(100) == b""  # nothing sent: closed after the header timeout


def _until_closed(raw: socket.socket, drip: bytes, every: float, limit: float) -> float:
    """Send ``drip`` a byte at a time, every ``every`` seconds, until the server closes the
    connection (or ``limit`` seconds pass); how long it took."""
    started = time.monotonic()
    for byte in drip:
        try:
            raw.send(bytes([byte]))
            raw.settimeout(every)
            if raw.recv(4096) == b"":
                break
        except TimeoutError:
            continue
        except OSError:
            break
        if time.monotonic() - started > limit:
            break
    return time.monotonic() - started


def test_a_slow_http_request_is_cut_off(tmp_path: Path) -> None:
    with serving(tmp_path, "--header-timeout", "1", "--body-timeout", "2") as server:
        headers = b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" * 3
        with socket.create_connection(("127.0.0.1", server.port), source_address=(addr(2), 0)) as raw:
            took = _until_closed(raw, headers, 0.2, 60)
        assert took < 60 * 0.2 * 0.5  # cut off long before the headers ended
        body = b'{"name": "Ana", "bots": [null]}'
        start = (b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n" % (len(body) * 4))
        with socket.create_connection(("127.0.0.1", server.port), source_address=(addr(3), 0)) as raw:
            raw.send(start)
            took = _until_closed(raw, body * 4, 0.5, 120)
        assert took < len(body) * 4 * 0.5 * 0.5  # cut off long before the body ended
        assert make(server, addr(4))["seat"] == 0  # a whole request is served


# ---------------------------------------------------------------------- acts


def _legal_act(state: Message, seat: int) -> str | None:
    """An action for ``seat`` on its turn in the ``state`` message (a play if it has one)."""
    view = state["view"]
    if view["turn"] != seat or not view["legal"]:
        return None
    plays = [a for a in view["legal"] if a.startswith("play")]
    return str((plays or view["legal"])[0])


def test_a_quick_player_against_quick_bots_is_never_a_flood(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        made = make(server, addr(1), bots=["heuristic"], bot_delay=0, between_rounds=0,
                     options={"target": 100000})

        async def play() -> None:
            conn, _ = await hello(server, addr(1), made["code"], made["token"])
            async with closing([conn]):
                assert post(server, addr(1), f"/api/rooms/{made['code']}/start", {},
                            made["token"]).status_code == 200
                applied = 0
                times: list[float] = []
                end = time.monotonic() + 120
                while applied < 150 and time.monotonic() < end:
                    message = await recv(conn, 30)
                    assert message["type"] != "error" or message["code"] == "stale", message
                    if message["type"] == "state" and (action := _legal_act(message, 0)) is not None:
                        await conn.send(json.dumps({"type": "act", "action": action,
                                                    "version": message["version"]}))
                        applied += 1
                        times.append(time.monotonic())
                assert applied >= 150 and conn.close_code is None
                peak = max(sum(1 for u in times if t <= u < t + 1) for t in times)
                assert peak > 20, peak  # past the 20 messages a second of a flood

        asyncio.run(play())


def test_refused_and_stale_actions_are_a_flood_past_five_a_second(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        made = make(server, addr(1), bots=["heuristic"], bot_delay=10)

        async def spam(act: dict[str, Any]) -> Message:
            conn, _ = await hello(server, addr(1), made["code"], made["token"])
            async with closing([conn]):
                for _ in range(12):
                    with contextlib.suppress(ConnectionClosed):
                        await conn.send(json.dumps({"type": "act", **act}))
                codes = []
                with contextlib.suppress(ConnectionClosed, TimeoutError):
                    while True:
                        message = await recv(conn, 10)
                        if message["type"] == "error":
                            codes.append(message["code"])
                assert conn.close_code == 1008
                return {"codes": codes}

        assert post(server, addr(1), f"/api/rooms/{made['code']}/start", {}, made["token"]).status_code == 200
        stale = asyncio.run(spam({"action": "draw", "version": 999}))["codes"]
        assert stale[-1] == "rate_limited" and stale.count("stale") <= 6
        wrong = asyncio.run(spam({"action": "play nonsense", "version": 0}))["codes"]
        assert wrong[-1] == "rate_limited" and len(wrong) <= 7


# ---------------------------------------------------------------------- a family


def test_a_family_behind_one_router_fits_under_every_default(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        home = addr(1)
        made = make(server, home, bots=[None] * 9, bot_delay=0.05, between_rounds=0)
        tokens = [made["token"]]
        for i in range(9):
            joined = post(server, home, f"/api/rooms/{made['code']}/join", {"name": f"Kid {i}"})
            assert joined.status_code == 200, joined.text
            tokens.append(joined.json()["token"])
        second = make(server, home, bots=[None])  # a second table at home

        async def evening() -> None:
            async with closing([]) as conns:
                for token in tokens * 2:  # every phone, then every phone reloading its page
                    conn, first = await hello(server, home, made["code"], token)
                    assert first["type"] == "room", first
                    conns.append(conn)
                await asyncio.gather(*(c.close() for c in conns[:10]))
                phones = conns[10:]
                for _ in range(4):
                    conn, first = await hello(server, home, made["code"])
                    assert first["type"] == "room", first
                    conns.append(conn)
                conn, first = await hello(server, home, second["code"], second["token"])
                assert first["type"] == "room", first
                conns.append(conn)
                assert post(server, home, f"/api/rooms/{made['code']}/start", {},
                            made["token"]).status_code == 200
                for i, phone in enumerate(phones[:5]):
                    await phone.send(json.dumps({"type": "chat", "text": f"hello from {i}"}))
                for phone in phones:
                    with contextlib.suppress(TimeoutError):
                        while True:
                            message = await recv(phone, 2)
                            assert message["type"] != "error", message
                    assert phone.close_code is None

        asyncio.run(evening())


# ---------------------------------------------------------------------- memory


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def _open_rooms(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM rooms WHERE status != 'closed'").fetchone()[0])


def _batch(server: Served, db: Path, rooms: int) -> None:
    """Make ``rooms`` rooms, start them (their bots play, and play for the absent host), and
    wait until they have all closed, nobody having joined them."""
    with http_from(addr(1)) as client:
        for _ in range(rooms):
            made = client.post(server.base + "/api/rooms", json={
                "name": "Ana", "bots": ["heuristic", "random", "heuristic"], "bot_delay": 0}).json()
            reply = client.post(server.base + f"/api/rooms/{made['code']}/start", json={},
                                headers={"Authorization": f"Bearer {made['token']}"})
            assert reply.status_code == 200
    end = time.monotonic() + 180
    while _open_rooms(db):
        assert time.monotonic() < end, "rooms nobody joined stayed open"
        time.sleep(0.5)


@pytest.mark.slow
def test_a_thousand_rooms_made_played_and_expired_leave_the_memory_as_it_was(tmp_path: Path) -> None:
    with serving(tmp_path, "--rooms-per-address", "0", "--rate-limit", "0", "--unjoined-minutes", "0.12",
                 "--log-level", "warning") as server:
        db = tmp_path / "rooms.db"
        _batch(server, db, 100)  # the server warmed up: every kind of room and bot has been used
        before = _rss(server.proc.pid)
        for _ in range(10):
            _batch(server, db, 100)
        after = _rss(server.proc.pid)
        print(f"server RSS: {before / 2**20:.1f} MB before, {after / 2**20:.1f} MB after 1,000 rooms")
        assert after - before < 20 * 2**20, (before, after)
