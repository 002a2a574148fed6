"""The browser's pages served by the app: home, the creation form, the table page, the replay;
and what a page asking for ``render: "html"`` receives over the WebSocket."""

from __future__ import annotations

import random
import re
import time
from html.parser import HTMLParser
from typing import Any

import pytest
from babel.messages.pofile import read_po
from tests.web.conftest import align, new_table, play_out

from subtable.i18n import LANGUAGES


def _web_texts(lang: str) -> dict[str, str]:
    from importlib import resources

    path = resources.files("subtable.locales").joinpath(lang, "LC_MESSAGES", "web.po")
    import io

    return {
        str(m.id): str(m.string)
        for m in read_po(io.StringIO(path.read_text(encoding="utf-8")), locale=lang)
        if m.id
    }


class _Text(HTMLParser):
    """The visible text and attribute values a page shows (scripts' code left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("aria-label", "title", "placeholder", "alt") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data.strip())


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "\n".join(parser.parts)


def english_left(lang: str, text: str) -> list[str]:
    """English web texts (that differ in ``lang``) found in a page of ``lang``."""
    en, other = _web_texts("en"), _web_texts(lang)
    return [
        en[k]
        for k in en
        if en[k] != other.get(k)
        and "{" not in en[k]
        and re.search(r"(?<!\w)" + re.escape(en[k]) + r"(?!\w)", text)
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_page_in_each_language(client: Any, lang: str) -> None:
    r = client.get(f"/?lang={lang}")
    assert r.status_code == 200
    assert f'<html lang="{lang}">' in r.text
    text = visible_text(r.text)
    assert _web_texts(lang)["web.home.new_table"] in text
    # both games, with their options explained
    assert 'name="game" value="red-november"' in r.text
    assert 'name="game" value="submarine"' in r.text
    assert _web_texts(lang)["web.option_help.crazed_gnomes"] in text
    if lang != "en":
        assert english_left(lang, text) == []
    assert r.cookies.get("lang") == lang


def test_the_language_comes_from_the_browser_or_the_cookie(client: Any) -> None:
    r = client.get("/", headers={"accept-language": "it-IT,it;q=0.9,en;q=0.5"})
    assert '<html lang="it">' in r.text
    client.cookies.set("lang", "pt")
    assert '<html lang="pt">' in client.get("/").text
    client.cookies.clear()
    assert '<html lang="en">' in client.get("/", headers={"accept-language": "de"}).text


def _form(game: str, **fields: str) -> dict[str, str]:
    return {"game": game, "lang": "fr", **{f"{game}-{k}": v for k, v in fields.items()}}


def test_the_form_opens_a_table_with_its_invitations(client: Any) -> None:
    form = _form(
        "red-november", players="3", crazed_gnomes="1", seat0="human", seat1="human", seat2="random"
    )
    r = client.post("/new", data=form)
    assert r.status_code == 200, r.text
    links = re.findall(r'value="(http://testserver/t/[^"#]+#[^"]+)"', r.text)
    assert len(links) == 3  # two people and the spectators
    table = links[0].split("/t/")[1].split("#")[0]
    status = client.get(f"/api/tables/{table}").json()
    assert [p["controller"] for p in status["players"]] == ["human", "human", "bot"]
    assert status["options"]["crazed_gnomes"] is True
    assert "Invitations" in r.text and "Copier" in r.text


def test_a_form_the_rules_refuse_comes_back_with_the_reason(client: Any) -> None:
    before = client.get("/healthz").json()["tables"]
    r = client.post("/new", data=_form("red-november", players="2", gnomes="3"))
    assert r.status_code == 400
    assert 'role="alert"' in r.text
    assert client.get("/healthz").json()["tables"] == before  # nothing was opened
    r = client.post("/new", data={"game": "chess", "lang": "en"})
    assert r.status_code == 400 and "chess" in r.text


def test_the_table_page_and_a_wrong_link(client: Any) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "human"], lang="pt")
    r = client.get(f"/t/{t['id']}")
    assert r.status_code == 200
    assert '<html lang="pt">' in r.text  # the table's language by default
    assert t["invites"][0]["token"] not in r.text
    assert client.get(f"/t/{t['id']}?lang=it").text.count('<html lang="it">') == 1
    r = client.get("/t/nope?lang=fr")
    assert r.status_code == 404 and _web_texts("fr")["web.error.bad_link"] in visible_text(r.text)


def test_static_files_are_served(client: Any) -> None:
    for name in ("table.js", "home.js", "replay.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


def _finished_table(client: Any, connect: Any, game: str, players: int) -> dict[str, Any]:
    t = new_table(client, game=game, players=players, seats=["random"] * players)
    for _ in range(600):
        if client.get(f"/api/tables/{t['id']}").json()["finished"]:
            return t
        time.sleep(0.05)
    raise AssertionError("the bots did not finish")


@pytest.mark.parametrize("game, players", [("red-november", 3), ("submarine", 3)])
def test_the_replay_steps_through_a_finished_game(
    client: Any, connect: Any, game: str, players: int
) -> None:
    t = _finished_table(client, connect, game, players)
    steps = len(client.get(f"/api/tables/{t['id']}/record").json()["actions"])
    start = client.get(f"/replay/{t['id']}?step=0&seat=all&lang=fr")
    assert start.status_code == 200 and "<svg" in start.text
    assert f'max="{steps}"' in start.text
    end = client.get(f"/replay/{t['id']}?lang=fr")
    assert f'value="{steps}"' in end.text and "<svg" in end.text
    assert end.text.count("<li value=") == steps  # the log narrates every action
    mid = client.get(f"/replay/{t['id']}?step=3&seat=1")
    assert mid.text.count("<li value=") == 3 and start.text != mid.text
    assert client.get(f"/replay/{t['id']}?step=999999").status_code == 200  # clamped


def test_no_replay_before_the_end(client: Any) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "human"], lang="it")
    r = client.get(f"/replay/{t['id']}")
    assert r.status_code == 409
    assert _web_texts("it")["web.replay.not_over"] in visible_text(r.text)


def test_a_page_gets_the_board_and_the_log_rendered_in_its_language(
    client: Any, connect: Any
) -> None:
    t = new_table(client, game="red-november", players=2, seats=["human", "human"], lang="fr")
    seats = [connect(t["id"], inv["token"], render="html") for inv in t["invites"]]
    plain = connect(t["id"], t["invites"][0]["token"])
    assert "html" not in plain.state and "names" not in plain.welcome
    first = seats[0]
    assert "<svg" in first.state["html"]["board"]
    # a player of two gnomes: the second gnome's panels folded away, once
    assert first.state["html"]["panels"].count('<details class="other-seat">') == 1
    assert first.welcome["names"] and first.welcome["role_text"].startswith("joueur 1")
    mover = next(s for s in seats if s.state["your_turn"])
    assert mover.state["legal"] and all("hint" in a for a in mover.state["legal"])
    assert "À vous" in mover.state["html"]["status"]
    # a stale click is refused with the reason in the page's language
    mover.act(mover.state["legal"][0]["id"], seq=mover.state["seq"] + 5)
    error = mover.recv()
    assert error["code"] == "stale_seq" and error["why"] == _web_texts("fr")["web.error.stale_seq"]
    other = next(s for s in seats if s is not mover)
    other.act(0)
    error = other.recv()
    assert error["code"] == "not_your_turn" and error["why"].startswith("Ce n'est pas")
    mover.act(mover.state["legal"][0]["id"])
    update = mover.recv()
    assert update["type"] == "update" and isinstance(update["entry"]["lines"], list)
    assert "<svg" in update["state"]["html"]["board"]
    align([*seats, plain])


@pytest.mark.slow
def test_a_whole_game_with_rendered_pages(client: Any, connect: Any) -> None:
    t = new_table(client, game="submarine", players=3, seats=["human", "human", "random"])
    seats = [connect(t["id"], inv["token"], render="html") for inv in t["invites"]]
    rng = random.Random(5)
    play_out(seats, lambda s: rng.choice(s.state["legal"])["id"])
    assert seats[0].state["finished"]
    assert seats[0].state["html"]["status"]


def test_fix_it_options_carry_their_odds(client: Any, connect: Any) -> None:
    rng = random.Random(3)
    # the server deals each table from a secret seed: a random game may end before a fix-it
    # action comes up, so a few tables are tried
    for _ in range(5):
        t = new_table(client, game="red-november", players=1, gnomes=3, seats=["human"], lang="pt")
        seat = connect(t["id"], t["invites"][0]["token"], render="html")
        for _ in range(400):
            fixes = [a for a in seat.state["legal"] if a["notation"].startswith("fix-")]
            if fixes:
                assert all(a["hint"] and "%" in a["hint"] for a in fixes), fixes
                return
            if seat.state["finished"]:
                break
            seat.act(rng.choice(seat.state["legal"])["id"])
            assert seat.recv()["type"] == "update"
    raise AssertionError("no fix-it action came up in five games")


def test_an_unknown_rendering_is_refused(client: Any) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "human"])
    with client.websocket_connect("/ws") as ws:
        hello = {"type": "hello", "table": t["id"], "token": t["invites"][0]["token"]}
        ws.send_json({**hello, "render": "svg"})
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "bad_message"
        assert "render" in error["message"]
        ws.send_json({**hello, "render": "html"})  # nothing was changed: hello works
        assert ws.receive_json()["type"] == "welcome"


def test_a_spectator_page_sees_the_board_and_no_hand(client: Any, connect: Any) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "random"], lang="it")
    watcher = connect(t["id"], t["spectator"]["token"], render="html")
    assert watcher.welcome["role_text"] == _web_texts("it")["web.role.spectator"]
    html = watcher.state["html"]
    assert html["board"].startswith("<svg") and watcher.state["legal"] == []
    assert "data-hand=" not in html["panels"]  # nobody's hand, card by card
    assert "data-actions" not in html["board"] + html["panels"]
