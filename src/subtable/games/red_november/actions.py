"""Red November's actions: one typed value per distinct decision.

Notation (canonical, lower case; user interfaces also accept unique prefixes):

=====================  ===================================================
``move 5``/``move sea`` open the hatch to 5 (or the sea) and go through
``open 5``             open the hatch and stay (e.g. to reflow water)
``use grog``           use an item card from your hand
``extinguish 3``       Extinguish Fire, spending 3 minutes
``pump 3``             Pump Water
``unblock 4-5 3``      Unblock the hatch between rooms 4 and 5
``fix-engine 3``       also ``fix-pumps``, ``fix-reactor``,
                       ``stop-missiles``, ``kill-kraken``
``draw 2``             Draw Item Cards (2 cards, 2 minutes)
``trade g2``           Trade Item Cards with gnome 2
``attack g2``          Attack Gnome (Crazed Gnomes)
``no-action``          No Action (1 minute)
``abandon``            Abandon Comrades
``done``               finish (giving in a trade, using items after the
                       action, or a turn with no minute left for an action)
``give grog``          give an item during a trade
``discard grog``       discard an item (Turbulence, Stumble, Friendly Fire)
``spread 5``           choose the room Fire Spreads into
``block 4-5``          choose the hatch a Blocked Hatch event blocks
``defend``/``yield``   answer an Attack Gnome (Crazed Gnomes)
=====================  ===================================================
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from subtable.core.actions import ActionSpace
from subtable.core.view import by_fields
from subtable.games.red_november.components import SEA, Components

MAX_GNOMES = 8


class Kind(enum.IntEnum):
    """What an action does."""

    MOVE = 0
    OPEN = 1
    USE = 2
    EXTINGUISH = 3
    PUMP = 4
    UNBLOCK = 5
    FIX_ENGINE = 6
    FIX_PUMPS = 7
    FIX_REACTOR = 8
    STOP_MISSILES = 9
    KILL_KRAKEN = 10
    DRAW = 11
    TRADE = 12
    ATTACK = 13
    NO_ACTION = 14
    ABANDON = 15
    DONE = 16
    GIVE = 17
    DISCARD = 18
    SPREAD = 19
    BLOCK = 20
    DEFEND = 21
    YIELD = 22


#: fix-it action kinds -> the component name of the fix (see ``FIX_KINDS``)
FIX_OF_KIND = {
    Kind.EXTINGUISH: "extinguish",
    Kind.PUMP: "pump",
    Kind.UNBLOCK: "unblock",
    Kind.FIX_ENGINE: "engine",
    Kind.FIX_PUMPS: "pumps",
    Kind.FIX_REACTOR: "reactor",
    Kind.STOP_MISSILES: "missiles",
    Kind.KILL_KRAKEN: "kraken",
}
ROOM_FIX_KINDS = (
    Kind.FIX_ENGINE,
    Kind.FIX_PUMPS,
    Kind.FIX_REACTOR,
    Kind.STOP_MISSILES,
    Kind.KILL_KRAKEN,
)
#: the Action phase's choices (one per turn; Extinguish Fire … Abandon Comrades)
ACTION_KINDS = frozenset(
    {
        Kind.EXTINGUISH,
        Kind.PUMP,
        Kind.UNBLOCK,
        *ROOM_FIX_KINDS,
        Kind.DRAW,
        Kind.TRADE,
        Kind.ATTACK,
        Kind.NO_ACTION,
        Kind.ABANDON,
    }
)
_WORDS = {
    Kind.FIX_ENGINE: "fix-engine",
    Kind.FIX_PUMPS: "fix-pumps",
    Kind.FIX_REACTOR: "fix-reactor",
    Kind.STOP_MISSILES: "stop-missiles",
    Kind.KILL_KRAKEN: "kill-kraken",
    Kind.NO_ACTION: "no-action",
}


def _space(room: int) -> str:
    return "sea" if room == SEA else str(room)


@dataclass(frozen=True, slots=True)
class RNAction:
    """One Red November action. Build them through :func:`build_action_space`."""

    id: int
    kind: Kind
    #: room, item index, hatch index or gnome seat, depending on ``kind``
    target: int = 0
    #: minutes spent (fix-it actions) or cards drawn (``DRAW``)
    minutes: int = 0
    #: how ``target`` reads in notation (room number, item slug, ``4-5``, ``g2``)
    label: str = ""

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)

    def notation(self) -> str:
        """Canonical text."""
        word = _WORDS.get(self.kind, self.kind.name.lower())
        parts = [word]
        if self.label:
            parts.append(self.label)
        if self.minutes:
            parts.append(str(self.minutes))
        return " ".join(parts)

    def __str__(self) -> str:
        return self.notation()


def build_action_space(c: Components) -> ActionSpace[RNAction]:
    """Enumerate every distinct action, in a fixed order (the ids)."""
    out: list[RNAction] = []

    def add(kind: Kind, target: int = 0, minutes: int = 0, label: str = "") -> None:
        out.append(RNAction(len(out), kind, target, minutes, label))

    spaces = (*range(1, 11), SEA)
    for kind in (Kind.MOVE, Kind.OPEN):
        for room in spaces:
            add(kind, room, 0, _space(room))
    for item in c.items:
        add(Kind.USE, item.index, 0, item.slug)
    for m in range(1, c.max_fix_minutes + 1):
        add(Kind.EXTINGUISH, 0, m)
    for m in range(1, c.max_fix_minutes + 1):
        add(Kind.PUMP, 0, m)
    for h, (a, b) in enumerate(c.hatches):
        for m in range(1, c.max_fix_minutes + 1):
            add(Kind.UNBLOCK, h, m, f"{a}-{b}")
    for kind in ROOM_FIX_KINDS:
        for m in range(1, c.max_fix_minutes + 1):
            add(kind, 0, m)
    for n in range(1, max(c.stores_max_draw, c.cabin_max_draw) + 1):
        add(Kind.DRAW, 0, n)
    for kind in (Kind.TRADE, Kind.ATTACK):
        for g in range(MAX_GNOMES):
            add(kind, g, 0, f"g{g + 1}")
    add(Kind.NO_ACTION)
    add(Kind.ABANDON)
    add(Kind.DONE)
    for kind in (Kind.GIVE, Kind.DISCARD):
        for item in c.items:
            add(kind, item.index, 0, item.slug)
    for room in range(1, 11):
        add(Kind.SPREAD, room, 0, str(room))
    for h, (a, b) in enumerate(c.hatches):
        add(Kind.BLOCK, h, 0, f"{a}-{b}")
    add(Kind.DEFEND)
    add(Kind.YIELD)
    return ActionSpace(out)


class ActionIndex:
    """Fast id lookups by (kind, parameters), built from an action space."""

    def __init__(self, space: ActionSpace[RNAction]) -> None:
        self.first: dict[Kind, int] = {}
        self.by_key: dict[tuple[int, int, int], int] = {}
        self._space = space
        for a in space:
            self.first.setdefault(a.kind, a.id)
            self.by_key[(a.kind, a.target, a.minutes)] = a.id

    def __reduce__(self) -> tuple[type[ActionIndex], tuple[ActionSpace[RNAction]]]:
        return ActionIndex, (self._space,)  # compiled, it is rebuilt from its space

    def kind(self, action_id: int) -> Kind:
        """The kind of an action."""
        return self._space[action_id].kind

    def id(self, kind: Kind, target: int = 0, minutes: int = 0) -> int:
        """The id of an action."""
        return self.by_key[(kind, target, minutes)]
