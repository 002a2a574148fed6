"""People at the table in Chromium: one browser opens a public turn-based
Submarine table from the home page's form, a second finds it in the lobby and sits down
with a name, both talk (what one writes is shown to the other as text, never as markup)
and play; the name prompt of an invitation without a name; "your tables" says whose turn it is.

Screenshots go to $SUBTABLE_SCREENSHOTS (docs/screenshots to refresh the docs).
"""

from __future__ import annotations

import json
import random
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.web.conftest import PUBLIC_PAIR

DESKTOP = {"width": 1280, "height": 900}


class Person:
    """One person's browser (its own context: its own localStorage) and its tab."""

    def __init__(self, browser: Any, **context: Any) -> None:
        self.context = browser.new_context(viewport=DESKTOP, **context)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def seq(self) -> int:
        raw = self.page.evaluate("document.body.dataset.seq ?? ''")
        return int(raw) if raw != "" else -1

    def wait_seq(self, above: int = -1) -> None:
        self.page.wait_for_function(
            f"Number(document.body.dataset.seq ?? -1) > {above}", timeout=20_000
        )

    def my_turn(self) -> bool:
        return bool(
            self.page.evaluate(
                "!document.getElementById('actions').hidden && "
                "document.querySelectorAll('#legal button').length > 0"
            )
        )

    def chat_lines(self) -> list[str]:
        return [
            str(x)
            for x in self.page.eval_on_selector_all(
                "#chat li:not(.none)", "lis => lis.map(li => li.textContent)"
            )
        ]

    def wait_chat(self, needle: str) -> None:
        self.page.wait_for_function(
            "needle => [...document.querySelectorAll('#chat li .said')]"
            ".some(s => s.textContent === needle)",
            arg=needle,
            timeout=15_000,
        )


def _with_pace(url: str) -> str:
    """A table link without its pause between other seats' moves (``?pace=0``)."""
    base, _, fragment = url.partition("#")
    return f"{base}?pace=0" + (f"#{fragment}" if fragment else "")


def _whole_page(page: Any, path: Path) -> None:
    """A screenshot of the whole page, from its top (the log scrolls the window)."""
    height = int(page.evaluate("document.documentElement.scrollHeight"))
    page.set_viewport_size({"width": DESKTOP["width"], "height": height})
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(100)
    page.screenshot(path=str(path))
    page.set_viewport_size(DESKTOP)


def _play(people: list[Person], moves: int, rng: random.Random) -> int:
    played = 0
    deadline = time.monotonic() + 120
    while played < moves and time.monotonic() < deadline:
        mover = next((p for p in people if p.my_turn()), None)
        if mover is None:
            people[0].page.wait_for_timeout(50)
            continue
        before = mover.seq()
        buttons = mover.page.locator("#legal button")
        buttons.nth(rng.randrange(buttons.count())).click()
        mover.wait_seq(before)
        played += 1
    return played


