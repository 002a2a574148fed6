"""kill -9 a real server mid-game, restart it on the same SQLite file: every acknowledged
action is there, every table is rebuilt, and play goes on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.web.realclient import RealSeat

pytestmark = pytest.mark.slow  # most tests here take over two seconds


def test_kill9_loses_no_acknowledged_move(servers: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "tables.sqlite3")
    server = servers(db)
    tables = [
        server.post(
            "/api/tables", {"game": "submarine", "players": 2, "seats": ["human", "heuristic"]}
        ),
        server.post(
            "/api/tables",
            {"game": "red-november", "players": 3, "seats": ["human", "human", "random"]},
        ),
    ]
    acked: dict[str, dict[int, str]] = {t["id"]: {} for t in tables}
    seats = [RealSeat(server.ws, t["id"], i["token"]) for t in tables for i in t["invites"]]
    for _ in range(400):
        for seat in seats:
            seat.drain()
            for f in seat.frames:
                if f["type"] == "update":
                    acked[seat.welcome["table"]][f["entry"]["seq"]] = f["entry"]["action"]
        if all(len(v) >= 12 for v in acked.values()):
            break
        for seat in seats:
            if seat.state["your_turn"] and not seat.state["finished"]:
                seat.act(seat.state["legal"][0]["id"])
    # one more action in flight as the server dies
    for seat in seats:
        seat.drain()
    for seat in seats:
        if seat.state["your_turn"]:
            seat.act(seat.state["legal"][0]["id"])
    assert all(len(v) >= 12 for v in acked.values())
    server.kill9()
    for seat in seats:
        seat.close()
    restarted = servers(db)
    for t in tables:
        status = restarted.get(f"/api/tables/{t['id']}")
        assert status["seq"] >= max(acked[t["id"]])
        seat = RealSeat(restarted.ws, t["id"], t["invites"][0]["token"], last_seq=0)
        log = {e["seq"]: e["action"] for e in seat.sync["entries"]}
        for seq, action in acked[t["id"]].items():
            assert log[seq] == action
        seat.close()
    # the game goes on after the restart, bots included
    sub = tables[0]
    seat = RealSeat(restarted.ws, sub["id"], sub["invites"][0]["token"])
    start = seat.state["seq"]
    for _ in range(10):
        if seat.state["your_turn"]:
            seat.act(seat.state["legal"][0]["id"])
        seat.until(lambda m: m["type"] == "update")
    assert seat.state["seq"] >= start + 10
    seat.close()
