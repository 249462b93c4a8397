"""What the tests of several server processes need: a fresh PostgreSQL database per test
(created and dropped), and a TCP proxy that can be cut.

PostgreSQL is found at ``UNOKIT_TEST_POSTGRES`` (an administrator's URL; by default
``postgresql://postgres@127.0.0.1:5432/postgres``). Without one the tests skip and say how to
run them; with ``UNOKIT_REQUIRE_SERVICES=1`` (``.ci/run`` sets it) they fail instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import uuid
from collections.abc import Iterator

import pytest

ADMIN_URL = os.environ.get("UNOKIT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
HOW = ("these tests need PostgreSQL: run one on 127.0.0.1:5432 with user postgres and trust "
       "authentication, or set UNOKIT_TEST_POSTGRES=postgresql://USER@HOST:PORT/postgres "
       "(a user that may create databases); .ci/run requires it (UNOKIT_REQUIRE_SERVICES=1)")


def _unavailable(why: str) -> None:
    if os.environ.get("UNOKIT_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{why}; {HOW}")
    pytest.skip(f"{why}; {HOW}")


def url_with_database(url: str, database: str) -> str:
    """``url`` naming another database."""
    base, _, _ = url.rpartition("/")
    return f"{base}/{database}"


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test (its URL); dropped afterwards."""
    try:
        import psycopg
    except ImportError:
        _unavailable("psycopg is not installed (pip install '.[web]' in a clone)")
        raise
    try:
        admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=3)
    except psycopg.Error as exc:
        _unavailable(f"no PostgreSQL at {ADMIN_URL} ({str(exc).strip().splitlines()[0]})")
        raise
    name = f"unokit_test_{uuid.uuid4().hex[:12]}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield url_with_database(ADMIN_URL, name)
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The URL of a fresh PostgreSQL database."""
    with postgres_database() as url:
        yield url


class TcpProxy:
    """A TCP proxy on 127.0.0.1 (in a thread of its own) to the first of its ``targets`` that
    answers. :meth:`cut` drops every connection and refuses new ones until :meth:`restore`."""

    def __init__(self, targets: list[tuple[str, int]]) -> None:
        self.targets = list(targets)
        self.cutting = False
        self.loop = asyncio.new_event_loop()
        self._writers: set[asyncio.StreamWriter] = set()
        self._ready = threading.Event()
        self.port = 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self._ready.wait(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        self.loop.run_forever()
        server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.cutting:
            writer.transport.abort()
            return
        upstream = None
        for host, port in list(self.targets):
            try:
                upstream = await asyncio.open_connection(host, port)
                break
            except OSError:
                continue
        if upstream is None:
            writer.transport.abort()
            return
        up_reader, up_writer = upstream
        self._writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.IncompleteReadError):
                pass
            finally:
                dst.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self._writers -= {writer, up_writer}

    def _abort_all(self) -> None:
        for w in list(self._writers):
            w.transport.abort()
        self._writers.clear()

    def cut(self) -> None:
        """Drop every connection now and refuse new ones (a network cut that peers notice)."""
        self.cutting = True
        self.loop.call_soon_threadsafe(self._abort_all)

    def restore(self) -> None:
        """Accept connections again."""
        self.cutting = False

    def __enter__(self) -> TcpProxy:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self.cut()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
