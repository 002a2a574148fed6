"""``subtable join``: a terminal seat at a web table (a real server, a real terminal)."""

from __future__ import annotations

import sys
from typing import Any

import pexpect
from tests.web.realclient import RealSeat

from subtable.i18n import translator


def test_join_plays_a_seat_in_french_beside_a_websocket_seat(servers: Any, tmp_path: Any) -> None:
    server = servers(str(tmp_path / "t.sqlite3"))
    t = server.post(
        "/api/tables",
        {"game": "submarine", "players": 3, "lang": "fr", "seats": ["human", "human", "random"]},
    )
    other = RealSeat(server.ws, t["id"], t["invites"][1]["token"])  # a "browser" seat
    tr = translator("fr")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "subtable", "join", t["invites"][0]["url"]],
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 200),
        env={"LANG": "C.UTF-8", "COLUMNS": "200", "TERM": "dumb"},
    )

    def prompt() -> None:
        """Let the other seat play until the terminal seat is asked."""
        for _ in range(60):
            other.drain(0.05)
            if other.state["your_turn"]:
                other.act(other.state["legal"][0]["id"])
            if child.expect([r"> $", pexpect.TIMEOUT], timeout=1) == 0:
                return
        raise AssertionError("no prompt")

    try:
        prompt()
        child.sendline("why done")
        child.expect(r"> $")
        child.sendline("bogus")
        child.expect(tr("ui.err.unknown_input", text="bogus")[:20])
        child.expect(r"> $")
        for _ in range(3):
            child.sendline("1")
            prompt()
        child.sendline("log")
        child.expect(r"> $")
        child.sendline("quit")
        child.expect(pexpect.EOF)
        text = child.before or ""
        assert tr("ui.quit")[:10] in text
    finally:
        child.close(force=True)
        other.close()
    status = server.get(f"/api/tables/{t['id']}")
    assert status["seq"] >= 3
