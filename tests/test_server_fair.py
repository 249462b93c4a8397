"""A fair table, with real ``unokit serve --dev`` processes and real WebSockets: while a person
may call UNO or catch a bot that forgot, no bot acts for the room's ``reaction`` (and with 0 at
once); a bot playing for a person away waits it too, and ``back`` ends it; a disconnected
person's grace, counted after a restart (SIGKILL) from when the new process serves; the host's
role passing on before the start; the host's seat changes in the lobby.

The bounds measured are lower bounds (a bot did NOT act before ...), with generous upper ones,
so that a loaded machine does not make them fail. Each test connects from a loopback address of
its own (127.0.0.2, ...), so that the per-address limits of one do not touch another.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from test_server_support import Served, free_port
from unokit.server.rooms import GRACE, ServerOptions

pytest.importorskip("websockets")
pytest.importorskip("uvicorn")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Message = dict[str, Any]
DRAW = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "G1", "G2", "G3", "G4"]


class Peer:
    """One WebSocket to a room, from ``address``: every message it was sent, with when."""

    def __init__(self, port: int, code: str, token: str | None, address: str) -> None:
        self.url, self.token, self.address = f"ws://127.0.0.1:{port}/ws/{code}", token, address
        self.got: list[tuple[float, Message]] = []
        self.ws: Any = None
        self.version = 0

    async def __aenter__(self) -> Peer:
        from websockets.asyncio.client import connect

        self.ws = await connect(self.url, local_addr=(self.address, 0))
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.ws.close()

    async def until(self, match: Callable[[Message], bool], timeout: float = 20.0) -> tuple[float, Message]:
        """The first message (from now on) that ``match`` takes, and when it came."""
        async with asyncio.timeout(timeout):
            while True:
                m = json.loads(await self.ws.recv())
                at = time.monotonic()
                self.got.append((at, m))
                if m["type"] == "state":
                    self.version = m["version"]
                if match(m):
                    return at, m

    async def act(self, action: str) -> None:
        await self.ws.send(json.dumps({"type": "act", "action": action, "version": self.version}))

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))


def events(m: Message, kind: str, **fields: Any) -> bool:
    """Whether ``m`` is an ``events`` message with an event of ``kind`` (and ``fields``)."""
    return m["type"] == "events" and any(
        e["type"] == kind and all(e.get(k) == v for k, v in fields.items()) for e in m["events"])


def my_turn(seat: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "state" and m["view"]["turn"] == seat and bool(m["view"]["legal"])


def room_made(served: Served, hands: list[list[str]], dealer: int, bots: list[str | None],
              **settings: Any) -> tuple[str, str]:
    """A room with a stacked deal (seat 0 is its maker), started; its code and seat 0's token."""
    deal = {"dealer": dealer, "hands": hands, "discard": "R1", "draw": DRAW}
    body = {"name": "Ana", "bots": bots, "bot_delay": 0, "forget_uno": 0, "deal": deal, "between_rounds": 0,
            **settings}
    status, made = served.post("/api/rooms", body)
    assert status == 201, made
    if None not in bots:
        status, _ = served.post(f"/api/rooms/{made['code']}/start", {}, token=made["token"])
        assert status == 200
    return made["code"], made["token"]


@pytest.fixture
def served(tmp_path: Path) -> Any:
    s = Served(tmp_path, f"sqlite:///{tmp_path / 'rooms.db'}", free_port(), "--dev", "--grace", "3",
               "--log-level", "warning")
    yield s
    s.stop()


# ---------------------------------------------------------------------- UNO calls and catches


@pytest.mark.parametrize("reaction", [2.5, 0.0])
def test_no_bot_catches_a_person_before_the_reaction_is_over(served: Served, reaction: float) -> None:
    code, token = room_made(served, [["R7", "G8"], ["B1", "B2", "B3", "B4"]], 1, ["heuristic"],
                            reaction=reaction)

    async def play() -> float:
        async with Peer(served.port, code, token, "127.0.0.2") as me:
            await me.until(my_turn(0))
            await me.act("R7")  # the next-to-last card, no call
            played, _ = await me.until(lambda m: events(m, "UnoMissed", seat=0))
            acted, _ = await me.until(lambda m: m["type"] == "events" and any(
                e.get("seat") == 1 or e.get("catcher") == 1 for e in m["events"]))
            return acted - played

    waited = asyncio.run(play())
    if reaction:
        assert waited >= reaction - 0.05, f"a bot acted {waited:.2f} s after the play, within {reaction} s"
        assert waited < reaction + 8
    else:
        assert waited < 2.0, f"with reaction 0 a bot waited {waited:.2f} s"


