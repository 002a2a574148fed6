"""The store's one write path: entries are committed through SQLAlchemy with foreign keys
enforced, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio
import secrets
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from subtable.web.db import EntryRow, Store, TableRow, make_engine, migrate, normalize_url


async def _scenario(url: str) -> None:
    engine = make_engine(url)
    try:
        await migrate(engine)
        store = Store(engine, url)
        t1, missing = secrets.token_hex(8), secrets.token_hex(8)
        row = TableRow(t1, "submarine", {}, 7, ["human", "human"], "en", "h" * 64, False)
        await store.create_table(row, {})
        await store.append(t1, EntryRow(1, "action", 0, "move N"))
        # a table that does not exist takes no entry
        with pytest.raises(IntegrityError):
            await store.append(missing, EntryRow(1, "action", 0, "move N"))
        # entries waiting together: the refused one fails alone, the others are committed
        results = await asyncio.gather(
            store.append(t1, EntryRow(2, "action", 1, "move S")),
            store.append(missing, EntryRow(2, "action", 1, "move S")),
            store.append(t1, EntryRow(3, "undo", 0, "undo")),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], IntegrityError)
        # a taken sequence number is refused too
        with pytest.raises(IntegrityError):
            await store.append(t1, EntryRow(3, "action", 0, "move E"))
        kept = await store.entries_from(t1, 1)
        assert [(e.seq, e.kind, e.action) for e in kept] == [
            (1, "action", "move N"),
            (2, "action", "move S"),
            (3, "undo", "undo"),
        ]
        assert await store.entries_from(missing, 1) == []
        await store.checkpoint()
        store.close()
    finally:
        await engine.dispose()


def _run_apart(url: str) -> None:
    """The scenario on a thread of its own: a browser test earlier in the same worker leaves
    Playwright's event loop running on the main thread."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _scenario(url)).result()


def test_entries_sqlite(tmp_path: Path) -> None:
    _run_apart(normalize_url(str(tmp_path / "t.sqlite3")))


@pytest.mark.server
def test_entries_postgres(pg_url: str) -> None:
    _run_apart(normalize_url(pg_url))


async def _stopped_writer(url: str) -> None:
    engine = make_engine(url)
    try:
        await migrate(engine)
        store = Store(engine, url)
        stuck = asyncio.Event()

        async def never(_batch: object) -> None:  # a commit that does not come back
            stuck.set()
            await asyncio.Event().wait()

        store._commit = never  # type: ignore[method-assign]
        first = asyncio.create_task(store.append("t", EntryRow(1, "action", 0, "move N")))
        await stuck.wait()
        second = asyncio.create_task(store.append("t", EntryRow(2, "action", 0, "move S")))
        await asyncio.sleep(0)
        assert store._writer is not None
        store._writer.cancel()  # the server stops
        done, pending = await asyncio.wait([first, second], timeout=5)
        assert pending == set()
        assert all(t.cancelled() for t in done)
        store.close()
    finally:
        await engine.dispose()


def test_a_stopped_writer_leaves_nobody_waiting(tmp_path: Path) -> None:
    """The entries' writer cancelled mid-commit (the server stops) cancels what waited for
    it, the batch under way and the entries queued behind it, instead of leaving them
    waiting forever (which kept an event loop from closing)."""
    url = normalize_url(str(tmp_path / "w.sqlite3"))
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _stopped_writer(url)).result()
