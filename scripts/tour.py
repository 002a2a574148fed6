"""A new player's tour of the browser table, as screenshots to look at.

``python scripts/tour.py URL OUT`` opens, for each game, language and window size asked, the
home page, a new table against bots (a seat for the player, bots in the others), plays a
few of the player's moves by clicking options, and saves what the player saw at each stop
under ``OUT`` (``<game>-<lang>-<width>-<stop>.png``). Start a server first
(``subtable serve --port 8000``). Debian's Chromium, driven by Playwright.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import urllib.request
from pathlib import Path
from typing import Any

SIZES = {"1280": (1280, 800), "1024": (1024, 768), "360": (360, 740)}
PLAYERS = {"red-november": 4, "submarine": 3}


def new_table(url: str, game: str, lang: str) -> str:
    """A table with the player in seat 1 and bots elsewhere; the player's link."""
    players = PLAYERS[game]
    body = {"game": game, "players": players, "seats": ["human"] + ["heuristic"] * (players - 1)}
    request = urllib.request.Request(
        f"{url}/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Origin": url},
    )
    with urllib.request.urlopen(request) as reply:
        table = json.load(reply)
    base, token = table["invites"][0]["url"].split("#")
    return f"{base}?lang={lang}&pace=300#{token}"


def at_decision(page: Any) -> None:
    """Wait until the player decides or the game is over; dismiss the name question."""
    page.wait_for_function(
        "document.body.dataset.yourTurn === 'true' || document.body.dataset.finished === 'true'",
        timeout=60_000,
    )
    later = page.locator("#name-later")
    if later.is_visible():
        later.click()


def tour(browser: Any, url: str, out: Path, game: str, lang: str, width: str, moves: int) -> None:
    """One game in one language at one size: the home page, then the table move by move."""
    w, h = SIZES[width]
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    stem = out / f"{game}-{lang}-{width}"
    page.goto(f"{url}/?lang={lang}")
    page.screenshot(path=f"{stem}-0-home.png")
    page.goto(new_table(url, game, lang))
    rng = random.Random(f"{game}{lang}{width}")
    tabs = page.locator("#tabs")
    for stop in range(1, moves + 1):
        at_decision(page)
        if tabs.is_visible():  # a phone: the board's tab, then the options'
            page.locator("[data-tab='board']").click()
        page.screenshot(path=f"{stem}-{stop}.png")
        if page.evaluate("document.body.dataset.finished === 'true'"):
            break
        if tabs.is_visible():
            page.locator("[data-tab='options']").click()
            page.screenshot(path=f"{stem}-{stop}-options.png")
        buttons = page.locator("#legal button[data-id]")
        if buttons.count():
            buttons.nth(rng.randrange(buttons.count())).click()
            page.wait_for_timeout(400)
    context.close()
    for error in errors:
        print(f"{stem.name}: page error: {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("out", type=Path, help="the folder the screenshots go to")
    parser.add_argument("--game", action="append", choices=sorted(PLAYERS))
    parser.add_argument("--lang", action="append", default=None)
    parser.add_argument("--size", action="append", choices=sorted(SIZES))
    parser.add_argument("--moves", type=int, default=4)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-headless-shell")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True)
        for game in args.game or sorted(PLAYERS):
            for lang in args.lang or ["en"]:
                for width in args.size or sorted(SIZES):
                    tour(browser, args.url.rstrip("/"), args.out, game, lang, width, args.moves)
        browser.close()


if __name__ == "__main__":
    main()
