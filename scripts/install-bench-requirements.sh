#!/usr/bin/env bash
# Install the benchmark's reference, RLCard (benchmarks/requirements.txt), into a venv, once:
#
#   scripts/install-bench-requirements.sh VENV
#
# A benchmark-only dependency: unokit never imports it. The test scripts call this so that the
# tests run benchmarks/bench.py with RLCard beside unokit, as the benchmark is meant to run.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${1:?usage: scripts/install-bench-requirements.sh VENV}"
if [ ! -x "$venv/bin/python" ]; then
  echo "no venv at $venv" >&2
  exit 2
fi
stamp="$venv/.unokit-bench-requirements"
if [ ! -f "$stamp" ] || [ benchmarks/requirements.txt -nt "$stamp" ]; then
  "$venv/bin/python" -m pip install --quiet -r benchmarks/requirements.txt
  touch "$stamp"
fi
