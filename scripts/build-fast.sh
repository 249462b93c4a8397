#!/usr/bin/env bash
# Build the native core (unokit.fast._core, src/unokit/fast/_core.c) in place, beside its
# source, for a source checkout or an editable install (`pip install -e .`, scripts/setup.sh),
# which do not build it; a regular `pip install .` builds it itself (setup.py).
#
#   scripts/build-fast.sh [CC FLAGS...]        # PYTHON=... (default .venv/bin/python), CC=...
#
# Warnings are errors (-Wall -Wextra -Wvla): the core compiles clean with gcc and clang.
# Rerun after changing _core.c; delete src/unokit/fast/_core*.so to play without it.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${PYTHON:-.venv/bin/python}"
cc="${CC:-cc}"
include="$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
suffix="$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
out="${UNOKIT_FAST_OUT:-src/unokit/fast/_core$suffix}"
"$cc" -std=c11 -O3 -Wall -Wextra -Wvla -Werror -fPIC -shared -I"$include" "$@" \
  src/unokit/fast/_core.c -o "$out"
echo "built $out with $cc"
