"""People at the table: names, the lobby of public tables, table chat, turn-based tables."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import Seat, new_table, play_out

from subtable.i18n import translator
from subtable.web.app import Settings, create_app
from subtable.web.limits import Limits


class Clock:
    """A wall clock the test moves."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def _app(db: Path, clock: Clock | None = None, **limits: Any) -> TestClient:
    settings = Settings(
        db=str(db),
        bot_workers=0,
        rate=1e6,
        burst=1e6,
        limits=Limits(**limits),
        clock=clock or Clock(),
    )
    return TestClient(create_app(settings))


@contextlib.contextmanager
def _seat(client: TestClient, table: str, token: str, **hello: Any) -> Iterator[Seat]:
    with client.websocket_connect("/ws") as ws:
        yield Seat(ws, table, token, **hello)


# -- names --------------------------------------------------------------------------------
def test_names_are_kept_shown_and_escaped(client: Any, connect: Any) -> None:
    evil = '<b>Ana</b> & "co"'
    t = new_table(client, game="submarine", players=2, seats=["human", "human"], names=[evil, None])
    status = client.get(f"/api/tables/{t['id']}").json()
    assert status["people"] == [evil, None]
    other = connect(t["id"], t["invites"][1]["token"], render="html")
    markup = json.dumps(other.sync["state"]["html"])  # what the page puts in as markup
    assert "<b>Ana</b>" not in markup and "&lt;b&gt;Ana&lt;/b&gt;" in markup
    # the data itself carries the name as it is (the page writes it as text)
    assert other.welcome["people"] == [evil, None]
    assert other.welcome["role_text"] == "player 2: Player 2"  # no name yet
    named = connect(t["id"], t["invites"][0]["token"], render="html", lang="en")
    assert named.welcome["role_text"] == f"{evil} (Player 1)"  # text: the page writes it so


@pytest.mark.parametrize(
    ("name", "code"), [("", "bad_name"), ("x" * 25, "bad_name"), ("a\x00b", "bad_name")]
)
def test_a_bad_name_is_refused_with_its_reason(client: Any, name: str, code: str) -> None:
    r = client.post(
        "/api/tables",
        json={"game": "submarine", "players": 2, "seats": ["human"] * 2, "names": [name, None]},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == code, r.text
    t = new_table(client, game="submarine", players=2, seats=["human"] * 2)
    with client.websocket_connect("/ws") as ws:
        seat = Seat(ws, t["id"], t["invites"][0]["token"])
        seat.send({"v": 1, "type": "name", "name": name})
        reply = seat.recv()
        assert reply["type"] == "error" and reply["code"] == code


def test_a_name_chosen_at_the_table_reaches_everyone(client: Any, connect: Any) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "human"])
    first = connect(t["id"], t["invites"][0]["token"])
    second = connect(t["id"], t["invites"][1]["token"], render="html")
    first.send({"v": 1, "type": "name", "name": "Bruno"})
    for seat in (first, second):
        got = seat.recv()
        assert got["type"] == "people" and got["people"] == ["Bruno", None]
    assert "Bruno" in second.frames[-1]["state"]["html"]["panels"]
    # a name given in hello counts too, and a spectator has none
    third = connect(t["id"], t["invites"][1]["token"], name="Carla")
    assert third.welcome["people"] == ["Bruno", "Carla"]
    watcher = connect(t["id"], t["spectator"]["token"])
    watcher.send({"v": 1, "type": "name", "name": "Eve"})
    assert watcher.recv()["code"] == "spectator"


