"""Live play over the WebSocket: views, labels, sequence numbers, seats, undo, resuming."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.web.conftest import Seat, new_table

from subtable.core.registry import make_game
from subtable.i18n import translator
from subtable.web.app import Settings, create_app
from subtable.words import game_ui


def _sub(client: Any, connect: Any, n: int = 2, **kw: Any) -> tuple[dict[str, Any], list[Seat]]:
    t = new_table(client, game="submarine", players=n, seats=["human"] * n, **kw)
    return t, [connect(t["id"], i["token"]) for i in t["invites"]]


def test_a_seat_gets_its_own_view_and_legal_actions(connect: Any, client: Any) -> None:
    _, (a, b) = _sub(client, connect)
    assert [v["seat"] for v in a.state["views"]] == [0]
    assert [v["seat"] for v in b.state["views"]] == [1]
    mover, other = (a, b) if a.state["your_turn"] else (b, a)
    assert mover.state["legal"] and other.state["legal"] == []
    assert other.state["views"][0]["view"]["players"][mover.welcome["player"]]["hand"] is None


def test_labels_and_reasons_in_the_seats_language(client: Any, connect: Any) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "human"], lang="fr")
    seats = [connect(t["id"], i["token"]) for i in t["invites"]]
    mover = next(s for s in seats if s.state["your_turn"])
    game = make_game("submarine", players=2)
    ui, tr = game_ui(game), translator("fr")
    for item in mover.state["legal"]:
        assert item["label"] == ui.action_label(game.action_space[item["id"]], tr)
    mover.act("done")
    err = mover.recv()
    assert err["type"] == "error" and err["code"] != "stale_seq"
    assert err["why"] and err["message"] and err["action"] == "done"
    mover.send({"type": "why", "action": "done"})
    why = mover.recv()
    assert why["type"] == "why" and why["legal"] is False and why["why"] == err["why"]
    english = connect(t["id"], t["invites"][0]["token"], lang="en")
    assert english.welcome["lang"] == "en"


def test_a_doubled_or_stale_click_is_refused_not_applied_twice(client: Any, connect: Any) -> None:
    t, seats = _sub(client, connect)
    mover = next(s for s in seats if s.state["your_turn"])
    action = mover.state["legal"][0]["id"]
    mover.act(action, seq=0)
    mover.act(action, seq=0)
    assert mover.recv()["type"] == "update"
    err = mover.recv()
    assert err["code"] == "stale_seq" and err["seq"] == 1
    assert client.get(f"/api/tables/{t['id']}").json()["seq"] == 1
    mover.act(action, seq=5)
    assert mover.recv()["code"] == "stale_seq"


def test_only_the_deciding_seat_acts(client: Any, connect: Any) -> None:
    t, seats = _sub(client, connect)
    waiting = next(s for s in seats if not s.state["your_turn"])
    mover = next(s for s in seats if s.state["your_turn"])
    waiting.act(mover.state["legal"][0]["id"])
    assert waiting.recv()["code"] == "not_your_turn"
    mover.send({"type": "action", "seq": 0, "action": 0, "seat": waiting.welcome["player"]})
    assert mover.recv()["code"] == "not_your_seat"
    spectator = connect(t["id"], t["spectator"]["token"])
    assert spectator.welcome["role"] == "spectator"
    assert [v["seat"] for v in spectator.state["views"]] == [None]
    spectator.act(mover.state["legal"][0]["id"])
    assert spectator.recv()["code"] == "spectator"
    spectator.send({"type": "undo", "seq": 0})
    assert spectator.recv()["code"] == "spectator"
    assert client.get(f"/api/tables/{t['id']}").json()["seq"] == 0


def test_tokens_open_only_their_own_table(client: Any, connect: Any) -> None:
    t1 = new_table(client, game="submarine", players=2, seats=["human", "human"])
    t2 = new_table(client, game="submarine", players=2, seats=["human", "human"])
    with client.websocket_connect("/ws") as ws:
        for table, token in (
            (t1["id"], t2["invites"][0]["token"]),
            (t1["id"], "x" * 43),
            ("nope", t1["invites"][0]["token"]),
        ):
            ws.send_text(json.dumps({"type": "hello", "table": table, "token": token}))
            reply = json.loads(ws.receive_text())
            assert reply["type"] == "error" and reply["code"] in ("bad_token", "no_table")
        ws.send_text(json.dumps({"type": "action", "seq": 0, "action": 0}))
        assert json.loads(ws.receive_text())["code"] == "hello_first"


def _undoable_step(mover: Seat) -> dict[str, Any] | None:
    """Play actions until one can be taken back."""
    for _ in range(40):
        if not mover.state["your_turn"]:
            return None
        legal = mover.state["legal"]
        choice = next((a for a in legal if a["notation"].startswith(("move", "open"))), legal[0])
        mover.act(choice["id"])
        msg = mover.recv()
        assert msg["type"] == "update"
        if msg["state"]["can_undo"]:
            return msg
    return None


def test_undo_follows_the_terminal_rule_and_others_see_it(client: Any, connect: Any) -> None:
    t = new_table(client, game="red-november", players=3, seats=["human"] * 3)
    seats = [connect(t["id"], i["token"]) for i in t["invites"]]
    mover = next(s for s in seats if s.state["your_turn"])
    others = [s for s in seats if s is not mover]
    before = mover.state["views"][0]["view"]
    msg = _undoable_step(mover)
    assert msg is not None, "no undoable move found"
    for s in others:
        while s.state["seq"] < mover.state["seq"]:
            s.recv()
    undone_seq = mover.state["seq"]
    mover.send({"type": "undo", "seq": undone_seq})
    up = mover.recv()
    assert up["type"] == "update" and up["entry"]["kind"] == "undo"
    assert up["entry"]["action"] == msg["entry"]["action"]
    for s in others:
        seen = s.recv()
        assert seen["entry"]["kind"] == "undo" and seen["entry"]["seat"] == mover.state["decider"]
    if undone_seq == 1:
        assert mover.state["views"][0]["view"] == before
    # another seat cannot take it back; nor can anyone after chance moved
    other = others[0]
    other.send({"type": "undo", "seq": other.state["seq"]})
    refused = other.recv()
    assert refused["code"] == "cannot_undo" and refused["why"]


def test_resume_with_the_last_seq_seen_gets_the_missed_moves(client: Any, connect: Any) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "random"])
    a = connect(t["id"], t["invites"][0]["token"])
    watcher = connect(t["id"], t["spectator"]["token"])
    watcher.ws.close()
    for _ in range(200):
        if a.state["seq"] >= 8 or a.state["finished"]:
            break
        if a.state["your_turn"]:
            a.act(a.state["legal"][0]["id"])
        assert a.recv()["type"] == "update"
    last = watcher.state["seq"]
    assert a.state["seq"] > last
    back = connect(t["id"], t["spectator"]["token"], last_seq=last)
    missed = back.sync["entries"]
    assert [e["seq"] for e in missed] == list(range(last + 1, back.state["seq"] + 1))
    seen_by_a = {f["entry"]["seq"]: f["entry"]["action"] for f in a.frames if f["type"] == "update"}
    common = [e for e in missed if e["seq"] in seen_by_a]
    assert len(common) >= 5
    assert all(e["action"] == seen_by_a[e["seq"]] for e in common)
    with client.websocket_connect("/ws") as ws:
        ws.send_text(
            json.dumps(
                {
                    "type": "hello",
                    "table": t["id"],
                    "token": t["invites"][0]["token"],
                    "last_seq": 10**6,
                }
            )
        )
        assert json.loads(ws.receive_text())["code"] == "bad_seq"


def test_origin_is_checked_on_upgrade(client: Any) -> None:
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws,
    ):
        ws.receive_text()
    with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
        ws.send_text(json.dumps({"type": "ping"}))
        assert json.loads(ws.receive_text())["type"] == "pong"


def test_message_size_and_rate_limits(tmp_path: Path) -> None:
    # a token comes back every 100 s: the count below cannot depend on the machine's speed
    app = create_app(
        Settings(db=str(tmp_path / "t.db"), bot_workers=0, rate=0.01, burst=5, max_message=1000)
    )
    with TestClient(app) as client:
        with client.websocket_connect("/ws") as ws:
            replies = []
            for _ in range(10):
                ws.send_text(json.dumps({"type": "ping"}))
            for _ in range(10):
                replies.append(json.loads(ws.receive_text()))
            codes = [r.get("code", r["type"]) for r in replies]
            assert codes == ["pong"] * 5 + ["rate_limited"] * 5, codes
        with client.websocket_connect("/ws") as ws:
            ws.send_text("x" * 5000)
            reply = json.loads(ws.receive_text())
            assert reply["code"] == "too_large"
            with pytest.raises(WebSocketDisconnect):
                ws.receive_text()
        assert client.get("/healthz").json()["ok"]


def test_tokens_are_stored_hashed(client: Any, db_path: Path) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "human"])
    data = db_path.read_bytes()
    wal = Path(str(db_path) + "-wal")
    if wal.exists():
        data += wal.read_bytes()
    for token in [i["token"] for i in t["invites"]] + [t["spectator"]["token"]]:
        assert token.encode() not in data
    assert os.path.getsize(db_path) > 0


def test_a_restarted_server_rebuilds_undos_too(db_path: Path) -> None:
    settings = Settings(db=str(db_path), bot_workers=0, rate=1000, burst=1000)
    with TestClient(create_app(settings)) as client:
        t = new_table(client, game="red-november", players=3, seats=["human"] * 3)
        seats_by_turn = []
        with (
            client.websocket_connect("/ws") as w0,
            client.websocket_connect("/ws") as w1,
            client.websocket_connect("/ws") as w2,
        ):
            for w, invite in zip((w0, w1, w2), t["invites"], strict=True):
                seats_by_turn.append(Seat(w, t["id"], invite["token"]))
            mover = next(s for s in seats_by_turn if s.state["your_turn"])
            msg = _undoable_step(mover)
            assert msg is not None
            mover.send({"type": "undo", "seq": mover.state["seq"]})
            assert mover.recv()["entry"]["kind"] == "undo"
        table = client.app.state.manager.tables[t["id"]]  # type: ignore[attr-defined]
        digest, seq = table.state.digest(), table.seq
    with TestClient(create_app(settings)) as client:
        table = client.app.state.manager.tables[t["id"]]  # type: ignore[attr-defined]
        assert (table.state.digest(), table.seq) == (digest, seq)


def test_a_connection_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    app = create_app(Settings(db=str(tmp_path / "t.db"), bot_workers=0, hello_timeout=0.3))
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        assert json.loads(ws.receive_text())["code"] == "hello_timeout"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_text()
