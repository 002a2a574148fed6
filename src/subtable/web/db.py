"""The database: URL handling, engine, migrations at start-up, and the few queries the server runs.

SQLite (the default, a file in the user's data directory) or PostgreSQL
(``postgresql://…``, through asyncpg: ``pip install 'subtable[pg]'``). Every
write is one transaction; an entry is committed before anybody is told of it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, func, insert, select, text, update
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from subtable.web.schema import advice_asked, chat, entries, player_names, seat_tokens, tables

#: PostgreSQL NOTIFY channel telling other server processes a table moved
CHANNEL = "subtable_entries"
_MIGRATE_LOCK = 0x5B7AB1E
#: one statement object for every batch of entries (compiled once, then cached)
_INSERT_ENTRIES = insert(entries)


def default_db_path() -> Path:
    """The SQLite file used without ``--db``: ``<user data dir>/subtable/tables.sqlite3``."""
    from platformdirs import user_data_path

    return user_data_path("subtable", appauthor=False) / "tables.sqlite3"


def normalize_url(url: str | None) -> str:
    """A SQLAlchemy async URL: ``postgresql://`` → asyncpg, a path or ``sqlite:`` → aiosqlite."""
    if url is None:
        path = default_db_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{path}"
    if "://" not in url:
        return f"sqlite+aiosqlite:///{Path(url).expanduser().resolve()}"
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    if backend == "sqlite":
        return parsed.set(drivername="sqlite+aiosqlite").render_as_string(hide_password=False)
    raise ValueError(
        f"unsupported database URL {parsed.drivername}:// (use sqlite:///FILE or postgresql://…)"
    )


def is_postgres(url: str) -> bool:
    """Whether the (normalised) URL is a PostgreSQL one."""
    return make_url(url).get_backend_name() == "postgresql"


def asyncpg_dsn(url: str) -> str:
    """The plain ``postgresql://`` DSN asyncpg's own ``connect`` takes."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def make_engine(url: str) -> AsyncEngine:
    """An async engine; SQLite gets WAL (durable against a killed process) and a busy timeout."""
    if make_url(url).get_backend_name() == "sqlite":
        engine = create_async_engine(url, connect_args={"timeout": 30})
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(url, pool_size=10, max_overflow=20)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """Every SQLite connection: WAL, foreign keys enforced, no checkpoint inside a commit."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA wal_autocheckpoint=0")  # Store.checkpoint() does it
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


class SQLiteEntries:
    """The entries' writer on SQLite: the same tables and connection settings as the async
    engine, on one thread of its own with one connection, so that a batch is committed in
    one hop to that thread (the async driver hops threads for every statement: a commit
    there costs several times the CPU of a move)."""

    def __init__(self, url: str) -> None:
        self.engine = create_engine(
            make_url(url).set(drivername="sqlite+pysqlite"),
            connect_args={"timeout": 30},
            pool_size=1,
        )
        event.listen(self.engine, "connect", _sqlite_pragmas)
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="subtable-entries")
        self._conn: Connection | None = None

    async def insert(self, rows: list[dict[str, Any]]) -> None:
        """Commit ``rows`` into ``entries`` in one transaction."""
        await asyncio.get_running_loop().run_in_executor(self._thread, self._insert, rows)

    def _insert(self, rows: list[dict[str, Any]]) -> None:
        if self._conn is None:
            self._conn = self.engine.connect()
        with self._conn.begin():
            self._conn.execute(_INSERT_ENTRIES, rows)

    def close(self) -> None:
        """Close the connection on its thread, then the thread and the engine."""
        self._thread.submit(self._close).result()
        self._thread.shutdown(wait=True)
        self.engine.dispose()

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _upgrade(conn: Connection) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.attributes["connection"] = conn
    if conn.dialect.name == "postgresql":
        # two servers starting at once on one database migrate one after the other
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATE_LOCK})
    command.upgrade(cfg, "head")


async def migrate(engine: AsyncEngine) -> None:
    """Bring the schema to the newest Alembic revision."""
    async with engine.begin() as conn:
        await conn.run_sync(_upgrade)


