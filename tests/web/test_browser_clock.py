"""The turn-based clock's words, in Debian's Chromium (the browser's ``Intl`` makes them):
the seconds count down through the last two minutes, in the page's language."""

from __future__ import annotations

from typing import Any

import pytest

CASES = [
    ("en", 45, "45 seconds"),
    ("en", 1, "1 second"),
    ("en", 90, "1 minute, 30 seconds"),
    ("en", 60, "1 minute"),
    ("en", 600, "10 minutes"),
    ("en", 3 * 3600 + 12 * 60, "3 hours, 12 minutes"),
    ("fr", 45, "45 secondes"),
    ("it", 45, "45 secondi"),
    ("pt", 45, "45 segundos"),
]


@pytest.mark.parametrize(("lang", "seconds", "words"), CASES)
def test_the_clock_shows_seconds_at_the_end(
    browser: Any, server: Any, lang: str, seconds: int, words: str
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.url + "/static/favicon.svg")
        said = page.evaluate(
            "async ([s, lang]) => (await import('/static/clock.js')).timeLeft(s, lang)",
            [seconds, lang],
        )
        assert " ".join(said.split()) == words  # Intl may join with no-break spaces
    finally:
        context.close()
