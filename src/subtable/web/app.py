"""The ASGI application: HTTP API, WebSocket play, the browser page."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import Annotated, Any, TypeVar

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from subtable import __version__
from subtable.i18n import Translator, normalize, translator
from subtable.web import PROTOCOL_VERSION, hint
from subtable.web.botpool import BotPool
from subtable.web.create import CreateBody, CreateError, open_table
from subtable.web.db import (
    CHANNEL,
    Store,
    asyncpg_dsn,
    is_postgres,
    make_engine,
    migrate,
    normalize_url,
)
from subtable.web.guard import BodyLimit, Guard, origin_allowed, short
from subtable.web.learn import make_learn_router
from subtable.web.limits import Limits, json_too_deep, too_fast
from subtable.web.live import LiveTable, Manager, Refused, token_hash
from subtable.web.lobby import make_api_router
from subtable.web.pages import make_router
from subtable.web.protocol import (
    ActionMsg,
    AnyMessage,
    BadMessage,
    ChatMsg,
    Hello,
    HintMsg,
    NameMsg,
    PingMsg,
    UndoMsg,
    parse_message,
)
from subtable.web.render import error_text
from subtable.web.turning import Turnings, make_turning_router

log = logging.getLogger("subtable.web")


class AgainBody(BaseModel):
    """``POST /api/tables/{id}/again``: the caller's seat token (in the body, never in a URL)."""

    model_config = ConfigDict(extra="forbid")

    token: StrictStr = Field(max_length=128)


@dataclass(frozen=True, slots=True)
class Settings:
    """How a server runs."""

    db: str | None = None
    #: bot worker processes (0: a thread, for tests)
    bot_workers: int = 1
    #: what one request, one client and one table may ask (``limits.py``)
    limits: Limits = field(default_factory=Limits)
    #: the wall clock of turn-based deadlines (tests give their own)
    clock: Callable[[], float] = time.time
    #: extra origins allowed to open a WebSocket (the server's own always is)
    allowed_origins: tuple[str, ...] = ()
    #: largest client message, in characters
    max_message: int = 16_384
    #: messages per second a connection may send, and the burst above that
    rate: float = 20.0
    burst: float = 40.0
    #: outgoing messages queued for one connection before it is dropped as too slow
    max_queue: int = 1_000
    #: seconds a connection may stay without saying hello
    hello_timeout: float = 30.0
    #: rebuild every unfinished table at start-up
    restore: bool = True
    #: seconds between moves of the live objects into the collector's permanent
    #: generation (0: never); ``subtable serve`` sets it, so long-lived tables cost the
    #: garbage collector nothing
    gc_freeze: float = 0.0


