"""Refused input changes nothing and is answered 4xx: the home page's form, the lesson API's
moves, and a WebSocket ``hello`` refused after it named its player."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import new_table

from subtable.web.app import Settings, create_app


def _form(**fields: str) -> dict[str, str]:
    game = "red-november"
    base = {"game": game, "lang": "en", f"{game}-players": "2", f"{game}-seat0": "human"}
    return {**base, **{f"{game}-{k}": v for k, v in fields.items()}}


@pytest.mark.parametrize(
    "form",
    [
        {**_form(), "lang": "x" * 17},
        _form(name="N" * 65),
        _form(name="N" * 200),
        _form(mode="turn-based", turn_limit="100000001"),
    ],
    ids=["long-lang", "name-65", "name-200", "turn-limit"],
)
def test_the_home_form_refuses_with_a_page_not_a_500(client: TestClient, form: Any) -> None:
    r = client.post("/new", data=form)
    assert r.status_code == 400, r.text[:300]
    assert "text/html" in r.headers["content-type"]
    assert client.get("/api/lobby").json() == {"tables": []}


@pytest.mark.parametrize("move", ["²", "①", "1²", "٣", " ²"])
def test_the_lesson_api_refuses_unicode_digits(client: TestClient, move: str) -> None:
    url = "/api/learn/red-november/rn-first-turns"
    r = client.post(url, json={"move": move})
    assert r.status_code == 200, r.text[:300]
    assert r.json()["outcome"]["accepted"] is False
    r = client.post(url, json={"moves": [move]})
    assert r.status_code == 400, r.text[:300]
    assert r.json()["error"]["code"] == "bad_moves"


def test_a_refused_hello_stores_no_name(db_path: Path) -> None:
    settings = Settings(db=str(db_path), bot_workers=0, rate=10_000, burst=10_000)
    with TestClient(create_app(settings)) as c:
        data = new_table(c, game="red-november", players=2, seats=["human", "random"])
        table, token = data["id"], data["invites"][0]["token"]
        with c.websocket_connect("/ws") as ws:
            hello = {"v": 1, "type": "hello", "table": table, "token": token}
            ws.send_text(json.dumps({**hello, "name": "Bea"}))
            assert json.loads(ws.receive_text())["type"] == "welcome"
        with c.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({**hello, "name": "Zed", "last_seq": 10**6}))
            refused = json.loads(ws.receive_text())
            assert refused["type"] == "error" and refused["code"] == "bad_seq"
        people = c.get(f"/api/tables/{table}").json()["people"]
    with TestClient(create_app(settings)) as c:  # what the database kept
        assert c.get(f"/api/tables/{table}").json()["people"] == people
        assert "Zed" not in json.dumps(people) and "Bea" in json.dumps(people)


def test_the_api_reads_json_whatever_type_a_client_declares(client: TestClient) -> None:
    body = b'{"game": "submarine", "players": 2, "seats": ["human", "human"]}'
    form = {"content-type": "application/x-www-form-urlencoded"}  # what ``curl -d`` says
    assert client.post("/api/tables", content=body, headers=form).status_code == 201
    r = client.post("/api/tables", content=b"[" * 40 + b"]" * 40, headers=form)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"


def test_the_schema_declares_every_refusal_as_one_shape(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    join = paths["/api/tables/{table_id}/join"]["post"]
    assert {"400", "403", "404", "409", "413", "429"} <= set(join["responses"])
    assert all("422" not in op["responses"] for path in paths.values() for op in path.values())
    assert "requestBody" in paths["/api/learn/{game}/{lesson_id}"]["post"]
    r = client.post("/api/tables/x/join", json={"player": "one", "name": "Ana"})
    assert r.status_code == 400
    assert r.json() == {
        "error": {"code": "bad_request", "message": "player: Input should be a valid integer"}
    }
