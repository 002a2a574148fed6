"""The sealed table, tried as a hostile client would: each hole found once, closed.

``why`` answers only the asker's own decision; a finished game stays finished; every
request's work is bounded before it is done (player counts, bot parameters and search
budgets, body size, JSON depth, digits); cross-site forms and floods of tables are
refused; abandoned tables are closed and leave memory. (Private moves, the first hole,
are tested in ``test_information_sets.py`` and ``test_leak.py``; fair bots and worker
processes in ``test_bot_fairness.py``.)
"""

from __future__ import annotations

import json
import random
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import Seat, new_table, play_out

from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.web import live
from subtable.web.app import Settings, create_app
from subtable.web.limits import Limits
from subtable.words import game_ui
from subtable.words.undo import UndoLedger


def _app(tmp_path: Path, **limits: Any) -> TestClient:
    settings = Settings(
        db=str(tmp_path / "t.db"), bot_workers=0, rate=1e6, burst=1e6, limits=Limits(**limits)
    )
    return TestClient(create_app(settings))


# -- why ----------------------------------------------------------------------------------
def test_why_explains_only_the_askers_own_decision(client: Any, connect: Any) -> None:
    t = new_table(client, game="submarine", players=3, seats=["human"] * 3)
    seats = [connect(t["id"], i["token"]) for i in t["invites"]]
    watcher = connect(t["id"], t["spectator"]["token"])
    decider = next(s for s in seats if s.state["your_turn"])
    other = next(s for s in seats if not s.state["your_turn"])
    for asker, code in ((other, "not_your_turn"), (watcher, "spectator")):
        for probe in ("swap blue", "give red", "place 1"):
            asker.send({"v": 1, "type": "why", "action": probe})
            reply = asker.recv()
            assert reply["type"] == "error" and reply["code"] == code, reply
            # nothing about anybody's cards: no colour at all
            assert not any(c in json.dumps(reply) for c in ("red", "blue", "green", "yellow"))
    decider.send({"v": 1, "type": "why", "action": "place 1"})
    assert decider.recv()["type"] == "why"


# -- a finished game is final --------------------------------------------------------------
def _seed_with_an_undoable_last_move() -> tuple[int, list[int]]:
    """A seed and a game of Submarine (2 players) whose last move could be taken back."""
    game = make_game("submarine", players=2)
    ui = game_ui(game)
    for seed in range(1, 400):
        state = game.new_state(seed)
        ledger = UndoLedger(ui.hidden_counts)
        rng = Rng(seed)
        moves: list[int] = []
        while not state.is_terminal():
            ids = state.legal_action_ids()
            move = ids[rng.below(len(ids))]
            before = ledger.before(state)
            seat = state.current_seat()
            assert seat is not None
            events = state.apply(move)
            ledger.after(before, state, events, seat=seat, action="", undoable=True, log_size=0)
            moves.append(move)
        if len(ledger):
            return seed, moves
    raise AssertionError("no such game in 400 seeds")


def test_a_finished_game_is_final(client: Any, connect: Any, monkeypatch: Any) -> None:
    seed, moves = _seed_with_an_undoable_last_move()
    monkeypatch.setattr(live.secrets, "randbits", lambda _bits: seed)
    t = new_table(client, game="submarine", players=2, seats=["human", "human"])
    seats = [connect(t["id"], i["token"]) for i in t["invites"]]
    queue = list(moves)
    play_out(seats, lambda _s: queue.pop(0))
    last = next(s for s in seats if s.frames[-1]["entry"]["seat"] in s.welcome["seats"])
    assert not last.state["can_undo"]
    record = client.get(f"/api/tables/{t['id']}/record").json()
    last.send({"v": 1, "type": "undo", "seq": last.state["seq"]})
    reply = last.recv()
    assert reply["type"] == "error" and reply["code"] == "game_over", reply
    for seat in seats:
        seat.send({"v": 1, "type": "action", "seq": seat.state["seq"], "action": 0})
        assert seat.recv()["code"] == "game_over"
    assert client.get(f"/api/tables/{t['id']}/record").json() == record
    assert client.get(f"/api/tables/{t['id']}").json()["finished"] is True


# -- bounded work --------------------------------------------------------------------------
def test_the_form_checks_the_player_count_before_building_anything(client: Any) -> None:
    tracemalloc.start()
    try:
        r = client.post(
            "/new", data={"game": "submarine", "submarine-players": "10000000", "lang": "en"}
        )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r.status_code == 400 and "players" in r.text
    assert peak < 8 * 2**20, f"{peak / 2**20:.0f} MiB for one form"


