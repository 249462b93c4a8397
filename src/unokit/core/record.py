"""Game records: the settings, the deal of every round, and every action, as JSON.

A record replays to the identical state: :func:`replay` rebuilds the :class:`Game` from
the record alone, round by round, checking each round's starting totals on the way.
The format (documented in ``docs/records.md``)::

    {"format": "unokit-record", "version": 1,
     "edition": "classic", "players": 3, "options": {"target": 200}, "seed": 42,
     "rounds": [{"dealer": 1, "scores": [0, 0, 0], "eliminated": [],
                 "deck": ["R1", "Y1", ...],                 # top card first, dealt by S2
                 "actions": ["2 R7", "0 draw", "0 pass", "1 catch 2", "host penalize 1"]}]}

A round set up with stacked piles has ``"hands"``, ``"discard"`` and ``"draw"`` (top
first) instead of ``"deck"``.

>>> from unokit import Game
>>> from unokit.bots import RandomBot, play_match
>>> game = play_match(Game.new("cars2", 3, seed=11), [RandomBot(seed=s) for s in range(3)])
>>> again = replay(record_of(game))
>>> again.scores == game.scores and again.hands == game.hands and again.winners == game.winners
True
"""

from __future__ import annotations

# mypyc: pure: JSON reading and writing and replays, not hot
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from .actions import action_str, parse_action
from .cards import card_str, parse_card
from .editions import EDITIONS
from .errors import RecordError, UnoError
from .events import Event
from .game import Game
from .options import Options
from .phases import ROUND_OVER

FORMAT = "unokit-record"
VERSION = 1


def record_of(game: Game) -> dict[str, Any]:
    """The JSON-ready record of ``game`` so far (every round, every action)."""
    rounds: list[dict[str, Any]] = []
    for start in game.rounds:
        entry: dict[str, Any] = {
            "dealer": start.dealer,
            "scores": list(start.scores),
            "eliminated": list(start.eliminated),
        }
        if start.deck is not None:
            entry["deck"] = [card_str(c) for c in start.deck]
        else:
            assert start.piles is not None
            hands, discard, draw = start.piles
            entry["hands"] = [[card_str(c) for c in h] for h in hands]
            entry["discard"] = card_str(discard)
            entry["draw"] = [card_str(c) for c in draw]
        entry["actions"] = [action_line(seat, a) for seat, a in start.actions]
        rounds.append(entry)
    return {
        "format": FORMAT,
        "version": VERSION,
        "edition": game.edition,
        "players": game.n,
        "options": game.options.changed(),
        "seed": game.seed,
        "rounds": rounds,
    }


def action_line(seat: int, action: int) -> str:
    """One action as a record line: ``"2 R7"``, or ``"host penalize 1"`` for a host's action."""
    return f"host {action_str(action)}" if seat < 0 else f"{seat} {action_str(action)}"


def parse_action_line(line: str) -> tuple[int, int]:
    """Parse a record line into ``(seat, action)``; the seat is -1 for the host."""
    if not isinstance(line, str):
        raise RecordError(f"{line!r} is not an action line")
    who, sep, rest = line.partition(" ")
    if not sep:
        raise RecordError(f"{line!r}: an action line is 'SEAT ACTION', as in '2 R7'")
    if who == "host":
        return -1, parse_action(rest)
    if not who.isdigit():
        raise RecordError(f"{line!r}: {who!r} is not a seat number")
    return int(who), parse_action(rest)


class ReplayWatcher(Protocol):
    """Follows a replay as it happens (see :func:`replay`), e.g. to narrate it: it is handed
    the events of every deal and every action, in full (see :mod:`unokit.core.events`)."""

    def round_started(self, game: Game, r: int, events: tuple[Event, ...]) -> None:
        """Round ``r`` (0-based) has just been dealt; ``events`` are its opening events (the
        deal, the first card turned up and its effect)."""

    def after(self, game: Game, seat: int, action: int, events: tuple[Event, ...]) -> None:
        """``seat`` (-1: the host) has just taken ``action``, which caused ``events``."""


