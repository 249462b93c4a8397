"""The messages of ``docs/protocol.md`` as the server builds and reads them: errors, the text
of a message, a client's message checked (:func:`parse`), and what a seat is shown.

What a seat is sent about the game comes from two places only: the events as the seat may
see them (``Event.seen_by(seat).to_dict()``) and its view (:func:`view_of`), built from the
seat's :class:`~unokit.core.observation.Observation` (a spectator: the public part of one), the
match's public results and the seats' names. Nothing in either depends on a card hidden from
the seat. The shapes are :mod:`.models`'.

>>> from unokit import Game
>>> g = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1", "Y2"], dealer=1)
>>> v = view_of(g, 0, ["Ana", None])
>>> v["hand"], v["top"], v["legal"], v["hand_sizes"], v["names"]
(['R1', 'G2'], 'R3', ['R1', 'R1!', 'draw'], [2, 2], ['Ana', None])
>>> s = view_of(g, None, ["Ana", None])
>>> s["seat"], s["hand"], s["legal"], s["seen"]
(None, [], [], {})
>>> dumps({"b": 1, "a": "é"})
'{"b":1,"a":"é"}'
>>> parse('{"type": "chat", "text": "hi"}')
Chat(type='chat', text='hi')
>>> parse('{"type": "act", "action": "R7"}')
Traceback (most recent call last):
...
unokit.server.protocol.ProtocolError: act: version: Field required
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from pydantic import ValidationError

from ..core.actions import action_str
from ..core.cards import card_str
from ..core.events import Event
from ..core.game import Game
from ..core.phases import ROUND_OVER
from .models import (
    CLIENT_MESSAGE,
    CLIENT_TYPES,
    ERROR_CODES,
    MAX_CHAT,
    MAX_MESSAGE_BYTES,
    MAX_NAME,
    Act,
    Back,
    Chat,
    Hello,
    Kick,
    Leave,
    Move,
    Ready,
    Rematch,
    SetBot,
)

MAX_FRAME_BYTES: Final = 65536
"""Frames above this close the connection (uvicorn's ``ws_max_size``): code 1009."""
CHAT_HISTORY: Final = 100
RATE_LIMIT: Final = 20
"""Messages a connection may send in any one second; the first one past it is a flood: it is
answered ``rate_limited`` and the connection is closed (code 1008)."""

ClientMessage = Hello | Act | Chat | Ready | Kick | SetBot | Move | Leave | Rematch | Back

STATUS: Final = {"malformed": 400, "unauthorized": 401, "not_found": 404, "illegal": 409, "stale": 409,
                 "too_large": 413, "rate_limited": 429, "server_error": 500}
"""The HTTP status of each error code (unless the error gives its own)."""


class ProtocolError(Exception):
    """A message or request refused: ``{"type": "error", "code": ..., "message": ...}``
    (``status``: the HTTP status, when it is not the code's usual one)."""

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status if status is not None else STATUS[code]

    def to_message(self) -> dict[str, Any]:
        """The error as the message (and the HTTP body) sent to the client."""
        return {"type": "error", "code": self.code, "message": self.message}


def dumps(message: Mapping[str, Any]) -> str:
    """A message as sent: compact JSON, non-ASCII as is, keys in the order built (so that the
    same message is always the same text)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _first_error(exc: ValidationError) -> str:
    err = exc.errors(include_url=False, include_input=False)[0]
    loc = ".".join(str(p) for p in err["loc"] if not (isinstance(p, str) and p in CLIENT_TYPES)) or "message"
    return f"{loc}: {err['msg']}"


def malformed(exc: ValidationError, what: str) -> ProtocolError:
    """A ``malformed`` error telling the first thing wrong in a validated message or body."""
    return ProtocolError("malformed", f"{what}: {_first_error(exc)}"[:300])


def check_size(text: str | bytes) -> None:
    """Raise ``too_large`` for a message or body over :data:`MAX_MESSAGE_BYTES`."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message may hold at most {MAX_MESSAGE_BYTES} bytes")


