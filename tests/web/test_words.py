"""People's words at a web table: names that are their own, chat and names that show what
was typed, renames at a person's pace, and both closed once the game is over."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import Seat, new_table, play_out

from subtable.web.app import Settings, create_app
from subtable.web.limits import Limits


def _app(db: Path, **limits: Any) -> TestClient:
    settings = Settings(db=str(db), bot_workers=0, rate=1e6, burst=1e6, limits=Limits(**limits))
    return TestClient(create_app(settings))


@contextlib.contextmanager
def _seat(client: TestClient, table: str, token: str, **hello: Any) -> Iterator[Seat]:
    with client.websocket_connect("/ws") as ws:
        yield Seat(ws, table, token, **hello)


def _people(client: Any, table: str) -> list[str | None]:
    people: list[str | None] = client.get(f"/api/tables/{table}").json()["people"]
    return people


def _rename(seat: Seat, name: str) -> dict[str, Any]:
    """The answer to a ``name`` message (a bot's moves that come first aside)."""
    seat.send({"v": 1, "type": "name", "name": name})
    while (answer := seat.recv())["type"] == "update":
        pass
    return answer


# -- one's own name ------------------------------------------------------------------------
@pytest.mark.parametrize("taken", ["ana", " ANA ", "A na", "Ána", "ana!"])
def test_a_name_is_unique_at_its_table(client: Any, connect: Any, taken: str) -> None:
    """Case, spaces, accents and punctuation aside (before: all accepted)."""
    body = {"game": "submarine", "players": 3, "seats": ["human"] * 3}
    r = client.post("/api/tables", json={**body, "names": ["Ana", taken, None]})
    assert r.status_code == 400 and r.json()["error"]["code"] == "name_taken", r.text
    t = new_table(client, **body, names=["Ana", "Bea", None])
    bea = connect(t["id"], t["invites"][1]["token"], lang="fr")
    refused = _rename(bea, taken)
    assert refused["type"] == "error" and refused["code"] == "name_taken", refused
    assert "'Ana'" in refused["message"]
    assert refused["why"] == "Le joueur 1 s’appelle déjà « Ana » : choisissez un autre nom."
    assert _people(client, t["id"]) == ["Ana", "Bea", None]
    third = connect(t["id"], t["invites"][2]["token"])
    assert _rename(third, "Cleo")["type"] == "people"  # another name is fine
    assert bea.recv()["people"] == ["Ana", "Bea", "Cleo"]  # and everyone is told
    assert _rename(bea, "Bea")["people"] == ["Ana", "Bea", "Cleo"]  # its own: no change
    assert _rename(bea, "bea")["people"] == ["Ana", "bea", "Cleo"]  # its own, written otherwise


@pytest.mark.parametrize(
    "label",
    [
        "you",
        "YOU",
        "Vous",
        "tu",
        "você",
        "voce",
        "Player 2",
        "player2",
        "joueur 2",
        "Giocatore 2",
        "jogador ②",
        "Player 2 (Cleo)",
        "Player 3",  # the bot's seat, by its number
        "bot heuristic",
        "Bot Heuristique",
        "bot euristico",
    ],
)
def test_a_name_may_not_pass_for_someone_else(client: Any, connect: Any, label: str) -> None:
    """``you``, a bot's label and another seat's ``player N``, in any of the four languages,
    are refused at creation, at the table and on claiming a seat (before: all accepted)."""
    body = {"game": "submarine", "players": 3, "seats": ["human", "human", "heuristic"]}
    r = client.post("/api/tables", json={**body, "names": [label, None, None]})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name", r.text
    t = new_table(client, **body, names=["Ana", None, None])
    ana = connect(t["id"], t["invites"][0]["token"], lang="pt")
    refused = _rename(ana, label)
    assert refused["type"] == "error" and refused["code"] == "bad_name", refused
    assert "someone else" in refused["message"]
    assert refused["why"].startswith(f"“{label}” lê-se como “")  # in the page's language
    public = new_table(client, **body, names=[None, "Bea", None], visibility="public")
    claimed = client.post(f"/api/tables/{public['id']}/join", json={"player": 0, "name": label})
    assert claimed.status_code == 400 and claimed.json()["error"]["code"] == "bad_name"
    assert _people(client, t["id"]) == ["Ana", None, None]
    assert _people(client, public["id"]) == [None, "Bea", None]


@pytest.mark.parametrize("label", ["Gnome 3", "gnomo 3", "GNOMO3", "bot heuristico"])
def test_a_gnome_may_not_pass_for_another_gnome(client: Any, label: str) -> None:
    """The seats' own names count too (``Gnome 3``: Italian ``Gnomo 3``)."""
    body = {"game": "red-november", "players": 3, "seats": ["human", "human", "heuristic"]}
    r = client.post("/api/tables", json={**body, "names": [label, None, None]})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name", r.text
    assert new_table(client, **body, names=["Gnome 1", None, None])["id"]  # its own seat's


def test_a_hello_with_a_name_that_passes_for_someone_else_is_refused(client: Any) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "human"], names=["Ana"])
    with client.websocket_connect("/ws") as ws:
        hello = {"table": t["id"], "token": t["invites"][1]["token"], "name": "ANA"}
        ws.send_text(json.dumps({"v": 1, "type": "hello", **hello}))
        refused = json.loads(ws.receive_text())
    assert refused["type"] == "error" and refused["code"] == "name_taken", refused
    assert _people(client, t["id"]) == ["Ana", None]


