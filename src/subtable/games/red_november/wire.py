"""The JSON form of a Red November seat's view (:meth:`RedNovemberView.to_json`): what the
tables render and a server sends, key by key."""

# no ``from __future__ import annotations``: the optional keys (``NotRequired``) are then
# read at run time, by ``__required_keys__``, for readers that check a view against them
from typing import NotRequired, TypedDict

from subtable.core.options import OptionValue


class PendingJSON(TypedDict):
    """The decision awaited: the phase, the seat, and what the phase names."""

    phase: str
    #: ``None`` once the game is over
    seat: int | None
    #: the other gnome of a trade or an attack
    partner: NotRequired[int]
    #: an event's choice (``block``, ``discard``...)
    choice: NotRequired[str]
    #: the room a Block Hatch choice is about
    room: NotRequired[int]
    #: how many items a discard keeps
    limit: NotRequired[int]


class RoomJSON(TypedDict):
    """One room's hazards."""

    room: int
    fire: bool
    water: int


class GnomeJSON(TypedDict):
    """One gnome: where he is, his condition, and his hand if this seat sees it."""

    seat: int
    room: int | None
    alive: bool
    abandoned: bool
    fainted: bool
    intoxication: int
    keeper: int | None
    stack: int
    red_area: bool
    #: items by kind (``None``: a hand this seat does not see)
    hand: dict[str, int] | None
    hand_size: int


class ThisTurnJSON(TypedDict):
    """What the active gnome has used or done this turn."""

    grog: int
    enter_fire: bool
    aqualung: bool
    lucky: int
    crowbar: bool
    started_outside: bool
    entered_fire: bool
    fresh: bool
    #: bonus to each fix-it roll, by kind
    bonus: dict[str, int]


class OutcomeJSON(TypedDict):
    """How the game ended."""

    reason: str
    winners: list[int]


class RedNovemberViewJSON(TypedDict):
    """A seat's view as JSON."""

    game: str
    seat: int | None
    turn: int
    active: int
    ghost: int | None
    pending: PendingJSON
    rooms: list[RoomJSON]
    #: the blocked hatches, each as the two spaces it joins
    blocked: list[list[int]]
    tracks: dict[str, int]
    #: each token's space (``None``: off the board)
    tokens: dict[str, int | None]
    gnomes: list[GnomeJSON]
    event_deck: int
    #: ``[kind, faint]`` of each card
    event_discard: list[list[str | int]]
    event_removed: list[list[str | int]]
    kraken_set_aside: bool
    item_deck: int
    item_discard: dict[str, int]
    grog_stash: int
    this_turn: ThisTurnJSON
    options: dict[str, OptionValue]
    outcome: OutcomeJSON | None
    #: the deciding seat's legal actions, in notation
    legal: NotRequired[list[str]]
