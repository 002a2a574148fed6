"""A table link that opens no seat, in Debian's Chromium: a page saying so with the way
home, never the table's "Connecting…" skeleton left waiting."""

from __future__ import annotations

from typing import Any

import pytest

from subtable.i18n import translator


@pytest.mark.parametrize(
    ("lang", "fragment"), [("en", "#not-a-key"), ("fr", "#not-a-key"), ("en", "")]
)
def test_a_wrong_or_missing_key_gets_a_clear_page(
    browser: Any, server: Any, lang: str, fragment: str
) -> None:
    tr = translator(lang)
    t = server.post(
        "/api/tables", {"game": "submarine", "players": 2, "seats": ["human", "random"]}
    )
    base = t["invites"][0]["url"].split("#")[0]
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}?lang={lang}{fragment}")
        box = page.locator("#no-seat")
        box.wait_for(state="visible", timeout=15_000)
        assert page.locator("#no-seat-h").inner_text() == tr("web.table.no_seat")
        home = box.locator('a[href^="/"]')
        assert home.inner_text() == tr("web.nav.home")
        assert not page.locator("#table").is_visible()
        assert not page.locator("#status").is_visible()  # "Connecting…" no more
        home.click()
        page.wait_for_url(lambda url: "/t/" not in url)
        assert errors == []
    finally:
        context.close()
