#!/usr/bin/env bash
# The compiled engine (mypyc) under the same checks as the pure-Python one: it is the build
# the performance figures quote, so it must stay correct, not only fast.
#
#   scripts/test-compiled.sh [PYTEST ARGS...]
#
# Installs unokit into .venv-compiled the way a user does, `pip install .`, which compiles the
# engine with mypyc where a C compiler works (setup.py), and checks that it did; then runs every
# conformance scenario, the golden digests of 300 seeded matches (the compiled engine must
# play every step exactly as the pure-Python one recorded), and the test suite in tests/.
# It also checks the fallback: with no working C compiler the same build is pure Python.
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
  # The test dependencies (the dev extra); unokit itself is reinstalled, compiled, below.
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  UNOKIT_COMPILE=0 "$venv/bin/python" -m pip install --quiet ".[dev,rl]"
  touch "$stamp"
fi
scripts/install-bench-requirements.sh "$venv"  # RLCard: the benchmark runs side by side here too
export UNOKIT_TEST_RLCARD=1
echo "== compiled engine: pip install . (the default build: mypyc where a C compiler works)"
rm -rf build/mypyc  # a clean build: no extension module left by an earlier module list
"$venv/bin/python" -m pip install --quiet --no-deps --force-reinstall .
if [ "$("$venv/bin/python" -c 'from unokit.bench import engine_build; print(engine_build())')" != "compiled (mypyc)" ]; then
  echo "pip install . did not compile the engine in $venv (see setup.py)" >&2
  exit 1
fi
"$venv/bin/python" -c 'import unokit.fast as f; assert f.AVAILABLE, f.WHY; print(f.WHY)'
export UNOKIT_REQUIRE_FAST=1  # the wheel's native core: its differential test must run
echo "== the same build without a working C compiler: pure Python, with a note"
wheels="$(mktemp -d)"
trap 'rm -rf "$wheels"' EXIT
rm -rf build/mypyc
CC=false "$venv/bin/python" -m pip wheel -v --no-deps -w "$wheels" . > "$wheels/log" 2>&1 || {
  tail -20 "$wheels/log" >&2; echo "the build failed instead of falling back to pure Python" >&2; exit 1; }
grep -q "unokit build: the C build failed" "$wheels/log" || {
  echo "the fallback build did not say that it is pure Python" >&2; exit 1; }
"$venv/bin/python" - "$wheels"/unokit-*.whl <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
compiled = [n for n in names if n.endswith((".so", ".pyd"))]
assert not compiled, f"the fallback wheel has compiled modules: {compiled}"
assert any(n.endswith("unokit/core/game.py") for n in names), "the fallback wheel lacks the engine"
print("fallback wheel: pure Python,", len(names), "files")
PY
rm -rf build/mypyc
echo "== compiled engine: conformance scenarios"
"$venv/bin/unokit" conformance --strict tests/scenarios
shared="${UNOKIT_CONFORMANCE:-../shared/conformance}"
if [ -d "$shared" ]; then
  "$venv/bin/unokit" conformance "$shared"
fi
echo "== compiled engine: golden digests"
"$venv/bin/python" benchmarks/golden.py --check benchmarks/golden.json
echo "== compiled engine: pytest"
# tests/ only: the doctests of src/ would import the source modules beside the installed ones.
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests "$@"
