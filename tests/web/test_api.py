"""The HTTP API: health, creating tables (with the CLI's messages), status, records."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from tests.web.conftest import Seat, new_table, play_out
from typer.testing import CliRunner

from subtable.cli import app as cli
from subtable.core.record import GameRecord, replay


def test_healthz(client: Any) -> None:
    data = client.get("/healthz").json()
    assert data["ok"] is True and data["protocol"] == 1 and data["db"] == "sqlite"


def test_create_gives_one_invite_per_human_and_a_spectator_link(client: Any) -> None:
    t = new_table(
        client,
        game="red-november",
        players=4,
        seats=["human", "heuristic", "human", "random"],
        lang="fr",
    )
    assert [i["player"] for i in t["invites"]] == [0, 2]
    tokens = [i["token"] for i in t["invites"]] + [t["spectator"]["token"]]
    assert len(set(tokens)) == 3 and all(len(tok) >= 40 for tok in tokens)
    assert all(i["url"].endswith(f"/t/{t['id']}#{i['token']}") for i in t["invites"])
    assert t["lang"] == "fr"
    status = client.get(f"/api/tables/{t['id']}").json()
    assert status["game"] == "red-november" and status["finished"] is False
    assert [p["taken"] for p in status["players"]] == [False, True, False, True]
    assert "seed" not in json.dumps(status) and "seed" not in json.dumps(t)


def _cli_error(args: list[str]) -> str:
    result = CliRunner().invoke(cli, ["play", *args], env={"LANG": "C"})
    assert result.exit_code == 2
    return " ".join(result.output.split())


def test_option_and_seat_errors_have_the_cli_messages(client: Any) -> None:
    cases: list[tuple[dict[str, Any], list[str]]] = [
        (
            {"game": "red-november", "players": 4, "options": {"bogus": True}},
            ["red-november", "--players", "4", "--option", "bogus"],
        ),
        (
            {"game": "red-november", "players": 4, "options": {"greater_challenge": 5}},
            ["red-november", "--players", "4", "--option", "greater_challenge=5"],
        ),
        (
            {"game": "red-november", "players": 4, "seats": ["human", "bot"]},
            ["red-november", "--players", "4", "--seats", "human,bot"],
        ),
        (
            {"game": "submarine", "players": 3, "seats": ["human", "nobody", "bot"]},
            ["submarine", "--players", "3", "--seats", "human,nobody,bot"],
        ),
        ({"game": "chess"}, ["chess"]),
        ({"game": "submarine", "players": 9}, ["submarine", "--players", "9"]),
        ({"game": "submarine", "gnomes": 3}, ["submarine", "--gnomes", "3"]),
    ]
    for body, args in cases:
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400, (body, r.text)
        message = r.json()["error"]["message"]
        assert " ".join(message.split()) in _cli_error(args), (message, args)


def test_bad_bodies_are_4xx(client: Any) -> None:
    assert client.post("/api/tables", content=b"{nope").status_code == 400
    assert client.post("/api/tables", json=[1]).status_code == 400
    assert client.post("/api/tables", json={"game": 3}).status_code == 400
    r = client.post("/api/tables", json={"game": "submarine", "lang": "xx"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_lang"
    r = client.post(
        "/api/tables", json={"game": "submarine", "players": 2, "seats": ["human", "ismcts:ms=100"]}
    )
    assert r.status_code == 400 and "budget" in r.json()["error"]["message"]
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/api/tables/nope/record").status_code == 404


def test_record_only_when_over_and_replay_verifies_it(
    client: Any, connect: Any, tmp_path: Path
) -> None:
    t = new_table(client, game="submarine", players=3, seats=["human", "heuristic", "human"])
    r = client.get(f"/api/tables/{t['id']}/record")
    assert r.status_code == 409 and '"seed"' not in r.text
    seats = [connect(t["id"], i["token"]) for i in t["invites"]]
    # seeded random play: always the first option can bounce a bathyscaphe between two cells
    # for ever (every Submarine action is optional), and the table's own seed is random
    rng = random.Random(96)
    play_out(seats, lambda s: rng.choice(s.state["legal"])["id"])
    status = client.get(f"/api/tables/{t['id']}").json()
    assert status["finished"] is True and status["outcome"] is not None
    record = client.get(f"/api/tables/{t['id']}/record").json()
    assert record["result"] == status["outcome"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    state = replay(GameRecord.load(path))
    assert state.is_terminal()
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output


def test_seat_taken_shows_in_status(client: Any, connect: Any) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "human"])
    seat: Seat = connect(t["id"], t["invites"][1]["token"])
    assert seat.welcome["player"] == 1
    players = client.get(f"/api/tables/{t['id']}").json()["players"]
    assert [p["taken"] for p in players] == [False, True]


def test_the_default_database_is_in_the_user_data_directory(
    monkeypatch: Any, tmp_path: Path
) -> None:
    from fastapi.testclient import TestClient

    from subtable.web.app import Settings, create_app
    from subtable.web.db import normalize_url

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = normalize_url(None)
    assert url.startswith("sqlite+aiosqlite:///") and str(tmp_path) in url
    assert normalize_url("postgresql://u@127.0.0.1:5/db").startswith("postgresql+asyncpg://")
    with TestClient(create_app(Settings(bot_workers=0))) as client:
        assert client.get("/healthz").json()["ok"]
        new_table(client, game="submarine", players=2, seats=["human", "human"])
    assert (tmp_path / "subtable" / "tables.sqlite3").exists()


def test_the_browser_page_is_served(client: Any) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "human"])
    page = client.get(f"/t/{t['id']}")
    assert page.status_code == 200 and 'src="/static/table.js"' in page.text
    assert "new WebSocket" in client.get("/static/table.js").text
