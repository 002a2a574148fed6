"""Behind a reverse proxy: with ``--forwarded-allow-ips`` the per-address limits count the
visitor the proxy names; without it (or from another address) forwarded headers are
ignored and a forged one gains nothing."""

from __future__ import annotations

import json
import socket
import socketserver
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import Server

from subtable.web.app import Settings, create_app
from subtable.web.limits import Limits

BODY = {"game": "submarine", "players": 2, "seats": ["human", "human"]}


class _Proxy(socketserver.ThreadingTCPServer):
    """A reverse proxy in a few lines: it passes each request on to ``upstream`` with an
    ``X-Forwarded-For`` naming its visitor (here: the ``X-Visitor`` the test sends, as if
    each came from its own address), as nginx's ``$proxy_add_x_forwarded_for`` does."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        super().__init__(("127.0.0.1", 0), _Relay)


class _Relay(socketserver.StreamRequestHandler):
    server: _Proxy

    def handle(self) -> None:
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.request.recv(65_536)
            if not chunk:
                return
            head += chunk
        top, _, rest = head.partition(b"\r\n\r\n")
        lines = top.split(b"\r\n")
        visitor = next(
            (ln.split(b":", 1)[1].strip() for ln in lines if ln.lower().startswith(b"x-visitor:")),
            b"198.51.100.1",
        )
        forwarded = [ln for ln in lines if not ln.lower().startswith(b"x-forwarded-for:")]
        request = b"\r\n".join([*forwarded, b"X-Forwarded-For: " + visitor]) + b"\r\n\r\n" + rest
        with socket.create_connection(("127.0.0.1", self.server.upstream)) as up:
            up.sendall(request)
            up.settimeout(1.0)  # a body larger than the first read: pass the rest on
            self.request.settimeout(0.2)
            try:
                while more := self.request.recv(65_536):
                    up.sendall(more)
            except TimeoutError:
                pass
            up.settimeout(10.0)
            while data := up.recv(65_536):
                self.request.sendall(data)


@pytest.fixture
def proxy() -> Iterator[Callable[[int], str]]:
    started: list[_Proxy] = []

    def _start(upstream: int) -> str:
        server = _Proxy(upstream)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield _start
    for server in started:
        server.shutdown()
        server.server_close()


def _open(url: str, visitor: str) -> int:
    req = urllib.request.Request(
        url + "/api/tables",
        data=json.dumps(BODY).encode(),
        headers={"Content-Type": "application/json", "X-Visitor": visitor, "Connection": "close"},
    )
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            status: int = r.status
            return status
    except urllib.error.HTTPError as exc:
        return exc.code


@pytest.mark.server
def test_the_limits_count_the_visitor_the_proxy_names(
    servers: Callable[..., Server], proxy: Callable[[int], str], tmp_path: Path
) -> None:
    trusted = servers(
        str(tmp_path / "a.db"),
        extra=["--tables-per-minute", "2", "--forwarded-allow-ips", "127.0.0.1"],
    )
    front = proxy(trusted.port)
    assert [_open(front, "203.0.113.7") for _ in range(3)] == [201, 201, 429]
    assert _open(front, "203.0.113.8") == 201  # another visitor has an allowance of its own
    ignored = servers(str(tmp_path / "b.db"), extra=["--tables-per-minute", "2"])
    front = proxy(ignored.port)
    codes = [_open(front, visitor) for visitor in ("203.0.113.7", "203.0.113.8", "203.0.113.9")]
    assert codes == [201, 201, 429]  # without the flag everyone is the proxy


def _client(tmp_path: Path, trusted: tuple[str, ...]) -> TestClient:
    limits = Limits(tables_per_minute=2)
    settings = Settings(
        db=str(tmp_path / "t.db"), bot_workers=0, limits=limits, forwarded_allow_ips=trusted
    )
    return TestClient(create_app(settings))


@pytest.mark.parametrize("trusted", [(), ("10.9.9.9",)], ids=["no-flag", "another-proxy"])
def test_a_forged_forwarded_header_gains_nothing(tmp_path: Path, trusted: tuple[str, ...]) -> None:
    with _client(tmp_path, trusted) as client:
        codes = [
            client.post("/api/tables", json=BODY, headers={"x-forwarded-for": f"192.0.2.{n}"})
            for n in range(3)
        ]
        assert [r.status_code for r in codes] == [201, 201, 429]


def test_a_trusted_proxy_names_the_client_and_its_scheme(tmp_path: Path) -> None:
    with _client(tmp_path, ("*",)) as client:
        headers: dict[str, Any] = {"x-forwarded-for": "192.0.2.1", "x-forwarded-proto": "https"}
        first = client.post("/api/tables", json=BODY, headers=headers)
        assert first.status_code == 201
        assert first.json()["invites"][0]["url"].startswith("https://")
        assert first.json()["ws"].startswith("wss://")
        codes = [
            client.post(
                "/api/tables", json=BODY, headers={"x-forwarded-for": f"192.0.2.{n}"}
            ).status_code
            for n in range(2, 5)
        ]
        assert codes == [201, 201, 201]
