"""Load test of ``unokit serve``: N concurrent WebSocket clients on loopback.

It starts a server (``unokit serve`` without the limits per address, :data:`UNLIMITED`, on a
fresh SQLite database, unless ``--url`` names one already running), makes ``--tables`` rooms of
``--seats`` client seats (plus ``--bots`` server bots each), connects one WebSocket client per
seat over ``--ramp`` seconds, lets them play (each person acts on their turn after a think time drawn from an
exponential law of mean ``--think`` seconds; 0: at once, for the ceiling), measures for
``--duration`` seconds, then stops by itself (every wait is bounded).

It reports: actions/s; the latency from sending ``act`` to the acting client receiving the
``state`` of that version (p50/p95/p99/max), and until the table's last seat has it; errors
(every ``error`` message but ``stale``, every connection lost); stale refusals (a race with a
bot's or another seat's out-of-turn action: not an error); lost actions (an ``act`` neither
answered by its state nor refused within 10 s of the end); the server's CPU and memory (from ``/proc``)
and the load generator's CPU.

Configuration of record: ``--tables 250 --seats 4 --think 1 --ramp 10 --duration 60``, (a) on
SQLite with one process, (b) on PostgreSQL with two (``--database postgresql://... --processes
2``: the benchmark makes a fresh database on that server, drops it at the end, starts the
processes on ports of their own, and connects the seats of every table to the processes in
turn, so that each table is played across both). With several processes the server's CPU and
memory are their sums; PostgreSQL's own CPU is reported beside them.

    python benchmarks/load.py --tables 20 --duration 10          # a small run
    python benchmarks/load.py --tables 250 --seats 4 --think 1 --json out.json
    python benchmarks/load.py --database postgresql://postgres@127.0.0.1/postgres --processes 2

Only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

END_GRACE = 10.0
"""Seconds the clients wait at the end for the answers to their last acts before counting the
unanswered ones as lost."""
MAX_CLIENTS = 5000
"""The most WebSocket clients one run may open."""
ROOT = Path(__file__).resolve().parents[1]
UNLIMITED = ("--rate-limit", "0", "--rooms-per-address", "0", "--sockets-per-address", "0")
"""Every client of the load test comes from 127.0.0.1: no limit per address."""


@dataclass
class Stats:
    start: float = 0.0
    end: float = 0.0
    latencies: list[float] = field(default_factory=list)
    table_latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    samples: list[str] = field(default_factory=list)
    stale: int = 0
    lost: int = 0
    disconnects: int = 0

    def measuring(self, t: float) -> bool:
        return self.start <= t < self.end

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


@dataclass
class Table:
    code: str
    tokens: list[str]
    seats: int
    sent: dict[int, float] = field(default_factory=dict)
    """Version expected -> when the act that makes it was sent (measured acts only)."""
    reached: dict[int, int] = field(default_factory=dict)
    """Version -> how many of the table's clients have its state."""


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


# ---------------------------------------------------------------------- HTTP (in threads)


def _post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    if token is not None:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def make_table(base: str, seats: int, bots: int, bot_delay: float, args_target: int = 500) -> Table:
    body = {"name": "P0", "bots": [None] * (seats - 1) + ["heuristic"] * bots, "bot_delay": bot_delay,
            "between_rounds": 3, "options": {"target": args_target}}
    made = _post(base, "/api/rooms", body)
    tokens = [made["token"]]
    for s in range(1, seats):
        tokens.append(_post(base, f"/api/rooms/{made['code']}/join", {"name": f"P{s}"})["token"])
    return Table(made["code"], tokens, seats)


# ---------------------------------------------------------------------- one client


