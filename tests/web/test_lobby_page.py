"""People on the home page: the creation form's bot levels, names, visibility and
pace; the lobby as the page lists it; ``POST /api/seats`` ("your tables": whose turn it is
at each table this browser holds a token for, and until when)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import new_table

from subtable.web.app import Settings, create_app


class Clock:
    """A wall clock the test moves."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def _app(db: Path, clock: Clock) -> TestClient:
    return TestClient(
        create_app(Settings(db=str(db), bot_workers=0, rate=1e6, burst=1e6, clock=clock))
    )


def _form(game: str, lang: str = "en", **fields: str) -> dict[str, str]:
    return {"game": game, "lang": lang, **{f"{game}-{k}": v for k, v in fields.items()}}


def _options(html: str, select_id: str) -> list[tuple[str, bool, str]]:
    """A ``<select>``'s options: value, selected, label."""
    block = re.search(rf'<select id="{select_id}".*?</select>', html, re.S)
    assert block is not None, select_id
    return [
        (value, bool(selected.strip()), label)
        for value, selected, label in re.findall(
            r'<option value="([^"]*)" ?(selected)?\s*>([^<]*)</option>', block.group(0)
        )
    ]


# -- the creation form --------------------------------------------------------------------
@pytest.mark.parametrize("game", ["submarine", "red-november"])
def test_the_form_offers_the_bot_levels_first_normal_by_default(client: Any, game: str) -> None:
    html = client.get("/?lang=pt").text
    first = _options(html, f"{game}-seat0")
    second = _options(html, f"{game}-seat1")
    values = ["human", "normal", "easy", "strong", "ismcts", "heuristic", "random"]
    assert [v for v, _, _ in first] == [v for v, _, _ in second] == values
    assert [v for v, chosen, _ in first if chosen] == ["human"]
    assert [v for v, chosen, _ in second if chosen] == ["normal"]
    assert dict((v, label) for v, _, label in second)["easy"] == "bot: fácil (comete erros)"
    # beside the levels, how often each one wins, as measured
    form = next(f for f in html.split('<form class="new-table"') if f'id="{game}-seat0"' in f)
    measured = re.search(r'<small class="levels-measured">([^<]*)</small>', form)
    assert measured is not None and "(medido): fácil " in measured.group(1)
    assert measured.group(1).endswith("%.")
    # private and live unless asked; a day a decision when turn-based
    assert re.search(rf'id="{game}-private"[^>]*checked', html)
    assert re.search(rf'id="{game}-live"[^>]*checked', html)
    limits = _options(html, f"{game}-turn_limit")
    assert [v for v, chosen, _ in limits if chosen] == ["86400"]
    assert [label for _, _, label in limits][:2] == ["5 minutos", "15 minutos"]


def test_the_form_opens_a_public_turn_based_table_with_your_name(client: Any) -> None:
    form = _form(
        "submarine",
        players="3",
        seat0="human",
        seat1="human",
        seat2="easy",
        name="  Ana  ",
        visibility="public",
        mode="turn-based",
        turn_limit="3600",
        late="abandon",
    )
    r = client.post("/new", data=form)
    assert r.status_code == 200, r.text
    assert 'class="public-note"' in r.text
    links = re.findall(r'value="(http://testserver/t/[^"#]+#[^"]+)"', r.text)
    assert len(links) == 2  # Ana's seat (named) and the spectators': seat 2 is in the lobby
    table = links[0].split("/t/")[1].split("#")[0]
    status = client.get(f"/api/tables/{table}").json()
    assert status["visibility"] == "public" and status["people"] == ["Ana", None, None]
    assert status["mode"] == "turn-based" and status["turn_limit"] == 3600
    assert status["late"] == "abandon"
    assert status["players"][2]["bot"] == "heuristic:mistakes=0.5"  # the easy level's spec
    (listed,) = client.get("/api/lobby").json()["tables"]
    assert listed["id"] == table and [s["open"] for s in listed["seats"]] == [False, True, False]


def test_a_public_form_needs_your_name_and_comes_back_as_sent(client: Any) -> None:
    form = _form("submarine", lang="fr", players="2", seat1="human", visibility="public")
    form["submarine-mode"] = "turn-based"
    r = client.post("/new", data=form)
    assert r.status_code == 400
    assert "Une table publique a besoin de votre nom" in r.text
    assert re.search(r'id="submarine-public"[^>]*checked', r.text)
    assert re.search(r'id="submarine-turn-based"[^>]*checked', r.text)
    assert client.get("/api/lobby").json()["tables"] == []