def test_names_that_pass_for_no_one_are_fine(client: Any, connect: Any) -> None:
    body = {"game": "submarine", "players": 3, "seats": ["human", "human", "heuristic"]}
    t = new_table(client, **body, names=["Player 1", "Youssef", None])  # one's own label
    assert _people(client, t["id"]) == ["Player 1", "Youssef", None]
    seat = connect(t["id"], t["invites"][1]["token"])
    for name in ("Tutu Bottle", "[/]", "Player 2"):  # three: the burst of renames
        assert _rename(seat, name)["type"] == "people", name


def test_renames_are_rate_limited(tmp_path: Path) -> None:
    """Before: 80 renames in 3.8 s, each drawn anew on every page."""
    with _app(tmp_path / "t.db", names_burst=2, names_per_minute=1) as client:
        t = new_table(client, game="submarine", players=2, seats=["human", "human"])
        with _seat(client, t["id"], t["invites"][0]["token"]) as seat:
            kinds = [_rename(seat, name).get("code", "people") for name in ("A", "B", "B", "C")]
            assert kinds == ["people", "people", "people", "rate_limited"]  # "B" again: no change
        assert _people(client, t["id"]) == ["B", None]


@pytest.mark.parametrize(
    "text", ["\u202eevil", "a\u2066b", "a\u200bb", "a\u200fb", "a\x1bb", "a\ue000b", "a\U000e0001"]
)
def test_chat_refuses_what_names_refuse(client: Any, connect: Any, text: str) -> None:
    """Controls, bidi overrides and isolates, zero-width and private characters (before:
    chat refused only controls)."""
    t = new_table(client, game="submarine", players=2, seats=["human", "human"])
    seat = connect(t["id"], t["invites"][0]["token"])
    seat.send({"v": 1, "type": "chat", "text": text})
    chat = seat.recv()
    assert chat["type"] == "error" and chat["code"] == "bad_chat", chat
    assert "U+" in chat["message"]
    named = _rename(seat, text)
    assert named["type"] == "error" and named["code"] == "bad_name", named
    seat.send({"v": 1, "type": "chat", "text": "still here"})
    assert seat.recv()["chat"]["n"] == 1  # nothing was kept


