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

A room is made of parts, each in a module of its own: its driver (:mod:`.driver`), its
following of the other processes (:mod:`.follow`), its writes to the store
(:mod:`.persistence`), its seats and connections (:mod:`.seats`), its settings
(:mod:`.settings`), its statuses (:mod:`.statuses`) and its record read back (:mod:`.records`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from ..core.actions import Action, action_str
from ..core.codec import action_line
from ..core.errors import IllegalActionError, NotationError, UnoError
from ..core.events import Event
from ..core.game import Game
from ..core.record import round_events
from ..core.table import Table
from . import security
from .away import Away
from .cluster import Cluster, note_sender
from .driver import Driver
from .follow import Follower
from .models import Act, Back, Chat, CreateRoom, Hello, Kick, Leave, Move, Ready, Rematch, SetBot
from .persistence import RoomWriter
from .protocol import CHAT_HISTORY, ClientMessage, GameMessage, ProtocolError, check_chat, check_name, dumps
from .records import game_action, resume
from .seats import Client, Seat
from .settings import Settings, parse_settings, room_bot
from .statuses import CLOSED, GAME_OVER_STATUS, LOBBY, PLAYING, ROUND_OVER_STATUS, closed_error, status_of
from .store import STORE_FORMAT, ChatData, RoomData, Store

log = logging.getLogger("unokit.server")

IDLE_HOURS: Final = 24.0
"""A room nobody has been in, and where nothing happened, for this long is closed (``idle``)."""
POSITION_EVERY: Final = 32
"""The position (``Game.to_dict()``) is stored with every 32nd action, and with every deal and
every round's last action: a room is resumed from it and the record's actions after it (writing
the whole position with every action would cost as much as the rest of the change)."""
GRACE: Final = 20.0
"""Seconds a disconnected person's turn waits for them before a bot plays it."""
SETTLE_TRIES: Final = 3
"""How many times :meth:`Room.settled` makes a change that another process's change refused."""

T = TypeVar("T")


# ---------------------------------------------------------------------- a room


class Room(Away):
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
        self.dirty = False
        """This copy of the room must be read again from the database before it is used."""
        self.announced: tuple[int, int] | None = None
        """The match and the game's version that every connection was last sent."""
        self.lock = asyncio.Lock()
        self.driver = Driver(self)
        """The task that runs the room's bots and timers (where this process owns the room)."""
        self.follower = Follower(self)
        """What follows the changes other processes make to the room, and reads it again."""
        self.writer = RoomWriter(self)
        """What stores the room's changes."""
        self.last_change = time.monotonic()
        self.gone: dict[int, float] = {}
        """When each seat's last connection ended (``time.monotonic()``); the room's making or
        loading for a seat never connected since."""
        self._since = self.last_change
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
                                     "connected": self.connected(s.seat)}
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
                "connected": self.connected(s.seat), "away": self._away(s.seat), "ready": s.ready}

    def _away(self, seat: int) -> bool:
        """Whether the person at ``seat`` is played by a bot now (or will be, once the grace
        of a disconnected person's turn is over)."""
        return (self.seats[seat].kind == "human" and self.status not in (LOBBY, CLOSED)
                and (self.seats[seat].away or not self.connected(seat)))

    def names(self) -> tuple[str | None, ...]:
        """Each seat's person's name (``None`` for a bot)."""
        return tuple(s.name if s.kind == "human" else None for s in self.seats)

    def send_room(self) -> None:
        for c in self.clients:
            c.send(dumps(self.room_message(c)))

    def _message(self, events: Sequence[Event], replay: bool = False) -> GameMessage:
        return GameMessage(self.version, tuple(events), self.names(), replay, self.deadline)

    def send_game(self, events: Sequence[Event], replay: bool = False,
                   to: Sequence[Client] | None = None) -> None:
        game = self.game
        if game is None:
            return
        if to is None:
            self.announced = (self.game_no, game.version)
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
            if self.dirty:
                self.reload()
                if self.dirty:
                    raise ProtocolError("server_error", "the server cannot reach its database: "
                                                        "try again in a moment")
            yield

    async def settled(self, change: Callable[[], T]) -> T:
        """``change()`` under :meth:`locked`; if another process changed the room at the same
        moment (the write refused as ``stale``: the room is read again), ``change`` runs again,
        its checks made afresh, up to :data:`SETTLE_TRIES` times. For what a person means
        whatever the other change was (start the match, take a seat, a host's kick, move of
        seats or bot at a seat), not for a move, which was chosen from a view that is now gone."""
        for attempt in range(1, SETTLE_TRIES + 1):
            try:
                async with self.locked():
                    return change()
            except ProtocolError as exc:
                if exc.code != "stale" or attempt == SETTLE_TRIES:
                    raise
                log.info("room %s: changed elsewhere at the same moment; trying again", self.code)
        raise AssertionError("unreachable")

    def publish_presence(self) -> None:
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

    def close_here(self, reason: str | None) -> None:
        """The room is closed (here, or by another process): tell the connections, forget it."""
        self.status, self.closed_reason = CLOSED, reason
        self.rooms.forget(self)
        for c in list(self.clients):
            c.send(dumps(self.room_message(c)))
            c.send_off("closed")
        self.clients.clear()
        self.kick_driver()

    def note(self, change: dict[str, Any]) -> None:
        """Another process changed the room (its notification): follow it
        (:meth:`Follower.note <.follow.Follower.note>`)."""
        self.follower.note(change)

    def reload(self) -> None:
        """Read the room again from the database (:meth:`Follower.reload <.follow.Follower.reload>`)."""
        self.follower.reload()

    def restore(self, data: RoomData) -> None:
        """Set the game from the stored room ``data`` (:meth:`Follower.restore
        <.follow.Follower.restore>`)."""
        self.follower.restore(data)

    def set_owned(self, owned: bool) -> None:
        """This process now runs (or no longer runs) the room's driver; a room taken over is
        read again first."""
        self.owned = owned
        if owned:
            self.dirty = True
            self.note({"k": "owned"})
        else:
            self.stop()

    # ------------------------------------------------------------------ entering and leaving

    def _check_open(self) -> None:
        if self.status == CLOSED:
            raise closed_error(self.closed_reason)

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
            self.rooms.unjoined.pop(self.code, None)
            client.token_hash = None if seat is None else self.seats[seat].token_hash
            self.clients.append(client)
            if seat is not None:
                with contextlib.suppress(ProtocolError):  # stored or not, they are here
                    self._come_back(seat)
                self.publish_presence()
            send_presence(self, client)
            client.send(dumps({"type": "chat_history", "messages": [m.to_message() for m in self.chat]}))
            if self.game is not None:
                self.send_game(round_events(self.game), replay=True, to=[client])
            self.next_round_if_ready()
            self.kick_driver()

    async def take_seat(self, name: str, seat: int | None) -> tuple[int, str]:
        """Seat the person ``name`` at an open seat (``seat``, or the first): returns the seat
        and its token. A seat taken at the same moment by another process is not given twice
        (:meth:`settled`)."""
        def take() -> tuple[int, str]:
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
            self.gone[chosen.seat] = time.monotonic()
            self.writer.seats([chosen.data()], host=self.host)
            self.send_room()
            return chosen.seat, token
        return await self.settled(take)

    def seat_of(self, token: str) -> int | None:
        """The person's seat whose token is ``token`` (every seat compared in constant time)."""
        found = None
        for s in self.seats:
            if s.kind == "human" and security.token_matches(token, s.token_hash):
                found = s.seat
        return found

    async def disconnect(self, client: Client) -> None:
        """``client``'s connection ended (a host gone before the start passes the role on
        after the grace, unless they are back)."""
        async with self.lock:
            if client in self.clients:
                self.clients.remove(client)
                if client.seat is not None and not self.connected(client.seat):
                    self.gone[client.seat] = time.monotonic()
                    if client.seat == self.host and self.status == LOBBY:
                        asyncio.get_running_loop().call_later(self.rooms.options.grace, self._host_gone)
                if client.seat is not None:
                    self.publish_presence()
                if self.status != CLOSED:
                    send_presence(self)
                    self.next_round_if_ready()
                    self.kick_driver()

    def _host_gone(self) -> None:
        asyncio.get_running_loop().create_task(self._host_gone_now())

    async def _host_gone_now(self) -> None:
        """The grace of a host gone before the start is over: the role passes on, unless they
        are back (or the database is away: they keep it)."""
        def pass_on() -> None:
            if self.owned and self.pass_host():
                self.send_room()
        with contextlib.suppress(ProtocolError):
            await self.settled(pass_on)

    async def back(self, client: Client) -> None:
        """The person at ``client``'s seat is back: no bot plays for them any more."""
        async with self.locked():
            seat = self._seated(client)
            if self.seats[seat].away:
                self._come_back(seat)
                self.send_room()
                self.kick_driver()

    async def leave(self, client: Client) -> None:
        """``client`` leaves its seat for good."""
        async with self.locked():
            seat = self._seated(client)
            self._give_up(seat, "left", None)

    async def kick(self, client: Client, seat: int) -> None:
        """The host frees a person's seat (a bot takes it during a match; :meth:`settled`)."""
        def kick() -> None:
            self._host(client)
            if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human" or seat == self.host:
                raise ProtocolError("illegal", f"seat {seat} is not another person's seat")
            self._give_up(seat, "kicked", None)
        await self.settled(kick)

    async def set_bot(self, client: Client, seat: int, bot: str | None) -> None:
        """The host puts a bot at ``seat`` (a person there leaves it), or in the lobby opens a
        bot's seat (``bot`` ``None``; :meth:`settled`)."""
        def put() -> None:
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
            self.store_seats(s)
            self.send_room()
            self.kick_driver()
        await self.settled(put)

    async def move(self, client: Client, seat: int, to: int) -> None:
        """The host swaps what sits at ``seat`` and at ``to`` (in the lobby; :meth:`settled`)."""
        def swap() -> None:
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
            host = to if self.host == seat else seat if self.host == to else self.host
            self.writer.seats([a.data(), b.data()], host=host)  # stored first: a refusal changes nothing here
            self.host = host
            for c in self.clients:
                if c.seat in (seat, to):
                    c.seat = to if c.seat == seat else seat
            gone_a, gone_b = self.gone.pop(seat, None), self.gone.pop(to, None)
            if gone_a is not None:
                self.gone[to] = gone_a
            if gone_b is not None:
                self.gone[seat] = gone_b
            self.publish_presence()
            self.send_room()
        await self.settled(swap)

    def _give_up(self, seat: int, reason: str, bot: str | None) -> None:
        s = self.seats[seat]
        if self.status == LOBBY and bot is None:
            s.kind, s.name, s.bot, s.token_hash = "open", None, None, None
        else:
            s.kind, s.name, s.bot, s.token_hash = "bot", None, bot or self.settings.fill_bot, None
        s.ready = s.away = False
        if self.host == seat:
            people = [t.seat for t in self.seats if t.kind == "human"]
            self.host = people[0] if people else None
        # stored first: a refusal sends nobody off
        self.writer.seats([s.data()], host=self.host, set_host=True)
        for c in [c for c in self.clients if c.seat == seat]:
            self.clients.remove(c)
            c.send_off(reason)
        self.publish_presence()
        if not any(t.kind == "human" for t in self.seats):
            self.close("empty")
            return
        self.send_room()
        self.next_round_if_ready()
        self.kick_driver()

    def idle_since(self) -> float | None:
        """Since when (``time.monotonic()``) nobody has been connected and nothing has
        changed, or ``None`` while someone is connected."""
        return None if self.clients or self.remote else self.last_change

    async def close_idle(self) -> None:
        """Close the room for being left idle (see :meth:`Rooms.close_idle`)."""
        async with self.locked():
            if self.status != CLOSED and not self.clients and not self.remote:
                self.close("idle")

    def close(self, reason: str) -> None:
        """Close the room for good: stored, then the connections told (:meth:`_close_here`)."""
        try:
            self.rev = self.store.close_room(self.code, reason, note=self.rooms.note(
                {"c": self.code, "k": "room", "r": self.rev + 1}))
        except Exception:  # closed here all the same; the database says so once it can
            log.exception("room %s: its closing could not be stored", self.code)
        self.close_here(reason)
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
        """The host (whose token is ``token``) starts the match now; open seats get bots. A
        person seated at the same moment by another process is seated, not given a bot
        (:meth:`settled`)."""
        def start() -> None:
            self._check_open()
            seat = None if token is None else self.seat_of(token)
            if seat is None:
                raise ProtocolError("unauthorized", "send the host's token: Authorization: Bearer TOKEN")
            if seat != self.host:
                raise ProtocolError("unauthorized", "only the room's host can start it", 403)
            if self.status != LOBBY:
                raise ProtocolError("illegal", "the match has started")
            self._start_game()
        await self.settled(start)

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
        self.writer.start_game(game, game_no=self.game_no, version_base=self.version_base, status=self.status,
                               seats=[s.data() for s in self.seats])
        self.last_change = time.monotonic()
        self.set_deadline()
        self.send_room()
        self.send_game(game.opening_events())
        self.kick_driver()
        log.info("room %s: match %d started", self.code, self.game_no + 1)

    def _playing(self) -> tuple[Game, Table]:
        if self.status != PLAYING or self.game is None or self.table is None:
            raise ProtocolError("illegal", "no round is being played")
        return self.game, self.table

    async def act(self, client: Client, text: str, version: int) -> bool:
        """``client``'s seat takes the action ``text`` (notation), chosen on the view of
        ``version``; returns whether it was applied. A ``stale`` refusal is followed by the
        current state."""
        async with self.locked():
            seat = self._seated(client)
            if self.seats[seat].away:  # they act again: no bot plays for them any more
                self._come_back(seat)
                self.send_room()
                self.kick_driver()
            game, _ = self._playing()
            if version != self.version:
                client.send(dumps(ProtocolError(
                    "stale", f"the match is at version {self.version}, not {version}").to_message()))
                client.send(self._message(()).state_text(game, seat))
                return False
            try:
                action = game_action(text)
            except NotationError as exc:
                raise ProtocolError("illegal", f"{text[:40]!r} is not an action: {exc}") from None
            try:
                await self.apply_action(seat, action)  # the engine refuses, changing nothing, the illegal
            except IllegalActionError as exc:
                raise ProtocolError("illegal", f"{action_str(action)}: {exc.reason}") from None
            return True

    async def apply_action(self, seat: int, action: Action) -> None:
        """Apply ``seat``'s action, store it, tell everyone. An illegal one raises
        :class:`IllegalActionError` and changes nothing."""
        game, table = self.game, self.table
        assert game is not None and table is not None
        events = table.act(seat, action)
        self.declined = []
        status = status_of(game)
        line = action_line(seat, action)
        keep = status != PLAYING or game.version % POSITION_EVERY == 0
        await self.writer.append_action(game, line, game_no=self.game_no, status=status, keep=keep,
                                        unready=status != self.status)
        self.changed(status, events)

    def changed(self, status: str, events: Sequence[Event]) -> None:
        was = self.status
        self.status = status
        self.last_change = time.monotonic()
        if status != was:
            for s in self.seats:
                s.ready = False
        self.set_deadline()
        self.send_game(events)
        if status != was:
            self.send_room()
        self.kick_driver()

    async def ready(self, client: Client) -> None:
        """``client``'s seat is ready for the next round."""
        async with self.locked():
            seat = self._seated(client)
            if self.status != ROUND_OVER_STATUS:
                raise ProtocolError("illegal", "no round is over")
            self.seats[seat].ready = True
            self.store_seats(self.seats[seat])
            if not self.next_round_if_ready():
                self.send_room()

    def next_round_if_ready(self, anyway: bool = False) -> bool:
        """Deal the next round if every connected person is ready (or ``anyway``, when the
        pause between rounds is over and someone is connected); returns whether it did."""
        if self.status != ROUND_OVER_STATUS or self.game is None or self.table is None:
            return False
        people = [s for s in self.seats if s.kind == "human" and self.connected(s.seat)]
        if not people or not (anyway or all(s.ready for s in people)):
            return False
        game = self.game
        events = self.table.start_round()
        self.declined = []
        try:
            self.writer.add_round(game, game_no=self.game_no, status=PLAYING)
        except ProtocolError:
            return False
        self.changed(PLAYING, events)
        self.send_room()
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
            self.add_chat(data, dumps(data.to_message()))

    def add_chat(self, line: ChatData, text: str) -> None:
        """A chat line joins the room's window of the last lines, and every connection is
        sent it (``text``)."""
        self.chat = [*self.chat[-(CHAT_HISTORY - 1):], line]
        for c in self.clients:
            c.send(text)

    def kick_driver(self) -> None:
        """Wake the room's driver (start it if needed) after a change."""
        self.driver.kick()

    def stop(self) -> None:
        """Stop the room's driver (the server is shutting down)."""
        self.driver.stop()

    # ------------------------------------------------------------------ loading

