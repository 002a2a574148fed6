"""The browser table, driven in Debian's Chromium by Playwright against a real server.

Whole games of both games with two people in two browser contexts plus bots, a reload
mid-game, refused clicks with their reason, what one seat's page may hold, the four
languages, keyboard play, an accessibility check (axe-core, vendored) and screenshots.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from subtable.i18n import LANGUAGES, translator

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
DESKTOP = {"width": 1280, "height": 900}
#: the end screen's link to the replay
REPLAY_LINK = '#end a[href^="/replay/"]'
PHONE = {"width": 360, "height": 760}


def seat_url(invite: dict[str, Any], **query: str) -> str:
    """An invite link with a query (``pace=0``: no pause between other seats' moves)."""
    base, token = invite["url"].split("#")
    q = "&".join(f"{k}={v}" for k, v in {"pace": "0", **query}.items())
    return f"{base}?{q}#{token}"


class Page:
    """One person's browser tab at a table, and every WebSocket frame it received."""

    def __init__(self, browser: Any, url: str, viewport: dict[str, int] = DESKTOP) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.page.on("websocket", self._watch)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
        self.wait_seq()

    def _watch(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(str(payload)))

    def seq(self) -> int:
        raw = self.page.evaluate("document.body.dataset.seq ?? ''")
        return int(raw) if raw != "" else -1

    def wait_seq(self, above: int = -1, timeout: float = 15_000) -> None:
        self.page.wait_for_function(
            f"Number(document.body.dataset.seq ?? -1) > {above}", timeout=timeout
        )

    def finished(self) -> bool:
        return bool(self.page.evaluate("document.body.dataset.finished === 'true'"))

    def my_turn(self) -> bool:
        return bool(
            self.page.evaluate(
                "!document.getElementById('actions').hidden && "
                "document.querySelectorAll('#legal button').length > 0"
            )
        )

    def legal_ids(self) -> list[int]:
        return [
            int(x)
            for x in self.page.eval_on_selector_all(
                "#legal button", "bs => bs.map(b => b.dataset.id)"
            )
        ]

    def close(self) -> None:
        self.context.close()


def mover_of(pages: list[Page], timeout: float = 15.0) -> Page:
    """The page whose seat decides, once its page shows it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for p in pages:
            if p.my_turn():
                return p
        pages[0].page.wait_for_timeout(30)
    raise AssertionError("no page shows a decision to make")


def play_one(page: Page, move: int, rng: random.Random) -> None:
    """Play a move: every third one on the board (when it offers one of the legal actions),
    the others from the action list; which one is drawn at random (seeded)."""
    legal = set(page.legal_ids())
    targets = page.page.eval_on_selector_all(
        "#board [data-actions]", "els => els.map(e => e.dataset.actions)"
    )
    board = [i for i, ids in enumerate(targets) if {int(x) for x in ids.split()} & legal]
    if board and move % 3 == 0:
        page.page.locator("#board [data-actions]").nth(rng.choice(board)).click()
        if page.page.locator("#choose").is_visible():
            page.page.locator("#legal li:not([hidden]) button").first.click()
    else:
        buttons = page.page.locator("#legal button")
        buttons.nth(rng.randrange(buttons.count())).click()


def play_to_the_end(
    pages: list[Page], *, reload_at: int | None = None, shot: Path | None = None
) -> int:
    """Both people play (board clicks and the action list) until the game ends; a
    screenshot of the page that just moved is taken after its tenth move."""
    moves = 0
    rng = random.Random(2026)
    deadline = time.monotonic() + 500  # generous (busy machines), under the 600 s test timeout
    while moves < 2_000 and time.monotonic() < deadline:
        if pages[0].finished():
            return moves
        mover = next((p for p in pages if p.my_turn()), None)
        if mover is None:
            pages[0].page.wait_for_timeout(30)
            continue
        before = mover.seq()
        play_one(mover, moves, rng)
        moves += 1
        mover.wait_seq(before)
        if shot is not None and moves == 10:
            mover.page.screenshot(path=str(shot), full_page=True)
        if reload_at is not None and moves == reload_at:
            seq = mover.seq()
            mover.page.reload()
            mover.wait_seq(seq - 1)
            assert mover.seq() >= seq, "the reload did not bring the seat back"
    raise AssertionError(f"the game did not end ({moves} moves)")


def axe_violations(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]} {v['help']}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def open_from_home(browser: Any, server: Any, game: str, seats: list[str]) -> dict[str, Any]:
    """Open a table as a person does: the home page's form, then the invitation page."""
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/?lang=en")
        form = page.locator(f"form:has(input[name=game][value={game}])")
        form.locator(f"#{game}-players").select_option(str(len(seats)))
        for n, seat in enumerate(seats):
            form.locator(f"#{game}-seat{n}").select_option(seat)
        form.locator("button[type=submit]").click()
        page.wait_for_selector("#created")
        assert axe_violations(page) == []
        links = page.eval_on_selector_all(".invite .link", "els => els.map(e => e.value)")
        table = page.locator("#created").get_attribute("data-table")
        # the home page now lists the table this browser opened
        page.goto(server.url + "/")
        assert page.locator("#your-tables a").count() == 1
        page.locator("#your-tables a").click()
        # the page may be mid-navigation, with no body yet
        page.wait_for_function("document.body?.dataset.seq !== undefined")
        assert "/t/" in page.url and "#" not in page.url
    finally:
        ctx.close()
    humans = [n for n, seat in enumerate(seats) if seat == "human"]
    assert len(links) == len(humans) + 1  # and the spectators' link
    return {
        "id": table,
        "invites": [{"player": p, "url": url} for p, url in zip(humans, links, strict=False)],
    }


@pytest.mark.parametrize(
    "game, players, seats",
    [
        ("red-november", 4, ["human", "human", "random", "heuristic"]),
        # the people click at random; a heuristic third seat keeps the game near its usual
        # length (in 300 engine games: 140 of their moves at the median, 853 at most; with a
        # random third seat 660 and 1,311, which the 500 s below may not see through)
        ("submarine", 3, ["human", "heuristic", "human"]),
    ],
)
def test_a_whole_game_in_two_browsers(
    browser: Any, server: Any, shots: Path, game: str, players: int, seats: list[str]
) -> None:
    if game == "red-november":
        t = open_from_home(browser, server, game, seats)
    else:
        t = server.post("/api/tables", {"game": game, "players": players, "seats": seats})
    pages = [Page(browser, seat_url(inv)) for inv in t["invites"]]
    try:
        assert all("#" not in p.page.url for p in pages)  # the token left the address bar
        moves = play_to_the_end(pages, reload_at=5, shot=shots / f"{game}-two-people.png")
        assert moves > 10 and (shots / f"{game}-two-people.png").exists()
        status = server.get(f"/api/tables/{t['id']}")
        assert status["finished"]
        for p in pages:
            p.wait_seq(status["seq"] - 1)
            assert p.seq() == status["seq"]
            assert p.page.locator(REPLAY_LINK).is_visible()
            assert p.errors == []
        result = pages[0].page.locator("#status").inner_text()
        assert result.strip()
        # the log narrates every entry the page saw
        assert pages[1].page.locator("#log li").count() >= status["seq"]
        # the replay of the finished game, from the page's link
        pages[0].page.locator(REPLAY_LINK).click()
        pages[0].page.wait_for_selector("#board svg")
        assert axe_violations(pages[0].page) == []
        assert pages[0].page.locator("#log li").count() == len(
            server.get(f"/api/tables/{t['id']}/record")["actions"]
        )
    finally:
        for p in pages:
            p.close()


def test_refused_clicks_show_their_reason(browser: Any, server: Any) -> None:
    t = server.post(
        "/api/tables",
        {"game": "submarine", "players": 2, "seats": ["human", "human"], "lang": "fr"},
    )
    pages = [Page(browser, seat_url(inv)) for inv in t["invites"]]
    try:
        mover = mover_of(pages)
        other = next(p for p in pages if p is not mover)
        fr = translator("fr")
        # a click from the seat that does not decide
        seq = other.seq()
        other.page.evaluate(f"subtable.send({{type: 'action', seq: {seq}, action: 0}})")
        other.page.wait_for_function("document.getElementById('error').textContent !== ''")
        assert other.page.locator("#error").inner_text() == fr("web.error.not_your_turn")
        # a double click: the second arrives for a position that is gone
        mover.page.evaluate(
            "() => { const b = document.querySelector('#legal button'); b.click(); b.click(); }"
        )
        mover.page.wait_for_function("document.getElementById('error').textContent !== ''")
        assert mover.page.locator("#error").inner_text() == fr("web.error.stale_seq")
        assert server.get(f"/api/tables/{t['id']}")["seq"] == seq + 1  # played once
    finally:
        for p in pages:
            p.close()


def test_the_page_reconnects_after_the_server_comes_back(
    browser: Any, servers: Callable[..., Any], tmp_path: Path
) -> None:
    db = str(tmp_path / "t.sqlite3")
    server = servers(db)
    t = server.post(
        "/api/tables", {"game": "submarine", "players": 2, "seats": ["human", "random"]}
    )
    page = Page(browser, seat_url(t["invites"][0]))
    try:
        mover_of([page])
        seq = page.seq()
        server.kill9()
        page.page.wait_for_selector("#banner", state="visible", timeout=10_000)
        again = servers(db, port=server.port)
        page.page.wait_for_selector("#banner", state="hidden", timeout=20_000)
        assert page.seq() == seq == again.get(f"/api/tables/{t['id']}")["seq"]
        mover_of([page])
        page.page.locator("#legal button").first.click()
        page.wait_seq(seq)
        assert page.errors == []
    finally:
        page.close()


def _other_hands(game: str, view: dict[str, Any], seat: int) -> list[Any]:
    people = view["gnomes"] if game == "red-november" else view["players"]
    return [p["hand"] for p in people if p["seat"] != seat]


@pytest.mark.parametrize(
    "game, body",
    [
        ("submarine", {"players": 2, "seats": ["human", "human"]}),
        (
            "red-november",
            {
                "players": 3,
                "seats": ["human", "human", "random"],
                "options": {"crazed_gnomes": True},
            },
        ),
    ],
)
def test_a_seat_page_never_holds_another_seats_hand(
    browser: Any, server: Any, game: str, body: dict[str, Any]
) -> None:
    t = server.post("/api/tables", {"game": game, **body})
    pages = [Page(browser, seat_url(inv)) for inv in t["invites"]]
    rng = random.Random(7)
    try:
        for move in range(12):
            mover = mover_of(pages)
            before = mover.seq()
            play_one(mover, move + 1, rng)  # from the action list
            mover.wait_seq(before)
        target = max(p.seq() for p in pages)
        for seat, p in enumerate(pages):
            p.wait_seq(target - 1)
            for raw in p.frames:
                message = json.loads(raw)
                for v in (message.get("state") or {}).get("views", []):
                    assert v["seat"] == seat, "a frame carried another seat's view"
                    hands = _other_hands(game, v["view"], seat)
                    assert hands and all(h is None for h in hands), "another seat's hand"
            # the DOM: this seat's hand is drawn card by card, no other seat's is
            if game == "submarine":
                assert p.page.locator(f'[data-hand="{seat}"]').count() == 1
                assert p.page.locator(f'[data-hand="{1 - seat}"]').count() == 0
            else:
                others = [s for s in range(3) if s != seat]
                for other in others:
                    section = p.page.locator(f'section.rn-gnome[data-seat="{other}"]').first
                    assert section.locator("ul.rn-hand").count() == 0
                    assert section.locator(".rn-hand.hidden").count() == 1
    finally:
        for p in pages:
            p.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_in_each_language(browser: Any, server: Any, lang: str) -> None:
    tr = translator(lang)
    ctx = browser.new_context(
        viewport=DESKTOP, locale={"en": "en-US", "fr": "fr-FR", "it": "it-IT", "pt": "pt-BR"}[lang]
    )
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        assert page.locator("html").get_attribute("lang") == lang  # from Accept-Language
        assert tr("web.home.new_table") in page.locator("main").inner_text()
        t = server.post(
            "/api/tables",
            {
                "game": "red-november",
                "players": 3,
                "seats": ["human", "random", "random"],
                "lang": lang,
            },
        )
        page.goto(seat_url(t["invites"][0]))
        # the page may be mid-navigation, with no body yet
        page.wait_for_function("document.body?.dataset.seq !== undefined")
        assert tr("web.table.log") in page.locator("main").inner_text()
        assert tr("game.red-november") in page.title()
    finally:
        ctx.close()


def test_keyboard_only_play_and_the_small_screen(browser: Any, server: Any, shots: Path) -> None:
    t = server.post(
        "/api/tables",
        {"game": "red-november", "players": 2, "seats": ["human", "random"], "lang": "en"},
    )
    page = Page(browser, seat_url(t["invites"][0]), viewport=PHONE)
    try:
        # the page fits 360 px: nothing scrolls sideways
        width = page.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"] + 1
        page.page.screenshot(path=str(shots / "red-november-phone-keyboard.png"), full_page=True)
        for _ in range(3):
            mover_of([page])
            before = page.seq()
            for _ in range(200):  # Tab to an action, as a keyboard user would
                page.page.keyboard.press("Tab")
                focused = page.page.evaluate(
                    "document.activeElement.matches('#legal button, #board [data-actions]')"
                )
                if focused:
                    break
                # the phone shows one part at a time: the Options tab opens the action list
                tab = page.page.evaluate(
                    "document.activeElement.matches('#tabs [data-tab=options]')"
                    " && document.body.dataset.pane !== 'options'"
                )
                if tab and not page.page.locator("#board [data-actions]").count():
                    page.page.keyboard.press("Enter")
            else:
                raise AssertionError("no action is reachable with Tab")
            page.page.keyboard.press("Enter")
            if page.page.locator("#choose").is_visible():
                page.page.keyboard.press("Enter")  # the list narrowed: the first is focused
            page.wait_seq(before)
    finally:
        page.close()


def test_submarine_on_a_phone(browser: Any, server: Any, shots: Path) -> None:
    t = server.post("/api/tables", {"game": "submarine", "players": 3})
    page = Page(browser, seat_url(t["invites"][0]), viewport=PHONE)
    try:
        assert page.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
        page.page.screenshot(path=str(shots / "submarine-phone-full.png"), full_page=True)
    finally:
        page.close()


@pytest.mark.parametrize("game", ["red-november", "submarine"])
def test_no_serious_accessibility_violations(browser: Any, server: Any, game: str) -> None:
    t = server.post(
        "/api/tables", {"game": game, "players": 3, "seats": ["human"] + ["random"] * 2}
    )
    page = Page(browser, seat_url(t["invites"][0]))
    try:
        mover_of([page])
        assert axe_violations(page.page) == []
        page.page.goto(server.url + "/")
        assert axe_violations(page.page) == []
    finally:
        page.close()