@dataclass(slots=True)
class TableRow:
    """One ``tables`` row."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    controllers: list[str]
    lang: str
    spectator_hash: str
    finished: bool
    creator: str | None = None
    #: why the table closed before its game ended (``abandoned``), else ``None``
    closed: str | None = None
    #: each person's display name, by player index
    names: dict[int, str] = field(default_factory=lambda: dict[int, str]())
    #: ``public`` (in the lobby while a person's seat is open) or ``private``
    visibility: str = "private"
    #: ``live``, or ``turn-based`` with ``turn_limit`` seconds a decision and the ``late``
    #: policy (``bot`` or ``abandon``); ``deadline``: when the person deciding runs out
    mode: str = "live"
    turn_limit: float | None = None
    late: str | None = None
    deadline: float | None = None
    created_at: float = 0.0
    #: whether players may ask the expert for advice (``None``: the default, decided when
    #: the table is built)
    advice: bool | None = None


@dataclass(frozen=True, slots=True)
class ChatRow:
    """One line said at a table: its number, the entry it followed, who, what, when."""

    n: int
    seq: int
    player: int
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class AskedRow:
    """One time a player asked the expert for advice: its number, the entry it followed,
    the seat it was for, when."""

    n: int
    seq: int
    seat: int
    at: float


@dataclass(frozen=True, slots=True)
class EntryRow:
    """One entry of a table's log."""

    seq: int
    kind: str
    seat: int | None
    action: str


