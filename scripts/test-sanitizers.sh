#!/usr/bin/env bash
# The native core under AddressSanitizer and UndefinedBehaviorSanitizer: built with
# -fsanitize=address,undefined into a copy of the package, then the differential test (random
# matches, every conformance scenario, the batch loops, malformed positions fuzzed) runs on it,
# libasan preloaded into the Python process. Leak detection is off (CPython keeps memory to
# the end on purpose); any other report, or any undefined behaviour, fails the run.
#
#   scripts/test-sanitizers.sh [PYTEST ARGS...]     # PYTHON=... (default .venv/bin/python)
#
# Needs gcc. scripts/test.sh runs it when gcc is there. Also checks that clang, where it is
# installed, compiles the core without a warning.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${PYTHON:-.venv/bin/python}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
cp -r src/unokit "$work/src/unokit"
find "$work/src" -name '_core*.so' -delete
suffix="$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
CC=gcc PYTHON="$py" UNOKIT_FAST_OUT="$work/src/unokit/fast/_core$suffix" bash scripts/build-fast.sh \
  -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
if command -v clang >/dev/null 2>&1; then
  CC=clang PYTHON="$py" UNOKIT_FAST_OUT="$work/clang.so" bash scripts/build-fast.sh
fi
libasan="$(gcc -print-file-name=libasan.so)"
echo "== the differential test under ASan and UBSan ($libasan)"
LD_PRELOAD="$libasan" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 UNOKIT_REQUIRE_FAST=1 \
  PYTHONPATH="$work/src" "$py" -m pytest -q -p no:cacheprovider tests/test_fast_differential.py "$@"