def test_a_public_table_found_in_the_lobby_with_names_and_chat(
    browser: Any, server: Any, shots: Path
) -> None:
    ana, bea = Person(browser), Person(browser)
    try:
        # Ana opens a public turn-based Submarine table: two people and an easy bot
        home = ana.page
        home.goto(server.url + "/?lang=en")
        form = home.locator("form.new-table:has(input[name=game][value=submarine])")
        form.locator("select.players").select_option("3")
        form.locator("#submarine-seat1").select_option("human")
        # the bot levels come first among the bots, normal by default
        assert form.locator("#submarine-seat2").input_value() == "normal"
        kinds = form.locator("#submarine-seat2 option").evaluate_all("os => os.map(o => o.value)")
        assert kinds == ["human", "normal", "easy", "strong", "ismcts", "heuristic", "random"]
        form.locator("#submarine-seat2").select_option("easy")
        assert form.locator(".turn-fields").is_hidden()  # until turn-based is chosen
        form.locator("#submarine-public").check()
        form.locator("#submarine-turn-based").check()
        assert form.locator(".turn-fields").is_visible()
        form.locator("#submarine-turn_limit").select_option("3600")
        form.locator("#submarine-name").fill("Ana")
        form.locator("button[type=submit]").click()
        home.wait_for_selector("#created")
        assert home.locator(".public-note").is_visible()
        invites = home.locator(".invite[data-player='0'] a.open")
        assert home.locator(".invite").count() == 2  # Ana's seat and the spectators'
        ana_url = invites.get_attribute("href")
        assert ana_url is not None
        table_id = home.locator("#created").get_attribute("data-table")

        # Bea finds it in the lobby and sits down with her name
        bea.page.goto(server.url + "/?lang=en")
        item = bea.page.locator(f".lobby-table[data-table='{table_id}']")
        assert "Ana" in item.inner_text() and "1 hour a decision" in item.inner_text()
        assert "bot easy" in item.inner_text()  # a level, not its spec
        bea.page.locator("#lobby-name").fill("")
        item.locator("button.sit").click()  # no name yet: refused on the page
        assert "Write your name" in bea.page.locator("#lobby-error").inner_text()
        bea.page.locator("#lobby-name").fill("Bea")
        assert bea.page.locator("#lobby-error").inner_text() == ""  # typing clears it
        bea.page.screenshot(path=str(shots / "lobby.png"))
        item.locator("button.sit").click()
        bea.page.wait_for_url(f"**/t/{table_id}*")
        bea.wait_seq()
        bea.page.goto(_with_pace(bea.page.url.split("#")[0]))  # the tab keeps its token
        bea.wait_seq()
        assert bea.page.locator("#name-form").is_hidden()  # named in the lobby

        ana.page.goto(_with_pace(ana_url))
        ana.wait_seq()
        # each sees the other's name where the seats are shown
        ana.page.wait_for_function(
            "document.getElementById('panels').textContent.includes('Bea')", timeout=15_000
        )
        assert "Ana" in bea.page.locator("#panels").inner_text()
        # a turn-based table shows its pace and the time left
        clock = ana.page.locator("#clock")
        assert clock.is_visible() and "1 hour a decision" in clock.inner_text()

        # they talk: each sees the other's line, with the name; markup stays text
        ana.page.locator("#chat-text").fill("good luck, Bea")
        ana.page.locator("#chat-form button").click()
        bea.wait_chat("good luck, Bea")
        assert any(line.startswith("Ana: good luck") for line in bea.chat_lines())
        bea.page.locator("#chat-text").fill("<b>x</b> & <img src=x onerror=alert(1)>")
        bea.page.locator("#chat-text").press("Enter")
        ana.wait_chat("<b>x</b> & <img src=x onerror=alert(1)>")
        assert ana.page.locator("#chat b:not(.who), #chat img").count() == 0
        assert any(line.startswith("Bea: <b>x</b>") for line in ana.chat_lines())
        assert bea.chat_lines()[-1].startswith("Bea (you): ")
        assert ana.page.locator("#chat-text").get_attribute("maxlength") == "300"

        # they play a few moves; the tab's title says whose turn it is
        assert _play([ana, bea], 6, random.Random(23)) == 6
        for p in (ana, bea):
            # read at one instant: the easy bot may move between two separate reads
            seen = p.page.evaluate(
                "({mine: document.body.dataset.yourTurn === 'true', title: document.title,"
                " left: document.getElementById('time-left').textContent})"
            )
            assert seen["title"].startswith("● Your turn") == seen["mine"], seen
            assert seen["title"].startswith("●") == seen["mine"], seen
            if seen["mine"]:
                assert "left" in seen["left"]
        assert "bot easy" in ana.page.locator("#panels").inner_text()
        _whole_page(ana.page, shots / "table-chat.png")

        # Bea plays until it is Ana's turn; Ana's home page then says so, and the time left
        rng = random.Random(5)
        give_up = time.monotonic() + 60
        while not ana.my_turn():
            assert time.monotonic() < give_up, "it never became Ana's turn"
            if bea.my_turn():
                _play([bea], 1, rng)
            else:
                ana.page.wait_for_timeout(50)
        # the lobby no longer lists the table
        listed = json.load(urllib.request.urlopen(server.url + "/api/lobby", timeout=10))
        assert table_id not in [t["id"] for t in listed["tables"]]
        ana.page.goto(server.url + "/?lang=en")
        ana.page.wait_for_selector(f"#your-tables li[data-table='{table_id}'][data-turn]")
        turn = ana.page.locator(f"#your-tables li[data-table='{table_id}'] .turn").inner_text()
        assert turn.startswith("● Your turn — ") and turn.endswith(" left"), turn
        ana.page.screenshot(
            path=str(shots / "your-tables.png"), clip={"x": 0, "y": 0, "width": 1280, "height": 560}
        )
        assert not ana.errors and not bea.errors, ana.errors + bea.errors
    finally:
        ana.context.close()
        bea.context.close()


