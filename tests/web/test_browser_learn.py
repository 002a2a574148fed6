"""Learning in the browser, driven in Debian's Chromium by Playwright against a real server:
a lesson's first scene played (a wrong move explained, then the move that makes the
point), the hint button at a table (the advice shown to the asker, the line in everyone's
log), and the chart of where a finished game turned, in the replay and on the table page,
its moments jumping to their step. Screenshots go to $SUBTABLE_SCREENSHOTS (docs/screenshots
refreshes the README's)."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.web.test_browser_table import Page, axe_violations, seat_url

from subtable.web.turning import compute

#: the learning screenshots' size: small, and still readable
VIEW = {"width": 1100, "height": 760}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "t.sqlite3"


@pytest.fixture
def server(servers: Callable[..., Any], db: Path) -> Any:
    return servers(str(db))


def test_the_first_scene_of_a_lesson(browser: Any, server: Any, shots: Path) -> None:
    ctx = browser.new_context(viewport=VIEW)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + "/?lang=en")
        page.locator("a.nav-learn").click()  # the home page's header leads to the lessons
        page.wait_for_selector(".learn-game")
        assert page.locator(".learn-game").count() == 2
        page.locator(".lessons a").first.click()
        page.wait_for_selector("#legal button")
        assert page.locator("#scene-h").inner_text().startswith("1/5")
        assert page.locator("#done-box").is_hidden() and page.locator("#feedback").is_hidden()
        # the scene's text stands beside the board, from the top: not pushed under it
        board, heading = (
            page.locator("#board").bounding_box(),
            page.locator("#scene-h").bounding_box(),
        )
        assert board is not None and heading is not None
        assert heading["x"] >= board["x"] + board["width"]
        assert heading["y"] < board["y"] + board["height"] / 2
        data = page.evaluate("window.subtableLesson.data")
        expected = data["expected"]
        wrong = next(o["notation"] for o in data["options"] if o["notation"] not in expected)
        page.locator(f"#legal button[data-notation='{wrong}']").click()
        page.wait_for_selector("#feedback.wrong")
        assert page.locator("#feedback").inner_text().strip()
        assert page.evaluate("window.subtableLesson.data.moves") == []  # not played
        page.locator("#show").click()
        assert expected[0] in page.locator("#feedback").inner_text()
        page.locator(f"#legal button[data-notation='{expected[0]}']").click()
        page.wait_for_selector("#feedback.good")
        page.wait_for_selector("#done-box:not([hidden])")
        assert "draw 3" in page.locator("#happened").inner_text()
        assert page.locator("#actions").is_hidden()
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / "learn.png"))
        assert axe_violations(page) == []
        page.locator("#next").click()
        page.wait_for_function("document.body.dataset.scene === '1'")
        assert page.locator("#scene-h").inner_text().startswith("2/5")
        assert "scene=2" in page.url
        # an illegal move typed in: the engine's reason, nothing played
        page.fill("#type-move", "move 1")
        page.locator("#type-form button").click()
        page.wait_for_selector("#feedback.error")
        assert "blocked" in page.locator("#feedback").inner_text()
        page.reload()  # the address keeps the scene
        page.wait_for_selector("#legal button")
        assert page.locator("#scene-h").inner_text().startswith("2/5")
        assert errors == []
    finally:
        ctx.close()


def test_the_end_of_a_lesson_says_so(browser: Any, server: Any) -> None:
    """The last scene played out: the result and "Lesson complete" stay in sight (the table's
    rule that hides its status line at the end of a game does not reach them)."""
    ctx = browser.new_context(viewport=VIEW)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + "/learn/submarine/sub-ending?lang=en&scene=4")
        page.wait_for_selector("#legal button")
        for _ in range(60):
            if page.evaluate("document.body.dataset.finished === 'true'"):
                break
            before = len(page.evaluate("window.subtableLesson.data.moves"))
            page.locator("#legal button").first.click()
            page.wait_for_function(
                f"window.subtableLesson.data.moves.length > {before} "
                "|| document.body.dataset.finished === 'true'"
            )
        assert page.evaluate("document.body.dataset.finished") == "true"
        done = page.locator("#lesson-done")
        assert "Lesson complete: Swaps, jokers, the end and scoring." in done.inner_text()
        box = done.bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 10
        assert page.locator("#all-lessons").is_visible()
        assert errors == []
    finally:
        ctx.close()


def test_the_hint_button(browser: Any, server: Any, shots: Path) -> None:
    t = server.post(
        "/api/tables",
        {"game": "red-november", "players": 3, "seats": ["human", "heuristic", "heuristic"]},
    )
    assert t["status"]["advice"] is True
    me = Page(browser, seat_url(t["invites"][0], lang="en"), viewport=VIEW)
    watcher = Page(browser, seat_url(t["spectator"], lang="en"), viewport=VIEW)
    try:
        me.page.wait_for_selector("#hint", state="visible")
        assert watcher.page.locator("#hint-box").is_hidden()  # a spectator cannot ask
        me.page.locator("#hint").click()
        me.page.wait_for_selector(".advice-options li")
        options = me.page.locator(".advice-options li")
        assert 1 <= options.count() <= 3
        assert "%" in options.first.inner_text()
        assert "sampled world" in me.page.locator(".advice-title").inner_text()
        for page in (me, watcher):
            page.page.wait_for_selector("#log li.asked")
            assert "Gnome 1" in page.page.locator("#log li.asked").inner_text()
            assert "asked the expert for advice" in page.page.locator("#log li.asked").inner_text()
        assert watcher.page.locator(".advice-options").count() == 0  # the asker's alone
        assert not any('"type":"advice",' in f for f in watcher.frames)
        me.page.locator("#hint-box").scroll_into_view_if_needed()
        me.page.screenshot(path=str(shots / "hint.png"))
        assert axe_violations(me.page) == []
        before = me.seq()
        me.page.locator(".advice-options button.play-advised").first.click()
        me.wait_seq(before)
        assert me.page.locator(".advice-options").count() == 0  # the next decision: asked anew
        assert me.errors == [] and watcher.errors == []
    finally:
        me.close()
        watcher.close()


def _finished(server: Any, db: Path) -> tuple[dict[str, Any], list[int]]:
    """A table of bots played to its end, its chart computed here as the server computes
    it and kept where the server keeps it; with the moves of its team's moments (where the
    team's curve has fewer than two, more are marked for the links to be followed)."""
    t = server.post(
        "/api/tables", {"game": "red-november", "players": 3, "seats": ["heuristic"] * 3}
    )
    deadline = time.monotonic() + 120
    while not server.get(f"/api/tables/{t['id']}")["finished"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    data = compute(server.get(f"/api/tables/{t['id']}/record"))  # the server's worlds
    found = [m["move"] for m in data["moments"] if m["seat"] is None]
    if len(found) < 2:  # the team's curve is the one drawn; a seat's moments are not on it
        team = data["team_series"]
        moves = sorted(range(1, len(team)), key=lambda k: -abs(team[k] - team[k - 1]))[:2]
        data["moments"] += [
            {"seat": None, "move": k, "before": team[k - 1], "after": team[k], "p": 0.0}
            for k in sorted(moves)
            if k not in found
        ]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE tables SET turning = ? WHERE id = ?", (json.dumps(data), t["id"]))
    return t, found


#: a moment's change and, unless every fresh world measured the same change, its interval
_CHANGE = re.compile(r"([−+])(\d+) points?(?: \(±(\d+)\))?$")


def test_the_chart_in_the_replay_and_on_the_finished_table(
    browser: Any, server: Any, db: Path, shots: Path
) -> None:
    t, found = _finished(server, db)
    ctx = browser.new_context(viewport=VIEW)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server.url}/replay/{t['id']}?lang=en")
        chart = page.locator("#turning .turning-chart")
        chart.wait_for()
        marks = page.locator("#turning a.moment")
        assert marks.count() >= 2
        assert page.locator(".turning-moments li").count() == marks.count()
        method = page.locator("#turning .turning-method").inner_text()
        assert "16 worlds" in method and "48 fresh worlds" in method  # the server's
        # each moment the chart found says its change and its 95% interval, which
        # excludes no change: a significant change, not noise (a change every fresh world
        # measured alike, such as a death that ends the game, has no interval to give)
        for k in range(marks.count()):
            if int(marks.nth(k).get_attribute("data-move") or "0") in found:
                text = page.locator(".turning-moments li").nth(k).inner_text().strip()
                change = _CHANGE.search(text)
                assert change is not None, text
                if change.group(3) is None:  # certain: every world won, or lost, by it
                    assert int(change.group(2)) == 100, text
                else:  # both rounded
                    assert int(change.group(2)) >= int(change.group(3)), text
        page.locator("#turning").screenshot(path=str(shots / "turning.png"))
        assert axe_violations(page) == []
        move = int(marks.nth(1).get_attribute("data-move") or "0")
        marks.nth(1).click()  # to that moment of the replay
        page.wait_for_url(f"**step={move}**")
        assert page.locator("#step-out").inner_text() == str(move)
        assert page.locator("#turning .now").count() == 1
        # the finished table's page shows it too
        watcher = Page(browser, seat_url(t["spectator"], lang="en"), viewport=VIEW)
        try:
            watcher.page.wait_for_selector("#turning-box .turning-chart")
            assert watcher.page.locator("#turning-box a.moment").count() == marks.count()
            link = watcher.page.locator("#turning-link a")  # the end screen points to it
            assert link.is_visible() and link.get_attribute("href") == "#turning-box"
        finally:
            watcher.close()
        assert errors == []
    finally:
        ctx.close()
