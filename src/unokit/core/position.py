"""Positions: a whole game as JSON, mid-round included (:meth:`Game.to_dict <unokit.core.game.Game.to_dict>`).

A position holds every field of :class:`~unokit.core.state.State` under ``game``, cards in
notation, beside a format name and version (documented in ``docs/records.md``)::

    {"format": "unokit-position", "version": 1,
     "game": {"edition": "classic", "n": 3, "options": {"target": 200}, "seed": 42,
              "deal_rng": null, "scores": [0, 0, 0], ...,
              "rounds": [{"dealer": 1, "scores": [0, 0, 0], "eliminated": [], "deck": ["R1", ...],
                          "actions": ["2 R7", "0 draw"]}],
              "hands": [["R1", "G2"], ...], "draw_pile": [...], "discard": ["Y3", "R3"],
              "color": "R", "phase": "play", ..., "rng": null, "rng_seed": null, "version": 5}}

Piles are listed bottom first (the last card of ``draw_pile`` is drawn next; the last of
``discard`` is the top). ``rng`` and ``deal_rng`` are ``random.Random.getstate()`` as lists, or
``null``. This module reads and writes the JSON; the game checks that what it describes is
consistent.

>>> from unokit import Game
>>> g = Game.new("cars2", 3, seed=5)
>>> d = g.to_dict()
>>> d["format"], d["game"]["hands"][0] == [card_str(c) for c in g.hands[0]]
('unokit-position', True)
>>> Game.from_dict(d).state() == g.state()
True
"""

from __future__ import annotations

# mypyc: pure: JSON reading and writing, not hot
from collections.abc import Mapping
from typing import Any, Final

from .actions import MAX_SEATS
from .cards import COLOR_LETTERS, DRAW_TWO, WILD_DRAW_FOUR_RANK, card_str
from .codec import (
    read_bool,
    read_card,
    read_cards,
    read_int,
    read_list,
    read_number,
    read_seat_key,
    round_from_json,
    round_to_json,
)
from .errors import PositionError, RecordError, UnoError
from .options import Options
from .phases import AWAITING
from .state import FIELDS, LIST, LISTS, RNG, ROUNDS, VALUE, State

FORMAT: Final = "unokit-position"
VERSION: Final = 1

_CARD_FIELDS: Final = frozenset({"hands", "draw_pile", "discard", "drawn", "seen"})
"""The fields whose values are cards (written in notation)."""
_COUNTS: Final = frozenset({"round_no", "pending", "idle_turns", "version"})
"""The fields that count something (never negative)."""


def state_to_json(state: State) -> dict[str, Any]:
    """The JSON-ready dict of ``state`` (see the module docstring)."""
    out: dict[str, Any] = {}
    for name, _, kind in FIELDS:
        value = getattr(state, name)
        if name == "options":
            out[name] = value.changed()
        elif name == "phase":
            out[name] = AWAITING[value]
        elif name == "color":
            out[name] = COLOR_LETTERS[value]
        elif name == "drawn":
            out[name] = None if value < 0 else card_str(value)
        elif kind == RNG:
            out[name] = None if value is None else [value[0], list(value[1]), value[2]]
        elif kind == ROUNDS:
            out[name] = [round_to_json(r) for r in value]
        elif name in _CARD_FIELDS:
            if kind == LIST:
                out[name] = [card_str(c) for c in value]
            elif kind == LISTS:
                out[name] = [[card_str(c) for c in h] for h in value]
            else:  # DICTS: what each seat has seen
                out[name] = [{str(t): [card_str(c) for c in cards] for t, cards in s} for s in value]
        elif kind == LIST:
            out[name] = list(value)
        else:
            out[name] = value
    return {"format": FORMAT, "version": VERSION, "game": out}


