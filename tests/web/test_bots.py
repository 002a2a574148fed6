"""Bots think in worker processes by iteration budget: a table of thinking bots never holds
up another table's moves, and their moves replay from the record."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from tests.web.conftest import Seat, new_table

from subtable.web.app import Settings, create_app


def test_bots_think_off_the_event_loop(tmp_path: Path) -> None:
    app = create_app(Settings(db=str(tmp_path / "t.db"), bot_workers=1, rate=1000, burst=1000))
    with TestClient(app) as client:
        busy = new_table(client, game="red-november", players=3, seats=["ismcts:budget=400"] * 3)
        t = new_table(client, game="submarine", players=2, seats=["human", "human"])
        with client.websocket_connect("/ws") as w0, client.websocket_connect("/ws") as w1:
            seats = [
                Seat(w0, t["id"], t["invites"][0]["token"]),
                Seat(w1, t["id"], t["invites"][1]["token"]),
            ]
            worst = 0.0
            for _ in range(12):
                mover = next(s for s in seats if s.state["your_turn"])
                sent = time.perf_counter()
                mover.act(mover.state["legal"][0]["id"])
                for s in seats:
                    assert s.recv()["type"] == "update"
                worst = max(worst, time.perf_counter() - sent)
            assert worst < 0.5, worst
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            status: dict[str, Any] = client.get(f"/api/tables/{busy['id']}").json()
            if status["seq"] >= 3:
                break
            time.sleep(0.2)
        assert status["seq"] >= 3