class Store:
    """The queries of the server."""

    def __init__(self, engine: AsyncEngine, url: str) -> None:
        self.engine = engine
        self.postgres = is_postgres(url)
        # SQLite has one writer at a time: queue writers here instead of in its busy
        # handler, which sleeps in steps of up to 100 ms
        self._write = asyncio.Lock() if not self.postgres else None
        self._pending: list[tuple[str, EntryRow, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._sqlite = None if self.postgres else SQLiteEntries(url)

    async def checkpoint(self) -> None:
        """Copy SQLite's write-ahead log into the database, beside the writers.

        Committing connections never checkpoint (``wal_autocheckpoint=0``): a checkpoint
        inside a commit holds every move behind it while it syncs the file. A passive
        checkpoint on a connection of its own blocks nobody.
        """
        if not self.postgres:
            async with self.engine.connect() as conn:
                await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        """Stop the SQLite entries' writer."""
        if self._sqlite is not None:
            self._sqlite.close()

    @asynccontextmanager
    async def _writing(self) -> AsyncGenerator[AsyncConnection, None]:
        if self._write is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._write, self.engine.begin() as conn:
            yield conn

    async def create_table(self, row: TableRow, token_hashes: dict[int, str]) -> None:
        """Insert a new table and its players' token hashes."""
        async with self._writing() as conn:
            await conn.execute(
                insert(tables).values(
                    id=row.id,
                    game=row.game,
                    options=row.options,
                    seed=row.seed,
                    controllers=row.controllers,
                    lang=row.lang,
                    spectator_hash=row.spectator_hash,
                    created_at=row.created_at or time.time(),
                    finished=False,
                    outcome=None,
                    creator=row.creator,
                    visibility=row.visibility,
                    mode=row.mode,
                    turn_limit=row.turn_limit,
                    late=row.late,
                    deadline=row.deadline,
                    advice=row.advice,
                )
            )
            if row.names:
                await conn.execute(
                    insert(player_names),
                    [{"table_id": row.id, "player": p, "name": n} for p, n in row.names.items()],
                )
            if token_hashes:
                await conn.execute(
                    insert(seat_tokens),
                    [
                        {"table_id": row.id, "player": p, "token_hash": h}
                        for p, h in token_hashes.items()
                    ],
                )

    async def append(self, table_id: str, entry: EntryRow) -> None:
        """Commit one entry; raises :class:`IntegrityError` when its seq is taken.

        Entries of every table are committed in groups (one transaction for all that
        are waiting), so a busy server does one commit per batch, not one per move; the
        call returns once its entry is durable. On PostgreSQL the same transaction
        NOTIFYs the other server processes.
        """
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((table_id, entry, fut))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())
        await fut

    async def _commit(self, batch: list[tuple[str, EntryRow, asyncio.Future[None]]]) -> None:
        if self._sqlite is None:
            async with self._writing() as conn:
                await self._insert(conn, batch)
            return
        assert self._write is not None
        rows = _entry_rows(batch)
        async with self._write:
            await self._sqlite.insert(rows)

    async def _insert(
        self, conn: AsyncConnection, batch: list[tuple[str, EntryRow, asyncio.Future[None]]]
    ) -> None:
        await conn.execute(_INSERT_ENTRIES, _entry_rows(batch))
        if self.postgres:
            for t, e, _ in batch:
                await conn.execute(
                    text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": f"{t}:{e.seq}"}
                )

    async def _write_loop(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self._commit(batch)
            except IntegrityError:
                # one entry lost a race (another process took its seq): commit the others
                for item in batch:
                    try:
                        await self._commit([item])
                    except Exception as exc:
                        if not item[2].done():
                            item[2].set_exception(exc)
                    else:
                        if not item[2].done():
                            item[2].set_result(None)
                continue
            except Exception as exc:
                for _, _, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            for _, _, fut in batch:
                if not fut.done():
                    fut.set_result(None)

    async def mark_finished(self, table_id: str, outcome: dict[str, Any] | None) -> None:
        """Flag a table whose game is over (start-up repairs a flag lost to a crash)."""
        async with self._writing() as conn:
            await conn.execute(
                update(tables).where(tables.c.id == table_id).values(finished=True, outcome=outcome)
            )

    async def claim_seat(self, table_id: str, player: int, token_hash: str, name: str) -> bool:
        """Give ``player``'s open seat a token and a name; ``False`` when it was taken (by
        another claim, even one a moment ago in another process)."""
        try:
            async with self._writing() as conn:
                await conn.execute(
                    insert(seat_tokens).values(
                        table_id=table_id, player=player, token_hash=token_hash
                    )
                )
                await self._put_name(conn, table_id, player, name)
        except IntegrityError:
            return False
        return True

    async def set_name(self, table_id: str, player: int, name: str) -> None:
        """A person's display name at a table."""
        async with self._writing() as conn:
            await self._put_name(conn, table_id, player, name)

    async def _put_name(self, conn: AsyncConnection, table_id: str, player: int, name: str) -> None:
        done = await conn.execute(
            update(player_names)
            .where(player_names.c.table_id == table_id, player_names.c.player == player)
            .values(name=name)
        )
        if not done.rowcount:
            await conn.execute(
                insert(player_names).values(table_id=table_id, player=player, name=name)
            )

    async def names(self, table_id: str) -> dict[int, str]:
        """Each named person's display name, by player index."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(player_names.c.player, player_names.c.name).where(
                    player_names.c.table_id == table_id
                )
            )
            return {int(r.player): str(r.name) for r in rows}

    async def add_chat(self, table_id: str, line: ChatRow) -> None:
        """Keep a line said at the table (raises ``IntegrityError`` when its number is taken)."""
        async with self._writing() as conn:
            await conn.execute(
                insert(chat).values(
                    table_id=table_id,
                    n=line.n,
                    seq=line.seq,
                    player=line.player,
                    text=line.text,
                    created_at=line.at,
                )
            )

    async def chat_from(self, table_id: str, n: int) -> list[ChatRow]:
        """The lines said at the table from number ``n`` on, in order."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(chat.c.n, chat.c.seq, chat.c.player, chat.c.text, chat.c.created_at)
                .where(chat.c.table_id == table_id, chat.c.n >= n)
                .order_by(chat.c.n)
            )
            return [
                ChatRow(int(r.n), int(r.seq), int(r.player), str(r.text), float(r.created_at))
                for r in rows
            ]

    async def add_asked(self, table_id: str, asked: AskedRow) -> None:
        """Keep that advice was asked (raises ``IntegrityError`` when its number is taken)."""
        async with self._writing() as conn:
            await conn.execute(
                insert(advice_asked).values(
                    table_id=table_id,
                    n=asked.n,
                    seq=asked.seq,
                    seat=asked.seat,
                    created_at=asked.at,
                )
            )

    async def asked_from(self, table_id: str, n: int) -> list[AskedRow]:
        """The times advice was asked at the table from number ``n`` on, in order."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(
                    advice_asked.c.n,
                    advice_asked.c.seq,
                    advice_asked.c.seat,
                    advice_asked.c.created_at,
                )
                .where(advice_asked.c.table_id == table_id, advice_asked.c.n >= n)
                .order_by(advice_asked.c.n)
            )
            return [AskedRow(int(r.n), int(r.seq), int(r.seat), float(r.created_at)) for r in rows]

    async def set_turning(self, table_id: str, data: dict[str, Any]) -> None:
        """Keep where a finished game turned (computed once)."""
        async with self._writing() as conn:
            await conn.execute(update(tables).where(tables.c.id == table_id).values(turning=data))

    async def turning(self, table_id: str) -> dict[str, Any] | None:
        """Where a finished game turned, if it was computed."""
        async with self.engine.connect() as conn:
            value = (
                await conn.execute(select(tables.c.turning).where(tables.c.id == table_id))
            ).scalar_one_or_none()
        return None if value is None else dict(value)

    async def set_deadline(self, table_id: str, deadline: float | None) -> None:
        """When the person deciding at a turn-based table runs out of time (``None``: nobody)."""
        async with self._writing() as conn:
            await conn.execute(
                update(tables).where(tables.c.id == table_id).values(deadline=deadline)
            )

    async def lobby_rows(self, limit: int) -> list[tuple[TableRow, set[int]]]:
        """The newest public tables whose game goes on, each with the players who hold a
        seat token (the rest of its people's seats are open)."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(tables)
                    .where(tables.c.visibility == "public", tables.c.finished.is_(False))
                    .order_by(tables.c.created_at.desc())
                    .limit(limit)
                )
            ).all()
            ids = [r.id for r in rows]
            held: dict[str, set[int]] = {i: set() for i in ids}
            named: dict[str, dict[int, str]] = {i: {} for i in ids}
            if ids:
                for r in await conn.execute(
                    select(seat_tokens.c.table_id, seat_tokens.c.player).where(
                        seat_tokens.c.table_id.in_(ids)
                    )
                ):
                    held[r.table_id].add(int(r.player))
                for r in await conn.execute(
                    select(player_names).where(player_names.c.table_id.in_(ids))
                ):
                    named[r.table_id][int(r.player)] = str(r.name)
        out = []
        for r in rows:
            row = _table_row(r)
            row.names = named[r.id]
            out.append((row, held[r.id]))
        return out

    async def close_table(self, table_id: str, reason: str) -> None:
        """Close a table whose game did not end (it takes no more entries)."""
        async with self._writing() as conn:
            await conn.execute(
                update(tables)
                .where(tables.c.id == table_id, tables.c.finished.is_(False))
                .values(finished=True, closed=reason)
            )

    async def count_unfinished(self, creator: str | None = None) -> int:
        """Unfinished tables in all (or opened by ``creator``)."""
        query = select(func.count()).select_from(tables).where(tables.c.finished.is_(False))
        if creator is not None:
            query = query.where(tables.c.creator == creator)
        async with self.engine.connect() as conn:
            return int((await conn.execute(query)).scalar_one())

    async def last_activity(self, table_id: str) -> float:
        """When the table last moved (wall clock): its last entry, else its creation."""
        async with self.engine.connect() as conn:
            value = (
                await conn.execute(
                    select(func.max(entries.c.created_at)).where(entries.c.table_id == table_id)
                )
            ).scalar_one()
            if value is None:
                value = (
                    await conn.execute(select(tables.c.created_at).where(tables.c.id == table_id))
                ).scalar_one_or_none()
        return 0.0 if value is None else float(value)

    async def load_table(self, table_id: str) -> TableRow | None:
        """The ``tables`` row of ``table_id``, if any."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables).where(tables.c.id == table_id))).first()
        if row is None:
            return None
        table = _table_row(row)
        table.names = await self.names(table_id)
        return table

    async def unfinished_ids(self) -> list[str]:
        """The ids of every table whose game goes on."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(tables.c.id).where(tables.c.finished.is_(False)))
            return [r.id for r in rows]

    async def token_hashes(self, table_id: str) -> dict[str, int]:
        """Each player's token hash → player index."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(seat_tokens.c.player, seat_tokens.c.token_hash).where(
                    seat_tokens.c.table_id == table_id
                )
            )
            return {r.token_hash: int(r.player) for r in rows}

    async def entries_from(self, table_id: str, seq: int) -> list[EntryRow]:
        """The entries with sequence number ``seq`` or more, in order."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(entries.c.seq, entries.c.kind, entries.c.seat, entries.c.action)
                .where(entries.c.table_id == table_id, entries.c.seq >= seq)
                .order_by(entries.c.seq)
            )
            return [
                EntryRow(int(r.seq), r.kind, None if r.seat is None else int(r.seat), r.action)
                for r in rows
            ]


def _entry_rows(batch: list[tuple[str, EntryRow, asyncio.Future[None]]]) -> list[dict[str, Any]]:
    """The ``entries`` rows of a batch, stamped now."""
    now = time.time()
    return [
        {
            "table_id": t,
            "seq": e.seq,
            "kind": e.kind,
            "seat": e.seat,
            "action": e.action,
            "created_at": now,
        }
        for t, e, _ in batch
    ]


def _table_row(row: Any) -> TableRow:
    return TableRow(
        row.id,
        row.game,
        dict(row.options),
        int(row.seed),
        list(row.controllers),
        row.lang,
        row.spectator_hash,
        bool(row.finished),
        row.creator,
        row.closed,
        visibility=row.visibility or "private",
        mode=row.mode or "live",
        turn_limit=None if row.turn_limit is None else float(row.turn_limit),
        late=row.late,
        deadline=None if row.deadline is None else float(row.deadline),
        created_at=float(row.created_at),
        advice=None if row.advice is None else bool(row.advice),
    )
