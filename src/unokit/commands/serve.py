"""``unokit serve``: play UNO in the browser, with friends and bots (``docs/protocol.md``).

It needs the ``web`` extra (``pip install '.[web]'`` in a clone of unokit): FastAPI, uvicorn, SQLAlchemy,
Alembic, platformdirs and psycopg. The rooms live in a database (``--database``, an
SQLite or a PostgreSQL URL; by default an SQLite file in the user data folder), so a restarted server
resumes them. On PostgreSQL any number of processes serve the same rooms: ``--workers N``
here, or several ``unokit serve`` behind a load balancer (``docs/deploy.md``).
"""

from __future__ import annotations

import argparse
import dataclasses
import ipaddress
import json
import os
import socket
import threading
import webbrowser
from typing import Any, Final

from ..core.errors import OptionError, UnoError

NAME = "serve"
HELP = "serve games in the browser: rooms for friends and bots"

TRUSTED_NOTE = ("note: anyone on your network can open this link. unokit serve has no accounts and no\n"
                "encryption (plain HTTP): serve it on a network you trust, such as your home's\n"
                "(for TLS, put it behind a reverse proxy).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1, this computer only; "
                             "0.0.0.0: every device of the network)")
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free port)")
    parser.add_argument("--database", metavar="URL", default=None,
                        help="where rooms are kept: an SQLite or a PostgreSQL URL such as sqlite:///rooms.db "
                             "or postgresql://user@host/db (default: unokit.db in the user data folder)")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="serve with N processes on one port (PostgreSQL only; default 1)")
    parser.add_argument("--open", action="store_true", help="open the link in a web browser")
    parser.add_argument("--dev", action="store_true",
                        help="development mode: rooms may be seeded or stacked, and /api/dev shows "
                             "hidden cards (never on a network others use)")
    parser.add_argument("--allow-origin", metavar="ORIGIN", action="append", default=[],
                        help="another web origin whose pages may connect (repeatable), "
                             "e.g. https://uno.example.org")
    parser.add_argument("--max-rooms", type=int, default=1000, metavar="N",
                        help="the most rooms open at once (default 1000)")
    parser.add_argument("--idle-hours", type=float, default=24.0, metavar="H",
                        help="close a room nobody has been in, and where nothing happened, for H hours "
                             "(default 24)")
    parser.add_argument("--grace", type=float, default=20.0, metavar="S",
                        help="seconds a disconnected person's turn, or a host gone before the start, "
                             "waits for them to come back (default 20)")
    parser.add_argument("--rate-limit", type=int, default=20, metavar="N",
                        help="per client address, in any ten seconds: at most N POSTs, N joins and "
                             "N guesses (unknown room codes, wrong tokens) (default 20; 0: no limit, "
                             "for load tests only)")
    parser.add_argument("--allowed-host", metavar="HOST", action="append", default=[],
                        help="another Host name the server answers for (repeatable), e.g. the public "
                             "name behind a proxy: uno.example.org (always: localhost, 127.0.0.1, ::1 "
                             "and the addresses printed at start)")
    parser.add_argument("--forwarded-allow-ips", metavar="ADDRESSES", default="",
                        help="the proxies (comma-separated addresses or networks, e.g. 127.0.0.1 or "
                             "10.0.0.0/8) whose X-Forwarded-For header names the client; from any other "
                             "peer it is ignored (default: none)")
    _add_limits(parser)
    parser.add_argument("--log-level", default="info",
                        choices=["critical", "error", "warning", "info", "debug"],
                        help="how much the server logs (default info)")