async def client(ws_base: str, table: Table, seat: int, think: float, stats: Stats, stop: asyncio.Event,
                 rng: random.Random, start_at: float) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    await asyncio.sleep(max(0.0, start_at - time.monotonic()))
    pending: dict[int, float] = {}  # version expected -> when this client sent the act
    sends: list[float] = []
    acted_on: set[int] = set()
    readied: set[tuple[int, int]] = set()
    try:
        async with connect(f"{ws_base}/ws/{table.code}", open_timeout=30, close_timeout=2,
                           max_size=2**20, ping_interval=None) as ws:
            last_sent = ["hello"]

            async def send(message: dict[str, Any]) -> None:
                # At most 19 messages in any second: the server closes a connection past 20 (a flood).
                while len(sends) >= 19 and time.monotonic() - sends[-19] < 1.0:
                    await asyncio.sleep(1.0 - (time.monotonic() - sends[-19]) + 0.001)
                sends.append(time.monotonic())
                del sends[:-19]
                last_sent[0] = f"{message['type']} at {state['version'] if state else None}"
                await ws.send(json.dumps(message))

            state: dict[str, Any] | None = None
            await send({"type": "hello", "token": table.tokens[seat]})
            act_task: asyncio.Task[None] | None = None

            async def act_later(version: int, action: str) -> None:
                await asyncio.sleep(rng.expovariate(1 / think) if think > 0 else 0)
                if stop.is_set() or state is None or state["version"] != version:
                    return
                now = time.monotonic()
                pending[version + 1] = now
                if stats.measuring(now) and seat == state["view"]["turn"]:
                    table.sent.setdefault(version + 1, now)
                await send({"type": "act", "action": action, "version": version})

            while not stop.is_set():
                try:
                    async with asyncio.timeout(1.0):
                        raw = await ws.recv()
                except TimeoutError:
                    continue
                now = time.monotonic()
                m = json.loads(raw)
                kind = m["type"]
                if kind == "error":
                    if m["code"] == "stale":
                        stats.stale += 1
                        pending.clear()
                    else:
                        stats.error(m["code"])
                        if len(stats.samples) < 5:
                            stats.samples.append(f"{m['code']}: {m['message']} (after {last_sent[0]}, "
                                                 f"at {state['version'] if state else None})")
                        pending.clear()
                    continue
                if kind != "state":
                    continue
                state = m
                v = m["version"]
                sent = pending.pop(v, None)
                for old in [k for k in pending if k < v]:
                    pending.pop(old)  # another change came first: refused as stale, counted there
                if sent is not None and stats.measuring(sent):
                    stats.latencies.append(now - sent)
                    stats.actions += 1
                if v in table.sent:
                    n = table.reached.get(v, 0) + 1
                    table.reached[v] = n
                    if n == table.seats:
                        stats.table_latencies.append(now - table.sent.pop(v))
                        table.reached.pop(v, None)
                view = m["view"]
                if view["awaiting"] == "round_over" and (v, seat) not in readied:
                    readied.add((v, seat))
                    await send({"type": "ready"})
                elif view["awaiting"] == "game_over" and seat == 0 and v not in acted_on:
                    acted_on.add(v)
                    await send({"type": "rematch"})
                elif view["turn"] == seat and view["legal"] and v not in acted_on:
                    acted_on.add(v)
                    legal = [a for a in view["legal"] if not a.startswith("catch")] or view["legal"]
                    if act_task is not None:
                        act_task.cancel()
                    act_task = asyncio.get_running_loop().create_task(act_later(v, rng.choice(legal)))
            # The end: give the acts in flight time to be answered (an overloaded server may take
            # seconds), then count the lost ones.
            end = time.monotonic() + END_GRACE
            while pending and time.monotonic() < end:
                try:
                    async with asyncio.timeout(max(0.01, end - time.monotonic())):
                        m = json.loads(await ws.recv())
                except TimeoutError:
                    break
                if m["type"] == "state":
                    for k in [k for k in pending if k <= m["version"]]:
                        pending.pop(k)
                elif m["type"] == "error":
                    pending.clear()
            stats.lost += sum(1 for t in pending.values() if stats.measuring(t))
            if act_task is not None:
                act_task.cancel()
    except (ConnectionClosed, OSError, TimeoutError) as exc:
        if not stop.is_set():
            stats.disconnects += 1
            stats.error(f"connection: {type(exc).__name__}")


# ---------------------------------------------------------------------- the server


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid`` and its children that ended."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def proc_memory(pid: int) -> dict[str, float]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) / 1024
    return out


