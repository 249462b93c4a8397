"""``unokit serve``'s command line: its options, the links it prints (the LAN's too, with the
note on plain HTTP, when it listens on every interface), and its refusals."""

from __future__ import annotations

import subprocess
import sys

import pytest

from unokit.commands import serve

pytest.importorskip("fastapi")


def test_the_link_to_open() -> None:
    (line,) = serve.links("127.0.0.1", 8000)
    assert "http://127.0.0.1:8000/" in line


def test_every_interface_prints_the_lan_link_and_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "lan_address", lambda: "192.168.1.20")
    lines = serve.links("0.0.0.0", 8000)
    assert "http://127.0.0.1:8000/" in lines[0]
    assert "http://192.168.1.20:8000/" in lines[1]
    note = "\n".join(lines[2:])
    assert "network you trust" in note and "plain HTTP" in note and "reverse proxy" in note
    monkeypatch.setattr(serve, "lan_address", lambda: None)
    assert serve.TRUSTED_NOTE in serve.links("0.0.0.0", 8000)


def test_the_options() -> None:
    out = subprocess.run([sys.executable, "-m", "unokit", "serve", "--help"], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    for option in ("--host", "--port", "--database", "--workers", "--open", "--dev", "--allow-origin",
                   "--max-rooms", "--idle-hours", "--rate-limit", "--allowed-host", "--forwarded-allow-ips"):
        assert option in out
    assert "127.0.0.1" in out and "8000" in out


def test_a_port_out_of_range_is_refused() -> None:
    done = subprocess.run([sys.executable, "-m", "unokit", "serve", "--port", "70000", "--database", "sqlite://"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "--port" in done.stderr


@pytest.mark.parametrize(("args", "said"), [
    (["--database", "postgresql://ana:secret@127.0.0.1:1/rooms"],
     "--database: cannot open postgresql://ana:***@127.0.0.1:1/rooms: connection failed"),
    (["--database", "sqlite:////no/such/folder/rooms.db"], "unable to open database file"),
    (["--database", "mysql://ana:secret@127.0.0.1/rooms"],
     "rooms are kept in SQLite (sqlite:///rooms.db) or PostgreSQL (postgresql://"),
    (["--workers", "0"], "--workers must be at least 1, not 0"),
    (["--forwarded-allow-ips", "127.0.0.1,proxy.internal"],
     "--forwarded-allow-ips: 'proxy.internal' is not an address or a network"),
    (["--workers", "2", "--database", "sqlite:////tmp/rooms.db"],
     "--workers 2 needs a PostgreSQL --database"),
])
def test_a_database_it_cannot_use_is_one_clear_line(args: list[str], said: str) -> None:
    done = subprocess.run([sys.executable, "-m", "unokit", "serve", "--port", "0", *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert said in done.stderr and "Traceback" not in done.stderr
    assert "secret" not in done.stderr + done.stdout  # never the password
    assert len(done.stderr.strip().splitlines()) == 1
