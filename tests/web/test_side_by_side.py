"""Test servers started side by side (pytest-xdist): a port found free but taken before the
server binds it costs a restart on another port, never a failed test."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
import tests.web.conftest as web

pytestmark = pytest.mark.server


def test_a_server_whose_port_was_taken_starts_on_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        ports: Iterator[int] = iter([busy, web.free_port()])
        monkeypatch.setattr(web, "free_port", lambda: next(ports))
        server = web.Server(str(tmp_path / "t.sqlite3"), tmp_path / "server.log")
        try:
            assert server.port != busy
            assert server.get("/healthz")["ok"]
            assert "address already in use" in server.log.read_text().lower()
        finally:
            server.stop()


def test_a_server_asked_for_a_taken_port_says_so(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        with pytest.raises(RuntimeError, match="server exited"):
            web.Server(str(tmp_path / "t.sqlite3"), tmp_path / "server.log", port=busy)