def test_a_person_calls_late_within_the_reaction_and_is_not_caught(served: Served) -> None:
    code, token = room_made(served, [["R7", "G8"], ["B1", "B2", "B3", "B4"]], 1, ["heuristic"], reaction=3)

    async def play() -> list[Message]:
        async with Peer(served.port, code, token, "127.0.0.3") as me:
            await me.until(my_turn(0))
            await me.act("R7")
            await me.until(lambda m: events(m, "UnoMissed", seat=0))
            await me.until(lambda m: m["type"] == "state")
            await asyncio.sleep(2.0)
            await me.act("uno")
            await me.until(lambda m: events(m, "UnoCalled", seat=0))
            await me.until(lambda m: events(m, "Played", seat=1) or events(m, "Drew", seat=1))
            return [m for _, m in me.got]

    got = asyncio.run(play())
    assert not any(events(m, "Caught") for m in got)


def test_a_person_catches_a_bot_that_forgot_before_the_next_bot_plays(served: Served) -> None:
    hands = [["R5", "G1", "G2"], ["R6", "R9"], ["B1", "B2", "B3", "B4"]]
    code, token = room_made(served, hands, 2, ["heuristic", "heuristic"], forget_uno=1, reaction=3)

    async def play() -> tuple[float, list[Message]]:
        async with Peer(served.port, code, token, "127.0.0.4") as me:
            await me.until(my_turn(0))
            await me.act("R5")
            missed, _ = await me.until(lambda m: events(m, "UnoMissed", seat=1))
            await me.until(lambda m: m["type"] == "state")
            await asyncio.sleep(1.5)
            await me.act("catch 1")
            caught, _ = await me.until(lambda m: events(m, "Caught", catcher=0, seat=1))
            return caught - missed, [m for _, m in me.got]

    took, got = asyncio.run(play())
    assert took < 10
    before = got[:next(i for i, m in enumerate(got) if events(m, "Caught"))]
    assert not any(events(m, "Played", seat=2) or events(m, "Drew", seat=2) for m in before)


# ---------------------------------------------------------------------- away, and back


def test_a_bot_playing_for_a_person_away_waits_the_reaction_and_back_ends_it(served: Served) -> None:
    hands = [["R5", "R6", "G1", "G2"], ["R7", "R8", "B3", "B4"]]
    code, token = room_made(served, hands, 1, ["heuristic"], reaction=2.5, turn_timeout=1)

    async def play() -> None:
        async with Peer(served.port, code, token, "127.0.0.5") as me:
            _, state = await me.until(my_turn(0))
            assert isinstance(state["deadline"], float)  # the countdown of turn_timeout
            await me.until(lambda m: m["type"] == "room" and m["seats"][0]["away"])
            await me.until(lambda m: events(m, "Played", seat=0) or events(m, "Drew", seat=0))
            seen, state = await me.until(my_turn(0))  # the bot plays for me again, after reaction
            assert state["deadline"] is not None and state["deadline"] - time.time() > 1.5
            await me.send(type="back")
            await me.until(lambda m: m["type"] == "room" and not m["seats"][0]["away"])
            assert time.monotonic() - seen < 2.5
            await asyncio.sleep(0.3)
            assert not any(events(m, "Played", seat=0) for at, m in me.got if at > seen)

    asyncio.run(play())


# ---------------------------------------------------------------------- the grace of a disconnected person


def _watch_for_seat0(port: int, code: str, address: str, within: float) -> float | None:
    """Watch as a spectator for ``within`` seconds: when seat 0 first acted (a bot for them)."""
    async def watch() -> float | None:
        async with Peer(port, code, None, address) as eye:
            try:
                at, _ = await eye.until(lambda m: events(m, "Played", seat=0) or events(m, "Drew", seat=0),
                                        timeout=within)
            except TimeoutError:
                return None
            return at
    return asyncio.run(watch())


