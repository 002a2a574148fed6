"""A public table waits for its people: no move until every person's seat is claimed, then
it begins by itself; the person who opened it may start it sooner, bots taking the open
seats; a server restarted meanwhile keeps it waiting."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.engine import Connection
from tests.web.conftest import Seat, new_table

from subtable.bots.levels import declared_levels
from subtable.web import dbengine
from subtable.web.app import Settings, create_app
from subtable.web.db import Store, make_engine, migrate, normalize_url
from subtable.web.limits import Limits
from subtable.web.live import Manager


def _app(db: Path) -> TestClient:
    limits = Limits(tables_per_minute=1_000, max_tables_per_client=1_000)
    settings = Settings(db=str(db), bot_workers=0, rate=1e6, burst=1e6, limits=limits)
    return TestClient(create_app(settings))


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with _app(tmp_path / "t.sqlite3") as client:
        yield client


@contextlib.contextmanager
def _seat(client: TestClient, table: str, token: str, **hello: Any) -> Iterator[Seat]:
    with client.websocket_connect("/ws") as ws:
        yield Seat(ws, table, token, **hello)


def _manager(client: TestClient) -> Manager:
    manager: Manager = client.app.state.manager  # type: ignore[attr-defined]
    return manager


def _public(client: TestClient, seats: list[str], **body: Any) -> dict[str, Any]:
    names = ["Ana"] + [None] * (len(seats) - 1)
    return new_table(
        client,
        game="submarine",
        players=len(seats),
        seats=seats,
        names=names,
        visibility="public",
        **body,
    )


def _bot_first(client: TestClient) -> dict[str, Any]:
    """A public table (Ana, an open seat, a bot) whose first decision is the bot's."""
    for _ in range(40):
        t = _public(client, ["human", "human", "heuristic"])
        if client.get(f"/api/tables/{t['id']}").json()["deciding_player"] == 2:
            return t
    raise AssertionError("the bot never decided first")


def _status(client: TestClient, table: str) -> dict[str, Any]:
    status: dict[str, Any] = client.get(f"/api/tables/{table}").json()
    return status


def _until_begun(seat: Seat) -> dict[str, Any]:
    """Read ``seat``'s frames until one shows the table begun."""
    for _ in range(20):
        frame = seat.recv()
        if "state" in frame and frame["state"]["waiting"] is None:
            return frame
    raise AssertionError("the table never began")


def test_a_waiting_table_makes_no_move_and_lets_nobody_act(app: TestClient) -> None:
    t = _bot_first(app)
    status = _status(app, t["id"])
    assert status["waiting"] == {"open": [1], "host": 0}
    table = _manager(app).tables[t["id"]]
    assert table.bot_task is None and table.seq == 0  # the bot, deciding, does not think
    with _seat(app, t["id"], t["invites"][0]["token"], lang="fr") as ana:
        state = ana.state
        assert state["waiting"] == {"open": [1], "host": 0}
        assert not state["your_turn"] and state["legal"] == []
        ana.act("pass", seq=0)
        refused = ana.recv()
        assert refused["type"] == "error" and refused["code"] == "waiting"
        assert refused["why"] == "La partie n’a pas commencé : la table attend ses joueurs."
        ana.send({"v": 1, "type": "undo", "seq": 0})
        assert ana.recv()["code"] == "waiting"
    with _seat(app, t["id"], t["spectator"]["token"]) as watcher:  # spectators see it wait
        assert watcher.state["waiting"] == {"open": [1], "host": 0}
    assert _status(app, t["id"])["seq"] == 0
    listed = app.get("/api/lobby").json()["tables"]
    assert [x["started"] for x in listed if x["id"] == t["id"]] == [False]
    assert "Waits for 1 person to begin" in app.get("/lobby?lang=en").text
    # "your tables" on Ana's home page: not her turn, the table waits for one person
    ref = {"table": t["id"], "token": t["invites"][0]["token"]}
    (mine,) = app.post("/api/seats", json={"seats": [ref]}).json()["seats"]
    assert mine["waiting"] == 1 and mine["your_turn"] is False


def test_the_last_claim_begins_the_table(app: TestClient) -> None:
    t = _bot_first(app)
    with _seat(app, t["id"], t["invites"][0]["token"]) as ana:
        r = app.post(f"/api/tables/{t['id']}/join", json={"player": 1, "name": "Bea"})
        assert r.status_code == 201, r.text
        begun = _until_begun(ana)
        assert begun["type"] == "people" and begun["people"] == ["Ana", "Bea", None]
        # the bot decides first: now it plays
        assert ana.recv()["type"] == "update"
    assert _status(app, t["id"])["waiting"] is None


