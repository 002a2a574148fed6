"""The JSON form of a Submarine view (:meth:`SubmarineView.to_json
<subtable.games.submarine.view.SubmarineView.to_json>`), declared for its readers.

The terminal's board and the narration read a view as it arrives from the engine or over
the wire; these declarations let the type checker see each field they read, so that a
renamed field fails the check instead of a game.
"""

# no ``from __future__ import annotations``: the declared optional keys (``NotRequired``)
# are read at run time, and the test of the declaration reads them
from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast


class PendingJson(TypedDict):
    """The decision waited for; columns and levels 1-based."""

    phase: str
    seat: int | None
    column: NotRequired[int]
    idle: NotRequired[list[int]]
    collecting_level: NotRequired[int]
    placed: NotRequired[list[str]]
    moving: NotRequired[list[int]]
    toll_left: NotRequired[int]
    owed: NotRequired[list[int]]
    treasure: NotRequired[str]


class PlayerJson(TypedDict):
    """One player as the view's seat sees them (``hand``: ``None`` when hidden; ``boat``:
    ``left``, ``right`` or a 1-based column)."""

    seat: int
    boat: str | int
    bathyscaphes: list[list[int]]
    treasures: list[str]
    jokers: list[str]
    hand: dict[str, int] | None
    hand_size: int
    pile_size: int


class OutcomeJson(TypedDict):
    """How a finished game ended."""

    reason: str
    winners: list[int]


class SubmarineJson(TypedDict):
    """A whole view: the sea's cells, the players, the piles and the decision under way."""

    game: str
    seat: int | None
    turn: int
    first: int
    pending: PendingJson
    #: per column, per level: the tokens there (notation names)
    cells: list[list[list[str]]]
    players: list[PlayerJson]
    discard: dict[str, int]
    box_cards: int
    box_jokers: list[str]
    #: the table's options (the game's own, as declared)
    options: dict[str, Any]
    outcome: OutcomeJson | None
    #: the same fields in the engine's form (ids, 0-based), for exact rebuilding
    engine: dict[str, Any]
    legal: NotRequired[list[str]]


def view_json(view: Mapping[str, Any]) -> SubmarineJson:
    """``view`` (a Submarine view's JSON form, from the engine or the wire) as declared."""
    return cast(SubmarineJson, view)
