#!/usr/bin/env bash
# The main job: installs unokit, then starts a game of UNO in the terminal against bots
# (`unokit play`; extra arguments go to it, try --help). Without a terminal (e.g. piped),
# it plays a seeded bot-vs-bot match instead and prints it move by move (`unokit demo`),
# leaving out the arguments that only a game in a terminal takes (--resume, --save, --delay,
# --forget-uno), with a note on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh play
if [ -t 0 ] && [ -t 1 ]; then
  exec .venv/bin/unokit play "$@"
fi
echo "(no terminal: playing a seeded bot-vs-bot match instead; run in a terminal to play)" >&2
args=()
dropped=()
while [ $# -gt 0 ]; do
  case "$1" in
    --resume | --save | --delay | --forget-uno)
      dropped+=("$1 ${2-}")
      if [ $# -gt 1 ]; then shift; fi ;;
    --resume=* | --save=* | --delay=* | --forget-uno=*) dropped+=("$1") ;;
    *) args+=("$1") ;;
  esac
  shift
done
if [ ${#dropped[@]} -gt 0 ]; then
  echo "(left out, as they apply only to a game in a terminal: ${dropped[*]})" >&2
fi
exec .venv/bin/unokit demo ${args[@]+"${args[@]}"}
