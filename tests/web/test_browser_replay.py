"""The replay in Debian's Chromium: steps shown in the page without reloading it (the
links, the keyboard, the slider) and Play stepping by itself at the chosen pace."""

from __future__ import annotations

import time
from typing import Any


def _finished(server: Any) -> dict[str, Any]:
    t = server.post("/api/tables", {"game": "submarine", "players": 2, "seats": ["random"] * 2})
    deadline = time.monotonic() + 120
    while not server.get(f"/api/tables/{t['id']}")["finished"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    return t


def test_the_replay_steps_in_the_page_and_plays_itself(browser: Any, server: Any) -> None:
    t = _finished(server)
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}/replay/{t['id']}?step=0&seat=all&lang=en")
        page.evaluate("window.samePage = true")  # gone if the page reloads
        log = page.locator("#log li")
        assert log.count() == 0
        page.locator("#next").click()
        page.wait_for_function("document.body.dataset.step === '1'")
        assert log.count() == 1 and page.locator("#step-out").inner_text() == "1"
        page.locator("#board").focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("document.body.dataset.step === '2'")
        assert "step=2" in page.url and log.count() == 2
        page.locator("#replay-pace").select_option("400")
        page.locator("#play").click()
        assert page.locator("#play").get_attribute("aria-pressed") == "true"
        page.wait_for_function("Number(document.body.dataset.step) >= 5", timeout=10_000)
        page.locator("#play").click()  # pause
        page.wait_for_timeout(500)  # a step already on its way may still arrive
        held = page.evaluate("document.body.dataset.step")
        page.wait_for_timeout(1_000)
        assert page.evaluate("document.body.dataset.step") == held
        assert page.evaluate("window.samePage === true")
        assert errors == []
    finally:
        context.close()
