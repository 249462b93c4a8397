"""The JSON form that game records and positions share: action lines, round entries, and
the typed readers of their values (``docs/records.md``).

A round entry holds how a round began and every action in it::

    {"dealer": 1, "scores": [0, 0, 0], "eliminated": [],
     "deck": ["R1", "Y1", ...],                       # top card first, dealt by S2
     "actions": ["2 R7", "0 draw", "host penalize 1"]}

or, for a round set up with stacked piles, ``"hands"``, ``"discard"`` and ``"draw"`` (top card
first) instead of ``"deck"``. Reading refuses anything else with one
:class:`~unokit.core.errors.RecordError` naming the field and what is wrong with it; a
position's reader turns it into a :class:`~unokit.core.errors.PositionError` naming the
position's field too.

>>> line = action_line(2, parse_action("R7!"))
>>> line, parse_action_line(line)
('2 R7!', (2, 75))
>>> parse_action_line("-1 R7")
Traceback (most recent call last):
...
unokit.core.errors.RecordError: '-1 R7': '-1' is not a seat number
"""

from __future__ import annotations

# mypyc: pure: JSON reading and writing, not hot
from collections.abc import Mapping
from typing import Any, Final

from .actions import Action, action_str, parse_action
from .cards import Card, card_str, parse_card
from .errors import RecordError

ROUND_FIELDS: Final = ("dealer", "scores", "eliminated", "deck", "hands", "discard", "draw", "actions")
"""The fields a round entry may hold."""

Round = tuple[int, tuple[Card, ...] | None, tuple[Any, ...] | None, tuple[int | float, ...],
              tuple[int, ...], tuple[tuple[int, Action], ...]]
"""A round as :meth:`RoundStart.frozen <unokit.core.state.RoundStart.frozen>` holds it:
``(dealer, deck, piles, scores, eliminated, actions)``."""


def action_line(seat: int, action: Action) -> str:
    """One action as a record line: ``"2 R7"``, or ``"host penalize 1"`` for a host's action."""
    return f"host {action_str(action)}" if seat < 0 else f"{seat} {action_str(action)}"


def parse_action_line(line: Any) -> tuple[int, Action]:
    """Parse a record line into ``(seat, action)``; the seat is -1 for the host. The seat is
    a plain number (ASCII digits) or ``host``; anything else is a :class:`RecordError`."""
    if not isinstance(line, str):
        raise RecordError(f"{line!r} is not an action line")
    who, sep, rest = line.partition(" ")
    if not sep:
        raise RecordError(f"{line!r}: an action line is 'SEAT ACTION', as in '2 R7'")
    if who == "host":
        return -1, parse_action(rest)
    if not (who.isascii() and who.isdigit()):
        raise RecordError(f"{line!r}: {who!r} is not a seat number")
    return int(who), parse_action(rest)


def round_to_json(r: Round) -> dict[str, Any]:
    """A round (as a :class:`~unokit.core.state.State` holds it) as a round entry."""
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


def round_from_json(entry: Any, players: int | None = None) -> Round:
    """The round of a round entry, every field checked (seats against ``players`` when given).
    A missing ``scores``, ``eliminated`` or ``actions`` reads as empty. Raises one
    :class:`RecordError` naming the field."""
    if not isinstance(entry, Mapping):
        raise RecordError("a round must be an object")
    extra = set(entry) - set(ROUND_FIELDS)
    if extra:
        raise RecordError(f"unknown round field {sorted(extra, key=str)[0]!r}")
    deck = piles = None
    if "deck" in entry:
        deck = tuple(read_field(entry, "deck", read_cards))
    elif all(k in entry for k in ("hands", "discard", "draw")):
        hands = read_field(entry, "hands", lambda v: tuple(tuple(read_cards(h)) for h in read_list(v)))
        piles = (hands, read_field(entry, "discard", read_card), tuple(read_field(entry, "draw", read_cards)))
    else:
        missing = [key for key in ("hands", "discard", "draw") if key not in entry]
        raise RecordError(f"a round needs its 'deck', or 'hands', 'discard' and 'draw' "
                          f"({', '.join(repr(k) for k in missing)} missing)")
    if "dealer" not in entry:
        raise RecordError("a round needs its 'dealer'")
    def seats(v: Any) -> list[int]:
        return [read_seat(s, players) for s in read_list(v)]

    dealer = read_field(entry, "dealer", lambda v: read_seat(v, players))
    scores = tuple(read_field(entry, "scores", lambda v: [read_number(s) for s in read_list(v)], []))
    eliminated = tuple(read_field(entry, "eliminated", seats, []))
    actions = tuple(read_field(entry, "actions", lambda v: [parse_action_line(a) for a in read_list(v)], []))
    return (dealer, deck, piles, scores, eliminated, actions)


def read_field(data: Mapping[str, Any], name: str, read: Any, default: Any = ...) -> Any:
    """``read(data[name])`` (or ``default`` when it is missing and one is given), its error
    prefixed with the field's name: ``'dealer': True is not a seat number``."""
    if name not in data:
        if default is ...:
            raise RecordError(f"{name!r} is missing")
        return default
    try:
        return read(data[name])
    except RecordError as exc:
        raise RecordError(f"{name!r}: {exc}") from None
    except ValueError as exc:  # a NotationError from a card or an action: also an UnoError
        raise RecordError(f"{name!r}: {exc}") from None


def read_list(value: Any) -> list[Any]:
    """``value`` if it is a JSON list."""
    if not isinstance(value, list):
        raise RecordError(f"{value!r} is not a list")
    return value


def read_int(value: Any) -> int:
    """``value`` if it is a whole number (``true`` and ``false`` are not)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{value!r} is not a whole number")
    return value


def read_number(value: Any) -> int | float:
    """``value`` if it is a number (``true`` and ``false`` are not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RecordError(f"{value!r} is not a number")
    return value


def read_bool(value: Any) -> bool:
    """``value`` if it is ``true`` or ``false``."""
    if not isinstance(value, bool):
        raise RecordError(f"{value!r} is not true or false")
    return value


def read_seat(value: Any, players: int | None = None) -> int:
    """``value`` if it is a seat number (below ``players`` when given)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RecordError(f"{value!r} is not a seat number")
    if players is not None and value >= players:
        raise RecordError(f"seat {value} does not exist (seats are 0 to {players - 1})")
    return value


def read_seat_key(value: Any) -> int:
    """A seat written as a JSON object's key: ``"2"``."""
    if not isinstance(value, str) or not value.isdigit() or not value.isascii():
        raise RecordError(f"{value!r} is not a seat number")
    return int(value)


def read_card(value: Any) -> Card:
    """A card from its notation (``"R7"``)."""
    if not isinstance(value, str):
        raise RecordError(f"{value!r} is not a card code")
    return parse_card(value)


def read_cards(value: Any) -> list[Card]:
    """A list of cards from their notation."""
    return [read_card(c) for c in read_list(value)]


__all__ = ["ROUND_FIELDS", "Round", "action_line", "parse_action_line", "read_bool", "read_card",
           "read_cards", "read_field", "read_int", "read_list", "read_number", "read_seat",
           "read_seat_key", "round_from_json", "round_to_json"]