def state_from_json(data: Any) -> State:
    """The :class:`State` a position describes; one :class:`~unokit.core.errors.PositionError`
    naming the first thing that is wrong (format, version, an unknown or missing field, a bad
    value). Whether the state is consistent is checked by the game that restores it."""
    if not isinstance(data, Mapping):
        raise PositionError("a position must be a JSON object")
    if data.get("format") != FORMAT:
        raise PositionError(f"not a unokit position (format must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise PositionError(f"unsupported position version {data.get('version')!r} (this is {VERSION})")
    extra = set(data) - {"format", "version", "game"}
    if extra:
        raise PositionError(f"unknown position field {sorted(extra)[0]!r}")
    data = data.get("game")
    if not isinstance(data, Mapping):
        raise PositionError("a position's 'game' must be a JSON object")
    names = {name for name, _, _ in FIELDS}
    extra = set(data) - names
    if extra:
        raise PositionError(f"unknown position field {sorted(extra)[0]!r}")
    missing = [name for name, _, _ in FIELDS if name not in data]
    if missing:
        raise PositionError(f"the position lacks the field {missing[0]!r}")
    values: dict[str, Any] = {}
    for name, _, kind in FIELDS:
        try:
            values[name] = _field(name, kind, data[name])
        except PositionError as exc:
            raise PositionError(f"field {name!r}: {exc}") from None
        except UnoError as exc:
            raise PositionError(f"field {name!r}: {exc}") from None
    return State(**values)


def _field(name: str, kind: int, value: Any) -> Any:
    if name == "options":
        if not isinstance(value, Mapping):
            raise PositionError("must be an object of option names and values")
        return Options.from_mapping(value)
    if name == "phase":
        if value not in AWAITING:
            raise PositionError(f"{value!r} is not one of {', '.join(AWAITING)}")
        return AWAITING.index(value)
    if name == "color":
        if not isinstance(value, str) or len(value) != 1 or value not in COLOR_LETTERS:
            raise PositionError(f"{value!r} is not a colour (R, Y, G or B)")
        return COLOR_LETTERS.index(value)
    if name == "drawn":
        return -1 if value is None else read_card(value)
    if name == "edition":
        if not isinstance(value, str):
            raise PositionError(f"{value!r} is not an edition name")
        return value
    if kind == RNG:
        return _rng_state(value)
    if kind == ROUNDS:
        rounds = []
        for i, r in enumerate(read_list(value)):
            try:
                rounds.append(round_from_json(r))
            except RecordError as exc:
                raise PositionError(f"round {i + 1}: {exc}") from None
        return tuple(rounds)
    if name in _CARD_FIELDS:
        if kind == LIST:
            return tuple(read_cards(value))
        if kind == LISTS:
            return tuple(tuple(read_cards(h)) for h in read_list(value))
        seen = []
        for s in read_list(value):
            if not isinstance(s, Mapping):
                raise PositionError("each seat's seen hands must be an object")
            seen.append(tuple(sorted((read_seat_key(t), tuple(read_cards(c))) for t, c in s.items())))
        return tuple(seen)
    if kind == LIST:
        if name in ("scores",):
            return tuple(read_number(v) for v in read_list(value))
        if name in ("eliminated", "owed"):
            return tuple(read_bool(v) for v in read_list(value))
        return tuple(read_int(v) for v in read_list(value))
    if kind == VALUE and name in ("bluff", "blocked"):
        return read_bool(value)
    if kind == VALUE and name == "rng_seed":
        return None if value is None else read_int(value)
    if name == "n":
        n = read_int(value)
        if not 2 <= n <= MAX_SEATS:
            raise PositionError(f"{n} seats: a game has 2 to {MAX_SEATS}")
        return n
    if name in _COUNTS:
        count = read_int(value)
        if count < 0:
            raise PositionError(f"{count} is negative")
        return count
    if name == "pending_rank":
        rank = read_int(value)
        if rank not in (-1, DRAW_TWO, WILD_DRAW_FOUR_RANK):
            raise PositionError(f"{rank} is not -1 or the rank of a draw card "
                                f"({DRAW_TWO} or {WILD_DRAW_FOUR_RANK})")
        return rank
    return read_int(value)


def _rng_state(value: Any) -> Any:
    if value is None:
        return None
    if (not isinstance(value, list) or len(value) != 3 or not isinstance(value[1], list)
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value[1])):
        raise PositionError("a generator's state must be [version, [integers], gauss] or null")
    state = (value[0], tuple(value[1]), value[2])
    import random  # only to check that the state is one a generator accepts

    try:
        random.Random(0).setstate(state)
    except (TypeError, ValueError, OverflowError):
        raise PositionError("not a random generator's state") from None
    return state


__all__ = ["FORMAT", "VERSION", "state_from_json", "state_to_json"]
