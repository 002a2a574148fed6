"""Learn to play in the browser's API: every lesson of both games played through
``POST /api/learn`` (a wrong move explained in every teaching step, then the moves that make
the point; a played-out scene to its end), the pages, and malformed requests refused with
clear errors."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from markupsafe import escape

from subtable.bots.base import make_bot, observe
from subtable.core.rng import Rng
from subtable.i18n import translator
from subtable.learn import LessonRun, find_lesson, lesson_games, lessons
from subtable.learn.run import text_of
from subtable.web.learn import MAX_MOVES

ALL = [(game, lesson.id) for game in lesson_games() for lesson in lessons(game)]


def _ids(case: tuple[str, str]) -> str:
    return case[1]


def _post(client: Any, game: str, lesson: str, status: int = 200, **body: Any) -> dict[str, Any]:
    r = client.post(f"/api/learn/{game}/{lesson}", json=body)
    assert r.status_code == status, r.text[:300]
    data: dict[str, Any] = r.json()
    return data


def _bot_move(game: str, lesson: str, scene: int, moves: list[str]) -> str:
    """The expert's move for the learner of a played-out scene, on the same position (a
    lesson run of its own, as the server replays it)."""
    run = LessonRun(find_lesson(game, lesson), translator("en"))
    run.index = scene
    run.restart()
    for move in moves:
        assert run.try_move(move).accepted
    seat = run.scene.seat
    bot = make_bot("heuristic", run.state.game, seat, Rng(3))
    return str(bot.choose(observe(run.state, seat)).notation())


@pytest.mark.parametrize("case", ALL, ids=_ids)
def test_every_lesson_plays_through_the_api(client: Any, case: tuple[str, str]) -> None:
    game, lesson_id = case
    lesson = find_lesson(game, lesson_id)
    tr = translator("en")
    data = _post(client, game, lesson_id, scene=0, lang="en")
    assert data["lesson"]["title"] == text_of(lesson.title, tr)
    explained = 0
    for index, scene in enumerate(lesson.scenes):
        if index:
            data = _post(client, game, lesson_id, scene=index, lang="en")
        assert data["scene"]["index"] == index and data["moves"] == []
        assert data["scene"]["title"] == text_of(scene.title, tr)
        assert "<svg" in data["board"] and data["options"]
        tried: set[int] = set()
        for _ in range(400):
            if data["scene"]["done"]:
                break
            moves = data["moves"]
            if scene.steps:
                step = len(moves)
                accept = set(scene.steps[step].accept)
                wrong = [o["notation"] for o in data["options"] if o["notation"] not in accept]
                if wrong and step not in tried:
                    tried.add(step)
                    missed = _post(
                        client, game, lesson_id, scene=index, moves=moves, move=wrong[0], lang="en"
                    )
                    outcome = missed["outcome"]
                    assert outcome["kind"] == "wrong" and not outcome["accepted"]
                    assert outcome["message"] and missed["moves"] == moves  # nothing played
                    explained += 1
                assert data["expected"], data["scene"]
                move = data["expected"][0]
            else:
                move = _bot_move(game, lesson_id, index, moves)
            data = _post(client, game, lesson_id, scene=index, moves=moves, move=move, lang="en")
            outcome = data["outcome"]
            assert outcome["accepted"], outcome
            assert data["moves"] == [*moves, outcome["played"][0]["notation"]]
            assert outcome["played"][0]["learner"] and outcome["played"][0]["head"]
        assert data["scene"]["done"], f"{lesson_id} {scene.id} did not end"
        if scene.steps and scene.steps[-1].done is not None:
            assert data["outcome"]["message"]  # what happened, and why
        assert data["options"] == [] and data["next_scene"] == (
            None if index + 1 == len(lesson.scenes) else index + 1
        )
    assert explained >= sum(1 for s in lesson.scenes if s.steps)
    assert data["finished"]
    assert data["lesson_done"] == tr("learn.ui.lesson_done", title=text_of(lesson.title, tr))
    assert data["result"]  # the short game's result line


def test_a_lesson_in_another_language_and_a_move_by_its_number(client: Any) -> None:
    data = _post(client, "red-november", "rn-first-turns", lang="it")
    assert data["scene"]["title"] == "Il turno e il Tracciato del Tempo"
    expected = data["expected"][0]
    number = next(o["n"] for o in data["options"] if o["notation"] == expected)
    data = _post(client, "red-november", "rn-first-turns", move=number, lang="it")
    assert data["outcome"]["accepted"] and data["moves"] == [expected]


def test_an_illegal_move_gets_the_engines_reason(client: Any) -> None:
    data = _post(client, "red-november", "rn-first-turns", scene=1, move="move 1", lang="en")
    outcome = data["outcome"]
    assert outcome["kind"] == "illegal" and "blocked" in outcome["message"]
    data = _post(client, "red-november", "rn-first-turns", scene=1, move="fly", lang="en")
    assert data["outcome"]["kind"] == "unknown"


def test_the_same_moves_give_the_same_scene(client: Any) -> None:
    first = _post(client, "submarine", "sub-first-dives", scene=4, lang="en")
    move = _bot_move("submarine", "sub-first-dives", 4, [])
    a = _post(client, "submarine", "sub-first-dives", scene=4, move=move, lang="en")
    b = _post(client, "submarine", "sub-first-dives", scene=4, move=move, lang="en")
    assert a == b and a["moves"] == [move] and first["board"] != a["board"]
    again = _post(client, "submarine", "sub-first-dives", scene=4, moves=a["moves"], lang="en")
    assert again["board"] == a["board"] and again["outcome"] is None


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("red-november/rn-first-turns", {"scene": 99}, 400, "bad_scene"),
        ("red-november/rn-first-turns", {"scene": -1}, 400, "bad_request"),
        ("red-november/rn-first-turns", {"scene": "1"}, 400, "bad_request"),
        ("red-november/rn-first-turns", {"moves": ["fly"]}, 400, "bad_moves"),
        ("red-november/rn-first-turns", {"moves": ["move 5"]}, 400, "bad_moves"),
        ("red-november/rn-first-turns", {"moves": ["draw 3", "draw 3"]}, 400, "bad_moves"),
        ("red-november/rn-first-turns", {"moves": "draw 3"}, 400, "bad_request"),
        ("red-november/rn-first-turns", {"moves": [""]}, 400, "bad_request"),
        ("red-november/rn-first-turns", {"moves": ["x" * 65]}, 400, "bad_request"),
        (
            "red-november/rn-first-turns",
            {"moves": ["draw 3"] * (MAX_MOVES + 1)},
            400,
            "too_many_moves",
        ),
        ("red-november/rn-first-turns", {"move": 0}, 400, "bad_move"),
        ("red-november/rn-first-turns", {"move": True}, 400, "bad_request"),
        ("red-november/rn-first-turns", {"lang": "xx"}, 400, "bad_lang"),
        ("red-november/rn-first-turns", {"hack": 1}, 400, "bad_request"),
        ("red-november/rn-first-turns", [1, 2], 400, "bad_request"),
        ("red-november/nope", {}, 404, "no_lesson"),
        ("nope/rn-first-turns", {}, 404, "no_game"),
    ],
)
def test_malformed_requests_are_refused_with_clear_errors(
    client: Any, path: str, body: Any, status: int, code: str
) -> None:
    r = client.post(f"/api/learn/{path}", json=body)
    assert r.status_code == status, r.text[:300]
    error = r.json()["error"]
    assert error["code"] == code and error["message"]


def test_bodies_that_are_not_json_are_refused(client: Any) -> None:
    url = "/api/learn/red-november/rn-first-turns"
    for raw in (b"{", b"\xff\xfe", b"[" * 40 + b"]" * 40):
        r = client.post(url, content=raw, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    r = client.post(url, content=b"x" * 70_000)
    assert r.status_code == 413


@pytest.mark.parametrize("lang", ["en", "fr", "it", "pt"])
def test_the_lessons_page_lists_every_lesson(client: Any, lang: str) -> None:
    tr = translator(lang)
    r = client.get(f"/learn?lang={lang}")
    assert r.status_code == 200 and f'lang="{lang}"' in r.text
    for game, lesson_id in ALL:
        assert f"/learn/{game}/{lesson_id}?lang={lang}" in r.text
        assert str(escape(text_of(find_lesson(game, lesson_id).title, tr))) in r.text
    assert tr("web.learn.title") in r.text
    home = client.get(f"/?lang={lang}").text
    assert f'href="/learn?lang={lang}"' in home


def _first(html: str) -> dict[str, Any]:
    """The scene a lesson page carries (its script's data)."""
    found = re.search(r'<script type="application/json" id="learn-first">(.*?)</script>', html)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_a_lesson_page_carries_its_scene(client: Any) -> None:
    r = client.get("/learn/submarine/sub-ending?lang=fr&scene=2")
    assert r.status_code == 200 and "/static/learn.js" in r.text
    lesson = find_lesson("submarine", "sub-ending")
    first = _first(r.text)
    assert first["scene"]["index"] == 1
    assert first["scene"]["title"] == text_of(lesson.scenes[1].title, translator("fr"))
    assert client.get("/learn/submarine/nope").status_code == 404
    r = client.get("/learn/submarine/sub-ending?scene=99")  # out of range: the first scene
    assert r.status_code == 200 and _first(r.text)["scene"]["index"] == 0
    assert client.get("/static/learn.js").status_code == 200
    assert client.get("/static/learn.css").status_code == 200


@pytest.mark.parametrize("lang", ["fr", "it", "pt"])
def test_a_lesson_speaks_the_learners_language_and_links_the_lessons_once(
    client: Any, lang: str
) -> None:
    """The bots' seats read in the learner's language (not ``bot heuristic``), and the header
    names the lessons once: the heading links back to them, no second link beside it."""
    tr = translator(lang)
    for game, lesson_id in ALL:
        page = client.get(f"/learn/{game}/{lesson_id}?lang={lang}").text
        panels = _first(page)["panels"]
        assert str(escape(tr("ui.who.bot", bot=tr("ui.bot.kind.heuristic")))) in panels
        assert "heuristic" not in panels
        assert 'class="nav-learn"' not in page
        assert page.count(f'href="/learn?lang={lang}"') == 2  # the heading, all the lessons
    assert 'class="nav-learn"' not in client.get(f"/learn?lang={lang}").text
    assert 'class="nav-learn"' in client.get(f"/?lang={lang}").text
