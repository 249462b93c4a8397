#!/usr/bin/env bash
# Create .venv (if needed) and install unokit with the given extras, e.g. `scripts/setup.sh dev`.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-play}"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=".venv/.unokit-installed-$extras"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[$extras]"
  touch "$stamp"
fi
