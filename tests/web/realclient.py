"""A blocking WebSocket seat for real server subprocesses (websockets' sync client)."""

from __future__ import annotations

import contextlib
import json
import random
import time
from typing import Any

from websockets.sync.client import connect


class RealSeat:
    """One seat over a real socket; keeps every frame."""

    def __init__(self, ws_url: str, table: str, token: str, last_seq: int | None = None) -> None:
        self.ws = connect(ws_url, open_timeout=10, close_timeout=2)
        self.frames: list[dict[str, Any]] = []
        self.ws.send(
            json.dumps(
                {"v": 1, "type": "hello", "table": table, "token": token, "last_seq": last_seq}
            )
        )
        self.welcome = self.recv()
        assert self.welcome["type"] == "welcome", self.welcome
        self.sync = self.recv()
        assert self.sync["type"] == "sync", self.sync
        self.state: dict[str, Any] = self.sync["state"]

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(msg)
        if msg.get("type") in ("update", "sync"):
            self.state = msg["state"]
        return msg

    def act(self, action: int | str) -> None:
        self.ws.send(
            json.dumps({"v": 1, "type": "action", "seq": self.state["seq"], "action": action})
        )

    def drain(self, wait: float = 0.05) -> None:
        """Read whatever has arrived."""
        while True:
            try:
                self.recv(timeout=wait)
            except TimeoutError:
                return

    def until(self, pred: Any, limit: int = 500) -> dict[str, Any]:
        for _ in range(limit):
            msg = self.recv()
            if pred(msg):
                return msg
        raise AssertionError("the awaited message never came")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


def sunk_crew_table(server: Any) -> dict[str, Any]:
    """A finished two-player Red November table: its two seats (people) play random moves,
    within the server's 20 messages a second, until the crew sinks. The creation's answer."""
    t: dict[str, Any] = server.post(
        "/api/tables", {"game": "red-november", "players": 2, "seats": ["human", "human"]}
    )
    seats = [RealSeat(server.ws, t["id"], i["token"]) for i in t["invites"]]
    rng = random.Random(6)
    try:
        for _ in range(2_000):
            if seats[0].state["finished"]:
                break
            mover = next(s for s in seats if s.state["your_turn"])
            mover.act(rng.choice(mover.state["legal"])["id"])
            time.sleep(0.06)
            for s in seats:
                while s.recv()["type"] != "update":
                    pass
        assert seats[0].state["finished"]
    finally:
        for s in seats:
            s.close()
    return t
