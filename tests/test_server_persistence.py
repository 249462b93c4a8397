"""Rooms live in the database: a server restarted, even killed with SIGKILL mid-round, resumes
every room exactly; a room stored in a format it cannot read is closed while the server
starts; and no log line ever holds a seat's token."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from test_server_support import (
    Collect,
    Served,
    app_client,
    enter,
    free_port,
    make_room,
    peer,
    request,
    socket_to,
)
from unokit import Game, Options
from unokit.core.record import record_of, replay
from unokit.server.rooms import Rooms, ServerOptions
from unokit.server.store import Store, database_url

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _latest_view(c: Collect) -> dict[str, Any] | None:
    states = c.states()
    return states[-1]["view"] if states else None


async def _play(rooms: Rooms, people: list[Collect], rng: random.Random, steps: int) -> None:
    """The people act at random moments: a legal action of theirs (on turn or out of turn)."""
    for _ in range(steps):
        await asyncio.sleep(rng.choice((0, 0, 0.001, 0.005)))
        p = rng.choice(people)
        view = _latest_view(p)
        if view is None or p.room is None:
            continue
        if view["awaiting"] == "round_over":
            await request(rooms, p, type="ready")
        elif view["legal"]:
            await request(rooms, p, type="act", action=rng.choice(view["legal"]), version=p.room.version)


def _snapshot(rooms: Rooms) -> dict[str, Any]:
    out = {}
    for code, room in rooms.rooms.items():
        assert room.game is not None and room.table is not None
        out[code] = (room.status, room.version, room.game.to_dict(), list(room.declined),
                     room.table.next_seat(), [(s.kind, s.name, s.bot, s.token_hash) for s in room.seats],
                     room.host)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_a_store_reloads_every_room_exactly(tmp_path: Path, seed: int) -> None:
    url = database_url(tmp_path / "rooms.db")
    rng = random.Random(seed)

    async def first() -> dict[str, Any]:
        rooms = Rooms(Store(url), ServerOptions(dev=True))
        people: list[Collect] = []
        for r in range(3):
            bots = [None, "heuristic", None, "random"][: 2 + r % 2]
            room, token = await make_room(rooms, bots=bots, seed=seed * 10 + r, between_rounds=600,
                                          options={"jump_in": r == 1, "seven_zero": r == 2, "target": 60})
            _, bo_token = await room.take_seat("Bo", None)
            await room.start(token)
            people += [await enter(rooms, room, token), await enter(rooms, room, bo_token)]
        if seed % 2:  # a rematch: the versions count on
            room = next(iter(rooms.rooms.values()))
            assert room.game is not None
            room.game_no, room.version_base = 1, room.game.version
            async with room.lock:
                room._start_game()
        await _play(rooms, people, rng, rng.randint(5, 120))
        rooms.stop()
        await asyncio.sleep(0)
        return _snapshot(rooms)

    async def second() -> dict[str, Any]:
        rooms = Rooms(Store(url), ServerOptions(dev=True))
        assert len(rooms.load()) == 3 and not rooms.closed
        return _snapshot(rooms)

    before = asyncio.run(first())
    after = asyncio.run(second())
    assert after == before
    for _status, _version, position, *_ in after.values():
        game = Game.from_dict(position)
        from unokit.core.record import record_of

        assert replay(record_of(game)).state() == game.state()  # the record is the position's


def test_rooms_of_an_unreadable_format_are_closed_and_the_server_starts(tmp_path: Path) -> None:
    url = database_url(tmp_path / "rooms.db")
    codes: list[str] = []

    async def make() -> None:
        rooms = Rooms(Store(url), ServerOptions(dev=True))
        for seed in range(3):
            room, token = await make_room(rooms, players=2, seed=seed)
            await room.start(token)
            codes.append(room.code)
        await asyncio.sleep(0.05)
        rooms.stop()

    asyncio.run(make())
    store = Store(url)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE rooms SET store_format = 99 WHERE code = :c"), {"c": codes[0]})
        conn.execute(text("UPDATE rooms SET position = NULL WHERE code = :c"), {"c": codes[1]})
        conn.execute(text("UPDATE rounds SET deal = :d WHERE room_code = :c"),
                     {"c": codes[1], "d": '{"dealer": 0, "deck": ["XX"]}'})
    store.close()

    with app_client(url) as client:
        rooms = client.app.state.rooms  # type: ignore[attr-defined]
        assert set(rooms.closed) == {codes[0], codes[1]} and codes[2] in rooms.rooms
        for code in codes[:2]:
            summary = client.get(f"/api/rooms/{code}").json()
            assert summary["status"] == "closed" and summary["closed_reason"] == "format"
            with socket_to(client, code) as p:
                p.send(type="hello")
                message = p.error("not_found")["message"]
                assert "closed" in message and "version of unokit" in message
        with peer(client, codes[2]) as p:
            assert p.room is not None and p.room["you"] is None
    with app_client(url) as client:  # closed for good: not read again
        assert codes[0] not in client.app.state.rooms.rooms  # type: ignore[attr-defined]


def test_an_upgrade_migrates_the_stored_rooms(tmp_path: Path) -> None:
    """A database of the first schema (six-letter codes, no ``version_base``) is migrated at
    start: its rooms play on as they were."""
    from alembic import command
    from alembic.config import Config

    from unokit.server.store import MIGRATIONS

    url = database_url(tmp_path / "rooms.db")

    async def make() -> dict[str, Any]:
        rooms = Rooms(Store(url), ServerOptions(dev=True))
        room, token = await make_room(rooms, players=3, seed=9)
        await room.start(token)
        await asyncio.sleep(0.05)
        rooms.stop()
        return _snapshot(rooms)

    before = asyncio.run(make())
    (code,) = before
    store = Store(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as connection:  # back to the first schema, as an older unokit left it
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
        connection.execute(text("PRAGMA defer_foreign_keys = ON"))
        connection.execute(text("UPDATE rooms SET code = 'ABC234' WHERE code = :c"), {"c": code})
        for table in ("seats", "rounds", "actions", "chat"):
            connection.execute(text(f"UPDATE {table} SET room_code = 'ABC234' WHERE room_code = :c"),
                               {"c": code})
        columns = [r[1] for r in connection.execute(text("PRAGMA table_info(rooms)"))]
        assert "version_base" not in columns
    store.close()

    async def load() -> dict[str, Any]:
        rooms = Rooms(Store(url), ServerOptions(dev=True))
        assert rooms.load() == ["ABC234"]
        return _snapshot(rooms)

    assert asyncio.run(load()) == {"ABC234": before[code]}


# ---------------------------------------------------------------------- a real server, killed


def _ws(port: int, code: str) -> Any:
    from websockets.sync.client import connect

    return connect(f"ws://127.0.0.1:{port}/ws/{code}", open_timeout=10, max_size=2**20)


def _recv(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


def _until(ws: Any, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        m = _recv(ws, max(0.05, end - time.monotonic()))
        if pred(m):
            return m


def _my_turn(m: dict[str, Any]) -> bool:
    return (m["type"] == "state" and m["view"]["turn"] == m["view"]["seat"]
            and m["view"]["awaiting"] not in ("round_over", "game_over") and bool(m["view"]["legal"]))


def test_a_server_killed_mid_round_resumes_every_room_exactly(tmp_path: Path) -> None:
    pytest.importorskip("websockets")
    pytest.importorskip("uvicorn")
    database = database_url(tmp_path / "rooms.db")
    port = free_port()
    server = Served(tmp_path, database, port, "--dev", "--log-level", "debug")
    tokens: list[str] = []
    rooms: dict[str, tuple[str, dict[str, Any]]] = {}
    sockets: list[Any] = []
    try:
        for r in range(3):
            status, made = server.post("/api/rooms", {"name": f"P{r}", "players": 3 + r, "seed": 40 + r,
                                                      "bot_delay": 0.01, "options": {"jump_in": r == 1}})
            assert status == 201
            code, token = made["code"], made["token"]
            tokens.append(token)
            ws = _ws(port, code)
            sockets.append(ws)
            ws.send(json.dumps({"type": "hello", "token": token}))
            _until(ws, lambda m: m["type"] == "room")
            assert server.post(f"/api/rooms/{code}/start", {}, token=token)[0] == 200
            m = _until(ws, _my_turn)
            for _ in range(4):  # a few moves of the person, the bots answering
                act = {"type": "act", "action": m["view"]["legal"][0], "version": m["version"]}
                ws.send(json.dumps(act))
                m = _until(ws, lambda x: _my_turn(x) or (x["type"] == "state"
                                                        and x["view"]["awaiting"] == "round_over"))
                if not _my_turn(m):
                    break
            rooms[code] = (token, m)
        # A room joined over HTTP, and a wrong token tried: neither may reach the log.
        status, made = server.post("/api/rooms", {"name": "Http", "bots": [None, "random"], "bot_delay": 0})
        tokens.append(made["token"])
        status, second = server.post(f"/api/rooms/{made['code']}/join", {"name": "Second"})
        assert status == 200
        tokens.append(second["token"])
        status, _ = server.post(f"/api/rooms/{made['code']}/start", {}, token="wrong-" + made["token"])
        assert status == 401
        with _ws(port, made["code"]) as ws:
            ws.send(json.dumps({"type": "hello", "token": second["token"]}))
            _until(ws, lambda m: m["type"] == "room")
        time.sleep(0.3)  # the bots of every room are waiting on a person now
        before = {code: server.get(f"/api/dev/rooms/{code}") for code in rooms}
        assert all(b["status"] == "playing" for b in before.values())
        server.kill()
        for ws in sockets:
            ws.close()

        server = Served(tmp_path, database, port, "--dev", "--log-level", "debug")
        after = {code: server.get(f"/api/dev/rooms/{code}") for code in rooms}
        assert after == before
        for code, (token, last) in rooms.items():
            with _ws(port, code) as ws:
                ws.send(json.dumps({"type": "hello", "token": token}))
                past = _until(ws, lambda m: m["type"] == "events")
                assert past["replay"] is True and past["version"] == last["version"]
                again = _recv(ws)
                assert again["type"] == "state" and again["version"] == last["version"]
                assert again["view"] == last["view"]
                if _my_turn(again):  # and the match goes on
                    ws.send(json.dumps({"type": "act", "action": again["view"]["legal"][0],
                                        "version": again["version"]}))
                    nxt = _until(ws, lambda m: m["type"] in ("state", "error"))
                    assert nxt["type"] == "state" and nxt["version"] == last["version"] + 1
    finally:
        server.stop()
    log = server.log()
    assert "serving on http://" in log and "/ws/" in log  # the log is there, and busy
    for token in tokens:
        assert token not in log
        assert token[:16] not in log
    assert "wrong-" not in log


@pytest.mark.parametrize("seed", range(4))
def test_a_room_resumes_from_an_earlier_position_and_the_records_actions_after_it(seed: int) -> None:
    from unokit.core.record import record_of
    from unokit.core.table import Table
    from unokit.server.rooms import resume

    rng = random.Random(seed)
    game = Game.new("classic", 3, Options.from_mapping({"target": 50}), seed=seed)
    table = Table(game)
    positions = []
    for _ in range(rng.randint(50, 400)):  # through several rounds
        seat = table.next_seat()
        if seat is None:
            if game.is_over:
                break
            table.start_round()
            continue
        positions.append(game.to_dict())
        table.act(seat, rng.choice(game.legal_actions(seat)))
    record = record_of(game)
    for earlier in rng.sample(positions, 5):
        resumed = resume(Game.from_dict(earlier), record)
        assert resumed is not None and resumed.state() == game.state()
    # A position that is not a beginning of the record is not resumed from.
    other = Game.new("classic", 3, Options.from_mapping({"target": 50}), seed=seed + 100)
    assert resume(other, record) is None


def test_a_change_counts_the_revision_up_once_and_a_refused_one_not_at_all(tmp_path: Path) -> None:
    from unokit.server.store import RoomConflict, RoomData, SeatData

    store = Store(database_url(tmp_path / "rooms.db"))
    try:
        seats = [SeatData(0, "human", "Ana", None, "0" * 64), SeatData(1, "open", None, None, None)]
        store.create_room(RoomData("ROOMCODE", "lobby", {"edition": "classic"}, 0, seats))
        assert store.load_room("ROOMCODE") is not None
        ben = SeatData(1, "human", "Ben", None, "1" * 64)
        assert store.update_room("ROOMCODE", seats=[ben], rev=0) == 1
        with pytest.raises(RoomConflict):
            store.update_room("ROOMCODE", seats=[SeatData(1, "human", "Cy", None, "2" * 64)], rev=0)
        stored = store.load_room("ROOMCODE")
        assert stored is not None and stored.rev == 1 and stored.seats[1].name == "Ben"
        game = Game.new("classic", 2, seed=1)
        rev = store.start_game("ROOMCODE", game_no=0, record=record_of(game), position=game.to_dict(),
                               version=game.version, version_base=0, status="playing", seats=[], rev=1)
        assert rev == 2
        common = {"game_no": 0, "round_index": 0, "idx": 0, "position": None, "version": game.version + 1,
                  "status": "playing"}
        assert store.append_action("ROOMCODE", line="0 draw", rev=2, **common) == 3
        with pytest.raises(RoomConflict):
            store.append_action("ROOMCODE", line="0 draw", rev=2, **common)
        again = store.load_room("ROOMCODE")
        assert again is not None and again.rev == 3
    finally:
        store.close()


def test_a_database_other_than_sqlite_or_postgresql_is_refused_with_why() -> None:
    with pytest.raises(ValueError, match=r"SQLite .* or PostgreSQL .*, not in 'mysql'"):
        Store("mysql://ana@127.0.0.1/rooms")
