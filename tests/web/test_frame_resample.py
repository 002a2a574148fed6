"""A seat's whole frame is a function of what the seat may see.

The web table sends a seat more than its view: the drawn board and panels, the status line,
the seat names, the legal actions with their labels and hints. Each is built on the server
from the live table's state. Here that state is swapped, position after position, for worlds
re-sampled from the seat's view (``Game.determinize``: other hands, deck orders and the
generator dealt anew), and the seat's frames must not change by a byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from subtable.core.rng import Rng
from subtable.i18n import Translator, translator
from subtable.web.db import TableRow
from subtable.web.live import LiveTable, build_table
from subtable.web.protocol import Frame


@dataclass
class _Page:
    """A connection that asked for rendered frames (``render: "html"``)."""

    player: int | None
    seats: tuple[int, ...]
    tr: Translator
    html: bool = True
    sent: list[Frame] = field(default_factory=lambda: list[Frame]())

    def send(self, frame: Frame) -> None:
        self.sent.append(frame)


def _table(game: str, options: dict[str, Any], seed: int, controllers: list[str]) -> LiveTable:
    row = TableRow(
        id="t-resample",
        game=game,
        options=options,
        seed=seed,
        controllers=controllers,
        lang="en",
        spectator_hash="",
        finished=False,
    )
    return build_table(row, {})


def _frames(table: LiveTable, page: _Page) -> dict[str, Any]:
    return {"state": table.state_json(page), "welcome": table.welcome_frame(page).wire()}


@pytest.mark.parametrize(
    ("game", "options", "controllers"),
    [
        ("red-november", {"players": 4, "crazed_gnomes": True}, ["human", "heuristic"] * 2),
        ("red-november", {"players": 3}, ["human"] * 3),
        ("submarine", {"players": 3}, ["human", "human", "random"]),
    ],
)
def test_a_seats_frames_do_not_change_when_its_hidden_part_is_resampled(
    game: str, options: dict[str, Any], controllers: list[str]
) -> None:
    table = _table(game, options, seed=8080, controllers=controllers)
    true_state = table.state
    moves = Rng(17)
    compared = changed_worlds = 0
    for step in range(240):
        if true_state.is_terminal():
            break
        if step % 12 == 0:
            for seat in range(table.game.num_seats):
                page = _Page(
                    player=table.owners[seat],
                    seats=(seat,),
                    tr=translator(("en", "fr", "it", "pt")[seat % 4]),
                )
                table.state = true_state
                seen = _frames(table, page)
                for k in range(3):
                    world = table.game.determinize(true_state.observe(seat), Rng(1000 * step + k))
                    changed_worlds += world.to_json() != true_state.to_json()
                    table.state = world
                    assert _frames(table, page) == seen, (game, step, seat, k)
                    compared += 1
                table.state = true_state
        ids = true_state.legal_action_ids()
        true_state.apply_unchecked(ids[moves.below(len(ids))])
    assert compared >= 30
    # the worlds really differed from the truth in what the seat cannot see
    assert changed_worlds == compared
