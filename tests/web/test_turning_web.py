"""Where the game turned, at the web table: the chart of a finished table, computed once off
the event loop, kept in the database, drawn as inline SVG in the replay and given by
``GET /api/tables/{id}/turning``; its moments link to their step of the replay."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import new_table

from subtable.core.record import GameRecord
from subtable.i18n import translator
from subtable.sim.turning import Moment, turning_points
from subtable.web import turning as web_turning
from subtable.web.app import Settings, create_app

WORLDS = 2


def _app(db: Path) -> TestClient:
    return TestClient(create_app(Settings(db=str(db), bot_workers=0, rate=1e6, burst=1e6)))


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with _app(tmp_path / "t.db") as client:
        client.app.state.turnings.worlds = WORLDS  # type: ignore[attr-defined]
        yield client


def finished_table(client: TestClient, game: str, players: int) -> dict[str, Any]:
    """A table of bots, played to its end."""
    t = new_table(client, game=game, players=players, seats=["heuristic"] * players)
    deadline = time.monotonic() + 120
    while not client.get(f"/api/tables/{t['id']}").json()["finished"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return t


def chart(client: TestClient, table: str, query: str = "") -> dict[str, Any]:
    """The chart's answer, once computed (``202`` until then)."""
    deadline = time.monotonic() + 120
    while True:
        r = client.get(f"/api/tables/{table}/turning{query}")
        if r.status_code == 200:
            data: dict[str, Any] = r.json()
            return data
        assert r.status_code == 202, r.text
        assert r.json() == {"status": "computing"}
        assert time.monotonic() < deadline, "the chart did not come"
        time.sleep(0.05)


def _moment_links(html: str) -> list[str]:
    return re.findall(r'<a class="moment (?:drop|rise)" href="([^"]+)"', html)


@pytest.mark.slow
def test_the_chart_of_a_finished_game(app: TestClient) -> None:
    t = finished_table(app, "red-november", 3)
    first = app.get(f"/api/tables/{t['id']}/turning")
    assert first.status_code == 202  # computed in the background, once
    data = chart(app, t["id"], "?lang=en")
    record = GameRecord.from_json(app.get(f"/api/tables/{t['id']}/record").json())
    expected = turning_points(record, worlds=WORLDS)
    assert data["turning"] == expected.to_json()  # the lab's figures for the same record
    html = data["html"]
    assert html.count('<svg class="turning-chart"') == 1 and html.count("<polyline") == 1
    links = _moment_links(html)
    assert len(links) == len(expected.shown_moments())
    if not links:  # two worlds a point never make a change significant: the page says so
        assert "No move changed the chance of winning" in html
    assert "the team" in html and "Where the game turned" not in html  # the page's heading
    assert '<text x="46" y="256" text-anchor="middle" class="tick" font-size="11">0</text>' in html
    # the same legend as seen from a gnome's seat (the table's view) as in the replay
    mine = chart(app, t["id"], "?seat=2&lang=en")["html"]
    legend = re.compile(r'<ul class="turning-legend".*?</ul>', re.S)
    assert legend.findall(mine) == legend.findall(html) and "Gnome" not in legend.findall(html)[0]
    # the replay page now draws it inline, the moments linking to that step
    page = app.get(f"/replay/{t['id']}?lang=en&step=7").text
    assert 'id="turning"' in page and '<svg class="turning-chart"' in page
    assert 'class="now"' in page and "data-src" not in page
    assert "Where the game turned" in page


def test_a_seat_sees_its_own_curve(app: TestClient) -> None:
    t = finished_table(app, "submarine", 2)
    everything = chart(app, t["id"], "?lang=fr")
    assert everything["html"].count("<polyline") == 2  # each seat's curve
    assert "coups joués" in everything["html"]
    mine = chart(app, t["id"], "?seat=2&lang=fr&step=3")
    series = mine["turning"]["series"][1]
    html = mine["html"]
    assert html.count("<polyline") == 1 and 'class="now"' in html
    assert len(series) == len(mine["turning"]["moves"]) + 1
    links = _moment_links(html)
    assert len(links) == len([m for m in mine["turning"]["moments"] if m["seat"] == 1])
    assert all(f"/replay/{t['id']}?seat=2&amp;step=" in link for link in links)


def test_a_chart_is_computed_once_and_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "t.db"
    with _app(db) as client:
        client.app.state.turnings.worlds = WORLDS  # type: ignore[attr-defined]
        t = finished_table(client, "red-november", 3)
        page = client.get(f"/replay/{t['id']}?lang=it").text
        # not known yet: a placeholder the page's script fills in
        assert f'data-src="/api/tables/{t["id"]}/turning?seat=all&amp;step=' in page
        assert "qualche secondo" in page
        data = chart(client, t["id"])
    calls = []
    monkeypatch.setattr(web_turning, "compute", lambda *a: calls.append(a))  # never again
    with _app(db) as client:
        page = client.get(f"/replay/{t['id']}?lang=en").text
        assert '<svg class="turning-chart"' in page and "data-src" not in page
        again = client.get(f"/api/tables/{t['id']}/turning")
        assert again.status_code == 200 and again.json()["turning"] == data["turning"]
    assert calls == []


