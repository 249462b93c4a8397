"""Rooms: one match at a time each, its seats (people, open seats, bots), its game and its bots.

A :class:`Room` runs every change under its own :class:`asyncio.Lock`: a person's action, a
bot's, a deal, a seat taken or left. Each change is stored (:mod:`.store`) before anyone is
told of it, then every connection in the room is sent what its seat may see
(:mod:`.protocol`): one ``events`` and one ``state`` message per change of the match. Who is
asked next is the table's (:class:`~unokit.core.table.Table`): a room's driver task asks the bots
when the table asks them, after ``bot_delay`` seconds, their decisions computed in a worker
thread; a person on turn is waited for; a person asked out of turn is never waited for (their
out-of-turn actions are legal at any moment, until the next action closes the chance), so the
table passes over them at once.

A person who is disconnected (after :attr:`ServerOptions.grace` seconds, so that a reload
keeps the turn), or who let ``turn_timeout`` pass on their own decision, is played by a bot
until they act again (or come back). A room never starts by itself: its host starts it.

A bot is built afresh for each decision, seeded from the match's seed, the seat and the
game's version: a room resumed after a restart makes the same decisions.

:class:`Rooms` holds every room of the server, creates them, and loads them at start.

On PostgreSQL, several server processes share the rooms (:mod:`.cluster`): each change is
written with the room's revision checked, the other processes replay it from its
notification, and only the process that owns a room (:attr:`Room.owned`) runs its driver.
What a process holds of a room it can always read again from the database
(:meth:`Room.reload`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..bots.base import Bot
from ..bots.forgetful import make_table_bot
from ..core.actions import Action, action_str
from ..core.cards import parse_card
from ..core.codec import action_line, parse_action_line
from ..core.errors import IllegalActionError, NotationError, OptionError, RecordError, UnoError
from ..core.events import Event
from ..core.game import Game
from ..core.options import Options
from ..core.phases import GAME_OVER, ROUND_OVER
from ..core.record import VERSION as RECORD_VERSION
from ..core.record import record_of, replay, round_events
from ..core.table import Table
from . import security
from .cluster import Cluster, note_sender
from .models import (
    DEFAULT_BETWEEN_ROUNDS,
    DEFAULT_BOT,
    Act,
    Chat,
    CreateRoom,
    Deal,
    Hello,
    Kick,
    Leave,
    Move,
    Ready,
    Rematch,
    SetBot,
)
from .protocol import CHAT_HISTORY, ClientMessage, GameMessage, ProtocolError, check_chat, check_name, dumps
from .store import STORE_FORMAT, ChatData, RoomConflict, RoomData, SeatData, Store

log = logging.getLogger("unokit.server")

IDLE_HOURS: Final = 24.0
"""A room nobody has been in, and where nothing happened, for this long is closed (``idle``)."""
POSITION_EVERY: Final = 32
"""The position (``Game.to_dict()``) is stored with every 32nd action, and with every deal and
every round's last action: a room is resumed from it and the record's actions after it (writing
the whole position with every action would cost as much as the rest of the change)."""
GRACE: Final = 5.0
"""Seconds a disconnected person's turn waits for them before a bot plays it."""

LOBBY: Final = "lobby"
PLAYING: Final = "playing"
ROUND_OVER_STATUS: Final = "round_over"
GAME_OVER_STATUS: Final = "game_over"
CLOSED: Final = "closed"


# ---------------------------------------------------------------------- settings


@dataclass
class Settings:
    """A room's settings, as ``POST /api/rooms`` gives them (checked) and the database keeps
    them."""

    edition: str
    players: int
    seats: list[str]
    """What each seat was made as: ``human`` or a bot's name."""
    options: Options
    bot_delay: float
    forget_uno: float
    fill_bot: str
    seed: int
    deal: dict[str, Any] | None = None
    public: bool = False
    between_rounds: float = DEFAULT_BETWEEN_ROUNDS
    turn_timeout: float | None = None
    fixed_seed: bool = False
    """The first match is dealt from ``seed`` itself (``--dev``'s ``seed``); else every match's
    seed is derived from it, so that a finished match's record (which holds its seed) tells
    nothing of the next match's cards."""

    def to_json(self) -> dict[str, Any]:
        """The settings as stored (the seed and the stacked deal included)."""
        return {"edition": self.edition, "players": self.players, "seats": list(self.seats),
                "options": self.options.changed(), "bot_delay": self.bot_delay,
                "forget_uno": self.forget_uno, "fill_bot": self.fill_bot, "seed": self.seed,
                "deal": self.deal, "public": self.public, "between_rounds": self.between_rounds,
                "turn_timeout": self.turn_timeout, "fixed_seed": self.fixed_seed}

    def public_json(self) -> dict[str, Any]:
        """The settings as every client is shown them (no seed, no deal)."""
        return {"edition": self.edition, "players": self.players, "options": self.options.as_dict(),
                "bot_delay": self.bot_delay, "forget_uno": self.forget_uno, "fill_bot": self.fill_bot,
                "public": self.public, "between_rounds": self.between_rounds,
                "turn_timeout": self.turn_timeout}

    def new_game(self, game_no: int) -> Game:
        """The match ``game_no`` of the room (0: the first; a rematch is the next), dealt from
        the room's seed (the stacked deal, for the first match of a room made with one)."""
        return _new_game(self, game_no)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Settings:
        """Settings as stored (trusted: written by :meth:`to_json`)."""
        timeout = data.get("turn_timeout")
        return cls(str(data["edition"]), int(data["players"]), [str(s) for s in data["seats"]],
                   Options.from_mapping(data.get("options") or {}), float(data["bot_delay"]),
                   float(data["forget_uno"]), str(data["fill_bot"]), int(data["seed"]), data.get("deal"),
                   bool(data.get("public", False)),
                   float(data.get("between_rounds", DEFAULT_BETWEEN_ROUNDS)),
                   None if timeout is None else float(timeout), bool(data.get("fixed_seed", False)))


def _bad(message: str) -> ProtocolError:
    return ProtocolError("malformed", message)


def parse_settings(body: CreateRoom, dev: bool) -> Settings:
    """The settings of a checked ``POST /api/rooms`` body; raises ``malformed`` (what the
    models cannot check: the seats against ``players``, the options against the deck, a
    ``seed`` or ``deal`` on a server without ``--dev``)."""
    for name in ("seed", "deal"):
        if getattr(body, name) is not None and not dev:
            raise _bad(f"{name}: allowed only on a server run with --dev")
    if body.bots is None:
        players = 4 if body.players is None else body.players
        seats = ["human"] + [body.fill_bot] * (players - 1)
    else:
        seats = ["human"] + ["human" if b is None else b for b in body.bots]
        if body.players is not None and body.players != len(seats):
            raise _bad(f"bots: players is {body.players}, so bots needs {body.players - 1} entries, "
                       f"not {len(body.bots)}")
        if not 2 <= len(seats) <= 10:
            raise _bad("bots: a room has 2 to 10 seats (1 to 9 entries)")
    try:
        options = Options.from_mapping(body.options.model_dump(exclude_unset=True))
    except OptionError as exc:
        raise _bad(f"options: {exc}") from None
    seed = random.SystemRandom().randrange(2**63) if body.seed is None else body.seed
    deal = None if body.deal is None else body.deal.model_dump()
    settings = Settings(body.edition, len(seats), seats, options, body.bot_delay, body.forget_uno,
                        body.fill_bot, seed, deal, body.public, body.between_rounds, body.turn_timeout,
                        fixed_seed=body.seed is not None)
    try:
        game = settings.new_game(0)  # checks the options against the deck, and the stacked deal
    except (UnoError, TypeError, ValueError, KeyError) as exc:
        raise _bad(f"deal: {exc}" if deal is not None else f"options: {exc}") from None
    if game.n != settings.players:
        raise _bad(f"deal: {game.n} hands for {settings.players} seats")
    return settings


