"""Red November's components, loaded from ``components.toml``.

The TOML file is the single source of the board, decks and time track; this
module turns it into the lookup tables the engine needs.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any, NotRequired, TypedDict, cast

from subtable.core.components import packaged_toml
from subtable.core.view import by_fields

PACKAGE = "subtable.games.red_november"
SEA = 11
ROOMS = tuple(range(1, 11))
FIX_KINDS = ("extinguish", "pump", "unblock", "engine", "pumps", "reactor", "missiles", "kraken")


class HatchesToml(TypedDict):
    """``[hatches]``: the interior hatches (pairs of rooms) and the rooms open to the Sea."""

    interior: list[list[int]]
    exterior: list[int]


class TracksToml(TypedDict):
    """``[disaster_tracks]``: spaces 1..length, the start, the reset points, the tracks."""

    length: int
    start: int
    reset_points: list[int]
    order: list[str]


class TimeToml(TypedDict):
    """``[time_track]``: its top, its marked spaces, the start by number of gnomes."""

    top: int
    event_spaces_divisor: int
    event_spaces_from: int
    event_spaces_to: int
    item_spaces: list[int]
    #: by number of gnomes (``"3"``...)
    start: dict[str, int]
    abandon_below: int
    faint_minutes: int


class DestructionToml(TypedDict):
    """``[destruction]``: the destruction tokens in order."""

    order: list[str]


class RepairToml(TypedDict):
    """A room fix-it action: its room, the track it lowers, the token it pushes back."""

    room: int
    track: str
    token: str


class ActionsToml(TypedDict):
    """``[actions]``: the numbers printed on the player aid."""

    max_fix_minutes: int
    low_water_penalty: int
    stores_room: int
    stores_max_draw: int
    cabin_room: int
    cabin_max_draw: int


class EventToml(TypedDict):
    """An ``[[events]]`` kind: each copy's Faint Check number and what the card does."""

    kind: str
    faint: list[int]
    track: NotRequired[str]
    amount: NotRequired[int]
    token: NotRequired[str]
    ahead: NotRequired[int]
    hand_limit: NotRequired[int]
    set_aside: NotRequired[bool]


class ItemToml(TypedDict):
    """An ``[[items]]`` kind: its copies, those in the Grog stash, what it does."""

    kind: str
    copies: int
    stash: NotRequired[int]
    #: what it adds to each fix-it roll, by fix-it kind
    bonus: NotRequired[dict[str, int]]
    enter_fire: NotRequired[bool]
    intoxicates: NotRequired[bool]
    leave_sub: NotRequired[bool]
    ignore_events: NotRequired[int]
    sober: NotRequired[int]


class ComponentsToml(TypedDict):
    """``components.toml`` as parsed (:func:`_build` checks its keys and values)."""

    ruleset: str
    #: each room's name by number (``""`` for an unnamed room), and ``sea``: the Sea's space
    rooms: dict[str, str | int]
    hatches: HatchesToml
    disaster_tracks: TracksToml
    time_track: TimeToml
    destruction: DestructionToml
    #: by fix-it kind
    repairs: dict[str, RepairToml]
    actions: ActionsToml
    events: list[EventToml]
    items: list[ItemToml]


def components_toml(text: str | None = None) -> ComponentsToml:
    """Component TOML parsed (the packaged file when ``text`` is ``None``): the shape
    :func:`_build` reads, which raises ``KeyError`` or ``ValueError`` where it is not."""
    return cast(ComponentsToml, packaged_toml(PACKAGE) if text is None else tomllib.loads(text))


@dataclass(frozen=True, slots=True)
class EventCard:
    """One physical event card."""

    index: int
    kind: str
    faint: int  # 0 is the dash: never faints
    track: str = ""
    amount: int = 0
    token: str = ""
    ahead: int = 0
    hand_limit: int = 0
    set_aside: bool = False

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class ItemKind:
    """One type of item card."""

    index: int
    kind: str
    copies: int
    stash: int
    bonus: tuple[int, ...]  # per FIX_KINDS
    enter_fire: bool
    intoxicates: bool
    leave_sub: bool
    ignore_events: int
    sober: int

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)

    @property
    def slug(self) -> str:
        """The item's name in action notation (``fire-extinguisher``)."""
        return self.kind.replace("_", "-")


