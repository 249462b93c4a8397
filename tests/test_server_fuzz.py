"""Attack: a protocol fuzzer (Hypothesis) against a real ``unokit serve`` over real WebSockets.

Malformed JSON, wrong types, huge and deeply nested messages, unknown types, stale versions,
forged tokens and other rooms' tokens, spectators and strangers acting, and floods: every one
is refused with its error code, the game is unchanged (``/api/dev/rooms``: the whole position),
the server stays up, and no token reaches its log (run at ``--log-level debug``).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

pytest.importorskip("websockets")
pytest.importorskip("uvicorn")
pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from test_server_support import Served, free_port  # noqa: E402
from unokit.server.models import CLIENT_TYPES, MAX_MESSAGE_BYTES  # noqa: E402
from unokit.server.store import database_url  # noqa: E402

Attack = tuple[str, str, list[str]]
"""``(who, expected, frames)``: who says hello first (``seat0``, ``seat1``, ``spectator``,
``none``), the error code (or ``close:CODE``) expected, and the frames sent."""


class World:
    def __init__(self, server: Served, code: str, tokens: list[str], other_token: str) -> None:
        self.server = server
        self.code = code
        self.tokens = tokens
        self.other_token = other_token
        self.anchors: list[Any] = []

    def dev(self) -> Any:
        return self.server.get(f"/api/dev/rooms/{self.code}")


def _drain(ws: Any) -> None:
    try:
        for _ in ws:
            pass
    except (ConnectionClosed, OSError):
        pass


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp: Path = tmp_path_factory.mktemp("fuzz")
    server = Served(tmp, database_url(tmp / "rooms.db"), free_port(), "--dev", "--rate-limit", "0",
                    "--log-level", "debug")
    secrets: list[str] = []
    anchors: list[Any] = []
    try:
        status, made = server.post("/api/rooms", {"name": "Ana", "bots": [None], "seed": 11, "bot_delay": 0})
        assert status == 201
        code = made["code"]
        status, bo = server.post(f"/api/rooms/{code}/join", {"name": "Bo"})
        assert status == 200
        status, other = server.post("/api/rooms", {"name": "Cy", "bots": [None], "seed": 12})
        assert status == 201
        secrets += [made["token"], bo["token"], other["token"]]
        w = World(server, code, [made["token"], bo["token"]], other["token"])
        # Both people stay connected throughout (no grace runs out, no bot plays for them).
        for token in w.tokens:
            ws = connect(f"ws://127.0.0.1:{server.port}/ws/{code}", open_timeout=10)
            ws.send(json.dumps({"type": "hello", "token": token}))
            threading.Thread(target=_drain, args=(ws,), daemon=True).start()
            anchors.append(ws)
        assert server.post(f"/api/rooms/{code}/start", {}, token=made["token"])[0] == 200
        end = time.monotonic() + 10
        while w.dev()["version"] < 1 and time.monotonic() < end:
            time.sleep(0.05)
        yield w
    finally:
        for ws in anchors:
            ws.close()
        server.stop()
    log = server.log()
    assert "/ws/" in log
    for token in secrets:
        assert token not in log and token[:16] not in log


# ---------------------------------------------------------------------- what is sent


def _not_an_object(text: str) -> bool:
    try:
        return not isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return True


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _expected_for_text(text: str) -> str:
    return "too_large" if _size(text) > MAX_MESSAGE_BYTES else "malformed"


garbage = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
    st.sampled_from(["{", "}", "[]", "null", "1", '"hello"', '{"type":', "{'type': 'hello'}", "NaN",
                     '{"type": "hello"', "\ufeff{}", '{"type":"act","action":"R1","version":1}x']),
).filter(_not_an_object).map(lambda t: ("seat0", _expected_for_text(t), [t]))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)

FIELDS = {"hello": {"token": "str"}, "act": {"action": "str", "version": "int"}, "chat": {"text": "str"},
          "kick": {"seat": "int"}, "bot": {"seat": "int"}, "move": {"seat": "int", "to": "int"}}


def _wrong(kind: str) -> Any:
    if kind == "str":
        return json_values.filter(lambda v: not isinstance(v, str))
    return json_values.filter(lambda v: not isinstance(v, int) or isinstance(v, bool))


def _fine(t: str) -> dict[str, Any]:
    return {k: ("x" if kind == "str" else 0) for k, kind in FIELDS[t].items()}


wrong_types = st.sampled_from(sorted(FIELDS)).flatmap(
    lambda t: st.sampled_from(sorted(FIELDS[t])).flatmap(
        lambda f: _wrong(FIELDS[t][f]).map(
            lambda v: ("seat0", "malformed", [json.dumps({"type": t, **_fine(t), f: v})]))))

unknown_types = st.one_of(st.text(max_size=30).filter(lambda t: t not in CLIENT_TYPES), json_values).map(
    lambda t: ("seat1", "malformed", [json.dumps({"type": t})]))

extra_fields = st.tuples(st.sampled_from(["ready", "leave", "rematch", "chat"]),
                         st.text(min_size=1, max_size=10).filter(lambda k: k not in ("type", "text"))).map(
    lambda tk: ("seat1", "malformed", [json.dumps({"type": tk[0], "text": "hi", tk[1]: 1})]))

huge = st.integers(MAX_MESSAGE_BYTES - 20, 60_000).map(
    lambda n: ("seat0", "too_large", [json.dumps({"type": "chat", "text": "x" * n})]))

too_big_a_frame = st.integers(65_537, 200_000).map(lambda n: ("seat0", "close:1009", ["y" * n]))


def _nested(depth: int, kind: str) -> str:
    inner = "[" * depth + "]" * depth if kind == "list" else '{"a":' * depth + "1" + "}" * depth
    return f'{{"type":"chat","text":{inner}}}'


nested = st.tuples(st.integers(1, 5000), st.sampled_from(["list", "dict"])).map(
    lambda dk: (lambda t: ("seat0", _expected_for_text(t), [t]))(_nested(*dk)))

tokens = st.one_of(st.text(max_size=60), st.sampled_from(["other-room"]),
                   st.binary(min_size=24, max_size=24).map(lambda b: b.hex()[:32]))
forged = tokens.map(lambda t: ("none", "unauthorized", [json.dumps({"type": "hello", "token": t})]))

stale = st.tuples(st.sampled_from(["seat0", "seat1"]), st.integers(0, 10**9)).map(
    lambda sv: (sv[0], "stale:" + str(sv[1]), []))

garbage_action = st.text(max_size=40).map(lambda a: "zz" + a[:38]).map(
    lambda a: ("seat0", "illegal:" + a, []))

strangers = st.sampled_from([
    ("none", "unauthorized", [json.dumps({"type": "act", "action": "draw", "version": 1})]),
    ("none", "unauthorized", [json.dumps({"type": "chat", "text": "hi"})]),
    ("spectator", "unauthorized", [json.dumps({"type": "act", "action": "draw", "version": 1})]),
    ("spectator", "unauthorized", [json.dumps({"type": "kick", "seat": 1})]),
    ("seat1", "unauthorized", [json.dumps({"type": "kick", "seat": 0})]),
    ("seat1", "unauthorized", [json.dumps({"type": "rematch"})]),
    ("seat0", "malformed", [json.dumps({"type": "hello"})]),
    ("seat0", "illegal", [json.dumps({"type": "ready"})]),
    ("seat0", "malformed", [json.dumps({"type": "act", "action": "draw", "version": -1})]),
])

attacks = st.one_of(garbage, wrong_types, unknown_types, extra_fields, huge, too_big_a_frame, nested, forged,
                    stale, garbage_action, strangers)


def _recv_error(ws: Any) -> dict[str, Any]:
    end = time.monotonic() + 10
    while True:
        m = json.loads(ws.recv(timeout=max(0.05, end - time.monotonic())))
        if m["type"] == "error":
            return dict(m)


def _attack(world: World, attack: Attack) -> None:
    who, expected, frames = attack
    port = world.server.port
    with connect(f"ws://127.0.0.1:{port}/ws/{world.code}", open_timeout=10, max_size=2**20) as ws:
        version = world.dev()["version"]
        if who != "none":
            hello: dict[str, Any] = {"type": "hello"}
            if who.startswith("seat"):
                hello["token"] = world.tokens[int(who[-1])]
            ws.send(json.dumps(hello))
            end = time.monotonic() + 10
            while json.loads(ws.recv(timeout=max(0.05, end - time.monotonic())))["type"] != "room":
                pass
        if expected.startswith("stale:"):
            wrong = int(expected.split(":")[1])
            wrong = wrong if wrong != version else version + 1
            frames, expected = [json.dumps({"type": "act", "action": "draw", "version": wrong})], "stale"
        elif expected.startswith("illegal:"):
            action = expected.split(":", 1)[1]
            frames, expected = [json.dumps({"type": "act", "action": action, "version": version})], "illegal"
        elif frames and '"other-room"' in frames[0]:
            frames = [json.dumps({"type": "hello", "token": world.other_token})]
        for frame in frames:
            ws.send(frame)
        if expected.startswith("close:"):
            with pytest.raises(ConnectionClosed) as closed:
                _recv_error(ws)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == int(expected.split(":")[1])
        else:
            got = _recv_error(ws)
            assert got["code"] == expected, (attack, got)
            assert isinstance(got["message"], str) and got["message"]


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.filter_too_much])
@given(attack=attacks)
def test_every_attack_is_refused_with_its_code_and_changes_nothing(world: World, attack: Attack) -> None:
    before = world.dev()
    _attack(world, attack)
    assert world.dev() == before
    assert world.server.get("/healthz") == {"ok": True}


def test_a_flood_is_refused_then_closed_with_1008_and_changes_nothing(world: World) -> None:
    before = world.dev()
    with connect(f"ws://127.0.0.1:{world.server.port}/ws/{world.code}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": world.tokens[1]}))
        for _ in range(40):  # far more than 20 in a second
            try:
                ws.send(json.dumps({"type": "act", "action": "zz", "version": before["version"]}))
            except ConnectionClosed:
                break
        codes = []
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(200):
                m = json.loads(ws.recv(timeout=10))
                if m["type"] == "error":
                    codes.append(m["code"])
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert codes[-1] == "rate_limited" and set(codes) <= {"illegal", "rate_limited"}
        assert codes.count("illegal") <= 19  # the hello and 19 messages: the 21st is the flood
    assert world.dev() == before
    assert world.server.get("/healthz") == {"ok": True}
