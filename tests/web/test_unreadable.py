"""A stored table whose record does not replay (an entry this version refuses) is refused
with a clear answer, its record kept as it was, and every other table is served: the
server starts all the same."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fastapi.testclient import TestClient
from tests.web.conftest import new_table

from subtable.web.app import Settings, create_app


def _entries(db_path: Path, table: str) -> list[tuple[int, str, int | None, str]]:
    with sqlite3.connect(db_path) as db:
        rows = db.execute(
            "SELECT seq, kind, seat, action FROM entries WHERE table_id = ? ORDER BY seq",
            (table,),
        ).fetchall()
    return [(r[0], r[1], r[2], r[3]) for r in rows]


def test_a_table_that_does_not_replay_is_refused_and_kept(db_path: Path) -> None:
    settings = Settings(db=str(db_path), bot_workers=0, rate=1000, burst=1000)
    with TestClient(create_app(settings)) as client:
        bad = new_table(client, game="submarine", players=2, seats=["human", "human"])
        good = new_table(client, game="submarine", players=2, seats=["human", "human"])
    with sqlite3.connect(db_path) as db:  # an entry no version of the rules accepts here
        db.execute(
            "INSERT INTO entries (table_id, seq, kind, seat, action, created_at)"
            " VALUES (?, 1, 'action', 0, 'fly to the moon', 0)",
            (bad["id"],),
        )
    kept = _entries(db_path, bad["id"])
    with TestClient(create_app(settings)) as client:
        status = client.get(f"/api/tables/{bad['id']}")
        assert status.status_code == 409
        error = status.json()["error"]
        assert error["code"] == "unreadable" and "entry 1" in error["message"]
        assert "fly to the moon" not in status.text  # what a seat played is not told
        assert client.get(f"/api/tables/{good['id']}").status_code == 200
        page = client.get(f"/t/{bad['id']}", headers={"Accept-Language": "fr"})
        assert page.status_code == 409 and "ne peut pas être ouverte" in page.text
        token = bad["invites"][0]["token"]
        seats = client.post("/api/seats", json={"seats": [{"table": bad["id"], "token": token}]})
        assert seats.json()["seats"] == [{"table": bad["id"], "error": "unreadable"}]
        join = client.post(f"/api/tables/{bad['id']}/join", json={"player": 1, "name": "Bea"})
        assert join.status_code == 409 and join.json()["error"]["code"] == "unreadable"
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": bad["id"], "token": token})
            refused = ws.receive_json()
            assert refused["type"] == "error" and refused["code"] == "unreadable"
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert bad["id"] not in manager.tables and manager.unreadable == {bad["id"]: 1}
    assert _entries(db_path, bad["id"]) == kept  # nothing was changed or dropped