def test_a_private_live_form_names_the_first_seat_and_ignores_the_turn_fields(
    client: Any,
) -> None:
    form = _form("submarine", players="2", seat1="human", name="Ana", turn_limit="60")
    r = client.post("/new", data=form)
    assert r.status_code == 200, r.text
    links = re.findall(r'value="(http://testserver/t/[^"#]+#[^"]+)"', r.text)
    assert len(links) == 3  # a private table: both people's invitations
    status = client.get(f"/api/tables/{links[0].split('/t/')[1].split('#')[0]}").json()
    assert status["mode"] == "live" and status["turn_limit"] is None
    assert status["visibility"] == "private" and status["people"] == ["Ana", None]
    # a name is for a person's seat: a bot in the first seat takes none
    r = client.post("/new", data=_form("submarine", players="2", seat0="random", name="Ana"))
    assert r.status_code == 200, r.text


def test_a_name_over_the_limit_is_refused_with_the_limit_said_never_cut(client: Any) -> None:
    long = "Maximiliana Bartholomeuzz"  # 25 characters: one over the limit
    form = _form("submarine", lang="pt", players="2", seat1="human", name=long)
    before = client.get("/healthz").json()["tables"]
    r = client.post("/new", data=form)
    assert r.status_code == 400
    assert "(caracteres: 25; no máximo 24)" in r.text
    assert client.get("/healthz").json()["tables"] == before  # nothing was opened
    # every input where a name is typed keeps all of it (no maxlength) and knows the limit
    home = client.get("/").text
    names = re.findall(r'<input type="text" id="[^"]*name"[^>]*>', home)
    assert len(names) >= 3  # each game's form and the lobby's
    for tag in names:
        assert "maxlength" not in tag and 'data-limit="24"' in tag
    assert f'value="{long}"' in r.text  # the form comes back with the name as typed


def test_a_table_of_one_person_among_bots_goes_straight_to_the_seat(client: Any) -> None:
    form = _form("submarine", players="2", seat1="random", name="Ana")
    r = client.post("/new", data=form, follow_redirects=False)
    assert r.status_code == 303
    where = r.headers["location"]
    assert re.fullmatch(r"http://testserver/t/[^/#]+#[\w-]+", where), where
    table, token = where.split("/t/")[1].split("#")
    status = client.get(f"/api/tables/{table}").json()
    assert status["people"] == ["Ana", None]
    seats = client.post("/api/seats", json={"seats": [{"table": table, "token": token}]})
    assert seats.json()["seats"][0]["player"] == 0  # the token opens the person's seat
    # two people: the invitations page, to send the other one theirs
    r = client.post("/new", data=_form("submarine", players="2", seat1="human"))
    assert r.status_code == 200 and r.text.count('value="http://testserver/t/') == 3


# -- the lobby on the home page -----------------------------------------------------------
def test_the_home_page_lists_the_lobby_with_names_escaped(client: Any) -> None:
    t = new_table(
        client,
        game="red-november",
        players=3,
        seats=["human", "human", "strong"],
        names=["<b>Ana</b>", None, None],
        options={"crazed_gnomes": True},
        visibility="public",
        mode="turn-based",
        turn_limit=7200,
        lang="it",
    )
    html = client.get("/?lang=en").text
    item = re.search(rf'<li class="lobby-table" data-table="{t["id"]}".*?</ul>\s*</li>', html, re.S)
    assert item is not None
    text = item.group(0)
    assert "&lt;b&gt;Ana&lt;/b&gt;" in text and "<b>Ana</b>" not in text
    assert "Crazed Gnomes" in text and "Italiano" in text
    assert "Turn-based: 2 hours a decision, then a bot plays it." in text
    assert "bot strong" in text and "2 / 3" in text
    assert text.count('class="sit"') == 1 and 'data-player="1"' in text
    # the lobby alone, as the page refreshes it, in the reader's language
    part = client.get("/lobby?lang=fr").text
    assert part.lstrip().startswith('<section id="lobby"') and "asseoir comme joueur 2" in part
    r = client.post(f"/api/tables/{t['id']}/join", json={"player": 1, "name": "Bea"})
    assert r.status_code == 201
    assert "lobby-table" not in client.get("/lobby").text  # no open seat left


