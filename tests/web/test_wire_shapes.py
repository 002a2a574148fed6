"""The typed shapes of what the server sends (``subtable.web.wire``) are the JSON on the
wire: every key, its type, and the order the keys are written in."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError
from tests.web.conftest import PUBLIC_PAIR, Seat, new_table, play_out

from subtable.web import lessonjson, wire


def _matches(shape: Any, data: Any) -> None:
    """``data`` has ``shape``'s keys in their declared order (optional ones may be absent)
    and its values validate strictly (an int is no str, nor a str an int)."""
    TypeAdapter(shape).validate_python(data, strict=True)
    declared = list(shape.__annotations__)
    assert list(data) == [k for k in declared if k in data]


def test_a_wrong_value_type_does_not_pass() -> None:
    row = {"table": "t", "error": "no_table"}
    _matches(wire.SeatRefused, row)
    with pytest.raises(ValidationError):
        _matches(wire.SeatRefused, {**row, "error": "gone"})
    with pytest.raises(AssertionError):
        _matches(wire.SeatRefused, {"error": "no_table", "table": "t"})


def test_the_api_answers_have_their_shapes(client: Any) -> None:
    t = new_table(client, **PUBLIC_PAIR)
    _matches(wire.Status, t["status"])
    _matches(wire.Status, client.get(f"/api/tables/{t['id']}").json())
    (table,) = client.get("/api/lobby").json()["tables"]
    _matches(wire.LobbyTable, table)
    for seat in table["seats"]:
        _matches(wire.LobbySeat, seat)
    token = t["invites"][0]["token"]
    refs = [{"table": t["id"], "token": token}, {"table": t["id"], "token": "x" * 40}]
    mine, refused = client.post("/api/seats", json={"seats": refs}).json()["seats"]
    _matches(wire.SeatNow, mine)
    _matches(wire.SeatRefused, refused)


def test_the_frames_state_has_its_shape(client: Any, connect: Callable[..., Seat]) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "random"])
    seat = connect(t["id"], t["invites"][0]["token"], render="html")
    _matches(wire.StateJson, seat.state)
    _matches(wire.StateHtml, seat.state["html"])
    for legal in seat.state["legal"]:
        _matches(wire.LegalAction, legal)
    rng = random.Random(5)
    play_out([seat], lambda s: rng.choice(s.state["legal"])["id"])
    _matches(wire.StateJson, seat.state)
    _matches(wire.OutcomeJson, seat.state["outcome"])
    status = client.get(f"/api/tables/{t['id']}").json()
    _matches(wire.Status, status)
    _matches(wire.OutcomeJson, status["outcome"])
    stages = [f["entry"]["stage"] for f in seat.frames if f["type"] == "update"]
    for stage in stages:
        _matches(wire.StageJson, stage)


def test_a_lesson_answer_has_its_shape(client: Any) -> None:
    url = "/api/learn/red-november/rn-first-turns"
    first = client.post(url, json={}).json()
    _matches(lessonjson.LessonState, first)
    tried = client.post(url, json={"move": 1}).json()
    _matches(lessonjson.LessonState, tried)
    _matches(lessonjson.TriedJson, tried["outcome"])
    for played in tried["outcome"]["played"]:
        _matches(lessonjson.PlayedJson, played)