def test_no_chart_before_the_end_and_none_for_an_unknown_table(app: TestClient) -> None:
    t = new_table(app, game="red-november", players=3, seats=["human"] * 3)
    r = app.get(f"/api/tables/{t['id']}/turning")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_over"
    r = app.get("/api/tables/nope/turning")
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_table"


def test_too_many_charts_at_once_is_busy(app: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    t = finished_table(app, "submarine", 2)
    monkeypatch.setattr(web_turning, "MAX_WAITING", 0)
    r = app.get(f"/api/tables/{t['id']}/turning")
    assert r.status_code == 503 and r.json()["error"]["code"] == "busy"
    assert r.headers["retry-after"] == "5"
    page = app.get(f"/replay/{t['id']}").text  # the page waits and asks again
    assert "data-src" in page


def test_closing_the_server_stops_a_chart_under_way(tmp_path: Path) -> None:
    with _app(tmp_path / "t.db") as client:  # the full number of worlds: seconds of work
        t = finished_table(client, "submarine", 3)
        assert client.get(f"/api/tables/{t['id']}/turning").status_code == 202  # under way
        assert any(th.name.startswith("subtable-turning") for th in threading.enumerate())
    # closed: the chart's thread has stopped, not left to finish (and to slow what runs next)
    assert not [th for th in threading.enumerate() if th.name.startswith("subtable-turning")]


def test_the_svg_escapes_what_it_writes() -> None:
    from subtable.sim.chart import Axes, Curve, Mark, chart_svg
    from subtable.web.boards.svg import to_svg

    svg = to_svg(
        chart_svg(
            [Curve("<b>x</b>", [0.5, 0.2, 0.9], [0.4, 0.1, 0.8], [0.6, 0.3, 1.0])],
            [Mark(0, 1, 0.5, 0.2, '/r?a=1&b="2"', "<script>")],
            Axes("<t>", "&", "x", "y", [0, 1, 2]),
        )
    )
    assert "<script>" not in svg and "<b>" not in svg and "<t>" not in svg
    assert "&lt;script&gt;" in svg and "&amp;b=&quot;2&quot;" in svg


def _svg_of(html: str) -> str:
    """A page's chart, its moments' links made plain groups (where they link aside)."""
    found = re.search(r'<svg class="turning-chart".*?</svg>', html, re.S)
    assert found is not None
    svg = re.sub(r'<a class="moment (\w+)" href="[^"]*"', r'<g class="moment \1"', found[0])
    return svg.replace("</a>", "</g>")


def test_the_report_and_the_page_draw_the_same_chart(app: TestClient, tmp_path: Path) -> None:
    from subtable.core.registry import make_game
    from subtable.i18n import translator
    from subtable.sim.turning_report import write_turning_report

    t = finished_table(app, "submarine", 2)
    page = chart(app, t["id"], "?lang=pt")["html"]
    record = GameRecord.from_json(app.get(f"/api/tables/{t['id']}/record").json())
    turning = turning_points(record, worlds=WORLDS)
    report = tmp_path / "report.html"
    write_turning_report(report, turning, make_game("submarine", players=2), translator("pt"))
    assert _svg_of(page) == _svg_of(report.read_text(encoding="utf-8"))
    assert page.count("<polyline") == 2


def test_moments_link_to_the_replay_numbered_as_the_live_log(app: TestClient) -> None:
    t = finished_table(app, "red-november", 3)
    chart(app, t["id"])
    manager = app.app.state.manager  # type: ignore[attr-defined]
    table = app.portal.call(manager.get, t["id"])
    service = app.app.state.turnings  # type: ignore[attr-defined]
    turning = app.portal.call(service.get, table)
    # an undone move and its undo take numbers in the log: the moves after them skip two
    entries = table.entries
    for entry in entries[5:]:
        entry.seq += 2
    numbers = web_turning.log_numbers(table)
    assert numbers[:7] == [0, 1, 2, 3, 4, 5, 8] and len(numbers) == len(turning.moves) + 1
    marked = replace(turning, moments=(Moment(None, 6, 0.75, 0.25, 1e-9),))
    tr = translator("en")
    html = web_turning.turning_html(marked, table, tr, None, None)
    assert _moment_links(html) == [f"/replay/{t['id']}?seat=all&amp;step=6&amp;lang=en#board"]
    assert "move 8: " in html and ">8</text></a>" in html
    assert "No move changed" not in html
    # the replay's log numbers the moves as the table's log did
    page = app.get(f"/replay/{t['id']}?lang=en&step=7").text
    assert re.findall(r'<li value="(\d+)">', page) == ["1", "2", "3", "4", "5", "8", "9"]