LIMITS: Final = (
    # (flag, ServerOptions field, type, default, help)
    ("--rooms-per-address", "rooms_per_address", int, 20,
     "open rooms one client address may have made, counted over every process (default 20; 0: no limit)"),
    ("--unjoined-minutes", "unjoined_minutes", float, 10.0,
     "close a room nobody has connected to this many minutes after its making (default 10)"),
    ("--sockets-per-address", "sockets_per_address", int, 60,
     "WebSockets open at once from one client address, per process (default 60; 0: no limit)"),
    ("--sockets-per-room", "sockets_per_room", int, 40,
     "connections to one room, per process (default 40; 0: no limit)"),
    ("--spectators-per-room", "spectators_per_room", int, 20,
     "spectators' connections to one room, per process (default 20; 0: no limit)"),
    ("--chat-per-seat", "chat_per_seat", int, 5,
     "chat lines a seat may send in any second, over its connections to a process (default 5; 0: no limit)"),
    ("--chat-per-address", "chat_per_address", int, 10,
     "chat lines one client address may send in any second, per process (default 10; 0: no limit)"),
    ("--refused-acts", "refused_acts", int, 5,
     "refused or stale actions a connection may send in any second before it is closed "
     "(default 5; 0: no limit)"),
    ("--presence-every", "presence_every", float, 1.0,
     "seconds between two presence updates (room messages) sent to a connection (default 1)"),
    ("--pings-per-second", "pings_per_second", int, 5,
     "WebSocket pings a connection may send in any second before it is closed "
     "(default 5; 0: no limit)"),
    ("--hello-timeout", "hello_timeout", float, 10.0,
     "seconds a WebSocket has to say hello before it is closed (default 10)"),
    ("--header-timeout", "header_timeout", float, 10.0,
     "seconds an HTTP request has for its headers before its connection is closed (default 10)"),
    ("--body-timeout", "body_timeout", float, 30.0,
     "seconds an HTTP request has for its body, after its headers (default 30)"),
)
"""The limits against one client crowding out the others (``docs/deploy.md``)."""


def _add_limits(parser: argparse.ArgumentParser) -> None:
    """Register the flags of :data:`LIMITS`."""
    for flag, field, kind, default, text in LIMITS:
        metavar = "N" if kind is int else "M" if field.endswith("minutes") else "S"
        parser.add_argument(flag, type=kind, default=default, metavar=metavar, help=text)


def _limits(args: argparse.Namespace) -> dict[str, Any]:
    """The :data:`LIMITS` given, as ``ServerOptions`` fields; refuses a negative or an infinite
    one, and a timeout of 0."""
    chosen = {}
    for flag, field, kind, _, _ in LIMITS:
        value = getattr(args, field)
        if not 0 <= value < float("inf") or (kind is float and value == 0):
            raise OptionError(f"{flag} must be a finite number {'above' if kind is float else 'of at least'} "
                              f"0, not {value}")
        chosen[field] = value
    return chosen


def lan_address() -> str | None:
    """This computer's address on its local network (no packet is sent), or ``None``."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address: str = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def links(host: str, port: int) -> list[str]:
    """The lines ``unokit serve`` prints: the link to open, and on every interface the LAN's."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    lines = [f"unokit: serving on http://{shown}:{port}/ (open this link in a browser; Ctrl+C stops)"]
    if host in ("0.0.0.0", "", "::"):
        lan = lan_address()
        if lan is not None:
            lines.append(f"unokit: on your local network: http://{lan}:{port}/")
        lines.append(TRUSTED_NOTE)
    return lines


def served_hosts(host: str, extra: list[str]) -> tuple[str, ...]:
    """The ``Host`` names the server answers for besides the loopback ones: ``extra``
    (``--allowed-host``) and the addresses of :func:`links` (the one it listens on, or on every
    interface the LAN's)."""
    hosts = [h.strip().lower() for h in extra if h.strip()]
    if host in ("0.0.0.0", "", "::"):
        lan = lan_address()
        if lan is not None:
            hosts.append(lan)
    else:
        hosts.append(host.strip("[]").lower())
    return tuple(hosts)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    try:
        import uvicorn

        from ..server.app import create_app
        from ..server.protocol import MAX_FRAME_BYTES
        from ..server.rooms import ServerOptions
        from ..server.security import keep_secrets_out_of_logs
        from ..server.store import Store, default_database, is_postgresql
        from ..server.transport import LimitedWebSocket, TimedHttp
    except ImportError as exc:
        raise UnoError(f"unokit serve needs the web extra ({exc}); install it with: "
                       "pip install '.[web]' in a clone of unokit") from None
    _check_numbers(args)
    url = args.database or default_database()
    if args.workers > 1 and not is_postgresql(url):
        raise OptionError(f"--workers {args.workers} needs a PostgreSQL --database (postgresql://...): "
                          "an SQLite database is served by one process")
    try:
        store = Store(url)  # checks the database, and migrates it, before any worker starts
    except Exception as exc:  # a bad URL, a missing driver, a database that cannot be opened
        why = " ".join(str(getattr(exc, "orig", None) or exc).split())  # the driver's words, one line
        raise UnoError(f"--database: cannot open {_safe_url(url)}: {why}") from None
    options = ServerOptions(dev=args.dev, max_rooms=args.max_rooms, allowed_origins=tuple(args.allow_origin),
                            idle_hours=args.idle_hours, grace=args.grace, posts_per_10s=args.rate_limit,
                            rate_limit=args.rate_limit,
                            allowed_hosts=served_hosts(args.host, args.allowed_host),
                            forwarded_allow_ips=tuple(a.strip() for a in args.forwarded_allow_ips.split(",")
                                                      if a.strip()),
                            **_limits(args))
    sock = _listen(args.host, args.port)
    port = sock.getsockname()[1]
    settings: dict[str, Any] = {"log_level": args.log_level, "ws_max_size": MAX_FRAME_BYTES,
                                "server_header": False, "proxy_headers": False, "lifespan": "on",
                                "h11_max_incomplete_event_size": 16 * 1024, "http": TimedHttp,
                                "ws": LimitedWebSocket}
    if args.workers > 1:
        store.close()  # each worker opens its own
        os.environ[WORKER_SETTINGS] = json.dumps({"database": url, "options": dataclasses.asdict(options)})
        config = uvicorn.Config("unokit.commands.serve:worker_app", factory=True, workers=args.workers,
                                **settings)
    else:
        config = uvicorn.Config(create_app(store, options), **settings)
    server = uvicorn.Server(config)
    keep_secrets_out_of_logs()  # after the config has set the loggers up (and again at startup)
    _announce(args, port)
    try:
        if args.workers > 1:
            from uvicorn.supervisors import Multiprocess

            print(f"unokit: {args.workers} worker processes (a dead one is replaced)", flush=True)
            Multiprocess(config, sockets=[sock]).run()
        else:
            server.run(sockets=[sock])
    finally:
        sock.close()
        store.close()
    return 0