def send_presence(room: Room, joined: Client | None = None) -> None:
    """Tell ``room``'s connections who is here: ``joined`` (a connection just come) at once, the
    others as their :meth:`Client.presence` allows (at most once a second each)."""
    for c in room.clients:
        if c is joined:
            c.send(dumps(room.room_message(c)))
        else:
            c.presence(functools.partial(_room_text, room, c))


def _room_text(room: Room, client: Client) -> str:
    return dumps(room.room_message(client))


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
    allowed_hosts: tuple[str, ...] = ()
    """The ``Host`` names the server answers for besides the loopback ones (``--allowed-host``,
    and the addresses ``unokit serve`` prints)."""
    forwarded_allow_ips: tuple[str, ...] = ()
    """The proxies (addresses, or networks such as ``10.0.0.0/8``) whose ``X-Forwarded-For``
    names the client (``--forwarded-allow-ips``); no other peer's is read."""
    rooms_per_address: int = 20
    """Open rooms one address (``limits.address_key``) may have made, counted in the database
    (0: no limit)."""
    unjoined_minutes: float = 10.0
    """A room that nobody has connected to this long after its making is closed (``idle``)."""
    sockets_per_address: int = 60
    """WebSockets open at once from one address, in one process (0: no limit)."""
    sockets_per_room: int = 40
    """Connections to one room, in one process (0: no limit)."""
    spectators_per_room: int = 20
    """Spectators' connections to one room, in one process (0: no limit)."""
    chat_per_seat: int = 5
    """Chat lines a seat may send in any second, over all its connections to one process."""
    chat_per_address: int = 10
    """Chat lines one address may send in any second, to one process."""
    refused_acts: int = 5
    """Refused or stale ``act`` messages a connection may send in any second (applied ones are
    never a flood); past them, a flood."""
    presence_every: float = 1.0
    """Seconds between two ``room`` messages a connection is sent for presence alone (a
    connection made or ended, a spectator come or gone)."""
    pings_per_second: int = 5
    """WebSocket ping frames a connection may send in any second; past them it is closed."""
    hello_timeout: float = 10.0
    """Seconds a WebSocket has to say ``hello`` (to a room that exists) before it is closed."""
    header_timeout: float = 10.0
    """Seconds an HTTP request has for its request line and headers, from the connection or the
    request's first byte."""
    body_timeout: float = 30.0
    """Seconds an HTTP request has for its body, once its headers are in."""


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
        self.unjoined: dict[str, float] = {}
        """The rooms made here that nobody has connected to yet: when each was made
        (``time.monotonic()``)."""

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
        room.kick_driver()
        return room

    def resync(self) -> None:
        """Read again every room whose revision moved on unseen, and the rooms made unseen
        (after the notifications may have been missed)."""
        try:
            revisions = self.store.revisions()
        except Exception as exc:
            log.warning("the rooms cannot be read from the database (%s)", exc)
            for held in self.rooms.values():
                held.dirty = True
            return
        for code, rev in revisions.items():
            room = self.rooms.get(code)
            if room is None:
                if code not in self.closed:
                    self._read(code)
            elif room.rev != rev or room.dirty:
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
                room.publish_presence()

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
        room.restore(data)
        room.set_deadline()
        return room

    def start(self) -> None:
        """Start the drivers of the loaded rooms (in the running event loop)."""
        for room in self.rooms.values():
            room.serving()
            room.kick_driver()

    def stop(self) -> None:
        """Stop every room's driver."""
        for room in self.rooms.values():
            room.stop()

    def forget(self, room: Room) -> None:
        """A closed room leaves the server's memory; its code still answers that it is closed."""
        self.closed[room.code] = room.closed_reason
        self.rooms.pop(room.code, None)
        self.unjoined.pop(room.code, None)

    async def close_unjoined(self, seconds: float) -> list[str]:
        """Close the rooms made here that nobody has connected to (here or, on PostgreSQL,
        to another process) for ``seconds`` since their making."""
        now = time.monotonic()
        closing = []
        for code, made in list(self.unjoined.items()):
            room = self.rooms.get(code)
            if room is None or room.clients or room.remote:
                self.unjoined.pop(code, None)
            elif now - made >= seconds and room.owned:
                closing.append(room)
        for room in closing:
            await room.close_idle()
        return [r.code for r in closing]

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
        room = self.find(key)
        if room is None:
            if key in self.closed:
                raise closed_error(self.closed[key])
            raise ProtocolError("not_found", "there is no room with this code")
        if room.status == CLOSED:
            raise closed_error(room.closed_reason)
        return room

    def find(self, key: str) -> Room | None:
        """The open room whose (normalized) code is ``key``: held here, or on PostgreSQL read
        from the database when another process made it a moment ago; ``None`` if there is
        none, or it is closed."""
        room = self.rooms.get(key)
        if room is None and self.cluster is not None and key and key not in self.closed:
            room = self._read(key)
        return room

    def public(self) -> list[dict[str, Any]]:
        """The public rooms that are not closed (``GET /api/rooms``), those in the lobby first."""
        rooms = [r for r in self.rooms.values() if r.settings.public and r.status != CLOSED]
        rooms.sort(key=lambda r: (r.status != LOBBY, r.code))
        return [r.summary() for r in rooms]

    async def create(self, body: CreateRoom, creator: str | None = None) -> tuple[Room, str]:
        """Make a room from a checked ``POST /api/rooms`` body and seat its creator at seat 0,
        as its host; returns the room and the creator's token. The room waits in the lobby
        until its host starts it. ``creator`` is the maker's address key: past
        :attr:`ServerOptions.rooms_per_address` open rooms of theirs, ``rate_limited``."""
        name = check_name(body.name)
        settings = parse_settings(body, self.options.dev)
        open_rooms = sum(1 for r in self.rooms.values() if r.status != CLOSED)
        if open_rooms >= self.options.max_rooms:
            raise ProtocolError("rate_limited", "the server holds as many rooms as it may: try later", 503)
        most = self.options.rooms_per_address
        if creator is not None and most > 0 and self.store.open_rooms_of(creator) >= most:
            raise ProtocolError("rate_limited", f"this address has {most} open rooms, the most it may: "
                                                "play in one of them, or wait until one closes", 429)
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
        self.store.create_room(data, note=self.note({"c": code, "k": "new"}), creator=creator)
        self.rooms[code] = room
        self.unjoined[code] = time.monotonic()
        if self.cluster is not None:
            self.cluster.sweep_soon()  # this process takes the room's driving at once
        log.info("room %s created (%s, %d seats)", code, settings.edition, settings.players)
        return room, token


# ---------------------------------------------------------------------- messages


async def handle(rooms: Rooms, client: Client, message: ClientMessage) -> bool:
    """Do what a client's checked message asks; raises :class:`~.protocol.ProtocolError` to
    refuse it. Returns whether it was an ``act`` the room applied."""
    room = client.room
    if isinstance(message, Hello):
        if room is not None:
            raise ProtocolError("malformed", "hello is the first message of a connection, once")
        await rooms.get(client.code).hello(client, message.token)
        return False
    if room is None:
        raise ProtocolError("unauthorized", "send hello first")
    if isinstance(message, Act):
        return await room.act(client, message.action, message.version)
    if isinstance(message, Chat):
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
    elif isinstance(message, Back):
        await room.back(client)
    else:  # pragma: no cover - parse() knows no other type
        raise ProtocolError("malformed", f"unknown message {message!r}")
    return False


__all__ = ["Client", "Room", "Rooms", "Seat", "ServerOptions", "Settings", "handle", "parse_settings",
           "resume", "room_bot"]