def test_the_host_starts_now_and_bots_take_the_open_seats(app: TestClient) -> None:
    t = _public(app, ["human", "human", "human"])
    with _seat(app, t["id"], t["invites"][0]["token"]) as ana:
        assert ana.state["waiting"] == {"open": [1, 2], "host": 0}
        ana.send({"v": 1, "type": "start"})
        begun = _until_begun(ana)
        assert begun["type"] == "people"
        normal = declared_levels("submarine")["normal"]
        players = _status(app, t["id"])["players"]
        assert [p["bot"] for p in players] == [None, normal, normal]
        if begun["state"]["your_turn"]:  # Ana may play now
            ana.act(begun["state"]["legal"][0]["id"])
        assert ana.recv()["type"] == "update"  # Ana's move, or a bot's
        ana.send({"v": 1, "type": "start"})  # begun already
        while (frame := ana.recv())["type"] != "error":
            pass
        assert frame["code"] == "started"
    assert app.get("/api/lobby").json()["tables"] == []  # no open seat: off the lobby


def test_only_the_host_may_start_now(app: TestClient) -> None:
    t = _public(app, ["human", "human", "human"])
    bea = app.post(f"/api/tables/{t['id']}/join", json={"player": 1, "name": "Bea"}).json()
    with (
        _seat(app, t["id"], bea["token"], lang="it") as seat,
        _seat(app, t["id"], t["spectator"]["token"]) as watcher,
    ):
        for who in (seat, watcher):
            who.send({"v": 1, "type": "start"})
            refused = who.recv()
            assert refused["type"] == "error" and refused["code"] == "not_host", refused
            assert "player 1" in refused["message"]
        assert refused["why"].startswith("Only the person who opened this table may start it")
        assert seat.frames[-1]["why"].startswith("Solo chi ha aperto questo tavolo")
    status = _status(app, t["id"])  # nothing changed
    assert status["waiting"] == {"open": [2], "host": 0}
    assert [p["controller"] for p in status["players"]] == ["human"] * 3
    assert _manager(app).tables[t["id"]].bot_task is None


def test_a_restarted_server_keeps_a_waiting_table_waiting(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    with _app(db) as client:
        t = _bot_first(client)
    with _app(db) as client:
        assert _manager(client).tables[t["id"]].waiting  # restored at start-up, waiting
        assert _status(client, t["id"])["waiting"] == {"open": [1], "host": 0}
        assert _manager(client).tables[t["id"]].bot_task is None
        client.post(f"/api/tables/{t['id']}/join", json={"player": 1, "name": "Bea"})
        assert _status(client, t["id"])["waiting"] is None
    with _app(db) as client:  # and once begun, begun for good
        assert _status(client, t["id"])["waiting"] is None
        with _seat(client, t["id"], t["invites"][0]["token"]) as ana:
            assert ana.state["waiting"] is None


def test_private_solo_and_full_public_tables_begin_at_once(app: TestClient) -> None:
    tables = [
        new_table(app, game="submarine", players=2, seats=["human", "human"]),  # invitations
        new_table(app, game="submarine", players=2, seats=["human", "random"]),
        _public(app, ["human", "heuristic"]),
        new_table(
            app,
            game="submarine",
            players=2,
            seats=["human", "human"],
            names=["Ana", "Bea"],
            visibility="public",
        ),
    ]
    for t in tables:
        assert _status(app, t["id"])["waiting"] is None
        assert not _manager(app).tables[t["id"]].waiting


def _before_waiting(conn: Connection) -> None:
    """The schema as it was before tables waited for their people (revision 0004)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(dbengine.__file__).parent / "migrations"))
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, "0004")


async def _old_table_upgraded(url: str) -> tuple[bool, int | None]:
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_before_waiting)
            await conn.execute(
                text(
                    "INSERT INTO tables (id, game, options, seed, controllers, lang, "
                    "spectator_hash, created_at, finished, visibility) VALUES ('old', "
                    "'submarine', '{}', 1, '[\"human\", \"human\"]', 'en', 'x', 0, false, "
                    "'public')"
                )
            )
        await migrate(engine)
        store = Store(engine, url)
        row = await store.load_table("old")
        store.close()
        assert row is not None
        return row.started, row.host
    finally:
        await engine.dispose()


def test_a_table_opened_before_tables_waited_has_begun(tmp_path: Path) -> None:
    url = normalize_url(str(tmp_path / "t.sqlite3"))
    with ThreadPoolExecutor(1) as pool:  # away from any event loop a browser test left
        started, host = pool.submit(asyncio.run, _old_table_upgraded(url)).result()
    assert started is True and host is None
