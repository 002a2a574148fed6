"""The browser table's layout, measured in Debian's Chromium against a real server.

The board is the largest thing on the page (the submarine at least 700 px wide at
1,280 × 800, 560 px at 1,024), nothing is cut or scrolls sideways from a phone to a wide
desktop, the decision's options are in view, the stage never scrolls inside itself, every
board element says what it is in a popover, the legend is on the page, the labels are whole
and distinct in the four languages, and the phone's tabs, log and badges behave.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from tests.web.test_browser_table import Page, seat_url

from subtable.games.red_november.components import default_components
from subtable.i18n import LANGUAGES, translator

pytestmark = [pytest.mark.browser, pytest.mark.server]

SIZES = {
    "desktop": {"width": 1280, "height": 800},
    "small": {"width": 1024, "height": 768},
    "wide": {"width": 1920, "height": 1080},
    "phone": {"width": 360, "height": 740},
}

#: the rectangles of the page's parts (null when absent or not drawn)
MEASURE = """() => {
  const box = (sel) => {
    const e = document.querySelector(sel);
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return r.width
      ? {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width} : null;
  };
  const legal = document.getElementById('legal');
  const stage = document.getElementById('stage');
  return {sub: box('.rn-sub'), board: box('#board'), last: box('#legal > li:last-child'),
          legalScroll: legal.scrollHeight - legal.clientHeight,
          stageScroll: stage.hidden ? 0 : stage.scrollHeight - stage.clientHeight,
          stage: stage.hidden ? null : box('#stage'),
          width: document.documentElement.scrollWidth,
          wider: [...document.querySelectorAll('.table *')].filter((e) => {
            const r = e.getBoundingClientRect();
            return r.width && (r.right > innerWidth + 1 || r.left < -1)
              && getComputedStyle(e).position !== 'absolute';
          }).map((e) => e.id || e.className.baseVal || e.className || e.tagName).slice(0, 5)};
}"""


def _table(server: Any, players: int = 3, bots: str = "random", **query: str) -> str:
    t = server.post(
        "/api/tables",
        {"game": "red-november", "players": players, "seats": ["human"] + [bots] * (players - 1)},
    )
    return seat_url(t["invites"][0], **query)


def _at_decision(page: Page) -> None:
    page.page.wait_for_function(
        "document.body.dataset.yourTurn === 'true' || document.body.dataset.finished === 'true'",
        timeout=30_000,
    )
    later = page.page.locator("#name-later")
    if later.is_visible():
        later.click()


def _play_any_option(page: Page, rng: random.Random) -> None:
    """Click one of the options, drawn from ``rng``, and wait until the move is played."""
    before = page.seq()
    buttons = page.page.locator("#legal button[data-id]")
    buttons.nth(rng.randrange(buttons.count())).click()
    page.wait_seq(before)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_board_is_large_and_nothing_is_cut(
    browser: Any, server: Any, shots: Path, size: str
) -> None:
    viewport = SIZES[size]
    page = Page(browser, _table(server), viewport=viewport)
    try:
        _at_decision(page)
        m = page.page.evaluate(MEASURE)
        assert m["width"] <= viewport["width"], m  # no sideways scroll
        assert m["wider"] == [], m  # no part of the table beyond the window's edges
        sub = m["sub"]
        assert sub is not None and sub["left"] >= 0 and sub["right"] <= viewport["width"]
        least = {"desktop": 700, "small": 560, "wide": 700, "phone": 330}[size]
        assert sub["width"] >= least, (size, sub)
        if size == "desktop":
            # the decision and its options in view, the list never scrolling inside itself
            assert m["last"] is not None and m["last"]["bottom"] <= viewport["height"], m
            assert m["legalScroll"] <= 0, m
        page.page.screenshot(path=str(shots / f"red-november-{viewport['width']}.png"))
        assert page.errors == []
    finally:
        page.close()


def test_the_stage_never_scrolls_and_is_in_view(browser: Any, server: Any) -> None:
    """Four gnomes, three heuristic crewmates: after each of the person's moves whatever the
    stage shows (rolls, event cards, what an event asks) is whole and on screen."""
    page = Page(browser, _table(server, 4, "heuristic"), viewport=SIZES["desktop"])
    rng = random.Random(7)
    shown = 0
    try:
        for _ in range(12):
            _at_decision(page)
            if page.finished():
                break
            m = page.page.evaluate(MEASURE)
            if m["stage"] is not None:
                shown += 1
                assert m["stageScroll"] <= 0, m
                # whole pixels: a scroll lands on a device pixel, so a box may sit a fraction off
                assert m["stage"]["top"] > -1 and m["stage"]["bottom"] < 801, m
            _play_any_option(page, rng)
        assert shown > 0  # the crewmates' moves were staged at least once
        assert page.errors == []
    finally:
        page.close()


#: the last option's bottom with the stage in the column, whether the stage was floating, and
#: the rectangles of the stage and the board (the stage is put back as it was, synchronously)
IN_COLUMN = """() => {
  const stage = document.getElementById('stage');
  const floating = stage.classList.contains('aside');
  stage.classList.remove('aside');
  const bottom = document.querySelector('#legal > li:last-child').getBoundingClientRect().bottom;
  if (floating) stage.classList.add('aside');
  const s = stage.getBoundingClientRect();
  const b = document.getElementById('board').getBoundingClientRect();
  return {floating, bottom, stage: {top: s.top, bottom: s.bottom, left: s.left, right: s.right},
          board: {left: b.left, right: b.right}, scroll: stage.scrollHeight - stage.clientHeight};
}"""


def _staged_decision(page: Page, rng: random.Random) -> None:
    """Play the person's moves at random until a decision comes with the stage shown."""
    for _ in range(12):
        _at_decision(page)
        assert not page.finished()
        if page.page.locator("#stage").is_visible():
            return
        _play_any_option(page, rng)
    raise AssertionError("no move was staged")


