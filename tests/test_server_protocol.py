"""The protocol of ``docs/protocol.md`` through a WebSocket test client: a room's life from
its creation to a rematch, rounds following each other, every error code, the HTTP API, the
people a bot plays for, and the safe defaults (origin check, headers, limits).

Every message a test receives is checked against the protocol's models, and the order and
versions of the ``events`` and ``state`` messages of each connection are checked too
(``test_server_support.Order``)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from test_server_support import (
    Collect,
    Message,
    Peer,
    app_client,
    create,
    enter,
    join,
    make_room,
    peer,
    request,
    socket_to,
    start,
)
from unokit.server import security
from unokit.server.models import (
    ERROR_CODES,
    MAX_CHAT,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Config,
    Error,
    Health,
    Narration,
)
from unokit.server.protocol import CHAT_HISTORY
from unokit.server.rooms import Rooms, ServerOptions, parse_settings
from unokit.server.store import Store

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def play_until(peers: list[Peer], done: Any, limit: int = 3000, ready: bool = False) -> None:
    """The peers play (their first legal action, on turn) until ``done()``; the bots play too.
    With ``ready``, each says it is ready after a round."""
    readied: set[tuple[int, int]] = set()
    for _ in range(limit):
        if done():
            return
        acted = False
        for i, p in enumerate(peers):
            p.drain(0.02)
            if done():
                return
            if ready and p.view is not None and p.view["awaiting"] == "round_over" \
                    and (i, p.view["round"]) not in readied:
                readied.add((i, p.view["round"]))
                p.send(type="ready")
            if p.my_turn() and p.view is not None:
                legal = p.view["legal"]
                plays = [a for a in legal if a not in ("uno",) and not a.startswith("catch")]
                p.send(type="act", action=(plays or legal)[0], version=p.version)
                acted = True
        if not acted:
            for p in peers:
                p.drain(0.05)
    raise AssertionError("the game did not get there")


def events(p: Peer) -> list[Message]:
    return [e for m in p.seen if m["type"] == "events" for e in m["events"]]


def test_a_room_from_creation_through_rounds_to_a_rematch() -> None:
    with app_client() as client:
        made = create(client, players=3, bots=[None, "heuristic"], seed=7, options={"target": 100},
                      between_rounds=600)
        code, token = made["code"], made["token"]
        assert made["seat"] == 0 and len(token) >= 30 and len(code) == 14
        with peer(client, code, token) as ana:
            room = ana.room
            assert room is not None and room["status"] == "lobby" and room["you"] == 0 and room["host"] == 0
            assert [s["kind"] for s in room["seats"]] == ["human", "open", "bot"]
            assert room["settings"]["bot_delay"] == 0 and room["settings"]["between_rounds"] == 600
            assert ana.until("chat_history")["messages"] == []

            bo_seat = join(client, code.lower(), "  Bo \x07 ")
            assert bo_seat["seat"] == 1 and bo_seat["token"] != token
            seats = ana.until(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "human")["seats"]
            assert seats[1]["name"] == "Bo" and seats[1]["connected"] is False
            with peer(client, code, bo_seat["token"]) as bo:
                assert bo.room is not None and bo.room["you"] == 1
                # Every seat is taken, and still the room waits for its host.
                assert not [m for m in ana.drain(0.3) + bo.drain(0.1) if m["type"] in ("events", "state")]
                no = client.post(f"/api/rooms/{code}/start", json={},
                                 headers={"Authorization": f"Bearer {bo_seat['token']}"})
                assert no.status_code == 403 and no.json()["code"] == "unauthorized"
                start(client, code, token)
                assert bo.until("room")["status"] == "playing"
                first = bo.until("events")
                assert first["version"] == 1 and first["replay"] is False
                assert first["events"][0]["type"] == "RoundStarted"
                hands = first["events"][0]["hands"]
                assert hands[1] is not None and hands[0] is None and hands[2] is None  # only Bo's own hand
                state = bo.until("state")
                view = state["view"]
                assert state["version"] == 1 and view["seat"] == 1 and len(view["hand"]) == 7
                assert view["names"] == ["Ana", "Bo", None] and view["target"] == 100 and view["round"] == 0

                # Chat, as plain text; it does not change the version.
                ana.send(type="chat", text="<b>hi</b>  there")
                said = bo.until("chat")
                assert said["text"] == "<b>hi</b> there" and said["name"] == "Ana" and said["seat"] == 0

                # A spectator sees no hand and no legal actions.
                with peer(client, code) as eve:
                    assert eve.room is not None and eve.room["you"] is None
                    past = eve.until("events")
                    assert past["replay"] is True
                    assert all(h is None for e in past["events"] if e["type"] == "RoundStarted"
                               for h in e["hands"])
                    seen = eve.until("state")["view"]
                    assert seen["seat"] is None and seen["hand"] == [] and seen["legal"] == []
                    assert seen["seen"] == {} and seen["drawn"] is None

                # The first round to its end; the next one as soon as both are ready.
                play_until([ana, bo], lambda: ana.view is not None
                           and ana.view["awaiting"] in ("round_over", "game_over"))
                assert ana.view is not None and ana.view["turn"] is None and ana.view["legal"] == []
                assert any(e["type"] == "RoundEnded" for e in events(ana))
                if ana.view["awaiting"] == "round_over":
                    ana.send(type="ready")
                    assert ana.until(lambda m: m["type"] == "room" and m["seats"][0]["ready"])
                    bo.send(type="ready")
                    dealt = ana.until(lambda m: m["type"] == "events" and bool(m["events"])
                                      and m["events"][0]["type"] == "RoundStarted")
                    assert dealt["events"][0]["round_no"] == 1

                # Bo reloads the page: the token takes the seat back, with the round so far.
                before = bo.version
            ana.drain(0.1)
            with peer(client, code, bo_seat["token"]) as bo2:
                assert bo2.room is not None and bo2.room["you"] == 1
                again = bo2.until("events")
                assert again["replay"] is True and again["events"][0]["type"] == "RoundStarted"
                assert bo2.until("state")["version"] >= before

                # To the end of the match, then a rematch: the version counts on.
                play_until([ana, bo2], lambda: ana.view is not None and ana.view["awaiting"] == "game_over",
                           ready=True)
                assert any(e["type"] == "GameEnded" for e in events(ana))
                rounds = [e["round_no"] for e in events(ana) if e["type"] == "RoundStarted"]
                assert rounds == list(range(len(rounds))) and len(rounds) >= 2, rounds  # one after another
                record = client.get(f"/api/rooms/{code}/record")
                assert record.status_code == 200 and record.json()["format"] == "unokit-record"
                last = ana.version
                ana.send(type="rematch")
                fresh = ana.until(lambda m: m["type"] == "events" and bool(m["events"])
                                  and m["events"][0]["type"] == "RoundStarted")
                assert fresh["version"] == last + 1 and fresh["events"][0]["round_no"] == 0
                assert ana.until("state")["view"]["scores"] == [0, 0, 0]

                # Bo leaves: a bot takes the seat.
                bo2.send(type="leave")
                assert bo2.until("left")["reason"] == "left"
                seats = ana.until(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "bot")["seats"]
                assert seats[1]["bot"] == "heuristic" and seats[1]["name"] is None


def test_the_host_moves_kicks_and_replaces_people_and_starts() -> None:
    with app_client() as client:
        made = create(client, bots=[None, None, None], seed=3)
        code, token = made["code"], made["token"]
        with peer(client, code, token) as ana:
            bo = join(client, code, "Bo", seat=2)
            cy = join(client, code, "Cy")
            assert (bo["seat"], cy["seat"]) == (2, 1)
            with peer(client, code, bo["token"]) as bo_ws, peer(client, code, cy["token"]) as cy_ws:
                ana.send(type="move", seat=2, to=3)
                moved = bo_ws.until(lambda m: m["type"] == "room" and m["you"] == 3)
                assert moved["seats"][3]["name"] == "Bo" and moved["seats"][2]["kind"] == "open"
                cy_ws.send(type="kick", seat=3)  # not the host
                assert cy_ws.error("unauthorized")
                ana.send(type="bot", seat=1, bot="random")  # Cy's seat to a bot
                assert cy_ws.until("left")["reason"] == "kicked"
                ana.send(type="kick", seat=3)
                assert bo_ws.until("left")["reason"] == "kicked"
                room = ana.until(lambda m: m["type"] == "room" and m["seats"][3]["kind"] == "open"
                                 and m["seats"][1]["kind"] == "bot")
                assert [s["kind"] for s in room["seats"]] == ["human", "bot", "open", "open"]
            start(client, code, token)
            room = ana.until(lambda m: m["type"] == "room" and m["status"] == "playing")
            assert [s["kind"] for s in room["seats"]] == ["human", "bot", "bot", "bot"]
            assert [s["bot"] for s in room["seats"]] == [None, "random", "heuristic", "heuristic"]


def test_a_room_against_bots_waits_for_its_host_then_the_bots_play() -> None:
    with app_client() as client:
        made = create(client, players=4, seed=11)
        with peer(client, made["code"], made["token"]) as ana:
            assert not [m for m in ana.drain(0.3) if m["type"] in ("events", "state")]
            start(client, made["code"], made["token"])
            ana.until(lambda m: m["type"] == "state" and ana.my_turn())
            assert ana.view is not None and ana.view["turn"] == 0 and ana.version >= 1


def test_every_error_code(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: set[str] = set()

    def expect(p: Peer, code: str) -> Message:
        m = p.error(code)
        assert isinstance(m["message"], str) and m["message"]
        seen.add(code)
        return m

    def http(response: Any, status: int, code: str) -> None:
        assert response.status_code == status, response.text
        body = response.json()
        Error.model_validate(body)
        assert body["code"] == code, body
        seen.add(code)

    with app_client(max_rooms=2) as client:
        # HTTP
        http(client.post("/api/rooms", content=b"{", headers={"Content-Type": "application/json"}), 400,
             "malformed")
        http(client.post("/api/rooms", json={"name": "x" * 25}), 400, "malformed")
        http(client.post("/api/rooms", json={"name": "Al", "players": 11}), 400, "malformed")
        http(client.post("/api/rooms", json={"name": "Al", "players": 3, "bots": [None]}), 400, "malformed")
        http(client.post("/api/rooms", json={"name": "Al", "bots": ["nobody"]}), 400, "malformed")
        http(client.post("/api/rooms", json={"name": "Al", "options": {"stacking": "yes"}}), 400, "malformed")
        http(client.post("/api/rooms", json={"name": "Al", "colour": "red"}), 400, "malformed")
        http(client.post("/api/rooms", json={"name": "Al", "options": {"hand_size": 15}, "players": 8}), 400,
             "malformed")
        http(client.post("/api/rooms", content=b'{"name": "' + b"x" * 5000 + b'"}',
                         headers={"Content-Type": "application/json"}), 413, "too_large")
        http(client.post("/api/rooms/ZZZZZZZZZZZZZZ/join", json={"name": "Al"}), 404, "not_found")
        http(client.get("/api/rooms/ZZZZZZZZZZZZZZ"), 404, "not_found")
        http(client.get("/api/nothing"), 404, "not_found")

        made = create(client, bots=[None, None], seed=5)
        code, token = made["code"], made["token"]
        http(client.post(f"/api/rooms/{code}/start", json={}), 401, "unauthorized")
        http(client.post(f"/api/rooms/{code}/start", json={}, headers={"Authorization": "Bearer nope"}), 401,
             "unauthorized")
        http(client.post(f"/api/rooms/{code}/join", json={"name": ""}), 400, "malformed")
        http(client.post(f"/api/rooms/{code}/join", json={"name": "Bo", "seat": 0}), 409, "illegal")
        http(client.get(f"/api/rooms/{code}/record"), 409, "illegal")

        # WebSocket
        with socket_to(client, "ZZZZZZZZZZZZZZ") as p:
            p.send(type="hello")
            expect(p, "not_found")
        with socket_to(client, code) as p:
            p.ws.send_text("not json")
            expect(p, "malformed")
            p.ws.send_text("[1, 2]")
            expect(p, "malformed")
            p.send(type="dance")
            expect(p, "malformed")
            p.send(type="act", action="draw", version=1)
            expect(p, "unauthorized")  # no hello yet
            p.ws.send_text(json.dumps({"type": "chat", "text": "x" * MAX_MESSAGE_BYTES}))
            expect(p, "too_large")
            p.send(type="hello", token="x" + token)
            expect(p, "unauthorized")
            p.send(type="hello", token=token, extra=1)
            expect(p, "malformed")
            p.send(type="hello")  # the connection stays usable: it watches
            assert p.until("room")["you"] is None
            p.send(type="hello")
            expect(p, "malformed")  # hello once
            p.send(type="chat", text="hello")
            expect(p, "unauthorized")  # a spectator

        bo = join(client, code, "Bo")
        with peer(client, code, token) as host, peer(client, code, bo["token"]) as guest:
            host.send(type="act", action="draw", version=0)
            expect(host, "illegal")  # the lobby
            host.send(type="act", action="draw")
            expect(host, "malformed")  # no version
            host.send(type="ready")
            expect(host, "illegal")
            host.send(type="rematch")
            expect(host, "illegal")
            host.send(type="kick", seat=10)
            expect(host, "malformed")  # no room has an eleventh seat
            host.send(type="kick", seat=9)
            expect(host, "illegal")  # nor this one a tenth
            host.send(type="kick", seat=2)
            expect(host, "illegal")  # an open seat: nobody to kick
            guest.send(type="chat", text="")
            expect(guest, "malformed")
            guest.send(type="chat", text="y" * (MAX_CHAT + 1))
            expect(guest, "malformed")
            guest.send(type="move", seat=0, to=1)
            expect(guest, "unauthorized")
            start(client, code, token)
            host.until("state")
            http(client.post(f"/api/rooms/{code}/start", json={},
                             headers={"Authorization": f"Bearer {token}"}), 409, "illegal")
            http(client.post(f"/api/rooms/{code}/join", json={"name": "Cy"}), 409, "illegal")  # no open seat
            guest.drain(0.3)
            host.drain(0.1)
            turn = host.view["turn"] if host.view else 0
            actor = host if turn == 0 else guest
            other = guest if actor is host else host
            if turn == 2:  # the bot on seat 2 plays first: wait for a person's turn
                host.until(lambda m: m["type"] == "state" and m["view"]["turn"] in (0, 1))
                actor = host if host.view and host.view["turn"] == 0 else guest
                other = guest if actor is host else host
                actor.drain(0.2)
            version = actor.version
            actor.send(type="act", action="R99", version=version)
            expect(actor, "illegal")
            actor.send(type="act", action="pass", version=version)  # passing before drawing
            expect(actor, "illegal")
            actor.send(type="act", action="draw", version=version - 1)
            expect(actor, "stale")
            again = actor.until("state")  # the current state follows
            assert again["version"] == version and actor.version == version
            other.send(type="chat", text="back")
            assert other.until("chat")["text"] == "back"

            # A change the database refuses: refused, and nothing changed.
            store = client.app.state.rooms.store  # type: ignore[attr-defined]

            def broken(*args: Any, **kwargs: Any) -> None:
                raise OSError("disk full")

            monkeypatch.setattr(store, "append_action", broken)
            actor.send(type="act", action="draw", version=version)
            expect(actor, "server_error")  # and no state: nothing was announced, nothing changed
            monkeypatch.undo()
            assert actor.version == version
            assert client.app.state.rooms.get(code).version == version  # type: ignore[attr-defined]
            actor.send(type="act", action="draw", version=version)
            assert actor.until("state")["version"] == version + 1

            # A flood (over 20 messages in a second): rate_limited, then the connection is closed (1008).
            for _ in range(25):
                other.send(type="chat", text="flood")
            expect(other, "rate_limited")
            other.until("_closed")
            assert other.closed == 1008

        # The last person leaves: the room closes.
        solo = create(client, bots=[None])
        with peer(client, solo["code"], solo["token"]) as p:
            p.send(type="leave")
            p.until("left")
        with socket_to(client, solo["code"]) as p:
            p.send(type="hello")
            assert "closed" in expect(p, "not_found")["message"]
        http(client.post(f"/api/rooms/{solo['code']}/join", json={"name": "Al"}), 410, "not_found")
        create(client)
        http(client.post("/api/rooms", json={"name": "Al"}), 503, "rate_limited")  # the server's most rooms

    with app_client(dev=False) as client:
        http(client.post("/api/rooms", json={"name": "Al", "seed": 1}), 400, "malformed")
        deal = {"hands": [["R1"], ["R2"]], "discard": "R3"}
        http(client.post("/api/rooms", json={"name": "Al", "deal": deal}), 400, "malformed")
        made = client.post("/api/rooms", json={"name": "Al"})
        assert made.status_code == 201  # without the dev-only fields

    assert seen == set(ERROR_CODES), sorted(set(ERROR_CODES) - seen)


def test_one_address_may_post_twenty_times_in_ten_seconds() -> None:
    with app_client(posts_per_10s=20) as client:
        for _ in range(20):
            create(client)
        refused = client.post("/api/rooms", json={"name": "Al"})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"


def test_rate_limit_per_address_on_joins_and_unknown_codes() -> None:
    with app_client(rate_limit=5) as client:
        made = create(client, bots=[None, None, None])
        code = made["code"]
        for _ in range(5):  # unknown codes: counted per address, over HTTP and the WebSocket alike
            assert client.get("/api/rooms/ZZZZZZZZZZZZZZ").status_code == 404
        refused = client.get(f"/api/rooms/{code}")  # past the limit even a known code is refused
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        with socket_to(client, code) as p:
            p.send(type="hello")
            p.error("rate_limited")
    with app_client(rate_limit=3) as client:
        made = create(client, bots=[None, None, None, None, None])
        code = made["code"]
        for _ in range(3):
            join(client, code, "Bo")
        refused = client.post(f"/api/rooms/{code}/join", json={"name": "Cy"})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        for _ in range(10):  # a hello that finds its seat is never limited (reloads, reconnections)
            with peer(client, code, made["token"]) as p:
                assert p.room is not None and p.room["you"] == 0
        for _ in range(3):  # wrong tokens are guesses
            with socket_to(client, code) as p:
                p.send(type="hello", token="guess")
                p.error("unauthorized")
        for token in ("guess", None):  # past them a wrong token, and a spectator, are refused
            with socket_to(client, code) as p:
                p.send(type="hello", **({} if token is None else {"token": token}))
                p.error("rate_limited")
        with peer(client, code, made["token"]) as p:  # the right token never pays for the guesses
            assert p.room is not None and p.room["you"] == 0
        started = client.post(f"/api/rooms/{code}/start", json={},
                              headers={"Authorization": f"Bearer {made['token']}"})
        assert started.status_code == 200, started.text
    with app_client(rate_limit=0) as client:  # 0: no limit (the load benchmark's)
        code = create(client)["code"]
        for _ in range(30):
            assert client.get("/api/rooms/ZZZZZZZZZZZZZZ").status_code == 404
        assert client.get(f"/api/rooms/{code}").status_code == 200


def test_the_words_for_events_are_served_once_for_every_client() -> None:
    """``GET /api/narration`` is the table the terminal tells with, fits its model, and is
    revalidated by its tag; ``GET /api/health`` says the protocol's version."""
    from unokit.core.events import EVENT_TYPES
    from unokit.text.events import narration_json

    with app_client() as client:
        health = client.get("/api/health").json()
        assert Health.model_validate(health).protocol == PROTOCOL_VERSION == 2
        first = client.get("/api/narration")
        assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
        table = Narration.model_validate_json(first.content)
        assert first.json() == json.loads(json.dumps(narration_json()))
        assert list(table.events) == [t.__name__ for t in EVENT_TYPES]
        assert table.rules.blocked_after == 200 and table.rules.partners["6"] == [[0, 3], [1, 4], [2, 5]]
        tag = first.headers["etag"]
        again = client.get("/api/narration", headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
        assert client.get("/api/narration", headers={"If-None-Match": '"other"'}).status_code == 200


def test_the_http_api() -> None:
    with app_client() as client:
        health = client.get("/api/health")
        assert health.status_code == 200 and health.json()["ok"] is True
        made = create(client, players=3, bots=[None, "random"], public=True, seed=2)
        code = made["code"]
        assert made["link"] == f"/r/{code}"
        listed = client.get("/api/rooms").json()["rooms"]
        assert [r["code"] for r in listed] == [code] and listed[0]["open_seats"] == 1
        create(client)  # not public
        assert len(client.get("/api/rooms").json()["rooms"]) == 1
        summary = client.get(f"/api/rooms/{code.lower()}").json()
        assert summary["status"] == "lobby" and summary["host_name"] == "Ana"
        defaults = client.post("/api/rooms", json={"name": "Di", "edition": "cars2", "players": 2,
                                                   "bots": ["strong"], "options": {}}).json()
        with peer(client, defaults["code"], defaults["token"]) as p:
            assert p.room is not None
            settings = p.room["settings"]
            assert settings["bot_delay"] == 1 and settings["between_rounds"] == 10
            assert settings["turn_timeout"] is None and settings["public"] is False
            assert settings["edition"] == "cars2" and p.room["seats"][1]["bot"] == "strong"


def test_safe_defaults_headers_origins_and_sizes() -> None:
    with app_client(allowed_origins=("https://friends.example",)) as client:
        code = create(client)["code"]
        page = client.get("/api/config")
        csp = page.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
        assert page.headers["x-content-type-options"] == "nosniff"
        assert page.headers["referrer-policy"] == "no-referrer"
        from starlette.websockets import WebSocketDisconnect

        with pytest.raises(WebSocketDisconnect), socket_to(client, code, origin="https://evil.example"):
            pass
        for origin in ("http://testserver", "https://friends.example"):
            with peer(client, code, origin=origin) as p:
                assert p.room is not None
        for path in ("/", f"/r/{code}"):
            r = client.get(path)
            assert r.status_code in (200, 503) and "content-security-policy" in r.headers


def test_the_config_lists_what_the_new_room_form_needs() -> None:
    with app_client() as client:
        page = client.get("/api/config")
        Config.model_validate_json(page.text)
        config = page.json()
        assert config["languages"] == ["en", "es", "pt", "fr", "el"]
        assert [e["name"] for e in config["editions"]] == ["classic", "cars2", "phineas-ferb"]
        assert config["options"]["stacking"]["choices"] == ["off", "progressive", "plus4_on_plus2"]
        assert config["options"]["seven_zero"] == {
            "type": "bool", "default": False, "group": "house",
            "label": "Seven-zero: a 7 swaps hands, a 0 passes them all on"}
        assert config["options"]["mode"]["choice_labels"]["partners"] == "Partners (4, 6, 8 or 10 players)"
        assert {"heuristic", "random", "strong"} <= set(config["bots"]) and config["dev"] is True
        assert config["defaults"]["bot_delay"] == 1 and config["defaults"]["between_rounds"] == 10
        assert config["protocol"] == PROTOCOL_VERSION
        assert (config["min_players"], config["max_players"]) == (2, 10)
        assert [e["special_name"] for e in config["editions"]] == [None, "Special Agent Mater", "Agent P"]
        assert config["limits"]["chat_history"] == CHAT_HISTORY


def test_the_config_offers_every_bot_with_its_name_and_measured_rating() -> None:
    """A seat's choices are the bots the server accepts, the levels first, and a level's
    rating is the one measured in the arena (``unokit.bots.LEVEL_ELO``)."""
    from unokit.bots import LEVEL_ELO, LEVELS, bot_names
    from unokit.text.i18n import BOT_LABELS

    with app_client() as client:
        choices = client.get("/api/config").json()["bot_choices"]
    names = [b["name"] for b in choices]
    assert sorted(names) == bot_names() and names[:len(LEVELS)] == list(LEVELS)
    assert {b["name"]: b["elo"] for b in choices if b["elo"] is not None} == LEVEL_ELO
    assert all(b["label"] == BOT_LABELS[b["name"]] for b in choices)


def test_room_codes_hold_at_least_64_random_bits() -> None:
    assert len(security.CODE_ALPHABET) ** security.CODE_LENGTH >= 2**64
    codes = {security.new_code() for _ in range(1000)}
    assert len(codes) == 1000 and all(len(c) == security.CODE_LENGTH for c in codes)


# ---------------------------------------------------------------------- timers, in process


def _stacked(**body: Any) -> dict[str, Any]:
    """A two-seat room whose first round ends in two moves of seat 0: R1!, the bot draws and
    passes, R2."""
    return {"bots": ["heuristic"], "bot_delay": 0, "seed": 1, **body,
            "deal": {"dealer": 1, "hands": [["R1", "R2"], ["B5", "B6"]], "discard": "R3",
                     "draw": ["B9", "G7", "Y8", "G8", "Y9"]}}


def _rooms(**options: Any) -> Rooms:
    return Rooms(Store("sqlite://"), ServerOptions(dev=True, **options))


def test_the_next_round_is_dealt_after_the_pause_between_rounds() -> None:
    async def run() -> None:
        rooms = _rooms()
        room, token = await make_room(rooms, **_stacked(between_rounds=0.2))
        await room.start(token)
        ana = await enter(rooms, room, token)
        version = ana.states()[-1]["version"]
        assert await request(rooms, ana, type="act", action="R1!", version=version) is None
        for _ in range(100):
            await asyncio.sleep(0.01)
            if ana.states()[-1]["view"]["turn"] == 0:
                break
        assert await request(rooms, ana, type="act", action="R2", version=ana.states()[-1]["version"]) is None
        over = ana.states()[-1]["view"]
        assert over["awaiting"] == "round_over" and over["legal"] == [] and over["turn"] is None
        await asyncio.sleep(0.1)
        assert ana.states()[-1]["view"]["awaiting"] == "round_over"  # the pause
        await asyncio.sleep(0.3)
        dealt = [e for m in ana.messages() if m["type"] == "events" for e in m["events"]
                 if e["type"] == "RoundStarted"]
        assert [e["round_no"] for e in dealt] == [0, 1]
        rooms.stop()

    asyncio.run(run())


def test_a_person_out_of_time_is_played_by_a_bot_until_they_act_again() -> None:
    async def run() -> None:
        rooms = _rooms()
        deal = {"dealer": 1, "hands": [["R1", "R2", "R3", "R4", "R5", "Y1", "Y2", "Y3", "Y4", "Y5"],
                                       ["B5", "B6", "B7", "B8", "B9", "G5", "G6", "G7", "G8", "G9"]],
                "discard": "R9", "draw": ["B1", "G1", "G2", "G3", "Y6", "Y7", "Y8", "Y9"]}
        settings = _stacked(turn_timeout=1, bot_delay=0.1, reaction=0)
        room, token = await make_room(rooms, **{**settings, "deal": deal})
        await room.start(token)
        ana = await enter(rooms, room, token)
        first = ana.states()[-1]
        assert first["view"]["turn"] == 0 and first["deadline"] is not None
        await asyncio.sleep(0.5)
        assert ana.states()[-1]["version"] == first["version"]  # still thinking
        await asyncio.sleep(0.8)
        moved = next(m for m in ana.messages()
                     if m["type"] == "events" and m["version"] == first["version"] + 1)
        assert moved["events"][0]["seat"] == 0  # the bot played for Ana
        assert room.room_message(None)["seats"][0]["away"] is True
        await asyncio.sleep(0.5)  # and goes on playing for her (reaction 0: at the bots' pace)
        assert ana.states()[-1]["version"] >= first["version"] + 3
        # She acts again (here on a view gone stale): no bot plays for her any more.
        assert await request(rooms, ana, type="act", action="draw", version=0) is None
        assert room.room_message(None)["seats"][0]["away"] is False
        await asyncio.sleep(0.3)
        view = ana.states()[-1]["view"]
        if view["awaiting"] not in ("round_over", "game_over"):
            assert view["turn"] == 0  # waiting for her
            assert ana.states()[-1]["deadline"] is not None
        rooms.stop()

    asyncio.run(run())


def test_a_disconnected_person_is_played_by_a_bot_after_a_grace() -> None:
    async def run() -> None:
        rooms = _rooms(grace=0.3)
        room, token = await make_room(rooms, players=3, bots=[None, "heuristic"], seed=4, bot_delay=0.01)
        bo_token = (await room.take_seat("Bo", None))[1]
        await room.start(token)
        ana = await enter(rooms, room, token)
        bo = await enter(rooms, room, bo_token)
        await asyncio.sleep(0.1)
        version = ana.states()[-1]["version"]
        await room.disconnect(bo)  # Bo's tab closed: his turns wait the grace, then a bot plays them
        for _ in range(200):
            await asyncio.sleep(0.02)
            view = ana.states()[-1]["view"]
            if view["turn"] == 0 and view["awaiting"] not in ("round_over", "game_over"):
                legal = [a for a in view["legal"] if not a.startswith(("catch", "uno"))]
                await request(rooms, ana, type="act", action=legal[0], version=ana.states()[-1]["version"])
            moves_by_bo = [e for m in ana.messages() if m["type"] == "events" and m["version"] > version
                           for e in m["events"] if e.get("seat") == 1 and e["type"] in ("Played", "Drew")]
            if moves_by_bo:
                break
        assert moves_by_bo, "nobody played for Bo"
        assert room.room_message(None)["seats"][1]["away"] is True
        bo2 = await enter(rooms, room, bo_token)  # back: his seat waits for him again
        assert room.room_message(None)["seats"][1]["away"] is False
        assert bo2.states()
        rooms.stop()

    asyncio.run(run())


def test_idle_rooms_are_closed_and_busy_ones_are_not() -> None:
    async def run() -> None:
        rooms = _rooms()
        left, token = await make_room(rooms, players=2)
        busy, busy_token = await make_room(rooms, players=2)
        ana = await enter(rooms, left, token)
        await enter(rooms, busy, busy_token)
        await left.disconnect(ana)
        assert await rooms.close_idle(0) == [left.code]
        assert left.code in rooms.closed and busy.code in rooms.rooms
        error = await request(rooms, Collect(left.code), type="hello")
        assert error is not None and error["code"] == "not_found" and "idle" in error["message"]
        rooms.stop()

    asyncio.run(run())


def test_a_finished_matchs_record_tells_nothing_of_the_next_match() -> None:
    from unokit.server.models import CreateRoom

    settings = parse_settings(CreateRoom(name="A", players=3), dev=False)
    first, second = settings.new_game(0), settings.new_game(1)
    assert settings.seed not in (first.seed, second.seed) and first.seed != second.seed
    given = parse_settings(CreateRoom(name="A", players=3, seed=42), dev=True)
    assert given.new_game(0).seed == 42 and given.new_game(1).seed != 42  # --dev: the seed as given


def test_a_connection_kind_defines_how_it_sends_and_the_package_keeps_nothing_for_tests() -> None:
    from unokit.server.seats import Client

    with pytest.raises(TypeError, match="abstract"):
        Client()  # type: ignore[abstract]

    class Quiet(Client):
        def send(self, text: str) -> None:
            pass

    assert not hasattr(Quiet(), "sent")  # what a connection was sent is the tests' to keep


def test_the_view_gives_the_seats_order_sides_and_next_seat() -> None:
    """A client places the seats and the sides from the view, as the engine reckons them."""
    from unokit import Game
    from unokit.core.options import Options
    from unokit.server.protocol import view_of

    game = Game.new("classic", 4, Options.from_mapping({"mode": "partners"}), 3)
    obs = game.observe(1)
    view = view_of(game, 1, [None] * 4)
    assert view["sides"] == [0, 1, 0, 1] and view["teams"] == 2
    assert view["order"] == list(obs.play_order()) and view["next"] == obs.next_seat(obs.turn)
    step = obs.direction
    assert view["around"] == [(1 + step * i) % 4 for i in (1, 2, 3)]
    assert view_of(game, None, [None] * 4)["around"] == [(step * i) % 4 for i in range(4)]
    three = Game.from_setup(hands=[["R1"], ["R2"], ["R3"]], discard="R4", draw=["Y1"], dealer=2)
    three.eliminated[1] = True
    seen = view_of(three, 2, [None] * 3)
    assert seen["order"] == [0, 2] and seen["next"] == 2
    assert seen["around"] == [0, 1] and seen["sides"] == [0, 1, 2]