@dataclass(eq=False)
class Connection:
    """One WebSocket client: its seats once it said hello, its queue, its rate limit."""

    ws: WebSocket
    settings: Settings
    tr: Translator
    player: int | None = None
    seats: tuple[int, ...] = ()
    table: LiveTable | None = None
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue[str | None]())
    tokens: float = 0.0
    html: bool = False
    stamp: float = field(default_factory=time.monotonic)
    overflow: bool = False

    def push(self, message: dict[str, Any]) -> None:
        """Queue a message (a client that falls too far behind is disconnected)."""
        if self.queue.qsize() >= self.settings.max_queue:
            self.overflow = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(json.dumps(message, separators=(",", ":")))

    def allow(self) -> bool:
        """A token bucket: whether one more message may be handled now."""
        now = time.monotonic()
        self.tokens = min(
            self.settings.burst, self.tokens + (now - self.stamp) * self.settings.rate
        )
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def error(self, code: str, message: str, **extra: Any) -> None:
        """Send an error reply (with the reason in the connection's language when known)."""
        if "why" not in extra:
            text = error_text(code, self.tr)
            if text is not None:
                extra["why"] = text
        self.push(
            {"v": PROTOCOL_VERSION, "type": "error", "code": code, "message": message, **extra}
        )


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server as an ASGI app."""
    cfg = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncGenerator[None, None]:
        url = normalize_url(cfg.db)
        engine = make_engine(url)
        await migrate(engine)
        store = Store(engine, url)
        pool = BotPool(cfg.bot_workers, max_budget=cfg.limits.max_budget)
        manager = Manager(store, pool, cfg.limits, cfg.clock)
        app.state.manager = manager
        app.state.turnings = Turnings(store, processes=cfg.bot_workers > 0)
        app.state.guard = Guard(cfg.limits, cfg.allowed_origins)
        app.state.db_kind = "postgresql" if is_postgres(url) else "sqlite"
        listener = None
        if is_postgres(url):
            listener = await _listen(manager, url)
        if cfg.restore:
            restored = await manager.restore_all()
            log.info("restored %d unfinished tables", restored)
        loop = asyncio.get_running_loop()
        chores = [
            loop.create_task(_every(2.0, store.checkpoint, "checkpoint")),
            loop.create_task(_every(cfg.limits.sweep_every, manager.sweep, "sweep")),
            loop.create_task(
                _every(cfg.limits.deadline_every, manager.check_deadlines, "deadlines")
            ),
        ]
        if cfg.gc_freeze > 0:
            chores.append(loop.create_task(_freeze_every(cfg.gc_freeze)))
        try:
            yield
        finally:
            for chore in chores:
                chore.cancel()
            await hint.close(manager)
            await app.state.turnings.close()
            await manager.close()
            if listener is not None:
                with contextlib.suppress(Exception):
                    await listener.close()
            store.close()
            await engine.dispose()

    app = FastAPI(
        title="subtable", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None
    )
    app.add_middleware(BodyLimit, limit=cfg.limits.max_body)

    def manager_of(request: Request | WebSocket) -> Manager:
        manager: Manager = request.app.state.manager
        return manager

    def fail(status: int, code: str, message: str) -> JSONResponse:
        return JSONResponse(
            {"error": {"code": code, "message": short(message)}}, status_code=status
        )

    @app.get("/healthz")
    async def healthz(request: Request) -> dict[str, Any]:
        return {
            "ok": True,
            "version": __version__,
            "protocol": PROTOCOL_VERSION,
            "db": request.app.state.db_kind,
            "tables": len(manager_of(request).tables),
        }

    @app.post("/api/tables", response_model=None)
    async def create_table(request: Request) -> JSONResponse:
        guard: Guard = request.app.state.guard
        if guard.cross_site(request):
            return fail(403, "cross_site", "tables are opened from this server's own pages")
        body, refused = await _validated(request, CreateBody, cfg.limits.max_json_depth)
        if body is None:
            return fail(400, *refused)
        if not guard.may_open(request):
            return fail(429, "rate_limited", too_fast(cfg.limits))
        try:
            created = await open_table(
                manager_of(request), body, str(request.base_url), guard.client(request)
            )
        except CreateError as exc:
            return fail(429 if exc.code == "too_many_tables" else 400, exc.code, exc.message)
        return JSONResponse(created, status_code=201)

    @app.get("/api/lobby", response_model=None)
    async def lobby(request: Request) -> JSONResponse:
        return JSONResponse({"tables": await manager_of(request).lobby()})

    @app.post("/api/tables/{table_id}/join", response_model=None)
    async def join_table(request: Request, table_id: str) -> JSONResponse:
        guard: Guard = request.app.state.guard
        if guard.cross_site(request):
            return fail(403, "cross_site", "seats are taken from this server's own pages")
        body, refused = await _validated(request, JoinBody, cfg.limits.max_json_depth)
        if body is None:
            return fail(400, *refused)
        if not guard.may_open(request):
            return fail(429, "rate_limited", too_fast(cfg.limits))
        manager = manager_of(request)
        table = await manager.get(table_id)
        if table is None:
            return fail(404, "no_table", f"there is no table {short(table_id, 64)!r}")
        try:
            token = await manager.claim(table, body.player, body.name)
        except Refused as exc:
            return fail(409 if exc.code == "seat_taken" else 400, exc.code, exc.message)
        base = str(request.base_url).rstrip("/")
        return JSONResponse(
            {
                "table": table.id,
                "player": body.player,
                "seats": list(table.seats_of(body.player)),
                "token": token,
                "url": f"{base}/t/{table.id}#{token}",
            },
            status_code=201,
        )

    @app.get("/api/tables/{table_id}", response_model=None)
    async def table_status(request: Request, table_id: str) -> JSONResponse:
        table = await manager_of(request).get(table_id)
        if table is None:
            return fail(404, "no_table", f"there is no table {table_id!r}")
        return JSONResponse(table.status_json())

    @app.get("/api/tables/{table_id}/record", response_model=None)
    async def table_record(request: Request, table_id: str) -> JSONResponse:
        table = await manager_of(request).get(table_id)
        if table is None:
            return fail(404, "no_table", f"there is no table {table_id!r}")
        if not table.over:
            return fail(
                409, "not_over", "the game goes on: its record (and seed) are given once it is over"
            )
        return JSONResponse(table.record().to_json())

    @app.post("/api/tables/{table_id}/again", response_model=None)
    async def play_again(request: Request, table_id: str) -> JSONResponse:
        guard: Guard = request.app.state.guard
        if guard.cross_site(request):
            return fail(403, "cross_site", "tables are opened from this server's own pages")
        try:
            raw = json.loads((await request.body()).decode("utf-8"))
            body = AgainBody.model_validate(raw)
        except (ValueError, RecursionError, ValidationError):
            return fail(400, "bad_request", 'send {"token": "<your seat\'s token>"}')
        manager = manager_of(request)
        table = await manager.get(table_id)
        if table is None:
            return fail(404, "no_table", f"there is no table {table_id!r}")
        digest = token_hash(body.token)
        player = table.token_players.get(digest)
        if player is None:
            if digest == table.row.spectator_hash:
                return fail(403, "spectator", "a spectator cannot open the next table")
            return fail(403, "bad_token", "this token opens no seat at this table")
        try:
            rematch = await manager.again(
                table, guard.client(request), lambda: guard.may_open(request)
            )
        except Refused as exc:
            status = 409 if exc.code == "not_over" else 429
            return fail(status, exc.code, exc.message)
        return JSONResponse({"id": rematch.table, "url": rematch.link(player)})

    static = resources.files("subtable.web").joinpath("static")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(str(static.joinpath("favicon.svg")), media_type="image/svg+xml")

    app.include_router(make_router(manager_of))
    app.include_router(make_api_router(manager_of))  # POST /api/seats: "your tables"
    app.include_router(make_turning_router(manager_of))
    app.include_router(make_learn_router())
    app.mount(
        "/static",
        StaticFiles(directory=str(resources.files("subtable.web").joinpath("static"))),
        name="static",
    )

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        if not origin_allowed(
            ws.headers.get("origin"), ws.headers.get("host"), cfg.allowed_origins
        ):
            await ws.close(code=1008, reason="origin not allowed")
            return
        await ws.accept()
        conn = Connection(ws, cfg, translator("en"), tokens=cfg.burst)
        sender = asyncio.get_running_loop().create_task(_send_loop(conn))
        try:
            await _receive_loop(manager_of(ws), conn)
        except WebSocketDisconnect:
            pass
        finally:
            if conn.table is not None:
                conn.table.clients.discard(conn)
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender

    return app


class JoinBody(BaseModel):
    """``POST /api/tables/{id}/join``: the open seat to take, and the name to show."""

    model_config = ConfigDict(extra="forbid")

    player: Annotated[StrictInt, Field(ge=0, le=64)]
    name: Annotated[StrictStr, Field(max_length=64)]


async def _json_body(request: Request, depth: int) -> tuple[Any, str | None]:
    """The request's JSON body, or why it is none (checked before it is parsed)."""
    try:
        text = (await request.body()).decode("utf-8")
    except UnicodeDecodeError:
        return None, "the body is not UTF-8 text"
    if json_too_deep(text, depth):
        return None, f"the body nests more than {depth} levels deep"
    try:
        return json.loads(text), None
    except (ValueError, RecursionError):
        return None, "the body is not valid JSON"


