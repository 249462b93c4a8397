"""Changes made at the same moment on two server processes (PostgreSQL): a request that was
valid when sent is never refused for the race (a conflict reads the room again and makes the
change on it, :meth:`Room.settled`), and a real conflict is still refused."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from services import pg_url
from test_server_support import Served, enter, free_port, make_room, request

__all__ = ["pg_url"]  # the fixture, imported for the tests here

RUNS = 100


def test_a_kick_and_a_move_made_on_a_copy_gone_stale_are_made_again_on_the_room_as_it_is(pg_url: str) -> None:
    """Two applications on one database that do not follow each other (no lifespan: every
    change meets the other's copy stale): the host's kick and move are made on the room read
    afresh, not refused as stale; a kick of a seat nobody holds any more is refused."""
    from unokit.server.app import create_app
    from unokit.server.store import Store

    one, two = Store(pg_url), Store(pg_url)

    async def run() -> None:
        a, b = create_app(one).state.rooms, create_app(two).state.rooms
        room, token = await make_room(a, bots=[None, None, None])
        code = room.code
        await room.take_seat("Ben", None)
        assert (await b.get(code).take_seat("Cy", None))[0] == 2
        host = await enter(a, room, token)
        assert await request(a, host, type="kick", seat=1) is None  # a's copy had not seen Cy
        stored = one.load_room(code)
        assert stored is not None
        seats = [(s.kind, s.name) for s in stored.seats]
        assert seats[:3] == [("human", "Ana"), ("open", None), ("human", "Cy")]
        await b.get(code).take_seat("Dee", 3)  # b's copy had not seen the kick
        assert await request(a, host, type="move", seat=0, to=3) is None  # a's copy had not seen Dee
        stored = one.load_room(code)
        assert stored is not None and stored.host == 3
        assert [(s.kind, s.name) for s in stored.seats] == [
            ("human", "Dee"), ("open", None), ("human", "Cy"), ("human", "Ana")]
        assert room.seats[3].name == "Ana" and host.seat == 3
        refused = await request(a, host, type="kick", seat=1)  # an open seat: a real conflict
        assert refused is not None and refused["code"] == "illegal"
        assert not [m for m in host.messages() if m["type"] == "error"]

    try:
        asyncio.run(run())
    finally:
        one.close()
        two.close()


@contextlib.contextmanager
def every_cpu_busy() -> Iterator[None]:
    """A process spinning on each CPU for as long as the block runs."""
    spin = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        yield
    finally:
        for p in spin:
            p.kill()
            p.wait(10)


def _at_once(*calls: Any) -> list[Any]:
    """Run the calls in threads released together; their results, in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def one(i: int) -> None:
        barrier.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_a_join_on_one_process_and_a_start_on_the_other_never_meet_a_409_for_the_race(
        tmp_path: Path, pg_url: str) -> None:
    """100 times, with every CPU kept busy: Ben joins on one process as the host starts on the
    other. The start always succeeds; the join succeeds and Ben has his seat in the match, or
    the start came first and the join is refused for the room it found (no open seat left):
    never as ``stale``."""
    a = Served(tmp_path, pg_url, free_port(), "--rate-limit", "0", "--rooms-per-address", "0",
               log_name="a.log")
    try:
        b = Served(tmp_path, pg_url, free_port(), "--rate-limit", "0", "--rooms-per-address", "0",
                   log_name="b.log")
        try:
            with every_cpu_busy():
                outcomes = [_race(a, b) for _ in range(RUNS)]
        finally:
            b.stop()
    finally:
        a.stop()
    assert len(outcomes) == RUNS
    assert "joined" in outcomes or "refused" in outcomes


def _race(a: Served, b: Served) -> str:
    status, made = a.post("/api/rooms", {"name": "Ana", "bots": [None], "bot_delay": 0.05})
    assert status == 201, made
    code = made["code"]
    (started, start_body), (joined, join_body) = _at_once(
        lambda: a.post(f"/api/rooms/{code}/start", {}, token=made["token"]),
        lambda: b.post(f"/api/rooms/{code}/join", {"name": "Ben"}))
    assert started == 200, start_body
    seat = a.get(f"/api/rooms/{code}")["seats"][1]
    if joined == 200:
        assert seat["kind"] == "human" and seat["name"] == "Ben", seat
        return "joined"
    assert (joined, join_body["code"]) == (409, "illegal"), join_body  # the match had started: no open seat
    assert seat["kind"] == "bot", seat
    return "refused"