def test_the_default_grace_is_twenty_seconds() -> None:
    assert GRACE == ServerOptions().grace == 20.0


def test_a_disconnected_person_is_played_for_only_after_the_grace(served: Served) -> None:
    code, token = room_made(served, [["R5", "R6", "G1"], ["R7", "B3", "B4"]], 1, ["heuristic"], reaction=0)

    async def leave() -> float:
        async with Peer(served.port, code, token, "127.0.0.6") as me:
            await me.until(my_turn(0))
        return time.monotonic()

    left = asyncio.run(leave())
    at = _watch_for_seat0(served.port, code, "127.0.0.7", 15)
    assert at is not None, "no bot played for the person gone"
    assert at - left >= 3 - 0.1, f"a bot played {at - left:.2f} s after they left; the grace is 3 s"


def test_after_a_sigkill_the_grace_counts_from_when_the_new_process_serves(tmp_path: Path) -> None:
    database, port = f"sqlite:///{tmp_path / 'rooms.db'}", free_port()
    args = ("--dev", "--grace", "4", "--log-level", "warning")
    first = Served(tmp_path, database, port, *args)
    code, token = room_made(first, [["R5", "R6", "G1"], ["R7", "B3", "B4"]], 1, ["heuristic"], reaction=0)

    async def sit() -> None:
        async with Peer(port, code, token, "127.0.0.8") as me:
            await me.until(my_turn(0))
            time.sleep(5)  # longer than the grace, seen by the first process only
            first.kill()

    with contextlib.suppress(Exception):  # the socket is cut by the kill, whatever its error
        asyncio.run(sit())
    second = Served(tmp_path, database, port, *args, log_name="serve2.log")
    try:
        ready = time.monotonic()
        at = _watch_for_seat0(port, code, "127.0.0.9", 15)
        assert at is not None, "no bot played for the person gone"
        assert at - ready >= 4 - 1.0, f"a bot played {at - ready:.2f} s after the restart; the grace is 4 s"
    finally:
        second.stop()


# ---------------------------------------------------------------------- the host and the seats


def test_the_host_role_passes_on_when_the_host_is_gone_before_the_start(served: Served) -> None:
    code, token = room_made(served, [["R5"], ["R7"], ["B3"]], 2, [None, "heuristic"])
    status, joined = served.post(f"/api/rooms/{code}/join", {"name": "Bea"})
    assert status == 200

    async def play() -> None:
        async with Peer(served.port, code, joined["token"], "127.0.0.10") as bea:
            async with Peer(served.port, code, token, "127.0.0.11") as ana:
                await ana.until(lambda m: m["type"] == "room" and m["seats"][1]["connected"])
            gone = time.monotonic()
            _, room = await bea.until(lambda m: m["type"] == "room" and m["host"] == 1, timeout=15)
            assert time.monotonic() - gone >= 3 - 0.1  # the grace: a reload keeps the role
            assert room["seats"][0]["kind"] == "human"
        status, _ = served.post(f"/api/rooms/{code}/start", {}, token=joined["token"])
        assert status == 200

    asyncio.run(play())


def test_the_host_opens_a_bots_seat_and_changes_a_bots_level_in_the_lobby(served: Served) -> None:
    code, token = room_made(served, [["R5"], ["R7"], ["B3"]], 2, [None, "heuristic"])

    async def play() -> None:
        async with Peer(served.port, code, token, "127.0.0.12") as ana:
            await ana.until(lambda m: m["type"] == "room")
            await ana.send(type="bot", seat=2, bot="hard")
            await ana.until(lambda m: m["type"] == "room" and m["seats"][2]["bot"] == "hard")
            await ana.send(type="bot", seat=2, bot=None)
            await ana.until(lambda m: m["type"] == "room" and m["seats"][2]["kind"] == "open")
            await ana.send(type="bot", seat=1, bot="easy")
            await ana.until(lambda m: m["type"] == "room" and m["seats"][1]["bot"] == "easy")

    asyncio.run(play())
    assert [s["kind"] for s in served.get(f"/api/rooms/{code}")["seats"]] == ["human", "bot", "open"]
