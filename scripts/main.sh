#!/usr/bin/env bash
# The main job: installs unokit with its web server and starts it (`unokit serve`; extra
# arguments go to it, try --help). Open the link it prints, make a room, and send the room's
# link to the friends who play with you; bots fill the other seats. Ctrl+C stops it.
#
# The terminal game is one command away: `bash scripts/main.sh play [ARGS]` runs `unokit play`
# (ARGS go to it). Without a terminal (e.g. piped) `play` plays a seeded bot-vs-bot match
# instead and prints it move by move (`unokit demo`), leaving out the arguments that only a game
# in a terminal takes (--resume, --save, --delay, --forget-uno), with a note on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "play" ]; then
  scripts/setup.sh web,play
  exec .venv/bin/unokit serve "$@"
fi
shift
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
