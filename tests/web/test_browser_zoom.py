"""The board's zoom in Debian's Chromium: buttons reached by the keyboard and a two-finger
pinch enlarge the Red November board inside a frame that scrolls; reduced motion has no
transition."""

from __future__ import annotations

from typing import Any

from tests.web.test_browser_table import Page, seat_url

WIDTH = "document.querySelector('#board > *').getBoundingClientRect().width"
PINCH = """() => {
  const board = document.getElementById('board');
  const at = (id, type, x) => board.dispatchEvent(new PointerEvent(type,
    {pointerId: id, pointerType: 'touch', clientX: x, clientY: 200, bubbles: true}));
  at(1, 'pointerdown', 300); at(2, 'pointerdown', 400);
  at(2, 'pointermove', 500);
  at(1, 'pointerup', 300); at(2, 'pointerup', 500);
}"""


def _table(server: Any) -> str:
    body = {"game": "red-november", "players": 3, "seats": ["human", "heuristic", "heuristic"]}
    return seat_url(server.post("/api/tables", body)["invites"][0])


def test_the_zoom_buttons_and_a_pinch_enlarge_the_board(browser: Any, server: Any) -> None:
    page = Page(browser, _table(server))
    p = page.page
    try:
        plain = p.evaluate(WIDTH)
        p.locator("#zoom-in").focus()
        p.keyboard.press("Enter")
        p.wait_for_function(f"{WIDTH} > {plain} * 1.2")
        p.keyboard.press("Enter")
        p.wait_for_function(f"{WIDTH} > {plain} * 1.45")
        assert p.locator("#zoom-reset").inner_text() == "150%"
        assert p.evaluate(
            "(b => b.scrollWidth > b.clientWidth + 50)(document.getElementById('board'))"
        )
        p.locator("#zoom-reset").click()
        p.wait_for_function(f"{WIDTH} < {plain} * 1.01")
        p.evaluate(PINCH)  # two fingers 100 px apart, then 200 px: twice the size
        assert p.evaluate("document.getElementById('board').dataset.zoom") == "2.00"
        p.wait_for_function(f"{WIDTH} > {plain} * 1.9")
        assert page.errors == []
    finally:
        page.context.close()


def test_reduced_motion_turns_the_zoom_transition_off(browser: Any, server: Any) -> None:
    url = _table(server)
    for motion, moving in (("no-preference", True), ("reduce", False)):
        page = Page(browser, url)
        try:
            page.page.emulate_media(reduced_motion=motion)
            took = page.page.evaluate(
                "getComputedStyle(document.querySelector('#board > *')).transitionDuration"
            )
            assert (took not in ("", "0s")) is moving, (motion, took)
        finally:
            page.context.close()