Model = TypeVar("Model", bound=BaseModel)


async def _validated(
    request: Request, model: type[Model], depth: int
) -> tuple[Model | None, tuple[str, str]]:
    """The request's JSON body as ``model``, or the reason code and message it is refused
    with (``bad_json``, or ``bad_request`` naming the first field that is wrong)."""
    raw, problem = await _json_body(request, depth)
    if problem is not None:
        return None, ("bad_json", problem)
    try:
        return model.model_validate(raw), ("", "")
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(short(p, 40) for p in first["loc"]) or "body"
        return None, ("bad_request", f"{where}: {first['msg']}")


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


async def _send_loop(conn: Connection) -> None:
    while True:
        text = await conn.queue.get()
        if text is None:
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1008, reason="too slow")
            return
        await conn.ws.send_text(text)


async def _receive_loop(manager: Manager, conn: Connection) -> None:
    settings = conn.settings
    while True:
        if conn.table is None:
            try:
                message = await asyncio.wait_for(conn.ws.receive(), settings.hello_timeout)
            except TimeoutError:
                conn.error("hello_timeout", f"no hello within {settings.hello_timeout:g} s")
                await asyncio.sleep(0.05)
                await conn.ws.close(code=1008, reason="no hello")
                raise WebSocketDisconnect(1008) from None
        else:
            message = await conn.ws.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        size = len(text) if text is not None else len(message.get("bytes") or b"")
        if size > settings.max_message:
            conn.error(
                "too_large",
                f"a message may have at most {settings.max_message} "
                f"characters (this one has {size})",
            )
            await asyncio.sleep(0.05)
            await conn.ws.close(code=1009, reason="message too large")
            raise WebSocketDisconnect(1009)
        if not conn.allow():  # every frame counts, binary ones included
            conn.error(
                "rate_limited",
                f"too many messages: at most {settings.rate:g} a second "
                f"(bursts of {settings.burst:g})",
            )
            continue
        if text is None:
            conn.error("binary", "send text frames with JSON, not binary ones")
            continue
        depth = settings.limits.max_json_depth
        if json_too_deep(text, depth):
            conn.error("bad_json", f"the message nests more than {depth} levels deep")
            continue
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            conn.error("bad_json", f"the message is not valid JSON ({str(exc)[:80]})")
            continue
        try:
            msg = parse_message(data)
        except BadMessage as exc:
            conn.error(exc.code, exc.message)
            continue
        try:
            await _handle(manager, conn, msg)
        except Refused as exc:
            conn.error(exc.code, exc.message, **exc.extra)