def _check_numbers(args: argparse.Namespace) -> None:
    """Refuse a port, a number of rooms, a rate, an idle time, a grace or a number of workers out
    of range, and a proxy that is no address or network."""
    if not 0 <= args.port <= 65535:
        raise OptionError(f"--port must be 0 to 65535, not {args.port}")
    if args.max_rooms < 1:
        raise OptionError(f"--max-rooms must be at least 1, not {args.max_rooms}")
    if args.rate_limit < 0:
        raise OptionError(f"--rate-limit must be 0 (no limit) or more, not {args.rate_limit}")
    if not args.idle_hours > 0 or args.idle_hours == float("inf"):
        raise OptionError(f"--idle-hours must be a finite number above 0, not {args.idle_hours}")
    if args.workers < 1:
        raise OptionError(f"--workers must be at least 1, not {args.workers}")
    for proxy in args.forwarded_allow_ips.split(","):
        try:
            ipaddress.ip_network(proxy.strip(), strict=False) if proxy.strip() else None
        except ValueError:
            raise OptionError(f"--forwarded-allow-ips: {proxy.strip()!r} is not an address or a network "
                              "(such as 127.0.0.1 or 10.0.0.0/8)") from None
    if not 0 <= args.grace <= 3600:
        raise OptionError(f"--grace must be 0 to 3600 seconds, not {args.grace}")


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, which the workers' processes inherit."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UnoError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _announce(args: argparse.Namespace, port: int) -> None:
    """Print the links (and the development mode's warning), and open the link with ``--open``."""
    for line in links(args.host, port):
        print(line, flush=True)
    if args.dev:
        print("unokit: development mode (--dev): hidden cards can be read at /api/dev", flush=True)
    if args.open:
        shown = "127.0.0.1" if args.host in ("0.0.0.0", "", "::") else args.host
        _open_later(f"http://{shown}:{port}/")


WORKER_SETTINGS = "UNOKIT_SERVE_WORKER"
"""The environment variable that passes ``--workers``' processes their database and options."""


def worker_app() -> Any:
    """The application of one ``--workers`` process (uvicorn calls it in each)."""
    from ..server.app import create_app
    from ..server.rooms import ServerOptions
    from ..server.store import Store

    settings = json.loads(os.environ[WORKER_SETTINGS])
    options = settings["options"]
    for name in ("allowed_origins", "allowed_hosts", "forwarded_allow_ips"):
        options[name] = tuple(options[name])
    return create_app(Store(settings["database"]), ServerOptions(**options))


def _open_later(url: str) -> None:
    """Open ``url`` in a browser once the server has had a moment to start."""
    timer = threading.Timer(0.8, lambda: webbrowser.open(url))
    timer.daemon = True
    timer.start()


def _safe_url(url: str) -> str:
    """A database URL without its password, for messages."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "the database"

