"""The JSON form of a Red November view (:meth:`RedNovemberView.to_json
<subtable.games.red_november.view.RedNovemberView.to_json>`), declared for its readers.

The terminal's board and the narration read a view as it arrives from the engine or over
the wire; these declarations let the type checker see each field they read, so that a
renamed field fails the check instead of a game.
"""

# no ``from __future__ import annotations``: the declared optional keys (``NotRequired``)
# are read at run time, and the test of the declaration reads them
from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast

from subtable.words.common import OutcomeJson


class PendingJson(TypedDict):
    """The decision waited for."""

    phase: str
    seat: int | None
    partner: NotRequired[int]
    choice: NotRequired[str]
    room: NotRequired[int]
    limit: NotRequired[int]


class RoomJson(TypedDict):
    """One room's fire and water (``water``: 0 dry, 1 low, 2 high)."""

    room: int
    fire: bool
    water: int


class GnomeJson(TypedDict):
    """One gnome as the view's seat sees him (``hand``: ``None`` when hidden)."""

    seat: int
    room: int | None
    alive: bool
    abandoned: bool
    fainted: bool
    intoxication: int
    keeper: int | None
    stack: int
    red_area: bool
    hand: dict[str, int] | None
    hand_size: int


class ThisTurnJson(TypedDict):
    """What the active gnome's items did this turn."""

    grog: int
    enter_fire: bool
    aqualung: bool
    lucky: int
    crowbar: bool
    started_outside: bool
    entered_fire: bool
    fresh: bool
    bonus: dict[str, int]


class RedNovemberJson(TypedDict):
    """A whole view: the board, the gnomes, the decks and the decision under way."""

    game: str
    seat: int | None
    turn: int
    active: int
    ghost: int | None
    pending: PendingJson
    rooms: list[RoomJson]
    blocked: list[list[int]]
    tracks: dict[str, int]
    tokens: dict[str, int | None]
    gnomes: list[GnomeJson]
    event_deck: int
    event_discard: list[list[Any]]
    event_removed: list[list[Any]]
    kraken_set_aside: bool
    item_deck: int
    item_discard: dict[str, int]
    grog_stash: int
    this_turn: ThisTurnJson
    #: the table's options (the game's own, as declared)
    options: dict[str, Any]
    outcome: OutcomeJson | None
    legal: NotRequired[list[str]]


def view_json(view: Mapping[str, Any]) -> RedNovemberJson:
    """``view`` (a Red November view's JSON form, from the engine or the wire) as declared."""
    return cast(RedNovemberJson, view)
