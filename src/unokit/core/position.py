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
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from .actions import MAX_SEATS, N_ACTIONS
from .cards import COLOR_LETTERS, DRAW_TWO, N_CARDS, WILD_DRAW_FOUR_RANK, Card, card_str
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
from .editions import edition_counts
from .errors import PositionError, RecordError, UnoError
from .options import Options
from .phases import AWAITING, DRAWN, GAME_OVER, RESPOND, ROUND_OVER
from .state import FIELDS, LIST, LISTS, RNG, ROUNDS, State

if TYPE_CHECKING:
    from .game import Game

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
    """One field's value as a :class:`State` holds it, read from its JSON value."""
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
        return _cards_field(name, kind, value)
    if kind == LIST:
        if name == "scores":
            return tuple(read_number(v) for v in read_list(value))
        if name in ("eliminated", "owed"):
            return tuple(read_bool(v) for v in read_list(value))
        return tuple(read_int(v) for v in read_list(value))
    return _value_field(name, value)


def _cards_field(name: str, kind: int, value: Any) -> Any:
    """A field of cards: the piles, the hands, the drawn card, what each seat has seen."""
    if name == "drawn":
        return -1 if value is None else read_card(value)
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


def _value_field(name: str, value: Any) -> Any:
    """A field of one value: the settings, the phase and colour, flags, counts and seats."""
    if name == "options":
        if not isinstance(value, Mapping):
            raise PositionError("must be an object of option names and values")
        return Options.from_mapping(value)
    if name == "edition":
        if not isinstance(value, str):
            raise PositionError(f"{value!r} is not an edition name")
        return value
    if name == "phase":
        if value not in AWAITING:
            raise PositionError(f"{value!r} is not one of {', '.join(AWAITING)}")
        return AWAITING.index(value)
    if name == "color":
        if not isinstance(value, str) or len(value) != 1 or value not in COLOR_LETTERS:
            raise PositionError(f"{value!r} is not a colour (R, Y, G or B)")
        return COLOR_LETTERS.index(value)
    if name in ("bluff", "blocked"):
        return read_bool(value)
    if name == "rng_seed":
        return None if value is None else read_int(value)
    number = read_int(value)
    if name == "n" and not 2 <= number <= MAX_SEATS:
        raise PositionError(f"{number} seats: a game has 2 to {MAX_SEATS}")
    if name in _COUNTS and number < 0:
        raise PositionError(f"{number} is negative")
    if name == "pending_rank" and number not in (-1, DRAW_TWO, WILD_DRAW_FOUR_RANK):
        raise PositionError(f"{number} is not -1 or a draw card's rank ({DRAW_TWO} or {WILD_DRAW_FOUR_RANK})")
    return number


def _rng_state(value: Any) -> Any:
    if value is None:
        return None
    if (not isinstance(value, list) or len(value) != 3 or not isinstance(value[1], list)
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value[1])):
        raise PositionError("a generator's state must be [version, [integers], gauss] or null")
    state = (value[0], tuple(value[1]), value[2])
    try:  # a state that a generator accepts
        random.Random(0).setstate(state)
    except (TypeError, ValueError, OverflowError):
        raise PositionError("not a random generator's state") from None
    return state




# ---------------------------------------------------------------------- consistency


def check_consistency(g: Game) -> None:
    """Raise :class:`~unokit.core.errors.PositionError` if a restored game's fields do not make
    a game: sizes per seat, the cards against the edition's deck, seats that exist, the phase
    and what it needs, every round's deal and log."""
    _check_sizes(g)
    _check_cards(g)
    _check_seats(g)
    _check_phase(g)
    for r in g.rounds:
        _check_round(g, r.dealer, r.deck, r.piles, r.actions)


def _bad(why: str) -> PositionError:
    return PositionError(f"inconsistent position: {why}")


def _check_sizes(g: Game) -> None:
    n = g.n
    sides = g.rules.teams or n
    for name, value, size in (("hands", g.hands, n), ("owed", g.owed, n), ("seen", g.seen, n),
                              ("eliminated", g.eliminated, n), ("scores", g.scores, sides)):
        if len(value) != size:
            raise _bad(f"{name} has {len(value)} entries for {size}")