@pytest.mark.parametrize(
    ("spec", "param"),
    [
        ("ismcts:c=abc", "c"),
        ("ismcts:budget=1e999", "budget"),
        ("ismcts:budget=nan", "budget"),
        ("ismcts:budget=²", "budget"),
        ("ismcts:width=-1", "width"),
        ("heuristic:horizon=abc", "horizon"),
        ("ismcts:budget=1000000000", "budget"),
        ("agent:path=/etc/passwd", "path"),
    ],
)
def test_bot_parameters_are_checked_before_a_table_is_made(
    client: Any, spec: str, param: str
) -> None:
    before = len(client.app.state.manager.tables)
    r = client.post(
        "/api/tables", json={"game": "red-november", "players": 3, "seats": ["human", spec, spec]}
    )
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == "bad_bot_param" and param in error["message"], error
    assert len(client.app.state.manager.tables) == before


def test_the_budget_ceiling_is_the_servers_setting(tmp_path: Path) -> None:
    with _app(tmp_path, max_budget=50) as client:
        body = {"game": "submarine", "players": 2, "seats": ["human", "ismcts:budget=51"]}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400 and "50" in r.json()["error"]["message"]
        body["seats"] = ["human", "ismcts:budget=50"]
        assert client.post("/api/tables", json=body).status_code == 201


@pytest.mark.parametrize(
    "path",
    [
        "/t/{id}?pace=²",
        "/t/{id}?pace=99999999999999999999999999",
        "/replay/{id}?seat=²",
        "/replay/{id}?step=٣",
        "/replay/{id}?step=" + "9" * 5000,
        "/replay/{id}?seat=1&step=１",
    ],
)
def test_digits_are_ascii_digits(client: Any, connect: Any, path: str) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "human"])
    seats = [connect(t["id"], i["token"]) for i in t["invites"]]
    rng = random.Random(1)
    play_out(seats, lambda s: rng.choice(s.state["legal"])["id"])
    r = client.get(path.format(id=t["id"]))
    assert r.status_code == 200, (path, r.status_code)


def test_unicode_digits_in_the_form_are_refused(client: Any) -> None:
    r = client.post("/new", data={"game": "submarine", "submarine-players": "²", "lang": "en"})
    assert r.status_code in (200, 400) and r.status_code < 500


