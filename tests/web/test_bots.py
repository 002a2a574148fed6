"""Bots think off the event loop (in worker processes; a thread here) by iteration budget: a
table of thinking bots never holds up another table's moves."""

from __future__ import annotations

import threading
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import Seat, new_table

from subtable.web import botpool
from subtable.web.app import Settings, create_app


def test_bots_think_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every search runs on the pool's worker, never on the server's event loop, and people's
    moves at another table are answered while bots think (how quickly: ``bench_web.py
    --bot-moves``)."""
    threads: set[int] = set()
    real = botpool.thinking

    def recorded(job: botpool.BotJob) -> Generator[int, None, str]:
        threads.add(threading.get_ident())
        return (yield from real(job))

    monkeypatch.setattr(botpool, "thinking", recorded)
    app = create_app(Settings(db=str(tmp_path / "t.db"), bot_workers=0, rate=1000, burst=1000))
    with TestClient(app) as client:
        loop_thread = client.portal.call(threading.get_ident)  # type: ignore[union-attr]
        busy = new_table(client, game="red-november", players=3, seats=["ismcts:budget=400"] * 3)
        t = new_table(client, game="submarine", players=2, seats=["human", "human"])
        with client.websocket_connect("/ws") as w0, client.websocket_connect("/ws") as w1:
            seats = [
                Seat(w0, t["id"], t["invites"][0]["token"]),
                Seat(w1, t["id"], t["invites"][1]["token"]),
            ]
            for _ in range(12):
                mover = next(s for s in seats if s.state["your_turn"])
                mover.act(mover.state["legal"][0]["id"])
                for s in seats:
                    assert s.recv()["type"] == "update"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            status: dict[str, Any] = client.get(f"/api/tables/{busy['id']}").json()
            if status["seq"] >= 3:
                break
            time.sleep(0.2)
        assert status["seq"] >= 3
    assert threads and loop_thread not in threads