def _new_game(settings: Settings, game_no: int) -> Game:
    fixed = settings.fixed_seed and game_no == 0
    seed = settings.seed if fixed else _derive(settings.seed, "game", game_no)
    if settings.deal is not None and game_no == 0:
        deal = Deal.model_validate(settings.deal)
        return Game.from_setup(hands=[[parse_card(c) for c in h] for h in deal.hands],
                               discard=parse_card(deal.discard), draw=[parse_card(c) for c in deal.draw],
                               dealer=deal.dealer, edition=settings.edition, options=settings.options,
                               seed=seed)
    return Game.new(settings.edition, settings.players, settings.options, seed)


def _derive(seed: int, *parts: object) -> int:
    """A seed for a purpose, derived from the match's seed (63 bits)."""
    text = ":".join(["unokit-server", str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def room_bot(name: str, seed: int, forget_uno: float) -> Bot:
    """A server bot: ``name`` from the registry, forgetting UNO at times as ``unokit play``'s do
    (a difficulty level keeps its own mistake rates)."""
    return make_table_bot(name, seed, forget_uno)


# ---------------------------------------------------------------------- connections and seats


class Client:
    """A connection as a room sees it: the room it said ``hello`` to (``code``), its seat
    (``None``: a spectator) and a way to send text. The WebSocket endpoint subclasses it; the
    tests use it as is (it keeps what it is sent)."""

    def __init__(self, code: str | None = None) -> None:
        self.code = code
        self.room: Room | None = None
        self.seat: int | None = None
        self.token_hash: str | None = None
        """The hash of the token its seat was entered with (a moved seat is followed by it)."""
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        """Queue a message for the connection (never blocks)."""
        self.sent.append(text)

    def close(self) -> None:
        """Close the connection (after what was queued is sent)."""


@dataclass
class Seat:
    """A seat: ``kind`` is ``human`` (a person sits there), ``open`` or ``bot``."""

    seat: int
    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    ready: bool = False
    away: bool = False
    """A person silent past ``turn_timeout``: a bot plays for them until they act again."""

    def data(self) -> SeatData:
        """The seat as stored."""
        return SeatData(self.seat, self.kind, self.name, self.bot, self.token_hash, self.ready, self.away)

    def set(self, data: SeatData) -> None:
        """Make the seat the stored one."""
        self.kind, self.name, self.bot, self.token_hash = data.kind, data.name, data.bot, data.token_hash
        self.ready, self.away = data.ready, data.away


@dataclass
class _Plan:
    """What the driver does next: a bot acts (``bot``; for a person played by a bot too), the
    timeout acts for a person on turn (``timeout``), or the next round is dealt (``deal``), at
    ``at`` (``time.monotonic()``)."""

    kind: str
    at: float
    seat: int = -1
    version: int = -1
    declined: int = 0
    must: bool = True
    bot: str = DEFAULT_BOT
    forget_uno: float = 0.0
    person: bool = False
    game: Game | None = None
    obs: Any = None


# ---------------------------------------------------------------------- a room


class Room:
    """One room: its settings, seats, game, connections, and the driver that runs its bots."""

    def __init__(self, rooms: Rooms, code: str, settings: Settings, seats: list[Seat], host: int | None,
                 status: str = LOBBY) -> None:
        self.rooms = rooms
        self.store = rooms.store
        self.code = code
        self.settings = settings
        self.seats = seats
        self.host = host
        self.status = status
        self.closed_reason: str | None = None
        self.game: Game | None = None
        self.table: Table | None = None
        self.game_no = 0
        self.version_base = 0
        """The versions of the room's earlier matches: the protocol's version goes on counting
        through a rematch."""
        self.declined: list[int] = []
        self.clients: list[Client] = []
        self.chat: list[ChatData] = []
        self.rev = 0
        """The room's revision as this process last stored or read it (``store.RoomConflict``)."""
        self.remote: frozenset[int] = frozenset()
        """The seats with a connection to another server process."""
        self.owned = rooms.cluster is None
        """Whether this process runs the room's driver (its bots and timers): always with one
        process; on PostgreSQL, the process that holds the room's advisory lock."""
        self._dirty = False
        """This copy of the room must be read again from the database before it is used."""
        self._diverged = False
        """This copy changed without being stored (a write failed): read it again whole."""
        self._reloading = False
        self._announced: tuple[int, int] | None = None
        """The match and the game's version that every connection was last sent."""
        self._notes: list[dict[str, Any]] = []
        self._follower: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self._last_change = time.monotonic()
        self._gone: dict[int, float] = {}
        """When each seat's last connection ended (``time.monotonic()``); the room's making or
        loading for a seat never connected since."""
        self._since = self._last_change
        self._back: dict[int, float] = {}
        """When each person last came back from being away (``time.monotonic()``): their
        ``turn_timeout`` counts from then, if that is after the last change."""
        self.deadline: float | None = None
        """When the timeout acts for the person on turn (``time.time()``), or ``None``."""

    @property
    def version(self) -> int:
        """The protocol's version: the actions and deals applied in the room's matches."""
        return self.version_base + (self.game.version if self.game is not None else 0)

    # ------------------------------------------------------------------ what clients are sent

    def room_message(self, client: Client | None) -> dict[str, Any]:
        """The ``room`` message, for ``client``'s seat."""
        return {
            "type": "room", "code": self.code, "status": self.status,
            "you": None if client is None else client.seat, "host": self.host,
            "settings": self.settings.public_json(),
            "seats": [self._seat_json(s) for s in self.seats],
            "spectators": sum(1 for c in self.clients if c.seat is None),
            "closed_reason": self.closed_reason,
        }

    def summary(self) -> dict[str, Any]:
        """``GET /api/rooms/{code}`` (and an entry of ``GET /api/rooms``)."""
        seats = []
        for s in self.seats:
            entry: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "name": s.name,
                                     "connected": self._connected(s.seat)}
            if s.kind == "bot":
                entry["bot"] = s.bot
            seats.append(entry)
        host = self.seats[self.host].name if self.host is not None else None
        return {"code": self.code, "status": self.status, "edition": self.settings.edition,
                "players": self.settings.players, "public": self.settings.public, "host_name": host,
                "seats": seats, "open_seats": sum(1 for s in self.seats if s.kind == "open"),
                "closed_reason": self.closed_reason}

    def _seat_json(self, s: Seat) -> dict[str, Any]:
        return {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot,
                "connected": self._connected(s.seat), "away": self._away(s.seat), "ready": s.ready}

    def _connected(self, seat: int) -> bool:
        return seat in self.remote or any(c.seat == seat for c in self.clients)

    def _away(self, seat: int) -> bool:
        """Whether the person at ``seat`` is played by a bot now (or will be, once the grace
        of a disconnected person's turn is over)."""
        return (self.seats[seat].kind == "human" and self.status not in (LOBBY, CLOSED)
                and (self.seats[seat].away or not self._connected(seat)))

    def names(self) -> tuple[str | None, ...]:
        """Each seat's person's name (``None`` for a bot)."""
        return tuple(s.name if s.kind == "human" else None for s in self.seats)

    def _send_room(self) -> None:
        for c in self.clients:
            c.send(dumps(self.room_message(c)))

    def _message(self, events: Sequence[Event], replay: bool = False) -> GameMessage:
        return GameMessage(self.version, tuple(events), self.names(), replay, self.deadline)

    def _send_game(self, events: Sequence[Event], replay: bool = False,
                   to: Sequence[Client] | None = None) -> None:
        game = self.game
        if game is None:
            return
        if to is None:
            self._announced = (self.game_no, game.version)
        message = self._message(events, replay)
        texts: dict[int | None, tuple[str, str]] = {}
        for c in self.clients if to is None else to:
            if c.seat not in texts:
                texts[c.seat] = message.texts(game, c.seat)
            for text in texts[c.seat]:
                c.send(text)

    # ------------------------------------------------------------------ the database

    @contextlib.asynccontextmanager
    async def locked(self) -> AsyncIterator[None]:
        """The room's lock, with the room read again first if it must be."""
        async with self.lock:
            if self._dirty:
                self.reload()
                if self._dirty:
                    raise ProtocolError("server_error", "the server cannot reach its database: "
                                                        "try again in a moment")
            yield

    def _write(self, method: Callable[..., int], note: dict[str, Any], diverged: bool = False,
               **values: Any) -> None:
        """Store a change of the room with ``method`` (of :class:`~.store.Store`), checking the
        room's revision, and announce it (``note``) to the other processes. If another
        process changed the room first, or the database fails, nothing is stored, the room is
        read again (whole, with ``diverged``: the change was made to the game), and the change
        is refused."""
        try:
            self.rev = method(self.code, **self._write_args(note, values))
        except Exception as exc:
            raise self._refusal(exc, diverged) from None

    async def _write_off_loop(self, method: Callable[..., int], note: dict[str, Any], diverged: bool = False,
                              **values: Any) -> None:
        """:meth:`_write`, in a worker thread on PostgreSQL (a round trip to a database server
        must not hold the event loop up: other rooms go on meanwhile; this room waits, under
        its lock); at once on SQLite (a local commit, well under a millisecond)."""
        if not self.store.postgresql:
            self._write(method, note, diverged, **values)
            return
        args = self._write_args(note, values)
        try:
            self.rev = await asyncio.to_thread(method, self.code, **args)
        except Exception as exc:
            raise self._refusal(exc, diverged) from None

    def _refusal(self, exc: Exception, diverged: bool) -> ProtocolError:
        """A write failed (``exc``): read the room again; what the client is told."""
        if not isinstance(exc, RoomConflict):
            log.error("room %s: a change could not be stored; reading the room again", self.code,
                      exc_info=exc)
        self._diverged = self._diverged or diverged
        self._dirty = True
        self.reload()
        if isinstance(exc, RoomConflict):
            return ProtocolError("stale", "the room changed at the same moment: look again and retry")
        return ProtocolError("server_error", "the server could not save the change: try again in a moment")

    def _write_args(self, note: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        change = self.rooms.note({**note, "c": self.code, "r": self.rev + 1})
        return {"rev": self.rev, "note": change, **values}

    def _publish_presence(self) -> None:
        """Tell the other processes which seats have a connection here."""
        if self.rooms.cluster is None:
            return
        counts: dict[int, int] = {}
        for c in self.clients:
            if c.seat is not None:
                counts[c.seat] = counts.get(c.seat, 0) + 1
        try:
            self.store.set_presence(self.rooms.cluster.id, self.code, counts,
                                    note=self.rooms.note({"c": self.code, "k": "presence"}))
        except Exception as exc:
            log.warning("room %s: presence could not be stored (%s)", self.code, exc)

    def note(self, change: dict[str, Any]) -> None:
        """Another process changed the room (its notification): follow it."""
        self._notes.append(change)
        if self._follower is None or self._follower.done():
            self._follower = asyncio.get_running_loop().create_task(self._follow())

    async def _follow(self) -> None:
        while self._notes:
            async with self.lock:
                notes, self._notes = self._notes, []
                try:
                    for change in notes:
                        if not self._dirty:
                            self._follow_one(change)
                    if self._dirty:
                        self.reload()
                except Exception:
                    log.exception("room %s: following a change failed; reading the room again", self.code)
                    self._diverged = self._dirty = True
                    self.reload()
            await asyncio.sleep(0)

    def _follow_one(self, change: dict[str, Any]) -> None:
        """Apply one change another process made: replay an action or a deal that comes right
        after this copy's; add a chat line; read the presence; else read the room again."""
        kind = change.get("k")
        if kind == "chat":
            message = change.get("m")
            if isinstance(message, dict) and (not self.chat or message["id"] > self.chat[-1].id):
                self.chat = [*self.chat[-(CHAT_HISTORY - 1):], ChatData(
                    message["id"], message["seat"], message["name"], message["text"], message["time"])]
                text = dumps(message)
                for c in self.clients:
                    c.send(text)
            return
        if kind == "presence":
            self._set_remote(self.store.present(self.code, self.rooms.server_id or ""))
            self._send_room()
            self._next_round_if_ready()
            self._kick_driver()
            return
        rev = change.get("r")
        if isinstance(rev, int) and rev <= self.rev:
            return  # this copy has it already
        game = self.game
        if (kind in ("act", "deal") and rev == self.rev + 1 and game is not None
                and change.get("g") == self.game_no and change.get("v") == game.version + 1):
            done = self._step(parse_action_line(str(change.get("l"))) if kind == "act" else None)
            if done is None:
                self._dirty = True
                return
            if game.version != change.get("v"):
                self._diverged = self._dirty = True
                return
            self.rev = rev
            self._tell_step(*done)
            return
        self._dirty = True

    def _set_remote(self, present: frozenset[int]) -> None:
        now = time.monotonic()
        for seat in self.remote - present:
            if not any(c.seat == seat for c in self.clients):
                self._gone[seat] = now
        self.remote = present

    def reload(self) -> None:
        """Read the room again from the database and tell the connections what changed: the
        actions and deals this copy missed are replayed (each seat is sent their events);
        a copy that cannot be brought up to date that way is replaced, and its connections
        sent the match again. If the database cannot be read, the room stays to be read
        again (``_dirty``)."""
        if self._reloading:  # a change refused while reading the room: read it again later
            self._dirty = True
            return
        self._reloading = True
        try:
            self._reload()
        finally:
            self._reloading = False

    def _reload(self) -> None:
        try:
            data = self.store.load_room(self.code, CHAT_HISTORY, self.rooms.server_id)
        except Exception as exc:
            log.warning("room %s cannot be read from the database (%s)", self.code, exc)
            self._dirty = True
            return
        self._dirty = False
        if data is None or data.status == CLOSED:
            if self.status != CLOSED:
                self._close_here(data.closed_reason if data is not None else "format")
            return
        before = json.dumps(self.room_message(None))
        diverged, self._diverged = self._diverged, False
        try:
            self._sync(data, diverged)
        except (UnoError, TypeError, ValueError, KeyError) as exc:
            log.error("room %s cannot be read again (%s): closing it", self.code, exc)
            self._close("format")
            return
        self._set_deadline()
        if json.dumps(self.room_message(None)) != before:
            self._send_room()
        self._next_round_if_ready()
        self._kick_driver()

    def _sync(self, data: RoomData, diverged: bool) -> None:
        game = self.game
        caught_up = False
        if (not diverged and game is not None and self.table is not None and data.record is not None
                and data.game_no == self.game_no and data.version >= game.version):
            caught_up = self._catch_up(data.record) and game.version == data.version
        if not caught_up:
            opening = self.game_no != data.game_no or game is None
            self.status = data.status
            self._restore(data)
            if self.game is not None:
                fresh = self.game.history == [] and len(self.game.rounds) == 1 and opening
                if fresh:
                    self._send_game(self.game.opening_events())
                elif self._announced != (self.game_no, self.game.version):
                    self._send_game(round_events(self.game), replay=True)
                # else: the game read is the one last announced (a change refused): nothing new
        else:
            self._apply_declined(data.declined)
        self.rev = data.rev
        self.status = data.status if self.game is None else self._status_of_room(data.status)
        self.host, self.closed_reason = data.host, data.closed_reason
        for seat, stored in zip(self.seats, data.seats, strict=True):
            seat.set(stored)
        self._set_remote(data.present)
        known = self.chat[-1].id if self.chat else 0
        for line in data.chat:
            if line.id > known:
                text = dumps(line.to_message())
                for c in self.clients:
                    c.send(text)
        self.chat = list(data.chat)
        self._follow_seats()

    def _status_of_room(self, stored: str) -> str:
        return stored if stored in (LOBBY, CLOSED) or self.game is None else self._status_of(self.game)

    def _catch_up(self, record: dict[str, Any]) -> bool:
        """Replay the record's actions and deals that come after this copy's game, telling the
        connections of each; ``False`` if the game is not a beginning of the record's."""
        assert self.game is not None
        steps = record_after(self.game, record)
        if steps is None:
            return False
        for step in steps:
            done = self._step(step)
            if done is None:
                return False
            self._tell_step(*done)
        return True

    def _step(self, step: tuple[int, Action] | None) -> tuple[str, tuple[Event, ...]] | None:
        """Apply one change of a record to this copy's game: a seat's action, or the next
        round's deal (``None``). Returns the status after it and its events, or ``None`` if
        this copy cannot take it (a host's action, an action between rounds, a deal in a round)."""
        game, table = self.game, self.table
        assert game is not None and table is not None
        if step is None:
            if self.status != ROUND_OVER_STATUS:
                return None
            return PLAYING, table.start_round()
        seat, action = step
        if seat < 0 or self.status != PLAYING:
            return None
        events = table.act(seat, action)
        return self._status_of(game), events

    def _tell_step(self, status: str, events: Sequence[Event]) -> None:
        """A change of the record applied (:meth:`_step`): a new round of asking, and the
        connections told."""
        self.declined = []
        self._changed(status, events)

    def _apply_declined(self, declined: Sequence[int]) -> None:
        """The declines the owner stored, as far as this copy's table has not seen them."""
        table = self.table
        if table is None:
            return
        for seat in declined[len(self.declined):]:
            if table.next_seat() != seat or table.must_act(seat):
                break
            table.decline(seat)
            self.declined.append(seat)

    def _follow_seats(self) -> None:
        """The connections follow their person when seats were moved elsewhere; a person no
        longer seated is told so."""
        for c in list(self.clients):
            if c.seat is None or c.token_hash is None:
                continue
            seat = next((s.seat for s in self.seats if s.kind == "human" and s.token_hash == c.token_hash),
                        None)
            if seat is None:
                c.send(dumps({"type": "left", "reason": "kicked"}))
                c.close()
                self.clients.remove(c)
                c.room = None
            else:
                c.seat = seat

    def _close_here(self, reason: str | None) -> None:
        """The room is closed (here, or by another process): tell the connections, forget it."""
        self.status, self.closed_reason = CLOSED, reason
        self.rooms.forget(self)
        for c in list(self.clients):
            c.send(dumps(self.room_message(c)))
            c.send(dumps({"type": "left", "reason": "closed"}))
            c.close()
            c.room = None
        self.clients.clear()
        self._kick_driver()

    def set_owned(self, owned: bool) -> None:
        """This process now runs (or no longer runs) the room's driver; a room taken over is
        read again first."""
        self.owned = owned
        if owned:
            self._dirty = True
            self.note({"k": "owned"})
        else:
            self.stop()

    # ------------------------------------------------------------------ entering and leaving

    def _check_open(self) -> None:
        if self.status == CLOSED:
            raise _closed(self.closed_reason)

    async def hello(self, client: Client, token: str | None) -> None:
        """``client`` enters the room: at the seat whose token ``token`` is, or (no token) as
        a spectator. It is sent the room, the chat so far and the match so far."""
        async with self.locked():
            self._check_open()
            seat = None
            if token is not None:
                seat = self.seat_of(token)
                if seat is None:
                    raise ProtocolError("unauthorized", "this token is not one of this room's seats")
            client.room, client.seat = self, seat
            client.token_hash = None if seat is None else self.seats[seat].token_hash
            self.clients.append(client)
            if seat is not None:
                with contextlib.suppress(ProtocolError):  # stored or not, they are here
                    self._come_back(seat)
                self._publish_presence()
            self._send_room()
            client.send(dumps({"type": "chat_history", "messages": [m.to_message() for m in self.chat]}))
            if self.game is not None:
                self._send_game(round_events(self.game), replay=True, to=[client])
            self._next_round_if_ready()
            self._kick_driver()

    async def take_seat(self, name: str, seat: int | None) -> tuple[int, str]:
        """Seat the person ``name`` at an open seat (``seat``, or the first): returns the seat
        and its token."""
        async with self.locked():
            self._check_open()
            if seat is not None:
                if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "open":
                    raise ProtocolError("illegal", f"seat {seat} is not an open seat of this room")
                chosen = self.seats[seat]
            else:
                free = [s for s in self.seats if s.kind == "open"]
                if not free:
                    raise ProtocolError("illegal", "this room has no open seat")
                chosen = free[0]
            token = security.new_token()
            chosen.kind, chosen.name, chosen.token_hash = "human", name, security.token_hash(token)
            if self.host is None:
                self.host = chosen.seat
            self._gone[chosen.seat] = time.monotonic()
            self._write(self.store.update_room, {"k": "room"}, host=self.host, seats=[chosen.data()])
            self._send_room()
            return chosen.seat, token

    def seat_of(self, token: str) -> int | None:
        """The person's seat whose token is ``token`` (every seat compared in constant time)."""
        found = None
        for s in self.seats:
            if s.kind == "human" and security.token_matches(token, s.token_hash):
                found = s.seat
        return found

    async def disconnect(self, client: Client) -> None:
        """``client``'s connection ended."""
        async with self.lock:
            if client in self.clients:
                self.clients.remove(client)
                if client.seat is not None and not self._connected(client.seat):
                    self._gone[client.seat] = time.monotonic()
                if client.seat is not None:
                    self._publish_presence()
                if self.status != CLOSED:
                    self._send_room()
                    self._next_round_if_ready()
                    self._kick_driver()

    async def leave(self, client: Client) -> None:
        """``client`` leaves its seat for good."""
        async with self.locked():
            seat = self._seated(client)
            self._give_up(seat, "left", None)

    async def kick(self, client: Client, seat: int) -> None:
        """The host frees a person's seat (a bot takes it during a match)."""
        async with self.locked():
            self._host(client)
            if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human" or seat == self.host:
                raise ProtocolError("illegal", f"seat {seat} is not another person's seat")
            self._give_up(seat, "kicked", None)

    async def set_bot(self, client: Client, seat: int, bot: str | None) -> None:
        """The host puts a bot at ``seat`` (a person there leaves it), or in the lobby opens a
        bot's seat (``bot`` ``None``)."""
        async with self.locked():
            self._host(client)
            if not 0 <= seat < len(self.seats) or seat == self.host:
                raise ProtocolError("illegal", f"seat {seat} cannot be given to a bot")
            s = self.seats[seat]
            if bot is None:
                if self.status != LOBBY or s.kind != "bot":
                    raise ProtocolError("illegal", "only a bot's seat in the lobby can be opened")
                s.kind, s.bot = "open", None
            elif s.kind == "human":
                self._give_up(seat, "kicked", bot)
                return
            else:
                s.kind, s.bot = "bot", bot
            self._write(self.store.update_room, {"k": "room"}, seats=[s.data()])
            self._send_room()
            self._kick_driver()

    async def move(self, client: Client, seat: int, to: int) -> None:
        """The host swaps what sits at ``seat`` and at ``to`` (in the lobby)."""
        async with self.locked():
            self._host(client)
            if self.status != LOBBY:
                raise ProtocolError("illegal", "seats are moved in the lobby only")
            n = len(self.seats)
            if not (0 <= seat < n and 0 <= to < n) or seat == to:
                raise ProtocolError("illegal", "no such seats to swap")
            a, b = self.seats[seat], self.seats[to]
            data_a = a.data()
            a.set(b.data())
            b.set(data_a)
            for c in self.clients:
                if c.seat in (seat, to):
                    c.seat = to if c.seat == seat else seat
            gone_a, gone_b = self._gone.pop(seat, None), self._gone.pop(to, None)
            if gone_a is not None:
                self._gone[to] = gone_a
            if gone_b is not None:
                self._gone[seat] = gone_b
            if self.host in (seat, to):
                self.host = to if self.host == seat else seat
            self._write(self.store.update_room, {"k": "room"}, host=self.host, seats=[a.data(), b.data()])
            self._publish_presence()
            self._send_room()

    def _give_up(self, seat: int, reason: str, bot: str | None) -> None:
        s = self.seats[seat]
        if self.status == LOBBY and bot is None:
            s.kind, s.name, s.bot, s.token_hash = "open", None, None, None
        else:
            s.kind, s.name, s.bot, s.token_hash = "bot", None, bot or self.settings.fill_bot, None
        s.ready = s.away = False
        for c in [c for c in self.clients if c.seat == seat]:
            c.send(dumps({"type": "left", "reason": reason}))
            c.close()
            self.clients.remove(c)
            c.room = None
        if self.host == seat:
            people = [t.seat for t in self.seats if t.kind == "human"]
            self.host = people[0] if people else None
        self._write(self.store.update_room, {"k": "room"}, host=self.host, set_host=True, seats=[s.data()])
        self._publish_presence()
        if not any(t.kind == "human" for t in self.seats):
            self._close("empty")
            return
        self._send_room()
        self._next_round_if_ready()
        self._kick_driver()

    def idle_since(self) -> float | None:
        """Since when (``time.monotonic()``) nobody has been connected and nothing has
        changed, or ``None`` while someone is connected."""
        return None if self.clients or self.remote else self._last_change

    async def close_idle(self) -> None:
        """Close the room for being left idle (see :meth:`Rooms.close_idle`)."""
        async with self.locked():
            if self.status != CLOSED and not self.clients and not self.remote:
                self._close("idle")

    def _close(self, reason: str) -> None:
        """Close the room for good: stored, then the connections told (:meth:`_close_here`)."""
        try:
            self.rev = self.store.close_room(self.code, reason, note=self.rooms.note(
                {"c": self.code, "k": "room", "r": self.rev + 1}))
        except Exception:  # closed here all the same; the database says so once it can
            log.exception("room %s: its closing could not be stored", self.code)
        self._close_here(reason)
        log.info("room %s closed (%s)", self.code, reason)

    # ------------------------------------------------------------------ the match

    def _seated(self, client: Client) -> int:
        self._check_open()
        if client.seat is None:
            raise ProtocolError("unauthorized", "a spectator cannot do this")
        return client.seat

    def _host(self, client: Client) -> int:
        seat = self._seated(client)
        if seat != self.host:
            raise ProtocolError("unauthorized", "only the room's host can do this", 403)
        return seat

    async def start(self, token: str | None) -> None:
        """The host (whose token is ``token``) starts the match now; open seats get bots."""
        async with self.locked():
            self._check_open()
            seat = None if token is None else self.seat_of(token)
            if seat is None:
                raise ProtocolError("unauthorized", "send the host's token: Authorization: Bearer TOKEN")
            if seat != self.host:
                raise ProtocolError("unauthorized", "only the room's host can start it", 403)
            if self.status != LOBBY:
                raise ProtocolError("illegal", "the match has started")
            self._start_game()

    async def rematch(self, client: Client) -> None:
        """The host starts a new match in the room, with the same seats."""
        async with self.locked():
            self._host(client)
            if self.status != GAME_OVER_STATUS or self.game is None:
                raise ProtocolError("illegal", "the match is not over")
            self.version_base += self.game.version
            self.game_no += 1
            self._start_game()

    def _start_game(self) -> None:
        for s in self.seats:
            if s.kind == "open":
                s.kind, s.bot = "bot", self.settings.fill_bot
            s.ready = False
        game = self.settings.new_game(self.game_no)
        self.game, self.table, self.declined = game, Table(game), []
        self.status = PLAYING
        self._write(self.store.start_game, {"k": "room"}, diverged=True, game_no=self.game_no,
                    record=record_of(game),
                    position=game.to_dict(), version=game.version, version_base=self.version_base,
                    status=self.status, seats=[s.data() for s in self.seats])
        self._last_change = time.monotonic()
        self._set_deadline()
        self._send_room()
        self._send_game(game.opening_events())
        self._kick_driver()
        log.info("room %s: match %d started", self.code, self.game_no + 1)

    def _playing(self) -> tuple[Game, Table]:
        if self.status != PLAYING or self.game is None or self.table is None:
            raise ProtocolError("illegal", "no round is being played")
        return self.game, self.table

    async def act(self, client: Client, text: str, version: int) -> None:
        """``client``'s seat takes the action ``text`` (notation), chosen on the view of
        ``version``. A ``stale`` refusal is followed by the current state."""
        async with self.locked():
            seat = self._seated(client)
            if self.seats[seat].away:  # they act again: no bot plays for them any more
                self._come_back(seat)
                self._send_room()
                self._kick_driver()
            game, _ = self._playing()
            if version != self.version:
                client.send(dumps(ProtocolError(
                    "stale", f"the match is at version {self.version}, not {version}").to_message()))
                client.send(self._message(()).state_text(game, seat))
                return
            try:
                action = game_action(text)
            except NotationError as exc:
                raise ProtocolError("illegal", f"{text[:40]!r} is not an action: {exc}") from None
            try:
                await self._apply(seat, action)  # the engine refuses, changing nothing, what is not legal
            except IllegalActionError as exc:
                raise ProtocolError("illegal", f"{action_str(action)}: {exc.reason}") from None

    async def _apply(self, seat: int, action: Action) -> None:
        """Apply ``seat``'s action, store it, tell everyone. An illegal one raises
        :class:`IllegalActionError` and changes nothing."""
        game, table = self.game, self.table
        assert game is not None and table is not None
        events = table.act(seat, action)
        self.declined = []
        status = self._status_of(game)
        line = action_line(seat, action)
        keep = status != PLAYING or game.version % POSITION_EVERY == 0
        await self._write_off_loop(self.store.append_action,
                                   {"k": "act", "g": self.game_no, "v": game.version, "l": line}, True,
                                   game_no=self.game_no, round_index=len(game.rounds) - 1,
                                   idx=len(game.history) - 1, line=line,
                                   position=game.to_dict() if keep else None,
                                   version=game.version, status=status, unready=status != self.status)
        self._changed(status, events)

    def _changed(self, status: str, events: Sequence[Event]) -> None:
        was = self.status
        self.status = status
        self._last_change = time.monotonic()
        if status != was:
            for s in self.seats:
                s.ready = False
        self._set_deadline()
        self._send_game(events)
        if status != was:
            self._send_room()
        self._kick_driver()

    def _come_back(self, seat: int) -> None:
        """The person at ``seat`` is back (they acted, or said hello): no bot plays for them."""
        self._back[seat] = time.monotonic()
        s = self.seats[seat]
        if s.away:
            s.away = False
            self._write(self.store.update_room, {"k": "room"}, seats=[s.data()])
        self._set_deadline()

    def _timeout_at(self, seat: int) -> float | None:
        """When the timeout acts for the person at ``seat`` on turn (``time.monotonic()``)."""
        timeout = self.settings.turn_timeout
        if timeout is None:
            return None
        return max(self._last_change, self._back.get(seat, 0.0)) + timeout

    def _set_deadline(self) -> None:
        """When the timeout will act for the person on turn (shown to everyone), if it may."""
        self.deadline = None
        game = self.game
        if game is None or self.status != PLAYING:
            return
        at = self._timeout_at(game.turn)
        if at is not None and self.seats[game.turn].kind == "human" and not self.seats[game.turn].away:
            self.deadline = round(time.time() + at - time.monotonic(), 3)

    @staticmethod
    def _status_of(game: Game) -> str:
        if game.phase == GAME_OVER:
            return GAME_OVER_STATUS
        if game.phase == ROUND_OVER:
            return ROUND_OVER_STATUS
        return PLAYING

    async def ready(self, client: Client) -> None:
        """``client``'s seat is ready for the next round."""
        async with self.locked():
            seat = self._seated(client)
            if self.status != ROUND_OVER_STATUS:
                raise ProtocolError("illegal", "no round is over")
            self.seats[seat].ready = True
            self._write(self.store.update_room, {"k": "room"}, seats=[self.seats[seat].data()])
            if not self._next_round_if_ready():
                self._send_room()

    def _next_round_if_ready(self, anyway: bool = False) -> bool:
        """Deal the next round if every connected person is ready (or ``anyway``, when the
        pause between rounds is over and someone is connected); returns whether it did."""
        if self.status != ROUND_OVER_STATUS or self.game is None or self.table is None:
            return False
        people = [s for s in self.seats if s.kind == "human" and self._connected(s.seat)]
        if not people or not (anyway or all(s.ready for s in people)):
            return False
        game = self.game
        events = self.table.start_round()
        self.declined = []
        try:
            self._write(self.store.add_round, {"k": "deal", "g": self.game_no, "v": game.version}, True,
                        game_no=self.game_no, round_index=len(game.rounds) - 1,
                        deal=record_of(game)["rounds"][-1], position=game.to_dict(),
                        version=game.version, status=PLAYING)
        except ProtocolError:
            return False
        self._changed(PLAYING, events)
        self._send_room()
        return True

    async def say(self, client: Client, text: str) -> None:
        """A chat line from ``client``'s seat."""
        async with self.locked():
            seat = self._seated(client)
            line = check_chat(text)
            name = self.seats[seat].name or f"Player {seat + 1}"
            try:
                data = self.store.add_chat(self.code, seat, name, line, time.time(), note=lambda d: str(
                    self.rooms.note({"c": self.code, "k": "chat", "m": d.to_message()})))
            except Exception:
                log.exception("room %s: a chat line could not be stored", self.code)
                raise ProtocolError("server_error", "the server could not save the message: "
                                                    "try again in a moment") from None
            self.chat = [*self.chat[-(CHAT_HISTORY - 1):], data]
            message = dumps(data.to_message())
            for c in self.clients:
                c.send(message)

    # ------------------------------------------------------------------ the driver

    def _kick_driver(self) -> None:
        """Wake the driver (start it if needed) after a change."""
        self._wake.set()
        if self.owned and self.status in (PLAYING, ROUND_OVER_STATUS) \
                and (self._driver is None or self._driver.done()):
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    def stop(self) -> None:
        """Stop the driver (the server is shutting down)."""
        if self._driver is not None:
            self._driver.cancel()

    async def _drive(self) -> None:
        """Ask the bots when the table asks them, play for a person away, deal the next round
        after the pause; until the room closes."""
        try:
            while self.status != CLOSED and self.owned:
                await asyncio.sleep(0)  # never a loop that keeps the event loop (a store failing on and on)
                try:
                    async with self.locked():
                        plan = self._plan()
                        self._wake.clear()  # a change from now on wakes the driver to plan again
                except ProtocolError:  # the database is away: try again in a moment
                    await asyncio.sleep(0.5)
                    continue
                if plan is None:
                    await self._wake.wait()
                elif plan.kind == "deal":
                    if await self._sleep_until(plan.at):
                        async with self.locked():
                            if self.game is plan.game and self.game is not None \
                                    and self.game.version == plan.version:
                                self._next_round_if_ready(anyway=True)
                else:
                    await self._turn(plan)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: the driver failed", self.code)

    async def _sleep_until(self, at: float) -> bool:
        """Wait until ``at`` (``time.monotonic()``); ``False`` if a change came first."""
        wait = at - time.monotonic()
        if wait <= 0:
            return not self._wake.is_set()
        try:
            async with asyncio.timeout(wait):  # not wait_for, which may swallow a cancellation (3.11)
                await self._wake.wait()
        except TimeoutError:
            return True
        return False

    def _played_for_at(self, seat: int) -> float | None:
        """When a bot may play for the person at ``seat`` (``time.monotonic()``): at once if
        they are away, after the grace if they are disconnected; ``None`` while they are
        there to play."""
        if self.seats[seat].away:
            return self._last_change
        if not self._connected(seat):
            return max(self._last_change, self._gone.get(seat, self._since) + self.rooms.options.grace)
        return None

    def _plan(self) -> _Plan | None:
        """What the driver does next (the table passes over the people it asks out of turn:
        their out-of-turn actions are legal whenever they like), or ``None``: wait."""
        game, table = self.game, self.table
        if game is None or table is None:
            return None
        if self.status == ROUND_OVER_STATUS:
            if not any(s.kind == "human" and self._connected(s.seat) for s in self.seats):
                return None  # nobody to play the next round with: wait for someone to come back
            return _Plan("deal", self._last_change + self.settings.between_rounds, version=game.version,
                         game=game)
        if self.status != PLAYING:
            return None
        declined = len(self.declined)
        plan = None
        now = time.monotonic()
        while True:
            seat = table.next_seat()
            if seat is None:
                break
            s = self.seats[seat]
            must = table.must_act(seat)
            delay = self.settings.bot_delay
            if s.kind == "bot":
                plan = _Plan("bot", self._last_change + delay, seat, game.version, len(self.declined), must,
                             s.bot or self.settings.fill_bot, self.settings.forget_uno, False, game,
                             game.observe(seat))
                break
            auto = self._played_for_at(seat)
            if auto is not None and (must or auto <= now):
                plan = _Plan("bot", max(auto, self._last_change + delay), seat, game.version,
                             len(self.declined), must, DEFAULT_BOT, 0.0, True, game, game.observe(seat))
                break
            if must:
                at = self._timeout_at(seat)
                if at is not None:
                    plan = _Plan("timeout", at, seat, game.version, len(self.declined), True, DEFAULT_BOT,
                                 0.0, True, game, None)
                break
            table.decline(seat)
            self.declined.append(seat)
        if len(self.declined) != declined:
            self._save_declined()
        return plan

    def _save_declined(self) -> None:
        """Store the declines since the last change (the next owner goes on from them)."""
        assert self.game is not None
        try:
            self.store.save_declined(self.code, self.declined, self.game.version)
        except Exception as exc:  # the next owner asks them again: nothing is lost
            log.warning("room %s: declines could not be stored (%s)", self.code, exc)

    async def _turn(self, plan: _Plan) -> None:
        """A bot's decision (or the timeout's, for a person): decided at once (in a thread),
        applied at ``plan.at`` unless something changed meanwhile."""
        game = plan.game
        assert game is not None
        action: Action | None = None
        seed = _derive(game.seed, self.game_no, plan.seat, plan.version)
        if plan.kind == "bot":
            bot = room_bot(plan.bot, seed, plan.forget_uno)
            try:
                action = await asyncio.to_thread(bot.act, plan.obs)
            except Exception:
                log.exception("room %s: bot %s failed to decide", self.code, plan.bot)
            if action is None and not plan.must:
                plan.at = 0  # nothing to do: decline at once (no pause tells of a choice)
        if not await self._sleep_until(plan.at):
            return  # something changed: plan again
        async with self.locked():
            table = self.table
            if (self.status != PLAYING or self.game is not game or table is None
                    or game.version != plan.version or len(self.declined) != plan.declined
                    or table.next_seat() != plan.seat):
                return
            if plan.kind == "bot" and plan.person and self._played_for_at(plan.seat) is None:
                return  # they came back meanwhile
            if plan.kind == "timeout":
                s = self.seats[plan.seat]
                if not self._connected(plan.seat) or s.away:
                    return  # planned again as a person played for
                s.away = True
                try:
                    self._write(self.store.update_room, {"k": "room"}, seats=[s.data()])
                except ProtocolError:
                    return  # read again: the next plan starts over
                self._send_room()
                action = room_bot(DEFAULT_BOT, seed, 0.0).act(game.observe(plan.seat))
            legal = game.legal_actions(plan.seat)
            if action is None or action not in legal:
                if not plan.must:
                    table.decline(plan.seat)
                    self.declined.append(plan.seat)
                    self._save_declined()
                    self._kick_driver()
                    return
                action = legal[0]
            with contextlib.suppress(ProtocolError):  # stored nothing, reloaded: the next plan starts over
                await self._apply(plan.seat, action)

    # ------------------------------------------------------------------ loading

    def _restore(self, data: RoomData) -> None:
        """Set the game from the stored record (from its position, when that is the record's)."""
        self.game_no = data.game_no
        self.version_base = data.version_base
        if data.record is None:
            self.game = self.table = None
            return
        record = data.record
        if record.get("version") != RECORD_VERSION:
            raise RecordError(f"record version {record.get('version')!r}, this server reads {RECORD_VERSION}")
        game = None
        if data.position is not None:
            try:
                game = resume(Game.from_dict(data.position), record)
            except (UnoError, TypeError, ValueError, KeyError, IndexError):
                game = None
            if game is not None and game.version != data.version:
                game = None
        if game is None:
            game = replay(record)
        table = Table(game)
        for seat in data.declined:
            if table.next_seat() != seat or table.must_act(seat):
                break
            table.decline(seat)
        self.game, self.table = game, table
        self.declined = list(data.declined)
        if data.status not in (LOBBY, CLOSED):
            self.status = self._status_of(game)


def resume(game: Game, record: dict[str, Any]) -> Game | None:
    """``game`` (a stored position) brought up to the end of ``record`` by the record's actions
    and deals after it, or ``None`` if the position is not a beginning of the record."""
    own = record_of(game)
    rounds, mine = record["rounds"], own["rounds"]
    r = len(mine) - 1
    if ({k: v for k, v in own.items() if k != "rounds"} != {k: v for k, v in record.items() if k != "rounds"}
            or r >= len(rounds) or mine[:r] != rounds[:r]
            or {k: v for k, v in mine[r].items() if k != "actions"}
            != {k: v for k, v in rounds[r].items() if k != "actions"}
            or mine[r]["actions"] != rounds[r]["actions"][:len(mine[r]["actions"])]):
        return None
    for step in record_after(game, record) or ():
        if step is None:
            game.start_round(events=False)
        elif step[0] < 0:
            game.apply_host(step[1])
        else:
            game.step(*step)
    return game if record_of(game) == record else None


def record_after(game: Game, record: dict[str, Any]) -> Iterator[tuple[int, Action] | None] | None:
    """The changes of ``record`` after ``game``'s last one, in order, for the caller to apply
    one by one: each action as ``(seat, action)`` (seat -1: the host), and ``None`` where the
    next round is dealt. ``None`` if the record has fewer rounds, or fewer actions in the
    game's round, than the game (it is not a beginning of the record)."""
    rounds = record["rounds"]
    r, start = len(game.rounds) - 1, len(game.history)
    if r >= len(rounds) or start > len(rounds[r]["actions"]):
        return None

    def steps(r: int, start: int) -> Iterator[tuple[int, Action] | None]:
        while True:
            for line in rounds[r]["actions"][start:]:
                yield parse_action_line(line)
            r += 1
            if r >= len(rounds):
                return
            yield None
            start = 0

    return steps(r, start)


def game_action(text: str) -> Action:
    """An action's notation as the engine reads it (``R7``, ``catch 2``); raises NotationError."""
    from ..core.actions import parse_action

    if len(text) > 40:
        raise NotationError("not an action")
    return parse_action(text.strip())


def _closed(reason: str | None) -> ProtocolError:
    why = {"format": "it was stored by a version of unokit that cannot read it",
           "empty": "everyone left", "idle": "it was left idle"}.get(reason or "", "")
    return ProtocolError("not_found", f"this room is closed{': ' + why if why else ''}", 410)


# ---------------------------------------------------------------------- every room


@dataclass
class ServerOptions:
    """What ``unokit serve`` was started with, as the rooms need it."""

    dev: bool = False
    max_rooms: int = 1000
    allowed_origins: tuple[str, ...] = ()
    idle_hours: float = IDLE_HOURS
    grace: float = GRACE
    """Seconds a disconnected person's turn waits before a bot plays it."""
    posts_per_10s: int = 20
    """``POST`` requests one address may make in ten seconds (``rate_limited`` past them;
    0: no limit)."""
    rate_limit: int = 20
    """Joins (``POST .../join``) and guesses (unknown room codes, tokens that are no seat's)
    one address may make in ten seconds, each (``rate_limited`` past them; 0: no limit).
    ``--rate-limit`` sets it and :attr:`posts_per_10s`."""


class Rooms:
    """Every room of the server: made here, loaded from the store at start; on PostgreSQL
    (``cluster``), also made by other processes and followed from their notifications."""

    def __init__(self, store: Store, options: ServerOptions | None = None,
                 cluster: Cluster | None = None) -> None:
        self.store = store
        self.options = options or ServerOptions()
        self.cluster = cluster
        self.server_id = cluster.id if cluster is not None else None
        """This process's id among the servers of the database (``None``: the only one)."""
        self.note = note_sender(cluster)
        self.rooms: dict[str, Room] = {}
        self.closed: dict[str, str | None] = {}
        """Rooms closed since the start (their reason), so that a client is told so."""

    def load(self) -> list[str]:
        """Load every stored room that is not closed; close those that cannot be read (their
        format is another's, their record does not replay). Returns the codes loaded."""
        loaded = []
        for data in self.store.load_rooms(CHAT_HISTORY, self.server_id):
            if self._adopt(data):
                loaded.append(data.code)
        return loaded

    def _adopt(self, data: RoomData) -> bool:
        """Hold the stored room ``data`` (closing it if it cannot be read); whether it is held."""
        if data.status == CLOSED:
            self.closed[data.code] = data.closed_reason
            return False
        try:
            room = self._room_of(data)
        except (UnoError, TypeError, ValueError, KeyError, IndexError, AssertionError) as exc:
            log.warning("room %s cannot be read (%s): closing it", data.code, exc)
            with contextlib.suppress(Exception):
                self.store.close_room(data.code, "format", note=self.note({"c": data.code, "k": "room"}))
            self.closed[data.code] = "format"
            return False
        self.rooms[data.code] = room
        return True

    # ------------------------------------------------------------------ several processes

    def codes(self) -> list[str]:
        """The codes of the open rooms held here."""
        return [code for code, room in self.rooms.items() if room.status != CLOSED]

    def notified(self, payload: str) -> None:
        """Another process changed a room: the room held here follows it; a room made
        elsewhere is read."""
        try:
            change = json.loads(payload)
            code = change["c"]
            if change.get("o") == self.server_id or not isinstance(code, str):
                return
        except (ValueError, KeyError, TypeError):
            log.warning("an unreadable notification: %.80r", payload)
            return
        room = self.rooms.get(code)
        if room is not None:
            room.note(change)
        elif code not in self.closed:
            self._read(code)

    def _read(self, code: str) -> Room | None:
        """Read a room that another process made, or ``None``."""
        try:
            data = self.store.load_room(code, CHAT_HISTORY, self.server_id)
        except Exception as exc:
            log.warning("room %s cannot be read from the database (%s)", code, exc)
            return None
        if data is None or code in self.rooms or not self._adopt(data):
            return self.rooms.get(code)
        room = self.rooms[code]
        room._kick_driver()
        return room

    def resync(self) -> None:
        """Read again every room whose revision moved on unseen, and the rooms made unseen
        (after the notifications may have been missed)."""
        try:
            revisions = self.store.revisions()
        except Exception as exc:
            log.warning("the rooms cannot be read from the database (%s)", exc)
            for held in self.rooms.values():
                held._dirty = True
            return
        for code, rev in revisions.items():
            room = self.rooms.get(code)
            if room is None:
                if code not in self.closed:
                    self._read(code)
            elif room.rev != rev or room._dirty:
                room.note({"k": "sync"})
            else:
                room.note({"k": "presence"})
        for code, held in list(self.rooms.items()):
            if code not in revisions:
                held.note({"k": "sync"})

    def owned(self, code: str, owned: bool) -> None:
        """This process now drives (or no longer drives) room ``code``."""
        room = self.rooms.get(code)
        if room is not None:
            room.set_owned(owned)

    def republish(self) -> None:
        """Write again which seats have a connection here."""
        for room in self.rooms.values():
            if room.clients:
                room._publish_presence()

    def gone(self, codes: list[str]) -> None:
        """A dead process's connections were dropped from these rooms."""
        for code in codes:
            room = self.rooms.get(code)
            if room is not None:
                room.note({"k": "presence"})

    def _room_of(self, data: RoomData) -> Room:
        if data.unreadable is not None:
            raise ValueError(data.unreadable)
        if data.store_format != STORE_FORMAT:
            raise ValueError(f"stored in format {data.store_format}, this server reads {STORE_FORMAT}")
        settings = Settings.from_json(data.settings)
        if len(data.seats) != settings.players:
            raise ValueError(f"{len(data.seats)} seats for {settings.players} players")
        seats = [Seat(s.seat, s.kind, s.name, s.bot, s.token_hash, s.ready, s.away) for s in data.seats]
        room = Room(self, data.code, settings, seats, data.host, data.status)
        room.chat = list(data.chat)
        room.rev = data.rev
        room.remote = data.present
        room._restore(data)
        room._set_deadline()
        return room

    def start(self) -> None:
        """Start the drivers of the loaded rooms (in the running event loop)."""
        for room in self.rooms.values():
            room._kick_driver()

    def stop(self) -> None:
        """Stop every room's driver."""
        for room in self.rooms.values():
            room.stop()

    def forget(self, room: Room) -> None:
        """A closed room leaves the server's memory; its code still answers that it is closed."""
        self.closed[room.code] = room.closed_reason
        self.rooms.pop(room.code, None)

    async def close_idle(self, seconds: float) -> list[str]:
        """Close the rooms nobody has been in, and where nothing happened, for ``seconds``
        (each by the process that owns it)."""
        now = time.monotonic()
        idle = [r for r in list(self.rooms.values())
                if r.owned and (since := r.idle_since()) is not None and now - since >= seconds]
        for room in idle:
            await room.close_idle()
        return [r.code for r in idle]

    def get(self, code: object) -> Room:
        """The room ``code`` (any case); raises ``not_found`` (404, or 410 for a closed room)."""
        key = security.normalize_code(code) if isinstance(code, str) else ""
        room: Room | None = self.rooms.get(key)
        if room is None and self.cluster is not None and key and key not in self.closed:
            room = self._read(key)  # made by another process a moment ago
        if room is None:
            if key in self.closed:
                raise _closed(self.closed[key])
            raise ProtocolError("not_found", "there is no room with this code")
        if room.status == CLOSED:
            raise _closed(room.closed_reason)
        return room

    def public(self) -> list[dict[str, Any]]:
        """The public rooms that are not closed (``GET /api/rooms``), those in the lobby first."""
        rooms = [r for r in self.rooms.values() if r.settings.public and r.status != CLOSED]
        rooms.sort(key=lambda r: (r.status != LOBBY, r.code))
        return [r.summary() for r in rooms]

    async def create(self, body: CreateRoom) -> tuple[Room, str]:
        """Make a room from a checked ``POST /api/rooms`` body and seat its creator at seat 0,
        as its host; returns the room and the creator's token. The room waits in the lobby
        until its host starts it."""
        name = check_name(body.name)
        settings = parse_settings(body, self.options.dev)
        open_rooms = sum(1 for r in self.rooms.values() if r.status != CLOSED)
        if open_rooms >= self.options.max_rooms:
            raise ProtocolError("rate_limited", "the server holds as many rooms as it may: try later", 503)
        code = security.new_code()
        while code in self.rooms or code in self.closed or self.store.exists(code):
            code = security.new_code()
        seats = [Seat(i, "open" if kind == "human" else "bot", None, None if kind == "human" else kind)
                 for i, kind in enumerate(settings.seats)]
        token = security.new_token()
        first = seats[0]
        first.kind, first.name, first.token_hash = "human", name, security.token_hash(token)
        room = Room(self, code, settings, seats, first.seat)
        data = RoomData(code, LOBBY, settings.to_json(), first.seat, [s.data() for s in seats])
        self.store.create_room(data, note=self.note({"c": code, "k": "new"}))
        self.rooms[code] = room
        if self.cluster is not None:
            self.cluster.sweep_soon()  # this process takes the room's driving at once
        log.info("room %s created (%s, %d seats)", code, settings.edition, settings.players)
        return room, token


# ---------------------------------------------------------------------- messages


async def handle(rooms: Rooms, client: Client, message: ClientMessage) -> None:
    """Do what a client's checked message asks; raises :class:`~.protocol.ProtocolError` to
    refuse it."""
    room = client.room
    if isinstance(message, Hello):
        if room is not None:
            raise ProtocolError("malformed", "hello is the first message of a connection, once")
        await rooms.get(client.code).hello(client, message.token)
        return
    if room is None:
        raise ProtocolError("unauthorized", "send hello first")
    if isinstance(message, Act):
        await room.act(client, message.action, message.version)
    elif isinstance(message, Chat):
        await room.say(client, message.text)
    elif isinstance(message, Ready):
        await room.ready(client)
    elif isinstance(message, Leave):
        await room.leave(client)
    elif isinstance(message, Kick):
        await room.kick(client, message.seat)
    elif isinstance(message, SetBot):
        await room.set_bot(client, message.seat, message.bot)
    elif isinstance(message, Move):
        await room.move(client, message.seat, message.to)
    elif isinstance(message, Rematch):
        await room.rematch(client)
    else:  # pragma: no cover - parse() knows no other type
        raise ProtocolError("malformed", f"unknown message {message!r}")


__all__ = ["Client", "Room", "Rooms", "ServerOptions", "Settings", "handle", "parse_settings", "room_bot"]
