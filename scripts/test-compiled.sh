#!/usr/bin/env bash
# The compiled engine (mypyc) under the same checks as the pure-Python one: it is the build
# the performance figures quote, so it must stay correct, not only fast.
#
#   scripts/test-compiled.sh [PYTEST ARGS...]
#
# Builds the engine with mypyc into .venv-compiled (scripts/build-compiled.sh), then runs every
# conformance scenario, the golden digests of 300 seeded matches (the compiled engine must
# play every step exactly as the pure-Python one recorded), and the test suite in tests/.
# Needs a C compiler and the Python headers. scripts/test.sh runs it after the pure-Python
# checks when a compiler is there.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-compiled
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
stamp="$venv/.unokit-deps"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  # The test dependencies (the dev extra); unokit itself is replaced by the compiled wheel below.
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet ".[dev]"
  touch "$stamp"
fi
scripts/install-bench-requirements.sh "$venv"  # RLCard: the benchmark runs side by side here too
export UNOKIT_TEST_RLCARD=1
echo "== compiled engine: build (mypyc)"
bash scripts/build-compiled.sh "$venv"
if [ "$("$venv/bin/python" -c 'from unokit.bench import engine_build; print(engine_build())')" != "compiled (mypyc)" ]; then
  echo "the engine in $venv is not the compiled build" >&2
  exit 1
fi
echo "== compiled engine: conformance scenarios"
"$venv/bin/unokit" conformance tests/scenarios
shared="${UNOKIT_CONFORMANCE:-../shared/conformance}"
if [ -d "$shared" ]; then
  "$venv/bin/unokit" conformance "$shared"
fi
echo "== compiled engine: golden digests"
"$venv/bin/python" benchmarks/golden.py --check benchmarks/golden.json
echo "== compiled engine: pytest"
# tests/ only: the doctests of src/ would import the source modules beside the installed ones.
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests "$@"
