"""The rooms' database: SQLAlchemy 2 (typed ORM), its schema made by the Alembic migrations
shipped in ``unokit/server/migrations`` and run at every start (:func:`upgrade`).

Per room: its settings, its seats (a person's seat keeps the SHA-256 hash of its token, never
the token), its chat, and the **record** of its game (``docs/records.md``): the head (format,
edition, players, options, seed), one row per round's deal and one per action. The record is
the source of truth; the room keeps beside it the version, written in the same transaction as
each action, and a position (``Game.to_dict()``) of the record for a fast resume, which the
server writes with some actions only (``rooms.POSITION_EVERY``).

The engine is synchronous and this store is too: each change is one short transaction,
called from the event loop under the room's lock (well under a millisecond on SQLite in WAL
mode), so commits happen in the order of the changes and a message about a change is sent
only once the change is stored. See ``docs/protocol.md``, *Persistence*.

Several server processes may share one PostgreSQL database (``docs/deploy.md``). Every change
of a room that others must not overwrite checks and counts up the room's revision (``rev``) in
its transaction, under the row's lock: a process whose copy of the room is behind gets
:class:`RoomConflict` and changes nothing. The transaction also notifies the other processes
(PostgreSQL ``NOTIFY`` on :data:`CHANNEL`, sent when it commits, in commit order) with the
change's ``note``.

>>> store = Store("sqlite://")
>>> store.create_room(RoomData("ABC234", "lobby", {"edition": "classic"}, 0,
...                            [SeatData(0, "human", "Ana", None, "0" * 64)]))
>>> [r.code for r in store.load_rooms()]
['ABC234']
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, cast

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import StaticPool

STORE_FORMAT: Final = 1
"""The format of a stored room (its settings, seats and record layout). A room stored in
another format is closed at start, with ``closed_reason: "format"``."""

MIGRATIONS: Final = Path(__file__).parent / "migrations"
CHANNEL: Final = "unokit_rooms"
"""The PostgreSQL channel on which a change of a room is announced to the other processes."""
CHAT_KEPT: Final = 200
"""The chat lines kept per room: an older line is deleted when a new one is stored."""
MIGRATION_LOCK: Final = 0x756E6F6B6974  # "unokit": the advisory lock that serialises migrations


class RoomConflict(Exception):
    """Another process changed the room since this one last read it: nothing was written."""


class Base(DeclarativeBase):
    """The tables (their schema is the migrations'; these mappings must match them)."""


class RoomRow(Base):
    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(16))
    store_format: Mapped[int] = mapped_column(Integer)
    settings: Mapped[str] = mapped_column(Text)
    host: Mapped[int | None] = mapped_column(Integer, nullable=True)
    closed_reason: Mapped[str | None] = mapped_column(String(32), nullable=True)
    game_no: Mapped[int] = mapped_column(Integer, default=0)
    record_head: Mapped[str | None] = mapped_column(Text, nullable=True)
    position: Mapped[str | None] = mapped_column(Text, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    version_base: Mapped[int] = mapped_column(Integer, default=0)
    declined: Mapped[str] = mapped_column(Text, default="[]")
    rev: Mapped[int] = mapped_column(Integer, default=0)
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The address key of the room's maker (``limits.address_key``), or ``None``."""


class SeatRow(Base):
    __tablename__ = "seats"

    room_code: Mapped[str] = mapped_column(String(32), ForeignKey("rooms.code", ondelete="CASCADE"),
                                           primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    ready: Mapped[bool] = mapped_column(Boolean, default=False)
    away: Mapped[bool] = mapped_column(Boolean, default=False)


class PresenceRow(Base):
    __tablename__ = "presence"

    server: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_code: Mapped[str] = mapped_column(String(32), ForeignKey("rooms.code", ondelete="CASCADE"),
                                           primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    connections: Mapped[int] = mapped_column(Integer)


class RoundRow(Base):
    __tablename__ = "rounds"

    room_code: Mapped[str] = mapped_column(String(32), ForeignKey("rooms.code", ondelete="CASCADE"),
                                           primary_key=True)
    game_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal: Mapped[str] = mapped_column(Text)


class ActionRow(Base):
    __tablename__ = "actions"

    room_code: Mapped[str] = mapped_column(String(32), ForeignKey("rooms.code", ondelete="CASCADE"),
                                           primary_key=True)
    game_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    line: Mapped[str] = mapped_column(String(32))


class ChatRow(Base):
    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(String(32), ForeignKey("rooms.code", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    time: Mapped[float] = mapped_column(Float)


ROOMS: Final = cast(Table, RoomRow.__table__)
SEATS: Final = cast(Table, SeatRow.__table__)
ACTIONS: Final = cast(Table, ActionRow.__table__)


# ---------------------------------------------------------------------- plain data


@dataclass
class SeatData:
    """A seat as stored: ``kind`` is ``human``, ``open`` or ``bot``; ``ready`` for the next
    round; ``away``: a person that a bot plays for (they let their turn's time pass)."""

    seat: int
    kind: str
    name: str | None
    bot: str | None
    token_hash: str | None
    ready: bool = False
    away: bool = False


@dataclass
class ChatData:
    """One chat line as stored and sent."""

    id: int
    seat: int
    name: str
    text: str
    time: float

    def to_message(self) -> dict[str, Any]:
        """The ``chat`` message of ``docs/protocol.md``."""
        return {"type": "chat", "id": self.id, "seat": self.seat, "name": self.name, "text": self.text,
                "time": round(self.time, 3)}


@dataclass
class RoomData:
    """A room as stored (what :meth:`Store.load_rooms` reads back)."""

    code: str
    status: str
    settings: dict[str, Any]
    host: int | None
    seats: list[SeatData]
    closed_reason: str | None = None
    store_format: int = STORE_FORMAT
    game_no: int = 0
    record: dict[str, Any] | None = None
    """The record of the current game (``docs/records.md``), or ``None`` before it starts."""
    position: dict[str, Any] | None = None
    version: int = 0
    """The version of the current game (``Game.version``)."""
    version_base: int = 0
    """The versions of the room's earlier matches (the protocol counts on through a rematch)."""
    declined: list[int] = field(default_factory=list)
    chat: list[ChatData] = field(default_factory=list)
    unreadable: str | None = None
    """Why the stored room could not be read (its JSON), or ``None``."""
    rev: int = 0
    """The room's revision: how many changes it has had (see :class:`RoomConflict`)."""
    present: frozenset[int] = frozenset()
    """The seats with a connection to another server process (read when asked for)."""


def database_url(path: str | Path) -> str:
    """The SQLAlchemy URL of an SQLite file."""
    return f"sqlite:///{Path(path)}"


def default_database() -> str:
    """The default database: ``unokit.db`` in ``platformdirs.user_data_dir("unokit")``."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("unokit"))
    folder.mkdir(parents=True, exist_ok=True)
    return database_url(folder / "unokit.db")


def engine_url(url: str) -> str:
    """``url`` with a driver SQLAlchemy can use: ``postgresql://`` (and ``postgres://``) is
    PostgreSQL through psycopg 3."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def is_postgresql(url: str) -> bool:
    """Whether ``url`` is a PostgreSQL database (where several processes may serve)."""
    try:
        return make_url(engine_url(url)).get_backend_name() == "postgresql"
    except Exception:
        return False


def libpq_url(url: str) -> str:
    """A PostgreSQL URL as libpq (psycopg) reads it: no SQLAlchemy driver name."""
    return make_url(engine_url(url)).set(drivername="postgresql").render_as_string(hide_password=False)


def make_engine(url: str) -> Engine:
    """An engine for ``url``, an SQLite or a PostgreSQL database (``ValueError`` for another);
    SQLite gets WAL, ``synchronous=NORMAL`` (a commit survives the
    process being killed; only a power cut may lose the last ones), foreign keys and a busy
    timeout. An in-memory SQLite database (``sqlite://``) is one shared connection."""
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(url, connect_args={"check_same_thread": False},
                               poolclass=StaticPool if memory else None)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            if not memory:
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

        return engine
    if not is_postgresql(url):
        raise ValueError(f"rooms are kept in SQLite (sqlite:///rooms.db) or PostgreSQL "
                         f"(postgresql://user@host/db), not in {url.split(':', 1)[0]!r}")
    # No ping before each use (a round trip per change): a connection that a network cut or
    # a database restart broke fails once, and that failure makes the pool replace every
    # connection opened before it.
    return create_engine(engine_url(url), connect_args={"connect_timeout": 3}, pool_size=10)


def upgrade(engine: Engine) -> None:
    """Bring the database's schema to the newest revision (Alembic's ``upgrade head``)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # processes starting together migrate in turn
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Store:
    """The rooms' database. Every method is one transaction."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.postgresql = self.engine.dialect.name == "postgresql"
        self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        upgrade(self.engine)

    def close(self) -> None:
        """Release the database's connections."""
        self.engine.dispose()

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    def _notify(self, s: Session, note: str | None) -> None:
        """Announce a change to the other processes when ``s`` commits (PostgreSQL only)."""
        if note is not None and self.postgresql:
            s.execute(text("SELECT pg_notify(:channel, :note)"), {"channel": CHANNEL, "note": note})

    # ------------------------------------------------------------------ rooms

    def create_room(self, room: RoomData, note: str | None = None, creator: str | None = None) -> None:
        """Store a new room and its seats (its ``rev`` is 0), made by the address ``creator``."""
        now = time.time()
        with self._session() as s:
            s.add(RoomRow(code=room.code, created_at=now, updated_at=now, status=room.status,
                          store_format=STORE_FORMAT, settings=json.dumps(room.settings), host=room.host,
                          closed_reason=None, game_no=room.game_no, record_head=None, position=None,
                          version=0, version_base=0, declined="[]", creator=creator))
            s.flush()
            for seat in room.seats:
                s.add(_seat_row(room.code, seat))
            self._notify(s, note)

    def open_rooms_of(self, creator: str) -> int:
        """How many rooms the address ``creator`` made that are not closed (every process's)."""
        with self._session() as s:
            query = select(func.count()).select_from(RoomRow).where(
                RoomRow.creator == creator, RoomRow.status != "closed")
            return int(s.execute(query).scalar_one())

    def exists(self, code: str) -> bool:
        """Whether a room ``code`` was ever stored (closed or not)."""
        with self._session() as s:
            return s.get(RoomRow, code) is not None

    def update_room(self, code: str, *, status: str | None = None, host: int | None = None,
                    closed_reason: str | None = None, seats: Sequence[SeatData] = (),
                    set_host: bool = False, rev: int | None = None, note: str | None = None) -> int:
        """Change a room's status, host (with ``set_host``, which allows ``None``), closing
        reason, and seats. Returns the room's new revision (see :meth:`append_action`)."""
        with self._session() as s:
            row = _claim_room(s, code, rev)
            self._notify(s, note)
            row.updated_at = time.time()
            if status is not None:
                row.status = status
            if set_host or host is not None:
                row.host = host
            if closed_reason is not None:
                row.closed_reason = closed_reason
            for seat in seats:
                s.merge(_seat_row(code, seat))
            return row.rev

    def start_game(self, code: str, *, game_no: int, record: dict[str, Any], position: dict[str, Any],
                   version: int, version_base: int, status: str, seats: Sequence[SeatData],
                   rev: int | None = None, note: str | None = None) -> int:
        """Store a new game of the room: its record's head and first deal (``record`` has one
        round and no action), its position, the versions of the room's earlier games
        (``version_base``), and the seats as they start it. Returns the room's new revision."""
        head = {k: v for k, v in record.items() if k != "rounds"}
        with self._session() as s:
            row = _claim_room(s, code, rev)
            self._notify(s, note)
            s.execute(delete(RoundRow).where(RoundRow.room_code == code, RoundRow.game_no == game_no))
            s.execute(delete(ActionRow).where(ActionRow.room_code == code, ActionRow.game_no == game_no))
            row.game_no = game_no
            row.version_base = version_base
            row.record_head = json.dumps(head)
            row.status = status
            row.updated_at = time.time()
            _set_position(row, position, version)
            for r, entry in enumerate(record["rounds"]):
                s.add(RoundRow(room_code=code, game_no=game_no, round_index=r, deal=json.dumps(_deal(entry))))
                for i, line in enumerate(entry.get("actions", [])):
                    s.add(ActionRow(room_code=code, game_no=game_no, round_index=r, idx=i, line=line))
            for seat in seats:
                s.merge(_seat_row(code, seat))
            return row.rev

    def append_action(self, code: str, *, game_no: int, round_index: int, idx: int, line: str,
                      position: dict[str, Any] | None, version: int, status: str, rev: int | None = None,
                      unready: bool = False, note: str | None = None) -> int:
        """Append one action to the record, with the version after it and the position after it
        (``None``: the stored position stays, an earlier one of the record; and with
        ``unready``, no seat ready any more). With ``rev``, the room must be at that revision
        (else :class:`RoomConflict`, and nothing is written); returns its new revision."""
        position_text = None if position is None else json.dumps(position, separators=(",", ":"))
        if self.postgresql:  # one statement, one round trip: its own transaction
            with self._autocommit.connect() as c:
                params = {"code": code, "rev": rev, "position": position_text, "version": version,
                          "status": status, "now": time.time(), "game_no": game_no,
                          "round_index": round_index, "idx": idx, "line": line, "unready": unready,
                          "channel": CHANNEL, "note": note}
                row = c.exec_driver_sql(_APPEND if rev is not None else _APPEND_ANY, params).first()
            if row is None:
                raise _unchanged(code, rev, self.exists(code))
            return int(row[0])
        return self._append_sqlite(code, rev, version, status, position_text, game_no, round_index, idx, line,
                                   unready)

    def _append_sqlite(self, code: str, rev: int | None, version: int, status: str, position: str | None,
                       game_no: int, round_index: int, idx: int, line: str, unready: bool) -> int:
        """:meth:`append_action` on SQLite, the hot path of one process, in the driver's own SQL
        (building SQLAlchemy statements for every action cost more than the commit itself)."""
        sets = "rev = rev + 1, version = ?, declined = '[]', status = ?, updated_at = ?"
        values: list[Any] = [version, status, time.time()]
        if position is not None:
            sets += ", position = ?"
            values.append(position)
        check = "" if rev is None else " AND rev = ?"
        with self.engine.begin() as c:
            row = c.exec_driver_sql(f"UPDATE rooms SET {sets} WHERE code = ?{check} RETURNING rev",
                                    tuple([*values, code, *([] if rev is None else [rev])])).first()
            if row is None:
                raise _unchanged(code, rev, c.exec_driver_sql("SELECT 1 FROM rooms WHERE code = ?",
                                                              (code,)).first() is not None)
            c.exec_driver_sql("INSERT INTO actions (room_code, game_no, round_index, idx, line) "
                              "VALUES (?, ?, ?, ?, ?)", (code, game_no, round_index, idx, line))
            if unready:
                c.exec_driver_sql("UPDATE seats SET ready = 0 WHERE room_code = ?", (code,))
            return int(row[0])

    def add_round(self, code: str, *, game_no: int, round_index: int, deal: dict[str, Any],
                  position: dict[str, Any], version: int, status: str, rev: int | None = None,
                  note: str | None = None) -> int:
        """Append a round's deal to the record (``deal``: the round's record entry, without
        its actions), with the position and version after it; no seat is ready any more.
        Returns the room's new revision (see :meth:`append_action`)."""
        with self._session() as s:
            new_rev = self._next_revision(s, code, rev, position=json.dumps(position, separators=(",", ":")),
                                          version=version, status=status)
            s.add(RoundRow(room_code=code, game_no=game_no, round_index=round_index,
                           deal=json.dumps(_deal(deal))))
            s.execute(update(SEATS).where(SEATS.c.room_code == code).values(ready=False))
            self._notify(s, note)
            return new_rev

    @staticmethod
    def _next_revision(s: Session, code: str, rev: int | None, *, position: str, version: int,
                       status: str) -> int:
        """Count the room's revision up (checking it is ``rev``) with its new ``position``,
        ``version`` and ``status`` (no seat declined since): one ``UPDATE`` that reads no other
        column (a Core statement: no ORM bookkeeping). Returns the new revision."""
        where = [ROOMS.c.code == code] if rev is None else [ROOMS.c.code == code, ROOMS.c.rev == rev]
        new_rev = s.execute(update(ROOMS).where(*where).values(
            rev=ROOMS.c.rev + 1, position=position, version=version, status=status, declined="[]",
            updated_at=time.time()).returning(ROOMS.c.rev)).scalar_one_or_none()
        if new_rev is None:
            raise _unchanged(code, rev, s.execute(select(ROOMS.c.code).where(ROOMS.c.code == code)).first()
                             is not None)
        return int(new_rev)

    def save_declined(self, code: str, declined: Sequence[int], version: int | None = None) -> None:
        """The seats that the table asked out of turn and that declined since the last change
        (with ``version``: only while the room's game is at that version)."""
        with self._session() as s:
            where = [RoomRow.code == code] if version is None else [RoomRow.code == code,
                                                                    RoomRow.version == version]
            s.execute(update(RoomRow).where(*where).values(declined=json.dumps(list(declined))))

    def add_chat(self, code: str, seat: int, name: str, text: str, when: float,
                 note: Callable[[ChatData], str] | None = None) -> ChatData:
        """Store a chat line, and forget the room's lines older than its last :data:`CHAT_KEPT`;
        returns it with its id (``note`` makes the notification of it)."""
        with self._session() as s:
            row = ChatRow(room_code=code, seat=seat, name=name, text=text, time=when)
            s.add(row)
            s.flush()
            data = ChatData(row.id, seat, name, text, when)
            oldest_kept = (select(ChatRow.id).where(ChatRow.room_code == code).order_by(ChatRow.id.desc())
                           .offset(CHAT_KEPT - 1).limit(1).scalar_subquery())
            s.execute(delete(ChatRow).where(ChatRow.room_code == code, ChatRow.id < oldest_kept))
            if note is not None:
                self._notify(s, note(data))
            return data

    # ------------------------------------------------------------------ several processes

    def set_presence(self, server: str, code: str, connections: Mapping[int, int],
                     note: str | None = None) -> None:
        """How many connections ``server`` has at each seat of room ``code`` (replacing what
        it said before; a seat left out has none)."""
        with self._session() as s:
            s.execute(delete(PresenceRow).where(PresenceRow.server == server, PresenceRow.room_code == code))
            for seat, n in connections.items():
                if n > 0:
                    s.add(PresenceRow(server=server, room_code=code, seat=seat, connections=n))
            self._notify(s, note)

    def revisions(self) -> dict[str, int]:
        """Every open room's revision, by code."""
        with self._session() as s:
            return {code: rev for code, rev in s.execute(
                select(RoomRow.code, RoomRow.rev).where(RoomRow.status != "closed"))}

    def present(self, code: str, server: str) -> frozenset[int]:
        """The seats of room ``code`` with a connection to a server other than ``server``."""
        with self._session() as s:
            return self._present(s, code, server)

    @staticmethod
    def _present(s: Session, code: str, server: str) -> frozenset[int]:
        return frozenset(s.scalars(select(PresenceRow.seat).where(
            PresenceRow.room_code == code, PresenceRow.server != server, PresenceRow.connections > 0)))

    def load_rooms(self, chat: int = 100, server: str | None = None) -> list[RoomData]:
        """Every room that is not closed, with its seats, its last ``chat`` lines and the record
        of its current game. A room whose stored data cannot be read says why in
        ``unreadable`` (the server closes it)."""
        with self._session() as s:
            rows = s.scalars(select(RoomRow).where(RoomRow.status != "closed").order_by(RoomRow.code)).all()
            return [self._room_data(s, row, chat, server) for row in rows]

    def load_room(self, code: str, chat: int = 100, server: str | None = None) -> RoomData | None:
        """One room as :meth:`load_rooms` reads it, or ``None``; with ``server``, the seats
        that have a connection to another server too (``present``)."""
        with self._session() as s:
            row = s.get(RoomRow, code)
            return None if row is None else self._room_data(s, row, chat, server)

    def _room_data(self, s: Session, row: RoomRow, chat: int, server: str | None) -> RoomData:
        seats = [SeatData(r.seat, r.kind, r.name, r.bot, r.token_hash, bool(r.ready), bool(r.away))
                 for r in s.scalars(
            select(SeatRow).where(SeatRow.room_code == row.code).order_by(SeatRow.seat))]
        lines = list(s.scalars(select(ChatRow).where(ChatRow.room_code == row.code)
                               .order_by(ChatRow.id.desc()).limit(chat)))
        room = RoomData(row.code, row.status, {}, row.host, seats, row.closed_reason,
                        row.store_format, row.game_no, version=row.version, version_base=row.version_base,
                        chat=[ChatData(c.id, c.seat, c.name, c.text, c.time) for c in reversed(lines)],
                        rev=row.rev)
        if server is not None:
            room.present = self._present(s, row.code, server)
        try:
            room.settings = json.loads(row.settings)
            room.declined = [int(x) for x in json.loads(row.declined)]
            room.position = json.loads(row.position) if row.position else None
            if row.record_head is not None:
                room.record = self._record(s, row)
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            room.unreadable = f"{type(exc).__name__}: {exc}"
        return room

    def _record(self, s: Session, row: RoomRow) -> dict[str, Any]:
        assert row.record_head is not None
        record: dict[str, Any] = json.loads(row.record_head)
        rounds: list[dict[str, Any]] = []
        for r in s.scalars(select(RoundRow).where(RoundRow.room_code == row.code,
                                                  RoundRow.game_no == row.game_no)
                           .order_by(RoundRow.round_index)):
            if r.round_index != len(rounds):
                raise ValueError(f"round {len(rounds)} is missing")
            rounds.append({**json.loads(r.deal), "actions": []})
        for a in s.scalars(select(ActionRow).where(ActionRow.room_code == row.code,
                                                   ActionRow.game_no == row.game_no)
                           .order_by(ActionRow.round_index, ActionRow.idx)):
            actions = rounds[a.round_index]["actions"]
            if a.idx != len(actions):
                raise ValueError(f"action {len(actions)} of round {a.round_index} is missing")
            actions.append(a.line)
        record["rounds"] = rounds
        return record

    def close_room(self, code: str, reason: str, rev: int | None = None, note: str | None = None) -> int:
        """Close a room for good (``closed_reason``); returns its new revision."""
        return self.update_room(code, status="closed", closed_reason=reason, rev=rev, note=note)

    def room_status(self, code: str) -> tuple[str, str | None] | None:
        """A stored room's status and closing reason, or ``None`` if there is no such room."""
        with self._session() as s:
            row = s.get(RoomRow, code)
            return None if row is None else (row.status, row.closed_reason)


_APPEND_SQL = """
WITH r AS (
    UPDATE rooms SET rev = rev + 1, position = COALESCE(%(position)s::text, position),
                     version = %(version)s, declined = '[]', status = %(status)s, updated_at = %(now)s
    WHERE code = %(code)s {check} RETURNING rev),
a AS (
    INSERT INTO actions (room_code, game_no, round_index, idx, line)
    SELECT %(code)s, %(game_no)s, %(round_index)s, %(idx)s, %(line)s FROM r RETURNING 1),
u AS (
    UPDATE seats SET ready = false
    WHERE room_code = %(code)s AND %(unready)s::boolean AND EXISTS (SELECT 1 FROM r) RETURNING 1),
n AS (SELECT pg_notify(%(channel)s, %(note)s::text) FROM r WHERE %(note)s::text IS NOT NULL)
SELECT r.rev, (SELECT count(*) FROM a), (SELECT count(*) FROM u), (SELECT count(*) FROM n) FROM r
"""
_APPEND: Final = _APPEND_SQL.format(check="AND rev = %(rev)s")
_APPEND_ANY: Final = _APPEND_SQL.format(check="")
"""Append an action on PostgreSQL in one statement (:meth:`Store.append_action`), in psycopg's
own SQL: the room's revision checked and counted up, the position, the action, the seats no
longer ready, the notification; nothing at all if the room is not at that revision."""


def _unchanged(code: str, rev: int | None, exists: bool) -> Exception:
    """Why a change checked against revision ``rev`` wrote nothing: another revision
    (:class:`RoomConflict`), or no such room (``KeyError``)."""
    if exists and rev is not None:
        return RoomConflict(f"room {code} is not at revision {rev}")
    return KeyError(f"no room {code}")


def _claim_room(s: Session, code: str, rev: int | None = None) -> RoomRow:
    """The room's row, to change: locked until the transaction ends, and its revision counted
    up (it must be ``rev``, unless that is ``None``; else :class:`RoomConflict`, nothing
    written). Not a getter: the transaction that calls it makes a new revision."""
    row = s.get(RoomRow, code, with_for_update=True)
    if row is None:
        raise KeyError(f"no room {code}")
    if rev is not None and row.rev != rev:
        raise RoomConflict(f"room {code} is at revision {row.rev}, not {rev}")
    row.rev += 1
    return row


def _seat_row(code: str, seat: SeatData) -> SeatRow:
    return SeatRow(room_code=code, seat=seat.seat, kind=seat.kind, name=seat.name, bot=seat.bot,
                   token_hash=seat.token_hash, ready=seat.ready, away=seat.away)


def _set_position(row: RoomRow, position: dict[str, Any], version: int) -> None:
    row.position = json.dumps(position, separators=(",", ":"))
    row.version = version
    row.declined = "[]"


def _deal(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k != "actions"}


__all__ = ["CHANNEL", "CHAT_KEPT", "STORE_FORMAT", "ChatData", "RoomConflict", "RoomData", "SeatData",
           "Store", "database_url", "default_database", "engine_url", "is_postgresql", "libpq_url",
           "make_engine", "upgrade"]
