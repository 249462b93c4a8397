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
from typing import Any, Final, Protocol

from .actions import MAX_SEATS
from .codec import Round, read_field, read_int, round_from_json, round_to_json
from .editions import EDITIONS, check_edition
from .errors import RecordError, UnoError
from .events import Event
from .game import Game
from .options import Options
from .phases import ROUND_OVER

FORMAT = "unokit-record"
VERSION = 1


RECORD_FIELDS: Final = ("format", "version", "edition", "players", "options", "seed", "rounds", "play")
"""The fields of a record (``play``, optional, is the terminal game's: a replay does not read it)."""

SAME_GAME_FIELDS: Final = ("format", "edition", "players", "seed", "options")
"""The settings that two records of the same match share (see :func:`same_game`)."""
SAME_DEAL_FIELDS: Final = ("dealer", "deck", "hands", "discard", "draw")
"""The fields of the first round that two records of the same match share: its deal."""


def record_of(game: Game) -> dict[str, Any]:
    """The JSON-ready record of ``game`` so far (every round, every action)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "edition": game.edition,
        "players": game.n,
        "options": game.options.changed(),
        "seed": game.seed,
        "rounds": [round_to_json(start.frozen()) for start in game.rounds],
    }


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
    """Rebuild the game a record describes. Raises one :class:`RecordError` naming what is
    wrong (the field, the round, the action).

    ``upto=(round, n)`` stops after the first ``n`` actions of round ``round`` (0-based).
    ``watcher`` is told of every round start and every action, with their events, as the
    replay goes.
    """
    game = _settings(data)
    rounds = data["rounds"]
    for r, raw in enumerate(rounds):
        where = f"round {r + 1}"
        try:
            entry = round_from_json(raw, game.n)
        except RecordError as exc:
            raise RecordError(f"{where}: {exc}") from None
        try:
            opening = _start(game, entry, raw, r)
        except RecordError as exc:
            raise RecordError(f"{where}: {exc}") from None
        except UnoError as exc:
            raise RecordError(f"{where}: bad deal: {exc}") from None
        if watcher is not None:
            watcher.round_started(game, r, opening)
        for k, (seat, action) in enumerate(entry[5]):
            if upto is not None and (r, k) == upto:
                return game
            try:
                if seat < 0:
                    events = game.apply_host(action)
                elif watcher is not None:
                    events = game.apply(seat, action)
                else:
                    game.step(seat, action)
            except UnoError as exc:
                raise RecordError(f"{where}, action {k + 1} ({raw['actions'][k]!r}): {exc}") from None
            if watcher is not None:
                watcher.after(game, seat, action, events)
        if upto is not None and r == upto[0]:
            return game
    return game


def _settings(data: Any) -> Game:
    """The empty match a record's settings describe (format, version, edition, players,
    options, seed), every field checked; its ``rounds`` must be a non-empty list."""
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a unokit record (format must be {FORMAT!r})")
    version = data.get("version")
    if isinstance(version, bool) or version != VERSION:
        raise RecordError(f"unsupported record version {version!r} (this is {VERSION})")
    extra = set(data) - set(RECORD_FIELDS)
    if extra:
        raise RecordError(f"unknown record field {sorted(extra, key=str)[0]!r}")
    edition = data.get("edition")
    if not isinstance(edition, str):
        raise RecordError(f"'edition' must be one of {', '.join(EDITIONS)}, not {edition!r}")
    try:
        check_edition(edition)
    except UnoError as exc:
        raise RecordError(f"'edition': {exc}") from None
    players = read_field(data, "players", read_int)
    if not 2 <= players <= MAX_SEATS:
        raise RecordError(f"'players': {players} seats, but a game has 2 to {MAX_SEATS}")
    seed = read_field(data, "seed", read_int)
    raw_options = data.get("options", {})
    if not isinstance(raw_options, Mapping):
        raise RecordError(f"'options' must be an object of option names and values, not {raw_options!r}")
    try:
        options = Options.from_mapping(raw_options)
        game = Game(edition, players, options, seed)
    except UnoError as exc:
        raise RecordError(f"'options': {exc}") from None
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("a record needs a non-empty 'rounds' list")
    return game


def _start(game: Game, entry: Round, raw: Mapping[str, Any], r: int) -> tuple[Event, ...]:
    """Deal round ``r`` as ``entry`` (read from ``raw``) says, checking its starting totals."""
    dealer, deck, piles, scores, eliminated, _ = entry
    if r == 0:
        if "scores" in raw:
            if len(scores) != len(game.scores):
                raise RecordError(f"'scores' needs {len(game.scores)} numbers")
            game.scores = list(scores)
        for s in eliminated:
            game.eliminated[s] = True
    else:
        if game.phase != ROUND_OVER:
            raise RecordError("the previous round did not end, yet another round follows")
        for key, have, said in (("scores", list(game.scores), list(scores)),
                                ("eliminated", [s for s in range(game.n) if game.eliminated[s]],
                                 list(eliminated))):
            if key in raw and said != have:
                raise RecordError(f"{key!r} before this round should be {have}, the record says {said}")
    if deck is not None:
        return game.start_round(dealer=dealer, deck=list(deck))
    assert piles is not None  # round_from_json gives a deck or the piles
    hands, discard, draw = piles
    return game.start_round(dealer=dealer, hands=[list(h) for h in hands], discard=discard, draw=list(draw))


def round_events(game: Game) -> tuple[Event, ...]:
    """Every event of the current round so far, in full (filter them with ``seen_by``): the
    deal and its first card (:meth:`Game.opening_events <unokit.core.game.Game.opening_events>`),
    then the round's actions applied again to the game as it was dealt. For a game resumed
    mid-round, which did not see its round happen. Only the opening events when the round
    cannot be replayed (a game set up from an observation)."""
    return tuple(e for events in round_moves(game) for e in events)


def round_moves(game: Game) -> list[tuple[Event, ...]]:
    """:func:`round_events` by move: the opening events first, then the events of each action
    of the round's history, in order (only the opening when the round cannot be replayed)."""
    opening = game.opening_events()
    if not game.history or not opening:
        return [opening]
    try:
        scratch = replay(record_of(game), upto=(len(game.rounds) - 1, 0))
        moves = [opening]
        for seat, action in game.history:
            moves.append(scratch.apply_host(action) if seat < 0 else scratch.apply(seat, action))
    except (UnoError, AssertionError):
        return [opening]
    return moves


def same_game(data: Any, record: Mapping[str, Any]) -> bool:
    """Whether ``data`` (read from a file: any JSON value) records the same match as ``record``
    (a :func:`record_of` a match dealt), perhaps at another moment of it: the same
    :data:`SAME_GAME_FIELDS` and the same first deal (:data:`SAME_DEAL_FIELDS`). Data that is
    no record, or a record without a first round, is not the same game. Nothing is replayed:
    the actions may differ (an older or a newer save of the match).

    >>> from unokit import Game
    >>> mine = record_of(Game.new("classic", 2, seed=4))
    >>> same_game(record_of(Game.new("classic", 2, seed=4)), mine), same_game({"rounds": []}, mine)
    (True, False)
    >>> same_game(record_of(Game.new("classic", 2, seed=5)), mine)
    False
    """
    if not isinstance(data, Mapping):
        return False
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds or not isinstance(rounds[0], Mapping):
        return False
    first, ours = rounds[0], record["rounds"][0]
    return all(data.get(k) == record.get(k) for k in SAME_GAME_FIELDS) and all(
        first.get(k) == ours.get(k) for k in SAME_DEAL_FIELDS)


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
