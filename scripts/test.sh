#!/usr/bin/env bash
# The test command: installs what it needs, then runs pytest (unit, property and soak tests,
# README and docstring examples), every rule conformance scenario, mypy --strict and ruff;
# then the same checks against the engine compiled with mypyc (scripts/test-compiled.sh), when
# a C compiler is there. UNOKIT_SKIP_COMPILED=1 leaves the compiled build out (a quicker run).
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's chromium for the browser tests (Playwright drives it; it downloads no browser of its
# own). Installed when this runs as root with apt; elsewhere the browser tests say how to run them.
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "== installing Debian's chromium for the browser tests"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
# torch first, pinned: its CPU build for the training extra (an unpinned one pulls a CUDA build)
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/python -m pip install --quiet "torch==2.13.0"
scripts/setup.sh dev,ray,rl,train  # ray: the arena's --backend ray; rl, train: the RL environments
export PATH="$PWD/.venv/bin:$PATH"
# RLCard, the benchmark's reference (a benchmark-only dependency, never a runtime one), so that
# the tests run the benchmark side by side; UNOKIT_TEST_RLCARD=1 makes them fail without it.
scripts/install-bench-requirements.sh .venv
export UNOKIT_TEST_RLCARD=1

# The native core (unokit.fast): the editable install does not build it, so it is built in
# place here, and its tests must run (UNOKIT_REQUIRE_FAST=1) wherever a compiler is there.
if command -v cc >/dev/null 2>&1; then
  bash scripts/build-fast.sh
  export UNOKIT_REQUIRE_FAST=1
else
  echo "(no C compiler here: the native core unokit.fast is not built; its tests skip)"
fi

echo "== ruff"
ruff check src tests benchmarks examples build_backend setup.py
echo "== mypy --strict"
mypy --strict src
echo "== conformance scenarios"
shared="${UNOKIT_CONFORMANCE:-../shared/conformance}"
unokit conformance --strict tests/scenarios
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

if command -v gcc >/dev/null 2>&1; then
  echo "== the native core under AddressSanitizer and UndefinedBehaviorSanitizer"
  bash scripts/test-sanitizers.sh
fi

if [ "${UNOKIT_SKIP_COMPILED:-}" = "1" ]; then
  echo "(UNOKIT_SKIP_COMPILED=1: the compiled engine was not built or tested)"
elif command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1; then
  bash scripts/test-compiled.sh
else
  echo "(no C compiler here: the compiled engine was not built or tested; see scripts/test-compiled.sh)"
fi