def test_a_taken_seat_says_so_and_refreshes_the_lobby(browser: Any, server: Any) -> None:
    t = server.post("/api/tables", PUBLIC_PAIR)
    cid = Person(browser)
    try:  # a page that cannot listen to the lobby's changes (else Dan's seat would vanish)
        cid.page.route("**/api/lobby/events", lambda route: route.abort())
        cid.page.goto(server.url + "/?lang=fr")
        cid.page.locator("#lobby-name").fill("Cid")
        server.post(f"/api/tables/{t['id']}/join", {"player": 1, "name": "Dan"})  # first
        cid.page.locator(f".lobby-table[data-table='{t['id']}'] button.sit").click()
        cid.page.wait_for_function(
            "document.getElementById('lobby-error').textContent.includes('Quelqu')"
        )
        cid.page.wait_for_selector(f".lobby-table[data-table='{t['id']}']", state="detached")
        assert cid.page.url.startswith(server.url + "/?")  # still at home
    finally:
        cid.context.close()


def test_an_invitation_without_a_name_asks_for_one(browser: Any, server: Any) -> None:
    t = server.post(
        "/api/tables",
        {"game": "submarine", "players": 2, "seats": ["human", "human"], "names": ["Ana", None]},
    )
    dan = Person(browser)
    try:
        dan.page.goto(_with_pace(t["invites"][1]["url"]))
        dan.wait_seq()
        form = dan.page.locator("#name-form")
        form.wait_for(state="visible")
        assert "Ana" in dan.page.locator("#panels").inner_text()
        dan.page.locator("#my-name").fill("Dan <3")
        dan.page.locator("#name-form button[type=submit]").click()
        form.wait_for(state="hidden")
        status = server.get(f"/api/tables/{t['id']}")
        assert status["people"] == ["Ana", "Dan <3"]
        # the seat opened from its link is one of Dan's tables on the home page now
        home = dan.context.new_page()
        home.goto(server.url + "/?lang=en")
        home.wait_for_selector(f"#your-tables li[data-table='{t['id']}'][data-turn]")
        home.close()
        # a spectator reads the chat and cannot write in it; nobody asks it for a name
        watcher = dan.context.new_page()
        watcher.goto(_with_pace(t["spectator"]["url"]))
        watcher.wait_for_function("Number(document.body.dataset.seq ?? -1) >= 0")
        assert watcher.locator("#chat-form").is_hidden()
        assert watcher.locator("#chat-spectators").is_visible()
        assert watcher.locator("#name-form").is_hidden()
    finally:
        dan.context.close()


def test_a_seat_nobody_sits_at_is_waited_for_in_the_status_line(browser: Any, server: Any) -> None:
    t = server.post(
        "/api/tables",
        {"game": "submarine", "players": 2, "seats": ["human", "human"], "names": ["Ana", None]},
    )
    first = server.get(f"/api/tables/{t['id']}")["deciding_player"]  # drawn by the game
    who = ["Ana", "player 2"][first]
    other = Person(browser)
    try:  # the first to decide has not opened their link: the other's page waits for them
        other.page.goto(_with_pace(t["invites"][1 - first]["url"]))
        other.wait_seq()
        other.page.wait_for_function(
            "who => document.getElementById('status').textContent"
            ".includes(`Waiting for ${who} to sit down`)",
            arg=who,
            timeout=10_000,
        )
    finally:
        other.context.close()


