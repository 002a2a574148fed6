"""A seeded fuzz of the WebSocket protocol: every bad message gets a clear error reply, the
server stays up, and the table's state digest does not change."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

from starlette.websockets import WebSocketDisconnect
from tests.web.conftest import new_table

MESSAGES = 400


def _garbage(
    rng: random.Random,
    table: str,
    other_token: str,
    seq: int,
    waiting_seat: int,
    deciding_token: str,
) -> tuple[str, str | None]:
    """A message and, when the connection is the deciding seat's, nothing legal."""
    kind = rng.randrange(19)
    junk: list[Any] = [None, True, 1.5, -1, 2**70, "", "x" * 70, [], {}, [1, 2], {"a": 1}]
    if kind == 0:
        return rng.choice(["{", "}", "[1,", "nul", "\x00", '{"type":', "\ud800", "1e999x"]), None
    if kind == 1:
        return json.dumps(rng.choice(junk)), None
    if kind == 2:
        return json.dumps({"type": rng.choice(["hell", "ACTION", "", None, 3, "undo!"])}), None
    if kind == 3:
        return json.dumps({"type": "action", "seq": rng.choice(junk), "action": 0}), None
    if kind == 4:
        return json.dumps({"type": "action", "seq": seq, "action": rng.choice(junk)}), None
    if kind == 5:  # a stale or future sequence number
        return json.dumps(
            {
                "type": "action",
                "seq": rng.choice([seq - 1, seq + 1, seq + 99]),
                "action": rng.randrange(50),
            }
        ), None
    if kind == 6:  # an action for a seat that is not ours
        return json.dumps(
            {"type": "action", "seq": seq, "action": rng.randrange(50), "seat": waiting_seat}
        ), None
    if kind == 7:  # a token of another table / no token at all
        return json.dumps({"type": "hello", "table": table, "token": other_token}), None
    if kind == 8:
        return json.dumps({"type": "hello", "table": rng.choice(junk), "token": 5}), None
    if kind == 9:  # unknown fields, wrong version
        return json.dumps({"type": "ping", "v": rng.choice([0, 2, "1"]), "x": 1}), None
    if kind == 10:
        return json.dumps({"type": "action", "seq": seq, "action": "fly to the moon"}), None
    if kind == 11:
        return json.dumps({"type": "why", "action": rng.choice([10**9, "bogus", -3])}), None
    if kind == 12:  # ids out of the action space
        return json.dumps(
            {"type": "action", "seq": seq, "action": rng.choice([-1, 10**6, 2**63])}
        ), None
    if kind == 14:  # nested deeper than the server parses (within the size limit)
        depth = rng.choice([33, 500, 5_000])
        return "[" * depth + "]" * depth, None
    if kind == 15:  # numbers JSON does not have, or that do not fit
        return rng.choice(
            [
                '{"type": "action", "seq": NaN, "action": 0}',
                '{"type": "action", "seq": 1e999, "action": 0}',
                '{"type": "action", "seq": -Infinity, "action": 0}',
                json.dumps({"type": "action", "seq": 10**9 + 1, "action": 0}),
                json.dumps({"type": "action", "seq": 10**400, "action": 0}),
            ]
        ), None
    if kind == 16:  # digits that are not ASCII digits
        return json.dumps(
            {
                "type": "action",
                "seq": rng.choice(["²", "٣", "１"]),
                "action": rng.choice(["²", "٣"]),
            }
        ), None
    if kind == 17:  # a version that only equals 1 in Python
        return json.dumps({"type": "ping", "v": rng.choice([True, 1.0, "1"])}), None
    if kind == 18:
        return json.dumps(
            {"type": "why", "action": rng.choice(["swap ²", "give ٣", "x" * 64])}
        ), None
    return json.dumps({"type": "undo", "seq": rng.choice([seq + 3, -2, "0"])}), deciding_token


def test_protocol_fuzz(client: Any) -> None:
    rng = random.Random(20261122)
    t = new_table(
        client,
        game="red-november",
        players=3,
        options={"crazed_gnomes": True},
        seats=["human", "human", "human"],
    )
    other = new_table(client, game="submarine", players=2, seats=["human", "human"])
    manager = client.app.state.manager
    table = manager.tables[t["id"]]
    digest = table.state.digest()
    seq = table.seq
    decider = table.state.current_seat()
    waiting = next(s for s in range(3) if s != decider)
    sockets = []
    for invite in t["invites"]:
        cm = client.websocket_connect("/ws")
        ws = cm.__enter__()
        ws.send_text(json.dumps({"type": "hello", "table": t["id"], "token": invite["token"]}))
        assert json.loads(ws.receive_text())["type"] == "welcome"
        assert json.loads(ws.receive_text())["type"] == "sync"
        sockets.append((cm, ws))
    replies = 0
    for i in range(MESSAGES):
        who = rng.randrange(3)
        old_cm, ws = sockets[who]
        if i % 97 == 0:  # a huge frame: an error, then the connection is closed
            ws.send_text("[" * 100_000)
            reply = json.loads(ws.receive_text())
            assert reply["type"] == "error" and reply["code"] == "too_large"
            try:
                ws.receive_text()
                raise AssertionError("the connection stayed open")
            except WebSocketDisconnect:
                pass
            with contextlib.suppress(Exception):
                old_cm.__exit__(None, None, None)
            cm = client.websocket_connect("/ws")
            ws = cm.__enter__()
            ws.send_text(
                json.dumps(
                    {
                        "type": "hello",
                        "table": t["id"],
                        "token": t["invites"][who]["token"],
                        "last_seq": seq,
                    }
                )
            )
            assert json.loads(ws.receive_text())["type"] == "welcome"
            assert json.loads(ws.receive_text())["type"] == "sync"
            sockets[who] = (cm, ws)
            continue
        if i % 31 == 0:  # a binary frame: refused like any other bad message
            ws.send_bytes(rng.randbytes(rng.randrange(1, 2_000)))
            reply = json.loads(ws.receive_text())
            assert reply["type"] == "error" and reply["code"] == "binary", reply
            continue
        text, _ = _garbage(
            rng, t["id"], other["invites"][0]["token"], seq, waiting, t["invites"][decider]["token"]
        )
        ws.send_text(text)
        reply = json.loads(ws.receive_text())
        if text.startswith("[[[[") or '"v": true' in text or '"v": 1.0' in text:
            assert reply["type"] == "error", (text[:60], reply)
        assert reply["type"] in ("error", "why", "pong"), reply
        if reply["type"] == "error":
            assert reply["code"] and reply["message"], reply
            replies += 1
        assert table.state.digest() == digest and table.seq == seq
    assert replies > MESSAGES // 2
    assert client.get("/healthz").json()["ok"]
    # and the table still plays
    _, ws = sockets[decider]
    legal = table.state.legal_action_ids()
    ws.send_text(json.dumps({"type": "action", "seq": seq, "action": legal[0]}))
    assert json.loads(ws.receive_text())["type"] == "update"
    for cm, _ in sockets:
        cm.__exit__(None, None, None)
