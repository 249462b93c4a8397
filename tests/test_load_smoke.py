"""A 10-second smoke run of ``benchmarks/load.py`` (the figures of record are in
``docs/deploy.md``; this only checks that the benchmark runs, stops by itself and that a small
load loses nothing)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")
pytest.importorskip("uvicorn")
pytest.importorskip("fastapi")

ROOT = Path(__file__).parents[1]


def test_the_load_benchmark_runs_a_small_configuration(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    command = [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--tables", "20", "--seats", "4",
               "--think", "0.3", "--ramp", "2", "--duration", "8", "--json", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["clients"] == 80 and report["actions"] > 50
    assert report["errors"] == 0 and report["lost"] == 0, report
    assert report["latency_ms"]["p50"] is not None and report["server_cpu_percent"] is not None
    assert report["clients_unfinished"] == 0


def test_the_load_benchmark_runs_two_processes_on_postgresql(tmp_path: Path) -> None:
    from services import ADMIN_URL, postgres_database

    with postgres_database():  # skips (or, in CI, fails) without PostgreSQL
        pass
    out = tmp_path / "load.json"
    command = [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--tables", "20", "--seats", "4",
               "--think", "0.3", "--ramp", "2", "--duration", "8", "--database", ADMIN_URL,
               "--processes", "2", "--json", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["processes"] == 2 and report["database"] == "postgresql"
    assert report["clients"] == 80 and report["actions"] > 50
    assert report["errors"] == 0 and report["lost"] == 0, report
    assert report["clients_unfinished"] == 0
