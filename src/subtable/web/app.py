"""The ASGI application: its lifetime (database, bot pool, chores) and its parts: the
routers of ``routes/``, the error handlers, the middleware and the static files."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from subtable import __version__
from subtable.web import hint
from subtable.web.botpool import BotPool
from subtable.web.db import (
    CHANNEL,
    Store,
    asyncpg_dsn,
    is_postgres,
    make_engine,
    migrate,
    normalize_url,
)
from subtable.web.guard import BodyLimit, Guard
from subtable.web.limits import ascii_int
from subtable.web.live import Manager
from subtable.web.routes import errors, learn, pages, socket, tables, turning
from subtable.web.settings import Settings
from subtable.web.tasks import cancel_and_wait
from subtable.web.turning import Turnings

__all__ = ["Settings", "create_app"]

log = logging.getLogger("subtable.web")


def _lifespan(cfg: Settings) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """Open the database, the bot pool and the tables; run the chores; close it all."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncGenerator[None, None]:
        url = normalize_url(cfg.db)
        engine = make_engine(url)
        await migrate(engine)
        store = Store(engine, url)
        pool = BotPool(cfg.bot_workers, max_budget=cfg.limits.max_budget)
        manager = Manager(store, pool, cfg.limits, cfg.clock)
        manager.moved.append(hint.drop_stale)  # a question whose decision passed is dropped
        app.state.manager = manager
        app.state.turnings = Turnings(store, processes=cfg.bot_workers > 0)
        app.state.db_kind = "postgresql" if is_postgres(url) else "sqlite"
        listener = await _listen(manager, url) if is_postgres(url) else None
        if cfg.restore:
            restored = await manager.restore_all()
            log.info("restored %d unfinished tables", restored)
        chores = _chores(cfg, store, manager)
        try:
            yield
        finally:
            # stopped and waited for: a chore cancelled amid a query and left to the event
            # loop's last sweep would be cancelled twice, and the SQLite driver then never
            # finishes closing its connection (the loop could not close)
            await cancel_and_wait(chores)
            await hint.close(manager)
            await app.state.turnings.close()
            await manager.close()
            if listener is not None:
                with contextlib.suppress(Exception):
                    await listener.close()
            store.close()
            await engine.dispose()

    return lifespan


def _chores(cfg: Settings, store: Store, manager: Manager) -> list[asyncio.Task[None]]:
    loop = asyncio.get_running_loop()
    chores = [
        loop.create_task(_every(2.0, store.checkpoint, "checkpoint")),
        loop.create_task(_every(cfg.limits.sweep_every, manager.sweep, "sweep")),
        loop.create_task(_every(cfg.limits.deadline_every, manager.check_deadlines, "deadlines")),
    ]
    if cfg.gc_freeze > 0:
        chores.append(loop.create_task(_freeze_every(cfg.gc_freeze)))
    return chores


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server as an ASGI app."""
    cfg = settings or Settings()
    app = FastAPI(
        title="subtable",
        version=__version__,
        lifespan=_lifespan(cfg),
        docs_url=None,
        redoc_url=None,
        # ``curl -d`` sends JSON as a form: the API reads its bodies as JSON whatever the
        # declared type (the same-site check, not the content type, keeps other sites out)
        strict_content_type=False,
    )
    app.state.settings = cfg
    app.state.guard = Guard(cfg.limits, cfg.allowed_origins)
    app.state.seats_asked = tables.seats_buckets()
    app.add_middleware(BodyLimit, limit=cfg.limits.max_body, depth=cfg.limits.max_json_depth)
    if cfg.forwarded_allow_ips:  # outermost: every part sees the client the proxy names
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(cfg.forwarded_allow_ips))
    errors.install(app)
    for router in (tables.router, pages.router, learn.router, socket.router, turning.router):
        app.include_router(router)
    static = resources.files("subtable.web").joinpath("static")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(str(static.joinpath("favicon.svg")), media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.openapi = lambda: errors.openapi_of(app)  # type: ignore[method-assign]
    return app


async def _every(seconds: float, chore: Callable[[], Awaitable[object]], name: str) -> None:
    while True:
        await asyncio.sleep(seconds)
        try:
            await chore()
        except Exception:  # a busy database: the next round does it
            log.warning("%s failed", name, exc_info=True)


async def _freeze_every(seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        gc.freeze()


async def _listen(manager: Manager, url: str) -> Any:
    """LISTEN for entries other server processes commit (PostgreSQL)."""
    import importlib

    asyncpg: Any = importlib.import_module("asyncpg")  # the ``pg`` extra (no type stubs)
    conn: Any = await asyncpg.connect(asyncpg_dsn(url))
    loop = asyncio.get_running_loop()

    tasks: set[asyncio.Task[None]] = set()

    def notified(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
        table_id, _, seq = payload.rpartition(":")
        table = manager.tables.get(table_id)
        n = ascii_int(seq)
        # a table moved on, or one waiting for its people begun there
        if table is not None and n is not None and (table.seq < n or table.waiting):
            task = loop.create_task(manager.catch_up(table_id))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    await conn.add_listener(CHANNEL, notified)
    return conn
