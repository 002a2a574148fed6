"""People's text at ``subtable join``: names and chat drawn as typed, never obeyed.

A name or a line of chat comes from another person, through a server that may be
hostile: Rich must never read it as markup (``[/]`` crashed every board at 100 columns
or more, ``[link=…]`` made a hyperlink) and the terminal must never receive its control
characters (an escape sequence, a bidi override): each is shown as its escape.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from rich.console import Console
from tests.web.conftest import new_table

from subtable.core.registry import make_game
from subtable.web.client import Remote
from subtable.web.protocol import ChatLine, Entry, WelcomeFrame
from subtable.words import game_ui
from subtable.words.people import shown

#: what a person might be called or say, and how the terminal must show it
HOSTILE = {
    "[/]": "[/]",
    "[link=http://e.il]x[/]": "[link=http://e.il]x[/]",
    "[bold]B": "[bold]B",
    "\x1b[31mred": "\\x1b[31mred",
    "\u202eevil": "\\u202eevil",
}
#: Rich's own styles (what the test's console adds around the text it was given)
_STYLE = re.compile(r"\x1b\[[0-9;]*m")


def _printed(out: io.StringIO) -> str:
    """What the console printed: Rich's styles taken off, wrapped lines joined."""
    text = _STYLE.sub("", out.getvalue())
    return "".join(text.split())


def _literal(printed: str, expected: str) -> bool:
    return "".join(expected.split()) in printed


def _hostile_seat(client: Any, connect: Any, game: str, width: int) -> tuple[Remote, io.StringIO]:
    """Player 1's terminal at a four-person table whose other people have hostile names."""
    t = new_table(client, game=game, players=4, seats=["human"] * 4)
    seat = connect(t["id"], t["invites"][0]["token"])
    out = io.StringIO()
    console = Console(
        file=out, width=width, height=60, force_terminal=True, color_system="truecolor"
    )
    remote = Remote(None, console, "en")
    remote.game = make_game(game, **seat.welcome["options"])
    remote.ui = game_ui(remote.game)
    names = list(HOSTILE)
    # what a server sends is data: a hostile one may send names no server of ours accepts
    remote.welcome = WelcomeFrame.model_validate({**seat.welcome, "people": [None, *names[:3]]})
    remote.state = seat.state
    return remote, out


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("game", ["submarine", "red-november"])
def test_the_board_shows_names_as_typed(client: Any, connect: Any, game: str, width: int) -> None:
    """Before, at 120 columns the board raised Rich's ``MarkupError`` (``[/]``); at 80 a
    name's escape sequence reached the terminal."""
    for first in (0, 3):  # two rounds: every hostile name sits at a seat once
        remote, out = _hostile_seat(client, connect, game, width)
        names = list(HOSTILE)[first : first + 3]
        remote.welcome.people = [None, *names] + [None] * (3 - len(names))
        remote.show()
        printed = _printed(out)
        for name in names:
            assert _literal(printed, HOSTILE[name]), (name, out.getvalue())
        raw = out.getvalue()
        assert "\x1b]8;" not in raw  # no hyperlink
        assert "\x1b[31mred" not in raw and "\u202e" not in raw
        assert all(len(line) <= width for line in _STYLE.sub("", raw).splitlines())


@pytest.mark.parametrize("width", [80, 120])
def test_chat_and_the_log_show_peoples_text_as_typed(client: Any, connect: Any, width: int) -> None:
    remote, out = _hostile_seat(client, connect, "submarine", width)
    for n, text in enumerate(HOSTILE):
        remote.welcome.people[1] = text
        remote.said(ChatLine(n=n + 1, seq=0, player=1, name=text, text=f"hi {text}", at=0))
        remote.entry(Entry(seq=n + 1, kind="undo", seat=1, action="swap", label="", events=[]))
    printed = _printed(out)
    raw = out.getvalue()
    for text, expected in HOSTILE.items():
        assert _literal(printed, f"{expected}: hi {expected}"), (text, raw)  # the chat line
        assert _literal(printed, f"Player 2 ({expected})"), (text, raw)  # the log's line
    assert "\x1b]8;" not in raw and "\x1b[31mred" not in raw and "\u202e" not in raw


def test_shown_writes_what_acts_as_its_escape() -> None:
    assert shown("Ana [/]") == "Ana [/]"  # markup is not Rich's business here: plain text
    assert shown("a\x1bb\u202ec\u200bd\x00") == "a\\x1bb\\u202ec\\u200bd\\x00"
    assert shown("é 👍🏽 日本") == "é 👍🏽 日本"


def test_replay_log_shows_a_records_labels_as_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record's file says anything: ``replay --log`` shows its seats' labels as typed."""
    from subtable.commands import replay
    from subtable.core.record import GameRecord
    from subtable.i18n import translator

    game = make_game("submarine", players=2)
    state = game.new_state(7)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    record = GameRecord.of("submarine", state, seats=["[/]", "\x1b[31mred\u202e"])
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, color_system="truecolor")
    monkeypatch.setattr(replay, "out", console)
    replay.narrate(record, translator("en"))
    raw = out.getvalue()
    assert "(bot [/])" in raw and "(bot \\x1b[31mred\\u202e)" in raw
    assert "\x1b[31mred" not in raw and "\u202e" not in raw