def test_the_turn_notice_is_asked_on_a_click_and_rings_when_the_turn_comes(
    browser: Any, server: Any
) -> None:
    t = server.post(
        "/api/tables",
        {
            "game": "submarine",
            "players": 2,
            "seats": ["human", "human"],
            "names": ["Ana", "Bea"],
            "mode": "turn-based",
            "turn_limit": 86_400,
        },
    )
    ana, bea = Person(browser), Person(browser)
    try:
        ana.page.goto(_with_pace(t["invites"][0]["url"]))
        bea.page.goto(_with_pace(t["invites"][1]["url"]))
        ana.wait_seq()
        bea.wait_seq()
        for p in (ana, bea):  # never asked on load: a button asks
            assert p.page.evaluate("Notification.permission") == "default"
            assert p.page.locator("#notify").is_visible()
        assert not bea.page.locator("#sound").is_checked()  # sound is off unless asked for
        first = ana if ana.my_turn() else bea
        second = bea if first is ana else ana
        assert second.page.evaluate("document.body.dataset.notified ?? '0'") == "0"
        for _ in range(20):  # a decision may take several steps: play until the turn passes
            before = first.seq()
            first.page.locator("#legal button").first.click()
            first.wait_seq(before)
            if not first.my_turn():
                break
            assert second.page.evaluate("document.body.dataset.notified ?? '0'") == "0"
        second.page.wait_for_function("document.body.dataset.notified === '1'")
        assert second.page.title().startswith("● Your turn")
    finally:
        ana.context.close()
        bea.context.close()


def test_a_finished_table_asks_nobody_for_a_name(browser: Any, server: Any) -> None:
    from tests.web.realclient import sunk_crew_table

    t = sunk_crew_table(server)
    dan = Person(browser)
    try:
        dan.page.goto(_with_pace(t["invites"][0]["url"]))
        dan.wait_seq()
        dan.page.wait_for_selector("#end:not([hidden])")
        assert dan.page.locator("#name-form").is_hidden()  # unnamed, but the game is over
        assert dan.page.locator("#chat-form").is_hidden()  # and the table talk is closed
        assert not dan.errors, dan.errors
    finally:
        dan.context.close()


def test_a_public_table_waits_for_its_second_person_then_begins(browser: Any, server: Any) -> None:
    t = server.post("/api/tables", PUBLIC_PAIR)
    ana, bea = Person(browser), Person(browser)
    try:
        ana.page.goto(_with_pace(t["invites"][0]["url"]))
        ana.wait_seq()
        box = ana.page.locator("#gathering")
        box.wait_for(state="visible")
        assert box.inner_text().startswith("Waiting for 1 person")
        assert ana.page.locator("#status").inner_text().startswith("Waiting for 1 person")
        assert ana.page.locator("#start-now").is_visible()  # Ana opened it: she may start
        assert not ana.my_turn()  # nobody plays before the table is full

        bea.page.goto(server.url + "/?lang=en")
        item = bea.page.locator(f".lobby-table[data-table='{t['id']}']")
        assert "Waits for 1 person to begin" in item.inner_text()
        bea.page.locator("#lobby-name").fill("Bea")
        item.locator("button.sit").click()
        bea.page.wait_for_url(f"**/t/{t['id']}*")
        bea.wait_seq()

        box.wait_for(state="hidden", timeout=10_000)  # the game began by itself
        assert ana.page.evaluate("document.body.dataset.waiting") == "false"
        assert bea.page.locator("#gathering").is_hidden()
        ana.page.wait_for_function(
            "document.getElementById('panels').textContent.includes('Bea')", timeout=10_000
        )
        give_up = time.monotonic() + 15
        while not (ana.my_turn() or bea.my_turn()):  # whoever decides first has options
            assert time.monotonic() < give_up, "nobody could play once the table was full"
            ana.page.wait_for_timeout(50)
        assert not ana.errors and not bea.errors, ana.errors + bea.errors
    finally:
        ana.context.close()
        bea.context.close()


def test_the_host_starts_a_waiting_table_now_with_a_bot(browser: Any, server: Any) -> None:
    t = server.post("/api/tables", {**PUBLIC_PAIR, "lang": "fr"})
    ana = Person(browser)
    try:
        ana.page.goto(_with_pace(t["invites"][0]["url"]).replace("?", "?lang=fr&", 1))
        ana.wait_seq()
        button = ana.page.locator("#start-now")
        button.wait_for(state="visible")
        assert button.inner_text() == "Commencer maintenant (des bots prennent les places vides)"
        button.click()
        ana.page.locator("#gathering").wait_for(state="hidden", timeout=10_000)
        players = server.get(f"/api/tables/{t['id']}")["players"]
        assert [p["controller"] for p in players] == ["human", "bot"]
        give_up = time.monotonic() + 20  # the bot plays, and Ana's turn comes
        while not ana.my_turn():
            assert time.monotonic() < give_up, "Ana never got to play"
            ana.page.wait_for_timeout(50)
        assert not ana.errors, ana.errors
    finally:
        ana.context.close()
