"""Two ``subtable serve`` processes on one real PostgreSQL database serve the same table:
a seat on each sees the other's moves, in order (LISTEN/NOTIFY)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.conftest import PUBLIC_PAIR
from tests.web.realclient import RealSeat

pytestmark = pytest.mark.slow  # most tests here take over two seconds


def test_two_processes_one_table(servers: Any, pg_url: str) -> None:
    a = servers(pg_url)
    b = servers(pg_url)
    assert a.get("/healthz")["db"] == "postgresql"
    t = a.post(
        "/api/tables", {"game": "submarine", "players": 3, "seats": ["human", "human", "random"]}
    )
    # from the start (last_seq 0): the bot may have played before a seat sits down
    on_a = RealSeat(a.ws, t["id"], t["invites"][0]["token"], last_seq=0)
    on_b = RealSeat(b.ws, t["id"], t["invites"][1]["token"], last_seq=0)
    watcher = RealSeat(b.ws, t["id"], t["spectator"]["token"], last_seq=0)
    seats = [on_a, on_b, watcher]
    target = 40
    for _ in range(2000):
        for seat in seats:
            seat.drain(0.02)
        if min(s.state["seq"] for s in seats) >= target or on_a.state["finished"]:
            break
        for seat in (on_a, on_b):
            if seat.state["your_turn"] and not seat.state["finished"]:
                seat.act(seat.state["legal"][0]["id"])
                seat.until(lambda m: m["type"] in ("update", "error"))
    logs = []
    for seat in seats:
        entries = seat.sync["entries"] + [f["entry"] for f in seat.frames if f["type"] == "update"]
        assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
        # another seat's swap reads ``swap`` (its colour is hidden): compare the moves' kinds
        logs.append([(e["seat"], e["action"].split()[0]) for e in entries])
    n = min(len(x) for x in logs)
    assert n >= min(target, 20)
    assert logs[0][:n] == logs[1][:n] == logs[2][:n]
    # both seats moved, each on its own process
    assert {0, 1} <= {s for s, _ in logs[0][:n]}
    # the other process answers the same status
    assert a.get(f"/api/tables/{t['id']}")["seq"] >= n
    assert b.get(f"/api/tables/{t['id']}")["seq"] >= n
    for seat in seats:
        seat.close()


def test_a_table_waiting_on_two_processes_begins_on_both(servers: Any, pg_url: str) -> None:
    a = servers(pg_url)
    b = servers(pg_url)
    t = a.post("/api/tables", PUBLIC_PAIR)
    on_b = RealSeat(b.ws, t["id"], t["invites"][0]["token"], last_seq=0)  # Ana, on b
    assert on_b.state["waiting"] == {"open": [1], "host": 0}
    bea = a.post(f"/api/tables/{t['id']}/join", {"player": 1, "name": "Bea"})  # on a
    begun = on_b.until(lambda m: "state" in m and m["state"]["waiting"] is None)
    assert begun["type"] == "people" and begun["people"] == ["Ana", "Bea"]
    assert b.get(f"/api/tables/{t['id']}")["waiting"] is None
    on_b_bea = RealSeat(b.ws, t["id"], bea["token"], last_seq=0)  # b knows Bea's new token
    assert on_b_bea.welcome["player"] == 1
    on_b.close()
    on_b_bea.close()