@dataclass(frozen=True, slots=True)
class Repair:
    """A room fix-it action."""

    kind: str
    room: int
    track: int  # index into tracks, -1 if none
    token: int  # index into destruction tokens, -1 if none

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class Components:
    """Everything Red November's rules read from the printed components."""

    ruleset: str
    room_names: dict[int, str]
    hatches: tuple[tuple[int, int], ...]
    exterior: tuple[int, ...]
    #: for each space 1..11: ((destination, hatch index or -1 for exterior), ...)
    neighbours: tuple[tuple[tuple[int, int], ...], ...]
    #: for each room: indices of its interior hatches
    room_hatches: tuple[tuple[int, ...], ...]
    #: for each room: rooms joined to it by an interior hatch (blocked or not)
    adjacent: tuple[tuple[int, ...], ...]
    tracks: tuple[str, ...]
    track_length: int
    track_start: int
    reset_points: tuple[int, ...]
    tokens: tuple[str, ...]
    repairs: dict[str, Repair]
    time_top: int
    event_icon: tuple[bool, ...]
    item_icon: tuple[bool, ...]
    start_space: dict[int, int]
    abandon_below: int
    faint_minutes: int
    max_fix_minutes: int
    low_water_penalty: int
    stores_room: int
    stores_max_draw: int
    cabin_room: int
    cabin_max_draw: int
    events: tuple[EventCard, ...]
    items: tuple[ItemKind, ...]

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)

    def item_index(self, kind: str) -> int:
        """The index of an item kind."""
        for item in self.items:
            if item.kind == kind:
                return item.index
        raise KeyError(kind)

    def hatch_between(self, a: int, b: int) -> int | None:
        """The hatch joining ``a`` and ``b`` (-1 for an exterior hatch), or ``None``."""
        for dest, hatch in self.neighbours[a]:
            if dest == b:
                return hatch
        return None


def _hatch_graph(
    data: ComponentsToml,
) -> tuple[
    tuple[tuple[int, int], ...], tuple[int, ...], list[list[tuple[int, int]]], list[list[int]]
]:
    """The interior hatches, the rooms with an exterior hatch, each space's neighbours
    (``(space, hatch)``, ``-1`` for an exterior hatch) and each space's interior hatches."""
    hatches = tuple((int(a), int(b)) for a, b in data["hatches"]["interior"])
    exterior = tuple(int(r) for r in data["hatches"]["exterior"])
    neigh: list[list[tuple[int, int]]] = [[] for _ in range(SEA + 1)]
    room_hatches: list[list[int]] = [[] for _ in range(SEA + 1)]
    for i, (a, b) in enumerate(hatches):
        neigh[a].append((b, i))
        neigh[b].append((a, i))
        room_hatches[a].append(i)
        room_hatches[b].append(i)
    for r in exterior:
        neigh[r].append((SEA, -1))
        neigh[SEA].append((r, -1))
    return hatches, exterior, neigh, room_hatches


def _repairs(
    data: ComponentsToml, tracks: tuple[str, ...], tokens: tuple[str, ...]
) -> dict[str, Repair]:
    """Each repair's room, and the track it lowers or the token it pushes back."""
    return {
        kind: Repair(
            kind,
            int(spec["room"]),
            tracks.index(spec["track"]) if spec["track"] else -1,
            tokens.index(spec["token"]) if spec["token"] else -1,
        )
        for kind, spec in data["repairs"].items()
    }


def _time_icons(tt: TimeToml) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """Which Time Track spaces show the event icon, and which the item icon."""
    top = int(tt["top"])
    event_icon = [False] * (top + 1)
    for s in range(int(tt["event_spaces_to"]), int(tt["event_spaces_from"]) + 1):
        if s % int(tt["event_spaces_divisor"]) == 0:
            event_icon[s] = True
    item_icon = [False] * (top + 1)
    for s in tt["item_spaces"]:
        item_icon[int(s)] = True
    return tuple(event_icon), tuple(item_icon)