def database_cpu() -> float:
    """The CPU seconds of every PostgreSQL process of this machine so far (0 without one)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() in ("postgres", "postmaster"):
                total += proc_cpu(int(entry.name))
        except OSError:
            continue
    return total


@contextlib.contextmanager
def fresh_postgres(url: str) -> Iterator[str]:
    """A new database on the PostgreSQL server of ``url`` (its URL), dropped afterwards."""
    import psycopg

    name = f"unokit_load_{os.getpid()}_{random.randrange(10**6)}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"{url.rpartition('/')[0]}/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def start_server(database: str, folder: Path, n: int = 0) -> tuple[subprocess.Popen[bytes], str]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = (folder / f"serve{n}.log").open("wb")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "unokit", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--database", database, *UNLIMITED, "--max-rooms", "100000", "--log-level", "warning"]
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit(f"unokit serve exited: {(folder / f'serve{n}.log').read_text()}")
        try:
            with urllib.request.urlopen(base + "/api/health", timeout=1):
                return proc, base
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("unokit serve did not start")


async def run(args: argparse.Namespace, bases: list[str], server_pids: list[int]) -> dict[str, Any]:
    base = bases[0]
    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(64))  # HTTP requests, in threads
    sem = asyncio.Semaphore(16)

    async def one_table() -> Table:
        async with sem:
            return await loop.run_in_executor(None, make_table, base, args.seats, args.bots, args.bot_delay,
                                              args.target)

    tables = await asyncio.gather(*(one_table() for _ in range(args.tables)))

    starts = asyncio.Semaphore(64)

    async def start(t: Table) -> None:
        async with starts:
            await loop.run_in_executor(None, _post, base, f"/api/rooms/{t.code}/start", {}, t.tokens[0])
    stats = Stats()
    stop = asyncio.Event()
    now = time.monotonic()
    stats.start, stats.end = now + args.ramp, now + args.ramp + args.duration
    rng = random.Random(args.seed)
    ws_bases = [b.replace("http://", "ws://", 1) for b in bases]
    count = args.tables * args.seats
    tasks = [loop.create_task(client(ws_bases[(i + s) % len(ws_bases)], t, s, args.think, stats, stop,
                                     random.Random(rng.random()),
                                     now + args.ramp * 0.8 * (i * args.seats + s) / count))
             for i, t in enumerate(tables) for s in range(args.seats)]
    usage: dict[str, Any] = {}

    async def sample() -> None:
        """The server's and the generator's CPU over the measured window, the server's memory."""
        await asyncio.sleep(max(0.0, stats.start - time.monotonic()))
        cpu0 = sum(proc_cpu(pid) for pid in server_pids) if server_pids else None
        db0 = database_cpu()
        gen0 = resource.getrusage(resource.RUSAGE_SELF)
        await asyncio.sleep(max(0.0, stats.end - time.monotonic()))
        cpu1 = sum(proc_cpu(pid) for pid in server_pids) if server_pids else None
        usage["database"] = database_cpu() - db0
        gen1 = resource.getrusage(resource.RUSAGE_SELF)
        usage["server"] = None if cpu0 is None or cpu1 is None else (cpu1 - cpu0)
        usage["generator"] = (gen1.ru_utime - gen0.ru_utime) + (gen1.ru_stime - gen0.ru_stime)
        memories = [proc_memory(pid) for pid in server_pids]
        usage["memory"] = {key: sum(m.get(key, 0.0) for m in memories) for key in ("VmRSS", "VmHWM")}

    sampler = loop.create_task(sample())
    # Every client has said hello (over the first 80% of the ramp): the hosts start their tables.
    await asyncio.sleep(max(0.0, now + args.ramp * 0.85 - time.monotonic()))
    starting = time.monotonic()
    await asyncio.gather(*(start(t) for t in tables))
    started_s = time.monotonic() - starting
    await sampler
    memory = usage["memory"]
    stop.set()
    _, late = await asyncio.wait(tasks, timeout=15)
    for t in late:
        t.cancel()
    lat, tab = stats.latencies, stats.table_latencies
    ms = lambda v: None if v is None else round(v * 1000, 2)  # noqa: E731
    return {
        "tables": args.tables, "seats": args.seats, "clients": count, "bots": args.bots, "think": args.think,
        "processes": len(bases), "database": args.database_kind,
        "ramp_s": args.ramp, "duration_s": args.duration,
        "actions": stats.actions, "actions_per_s": round(stats.actions / args.duration, 1),
        "latency_ms": {"p50": ms(percentile(lat, 50)), "p95": ms(percentile(lat, 95)),
                       "p99": ms(percentile(lat, 99)), "max": ms(max(lat) if lat else None)},
        "table_latency_ms": {"p50": ms(percentile(tab, 50)), "p95": ms(percentile(tab, 95)),
                             "p99": ms(percentile(tab, 99)), "max": ms(max(tab) if tab else None)},
        "errors": sum(stats.errors.values()), "error_kinds": stats.errors,
        "error_samples": stats.samples, "stale": stats.stale,
        "lost": stats.lost, "clients_unfinished": len(late),
        "tables_started_in_s": round(started_s, 1),
        "server_cpu_percent": (None if usage["server"] is None
                               else round(100 * usage["server"] / args.duration, 1)),
        "server_rss_mb": round(memory.get("VmRSS", 0), 1) or None,
        "server_peak_rss_mb": round(memory.get("VmHWM", 0), 1) or None,
        "database_cpu_percent": round(100 * usage["database"] / args.duration, 1),
        "generator_cpu_percent": round(100 * usage["generator"] / args.duration, 1),
        "load_average": os.getloadavg(),
        "cpus": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=250)
    p.add_argument("--seats", type=int, default=4, help="client seats per table (2 to 10)")
    p.add_argument("--bots", type=int, default=0,
                   help="server bots (heuristic) per table, besides the seats")
    p.add_argument("--bot-delay", type=float, default=0.0, help="the server bots' pause (seconds)")
    p.add_argument("--think", type=float, default=1.0,
                   help="mean think time in seconds (0: none, the ceiling)")
    p.add_argument("--ramp", type=float, default=10.0,
                   help="seconds to connect every client before measuring")
    p.add_argument("--duration", type=float, default=60.0, help="seconds measured")
    p.add_argument("--url", help="an unokit serve already running (http://127.0.0.1:PORT), "
                                 f"with {' '.join(UNLIMITED)}")
    p.add_argument("--database", help="the database of the servers it starts: default a fresh SQLite file; "
                                      "postgresql://USER@HOST/DB: a fresh database made on that server")
    p.add_argument("--processes", type=int, default=1,
                   help="server processes to start (several: PostgreSQL only; seats spread over them)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--target", type=int, default=500, help="the matches' target score")
    p.add_argument("--json", type=Path, help="write the report there too")
    args = p.parse_args(argv)
    if not 2 <= args.seats + args.bots <= 10 or args.seats < 1:
        p.error("a table has 2 to 10 seats (--seats plus --bots), and at least one client seat")
    if not 1 <= args.tables * args.seats <= MAX_CLIENTS:
        p.error(f"1 to {MAX_CLIENTS} clients (--tables x --seats)")
    if not (0 < args.duration <= 3600 and 0 <= args.ramp <= 600 and args.think >= 0):
        p.error("--duration 0 to 3600 s, --ramp 0 to 600 s, --think 0 or more")
    if args.url and not args.url.startswith(("http://127.0.0.1:", "http://localhost:", "http://[::1]:")):
        p.error("--url: loopback only (http://127.0.0.1:PORT)")
    postgres = bool(args.database) and args.database.startswith(("postgresql://", "postgres://"))
    several = args.processes > 1
    if not 1 <= args.processes <= 16 or (several and not postgres) or (several and args.url):
        p.error("--processes: 1 to 16, several only with a postgresql:// --database (and no --url)")
    args.database_kind = "postgresql" if postgres else ("given" if args.url else "sqlite")
    most = min(65536, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
    resource.setrlimit(resource.RLIMIT_NOFILE, (most, most))
    with tempfile.TemporaryDirectory(prefix="unokit-load-") as tmp, contextlib.ExitStack() as stack:
        procs: list[subprocess.Popen[bytes]] = []
        if args.url:
            bases = [args.url.rstrip("/")]
        else:
            database = args.database or f"sqlite:///{Path(tmp) / 'load.db'}"
            if postgres:
                database = stack.enter_context(fresh_postgres(args.database))
            bases = []
            for n in range(args.processes):
                proc, base = start_server(database, Path(tmp), n)
                procs.append(proc)
                bases.append(base)
        try:
            report = asyncio.run(asyncio.wait_for(run(args, bases, [p.pid for p in procs]),
                                                  args.ramp + args.duration + 600))
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(5)
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