# -- closed at the end ---------------------------------------------------------------------
def test_names_and_chat_close_when_the_game_ends(client: Any, connect: Any) -> None:
    """The record and the replay keep the names the game ended with (before: a name and
    chat still changed after the end, and the replay showed the new name)."""
    t = new_table(
        client, game="submarine", players=2, seats=["human", "human"], names=["Ana", "Bea"]
    )
    seats = [connect(t["id"], i["token"]) for i in t["invites"]]
    rng = random.Random(5)
    play_out(seats, lambda s: rng.choice(s.state["legal"])["id"])
    record = client.get(f"/api/tables/{t['id']}/record").json()
    replay = client.get(f"/replay/{t['id']}?step=0").text
    for seat in seats:
        assert _rename(seat, "Zed")["code"] == "game_over"
        seat.send({"v": 1, "type": "chat", "text": "gg"})
        assert seat.recv()["code"] == "game_over"
    # a seat that comes back to see the end keeps its name, whatever it says hello with
    back = connect(t["id"], t["invites"][0]["token"], name="Zed")
    assert back.welcome["people"] == ["Ana", "Bea"]
    assert _people(client, t["id"]) == ["Ana", "Bea"]
    assert client.get(f"/api/tables/{t['id']}/record").json() == record
    again = client.get(f"/replay/{t['id']}?step=0").text
    assert again == replay and "Zed" not in again and "(Ana)" in again


def test_play_again_leaves_out_a_name_kept_from_before_the_rules(client: Any, connect: Any) -> None:
    """A table finished before names were checked may hold one the rules now refuse: the
    next table opens without it rather than failing."""
    t = new_table(
        client, game="submarine", players=2, seats=["human", "human"], names=["Ana", "Bea"]
    )
    seats = [connect(t["id"], i["token"]) for i in t["invites"]]
    rng = random.Random(5)
    play_out(seats, lambda s: rng.choice(s.state["legal"])["id"])
    table = client.app.state.manager.tables[t["id"]]
    table.row.names[1] = "you"  # as an older server let it be
    again = client.post(f"/api/tables/{t['id']}/again", json={"token": t["invites"][0]["token"]})
    assert again.status_code == 200, again.text
    assert _people(client, again.json()["id"]) == ["Ana", None]


# -- what the pages draw ---------------------------------------------------------------------
HOSTILE_NAMES = ["<i>A</i>", "[link=http://e.il]x[/]"]
HOSTILE_CHAT = '<script>alert(1)</script> [bold]x[/] & "q"'


def _drawn(client: Any, table: dict[str, Any], players: range) -> str:
    """What the pages of ``players`` put in as markup now (boards, panels, the end)."""
    drawn = []
    for p in players:
        with _seat(client, table["id"], table["invites"][p]["token"], render="html") as seat:
            drawn.append(seat.state["html"])
    return json.dumps(drawn)


def test_pages_and_boards_draw_peoples_text_as_text(client: Any, connect: Any) -> None:
    """Names and chat reach every frame, board, panel, log head and the replay escaped."""
    t = new_table(client, game="submarine", players=2, seats=["human"] * 2, names=HOSTILE_NAMES)
    seats = [connect(t["id"], i["token"]) for i in t["invites"]]
    seats[0].send({"v": 1, "type": "chat", "text": HOSTILE_CHAT})
    for seat in seats:
        assert seat.recv()["chat"]["text"] == HOSTILE_CHAT  # data: the page writes it as text
    frames = _drawn(client, t, range(2))
    assert "<i>A</i>" not in frames and "&lt;i&gt;A&lt;/i&gt;" in frames
    assert "[link=http://e.il]x[/]" in frames  # markup means nothing here
    rng = random.Random(2)
    play_out(seats, lambda s: rng.choice(s.state["legal"])["id"])
    end = _drawn(client, t, range(1, 2))  # the end as player 2 sees it ("you" on one's own)
    assert "<i>A</i>" not in end and "&lt;i&gt;A&lt;/i&gt;" in end
    page = client.get(f"/replay/{t['id']}?step=0").text
    assert "<i>A</i>" not in page and "&lt;i&gt;A&lt;/i&gt;" in page
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; [bold]x[/] &amp;" in page
