#!/usr/bin/env bash
# The test command: installs what it needs, then runs pytest (unit, property and soak tests,
# README and docstring examples), every rule conformance scenario, mypy --strict and ruff.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh dev,ray  # ray: the arena's --backend ray is tested too
export PATH="$PWD/.venv/bin:$PATH"

echo "== ruff"
ruff check src tests benchmarks
echo "== mypy --strict"
mypy --strict src
echo "== conformance scenarios"
shared="${UNOKIT_CONFORMANCE:-../shared/conformance}"
unokit conformance tests/scenarios
if [ -d "$shared" ]; then
  unokit conformance "$shared"
elif [ "${CI:-}" = "true" ]; then
  echo "missing $shared: CI must run every shared conformance scenario" >&2
  exit 1
else
  echo "(no $shared here: only the scenarios in tests/scenarios were run)"
fi
echo "== pytest"
pytest -q "$@"
