"""What a page needs to follow a game, built on the server from a seat's views and
its redacted events: the stage (dice, event cards, collections, the board's changed parts),
the options (a fix-it's minutes as one row, with the odds; what is not possible now), the
end screen, and "play again" with each person's own seat."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.conftest import align, new_table, play_out

from subtable.core.events import Event
from subtable.core.game import State
from subtable.core.registry import make_game
from subtable.i18n import LANGUAGES, translator
from subtable.web.boards import board_renderer

pytestmark = pytest.mark.slow  # most tests here take over two seconds

EN = translator("en")


def _games(name: str, seeds: range, **options: Any) -> Iterator[tuple[State[Any], list[Event]]]:
    """Every position of random games of ``name``, with the events that led to it."""
    game = make_game(name, **options)
    for seed in seeds:
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            events = state.apply(rng.choice(state.legal_actions()))
            yield state, events


# -- the stage ------------------------------------------------------------------------------
def test_a_roll_shows_as_a_die_beside_what_it_needed() -> None:
    board = board_renderer("red-november")
    roll = Event(
        "fix_attempted",
        {"gnome": 1, "fix": "engine", "minutes": 3, "penalty": 0, "bonus": 3, "target": 6,
         "roll": 8, "success": False, "auto_fail": None},
    )  # fmt: skip
    reset = Event("track_reset", {"track": "pressure", "level": 1, "before": 3})
    stage = board.stage([roll], EN)
    assert stage.weight == 1
    assert 'class="die"' in stage.html and ">8<" in stage.html
    assert "needs ≤ 6 — rolled 8 — failed" in stage.html
    assert stage.lines == ("Gnome 2 — Fix Engine (3 min): needs ≤ 6 — rolled 8 — failed",)
    success = roll._replace(params={**roll.params, "roll": 2, "success": True})
    won = board.stage([success, reset], EN)
    assert "rolled 2 — success" in won.html and "Pressure track repaired" in won.html
    assert '[data-track="pressure"]' in won.marks


def test_an_event_card_is_turned_face_up_with_its_text_and_what_it_did() -> None:
    board = board_renderer("red-november")
    events = [
        Event("event_drawn", {"card": "fire", "space": 51, "number": 2}),
        Event("room_rolled", {"room": 5}),
        Event("track_advanced", {"track": "asphyxiation", "level": 3, "before": 2}),
        Event("fire_started", {"room": 5}),
        Event("turn_ended", {"gnome": 0, "space": 50}),
    ]
    for lang in LANGUAGES:
        tr = translator(lang)
        stage = board.stage(events, tr)
        assert stage.weight == 1
        assert tr("rn.card.fire") in stage.html and tr("rn.event_text.fire") in stage.html
        for event in events[1:4]:  # the die, the track, the fire: what the card did
            assert board.ui.narrate(event, tr) in stage.html
        assert 'class="die small"' in stage.html
        assert '[data-room="5"]' in stage.marks and '[data-track="asphyxiation"]' in stage.marks
        assert '[data-space="50"]' in stage.marks  # the Time Keeper moved on
    assert stage.lines[0].startswith(translator("pt")("rn.card.fire"))


def test_every_roll_and_every_card_of_real_games_reaches_the_stage() -> None:
    board = board_renderer("red-november")
    rolls = cards = 0
    for _, events in _games("red-november", range(3), players=4):
        stage = board.stage(events, EN)
        dice = [e for e in events if e.key == "fix_attempted" and e.params["roll"] is not None]
        drawn = [e for e in events if e.key in ("event_drawn", "faint_check")]
        assert stage.weight == len([e for e in events if e.key == "fix_attempted"]) + len(drawn)
        for e in dice:
            assert f">{e.params['roll']}</span>" in stage.html
        for e in drawn:
            assert EN(f"rn.card.{e.params['card']}") in stage.html
        rolls += len(dice)
        cards += len(drawn)
        marks = stage.marks
        assert all(re.fullmatch(r'(\.gnome)?\[data-[a-z]+="[a-z0-9_-]+"\]', m) for m in marks)
    assert rolls > 5 and cards > 20


def test_submarine_collections_tolls_and_swaps_as_far_as_the_seat_may_see() -> None:
    board = board_renderer("submarine")
    seen = hidden = collected = 0
    for state, events in _games("submarine", range(3), players=3):
        del state
        for reader in (0, 1, 2, None):
            mine = [e.for_seat(reader) for e in events]
            stage = board.stage(mine, EN)
            keys = [e.key for e in mine]
            assert stage.weight == keys.count("treasure_collected") + keys.count("card_swapped")
            for e in mine:
                if e.key == "card_swapped":
                    if "card" in e.params:
                        seen += 1
                        assert "stage-card back" not in stage.html or "drawn" not in e.params
                    else:  # another captain's swap: two backs, no colour
                        hidden += 1
                        assert stage.html.count("stage-card back") >= 2
                if e.key == "treasure_collected":
                    collected += 1
                    assert board.ui.token(f"{e.params['treasure']}-{e.params['colour']}", EN) in (
                        stage.html
                    )
    assert seen and hidden and collected


def test_an_entry_of_a_rendered_page_carries_its_stage(client: Any, connect: Any) -> None:
    t = new_table(client, game="red-november", players=2, seats=["human", "human"])
    seats = [connect(t["id"], inv["token"], render="html") for inv in t["invites"]]
    plain = connect(t["id"], t["invites"][0]["token"])
    rng = random.Random(4)
    staged = 0
    for _ in range(60):
        align([*seats, plain])
        if seats[0].state["finished"]:
            break
        mover = next(s for s in seats if s.state["your_turn"])
        mover.act(rng.choice(mover.state["legal"])["id"])
        for s in [*seats, plain]:
            entry = s.recv()["entry"]
            if s is plain:
                assert "stage" not in entry  # a terminal client does not pay for it
            else:
                assert set(entry["stage"]) == {"html", "lines", "marks", "weight"}
                staged += entry["stage"]["weight"] > 0
    assert staged


# -- the options ----------------------------------------------------------------------------
def _ids(markup: str) -> list[int]:
    return [int(x) for x in re.findall(r'data-id="(\d+)"', markup)]


@pytest.mark.parametrize("name, options", [("red-november", {"players": 3}), ("submarine", {})])
def test_every_legal_action_is_one_button_of_the_options(name: str, options: Any) -> None:
    from tests.web.test_frame_resample import _Page, _table

    table = _table(name, options, seed=21, controllers=["human"] * 3)
    rng = random.Random(2)
    rows = 0
    for _ in range(150):
        if table.state.is_terminal():
            break
        seat = table.state.current_seat()
        assert seat is not None
        page = _Page(player=table.owners[seat], seats=(seat,), tr=EN)
        data = table.state_json(page)
        html = data["html"]
        assert sorted(_ids(html["options"])) == sorted(a["id"] for a in data["legal"])
        rows += html["options"].count('class="group"')
        for notation in re.findall(r'data-notation="([^"]+)"', html["unavailable"]):
            action = table.game.parse_action(notation)  # parses, and is not possible now
            assert action.id not in table.state.legal_action_ids()
        ids = table.state.legal_action_ids()
        table.state.apply(ids[rng.randrange(len(ids))])
    assert rows > 0


def _one_row(prefix: str, title: str, players: int, least: int) -> tuple[str, list[Any], Any, Any]:
    """The options row titled ``title`` of the first position (of a few games for
    ``players``) offering at least ``least`` actions whose notation starts with ``prefix``;
    those actions, the view and the words."""
    from subtable.web.render import options_html

    board = board_renderer("red-november")
    ui = board.ui  # type: ignore[attr-defined]
    for state, _ in _games("red-november", range(8), players=players):
        legal = state.legal_actions()
        chosen = [a for a in legal if a.notation().startswith(prefix)]
        if len(chosen) < least:
            continue
        view = state.observe(state.current_seat())
        rows = [
            {"label": ui.action_label(a, EN), "hint": ui.action_hint(a, view, EN)} for a in legal
        ]
        html = options_html(board, view, legal, rows, EN)
        row = next(li for li in html.split("<li") if f">{title}</span>" in li)
        return row, chosen, view, ui
    raise AssertionError(f"no position offered {prefix!r} several times")


def test_a_fix_it_is_one_row_with_its_minutes_and_odds() -> None:
    row, pumps, view, ui = _one_row("pump ", "Pump Water", players=3, least=3)
    assert "chips" in row
    assert _ids(row) == [a.id for a in pumps]  # one row, one choice per minute
    for a in pumps:
        percent = round(ui.odds(a, view) * 100)
        assert f"{percent}%" in row


def test_the_gnomes_to_trade_with_are_one_row_with_a_choice_each() -> None:
    row, trades, _, ui = _one_row("trade ", "Trade Item Cards with", players=5, least=2)
    assert _ids(row) == [a.id for a in trades]  # one row, one choice per gnome
    for a in trades:  # each choice says whom, and its whole action for screen readers
        assert ui.action_label(a, EN) in row
        assert f">{ui.seat_name(a.target, EN)}<" in row


# -- the end --------------------------------------------------------------------------------
def test_the_end_screen_says_why_and_sums_up_each_seat(client: Any, connect: Any) -> None:
    t = new_table(client, game="submarine", players=3, seats=["human", "human", "random"])
    seats = [connect(t["id"], inv["token"], render="html") for inv in t["invites"]]
    rng = random.Random(8)
    play_out(seats, lambda s: rng.choice(s.state["legal"])["id"])
    end = seats[0].state["html"]["end"]
    record = client.get(f"/api/tables/{t['id']}/record").json()
    assert f"Seed: {record['seed']}" in end
    assert 'id="again"' in end and f'href="/replay/{t["id"]}' in end
    assert "Treasures" in end and end.count("<tr") == 1 + 3  # a row per captain
    assert "It ended on the move of Player" in end
    watcher = connect(t["id"], t["spectator"]["token"], render="html")
    assert watcher.state["html"]["end"] and 'id="again"' not in watcher.state["html"]["end"]


def test_the_end_of_red_november_names_the_track_or_token(client: Any, connect: Any) -> None:
    rng = random.Random(1)
    t = new_table(client, game="red-november", players=1, gnomes=3, seats=["human"], lang="fr")
    seat = connect(t["id"], t["invites"][0]["token"], render="html")
    while not seat.state["finished"]:
        seat.act(rng.choice(seat.state["legal"])["id"])
        assert seat.recv()["type"] == "update"
    fr = translator("fr")
    end = seat.state["html"]["end"]
    outcome = seat.state["outcome"]
    assert fr("rn.board.col.gnome") in end and end.count("<tr") == 1 + 3
    reason = outcome["reason"]
    c = board_renderer("red-november").c  # type: ignore[attr-defined]
    if reason in c.tokens:
        assert fr(f"rn.token.{reason}") in end and "piste de temps" in end
    elif reason in c.tracks:
        assert fr(f"rn.track.{reason}") in end
    assert "Graine" in end


# -- play again -----------------------------------------------------------------------------
def _finished_submarine(client: Any, connect: Any) -> tuple[dict[str, Any], list[Any]]:
    t = new_table(client, game="submarine", players=3, seats=["human", "human", "random"])
    seats = [connect(t["id"], inv["token"], render="html") for inv in t["invites"]]
    rng = random.Random(3)
    play_out(seats, lambda s: rng.choice(s.state["legal"])["id"])
    return t, seats


def test_play_again_gives_each_person_their_own_seat_only(client: Any, connect: Any) -> None:
    t, seats = _finished_submarine(client, connect)
    watcher = connect(t["id"], t["spectator"]["token"], render="html")
    one, two = (inv["token"] for inv in t["invites"])
    first = client.post(f"/api/tables/{t['id']}/again", json={"token": one})
    assert first.status_code == 200, first.text
    new, url = first.json()["id"], first.json()["url"]
    assert new != t["id"] and url.startswith(f"/t/{new}#")  # a link, the token in its fragment
    mine = url.split("#")[1]
    assert mine not in (one, two)
    again = client.post(f"/api/tables/{t['id']}/again", json={"token": two})
    assert again.json()["id"] == new  # opened once: the second player joins the same table
    theirs = again.json()["url"].split("#")[1]
    assert mine != theirs
    # every connection was sent its own link, and nobody else's
    got = {id(s): s.recv() for s in (*seats, watcher)}
    assert got[id(seats[0])] == {"v": 1, "type": "rematch", "table": new, "url": f"/t/{new}#{mine}"}
    assert got[id(seats[1])]["url"] == f"/t/{new}#{theirs}"
    assert mine not in seats[1].raw[-1] and theirs not in seats[0].raw[-1]
    spectator_link = got[id(watcher)]["url"]
    assert mine not in spectator_link and theirs not in spectator_link
    # the links open the new table's seats: the same game, options and seats, from the start
    status = client.get(f"/api/tables/{new}").json()
    old = client.get(f"/api/tables/{t['id']}").json()
    assert (status["game"], status["options"]) == (old["game"], old["options"])
    assert [p["bot"] for p in status["players"]] == [p["bot"] for p in old["players"]]
    assert not status["finished"]  # a new game (its bot may have opened it already)
    sat = connect(new, mine, render="html")
    assert sat.welcome["player"] == 0
    assert connect(new, theirs).welcome["player"] == 1
    assert connect(new, spectator_link.split("#")[1]).welcome["role"] == "spectator"
    # a player coming back to the finished table later is told where it goes on
    late = connect(t["id"], two, render="html")
    assert late.recv() == {"v": 1, "type": "rematch", "table": new, "url": f"/t/{new}#{theirs}"}


def test_play_again_is_refused_without_a_seat_before_the_end_or_from_another_site(
    client: Any, connect: Any
) -> None:
    t = new_table(client, game="submarine", players=2, seats=["human", "human"])
    url = f"/api/tables/{t['id']}/again"
    token = t["invites"][0]["token"]
    assert client.post(url, json={"token": token}).status_code == 409  # not over yet
    assert client.post(url, json={"token": "nope"}).status_code == 403
    assert client.post(url, json={"token": t["spectator"]["token"]}).json()["error"]["code"] == (
        "spectator"
    )
    assert client.post(url, json={"tok": token}).status_code == 400
    assert client.post("/api/tables/nope/again", json={"token": token}).status_code == 404
    evil = client.post(url, json={"token": token}, headers={"Origin": "https://evil.example"})
    assert evil.status_code == 403 and evil.json()["error"]["code"] == "cross_site"
    for body in (b"", b"{", b"\xff\xfe", b"[" * 40 + b"]" * 40, b'{"token": 5}', b"[]",
                 b'{"token": "' + b"a" * 500 + b'"}', b'{"token": "x", "more": 1}'):  # fmt: skip
        assert client.post(url, content=body).status_code == 400, body


def test_a_finished_table_waits_in_memory_for_its_players_new_seats(
    client: Any, connect: Any
) -> None:
    t, _ = _finished_submarine(client, connect)
    manager = client.app.state.manager
    new = client.post(f"/api/tables/{t['id']}/again", json={"token": t["invites"][0]["token"]})
    manager.tables[t["id"]].clients.clear()  # everybody left the finished table
    later = manager.tables[t["id"]].active + manager.limits.evict_after + 1
    client.portal.call(manager.sweep, later)
    assert t["id"] in manager.tables  # the new game goes on: the links to it stay at hand
    manager.tables[new.json()["id"]].row.closed = "abandoned"
    client.portal.call(manager.sweep, later)
    assert t["id"] not in manager.tables


# -- the smaller slips ----------------------------------------------------------------------
def test_the_replay_with_everything_revealed_is_nobodys_view(client: Any, connect: Any) -> None:
    t, _ = _finished_submarine(client, connect)
    everything = client.get(f"/replay/{t['id']}?seat=all&lang=en").text
    assert "you are" not in everything
    assert everything.count('data-hand="') == 3  # every hand shown, once
    one = client.get(f"/replay/{t['id']}?seat=2&lang=en").text
    assert "you are Player 2" in one and one.count('data-hand="') == 1


def test_an_undo_is_told_in_words(client: Any, connect: Any) -> None:
    t = new_table(client, game="red-november", players=2, seats=["human", "human"])
    seats = [connect(t["id"], inv["token"]) for inv in t["invites"]]
    mover = next(s for s in seats if s.state["your_turn"])
    move = next(a for a in mover.state["legal"] if a["notation"].startswith("move "))
    mover.act(move["id"])
    for s in seats:
        assert s.recv()["type"] == "update"
    mover.send({"type": "undo", "seq": mover.state["seq"]})
    entry = mover.recv()["entry"]
    assert entry["kind"] == "undo" and entry["label"] == move["label"]  # the action taken back
    page = client.get(f"/t/{t['id']}?lang=en").text
    assert '"undo_entry": "takes back: {action}"' in page  # the page says it in words


def test_spectators_are_offered_to_watch_and_the_favicon_is_served(client: Any) -> None:
    form = {"game": "submarine", "lang": "en", "submarine-players": "2",
            "submarine-seat0": "human", "submarine-seat1": "human"}  # fmt: skip
    page = client.post("/new", data=form).text
    spectators = page[page.index('data-player="spectator"') :]
    assert ">Watch</a>" in spectators and "Sit down" not in spectators
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert 'rel="icon"' in client.get("/").text


def test_play_again_keeps_the_pace_and_the_names_and_invites_the_same_people(
    client: Any, connect: Any
) -> None:
    t = new_table(
        client,
        game="submarine",
        players=2,
        seats=["human", "human"],
        names=["Ana", "Bea"],
        visibility="public",
        mode="turn-based",
        turn_limit=3600,
        late="abandon",
        advice=True,
    )
    seats = [connect(t["id"], inv["token"], render="html") for inv in t["invites"]]
    rng = random.Random(5)
    play_out(seats, lambda s: rng.choice(s.state["legal"])["id"])
    again = client.post(f"/api/tables/{t['id']}/again", json={"token": t["invites"][1]["token"]})
    assert again.status_code == 200, again.text
    status = client.get(f"/api/tables/{again.json()['id']}").json()
    assert (status["mode"], status["turn_limit"], status["late"]) == ("turn-based", 3600, "abandon")
    assert status["advice"] is True  # two people at Submarine: off unless the creator allowed it
    assert status["people"] == ["Ana", "Bea"]
    # the same two people are sent their links: the new table is not in the lobby
    assert status["visibility"] == "private"
    lobby = client.get("/api/lobby").json()["tables"]
    assert again.json()["id"] not in {row["id"] for row in lobby}
    assert connect(again.json()["id"], again.json()["url"].split("#")[1]).welcome["player"] == 1
