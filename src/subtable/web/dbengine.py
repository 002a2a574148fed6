"""The database's connection: URL handling, the engine, SQLite's settings and its entries'
writer, and the migrations run at start-up.

SQLite (the default, a file in the user's data directory) or PostgreSQL
(``postgresql://…``, through asyncpg: ``pip install 'subtable[pg]'``).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, insert, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from subtable.web.rows import EntryInsert
from subtable.web.schema import entries

#: PostgreSQL NOTIFY channel telling other server processes a table moved
CHANNEL = "subtable_entries"
_MIGRATE_LOCK = 0x5B7AB1E
#: one statement object for every batch of entries (compiled once, then cached)
INSERT_ENTRIES = insert(entries)


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

    async def insert(self, rows: list[EntryInsert]) -> None:
        """Commit ``rows`` into ``entries`` in one transaction."""
        await asyncio.get_running_loop().run_in_executor(self._thread, self._insert, rows)

    def _insert(self, rows: list[EntryInsert]) -> None:
        if self._conn is None:
            self._conn = self.engine.connect()
        with self._conn.begin():
            self._conn.execute(INSERT_ENTRIES, rows)

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
