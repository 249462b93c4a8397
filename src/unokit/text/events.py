"""The player's words for every event, as one table of data, and the small interpreter that
tells an event with it.

The table (:data:`EVENT_WORDS`) says, for each event type, which message tells it, which of
the event's fields fill the message, and the conditions that choose between its variants. It
is plain JSON, so that two interpreters read it: :class:`EventWords` here (the terminal's log,
through :class:`unokit.narrate.Teller`), and the browser's ``static/teller.js``, which gets it
with what the rules settle (:func:`narration_json`, ``GET /api/narration``). Neither
interpreter knows a rule or words an event itself.

The events are read as the protocol sends them (``Event.to_dict()``: cards in notation,
colours as numbers). The table's parts:

- ``state``: what the teller remembers between events, with its starting values (seats and
  colours are -1 when not known), and what its reader gives it: ``names`` (each seat's display
  name, or null for ``Player {n}``) and ``viewer`` (the seat it is told to, -1 for a spectator,
  which the second person's messages name: ``You play red 7.``);
- ``events``: per event type, ``before`` (state set first), ``lines`` (groups, each giving at
  most one line, or one per item with ``each``) and ``after`` (state set last). A group's
  ``cases`` are tried in order: the first whose ``when`` holds (or that has none) is said;
  its ``say`` is a message id, a ``[singular, plural]`` pair chosen by ``count``, or null
  (nothing said); ``fill`` gives each of the message's fields as ``[word, value]``; ``set``
  changes the state once it is said;
- ``words``: the messages that name a seat and a team, and the separator of a list of sides;
- ``rules`` (in :func:`narration_json` only): the values of the rules the conditions read.

A value is a JSON literal, a reference (``"e.seat"`` the event's field, ``"s.facing"`` the
state, ``"r.wild"`` a value of ``rules``, ``"i"`` the index of ``each``), or an
operation ``[op, value, ...]`` (:data:`OPERATIONS`). A word is ``seat``, ``side``, ``sides``
(a list of sides), ``card``, ``color`` or ``number``.

>>> from unokit.text.i18n import translator
>>> words = EventWords(translator("en"), "classic", 2)
>>> words.lines({"type": "Played", "seat": 1, "card": "W", "color": 2, "uno": True, "jump_in": False})
['Player 2 plays Wild and names green.', 'Player 2 calls UNO!']
>>> words.state["color"]
2
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

from ..core.actions import MAX_SEATS
from ..core.cards import CARD_COLOR, CARD_TEXT, IS_WILD, N_CARDS, parse_card
from ..core.errors import UnoError
from ..core.scoring import BLOCKED_AFTER
from .i18n import N_, Translator


def Nn_(singular: str, plural: str) -> list[str]:
    """Mark a message with plural forms for extraction (``ngettext``'s two ids), as data."""
    return [singular, plural]


def _who(field: str = "seat") -> dict[str, list[str]]:
    return {"who": ["seat", "e." + field]}


def _is_you(who: Any, side: bool = False) -> list[Any]:
    """Whether the seat ``who`` (or with ``side``, the side ``who``) is the viewer's."""
    viewer = ["side_of", "s.viewer"] if side else "s.viewer"
    return ["and", ["ne", "s.viewer", -1], ["eq", who, viewer]]


def _you(say: Any, case: dict[str, Any], who: Any = "e.seat", side: bool = False) -> list[dict[str, Any]]:
    """A case told to its viewer in the second person (``say``) when the seat ``who`` (or the
    side, with ``side``) is theirs, then the case as others are told it."""
    when = _is_you(who, side) if "when" not in case else ["and", _is_you(who, side), case["when"]]
    return [{**case, "when": when, "say": say}, case]


def _say(message: str, you: str, **fill: list[Any]) -> dict[str, Any]:
    """An event told by one message, always: the fields of ``fill``, or ``{who}`` the seat;
    ``you`` to the seat ``{who}`` itself."""
    fill = fill or _who()
    case = {"say": message, "fill": fill}
    return {"lines": [{"cases": _you(you, case, fill["who"][1])}]}


def _plain(message: str) -> dict[str, Any]:
    """An event told by one message without fields."""
    return {"lines": [{"cases": [{"say": message}]}]}


_CARD: Final = ["card", "e.card"]
_COLOR: Final = ["color", "e.color"]
_ANSWER: Final = ["and", ["eq", "e.seat", "s.facing"], ["not", "e.jump_in"]]
_WILD: Final = ["in", "e.card", "r.wild"]
_GAINED: Final = ["sub", ["at", "e.scores", "i"], ["at", "s.scores", "i"]]


def _same(name: str) -> list[Any]:
    """Whether the state's list ``name`` and the event's have the same length (both known)."""
    return ["eq", ["len", "s." + name], ["len", "e." + name]]


def _answer_case(when: Any, fill: dict[str, Any], who_says: str, you_say: str, target_says: str,
                 target: str, **extra: Any) -> list[dict[str, Any]]:
    """An answer to a draw card: to its seat (``you_say``), to the seat that takes the cards
    (``target_says``), and to the others (``who_says``)."""
    case = {"when": when, "say": who_says, "fill": fill, **extra}
    to_target = {**case, "when": ["and", _is_you(target), when], "say": target_says}
    return [*_you(you_say, case)[:1], to_target, case]


_PLAYED: Final[dict[str, Any]] = {
    "before": [["replaced", "s.color"], ["color", "e.color"]],
    "lines": [
        {"cases": [
            *_answer_case(["and", _ANSWER, ["eq", "e.card", "WP"]],
                          {**_who(), "card": _CARD, "color": _COLOR, "target": ["seat", "s.attacker"]},
                          N_("{who} answers with {card} and names {color}: {target} takes the cards."),
                          N_("You answer with {card} and name {color}: {target} takes the cards."),
                          N_("{who} answers with {card} and names {color}: you take the cards."),
                          "s.attacker", set=[["facing", -1], ["answered", "e.seat"]]),
            *_you(N_("You add {card} to the pile of draw cards."),
                  {"when": _ANSWER, "say": N_("{who} adds {card} to the pile of draw cards."),
                   "fill": {**_who(), "card": _CARD}, "set": [["facing", -1]]}),
            *_you(N_("You jump in with {card} and name {color}."),
                  {"when": ["and", "e.jump_in", _WILD],
                   "say": N_("{who} jumps in with {card} and names {color}."),
                   "fill": {**_who(), "card": _CARD, "color": _COLOR}}),
            *_you(N_("You jump in with {card}."),
                  {"when": "e.jump_in", "say": N_("{who} jumps in with {card}."),
                   "fill": {**_who(), "card": _CARD}}),
            # The colour it replaced: whoever answers it can judge whether it was a bluff.
            *_you(N_("You play {card} on {old} and name {color}."),
                  {"when": ["and", ["eq", "e.card", "W+4"], ["ne", "s.replaced", -1]],
                   "say": N_("{who} plays {card} on {old} and names {color}."),
                   "fill": {**_who(), "card": _CARD, "old": ["color", "s.replaced"], "color": _COLOR}}),
            *_you(N_("You play {card} and name {color}."),
                  {"when": _WILD, "say": N_("{who} plays {card} and names {color}."),
                   "fill": {**_who(), "card": _CARD, "color": _COLOR}}),
            *_you(N_("You play {card}."),
                  {"say": N_("{who} plays {card}."), "fill": {**_who(), "card": _CARD}}),
        ]},
        {"cases": _you(N_("You call UNO!"),
                       {"when": "e.uno", "say": N_("{who} calls UNO!"), "fill": _who()})},
    ],
}

_WINNER: Final = ["side_of", "e.winner"]

_ROUND_ENDED: Final[dict[str, Any]] = {
    "lines": [
        {"cases": [
            *_you(N_("No card has been played from a hand for {turns} turns: the round is blocked. "
                     "You hold the fewest points and win it."),
                  {"when": "e.blocked",
                   "say": N_("No card has been played from a hand for {turns} turns: the round is blocked. "
                             "{who} holds the fewest points and wins it."),
                   "fill": {"turns": ["number", "r.blocked_after"], "who": ["side", _WINNER]}},
                  _WINNER, side=True),
            *_you(N_("You went out: the round is over."),
                  {"say": N_("{who} went out: the round is over."), "fill": {"who": ["side", _WINNER]}},
                  _WINNER, side=True),
        ]},
        {"each": "e.scores", "cases": _you(
            Nn_("You score {points} point.", "You score {points} points."),
            {"when": ["and", _same("scores"), ["ne", ["at", "e.scores", "i"], ["at", "s.scores", "i"]]],
             "say": Nn_("{who} scores {points} point.", "{who} scores {points} points."),
             "count": ["int", _GAINED], "fill": {"who": ["side", "i"], "points": ["number", _GAINED]}},
            "i", side=True)},
        {"each": "e.eliminated", "cases": _you(
            N_("You are out of the game."),
            {"when": ["and", _same("eliminated"), ["at", "e.eliminated", "i"],
                      ["not", ["at", "s.eliminated", "i"]]],
             "say": N_("{who} is out of the game."), "fill": {"who": ["seat", "i"]}},
            "i")},
    ],
    "after": [["scores", "e.scores"], ["eliminated", "e.eliminated"]],
}


def _challenged(won: bool) -> list[dict[str, Any]]:
    """The words of a challenge of a Wild Draw Four, to its challenger, its player, the others."""
    if won:
        says = (N_("{who} challenges the {card} of {target}: it was a bluff!"),
                N_("You challenge the {card} of {target}: it was a bluff!"),
                N_("{who} challenges your {card}: it was a bluff!"))
    else:
        says = (N_("{who} challenges the {card} of {target}: it was played fairly."),
                N_("You challenge the {card} of {target}: it was played fairly."),
                N_("{who} challenges your {card}: it was played fairly."))
    case = {"say": says[0],
            "fill": {**_who("challenger"), "card": ["card", "W+4"], "target": ["seat", "e.attacker"]}}
    if won:
        case["when"] = "e.won"
    return [*_you(says[1], case, "e.challenger")[:1], *_you(says[2], case, "e.attacker")]


EVENT_WORDS: Final[dict[str, Any]] = {
    "words": {"seat": N_("Player {n}"), "team": N_("{a} and {b}"), "separator": ", "},
    "state": {"facing": -1, "attacker": -1, "answered": -1, "first": -1, "color": -1, "replaced": -1,
              "scores": None, "eliminated": None, "names": None, "viewer": -1},
    "events": {
        "RoundStarted": {
            "before": [["facing", -1], ["attacker", -1], ["answered", -1], ["color", -1], ["replaced", -1],
                       ["first", ["next", "e.dealer", "r.left", "e.hand_sizes"]]],
            "lines": [{"cases": _you(N_("Round {n}: you deal."),
                                     {"say": N_("Round {n}: {dealer} deals."),
                                      "fill": {"n": ["number", ["add", "e.round_no", 1]],
                                               "dealer": ["seat", "e.dealer"]}}, "e.dealer")}],
        },
        "TurnedUp": {"lines": [
            {"cases": [
                {"when": "e.returned",
                 "say": N_("The first card is {card}: it goes back into the draw pile."),
                 "fill": {"card": _CARD}},
                {"when": _WILD, "say": N_("The first card is {card}."), "fill": {"card": _CARD}},
                {"say": N_("The first card is {card}."), "fill": {"card": _CARD},
                 "set": [["color", ["at", "r.card_color", "e.card"]]]},
            ]},
            # Its colour is chosen first, by the seat that starts (S3).
            {"cases": _you(N_("You choose the colour."),
                           {"when": ["and", ["not", "e.returned"], _WILD, ["ne", "s.first", -1]],
                            "say": N_("{who} chooses the colour."), "fill": {"who": ["seat", "s.first"]}},
                           "s.first")},
        ]},
        "Played": _PLAYED,
        "WrongCard": _say(N_("{who} shows {card}, which does not match: it goes back to the hand."),
                          N_("You show {card}, which does not match: it goes back to your hand."),
                          who=["seat", "e.seat"], card=_CARD),
        "Drew": {"lines": [{"cases": [
            *_you(N_("You draw a card."),
                  {"when": ["and", ["eq", "e.reason", "turn"], ["eq", "e.count", 1]],
                   "say": N_("{who} draws a card."), "fill": _who()}),
            *_you(Nn_("You draw {n} card.", "You draw {n} cards."),
                  {"say": Nn_("{who} draws {n} card.", "{who} draws {n} cards."), "count": "e.count",
                   "fill": {**_who(), "n": ["number", "e.count"]}}),
        ]}]},
        "Reshuffled": _plain(N_("The discard pile is shuffled into a new draw pile.")),
        "Passed": _say(N_("{who} keeps the card and passes."), N_("You keep the card and pass.")),
        "Skipped": _say(N_("{who} is skipped."), N_("You are skipped.")),
        "DirectionChanged": _plain(N_("Play changes direction.")),
        "ColorNamed": {"before": [["color", "e.color"]],
                       **_say(N_("{who} names {color}."), N_("You name {color}."),
                              who=["seat", "e.seat"], color=_COLOR)},
        "DrawPending": {"before": [["facing", "e.seat"], ["attacker", "e.attacker"]],
                        "lines": [{"cases": _you(
            Nn_("You must take {n} card, or answer.", "You must take {n} cards, or answer."),
            {"say": Nn_("{who} must take {n} card, or answer.", "{who} must take {n} cards, or answer."),
             "count": "e.count", "fill": {**_who(), "n": ["number", "e.count"]}})}]},
        "Accepted": {"before": [["facing", -1]],
                     **_say(N_("{who} takes the cards."), N_("You take the cards."))},
        "Challenged": {"before": [["facing", -1]],
                       "lines": [{"cases": [*_challenged(True), *_challenged(False)]}]},
        # Told with the card already when the Agent P was played in answer (see Played).
        "AgentPAnswered": {"before": [["facing", -1]], "lines": [{"cases": [
            {"when": ["eq", "s.answered", "e.seat"], "say": None, "set": [["answered", -1]]},
            *_answer_case(True, {**_who(), "card": ["card", "WP"], "target": ["seat", "e.attacker"]},
                          N_("{who} answers with {card}: {target} takes the cards."),
                          N_("You answer with {card}: {target} takes the cards."),
                          N_("{who} answers with {card}: you take the cards."), "e.attacker"),
        ]}]},
        "UnoCalled": _say(N_("{who} calls UNO!"), N_("You call UNO!")),
        "UnoMissed": _say(N_("{who} has one card left and did not call UNO."),
                          N_("You have one card left and did not call UNO.")),
        "Caught": {"lines": [{"cases": [
            *_you(N_("You catch {target} without an UNO call."),
                  {"say": N_("{who} catches {target} without an UNO call."),
                   "fill": {"who": ["seat", "e.catcher"], "target": ["seat", "e.seat"]}}, "e.catcher")[:1],
            *_you(N_("{who} catches you without an UNO call."),
                  {"say": N_("{who} catches {target} without an UNO call."),
                   "fill": {"who": ["seat", "e.catcher"], "target": ["seat", "e.seat"]}}),
        ]}]},
        "HostPenalty": _say(N_("The host gives {who} the penalty for suggestions."),
                            N_("The host gives you the penalty for suggestions.")),
        "Peeked": _say(N_("{who} peeks at every other hand."), N_("You peek at every other hand.")),
        "HandsSwapped": {"lines": [{"cases": [
            *_you(N_("You swap hands with {target}."),
                  {"say": N_("{who} swaps hands with {target}."),
                   "fill": {"who": ["seat", "e.seat"], "target": ["seat", "e.target"]}})[:1],
            *_you(N_("{who} swaps hands with you."),
                  {"say": N_("{who} swaps hands with {target}."),
                   "fill": {"who": ["seat", "e.seat"], "target": ["seat", "e.target"]}}, "e.target"),
        ]}]},
        "HandsRotated": _plain(N_("Every hand passes to the next player.")),
        "RoundEnded": _ROUND_ENDED,
        "GameEnded": {"lines": [{"cases": [
            *_you(N_("You won the game!"),
                  {"when": ["eq", ["len", "e.winners"], 1], "say": N_("{who} won the game!"),
                   "fill": {"who": ["side", ["at", "e.winners", 0]]}},
                  ["at", "e.winners", 0], side=True),
            {"say": N_("Shared win: {who}!"), "fill": {"who": ["sides", "e.winners"]}},
        ]}]},
    },
}
"""Every event's words: the table both interpreters read (see the module's docstring)."""

OPERATIONS: Final = ("eq", "ne", "not", "and", "or", "in", "at", "add", "sub", "int", "len", "next",
                     "side_of")
"""The operations of a value: ``eq``, ``ne``, ``not``, ``and``, ``or``; ``in`` (a value among a
list's items or a map's keys), ``at`` (a list's item or a map's value), ``add``, ``sub``, ``int``
(towards zero), ``len`` (-1 for null); ``next`` (``[next, seat, step, sizes]``: the first seat
after ``seat``, stepping by ``step`` round the table, whose size is not 0; -1 if none) and
``side_of`` (a seat's side)."""


WORDS: Final = ("seat", "side", "sides", "card", "color", "number")
"""The words a field is told in: a seat's name, a side's, a list of sides', a card's, a colour's,
a number."""


@lru_cache(maxsize=1)
def rule_values() -> dict[str, Any]:
    """What the table's conditions need from the rules, computed from the engine: the turns
    without a card from a hand that block a round, the step to the left (seat ``i + 1``), the
    wild cards, each coloured card's colour, and the seats of each team with ``mode: partners``
    (by the number of players)."""
    from ..core.errors import OptionError
    from ..core.game import Game
    from ..core.options import Options

    partners: dict[str, list[list[int]]] = {}
    for n in range(2, MAX_SEATS + 1):
        try:
            game = Game.new("classic", n, Options(mode="partners"), seed=0)
        except OptionError:
            continue
        teams: dict[int, list[int]] = {}
        for seat in range(n):
            teams.setdefault(game.team_of(seat), []).append(seat)
        partners[str(n)] = [teams[t] for t in sorted(teams)]
    return {
        "blocked_after": BLOCKED_AFTER,
        "left": 1,
        "wild": [CARD_TEXT[c] for c in range(N_CARDS) if IS_WILD[c]],
        "card_color": {CARD_TEXT[c]: CARD_COLOR[c] for c in range(N_CARDS) if not IS_WILD[c]},
        "partners": partners,
    }


@lru_cache(maxsize=1)
def narration_json() -> dict[str, Any]:
    """The table and the rules' values, as the browser reads them (``GET /api/narration``)."""
    return {**EVENT_WORDS, "rules": rule_values()}


def number_text(x: int | float) -> str:
    """A number as the log writes it: ``30``, ``30.5``."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


class EventWords:
    """Tells events (as ``Event.to_dict()`` gives them) with :data:`EVENT_WORDS`, in the language
    of ``tr``, remembering the table's ``state`` between them. ``teams``: the number of teams
    with ``mode: partners`` (else 0)."""

    def __init__(self, tr: Translator, edition: str, players: int, teams: int = 0) -> None:
        self.tr = tr
        self.edition = edition
        self.players = players
        self.teams = teams
        self.rules = rule_values()
        self.state: dict[str, Any] = dict(EVENT_WORDS["state"])
        self.sides: list[list[int]] = [[s] for s in range(players)]
        if teams:
            sides = self.rules["partners"].get(str(players))
            if sides is None or len(sides) != teams:
                raise UnoError(f"no teams of {teams} for {players} players")
            self.sides = sides

    # ------------------------------------------------------------------ names

    def seat(self, seat: int) -> str:
        """A seat's name: its entry in the state's ``names`` when it has one, else ``Player 1``
        for seat 0."""
        names = self.state["names"]
        if names and 0 <= seat < len(names) and names[seat]:
            return str(names[seat])
        return self.tr._(EVENT_WORDS["words"]["seat"]).format(n=seat + 1)

    def side_of(self, seat: int) -> int:
        """The side (team with partners, else the seat) of ``seat``."""
        return next((i for i, seats in enumerate(self.sides) if seat in seats), seat)

    def side(self, side: int) -> str:
        """A side's name: its seat's, or its two seats' with partners."""
        seats = self.sides[side] if 0 <= side < len(self.sides) else [side]
        if len(seats) == 2:
            team = self.tr._(EVENT_WORDS["words"]["team"])
            return team.format(a=self.seat(seats[0]), b=self.seat(seats[1]))
        return self.seat(seats[0])

    # ------------------------------------------------------------------ telling

    def lines(self, e: Mapping[str, Any]) -> list[str]:
        """The lines of one event (before the names take their case: see ``Translator.agree``)."""
        told = EVENT_WORDS["events"].get(e.get("type"))
        if told is None:
            raise UnoError(f"no words for the event {e.get('type')}")
        self._set(told.get("before", ()), e, None)
        out: list[str] = []
        for group in told["lines"]:
            if "each" in group:
                items = self.value(group["each"], e, None) or ()
                for i in range(len(items)):
                    out.extend(self._case(group["cases"], e, i))
            else:
                out.extend(self._case(group["cases"], e, None))
        self._set(told.get("after", ()), e, None)
        return out

    def _set(self, sets: Sequence[Sequence[Any]], e: Mapping[str, Any], i: int | None) -> None:
        for name, value in sets:
            self.state[name] = self.value(value, e, i)

    def _case(self, cases: Sequence[Mapping[str, Any]], e: Mapping[str, Any], i: int | None) -> list[str]:
        for case in cases:
            if "when" in case and not self.value(case["when"], e, i):
                continue
            say = case["say"]
            line: list[str] = []
            if say is not None:
                fill = {k: self.word(w, self.value(v, e, i)) for k, (w, v) in case.get("fill", {}).items()}
                if isinstance(say, list):
                    text = self.tr.ngettext(say[0], say[1], int(self.value(case["count"], e, i)))
                else:
                    text = self.tr._(say)
                line = [text.format(**fill)]
            self._set(case.get("set", ()), e, i)
            return line
        return []

    def word(self, kind: str, x: Any) -> str:
        """A value in words: a ``seat``, a ``side``, ``sides``, a ``card``, a ``color``, a ``number``."""
        if kind == "seat":
            return self.seat(x)
        if kind == "side":
            return self.side(x)
        if kind == "sides":
            return str(EVENT_WORDS["words"]["separator"]).join(self.side(s) for s in x)
        if kind == "card":
            return self.tr.card_name(parse_card(x), self.edition)
        if kind == "color":
            return self.tr.color(x)
        if kind == "number":
            return number_text(x)
        raise UnoError(f"no word {kind!r}")

    def value(self, x: Any, e: Mapping[str, Any], i: int | None) -> Any:
        """The value of ``x`` (a literal, a reference or an operation) for the event ``e``."""
        if isinstance(x, str):
            where, _, name = x.partition(".")
            if x == "i":
                return i
            if name and where == "e":
                return e.get(name)
            if name and where == "s":
                return self.state[name]
            if name and where == "r":
                return self.rules[name]
            return x
        if not isinstance(x, list):
            return x
        op, args = x[0], x[1:]
        if op == "and":
            return all(self.value(a, e, i) for a in args)
        if op == "or":
            return any(self.value(a, e, i) for a in args)
        v = [self.value(a, e, i) for a in args]
        return _operate(op, v, self)


def _operate(op: str, v: list[Any], words: EventWords) -> Any:
    if op == "eq":
        return v[0] == v[1]
    if op == "ne":
        return v[0] != v[1]
    if op == "not":
        return not v[0]
    if op == "in":
        return v[1] is not None and v[0] in v[1]
    if op == "at":
        return None if v[0] is None else v[0][v[1]]
    if op == "add":
        return v[0] + v[1]
    if op == "sub":
        return v[0] - v[1]
    if op == "int":
        return math.trunc(v[0])
    if op == "len":
        return -1 if v[0] is None else len(v[0])
    if op == "next":
        sizes = v[2] or ()
        return next((s for s in ((v[0] + k * v[1]) % len(sizes) for k in range(1, len(sizes) + 1))
                     if sizes[s]), -1)
    if op == "side_of":
        return words.side_of(v[0])
    raise UnoError(f"no operation {op!r}")


__all__ = ["EVENT_WORDS", "OPERATIONS", "WORDS", "EventWords", "Nn_", "narration_json", "number_text",
           "rule_values"]