def test_a_page_learns_a_newcomers_name_for_its_log(client: Any, connect: Any) -> None:
    t = new_table(
        client,
        game="submarine",
        players=2,
        seats=["human", "human"],
        names=["Ana", None],
        visibility="public",
    )
    ana = connect(t["id"], t["invites"][0]["token"], render="html")
    assert ana.welcome["names"][1].endswith("(player 2)")
    client.post(f"/api/tables/{t['id']}/join", json={"player": 1, "name": "Bea"})
    people = ana.recv()
    assert people["type"] == "people" and people["people"] == ["Ana", "Bea"]
    assert people["names"][1].endswith("(Bea)") and people["names"][0].endswith("(you)")
    assert "Bea" in people["state"]["html"]["panels"]
    plain = connect(t["id"], t["spectator"]["token"])
    assert "names" not in plain.welcome  # a client without pages gets none


# -- "your tables": POST /api/seats -------------------------------------------------------
def test_your_tables_say_whose_turn_it_is_and_until_when(tmp_path: Path) -> None:
    clock = Clock()
    with _app(tmp_path / "t.db", clock) as client:
        t = new_table(
            client,
            game="submarine",
            players=2,
            seats=["human", "human"],
            names=["Ana", "Bea"],
            mode="turn-based",
            turn_limit=3600,
        )
        live = new_table(client, game="submarine", players=2, seats=["human", "human"])
        tokens = [i["token"] for i in t["invites"]]
        status = client.get(f"/api/tables/{t['id']}").json()
        decider = status["deciding_player"]
        r = client.post(
            "/api/seats",
            json={
                "seats": [
                    {"table": t["id"], "token": tokens[0]},
                    {"table": t["id"], "token": tokens[1]},
                    {"table": t["id"], "token": t["spectator"]["token"]},
                    {"table": t["id"], "token": "not-a-token"},
                    {"table": live["id"], "token": tokens[0]},  # another table's token
                    {"table": "nope", "token": tokens[0]},
                    {"table": live["id"], "token": live["invites"][1]["token"]},
                ]
            },
        )
        assert r.status_code == 200, r.text
        data = r.json()
        assert data["now"] == clock.now
        mine, theirs, watching, wrong, elsewhere, nowhere, other = data["seats"]
        deciding = mine if decider == 0 else theirs
        waiting = theirs if decider == 0 else mine
        assert deciding["your_turn"] is True
        assert deciding["deadline"] == pytest.approx(clock.now + 3600)
        assert waiting["your_turn"] is False and waiting["player"] == 1 - decider
        assert waiting["deadline"] == deciding["deadline"]  # the table's clock is public
        assert mine["mode"] == "turn-based" and not mine["finished"] and mine["closed"] is None
        assert watching["player"] is None and watching["your_turn"] is False
        # a token that opens nothing learns only that
        assert wrong == {"table": t["id"], "error": "bad_token"}
        assert elsewhere == {"table": live["id"], "error": "bad_token"}
        assert nowhere == {"table": "nope", "error": "no_table"}
        assert other["player"] == 1 and other["deadline"] is None and other["mode"] == "live"


def test_your_tables_of_a_closed_table_that_left_memory(tmp_path: Path) -> None:
    clock = Clock()
    with _app(tmp_path / "t.db", clock) as client:
        t = new_table(client, game="submarine", players=2, seats=["human", "human"])
        manager = client.app.state.manager
        client.portal.call(manager.store.close_table, t["id"], "abandoned")
        manager.tables.pop(t["id"])
        token = t["invites"][1]["token"]
        r = client.post(
            "/api/seats",
            json={
                "seats": [
                    {"table": t["id"], "token": token},
                    {"table": t["id"], "token": "wrong"},
                ]
            },
        )
        seat, wrong = r.json()["seats"]
        assert seat["closed"] == "abandoned" and seat["your_turn"] is False
        assert seat["player"] == 1
        assert wrong == {"table": t["id"], "error": "bad_token"}
        assert t["id"] not in manager.tables  # answered without rebuilding it


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"seats": [{"table": "a", "token": "b"}] * 51}, 400),
        ({"seats": [{"table": "a", "token": "b", "seat": 1}]}, 400),
        ({"seats": [{"table": "a" * 65, "token": "b"}]}, 400),
        ({"seats": "all"}, 400),
        ({}, 400),
    ],
)
def test_your_tables_are_bounded(client: Any, body: dict[str, Any], status: int) -> None:
    r = client.post("/api/seats", json=body)
    assert r.status_code == status and r.json()["error"]["code"] == "bad_request"


def test_your_tables_refuse_other_sites_and_floods(client: Any) -> None:
    body = {"seats": []}
    r = client.post("/api/seats", json=body, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    r = client.post("/api/seats", content=b"{not json", headers={"Content-Type": "text/plain"})
    assert r.status_code == 400
    codes = [client.post("/api/seats", json=body).status_code for _ in range(40)]
    assert 429 in codes and codes[0] == 200
