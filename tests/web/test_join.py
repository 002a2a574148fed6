"""``subtable join``: a terminal seat at a web table (a real server, a real terminal)."""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
import time
from collections.abc import Iterator
from typing import Any

import pexpect
import pytest
from rich.console import Console
from tests.web.conftest import PUBLIC_PAIR
from tests.web.realclient import RealSeat, sunk_crew_table

from subtable.core.registry import make_game
from subtable.i18n import translator
from subtable.web.client import Remote
from subtable.web.protocol import Entry, PlayerSeat, WelcomeFrame
from subtable.words import game_ui
from tmux_pane import Pane

pytestmark = pytest.mark.slow  # most tests here take over two seconds


#: the sources under test, where they are put first on the path (``PYTHONPATH=src``)
_SOURCES = {k: v for k, v in os.environ.items() if k == "PYTHONPATH"}


def _spawn_join(*args: str) -> pexpect.spawn:
    """``python -m subtable join ARGS`` on a dumb 60×200 terminal."""
    return pexpect.spawn(
        sys.executable,
        ["-m", "subtable", "join", *args],
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 200),
        env={"LANG": "C.UTF-8", "COLUMNS": "200", "TERM": "dumb", **_SOURCES},
    )


def test_join_plays_a_seat_in_french_beside_a_websocket_seat(servers: Any, tmp_path: Any) -> None:
    server = servers(str(tmp_path / "t.sqlite3"))
    t = server.post(
        "/api/tables",
        {"game": "submarine", "players": 3, "lang": "fr", "seats": ["human", "human", "random"]},
    )
    other = RealSeat(server.ws, t["id"], t["invites"][1]["token"])  # a "browser" seat
    tr = translator("fr")
    child = _spawn_join(t["invites"][0]["url"], "--name", "Tester")

    title = re.escape(tr("ui.options", n=0).partition("(")[0])

    def prompt() -> None:
        """Let the other seat play until the terminal seat is asked (its options listed:
        the prompt is there on the others' turns too)."""
        for _ in range(60):
            other.drain(0.05)
            if other.state["your_turn"]:
                other.act(other.state["legal"][0]["id"])
            if child.expect([title, pexpect.TIMEOUT], timeout=1) == 0:
                child.expect(r"> $")
                return
        raise AssertionError("no prompt")

    try:
        prompt()
        child.sendline("why done")
        child.expect(r"> $")
        child.sendline("bogus")
        child.expect(tr("ui.err.unknown_input", text="bogus")[:20])
        child.expect(r"> $")
        for _ in range(3):
            child.sendline("1")
            prompt()
        child.sendline("log")
        child.expect(r"> $")
        child.sendline("quit")
        child.expect(pexpect.EOF)
        text = child.before or ""
        assert tr("ui.quit")[:10] in text
    finally:
        child.close(force=True)
        other.close()
    status = server.get(f"/api/tables/{t['id']}")
    assert status["seq"] >= 3


def test_join_says_a_public_table_waits_for_its_people(servers: Any, tmp_path: Any) -> None:
    """At a table waiting for a person, the terminal says so (not "waiting for player 2"),
    and plays once that person sat down."""
    server = servers(str(tmp_path / "t.sqlite3"))
    t = server.post("/api/tables", PUBLIC_PAIR)
    tr = translator("en")
    people = tr.plural("web.waiting.people", "web.waiting.people.plural", 1, n=1)
    child = _spawn_join(t["invites"][0]["url"], "--lang", "en")
    try:
        child.expect(re.escape(people))
        bea = server.post(f"/api/tables/{t['id']}/join", {"player": 1, "name": "Bea"})
        other = RealSeat(server.ws, t["id"], bea["token"])
        if other.state["your_turn"]:
            other.act(other.state["legal"][0]["id"])
        # the game began: the terminal's seat is asked to play
        child.expect(re.escape(tr("ui.options", n=0).partition("(")[0]))
        child.sendline("quit")
        child.expect(pexpect.EOF)
        other.close()
    finally:
        child.close(force=True)


def test_join_plays_again_at_the_same_seats(servers: Any, tmp_path: Any) -> None:
    """Once the game is over, ``again`` opens the next table (same seats, a new seed) and
    the terminal takes its seat there; before the end it is refused."""
    server = servers(str(tmp_path / "t.sqlite3"))
    t = sunk_crew_table(server)
    tr = translator("en")
    child = _spawn_join(t["invites"][0]["url"], "--lang", "en")
    try:
        child.expect(re.escape(tr("ui.join.end")))
        child.expect(r"> $")
        child.sendline("again please")  # a stray word: refused, nothing opened
        child.expect(r"> $")
        child.sendline("again")
        child.expect(r"/t/([\w-]+)#")  # an id is URL-safe base64
        new_id = child.match.group(1)
        assert new_id != t["id"]
        # seated at the new table, where the unnamed seat is asked its name (not at the end)
        child.expect(re.escape(tr("ui.join.name")))
        child.sendline("Ana")
        child.expect(r"> $")
        child.sendline("again")  # the new game goes on
        child.expect(re.escape(tr("ui.join.not_over")))
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    new = server.get(f"/api/tables/{new_id}")
    assert not new["finished"] and new["game"] == "red-november"
    assert [p["controller"] for p in new["players"]] == ["human", "human"]


