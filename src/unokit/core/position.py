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

from .actions import action_str, parse_action
from .cards import COLOR_LETTERS, card_str, parse_card
from .errors import PositionError, UnoError
from .options import Options
from .phases import AWAITING
from .state import FIELDS, LIST, LISTS, RNG, ROUNDS, VALUE, State

FORMAT: Final = "unokit-position"
VERSION: Final = 1

_CARD_FIELDS: Final = frozenset({"hands", "draw_pile", "discard", "drawn", "seen"})
"""The fields whose values are cards (written in notation)."""


def action_line(seat: int, action: int) -> str:
    """One action as a record line: ``"2 R7"``, or ``"host penalize 1"`` for a host's action."""
    return f"host {action_str(action)}" if seat < 0 else f"{seat} {action_str(action)}"


def parse_action_line(line: str) -> tuple[int, int]:
    """Parse a record line into ``(seat, action)``; the seat is -1 for the host."""
    if not isinstance(line, str):
        raise PositionError(f"{line!r} is not an action line")
    who, sep, rest = line.partition(" ")
    if not sep:
        raise PositionError(f"{line!r}: an action line is 'SEAT ACTION', as in '2 R7'")
    if who == "host":
        return -1, parse_action(rest)
    if not who.isdigit():
        raise PositionError(f"{line!r}: {who!r} is not a seat number")
    return int(who), parse_action(rest)


def round_to_json(r: tuple[Any, ...]) -> dict[str, Any]:
    """A round of :attr:`State.rounds` as a record's round entry."""
    dealer, deck, piles, scores, eliminated, actions = r
    entry: dict[str, Any] = {"dealer": dealer, "scores": list(scores), "eliminated": list(eliminated)}
    if deck is not None:
        entry["deck"] = [card_str(c) for c in deck]
    elif piles is not None:
        hands, discard, draw = piles
        entry["hands"] = [[card_str(c) for c in h] for h in hands]
        entry["discard"] = card_str(discard)
        entry["draw"] = [card_str(c) for c in draw]
    entry["actions"] = [action_line(seat, a) for seat, a in actions]
    return entry


def _round_from_json(entry: Any) -> tuple[Any, ...]:
    if not isinstance(entry, Mapping):
        raise PositionError("a round must be an object")
    extra = set(entry) - {"dealer", "scores", "eliminated", "deck", "hands", "discard", "draw", "actions"}
    if extra:
        raise PositionError(f"unknown round field {sorted(extra)[0]!r}")
    deck = piles = None
    if "deck" in entry:
        deck = tuple(_cards(entry["deck"]))
    elif "hands" in entry:
        piles = (tuple(tuple(_cards(h)) for h in _list(entry["hands"])), _card(entry["discard"]),
                 tuple(_cards(entry["draw"])))
    scores = tuple(_number(v) for v in _list(entry.get("scores", [])))
    eliminated = tuple(_int(v) for v in _list(entry.get("eliminated", [])))
    actions = tuple(parse_action_line(line) for line in _list(entry.get("actions", [])))
    return (_int(entry.get("dealer")), deck, piles, scores, eliminated, actions)


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
        return -1 if value is None else _card(value)
    if name == "edition":
        if not isinstance(value, str):
            raise PositionError(f"{value!r} is not an edition name")
        return value
    if kind == RNG:
        return _rng_state(value)
    if kind == ROUNDS:
        return tuple(_round_from_json(r) for r in _list(value))
    if name in _CARD_FIELDS:
        if kind == LIST:
            return tuple(_cards(value))
        if kind == LISTS:
            return tuple(tuple(_cards(h)) for h in _list(value))
        seen = []
        for s in _list(value):
            if not isinstance(s, Mapping):
                raise PositionError("each seat's seen hands must be an object")
            seen.append(tuple(sorted((_seat_key(t), tuple(_cards(c))) for t, c in s.items())))
        return tuple(seen)
    if kind == LIST:
        if name in ("scores",):
            return tuple(_number(v) for v in _list(value))
        if name in ("eliminated", "owed"):
            return tuple(_bool(v) for v in _list(value))
        return tuple(_int(v) for v in _list(value))
    if kind == VALUE and name in ("bluff", "blocked"):
        return _bool(value)
    if kind == VALUE and name == "rng_seed":
        return None if value is None else _int(value)
    return _int(value)


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


def _seat_key(value: Any) -> int:
    """A seat written as a JSON object's key: ``"2"``."""
    if not isinstance(value, str) or not value.isdigit() or not value.isascii():
        raise PositionError(f"{value!r} is not a seat number")
    return int(value)


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"{value!r} is not a list")
    return value


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"{value!r} is not a whole number")
    return value


def _number(value: Any) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PositionError(f"{value!r} is not a number")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise PositionError(f"{value!r} is not true or false")
    return value


def _card(value: Any) -> int:
    if not isinstance(value, str):
        raise PositionError(f"{value!r} is not a card code")
    return parse_card(value)


def _cards(value: Any) -> list[int]:
    return [_card(c) for c in _list(value)]


__all__ = ["FORMAT", "VERSION", "action_line", "parse_action_line", "round_to_json", "state_from_json",
           "state_to_json"]