def test_deep_json_and_large_bodies(client: Any) -> None:
    deep = "[" * 20_000 + "]" * 20_000
    r = client.post("/api/tables", content=deep, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    huge = json.dumps({"game": "x" * (2 * 2**20)})
    r = client.post("/api/tables", content=huge, headers={"content-type": "application/json"})
    assert r.status_code == 413 and len(r.content) < 300
    r = client.post("/new", content=b"game=" + b"y" * 2**20)
    assert r.status_code == 413 and b"yyyy" not in r.content
    # a long key is named, not echoed whole
    body = {"game": "submarine", "options": {"k" * 60: 1}}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400 and len(r.content) < 600


def test_the_version_is_exactly_the_integer_one(client: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        for v in ("true", "1.0", '"1"', "2"):
            ws.send_text('{"type": "ping", "v": ' + v + "}")
            reply = json.loads(ws.receive_text())
            assert reply["type"] == "error" and reply["code"] == "bad_version", (v, reply)
        ws.send_text('{"type": "ping", "v": 1}')
        assert json.loads(ws.receive_text())["type"] == "pong"


def test_binary_frames_count_against_the_rate_limit(tmp_path: Path) -> None:
    app = create_app(Settings(db=str(tmp_path / "t.db"), bot_workers=0, rate=0.01, burst=3))
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        codes = []
        for _ in range(6):
            ws.send_bytes(b"\x00" * 10)
            codes.append(json.loads(ws.receive_text())["code"])
        assert codes == ["binary"] * 3 + ["rate_limited"] * 3


# -- cross-site requests and floods --------------------------------------------------------
def test_cross_site_requests_cannot_open_tables(client: Any) -> None:
    form = {"game": "submarine", "submarine-players": "2", "lang": "en"}
    body = {"game": "submarine", "players": 2}
    evil = "http://evil.example"
    assert client.post("/new", data=form, headers={"origin": evil}).status_code == 403
    assert client.post("/new", data=form, headers={"referer": evil + "/x"}).status_code == 403
    assert client.post("/api/tables", json=body, headers={"origin": evil}).status_code == 403
    assert len(client.app.state.manager.tables) == 0
    own = "http://testserver"
    assert client.post("/new", data=form, headers={"origin": own}).status_code == 200
    assert client.post("/api/tables", json=body, headers={"origin": own}).status_code == 201


def test_table_creation_is_rate_limited_and_capped(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "c").mkdir()
    body = {"game": "submarine", "players": 2}
    with _app(tmp_path, tables_per_minute=3) as client:
        codes = [client.post("/api/tables", json=body).status_code for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
        form = {"game": "submarine", "submarine-players": "2", "lang": "en"}
        assert client.post("/new", data=form).status_code == 429
    with _app(tmp_path / "b", max_tables_per_client=2) as client:
        codes = [client.post("/api/tables", json=body).status_code for _ in range(3)]
        assert codes == [201, 201, 429]
        assert client.post("/api/tables", json=body).json()["error"]["code"] == "too_many_tables"
    with _app(tmp_path / "c", max_tables=1) as client:
        codes = [client.post("/api/tables", json=body).status_code for _ in range(2)]
        assert codes == [201, 429]


def test_abandoned_tables_are_closed_and_leave_memory(tmp_path: Path) -> None:
    with _app(tmp_path, abandon_after=3600, evict_after=60) as client:
        manager = client.app.state.manager
        t = new_table(client, game="submarine", players=2, seats=["human", "human"])
        busy = new_table(client, game="submarine", players=2, seats=["human", "human"])
        table = manager.tables[t["id"]]
        table.active -= 3601
        manager.tables[busy["id"]].active -= 1800
        assert client.portal.call(manager.sweep) == (1, 1)
        assert t["id"] not in manager.tables and busy["id"] in manager.tables
        status = client.get(f"/api/tables/{t['id']}").json()
        assert status["closed"] == "abandoned"
        record = client.get(f"/api/tables/{t['id']}/record").json()
        assert record["meta"]["closed"] == "abandoned" and record["result"] is None
        with client.websocket_connect("/ws") as ws:
            seat = Seat(ws, t["id"], t["invites"][0]["token"])
            seat.act(seat.state["legal"][0]["id"] if seat.state["legal"] else 0)
            assert seat.recv()["code"] in ("table_closed", "not_your_turn")
    # a restart does not bring it back to life
    with _app(tmp_path) as client:
        manager = client.app.state.manager
        assert t["id"] not in manager.tables and busy["id"] in manager.tables


# -- no 500 for anything ---------------------------------------------------------------------
@pytest.mark.slow
def test_http_fuzz_never_answers_500(client: Any, connect: Any) -> None:
    rng = random.Random(20261125)
    t = new_table(client, game="submarine", players=2, seats=["human", "human"])
    seats = [connect(t["id"], i["token"]) for i in t["invites"]]
    play_out(seats, lambda s: rng.choice(s.state["legal"])["id"])
    values = ["", "²", "٣", "１", "-1", "1e999", "nan", "9" * 50, "%00", "%FF", "a" * 300, "0"]
    paths = ["/", "/t/{id}", "/replay/{id}", "/api/tables/{id}", "/api/tables/{id}/record"]
    keys = ["lang", "pace", "seat", "step", "x"]
    bodies: list[bytes] = [
        b"",
        b"{",
        b"\xff\xfe",
        b"[" * 40 + b"]" * 40,
        b'{"game": "submarine", "players": 1e999}',
        b'{"game": "submarine", "players": NaN}',
        b'{"game": "submarine", "seats": ["ismcts:budget=\xc2\xb2"]}',
        json.dumps({"game": "red-november", "options": {"greater_challenge": "²"}}).encode(),
        json.dumps({"game": "red-november", "gnomes": 10**9}).encode(),
    ]
    for _ in range(300):
        if rng.random() < 0.5:
            path = rng.choice(paths).format(id=rng.choice([t["id"], "nope", "é" * 70]))
            query = "&".join(f"{rng.choice(keys)}={rng.choice(values)}" for _ in range(2))
            r = client.get(f"{path}?{query}")
        elif rng.random() < 0.5:
            r = client.post("/api/tables", content=rng.choice(bodies))
        else:
            fields = {
                "game": rng.choice(["submarine", "red-november", "²", ""]),
                f"{rng.choice(['submarine', 'red-november'])}-players": rng.choice(values),
                "red-november-gnomes": rng.choice(values),
                "lang": rng.choice(["fr", "xx", "²"]),
            }
            r = client.post("/new", data=fields)
        assert r.status_code < 500, (r.request.url, r.status_code)
