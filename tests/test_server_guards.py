"""The web server against a visitor who means harm, on real ``unokit serve`` processes: wrong
guesses limited per address while right tokens pass, the proxy's forwarded address trusted
from the listed proxies only, cross-site and foreign-Host requests refused, every failure
answered with the JSON error, and nothing secret or noisy in the log. Loopback addresses other
than 127.0.0.1 (127.0.0.2, ...) are distinct clients: each request binds its source address."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services import ADMIN_URL, postgres_database
from test_server_support import Served, app_client, create, free_port, http_from

pytest.importorskip("httpx")
pytest.importorskip("websockets")

LIMIT = 5
"""The server's ``--rate-limit`` here: guesses (and POSTs) per address in ten seconds."""
PROXY = "127.0.0.4"
"""The one proxy the server trusts (``--forwarded-allow-ips``)."""
PUBLIC = "uno.example.org"
"""The public name the server answers for besides its own (``--allowed-host``)."""
MISSING = "/api/rooms/ZZZZZZZZZZZZZZ"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    tmp = tmp_path_factory.mktemp("guards")
    server = Served(tmp, f"sqlite:///{tmp / 'rooms.db'}", free_port(), "--rate-limit", str(LIMIT),
                    "--forwarded-allow-ips", PROXY, "--allowed-host", PUBLIC, "--log-level", "info")
    try:
        yield server
    finally:
        server.stop()


def hello_from(source: str, port: int, code: str, token: str | None = None, **headers: str) -> Any:
    """A WebSocket from ``source`` says ``hello`` (at a seat with ``token``); the first answer
    but the chat and presence messages."""
    from websockets.asyncio.client import connect

    async def run() -> Any:
        sock = socket.socket()
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
        async with connect(f"ws://127.0.0.1:{port}/ws/{code}", sock=sock, open_timeout=20,
                           additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "hello", **({} if token is None else {"token": token})}))
            async with asyncio.timeout(20):
                return json.loads(await ws.recv())
    return asyncio.run(run())


def made_room(served: Served, source: str) -> dict[str, Any]:
    with http_from(source) as http:
        r = http.post(served.base + "/api/rooms", json={"name": "Ana", "bots": [None]})
        assert r.status_code == 201, r.text
        made: dict[str, Any] = r.json()
        return made