# -- the lobby ------------------------------------------------------------------------------
def test_the_lobby_lists_public_tables_with_an_open_seat(client: Any, connect: Any) -> None:
    public = new_table(
        client,
        game="submarine",
        players=3,
        seats=["human", "human", "heuristic"],
        names=["Ana", None, None],
        visibility="public",
    )
    new_table(client, game="submarine", players=2, seats=["human", "human"])  # private
    assert [i["player"] for i in public["invites"]] == [0]  # only the seat named at creation
    listed = client.get("/api/lobby").json()["tables"]
    assert [t["id"] for t in listed] == [public["id"]]
    seats = listed[0]["seats"]
    assert [(s["name"], s["open"]) for s in seats] == [("Ana", False), (None, True), (None, False)]
    r = client.post(f"/api/tables/{public['id']}/join", json={"player": 1, "name": "Bea"})
    assert r.status_code == 201, r.text
    claimed = r.json()
    assert claimed["player"] == 1 and claimed["url"].endswith("#" + claimed["token"])
    seat = connect(public["id"], claimed["token"])
    assert seat.welcome["player"] == 1 and seat.welcome["people"][1] == "Bea"
    # taken now: claimed again it is refused, and the lobby no longer lists the table
    again = client.post(f"/api/tables/{public['id']}/join", json={"player": 1, "name": "Cid"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "seat_taken"
    assert client.get("/api/lobby").json()["tables"] == []
    # a bot's seat, a private table, a bad name: refused
    assert (
        client.post(f"/api/tables/{public['id']}/join", json={"player": 2, "name": "X"}).json()[
            "error"
        ]["code"]
        == "not_a_seat"
    )


def test_a_name_refused_in_the_lobby_says_why_in_the_pages_language(client: Any) -> None:
    """The lobby's page shows the refusal's message: it comes in the page's language."""
    t = new_table(
        client,
        game="submarine",
        players=3,
        seats=["human", "human", "human"],
        names=["Ana", None, None],
        visibility="public",
    )
    seen = {}
    for lang in ("en", "fr", "pt"):
        r = client.post(
            f"/api/tables/{t['id']}/join?lang={lang}", json={"player": 1, "name": "ana"}
        )
        assert r.status_code == 400 and r.json()["error"]["code"] == "name_taken", r.text
        seen[lang] = r.json()["error"]["message"]
        assert seen[lang] == translator(lang)("web.error.name_taken", player=1, name="Ana")
    assert len(set(seen.values())) == 3  # three languages, three messages
    # the browser's language where the request names none
    r = client.post(
        f"/api/tables/{t['id']}/join",
        json={"player": 1, "name": "ana"},
        headers={"Accept-Language": "it-IT,it;q=0.9"},
    )
    assert r.json()["error"]["message"] == translator("it")(
        "web.error.name_taken", player=1, name="Ana"
    )
    bad = client.post(f"/api/tables/{t['id']}/join?lang=xx", json={"player": 1, "name": "ana"})
    assert bad.status_code == 400 and bad.json()["error"]["message"] == seen["en"]


def test_two_people_claiming_one_seat_at_once_one_wins(client: Any) -> None:
    t = new_table(
        client,
        game="submarine",
        players=2,
        seats=["human", "human"],
        names=["Ana", None],
        visibility="public",
    )
    codes: list[int] = []
    start = threading.Barrier(8)

    def claim(k: int) -> None:
        start.wait()
        r = client.post(f"/api/tables/{t['id']}/join", json={"player": 1, "name": f"P{k}"})
        codes.append(r.status_code)

    threads = [threading.Thread(target=claim, args=(k,)) for k in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(codes) == [201] + [409] * 7


def test_joining_is_rate_limited_like_opening(tmp_path: Path) -> None:
    with _app(tmp_path / "t.db", tables_per_minute=2) as client:
        t = new_table(
            client,
            game="red-november",
            players=4,
            seats=["human"] * 4,
            names=["Ana", None, None, None],
            visibility="public",
        )
        codes = [
            client.post(f"/api/tables/{t['id']}/join", json={"player": p, "name": "X"}).status_code
            for p in (1, 2)
        ]
        assert codes == [201, 429]


# -- chat -----------------------------------------------------------------------------------
def test_chat_is_kept_in_order_with_the_entries(client: Any, connect: Any) -> None:
    t = new_table(
        client, game="submarine", players=2, seats=["human", "human"], names=["Ana", "Bea"]
    )
    a = connect(t["id"], t["invites"][0]["token"])
    b = connect(t["id"], t["invites"][1]["token"])
    watcher = connect(t["id"], t["spectator"]["token"])
    mover = a if a.state["your_turn"] else b
    mover.send({"v": 1, "type": "chat", "text": "  hello   <there> "})
    for seat in (a, b, watcher):
        got = seat.recv()
        assert got["type"] == "chat"
        assert got["chat"] == {**got["chat"], "n": 1, "seq": 0, "text": "hello <there>"}
        assert got["chat"]["name"] == ("Ana" if mover is a else "Bea")
    mover.act(mover.state["legal"][0]["id"])
    for seat in (a, b, watcher):
        assert seat.recv()["type"] == "update"
    mover.send({"v": 1, "type": "chat", "text": "second"})
    for seat in (a, b, watcher):
        assert seat.recv()["chat"]["seq"] == 1
    watcher.send({"v": 1, "type": "chat", "text": "spectators only read"})
    assert watcher.recv()["code"] == "spectator"
    # a reload gets the chat since the last line it saw
    again = connect(t["id"], t["invites"][0]["token"], last_seq=0)
    assert [c["text"] for c in again.sync["chat"]] == ["hello <there>", "second"]
    resumed = connect(t["id"], t["invites"][0]["token"], last_seq=1, last_chat=1)
    assert [c["text"] for c in resumed.sync["chat"]] == ["second"]


def test_chat_limits(tmp_path: Path) -> None:
    with _app(tmp_path / "t.db", chat_length=10, chat_burst=2, chat_per_minute=1) as client:
        t = new_table(client, game="submarine", players=2, seats=["human", "human"])
        with _seat(client, t["id"], t["invites"][0]["token"]) as seat:
            codes = []
            for text in ("", "x" * 11, "a\x07b", "ok", "ok", "ok"):
                seat.send({"v": 1, "type": "chat", "text": text})
                got = seat.recv()
                codes.append(got.get("code") or got["type"])
        assert codes == ["bad_chat", "bad_chat", "bad_chat", "chat", "chat", "rate_limited"]


def test_chat_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with _app(db) as client:
        t = new_table(client, game="submarine", players=2, seats=["human", "human"])
        with _seat(client, t["id"], t["invites"][0]["token"]) as seat:
            seat.send({"v": 1, "type": "chat", "text": "kept"})
            assert seat.recv()["type"] == "chat"
    with _app(db) as client, _seat(client, t["id"], t["invites"][1]["token"]) as seat:
        assert [c["text"] for c in seat.sync["chat"]] == ["kept"]


# -- turn-based tables ------------------------------------------------------------------------
def test_a_late_decision_is_played_by_a_bot_across_a_restart(tmp_path: Path) -> None:
    db, clock = tmp_path / "t.db", Clock()
    body = {
        "game": "submarine",
        "players": 2,
        "seats": ["human", "human"],
        "mode": "turn-based",
        "turn_limit": 3600,
    }
    with _app(db, clock) as client:
        t = new_table(client, **body)
        status = client.get(f"/api/tables/{t['id']}").json()
        assert status["mode"] == "turn-based" and status["late"] == "bot"
        assert status["deadline"] == pytest.approx(clock.now + 3600)
        clock.now += 3599
        assert client.portal.call(client.app.state.manager.check_deadlines) == 0
    clock.now += 2  # an hour and a second: late, and the server restarted meanwhile
    with _app(db, clock) as client:
        manager = client.app.state.manager
        with _seat(client, t["id"], t["invites"][0]["token"], render="html") as seat:
            assert client.portal.call(manager.check_deadlines) == 1
            got = seat.recv()
            while got["type"] != "update":
                got = seat.recv()
        entry = got["entry"]
        assert entry["kind"] == "late" and entry["seq"] == 1
        assert "ran out of time" in entry["lines"][0]
        # the next decision has its own hour
        assert got["state"]["deadline"] == pytest.approx(clock.now + 3600)


def test_a_late_decision_abandons_the_table_when_asked(tmp_path: Path) -> None:
    clock = Clock()
    with _app(tmp_path / "t.db", clock) as client:
        t = new_table(
            client,
            game="submarine",
            players=2,
            seats=["human", "human"],
            mode="turn-based",
            turn_limit=600,
            late="abandon",
        )
        clock.now += 601
        assert client.portal.call(client.app.state.manager.check_deadlines) == 1
        status = client.get(f"/api/tables/{t['id']}").json()
        assert status["closed"] == "late" and status["deadline"] is None
        record = client.get(f"/api/tables/{t['id']}/record").json()
        assert record["meta"]["closed"] == "late" and record["result"] is None


@pytest.mark.parametrize(
    "extra",
    [
        {"mode": "turn-based"},
        {"mode": "turn-based", "turn_limit": 5},
        {"mode": "turn-based", "turn_limit": 10**8},
        {"turn_limit": 600},
        {"mode": "turn-based", "turn_limit": 600, "late": "never"},
    ],
)
def test_turn_limits_are_checked(client: Any, extra: dict[str, Any]) -> None:
    r = client.post(
        "/api/tables", json={"game": "submarine", "players": 2, "seats": ["human"] * 2, **extra}
    )
    assert r.status_code == 400, r.text


def test_the_replay_shows_the_chat_in_time(client: Any, connect: Any) -> None:
    import random

    t = new_table(
        client, game="submarine", players=2, seats=["human", "human"], names=["Ana", "Bea"]
    )
    seats = [connect(t["id"], i["token"]) for i in t["invites"]]
    seats[0].send({"v": 1, "type": "chat", "text": "good <luck>"})
    for seat in seats:
        assert seat.recv()["type"] == "chat"
    rng = random.Random(3)
    play_out(seats, lambda s: rng.choice(s.state["legal"])["id"])
    page = client.get(f"/replay/{t['id']}?step=0").text
    assert "good &lt;luck&gt;" in page and "Ana" in page
    assert "(Bea)" in page  # the panels name the people who played