def test_the_stage_leaves_the_column_when_the_options_need_it(browser: Any, server: Any) -> None:
    """A window too short for the stage and the options: the stage floats over the board's
    lower corner, whole and on screen, and the last option is in view; a taller window puts
    it back over the options; its button hides it. Shorter still, the options alone are drawn
    a little smaller, whole."""
    page = Page(browser, _table(server, 4, "heuristic"), viewport=SIZES["desktop"])
    p = page.page
    try:
        _staged_decision(page, random.Random(7))
        m = p.evaluate(IN_COLUMN)
        assert m["floating"] == (m["bottom"] > 800), m  # it floats only when it must
        # a window that ends just above the last option of the column as drawn with the stage
        short = min(800, int(m["bottom"]) - 12)
        p.set_viewport_size({"width": 1280, "height": short})
        p.wait_for_function("document.getElementById('stage').classList.contains('aside')")
        m = p.evaluate(IN_COLUMN)
        last = p.evaluate(MEASURE)["last"]
        assert last["bottom"] <= short, (short, last)
        stage = m["stage"]
        assert m["scroll"] <= 0 and stage["top"] > -1 and stage["bottom"] < short + 1, m
        assert m["board"]["left"] <= stage["left"] and stage["right"] <= m["board"]["right"] + 1
        # tall enough for both: back over the options
        p.set_viewport_size({"width": 1280, "height": int(m["bottom"]) + 40})
        p.wait_for_function("!document.getElementById('stage').classList.contains('aside')")
        p.set_viewport_size({"width": 1280, "height": short})
        p.wait_for_function("document.getElementById('stage').classList.contains('aside')")
        p.locator("#stage .stage-hide").click()
        assert p.locator("#stage").is_hidden()
        assert p.evaluate(MEASURE)["last"]["bottom"] <= short
        # shorter still, the options alone passing the foot: they are drawn a little smaller
        top = p.evaluate("document.getElementById('legal').getBoundingClientRect().top")
        shorter = int(top + (p.evaluate(MEASURE)["last"]["bottom"] - top) * 0.92)
        p.set_viewport_size({"width": 1280, "height": shorter})
        p.wait_for_function("document.getElementById('legal').style.zoom !== ''")
        zoom = float(p.evaluate("document.getElementById('legal').style.zoom"))
        assert 0.8 <= zoom < 1
        assert p.evaluate(MEASURE)["last"]["bottom"] <= shorter
        assert p.evaluate(CUT) == []  # smaller, never cut
        p.set_viewport_size(SIZES["desktop"])
        p.wait_for_function("document.getElementById('legal').style.zoom === ''")
        assert page.errors == []
    finally:
        page.close()


def test_board_elements_explain_themselves(browser: Any, server: Any) -> None:
    page = Page(browser, _table(server), viewport=SIZES["desktop"])
    try:
        _at_decision(page)
        p = page.page
        assert p.locator("#board .rn-legend li").count() >= 13  # every symbol of the board
        assert p.locator("#board svg title").count() == 0  # the popover, not native tooltips
        # a hover on a Time Track space, a tap on a deck: a popover says what it is
        p.locator("#board .rn-time.wide [data-space='50']").hover()
        tip = p.locator("#board-tip")
        assert tip.is_visible() and "50" in tip.inner_text()
        p.locator("#board .rn-decks [data-pile='event_deck']").dispatch_event(
            "click", {"bubbles": True}
        )
        assert tip.is_visible() and "Event Deck" in tip.inner_text()
        # a room the gnome cannot reach in one move says why not (asked of the server)
        reachable = p.eval_on_selector_all(
            "#board [data-room][data-actions]", "rs => rs.map(r => r.dataset.room)"
        )
        far = next(r for r in ("10", "1", "6", "9") if r not in reachable)
        p.locator(f"#board [data-room='{far}']").click(position={"x": 30, "y": 60})
        p.wait_for_function(
            "document.getElementById('board-tip').textContent.includes(' — ')", timeout=10_000
        )
        assert page.errors == []
    finally:
        page.close()


