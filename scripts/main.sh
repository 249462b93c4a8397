#!/usr/bin/env bash
# The main job: installs unokit, then plays a full seeded bot-vs-bot match, printed move by move.
# Extra arguments go to `unokit demo` (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh play
exec .venv/bin/unokit demo "$@"
