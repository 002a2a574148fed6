"""`subtable play` in a real terminal (tmux): hot-seat privacy and the 80×24 and 160×50 layouts."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from subtable.i18n import translator
from tmux_pane import Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@pytest.fixture
def panes() -> Iterator[list[Pane]]:
    started: list[Pane] = []
    yield started
    for pane in started:
        pane.close()


def test_the_hand_off_wipes_the_scroll_back_too(panes: list[Pane]) -> None:
    pane = Pane(
        ["play", "submarine", "--players", "2", "--seats", "human,human", "--seed", "3"], 100, 40
    )
    panes.append(pane)
    tr = translator("en")
    mine = tr("sub.board.you_are", player=tr("sub.player", n=1))
    theirs = tr("sub.board.you_are", player=tr("sub.player", n=2))
    pane.wait_for("Pass the keyboard to player 1")
    pane.send("Enter")
    pane.wait_for_prompt()
    assert mine in pane.screen(history=True)
    for _ in range(12):  # player 1 plays until the keyboard goes to player 2
        pane.send("1", "Enter")
        screen = pane.wait_for_prompt()
        if "Pass the keyboard to player 2" in screen:
            break
    else:
        raise AssertionError("player 1 never handed over")
    assert mine not in pane.screen(history=True)
    pane.send("Enter")
    pane.wait_for_prompt()
    history = pane.screen(history=True)
    assert theirs in history
    assert mine not in history, "player 1's board is still in the scroll-back"


@pytest.mark.parametrize("game", ["red-november", "submarine"])
@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_the_board_and_the_options_fit_the_terminal(
    game: str, size: tuple[int, int], panes: list[Pane]
) -> None:
    width, height = size
    seats = "human,random,random,random"
    pane = Pane(
        ["play", game, "--players", "4", "--seats", seats, "--seed", "5", "--fast"], width, height
    )
    panes.append(pane)
    screen = pane.wait_for_prompt()
    title = "Red November · turn" if game == "red-november" else "Submarine · turn"
    assert title in screen, f"the board's first line scrolled away at {width}×{height}:\n{screen}"
    assert "Your options" in screen
    assert "…" not in screen, f"something is cut at {width}×{height}:\n{screen}"
    lines = screen.rstrip("\n").splitlines()
    assert all(len(line) <= width for line in lines)
