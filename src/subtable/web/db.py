"""The queries the server runs (:class:`Store`); the connection is :mod:`~subtable.web.dbengine`'s,
the rows :mod:`~subtable.web.rows`'.

Every write is one transaction; an entry is committed before anybody is told of it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager

from sqlalchemy import func, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from subtable.web.dbengine import (
    CHANNEL,
    INSERT_ENTRIES,
    SQLiteEntries,
    asyncpg_dsn,
    default_db_path,
    is_postgres,
    make_engine,
    migrate,
    normalize_url,
)
from subtable.web.rows import (
    AskedRow,
    ChatRow,
    EntryRow,
    KeptChart,
    TableRow,
    entry_rows,
    table_row,
)
from subtable.web.schema import advice_asked, chat, entries, player_names, seat_tokens, tables
from subtable.web.wire import OutcomeJson

__all__ = [
    "CHANNEL",
    "AskedRow",
    "ChatRow",
    "EntryRow",
    "Store",
    "TableRow",
    "asyncpg_dsn",
    "default_db_path",
    "is_postgres",
    "make_engine",
    "migrate",
    "normalize_url",
]


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
                    started=row.started,
                    host=row.host,
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
        rows = entry_rows(batch)
        async with self._write:
            await self._sqlite.insert(rows)

    async def _insert(
        self, conn: AsyncConnection, batch: list[tuple[str, EntryRow, asyncio.Future[None]]]
    ) -> None:
        await conn.execute(INSERT_ENTRIES, entry_rows(batch))
        if self.postgres:
            for t, e, _ in batch:
                await conn.execute(
                    text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": f"{t}:{e.seq}"}
                )

    async def _write_loop(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self._write_batch(batch)
            except asyncio.CancelledError:
                # the server stops: nobody is left waiting for a commit that will not come
                for _, _, fut in (*batch, *self._pending):
                    fut.cancel()
                self._pending = []
                raise

    async def _write_batch(self, batch: list[tuple[str, EntryRow, asyncio.Future[None]]]) -> None:
        """Commit ``batch`` and tell each entry's waiter how it went."""
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
            return
        except Exception as exc:
            for _, _, fut in batch:
                if not fut.done():
                    fut.set_exception(exc)
            return
        for _, _, fut in batch:
            if not fut.done():
                fut.set_result(None)

    async def mark_finished(self, table_id: str, outcome: OutcomeJson | None) -> None:
        """Flag a table whose game is over (start-up repairs a flag lost to a crash)."""
        async with self._writing() as conn:
            await conn.execute(
                update(tables).where(tables.c.id == table_id).values(finished=True, outcome=outcome)
            )

    async def start(self, table_id: str, controllers: list[str], seq: int) -> None:
        """A waiting table's game begins, with these controllers (bots in the seats nobody
        claimed, when its host started it); on PostgreSQL the other server processes are
        told (at its ``seq``)."""
        async with self._writing() as conn:
            await conn.execute(
                update(tables)
                .where(tables.c.id == table_id)
                .values(started=True, controllers=controllers)
            )
            if self.postgres:
                await conn.execute(
                    text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": f"{table_id}:{seq}"}
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

    async def set_turning(self, table_id: str, data: KeptChart) -> None:
        """Keep where a finished game turned (computed once)."""
        async with self._writing() as conn:
            await conn.execute(update(tables).where(tables.c.id == table_id).values(turning=data))

    async def turning(self, table_id: str) -> KeptChart | None:
        """Where a finished game turned, if it was computed."""
        async with self.engine.connect() as conn:
            value: KeptChart | None = (
                await conn.execute(select(tables.c.turning).where(tables.c.id == table_id))
            ).scalar_one_or_none()
        return value

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
            row = table_row(r)
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
        table = table_row(row)
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
