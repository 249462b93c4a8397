#!/usr/bin/env bash
# Build unokit with its rules engine compiled by mypyc and install it into a venv.
#
#   scripts/build-compiled.sh [VENV]      # default .venv-bench
#
# This is `pip install .` with UNOKIT_COMPILE=1: the same build as the default one, but it
# fails instead of falling back to pure Python. pip fetches mypy (which brings mypyc) into its
# isolated build environment (build_backend/unokit_build.py), so VENV gets only unokit and the
# compiled package is shown to need nothing at run time. A C compiler and the Python headers
# are needed. The install is a regular (not editable) one: rerun this after changing the engine.
# Back to pure Python: VENV/bin/pip install -e .
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-.venv-bench}"
if [ ! -x "$target/bin/python" ]; then
  echo "no venv at $target (make it first, e.g. python3.11 -m venv $target)" >&2
  exit 2
fi
# A clean build: setuptools would otherwise pack stale extension modules left in build/mypyc
# by an earlier build with a different module list.
rm -rf build/mypyc
UNOKIT_COMPILE=1 "$target/bin/python" -m pip install --quiet --no-deps --force-reinstall .
"$target/bin/python" -c 'from unokit.bench import engine_build; print("unokit engine:", engine_build())'