def replay(data: Any, upto: tuple[int, int] | None = None,
           watcher: ReplayWatcher | None = None) -> Game:
    """Rebuild the game a record describes. Raises :class:`RecordError` naming what is wrong.

    ``upto=(round, n)`` stops after the first ``n`` actions of round ``round`` (0-based).
    ``watcher`` is told of every round start and every action, with their events, as the
    replay goes.
    """
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a unokit record (format must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise RecordError(f"unsupported record version {data.get('version')!r} (this is {VERSION})")
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("a record needs a non-empty 'rounds' list")
    try:
        options = Options.from_mapping(data.get("options") or {})
        players, seed = data.get("players"), data.get("seed")
        if not isinstance(players, int) or not isinstance(seed, int):
            raise RecordError("'players' and 'seed' must be whole numbers")
        edition = data.get("edition")
        if not isinstance(edition, str):
            raise RecordError(f"'edition' must be one of {', '.join(EDITIONS)}, not {edition!r}")
        game = Game(edition, players, options, seed)  # checks the edition's name
    except RecordError:
        raise
    except UnoError as exc:
        raise RecordError(f"bad settings: {exc}") from None
    for r, entry in enumerate(rounds):
        where = f"round {r + 1}"
        if not isinstance(entry, Mapping):
            raise RecordError(f"{where}: must be an object")
        try:
            opening = _start(game, entry, r)
        except (TypeError, ValueError, KeyError, IndexError) as exc:  # UnoError is a ValueError
            raise RecordError(f"{where}: bad deal: {exc}") from None
        if watcher is not None:
            watcher.round_started(game, r, opening)
        actions = entry.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(f"{where}: 'actions' must be a list")
        for k, line in enumerate(actions):
            if upto is not None and (r, k) == upto:
                return game
            try:
                seat, action = parse_action_line(line)
                if seat < 0:
                    events = game.apply_host(action)
                elif watcher is not None:
                    events = game.apply(seat, action)
                else:
                    game.step(seat, action)
            except UnoError as exc:
                raise RecordError(f"{where}, action {k + 1} ({line!r}): {exc}") from None
            if watcher is not None:
                watcher.after(game, seat, action, events)
        if upto is not None and r == upto[0]:
            return game
    return game


def _start(game: Game, entry: Mapping[str, Any], r: int) -> tuple[Event, ...]:
    dealer = entry.get("dealer")
    if not isinstance(dealer, int):
        raise RecordError("'dealer' must be a seat number")
    if r == 0:
        scores = entry.get("scores")
        if scores is not None:
            if not isinstance(scores, list) or len(scores) != len(game.scores):
                raise RecordError(f"'scores' needs {len(game.scores)} numbers")
            game.scores = list(scores)
        eliminated = entry.get("eliminated", [])
        if not isinstance(eliminated, list):
            raise RecordError("'eliminated' must be a list of seats")
        for s in eliminated:
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < game.n:
                raise RecordError(f"'eliminated' names {s!r}, which is not a seat (0 to {game.n - 1})")
            game.eliminated[s] = True
    else:
        if game.phase != ROUND_OVER:
            raise RecordError("the previous round did not end, yet another round follows")
        for key, have in (("scores", list(game.scores)),
                          ("eliminated", [s for s in range(game.n) if game.eliminated[s]])):
            if key in entry and list(entry[key]) != have:
                raise RecordError(f"{key!r} before this round should be {have}, the record says {entry[key]}")
    if "deck" in entry:
        return game.start_round(dealer=dealer, deck=[parse_card(c) for c in entry["deck"]])
    else:
        missing = [key for key in ("hands", "discard", "draw") if key not in entry]
        if missing:
            raise RecordError(f"a round needs its 'deck', or 'hands', 'discard' and 'draw' "
                              f"({', '.join(repr(k) for k in missing)} missing)")
        hands = [[parse_card(c) for c in h] for h in entry["hands"]]
        return game.start_round(dealer=dealer, hands=hands, discard=parse_card(entry["discard"]),
                                draw=[parse_card(c) for c in entry["draw"]])


def write_record(game: Game, path: str | Path) -> None:
    """Save ``game``'s record as JSON at ``path``."""
    Path(path).write_text(json.dumps(record_of(game), indent=1) + "\n", encoding="utf-8")


def read_record(path: str | Path) -> dict[str, Any]:
    """Read a record file; a file that is not JSON raises :class:`RecordError`."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path} is not a unokit record: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path} is not a unokit record")
    return data


def load_game(path: str | Path) -> Game:
    """Read the record at ``path`` and replay it to its final state."""
    data = read_record(path)  # its errors name the file already
    try:
        return replay(data)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