def test_join_follows_the_link_the_server_sends_to_the_next_table() -> None:
    tr = translator("en")
    remote, out = _remote("submarine", 2)
    remote.state = {"finished": False, "your_turn": False}
    assert remote.command("again") is False  # not over
    assert tr("ui.join.not_over") in out.getvalue()
    remote.state = {"finished": True, "your_turn": False}
    remote.base = "http://h:8000"
    remote.handle({"type": "rematch", "table": "T2", "url": "/t/T2#tok"})
    assert tr("ui.join.rematch") in out.getvalue()
    assert remote.command("again") is True and remote.next_url == "http://h:8000/t/T2#tok"


def _remote(game: str, players: int) -> tuple[Remote, io.StringIO]:
    """A seat's client, not connected, for player 1 among people, and what it prints."""
    out = io.StringIO()
    remote = Remote(None, Console(file=out, width=200), "en")
    remote.game = make_game(game, players=players)
    remote.ui = game_ui(remote.game)
    remote.welcome = WelcomeFrame.model_construct(
        owners=list(range(players)),
        players=[PlayerSeat(player=p, controller="human", bot=None) for p in range(players)],
        player=0,
        seats=[0],
        people=[None] * players,
    )
    return remote, out


def test_an_undo_reads_as_a_sentence_naming_what_it_takes_back() -> None:
    remote, out = _remote("red-november", 4)
    remote.entry(Entry(seq=4, kind="undo", seat=0, action="pump 2", label="", events=[]))
    assert out.getvalue().strip() == "Gnome 1 (you) takes back: Pump Water (2 min)"
    assert remote.log == ["Gnome 1 (you) takes back: Pump Water (2 min)"]

    remote, out = _remote("submarine", 3)
    undo = Entry(seq=9, kind="undo", seat=1, action="swap", label="", events=[])
    remote.entry(undo)  # another seat's private move: only its public form
    remote.entry(undo.model_copy(update={"action": "swap purple", "label": "the server's words"}))
    tr = translator("en")
    assert out.getvalue().splitlines() == [
        f"Player 2 (player 2) takes back: {tr('sub.act.public.swap')}",
        "Player 2 (player 2) takes back: the server's words",
    ]


# -- a real terminal (tmux) ----------------------------------------------------------------
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
#: how long an answer typed into ``join`` may take: at once, not after another seat's turn
AT_ONCE = 5.0


@pytest.fixture
def panes() -> Iterator[list[Pane]]:
    started: list[Pane] = []
    yield started
    for pane in started:
        pane.close()


def _join(panes: list[Pane], url: str) -> Pane:
    pane = Pane(["join", url, "--name", "Tester"], 80, 24)
    panes.append(pane)
    return pane


def _history(pane: Pane) -> str:
    """Everything the pane printed, as one line (Rich wraps long lines at 80 columns)."""
    return " ".join(pane.screen(history=True).split())


def _wait_printed(pane: Pane, text: str, count: int = 1, timeout: float = 30) -> None:
    """Wait until ``text`` was printed ``count`` times (wrapped or not)."""
    want = " ".join(text.split())
    deadline = time.monotonic() + timeout
    while _history(pane).count(want) < count:
        assert time.monotonic() < deadline, f"{text!r} ×{count} never came:\n{pane.screen()}"
        time.sleep(0.1)


def _fits(screen: str) -> None:
    """Every line within 80 columns (tmux joins the lines the terminal wrapped), no word
    cut short (``Intoxicat…``)."""
    lines = screen.rstrip("\n").splitlines()
    assert all(len(line) <= 80 for line in lines), screen
    assert not re.search(r"\w…", screen), f"something is cut:\n{screen}"


