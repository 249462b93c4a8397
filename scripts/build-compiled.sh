#!/usr/bin/env bash
# Build unokit with its rules engine compiled by mypyc and install it into a venv.
#
#   scripts/build-compiled.sh [VENV]      # default .venv-bench
#
# The build tools (mypy, which brings mypyc, and setuptools) go into a separate build venv,
# .venv-build, made from VENV's Python; VENV gets only the wheel, so the compiled package is
# shown to need nothing at run time. A C compiler and the Python headers are needed.
# The install is a regular (not editable) one: rerun this after changing the engine.
# Back to pure Python: VENV/bin/pip install -e .
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-.venv-bench}"
if [ ! -x "$target/bin/python" ]; then
  echo "no venv at $target (make it first, e.g. python3.11 -m venv $target)" >&2
  exit 2
fi
builder=.venv-build
if [ ! -x "$builder/bin/python" ]; then
  "$target/bin/python" -m venv "$builder"
fi
"$builder/bin/python" -m pip install --quiet "setuptools>=77" "mypy>=1.10"
out=build/compiled-wheel
# A clean build: setuptools would otherwise pack stale extension modules left in build/lib*
# by an earlier build with a different module list.
rm -rf build
UNOKIT_COMPILE=1 "$builder/bin/python" -m pip wheel --quiet --no-build-isolation --no-deps -w "$out" .
"$target/bin/python" -m pip install --quiet --no-deps --force-reinstall "$out"/unokit-*.whl
"$target/bin/python" -c 'from unokit.bench import engine_build; print("unokit engine:", engine_build())'