def parse(text: str) -> ClientMessage:
    """A client's message, checked against :mod:`.models`; raises ``too_large`` or
    ``malformed``."""
    check_size(text)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
        raise ProtocolError("malformed", "a message is one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is one JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise ProtocolError("malformed", f"'type' must be one of {', '.join(CLIENT_TYPES)}")
    try:
        return CLIENT_MESSAGE.validate_json(text)
    except ValidationError as exc:
        raise malformed(exc, kind) from None


def clean_text(text: str) -> str:
    """``text`` as stored and sent: control and format characters removed (a name or a chat
    line is plain text, shown as such), runs of white space made one space, trimmed."""
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    return " ".join(kept.split())


BLANKS: Final = frozenset("\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0")
"""Letters and signs that show nothing (Hangul fillers, the blank Braille pattern, ...)."""


INVISIBLE_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Zs", "Zl", "Zp"})


def shows_something(text: str) -> bool:
    """Whether ``text`` holds a character that shows: not a space, a format or control
    character, a mark alone, or one of :data:`BLANKS`.

    >>> shows_something("Ana"), shows_something("\u3164\u2800 \u200b"), shows_something("\u0301")
    (True, False, False)
    """
    return any(not ch.isspace() and ch not in BLANKS
               and unicodedata.category(ch) not in INVISIBLE_CATEGORIES
               for ch in text)


def check_name(raw: str) -> str:
    """A person's name, cleaned (:func:`clean_text`) and in Unicode's composed form (NFC, so
    that one name is always the same text); raises ``malformed`` for a name of more than
    :data:`MAX_NAME` characters, or one that shows nothing (:func:`shows_something`)."""
    name = unicodedata.normalize("NFC", clean_text(raw))
    if not name or len(name) > MAX_NAME:
        raise ProtocolError("malformed", f"name: a name has 1 to {MAX_NAME} characters")
    if not shows_something(name):
        raise ProtocolError("malformed", "name: a name must show at least one letter or sign")
    return name


def check_chat(raw: str) -> str:
    """A chat line, cleaned (:func:`clean_text`); raises ``malformed``."""
    text = clean_text(raw)
    if not text or len(text) > MAX_CHAT:
        raise ProtocolError("malformed", f"text: a chat line has 1 to {MAX_CHAT} characters")
    return text


# ---------------------------------------------------------------------- what a seat is shown


def events_of(events: Iterable[Event], seat: int | None) -> list[dict[str, Any]]:
    """``events`` as ``seat`` (``None``: a spectator) may see them, as JSON-ready data."""
    return [e.seen_by(seat).to_dict() for e in events]


def _around(seat: int | None, direction: int, players: int) -> list[int]:
    """The seats other than ``seat`` in the order play goes from it, those out of the match
    included; for a spectator (``None``) every seat, from seat 0."""
    start, first = (0, 0) if seat is None else (seat, 1)
    return [(start + direction * i) % players for i in range(first, players)]


def view_of(game: Game, seat: int | None, names: Sequence[str | None]) -> dict[str, Any]:
    """The game as ``seat`` may see it now (``None``: a spectator): the ``view`` of
    ``docs/protocol.md``. ``names``: each seat's person's name (``None`` for a bot)."""
    obs = game.observe(0 if seat is None else seat)
    teams = game.n // 2 if obs.options.mode == "partners" else 0
    over = game.phase >= ROUND_OVER
    mine = seat is not None
    return {
        "seat": seat,
        "names": list(names),
        "hand": [card_str(c) for c in obs.hand] if mine else [],
        "hand_sizes": list(obs.hand_sizes),
        "top": card_str(obs.top),
        "color": obs.color,
        "direction": obs.direction,
        "turn": None if over else obs.turn,
        "awaiting": obs.awaiting,
        "legal": [action_str(a) for a in obs.legal] if mine else [],
        "draw_size": obs.draw_size,
        "seen": {str(s): [card_str(c) for c in h] for s, h in sorted(obs.seen.items())} if mine else {},
        "eliminated": list(obs.eliminated),
        "scores": list(obs.scores),
        "target": obs.options.target,
        "round": obs.round_no,
        "dealer": obs.dealer,
        "edition": obs.edition,
        "players": obs.players,
        "teams": teams,
        "sides": [obs.side_of(s) for s in range(obs.players)],
        "order": list(obs.play_order(0 if over else obs.turn)),
        "next": None if over else obs.next_seat(obs.turn),
        "around": _around(seat, obs.direction, obs.players),
        "discard": [card_str(c) for c in obs.discard],
        "pending": obs.pending,
        "attacker": None if obs.attacker < 0 else obs.attacker,
        "drawn": card_str(obs.drawn) if mine and obs.drawn >= 0 else None,
        "owed": list(obs.owed),
        "catchable": list(obs.catchable),
        "idle_turns": obs.idle_turns,
        "round_winner": game.round_winner if over and game.round_winner >= 0 else None,
        "winners": list(game.winners),
        "options": obs.options.as_dict(),
    }


@dataclass(frozen=True)
class GameMessage:
    """One change of the match, ready to be sent to each seat and to the spectators: its
    ``version`` (the room's, counted across its matches), its events, and ``deadline``: when
    the server plays for the person on turn (``time.time()``), if it will."""

    version: int
    events: tuple[Event, ...]
    names: tuple[str | None, ...]
    replay: bool = False
    deadline: float | None = None

    def texts(self, game: Game, seat: int | None) -> tuple[str, str]:
        """The ``events`` and ``state`` messages for ``seat`` (``None``: a spectator)."""
        return (dumps({"type": "events", "version": self.version, "replay": self.replay,
                       "events": events_of(self.events, seat)}),
                self.state_text(game, seat))

    def state_text(self, game: Game, seat: int | None) -> str:
        """The ``state`` message alone (after a ``stale`` refusal)."""
        return dumps({"type": "state", "version": self.version, "deadline": self.deadline,
                      "view": view_of(game, seat, self.names)})


__all__ = [
    "BLANKS", "CHAT_HISTORY", "MAX_FRAME_BYTES", "RATE_LIMIT", "ClientMessage", "GameMessage",
    "ProtocolError", "check_chat", "check_name", "check_size", "clean_text", "dumps", "events_of",
    "malformed", "parse", "shows_something", "view_of",
]