@needs_tmux
def test_join_answers_at_once_during_another_seats_turn(
    servers: Any, tmp_path: Any, panes: list[Pane]
) -> None:
    """help, a refused move, who is awaited, the undo sentence and quit, on another's turn."""
    server = servers(str(tmp_path / "t.sqlite3"))
    t = server.post("/api/tables", {"game": "submarine", "players": 2, "seats": ["human", "human"]})
    other = RealSeat(server.ws, t["id"], t["invites"][0]["token"])  # plays when told to
    tr = translator("en")
    them = tr("ui.seat_label", seat=tr("sub.player", n=1), who=tr("ui.who.player", n=1))
    me = tr("ui.seat_label", seat=tr("sub.player", n=2), who=tr("ui.who.you"))
    waiting = tr("ui.waiting", who=them)
    options = tr("ui.options", n=0).partition("(")[0]
    try:
        pane = _join(panes, t["invites"][1]["url"])
        if not other.state["your_turn"]:  # the terminal's seat was drawn to start
            _wait_printed(pane, options)
            pane.send("1", "Enter")
            other.until(lambda m: m["type"] == "update")
        else:
            _wait_printed(pane, tr("ui.intro.hint"))
        assert other.state["your_turn"]
        seq = other.state["seq"]
        pane.send("help", "Enter")
        _wait_printed(pane, tr("ui.help.rules"), timeout=AT_ONCE)
        pane.send("1", "Enter")  # a move on another's turn: answered here, nothing sent
        _wait_printed(pane, tr("ui.why.not_your_turn", current=them), timeout=AT_ONCE)
        assert server.get(f"/api/tables/{t['id']}")["seq"] == seq
        _wait_printed(pane, waiting)
        time.sleep(1)
        assert _history(pane).count(waiting) == 1  # said once, no spinner

        shown = _history(pane).count(options)
        other.act(other.state["legal"][0]["id"])  # the terminal's turn comes
        _wait_printed(pane, options, count=shown + 1)
        pane.send("1", "Enter")
        mine = other.until(lambda m: m["type"] == "update" and m["entry"]["seat"] == 1)
        pane.send("undo", "Enter")  # on the other's turn: nobody has decided since
        _wait_printed(pane, tr("ui.undo.entry", who=me, label=mine["entry"]["label"]))
        waited = _history(pane).count(waiting)
        pane.send("1", "Enter")
        _wait_printed(pane, waiting, count=waited + 1)  # the other's turn again
        _fits(pane.screen())
        pane.send("quit", "Enter")
        _wait_printed(pane, tr("ui.quit"), timeout=AT_ONCE)
    finally:
        other.close()


@needs_tmux
def test_join_sums_up_the_moves_made_before_it(
    servers: Any, tmp_path: Any, panes: list[Pane]
) -> None:
    """A late seat is told how many decisions it missed and the last lines, not all."""
    server = servers(str(tmp_path / "t.sqlite3"))
    t = server.post(
        "/api/tables", {"game": "submarine", "players": 3, "seats": ["human", "random", "random"]}
    )
    first = RealSeat(server.ws, t["id"], t["invites"][0]["token"])
    try:
        while first.state["seq"] < 30:  # the human seat plays, the bots answer
            if first.state["your_turn"]:
                first.act(first.state["legal"][0]["id"])
            first.recv()
        while not first.state["your_turn"]:
            first.recv()
    finally:
        first.close()
    seq = server.get(f"/api/tables/{t['id']}")["seq"]
    tr = translator("en")
    pane = _join(panes, t["invites"][0]["url"])  # the same seat, sitting down again
    _wait_printed(pane, tr.plural("ui.join.before", "ui.join.before.plural", seq, n=seq))
    _wait_printed(pane, tr("ui.join.log"))
    decisions = re.compile(r"Player \d \((?:you|bot random)\): ")
    assert len(decisions.findall(pane.screen(history=True))) == 5  # the last ones only
    pane.send("log 500", "Enter")
    deadline = time.monotonic() + AT_ONCE
    while len(decisions.findall(pane.screen(history=True))) < 5 + seq:
        assert time.monotonic() < deadline, "log does not show the decisions before"
        time.sleep(0.1)


@needs_tmux
def test_join_fits_80x24_with_the_odds_in_red_november(
    servers: Any, tmp_path: Any, panes: list[Pane]
) -> None:
    """At 80×24 nothing is cut or wider than the screen, and fix-it options show odds."""
    server = servers(str(tmp_path / "t.sqlite3"))
    seats = ["human", "heuristic", "heuristic", "heuristic"]
    odds = re.compile(r"\d+(–\d+)?%")
    title = translator("en")("ui.options", n=0).partition("(")[0]
    for _ in range(5):  # a table whose first turns offer no fix-it is rare: try another
        t = server.post("/api/tables", {"game": "red-november", "players": 4, "seats": seats})
        pane = _join(panes, t["invites"][0]["url"])
        for turn in range(12):
            _wait_printed(pane, title, count=turn + 1)
            time.sleep(0.5)  # the options and the prompt land
            screen = pane.screen()
            _fits(screen)
            if odds.search(screen.partition(title)[2]):
                return
            if server.get(f"/api/tables/{t['id']}")["finished"]:
                break
            pane.send("1", "Enter")
        pane.close()
    raise AssertionError("no fix-it option with its odds in five tables")