def is_json_error(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    assert r.json()["type"] == "error" and r.json()["code"] == code, r.text
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"


def wait_for_log(served: Served, text: str, timeout: float = 30.0) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        log = served.log()
        if text in log:
            return log
        time.sleep(0.2)
    raise AssertionError(f"{text!r} not in the log:\n{served.log()}")


def test_wrong_guesses_are_limited_per_address_and_right_tokens_never_pay_for_them(served: Served) -> None:
    made = made_room(served, "127.0.0.10")
    code = made["code"]
    with http_from("127.0.0.2") as guesser, http_from("127.0.0.3") as other:
        for _ in range(LIMIT):
            is_json_error(guesser.get(served.base + MISSING), 404, "not_found")
        is_json_error(guesser.get(f"{served.base}/api/rooms/{code}"), 429, "rate_limited")
        assert hello_from("127.0.0.2", served.port, code, "wrong")["code"] == "rate_limited"
        assert hello_from("127.0.0.2", served.port, code)["code"] == "rate_limited"  # a spectator
        assert other.get(f"{served.base}/api/rooms/{code}").status_code == 200  # another client
        # The seat's token and the host's token pass all the same, from the guessing address.
        room = hello_from("127.0.0.2", served.port, code, made["token"])
        assert room["type"] == "room" and room["you"] == 0
        started = guesser.post(f"{served.base}/api/rooms/{code}/start", json={},
                               headers={"Authorization": f"Bearer {made['token']}"})
        assert started.status_code == 200, started.text


def test_the_forwarded_address_is_read_from_the_listed_proxy_only(served: Served) -> None:
    code = made_room(served, "127.0.0.11")["code"]
    with http_from("127.0.0.5") as spoofer, http_from(PROXY) as proxy:
        for i in range(LIMIT):  # each guess claims another address: ignored, they are 127.0.0.5's
            r = spoofer.get(served.base + MISSING, headers={"X-Forwarded-For": f"10.0.0.{i}"})
            assert r.status_code == 404
        r = spoofer.get(f"{served.base}/api/rooms/{code}", headers={"X-Forwarded-For": "10.0.0.99"})
        is_json_error(r, 429, "rate_limited")
        for _ in range(LIMIT):  # through the proxy: the guesses are its client's
            r = proxy.get(served.base + MISSING, headers={"X-Forwarded-For": "10.1.1.1"})
            assert r.status_code == 404
        r = proxy.get(f"{served.base}/api/rooms/{code}", headers={"X-Forwarded-For": "10.1.1.1"})
        is_json_error(r, 429, "rate_limited")
        r = proxy.get(f"{served.base}/api/rooms/{code}", headers={"X-Forwarded-For": "10.1.1.2"})
        assert r.status_code == 200, r.text
        room = hello_from(PROXY, served.port, code, None, **{"X-Forwarded-For": "10.1.1.1"})
        assert room["code"] == "rate_limited"  # the WebSocket takes the address from the proxy too
    log = wait_for_log(served, '10.1.1.2:0 - "GET /api/rooms/')
    assert "10.0.0.99" not in log


def test_a_cross_site_post_and_a_body_that_is_not_json_are_refused(served: Served) -> None:
    with http_from("127.0.0.6") as http:
        body = json.dumps({"name": "Ana"})
        r = http.post(served.base + "/api/rooms", content=body,
                      headers={"Content-Type": "application/json", "Origin": "https://evil.example"})
        is_json_error(r, 403, "unauthorized")
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
            r = http.post(served.base + "/api/rooms", content=body, headers={"Content-Type": kind})
            is_json_error(r, 415, "malformed")
        is_json_error(http.post(served.base + "/api/rooms", content=body), 415, "malformed")
        r = http.post(served.base + "/api/rooms", content=body, headers={
            "Content-Type": "application/json; charset=utf-8", "Origin": served.base})
        assert r.status_code == 201, r.text


def test_a_foreign_host_is_refused_and_the_listed_ones_are_served(served: Served) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    with http_from("127.0.0.7") as http:
        r = http.get(served.base + "/api/config", headers={"Host": "evil.example"})
        is_json_error(r, 400, "malformed")
        is_json_error(http.get(served.base + "/", headers={"Host": "evil.example:8000"}), 400, "malformed")
        for host in (PUBLIC, f"localhost:{served.port}", f"127.0.0.1:{served.port}"):
            assert http.get(served.base + "/api/config", headers={"Host": host}).status_code == 200
        code = create_over(http, served)

    async def foreign() -> None:
        async with connect(f"ws://127.0.0.1:{served.port}/ws/{code}", open_timeout=20,
                           additional_headers={"Host": "evil.example"}):
            pass

    with pytest.raises(InvalidStatus) as refused:
        asyncio.run(foreign())
    assert refused.value.response.status_code == 403


def create_over(http: Any, served: Served) -> str:
    r = http.post(served.base + "/api/rooms", json={"name": "Ana"})
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    return code


def test_405_says_what_is_allowed_and_the_openapi_document_is_served(served: Served) -> None:
    with http_from("127.0.0.8") as http:
        r = http.get(served.base + "/api/rooms/ZZZZ/join")
        is_json_error(r, 405, "malformed")
        assert r.headers["allow"] == "POST"
        r = http.get(served.base + "/openapi.json")
        assert r.status_code == 200 and "content-security-policy" in r.headers
        document = r.json()
        assert {"/api/rooms", "/api/rooms/{code}/join", "/api/rooms/{code}/start", "/api/config"} <= set(
            document["paths"])
        body = document["paths"]["/api/rooms"]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert body["properties"]["name"]["minLength"] == 1 and body["properties"]["name"]["maxLength"] == 24
        assert http.get(served.base + "/docs").status_code == 404  # no Swagger UI page


def test_secrets_in_a_query_string_stay_out_of_the_access_log(served: Served) -> None:
    secret = "s3cr3t-" + base64.urlsafe_b64encode(os.urandom(12)).decode()
    with http_from("127.0.0.9") as http:
        code = made_room(served, "127.0.0.9")["code"]
        http.get(f"{served.base}/api/rooms/{code}?token={secret}&x=1")
        hello_from("127.0.0.9", served.port, f"{code}?access_token={secret}")
    log = wait_for_log(served, f'"GET /api/rooms/{code}?token=…&x=1')
    wait_for_log(served, f"/ws/{code}?access_token=…")
    assert secret not in served.log()
    assert "Traceback" not in log


def test_a_client_that_breaks_off_or_sends_bad_utf8_costs_one_warning_line(served: Served) -> None:
    with socket.create_connection(("127.0.0.1", served.port)) as half:
        half.sendall(f"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\"".encode())
        time.sleep(0.3)
    wait_for_log(served, "POST /api/rooms: the client went away before its request was whole")
    code = made_room(served, "127.0.0.12")["code"]
    with socket.create_connection(("127.0.0.1", served.port)) as raw:
        key = base64.b64encode(os.urandom(16)).decode()
        raw.sendall(f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nUpgrade: websocket\r\n"
                    f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                    .encode())
        raw.settimeout(20)
        assert raw.recv(4096).startswith(b"HTTP/1.1 101")
        payload, mask = b"\xff\xfe\xfd", b"\x01\x02\x03\x04"
        raw.sendall(bytes([0x81, 0x80 | len(payload)]) + mask
                    + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        closing = raw.recv(4096)
        assert closing[:1] == b"\x88" and int.from_bytes(closing[2:4], "big") == 1007  # invalid data
    log = wait_for_log(served, "WARNING:  Invalid UTF-8 sequence received from client.")
    assert "Traceback" not in log and "UnicodeDecodeError" not in log


def test_a_database_outage_is_answered_with_the_json_error(tmp_path: Path) -> None:
    psycopg = pytest.importorskip("psycopg")
    with postgres_database() as url:
        server = Served(tmp_path, url, free_port(), "--rate-limit", "0")
        try:
            with http_from("127.0.0.1") as http:
                create_over(http, server)
                with psycopg.connect(ADMIN_URL, autocommit=True) as admin:  # the database goes, for real
                    admin.execute(f'DROP DATABASE "{url.rpartition("/")[2]}" WITH (FORCE)')
                r = http.post(server.base + "/api/rooms", json={"name": "Ana"})
                is_json_error(r, 500, "server_error")
                assert "database" in r.json()["message"]
        finally:
            server.stop()


@pytest.mark.parametrize("name", ["\u3164", "\u2800", "\u3164\u2800", " \u200b ", "\u200d\u2060", "\u0301",
                                  "\uffa0\u115f"])
def test_a_name_that_shows_nothing_is_refused(name: str) -> None:
    with app_client() as client:
        r = client.post("/api/rooms", json={"name": name})
        assert r.status_code == 400 and r.json()["code"] == "malformed", r.text
        code = create(client)["code"]
        r = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert r.status_code == 400 and r.json()["code"] == "malformed", r.text


def test_names_are_kept_in_nfc_and_the_schema_holds_their_length() -> None:
    with app_client() as client:
        made = create(client, "Rene\u0301e", bots=[None])
        joined = client.post(f"/api/rooms/{made['code']}/join", json={"name": "Zoe\u0308"}).json()
        seats = client.get(f"/api/rooms/{made['code']}").json()["seats"]
        assert [s["name"] for s in seats] == ["Ren\u00e9e", "Zo\u00eb"] and joined["seat"] == 1
        assert unicodedata.is_normalized("NFC", seats[0]["name"])
        r = client.post("/api/rooms", json={"name": "x" * 25})
        assert r.status_code == 400 and r.json()["code"] == "malformed"


def test_schemathesis_finds_no_server_error_through_the_served_openapi_document(tmp_path: Path) -> None:
    """Requests made from ``/openapi.json`` (10 a route, no shrinking): none is answered with a
    5xx, whatever the body, path or query."""
    schemathesis = pytest.importorskip("schemathesis")
    from hypothesis import HealthCheck, Phase, given, settings
    from schemathesis.checks import not_a_server_error

    server = Served(tmp_path, f"sqlite:///{tmp_path / 'rooms.db'}", free_port(), "--rate-limit", "0",
                    "--log-level", "warning")
    try:
        schema = schemathesis.openapi.from_url(server.base + "/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]
        assert {(op.method, op.path) for op in operations} >= {("post", "/api/rooms"), ("get", "/api/config")}
        for op in operations:
            @given(case=op.as_strategy())
            @settings(max_examples=10, deadline=None, phases=[Phase.explicit, Phase.generate], database=None,
                      suppress_health_check=list(HealthCheck))
            def no_server_error(case: Any) -> None:
                response = case.call(base_url=server.base, timeout=30)
                case.validate_response(response, checks=[not_a_server_error])

            no_server_error()
    finally:
        server.stop()
    assert "Traceback" not in server.log()


def test_the_hosts_served_are_the_printed_addresses_and_the_allowed_ones() -> None:
    from unokit.commands.serve import lan_address, links, served_hosts
    from unokit.server.security import host_allowed

    assert served_hosts("127.0.0.1", []) == ("127.0.0.1",)
    hosts = served_hosts("192.168.1.5", ["Uno.Example.org"])
    assert hosts == ("uno.example.org", "192.168.1.5")
    assert host_allowed("192.168.1.5:8000", hosts) and host_allowed("UNO.example.org", hosts)
    assert not host_allowed("192.168.1.6:8000", hosts) and not host_allowed(None, hosts)
    everywhere = served_hosts("0.0.0.0", [])
    lan = lan_address()
    assert everywhere == (() if lan is None else (lan,))
    printed = " ".join(links("0.0.0.0", 8000))
    assert all(f"http://{h}:8000/" in printed for h in everywhere)
