"""The expert's advice is a function of the asking seat's information alone.

The pairs of histories of ``test_information_sets.py`` — another captain swapped another
colour, another gnome gave another item, every hidden card dealt otherwise — are played
through the server at two tables that allow advice; the watching seat asks the expert at
its first decisions, and every frame it receives (the ``advice_asked`` lines, the
``advice`` answers, and everything else) must be the same, byte for byte. A planted leak
(an answer that carries something of the table's state) shows that the comparison catches
what it should.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.test_information_sets import (
    Pair,
    _decider,
    _first_difference,
    _pair,
    frames_of,
    seat_everyone,
)

from subtable.web import hint, live
from subtable.web.protocol import AdviceFrame

pytestmark = pytest.mark.slow  # most tests here take over two seconds

#: the watcher's decisions it asks the expert about
ASKS = 3


def play_with_hints(
    client: TestClient, pair: Pair, history: list[str], *, redealt: bool
) -> list[str]:
    """Play ``history`` at a new table that allows advice, the watcher asking the expert at
    its first :data:`ASKS` decisions; every frame the watcher got (the table's id blanked)."""
    assert pair.watcher is not None
    at = seat_everyone(client, pair, redealt=redealt, advice=True)
    owners, players, watcher, state = at.owners, at.players, at.watcher, at.state
    mine = owners[pair.watcher]
    asked = 0
    for seq, notation in enumerate(history):
        if state["your_turn"] and asked < ASKS:
            asked += 1
            watcher.send({"type": "hint"})
            for sock in [*players, watcher]:
                assert sock.recv()["type"] == "advice_asked"
            answer = watcher.recv()
            assert answer["type"] == "advice", answer
        decider = owners[_decider(client, at.table)]
        mover = watcher if decider == mine else players[decider]
        mover.send({"type": "action", "seq": seq, "action": notation})
        if mover is not watcher:
            assert mover.recv()["type"] == "update"
        for sock in players:
            if sock is not mover:
                assert sock.recv()["type"] == "update"
        got = watcher.recv()
        assert got["type"] == "update", got
        state = got["state"]
    assert asked == ASKS, "the watcher decided too seldom in this history"
    for sock in [*players, watcher]:
        sock.close()
    return [text.replace(at.table, "TABLE") for text in watcher.raw]


def no_plant(m: pytest.MonkeyPatch) -> None:
    del m


def plant_state_in_the_answer(m: pytest.MonkeyPatch) -> None:
    """The answer carries a digest of the whole state (what the expert must never read)."""
    frame = hint.advice_frame

    def leaky(table: live.LiveTable, *args: Any) -> AdviceFrame:
        out = frame(table, *args)
        out.title += table.state.digest()
        return out

    m.setattr(hint, "advice_frame", leaky)


HINT_PAIRS = ["submarine-3", "submarine-3-redealt", "red-november-crazed"]


@pytest.mark.parametrize("name", HINT_PAIRS)
def test_the_advice_is_the_same_where_the_seat_cannot_tell_the_tables_apart(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pair = _pair(name)
    a, b = frames_of(tmp_path, monkeypatch, pair, no_plant, play_with_hints)
    advice = [x for x in a if '"type":"advice"' in x]
    assert len(advice) == ASKS
    assert _first_difference(a, b) is None, _first_difference(a, b)


def test_the_comparison_catches_a_state_read_by_the_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pair = _pair("submarine-3-redealt")
    a, b = frames_of(tmp_path, monkeypatch, pair, plant_state_in_the_answer, play_with_hints)
    difference = _first_difference(a, b)
    assert difference is not None and '"type":"advice"' in difference