def _events(data: ComponentsToml) -> tuple[EventCard, ...]:
    """The event cards, one per faint value of each kind."""
    events: list[EventCard] = []
    for spec in data["events"]:
        for faint in spec["faint"]:
            events.append(
                EventCard(
                    len(events),
                    spec["kind"],
                    int(faint),
                    spec.get("track", ""),
                    int(spec.get("amount", 0)),
                    spec.get("token", ""),
                    int(spec.get("ahead", 0)),
                    int(spec.get("hand_limit", 0)),
                    bool(spec.get("set_aside", False)),
                )
            )
    return tuple(events)


def _items(data: ComponentsToml) -> tuple[ItemKind, ...]:
    """The item kinds (raises ``ValueError`` for a bonus to an unknown fix-it kind)."""
    items = []
    for i, spec in enumerate(data["items"]):
        bonus = spec.get("bonus", {})
        unknown = set(bonus) - set(FIX_KINDS)
        if unknown:
            raise ValueError(f"components: unknown fix-it kinds {unknown}")
        items.append(
            ItemKind(
                i,
                spec["kind"],
                int(spec["copies"]),
                int(spec.get("stash", 0)),
                tuple(int(bonus.get(k, 0)) for k in FIX_KINDS),
                bool(spec.get("enter_fire", False)),
                bool(spec.get("intoxicates", False)),
                bool(spec.get("leave_sub", False)),
                int(spec.get("ignore_events", 0)),
                int(spec.get("sober", 0)),
            )
        )
    return tuple(items)


def _build(data: ComponentsToml) -> Components:
    rooms = data["rooms"]
    room_names = {int(k): str(v) for k, v in rooms.items() if k != "sea"}
    if rooms.get("sea") != SEA or sorted(room_names) != list(ROOMS):
        raise ValueError("components: rooms must be 1..10 and the sea 11")
    hatches, exterior, neigh, room_hatches = _hatch_graph(data)
    dt = data["disaster_tracks"]
    tracks = tuple(dt["order"])
    tokens = tuple(data["destruction"]["order"])
    repairs = _repairs(data, tracks, tokens)
    tt = data["time_track"]
    event_icon, item_icon = _time_icons(tt)
    events = _events(data)
    items = _items(data)
    act = data["actions"]
    return Components(
        ruleset=data["ruleset"],
        room_names=room_names,
        hatches=hatches,
        exterior=exterior,
        neighbours=tuple(tuple(sorted(n)) for n in neigh),
        room_hatches=tuple(tuple(h) for h in room_hatches),
        adjacent=tuple(tuple(sorted(d for d, h in n if h >= 0)) for n in neigh),
        tracks=tracks,
        track_length=int(dt["length"]),
        track_start=int(dt["start"]),
        reset_points=tuple(int(x) for x in dt["reset_points"]),
        tokens=tokens,
        repairs=repairs,
        time_top=int(tt["top"]),
        event_icon=event_icon,
        item_icon=item_icon,
        start_space={int(k): int(v) for k, v in tt["start"].items()},
        abandon_below=int(tt["abandon_below"]),
        faint_minutes=int(tt["faint_minutes"]),
        max_fix_minutes=int(act["max_fix_minutes"]),
        low_water_penalty=int(act["low_water_penalty"]),
        stores_room=int(act["stores_room"]),
        stores_max_draw=int(act["stores_max_draw"]),
        cabin_room=int(act["cabin_room"]),
        cabin_max_draw=int(act["cabin_max_draw"]),
        events=events,
        items=items,
    )


def load_components(text: str | None = None) -> Components:
    """Parse component TOML (the packaged file when ``text`` is ``None``)."""
    if text is None:
        return default_components()
    return _build(components_toml(text))


@cache
def default_components() -> Components:
    """The packaged components (parsed once)."""
    return _build(components_toml())
