"""A Submarine view as its JSON form (:meth:`SubmarineView.to_json
<subtable.games.submarine.view.SubmarineView.to_json>`) holds it, field by field, for the
terminal's board and the narration to read typed, like
:mod:`subtable.words.red_november_json` (run-time annotations: ``NotRequired`` is read)."""

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast

from subtable.words.common import OutcomeJson


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