def _check_cards(g: Game) -> None:
    if not g.discard:
        raise _bad("the discard pile is empty")
    cards = [c for h in g.hands for c in h] + g.draw_pile + g.discard
    counts = [0] * N_CARDS
    for c in cards:
        counts[c] += 1
    limits = edition_counts(g.edition)
    for c in range(N_CARDS):
        if counts[c] > limits[c]:
            raise _bad(f"{counts[c]} × {card_str(c)}, but the {g.edition} deck has {limits[c]}")
    if g.rounds and g.rounds[-1].deck is not None and len(cards) != sum(limits):
        raise _bad(f"{len(cards)} cards in play, but the round was dealt the whole deck of {sum(limits)}")


def _check_seats(g: Game) -> None:
    seats = range(g.n)
    sides = g.rules.teams or g.n
    for name, seat in (("turn", g.turn), ("dealer", g.dealer)):
        if seat not in seats:
            raise _bad(f"{name} is seat {seat}, which does not exist")
    for name, seat in (("attacker", g.attacker), ("round_winner", g.round_winner)):
        if seat != -1 and seat not in range(sides if name == "round_winner" else g.n):
            raise _bad(f"{name} is {seat}, which does not exist")
    if any(s not in seats for s in g.window):
        raise _bad("the window names a seat that does not exist")
    if any(t not in seats for d in g.seen for t in d):
        raise _bad("seen names a seat that does not exist")
    if any(w not in range(sides) for w in g.winners):
        raise _bad("winners names a seat or team that does not exist")
    if g.direction not in (1, -1):
        raise _bad(f"direction is {g.direction} (1 or -1)")
    if not 0 <= g.color < 4:
        raise _bad(f"colour {g.color} is not a colour")


def _check_phase(g: Game) -> None:
    if g.phase < ROUND_OVER:  # (a round just ended keeps the hands it was scored on)
        if g.eliminated[g.turn]:
            raise _bad(f"seat {g.turn} is on turn but eliminated")
        for s in range(g.n):
            if g.eliminated[s] and g.hands[s]:
                raise _bad(f"seat {s} is out of the game but holds cards")
        if g.eliminated.count(False) < 2:
            raise _bad("a round needs two seats still in the game")
    if g.phase == DRAWN and g.drawn >= 0 and g.drawn not in g.hands[g.turn]:
        raise _bad(f"the drawn {card_str(g.drawn)} is not in seat {g.turn}'s hand")
    if g.phase == RESPOND and (g.attacker < 0 or g.pending <= 0):
        raise _bad("a draw card waits for an answer, but no attacker or count is set")
    if (g.phase == GAME_OVER) != bool(g.winners):
        raise _bad("the match is over exactly when it has winners")


def _check_round(g: Game, dealer: int, deck: tuple[Card, ...] | None, piles: Any,
                 actions: list[tuple[int, int]]) -> None:
    if dealer not in range(g.n):
        raise _bad(f"a round's dealer is seat {dealer}, which does not exist")
    dealt = list(deck) if deck is not None else (
        [c for h in piles[0] for c in h] + [piles[1]] + list(piles[2]) if piles is not None else [])
    if any(not 0 <= c < N_CARDS for c in dealt):
        raise _bad("a round's deal holds a card that does not exist")
    counts = [0] * N_CARDS
    for c in dealt:
        counts[c] += 1
    limits = edition_counts(g.edition)
    for c in range(N_CARDS):
        if counts[c] > limits[c]:
            raise _bad(f"a round was dealt {counts[c]} × {card_str(c)}, but the deck has {limits[c]}")
    for seat, a in actions:
        if not -1 <= seat < g.n or not 0 <= a < N_ACTIONS:
            raise _bad(f"the action {a} of seat {seat} in a round's log does not exist")


__all__ = ["FORMAT", "VERSION", "check_consistency", "state_from_json", "state_to_json"]