async def _handle(manager: Manager, conn: Connection, msg: AnyMessage) -> None:
    if isinstance(msg, PingMsg):
        conn.push(
            {
                "v": PROTOCOL_VERSION,
                "type": "pong",
                "seq": None if conn.table is None else conn.table.seq,
            }
        )
        return
    if isinstance(msg, Hello):
        await _hello(manager, conn, msg)
        return
    table = conn.table
    if table is None:
        raise Refused("hello_first", "say hello with the table and your token first")
    if isinstance(msg, ActionMsg):
        await manager.act(table, conn, msg.seq, msg.action, msg.seat)
    elif isinstance(msg, UndoMsg):
        await manager.undo(table, conn, msg.seq)
    elif isinstance(msg, ChatMsg):
        await manager.say(table, conn, msg.text)
    elif isinstance(msg, NameMsg):
        await manager.set_name(table, conn, msg.name)
    elif isinstance(msg, HintMsg):
        await hint.hint(manager, table, conn, msg.seat)
    else:
        conn.push({"v": PROTOCOL_VERSION, "type": "why", **manager.why(table, conn, msg.action)})


async def _hello(manager: Manager, conn: Connection, msg: Hello) -> None:
    if conn.table is not None:
        raise Refused("already_joined", "this connection already sits at a table")
    table = await manager.get(msg.table)
    if table is None:
        raise Refused("no_table", f"there is no table {msg.table!r}")
    digest = token_hash(msg.token)
    if digest in table.token_players:
        player: int | None = table.token_players[digest]
    elif digest == table.row.spectator_hash:
        player = None
    else:
        raise Refused("bad_token", "this token opens no seat at this table")
    if msg.lang is not None:
        lang = normalize(msg.lang)
        if lang is None:
            raise Refused("bad_lang", f"unknown language {msg.lang!r}")
    else:
        lang = table.row.lang
    name = None
    if msg.name is not None:
        if player is None:
            raise Refused("spectator", "a spectator has no name at the table")
        name = manager.hello_name(table, player, msg.name)
        if name is not None:
            await manager.store.set_name(table.id, player, name)
    async with table.lock:
        if msg.last_seq is not None and msg.last_seq > table.seq:
            raise Refused(
                "bad_seq",
                f"last_seq {msg.last_seq} is ahead of the table ({table.seq})",
                seq=table.seq,
            )
        conn.tr = translator(lang)
        conn.html = msg.render == "html"
        conn.player = player
        conn.seats = () if player is None else table.seats_of(player)
        conn.table = table
        if name is not None and player is not None and table.row.names.get(player) != name:
            table.row.names[player] = name
            table.broadcast_people()  # the others learn the newcomer's name
        table.clients.add(conn)
        conn.push(table.welcome_json(conn))
        missed = [] if msg.last_seq is None else table.entries[msg.last_seq :]
        said = table.chat[msg.last_chat :] if msg.last_chat is not None else table.chat[-100:]
        conn.push(
            {
                "v": PROTOCOL_VERSION,
                "type": "sync",
                "entries": [table.entry_json(e, conn) for e in missed],
                "chat": [table.chat_json(line) for line in said],
                "advice_asked": hint.asked_since(table, conn, msg.last_seq),
                "state": table.state_json(conn),
            }
        )
        if table.rematch is not None:  # the table plays on at a new one: this seat's link
            conn.push(table.rematch.frame(player))


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
        if table is not None and seq.isdigit() and table.seq < int(seq):
            task = loop.create_task(manager.catch_up(table_id))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    await conn.add_listener(CHANNEL, notified)
    return conn