#: the deck labels drawn on the board, each pile's lines joined
PILES = r"""() => Object.fromEntries([...document.querySelectorAll('.rn-decks [data-pile]')]
  .map((g) => [g.dataset.pile, [...g.querySelectorAll('text.name')].map((t) => t.textContent)
  .join(' ').replace(/\s+/g, ' ').trim()]))"""
ROOMS = r"""() => Object.fromEntries([...document.querySelectorAll('.rn-sub .room[data-room]')]
  .map((g) => [g.dataset.room, [...g.querySelectorAll('text.name')].map((t) => t.textContent)
  .join(' ').replace(/\s+/g, ' ').trim()]).filter(([, name]) => name))"""
#: buttons and tabs whose words overflow their box
CUT = """() => [...document.querySelectorAll('#tabs button, .rn-legend li, #legal button')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_labels_are_whole_and_distinct_in_each_language(
    browser: Any, server: Any, lang: str
) -> None:
    tr, en = translator(lang), translator("en")
    for size in ("desktop", "phone"):
        page = Page(browser, _table(server, lang=lang), viewport=SIZES[size])
        try:
            _at_decision(page)
            piles = page.page.evaluate(PILES)
            assert piles == {k: tr(f"rn.board.{k}") for k in piles}, piles  # whole
            english = {en(f"rn.board.{k}") for k in piles}
            assert len(set(piles.values())) == len(english), piles  # distinct
            names = default_components().room_names
            rooms = page.page.evaluate(ROOMS)
            assert rooms == {k: tr(f"rn.room.{names[int(k)]}") for k in rooms if names.get(int(k))}
            assert page.page.evaluate(CUT) == []
            assert page.errors == []
        finally:
            page.close()


def test_the_phone_tabs_log_header_and_hatches(browser: Any, server: Any) -> None:
    page = Page(browser, _table(server), viewport=SIZES["phone"])
    try:
        _at_decision(page)
        p = page.page
        tabs = p.locator("#tabs").bounding_box()
        for tab in ("board", "options", "players", "log", "rules"):
            p.locator(f"#tabs [data-tab={tab}]").click()
            # the tab bar stays at the top of the table area, above everything of the tab
            top = p.evaluate(
                """() => Math.min(...[...document.querySelectorAll(
                    '.table > *, .side > *, .play > *')]
                  .filter((e) => e.id !== 'tabs' && e.getBoundingClientRect().height
                    && !e.classList.contains('topline'))
                  .map((e) => e.getBoundingClientRect().top))"""
            )
            assert tabs is not None and top >= tabs["y"] + tabs["height"] - 1, tab
            if tab == "log":  # it opens at the latest move
                at_end = p.evaluate(
                    "(() => { const l = document.getElementById('log');"
                    " return l.scrollHeight - l.scrollTop - l.clientHeight; })()"
                )
                assert at_end <= 2
        header = p.locator("header.top").bounding_box()
        assert header is not None and header["height"] <= 90
        # the empty "what just happened" takes no room on the phone
        assert not p.locator(".recent-box").is_visible()
        p.locator("#tabs [data-tab=board]").click()
        sizes = p.eval_on_selector_all(
            "#board .rn-sub .hatch .hit", "hs => hs.map(h => h.getBoundingClientRect().width)"
        )
        assert sizes and min(sizes) >= 24  # a hatch answers a finger
        assert page.errors == []
    finally:
        page.close()


def test_the_table_talk_counts_unread_lines_on_a_phone(browser: Any, server: Any) -> None:
    t = server.post(
        "/api/tables", {"game": "red-november", "players": 3, "seats": ["human", "human", "random"]}
    )
    ana = Page(browser, seat_url(t["invites"][0]), viewport=SIZES["desktop"])
    bea = Page(browser, seat_url(t["invites"][1]), viewport=SIZES["phone"])
    try:
        badge = bea.page.locator("#log-badge")
        assert badge.is_hidden()
        for n, said in enumerate(("ahoy", "hatch 5?"), start=1):
            ana.page.locator("#chat-text").fill(said)
            ana.page.locator("#chat-form button").click()
            bea.page.wait_for_function(
                f"document.getElementById('log-badge').textContent.trim() === '{n}'",
                timeout=10_000,
            )
        assert badge.is_visible()
        bea.page.locator("#tabs [data-tab=log]").click()  # read: the count goes
        assert badge.is_hidden()
        assert bea.page.locator("#chat li:not(.none)").count() == 2
        assert ana.errors == [] and bea.errors == []
    finally:
        ana.close()
        bea.close()
