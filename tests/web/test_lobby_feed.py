"""The lobby pushed to open home pages: ``GET /api/lobby/events`` says ``event: lobby``
when a public table opens or a seat is taken, without the page asking; listeners are capped."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from subtable.web.lobbyfeed import FULL_RETRY_MS, LobbyFeed

PUBLIC = {"game": "submarine", "players": 2, "seats": ["human", "human"]}


def _table(tid: str, *open_: bool) -> dict[str, Any]:
    return {"id": tid, "seats": [{"open": o} for o in open_]}


def test_a_change_reaches_a_listener_at_once_and_the_cap_holds() -> None:
    async def run() -> None:
        tables: list[dict[str, Any]] = []

        async def look() -> list[dict[str, Any]]:
            return list(tables)

        feed = LobbyFeed(look, cap=1, every=60.0)  # only a poke can wake it within the test
        stream = feed.events()
        assert (await anext(stream)).startswith("retry:")
        assert feed.full()  # one listener is the cap: the route refuses the next
        tables.append(_table("t1", True, False))
        feed.changed()
        assert await asyncio.wait_for(anext(stream), 2.0) == "event: lobby\ndata: changed\n\n"
        tables[0] = _table("t1", False, False)  # the open seat is taken
        feed.changed()
        assert await asyncio.wait_for(anext(stream), 2.0) == "event: lobby\ndata: changed\n\n"
        feed.changed()  # a poke that changed nothing says nothing new
        assert await asyncio.wait_for(anext(stream), 2.0) == ": still\n\n"
        await stream.aclose()
        assert feed.listeners == 0 and not feed.full()

    with ThreadPoolExecutor(1) as pool:  # a loop of its own, whatever runs in this thread
        pool.submit(asyncio.run, run()).result(timeout=30)


def test_a_burst_of_listeners_never_passes_the_cap() -> None:
    """Every request of a burst passes the route's look at the cap before any stream starts:
    the streams themselves hold the cap, those beyond it told to come back later."""

    async def run() -> None:
        async def look() -> list[dict[str, Any]]:
            return []

        feed = LobbyFeed(look, cap=3, every=60.0)
        streams = [feed.events() for _ in range(5)]  # all let in while nothing listens
        first = [await anext(s) for s in streams]
        assert feed.listeners == 3
        assert [line.endswith(": listening\n\n") for line in first] == [True] * 3 + [False] * 2
        assert first[3] == f"retry: {FULL_RETRY_MS}\n: full\n\n"
        for turned_away in streams[3:]:
            assert await anext(turned_away, None) is None  # the stream ends there
        for s in streams:
            await s.aclose()
        assert feed.listeners == 0

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result(timeout=30)


def _lines(response: Any, until: float) -> list[str]:
    seen: list[str] = []
    while time.monotonic() < until:
        line = response.readline().decode().rstrip("\n")
        seen.append(line)
        if line == "event: lobby":
            break
    return seen


def test_a_new_public_table_reaches_an_open_lobby_page(
    servers: Callable[..., Any], tmp_path: Path
) -> None:
    server = servers(str(tmp_path / "feed.db"))
    with urllib.request.urlopen(server.url + "/api/lobby/events", timeout=10) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.readline().decode().startswith("retry:")
        server.post("/api/tables", {**PUBLIC, "visibility": "public", "names": ["Ana", None]})
        seen = _lines(stream, time.monotonic() + 5)  # poked at once: not the 5 s look
        assert seen[-1] == "event: lobby", seen
    listed = server.get("/api/lobby")["tables"]
    assert json.dumps(listed) and len(listed) == 1
