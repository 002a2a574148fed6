"""The WebSocket play (``/ws``): each connection's queue and rate, its messages validated
before anything is done or written for them (``docs/protocol.md``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from subtable.i18n import Translator, normalize, translator
from subtable.web import hint
from subtable.web.guard import origin_allowed
from subtable.web.limits import json_too_deep
from subtable.web.live import LiveTable, Manager, Refused, token_hash
from subtable.web.protocol import (
    ActionMsg,
    AnyMessage,
    BadMessage,
    ChatMsg,
    ErrorFrame,
    Frame,
    Hello,
    HintMsg,
    NameMsg,
    PingMsg,
    PongFrame,
    StartMsg,
    SyncFrame,
    UndoMsg,
    parse_message,
)
from subtable.web.render import error_text
from subtable.web.routes.deps import ManagerDep, SettingsDep, get_feed
from subtable.web.settings import Settings
from subtable.web.tasks import cancel_and_wait

router = APIRouter()


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

    def send(self, frame: Frame) -> None:
        """Queue one of the server's frames, serialized here (a client that falls too far
        behind is disconnected)."""
        if self.queue.qsize() >= self.settings.max_queue:
            self.overflow = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(frame.text())

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
            extra["why"] = error_text(code, self.tr)
        self.send(ErrorFrame(code=code, message=message, **extra))


@router.websocket("/ws")
async def websocket(ws: WebSocket, manager: ManagerDep, cfg: SettingsDep) -> None:
    """Play at a table: the protocol of ``docs/protocol.md``."""
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), cfg.allowed_origins):
        await ws.close(code=1008, reason="origin not allowed")
        return
    await ws.accept()
    conn = Connection(ws, cfg, translator("en"), tokens=cfg.burst)
    sender = asyncio.get_running_loop().create_task(_send_loop(conn))
    try:
        await _receive_loop(manager, conn)
    except WebSocketDisconnect:
        pass
    finally:
        if conn.table is not None:
            conn.table.clients.discard(conn)
            hint.leave(conn.table, conn)
        await cancel_and_wait([sender])


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
        conn.send(PongFrame(seq=None if conn.table is None else conn.table.seq))
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
    elif isinstance(msg, StartMsg):
        await manager.start_now(table, conn)
        (await get_feed(conn.ws)).changed()  # its open seats leave the lobby
    else:
        conn.send(manager.why(table, conn, msg.action))


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
    if msg.name is not None and player is None:
        raise Refused("spectator", "a spectator has no name at the table")
    async with table.lock:
        if msg.last_seq is not None and msg.last_seq > table.seq:
            raise Refused(
                "bad_seq",
                f"last_seq {msg.last_seq} is ahead of the table ({table.seq})",
                seq=table.seq,
            )
        # the name is checked last (unique, not another's, not after the end, not too often):
        # only then is anything written (a refused hello stores nothing)
        name = None
        if msg.name is not None and player is not None:
            name = manager.hello_name(table, player, msg.name)
        if name is not None and player is not None:
            await manager.store.set_name(table.id, player, name)
            table.row.names[player] = name
            table.broadcast_people()  # the others learn the newcomer's name
        conn.tr = translator(lang)
        conn.html = msg.render == "html"
        conn.player = player
        conn.seats = () if player is None else table.seats_of(player)
        conn.table = table
        table.clients.add(conn)
        conn.send(table.welcome_frame(conn))
        missed = [] if msg.last_seq is None else table.entries[msg.last_seq :]
        said = table.chat[msg.last_chat :] if msg.last_chat is not None else table.chat[-100:]
        conn.send(
            SyncFrame(
                entries=[table.entry_as_seen(e, conn) for e in missed],
                chat=[table.chat_line(line) for line in said],
                advice_asked=hint.asked_since(table, conn, msg.last_seq),
                state=table.state_json(conn),
            )
        )
        if table.rematch is not None:  # the table plays on at a new one: this seat's link
            conn.send(table.rematch.frame(player))
