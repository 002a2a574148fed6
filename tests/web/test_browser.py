"""A browser seat (Chromium driving the served page) and a terminal seat (``subtable join``)
at one table of a real server."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pexpect


def test_a_browser_and_a_terminal_at_one_table(servers: Any, browser: Any, tmp_path: Path) -> None:
    server = servers(str(tmp_path / "t.sqlite3"))
    t = server.post("/api/tables", {"game": "submarine", "players": 2, "seats": ["human", "human"]})
    child = pexpect.spawn(
        sys.executable,
        ["-m", "subtable", "join", t["invites"][1]["url"]],
        encoding="utf-8",
        timeout=20,
        dimensions=(60, 200),
        env={**os.environ, "LANG": "C.UTF-8", "TERM": "dumb"},
    )
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(t["invites"][0]["url"])
        page.wait_for_function(
            "document.getElementById('role').textContent.includes('player')", timeout=10_000
        )
        assert "#" not in page.url  # the token left the address bar
        seq = 0
        for _ in range(8):
            status = server.get(f"/api/tables/{t['id']}")
            seq = status["seq"]
            if status["deciding_player"] == 0:
                page.locator("#legal button").first.click()
            else:  # the terminal's prompt is always there: wait for its options
                child.expect("Your options")
                child.expect(r"> $")
                child.sendline("1")
            deadline = time.monotonic() + 10
            while server.get(f"/api/tables/{t['id']}")["seq"] == seq:
                assert time.monotonic() < deadline, "the move never landed"
                time.sleep(0.05)
        status = server.get(f"/api/tables/{t['id']}")
        assert status["seq"] >= 8
        log = page.locator("#log").inner_text()
        assert f"#{status['seq']}" in log or f"#{status['seq'] - 1}" in log
    finally:
        context.close()
        child.close(force=True)
