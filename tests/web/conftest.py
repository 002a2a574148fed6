"""Fixtures of the web tests: an in-process app (TestClient), real server subprocesses,
a real PostgreSQL server started for the session."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

from subtable.web.app import Settings, create_app  # noqa: E402


def _pg_bin() -> Path:
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _pg_bin()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    """The app on a fresh SQLite file; bots think in a thread."""
    app = create_app(Settings(db=str(db_path), bot_workers=0, rate=10_000, burst=10_000))
    with TestClient(app) as c:
        yield c


def new_table(client: Any, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


#: a public Submarine table for Ana and one open seat (it waits for that person)
PUBLIC_PAIR: dict[str, Any] = {
    "game": "submarine",
    "players": 2,
    "seats": ["human", "human"],
    "names": ["Ana", None],
    "visibility": "public",
}


class Seat:
    """A scripted WebSocket client: records every frame it receives."""

    def __init__(
        self,
        ws: Any,
        table: str,
        token: str,
        *,
        last_seq: int | None = None,
        lang: str | None = None,
        render: str | None = None,
        name: str | None = None,
        last_chat: int | None = None,
    ) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        hello: dict[str, Any] = {
            "v": 1,
            "type": "hello",
            "table": table,
            "token": token,
            "last_seq": last_seq,
        }
        if lang is not None:
            hello["lang"] = lang
        if render is not None:
            hello["render"] = render
        if name is not None:
            hello["name"] = name
        if last_chat is not None:
            hello["last_chat"] = last_chat
        self.send(hello)
        self.welcome = self.recv()
        assert self.welcome["type"] == "welcome", self.welcome
        self.sync = self.recv()
        assert self.sync["type"] == "sync", self.sync
        self.state: dict[str, Any] = self.sync["state"]

    def send(self, msg: dict[str, Any] | str) -> None:
        self.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        self.raw.append(text)
        msg: dict[str, Any] = json.loads(text)
        self.frames.append(msg)
        if "state" in msg and msg["type"] in ("update", "sync"):
            self.state = msg["state"]
        return msg

    def act(self, action: int | str, seq: int | None = None) -> None:
        self.send(
            {
                "v": 1,
                "type": "action",
                "seq": self.state["seq"] if seq is None else seq,
                "action": action,
            }
        )


def align(seats: list[Seat]) -> None:
    """Bring every seat to the latest entry any of them has seen.

    Seats connect one after another while bots may already be playing: an early seat
    then has updates waiting that a later one received in its ``sync``.
    """
    target = max(s.state["seq"] for s in seats)
    for s in seats:
        while s.state["seq"] < target:
            msg = s.recv()
            assert msg["type"] == "update", msg


def play_out(
    seats: list[Seat], pick: Callable[[Seat], int | str], *, max_entries: int = 5_000
) -> None:
    """Drive a table to its end: the deciding human seat plays ``pick``; every seat reads
    exactly one update per entry (bots' entries included)."""
    for _ in range(max_entries):
        align(seats)
        state = seats[0].state
        if state["finished"]:
            return
        mover = next((s for s in seats if s.state["your_turn"]), None)
        order = seats
        if mover is not None:
            mover.act(pick(mover))
            order = [mover, *(s for s in seats if s is not mover)]
        for s in order:
            msg = s.recv()
            assert msg["type"] == "update", msg
    raise AssertionError("the game did not end")


@pytest.fixture
def connect(client: TestClient) -> Iterator[Callable[..., Seat]]:
    """Open scripted seats (closed at the end of the test)."""
    opened: list[Any] = []

    def _connect(table: str, token: str, **kw: Any) -> Seat:
        cm = client.websocket_connect("/ws")
        ws = cm.__enter__()
        opened.append(cm)
        return Seat(ws, table, token, **kw)

    yield _connect
    for cm in reversed(opened):
        with contextlib.suppress(Exception):
            cm.__exit__(None, None, None)


# -- real servers ---------------------------------------------------------------------
class Server:
    """A ``subtable serve`` subprocess on a free loopback port.

    Tests run side by side (pytest-xdist): a port found free may be taken by another process
    before this server binds it; the server then starts again on another free port.
    """

    def __init__(
        self, db: str, log: Path, port: int | None = None, extra: list[str] | None = None
    ) -> None:
        self.log = log
        self._out = open(log, "ab")  # noqa: SIM115
        for attempt in range(3):
            self._start(db, port or free_port(), extra or [])
            try:
                self.wait_ready()
                return
            except RuntimeError:
                taken = "address already in use" in log.read_text(errors="replace").lower()
                if port is not None or not taken or attempt == 2:
                    raise

    def _start(self, db: str, port: int, extra: list[str]) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}/ws"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "subtable",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                db,
                *extra,
            ],
            stdout=self._out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if json.load(r)["ok"]:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        req = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            data: dict[str, Any] = json.load(r)
            return data

    def get(self, path: str) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            data: dict[str, Any] = json.load(r)
            return data

    def kill9(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self._out.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        if not self._out.closed:
            self._out.close()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start real servers; every one is stopped at the end."""
    started: list[Server] = []

    def _start(db: str, port: int | None = None, extra: list[str] | None = None) -> Server:
        server = Server(db, tmp_path / f"server{len(started)}.log", port, extra)
        started.append(server)
        return server

    yield _start
    for server in started:
        server.stop()


def _pg_cmd(*args: str) -> list[str]:
    cmd = list(args)
    if os.geteuid() == 0:
        cmd = ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A real PostgreSQL server for the session (Debian's postgresql package): its URL
    without a database."""
    if not (PG_BIN / "initdb").exists():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL binaries missing: run .ci/web-setup.sh")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    base = Path(tempfile.mkdtemp(prefix="subtable-pg-"))
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    port = free_port()
    data = base / "data"
    subprocess.run(
        _pg_cmd(
            str(PG_BIN / "initdb"), "-A", "trust", "-U", "postgres", "--no-sync", "-D", str(data)
        ),
        check=True,
        capture_output=True,
    )
    subprocess.run(
        _pg_cmd(
            str(PG_BIN / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off",
            "-l",
            str(base / "pg.log"),
            "-w",
            "start",
        ),
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(
            _pg_cmd(str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"),
            capture_output=True,
        )
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """A database of its own for one test, on the session's PostgreSQL server: no test meets
    another's tables when its servers restore the unfinished ones."""
    name = f"t_{secrets.token_hex(6)}"
    port = pg_server.rsplit(":", 1)[1]
    subprocess.run(
        _pg_cmd(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", port, "-U", "postgres", name),
        check=True,
        capture_output=True,
    )
    return f"{pg_server}/{name}"


@pytest.fixture
def server(servers: Callable[..., Server], tmp_path: Path) -> Server:
    """One real server on a fresh SQLite file."""
    return servers(str(tmp_path / "t.sqlite3"))


# -- a browser ------------------------------------------------------------------------
#: where the screenshots go: $SUBTABLE_SCREENSHOTS (docs/screenshots to refresh the docs)
SHOTS = os.environ.get("SUBTABLE_SCREENSHOTS")


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """The folder the browser tests' screenshots go to."""
    out = Path(SHOTS) if SHOTS else tmp_path / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    return out


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-headless-shell")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (it cannot download a browser here)."""
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing: run .ci/web-setup.sh")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--no-sandbox",
            ],
        )
        yield b
        b.close()
