"""Ask the expert at the web table: who may ask, the answer to the asker alone, the public
line in everyone's log, the table's choice (and its defaults), and the limits."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import Seat, new_table, play_out

from subtable.bots.advice import ADVICE_BUDGET, Advice, advice_seed, advise
from subtable.core.registry import make_game
from subtable.web import live
from subtable.web.advicejob import pack_view, unpack_view
from subtable.web.app import Settings, create_app
from subtable.web.botpool import BotPool
from subtable.web.limits import Limits

BUDGET = 40


def _app(db: Path, **limits: Any) -> TestClient:
    settings = Settings(
        db=str(db),
        bot_workers=0,
        rate=1e6,
        burst=1e6,
        limits=Limits(**{"max_budget": BUDGET, **limits}),
        clock=lambda: 1.8e9,
    )
    return TestClient(create_app(settings))


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with _app(tmp_path / "t.db") as client:
        yield client


@contextlib.contextmanager
def _seats(
    client: TestClient, table: dict[str, Any], *tokens: str, **hello: Any
) -> Iterator[list[Seat]]:
    with contextlib.ExitStack() as stack:
        out = []
        for token in tokens:
            ws = stack.enter_context(client.websocket_connect("/ws"))
            out.append(Seat(ws, table["id"], token, **hello))
        yield out


def _ask(who: Seat, **extra: Any) -> None:
    who.send({"v": 1, "type": "hint", **extra})


def _tokens(t: dict[str, Any]) -> list[str]:
    return [i["token"] for i in t["invites"]]


# -- the table's choice ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "allowed"),
    [
        ({"game": "red-november", "players": 3, "seats": ["human"] * 3}, True),  # cooperative
        ({"game": "submarine", "players": 2, "seats": ["human", "human"]}, False),  # competitive
        ({"game": "submarine", "players": 3, "seats": ["human", "heuristic", "random"]}, True),
        ({"game": "submarine", "players": 2, "seats": ["human"] * 2, "advice": True}, True),
        ({"game": "red-november", "players": 3, "seats": ["human"] * 3, "advice": False}, False),
    ],
)
def test_advice_is_the_creators_choice_with_a_default(
    app: TestClient, body: dict[str, Any], allowed: bool
) -> None:
    t = new_table(app, **body)
    assert t["status"]["advice"] is allowed
    assert app.get(f"/api/tables/{t['id']}").json()["advice"] is allowed
    with _seats(app, t, _tokens(t)[0]) as (seat,):
        assert seat.welcome["advice"] is allowed


def test_advice_must_be_a_boolean(app: TestClient) -> None:
    r = app.post("/api/tables", json={"game": "submarine", "advice": "yes"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"


def test_the_home_form_says_whether_players_may_ask(app: TestClient) -> None:
    page = app.get("/?lang=en").text
    assert 'name="submarine-advice"' in page and 'name="red-november-advice"' in page
    form = {"game": "submarine", "submarine-players": "2", "submarine-seat0": "human"}
    form["submarine-seat1"] = "human"
    for extra, allowed in (({}, False), ({"submarine-advice": "1"}, True)):
        r = app.post("/new", data={**form, "submarine-advice-asked": "1", **extra})
        assert r.status_code == 200, r.text[:300]
        table = r.text.split("/t/")[1].split("#")[0]
        assert app.get(f"/api/tables/{table}").json()["advice"] is allowed
    r = app.post("/new", data=form)  # a form without the box: the default
    table = r.text.split("/t/")[1].split("#")[0]
    assert app.get(f"/api/tables/{table}").json()["advice"] is False


# -- asking --------------------------------------------------------------------------------
def test_the_answer_goes_to_the_asker_alone_and_the_log_says_who_asked(app: TestClient) -> None:
    t = new_table(
        app,
        game="submarine",
        players=3,
        seats=["human"] * 3,
        advice=True,
        names=["Ana", "Bea", "Cy"],
    )
    spectator = t["spectator"]["token"]
    with _seats(app, t, *_tokens(t), spectator, lang="en") as seats:
        mover = next(s for s in seats if s.state["your_turn"])
        others = [s for s in seats if s is not mover]
        _ask(mover)
        seat = mover.welcome["seats"][0]
        asked = mover.recv()
        assert asked["type"] == "advice_asked"
        assert asked["asked"] == {"n": 1, "seq": 0, "seat": seat}
        assert asked["line"] == f"Player {seat + 1} (you) asked the expert for advice."
        answer = mover.recv()
        assert answer["type"] == "advice" and answer["seq"] == 0 and answer["seat"] == seat
        advice = answer["advice"]
        assert advice["budget"] == min(ADVICE_BUDGET, BUDGET) and advice["seat"] == seat
        assert 1 <= len(answer["options"]) <= 3 and len(answer["lines"]) == 1 + len(
            answer["options"]
        )
        legal = {a["id"] for a in mover.state["legal"]}
        for option in answer["options"]:
            assert option["action"] in legal and option["chance"].endswith("%")
            assert option["label"] and option["reason"] and option["worlds"] >= 1
        assert "sampled world" in answer["title"]
        for other in others:
            line = other.recv()
            assert line["type"] == "advice_asked" and line["asked"] == asked["asked"]
            name = ["Ana", "Bea", "Cy"][seat]
            assert line["line"] == f"Player {seat + 1} ({name}) asked the expert for advice."
        # the mover plays: the others' next frame is that entry — no advice reached them
        mover.act(answer["options"][0]["action"])
        assert mover.recv()["type"] == "update"
        for other in others:
            assert other.recv()["type"] == "update"


def test_the_figures_are_the_experts_for_that_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live.secrets, "randbits", lambda _bits: 4242)
    with _app(tmp_path / "t.db") as client:
        t = new_table(client, game="red-november", players=3, seats=["human"] * 3)
        with _seats(client, t, *_tokens(t)) as seats:
            mover = next(s for s in seats if s.state["your_turn"])
            _ask(mover)
            assert mover.recv()["type"] == "advice_asked"
            answer = mover.recv()
    game = make_game("red-november", players=3)
    state = game.new_state(4242)
    assert mover.state["seq"] == 0 and state.current_seat() == answer["seat"]
    view = state.observe(answer["seat"])
    expected = advise(game, view, state.legal_action_ids(), seed=advice_seed(view), budget=BUDGET)
    assert answer["advice"] == json.loads(json.dumps(expected.to_json()))
    assert answer["advice"]["team"] is True


def test_asking_again_about_the_same_decision_answers_from_memory(app: TestClient) -> None:
    t = new_table(app, game="red-november", players=3, seats=["human"] * 3)
    with _seats(app, t, *_tokens(t)) as seats:
        mover = next(s for s in seats if s.state["your_turn"])
        _ask(mover)
        assert mover.recv()["type"] == "advice_asked"
        assert mover.recv()["type"] == "advice"
        first = mover.raw[-1]
        _ask(mover)
        again = mover.recv()  # no new line in the log: the same answer at once
        assert again["type"] == "advice" and mover.raw[-1] == first
        mover.act(again["options"][0]["action"])
        assert mover.recv()["type"] == "update"
        for other in seats:
            if other is not mover:
                assert other.recv()["type"] == "advice_asked"
                assert other.recv()["type"] == "update"


@pytest.mark.parametrize("who", ["spectator", "other", "off", "seat"])
def test_who_may_not_ask(tmp_path: Path, who: str) -> None:
    with _app(tmp_path / "t.db") as client:
        t = new_table(client, game="submarine", players=2, seats=["human"] * 2, advice=who != "off")
        tokens = [*_tokens(t), t["spectator"]["token"]]
        with _seats(client, t, *tokens, lang="fr") as seats:
            mover = next(s for s in seats if s.state["your_turn"])
            other = next(s for s in seats[:2] if s is not mover)
            asker, extra = {
                "spectator": (seats[2], {}),
                "other": (other, {}),
                "off": (mover, {}),
                "seat": (mover, {"seat": 1 - mover.welcome["seats"][0]}),
            }[who]
            _ask(asker, **extra)
            error = asker.recv()
            assert error["type"] == "error" and error["about"] == "hint"
            code = {"spectator": "spectator", "off": "advice_off"}.get(who, "not_your_turn")
            assert error["code"] == code and error["why"]
            if who == "off":
                assert error["why"] == "Les conseils sont désactivés à cette table."
            # nobody was told anything
            mover.act(mover.state["legal"][0]["id"])
            for seat in seats:
                assert seat.recv()["type"] == "update"


def test_no_advice_once_the_game_is_over(app: TestClient) -> None:
    t = new_table(app, game="submarine", players=2, seats=["human"] * 2, advice=True)
    rng = random.Random(4)
    with _seats(app, t, *_tokens(t)) as seats:
        play_out(seats, lambda s: rng.choice(s.state["legal"])["id"])
        _ask(seats[0])
        error = seats[0].recv()
        assert error["code"] == "game_over" and error["about"] == "hint"


def test_a_malformed_hint_is_refused(app: TestClient) -> None:
    t = new_table(app, game="red-november", players=3, seats=["human"] * 3)
    with _seats(app, t, _tokens(t)[0]) as (seat,):
        for bad in ({"seat": "0"}, {"seat": -1}, {"seat": 65}, {"what": 1}):
            _ask(seat, **bad)
            error = seat.recv()
            assert error["type"] == "error" and error["code"] == "bad_message", error


def test_a_second_question_while_the_expert_thinks_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = BotPool.advise

    async def slow(self: BotPool, job: Any) -> Advice:
        await asyncio.sleep(0.5)
        return await real(self, job)

    monkeypatch.setattr(BotPool, "advise", slow)
    with _app(tmp_path / "t.db") as client:
        t = new_table(client, game="red-november", players=3, seats=["human"] * 3)
        with _seats(client, t, *_tokens(t)) as seats:
            mover = next(s for s in seats if s.state["your_turn"])
            _ask(mover)
            _ask(mover)
            frames = [mover.recv() for _ in range(3)]
            kinds = [f.get("code") or f["type"] for f in frames]
            assert kinds == ["advice_asked", "hint_pending", "advice"]


def test_the_log_lines_come_back_after_a_reload_and_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with _app(db) as client:
        t = new_table(client, game="red-november", players=3, seats=["human"] * 3)
        with _seats(client, t, *_tokens(t)) as seats:
            mover = next(s for s in seats if s.state["your_turn"])
            _ask(mover)
            mover.recv()
            mover.recv()
        with _seats(client, t, _tokens(t)[1], lang="it") as (seat,):
            lines = seat.sync["advice_asked"]
            assert [x["asked"]["n"] for x in lines] == [1]
            assert "ha chiesto consiglio" in lines[0]["line"]
    with _app(db) as client, _seats(client, t, _tokens(t)[2]) as (seat,):
        assert [x["asked"]["n"] for x in seat.sync["advice_asked"]] == [1]
    with (
        _app(db) as client,
        client.websocket_connect("/ws") as ws,
    ):
        ws.send_text(
            json.dumps(
                {
                    "v": 1,
                    "type": "hello",
                    "table": t["id"],
                    "token": _tokens(t)[0],
                    "last_seq": 0,
                }
            )
        )
        ws.receive_text()
        sync = json.loads(ws.receive_text())
        assert len(sync["advice_asked"]) == 1


def test_the_view_travels_without_its_game_and_gives_the_same_advice() -> None:
    for name, options in (("submarine", {"players": 3}), ("red-november", {"players": 4})):
        game = make_game(name, **options)
        state = game.new_state(11)
        seat = state.current_seat()
        assert seat is not None
        view = state.observe(seat)
        packed = pack_view(view)
        assert len(packed) < 20_000  # the game is a reference, not a copy
        back = unpack_view(packed, game)
        assert back.to_json() == view.to_json()
        legal = state.legal_action_ids()
        seed = advice_seed(view)
        one = advise(game, view, legal, seed=seed, budget=12).to_json()
        two = advise(game, back, legal, seed=seed, budget=12).to_json()
        assert one == two


def test_the_terminal_client_prints_the_advice_and_who_asked() -> None:
    import io

    from rich.console import Console

    from subtable.ui.answers import JOIN_COMMANDS
    from subtable.web.client import Remote
    from subtable.words import game_ui

    out = io.StringIO()
    remote = Remote(None, Console(file=out, width=200), "en")
    remote.game = make_game("red-november", players=3)
    remote.ui = game_ui(remote.game)
    remote.asked = ("hint", "hint")
    remote.handle({"type": "advice_asked", "line": "Gnome 2 (Bea) asked the expert for advice."})
    remote.handle({"type": "advice", "lines": ["The expert, from what…", "1. move 5 …"]})
    text = out.getvalue()
    assert "Gnome 2 (Bea) asked the expert" in text and "1. move 5" in text
    assert remote.asked is None and "hint" in JOIN_COMMANDS


def test_the_record_and_the_replay_say_who_asked_and_never_what(
    app: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Advice asked is public: kept in the record as the terminal keeps it ([actions played
    before, seat]), shown in the replay's log after that action and by ``subtable replay``."""
    import io

    from rich.console import Console

    from subtable.commands import replay
    from subtable.core.record import GameRecord
    from subtable.i18n import translator

    t = new_table(app, game="submarine", players=2, seats=["human"] * 2, advice=True)
    rng = random.Random(8)
    with _seats(app, t, *_tokens(t), lang="en") as seats:
        first = next(s for s in seats if s.state["your_turn"])
        first.act(rng.choice(first.state["legal"])["id"])
        for s in seats:
            assert s.recv()["type"] == "update"
        mover = next(s for s in seats if s.state["your_turn"])
        _ask(mover)
        assert mover.recv()["type"] == "advice_asked"
        answer = mover.recv()
        other = next(s for s in seats if s is not mover)
        assert other.recv()["type"] == "advice_asked"
        asker = mover.welcome["seats"][0]
        play_out(seats, lambda s: rng.choice(s.state["legal"])["id"])
    record = app.get(f"/api/tables/{t['id']}/record").json()
    assert record["meta"]["advice"] == [[1, asker]]
    assert str(answer["options"][0]["chance"]) not in json.dumps(record["meta"])
    line = f"Player {asker + 1} (player {asker + 1}) asked the expert for advice."
    for step, shown in ((1, True), (0, False), (2, True)):
        page = app.get(f"/replay/{t['id']}?step={step}&lang=en").text
        assert (line in page) is shown, step
    out = io.StringIO()
    monkeypatch.setattr(replay, "out", Console(file=out, width=300))
    replay.narrate(GameRecord.from_json(record), translator("en"))
    told = out.getvalue().splitlines()
    at = next(i for i, x in enumerate(told) if "asked the expert for advice" in x)
    assert f"Player {asker + 1}" in told[at]
    # it follows the first action's line (and that action's events), before the second's
    plays = [i for i, x in enumerate(told) if x.startswith(("Player 1: ", "Player 2: "))]
    assert plays[0] < at < plays[1], told[:12]
