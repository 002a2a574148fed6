"""A seeded fuzz of WebSocket frames: every message type, well formed then broken (a field
of the wrong type, one too many, a wrong version or type), JSON that is no object, text
that is no JSON. Each broken frame is answered with an error frame, the connection lives
on, and nothing reaches the database."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.web.conftest import new_table

from subtable.web.app import Settings, create_app

#: one well-formed message of each type (a seated player's)
WELL_FORMED: dict[str, dict[str, Any]] = {
    "hello": {"table": "t", "token": "k", "last_seq": 0, "lang": "en", "name": "Ana"},
    "action": {"seq": 0, "action": 0, "seat": 0},
    "undo": {"seq": 0},
    "why": {"action": "x"},
    "chat": {"text": "hello"},
    "name": {"name": "Bea"},
    "hint": {"seat": 0},
    "ping": {},
}
ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=False),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.text(max_size=80),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
TABLES = ("tables", "entries", "player_names", "chat", "seat_tokens", "advice_asked")


@st.composite
def broken_message(draw: st.DrawFn) -> str:
    """A message of some type made wrong in one way."""
    kind = draw(st.sampled_from(sorted(WELL_FORMED)))
    msg: dict[str, Any] = {"v": 1, "type": kind, **WELL_FORMED[kind]}
    how = draw(st.sampled_from(["extra", "field", "version", "type"]))
    if how == "extra":
        msg[draw(st.text(min_size=1, max_size=12).filter(lambda k: k not in msg))] = draw(
            ODD_VALUES
        )
    elif how == "field" and len(msg) > 2:
        key = draw(st.sampled_from(sorted(set(msg) - {"v", "type"})))
        msg[key] = draw(
            st.one_of(
                st.lists(st.integers(), max_size=3),
                st.dictionaries(st.text(max_size=3), st.none(), max_size=2),
            )
        )
    elif how == "version":
        msg["v"] = draw(ODD_VALUES.filter(lambda v: not (type(v) is int and v == 1)))
    else:
        msg["type"] = draw(
            ODD_VALUES.filter(lambda t: not isinstance(t, str) or t not in WELL_FORMED)
        )
    return json.dumps(msg)


FRAMES = st.one_of(
    broken_message(),
    st.text(max_size=200).map(lambda t: "{" + t),  # not JSON, or an object of no type
    st.one_of(st.lists(ODD_VALUES, max_size=4), ODD_VALUES).map(json.dumps),  # no object
    st.just("[" * 200 + "]" * 200),  # nested deeper than a message may be
)


def _stored(db: Path) -> dict[str, list[Any]]:
    with sqlite3.connect(db) as conn:
        return {t: sorted(map(repr, conn.execute(f"SELECT * FROM {t}"))) for t in TABLES}


@pytest.fixture(scope="module")
def seated(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[TestClient, Path, dict[str, Any]]]:
    db = tmp_path_factory.mktemp("socket") / "tables.sqlite3"
    app = create_app(Settings(db=str(db), bot_workers=0, rate=10_000, burst=10_000))
    with TestClient(app) as client:
        table = new_table(
            client, game="submarine", players=2, seats=["human", "human"], names=["Ana", "Bea"]
        )
        yield client, db, table


def _reply(ws: Any) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(ws.receive_text())
    return frame


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(before=st.lists(FRAMES, max_size=3), after=st.lists(FRAMES, min_size=1, max_size=6))
def test_broken_frames_get_an_error_and_write_nothing(
    seated: tuple[TestClient, Path, dict[str, Any]], before: list[str], after: list[str]
) -> None:
    client, db, table = seated
    stored = _stored(db)
    hello = {"v": 1, "type": "hello", "table": table["id"], "token": table["invites"][0]["token"]}
    with client.websocket_connect("/ws") as ws:
        for frame in before:  # before hello: refused too, and the seat is still free
            ws.send_text(frame)
            assert _reply(ws)["type"] == "error", frame
        ws.send_text(json.dumps(hello))
        assert _reply(ws)["type"] == "welcome"
        assert _reply(ws)["type"] == "sync"
        for frame in after:
            ws.send_text(frame)
            reply = _reply(ws)
            assert reply["type"] == "error" and reply["code"], (frame, reply)
        ws.send_text('{"v": 1, "type": "ping"}')
        assert _reply(ws)["type"] == "pong"
    assert _stored(db) == stored


def test_a_refused_hello_of_every_kind_writes_nothing(
    seated: tuple[TestClient, Path, dict[str, Any]],
) -> None:
    client, db, table = seated
    stored = _stored(db)
    token = table["invites"][1]["token"]
    good = {"v": 1, "type": "hello", "table": table["id"], "token": token, "name": "Zed"}
    refusals = [
        {**good, "last_seq": 10**6},
        {**good, "lang": "xx"},
        {**good, "token": "nope"},
        {**good, "table": "nope"},
        {**good, "name": ""},
        {**good, "name": "a\u202eb"},
        {**good, "name": "N" * 25},
    ]
    with client.websocket_connect("/ws") as ws:
        for hello in refusals:
            ws.send_text(json.dumps(hello))
            assert _reply(ws)["type"] == "error", hello
    assert _stored(db) == stored
