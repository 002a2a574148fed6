"""The JSON form of a Submarine seat's view (:meth:`SubmarineView.to_json`): names,
1-based columns and levels, key by key, with the engine's own form beside them."""

# no ``from __future__ import annotations``: the optional keys (``NotRequired``) are then
# read at run time, by ``__required_keys__``, for readers that check a view against them
from typing import NotRequired, TypedDict

from subtable.core.options import OptionValue


class PendingJSON(TypedDict):
    """The decision awaited: the phase, the seat, and the turn's column, bathyscaphes
    and toll."""

    phase: str
    #: ``None`` once the game is over
    seat: int | None
    #: the turn's column (1-based)
    column: NotRequired[int]
    #: the levels of the active captain's bathyscaphes still to act
    idle: NotRequired[list[int]]
    collecting_level: NotRequired[int]
    placed: NotRequired[list[str]]
    #: ``[column, level]`` of the bathyscaphe moving
    moving: NotRequired[list[int]]
    toll_left: NotRequired[int]
    owed: NotRequired[list[int]]
    treasure: NotRequired[str]


class PlayerJSON(TypedDict):
    """A captain: boat, bathyscaphes, treasures, jokers, cards."""

    seat: int
    #: ``"left"``, ``"right"`` or the column (1-based) the boat is over
    boat: str | int
    #: ``[column, level]`` of each
    bathyscaphes: list[list[int]]
    treasures: list[str]
    jokers: list[str]
    #: cards by colour (``None``: a hand this seat does not see)
    hand: dict[str, int] | None
    hand_size: int
    pile_size: int


class EngineJSON(TypedDict):
    """The view's fields in engine form (ids, 0-based)."""

    phase: int
    active: int
    to_place: int
    cells: list[list[int]]
    boats: list[int]
    bathyscaphes: list[list[int]]
    treasures: list[list[int]]
    column: int
    #: bit ``i`` set: the turn player's bathyscaphe ``i`` has acted this turn
    acted: int
    acting: int
    moving: int
    placed: list[int]
    owed: list[int]
    pending_token: int
    pending_cell: int


class OutcomeJSON(TypedDict):
    """How the game ended."""

    reason: str
    winners: list[int]


class SubmarineViewJSON(TypedDict):
    """A seat's view as JSON."""

    game: str
    seat: int | None
    turn: int
    first: int
    pending: PendingJSON
    #: the tokens' names in each column's cells, level by level
    cells: list[list[list[str]]]
    players: list[PlayerJSON]
    discard: dict[str, int]
    box_cards: int
    box_jokers: list[str]
    options: dict[str, OptionValue]
    outcome: OutcomeJSON | None
    engine: EngineJSON
    #: the deciding seat's legal actions, in notation
    legal: NotRequired[list[str]]
