#!/usr/bin/env bash
# The main job: installs unokit, then starts a game of UNO in the terminal against bots
# (`unokit play`; extra arguments go to it, try --help). Without a terminal (e.g. piped),
# it plays a seeded bot-vs-bot match instead and prints it move by move (`unokit demo`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh play
if [ -t 0 ] && [ -t 1 ]; then
  exec .venv/bin/unokit play "$@"
fi
echo "(no terminal: playing a seeded bot-vs-bot match instead; run in a terminal to play)" >&2
exec .venv/bin/unokit demo "$@"
