"""Moves that keep the active gnome alive: back aboard from the sea, out of a deadly room."""

from __future__ import annotations

from subtable.bots.red_november.board import Board
from subtable.bots.red_november.items import ItemValues
from subtable.bots.red_november.tasks import Turn
from subtable.games.red_november import rules
from subtable.games.red_november.actions import ActionIndex, Kind
from subtable.games.red_november.components import SEA, Components


def go_inside(
    c: Components, ix: ActionIndex, hubs: list[int], items: ItemValues, b: Board, a: int
) -> list[int]:
    """Back aboard: a safe room first, else a burning one (an item, then put it out)."""
    safe: list[tuple[int, int]] = []
    burning: list[tuple[int, int]] = []
    for dest, h in c.neighbours[SEA]:
        if (
            rules.move_cost(b.water, b.fire, b.blocked, SEA, dest, h, fire_ok=True, aqualung=True)
            is None
        ):  # high water: no way in
            continue
        (burning if b.fire[dest] else safe).append((hubs.index(dest), ix.id(Kind.MOVE, dest)))
    out = [i for _, i in sorted(safe)]
    if burning:
        out += [i for _, i in sorted(burning)]
        hand = items.held(b, a)
        out += [
            ix.id(Kind.USE, items.item[k])
            for k in ("fire_extinguisher", "grog")
            if hand[items.item[k]]
        ]
    return out


def escape(turn: Turn, c: Components, ix: ActionIndex, hubs: list[int]) -> list[int]:
    """Moves out of a deadly room (best first), then the items that allow one."""
    b = turn.b
    out = []
    dests = sorted(
        turn.plain[0], key=lambda d: (turn.plain[0][d], hubs.index(d) if d != SEA else 99)
    )
    for d in dests:
        if d != turn.r and d != SEA and turn.plain[1].get(d) == d and not b.fire[d]:
            out.append(ix.id(Kind.MOVE, d))
    for i in turn.fire_items:
        out.append(ix.id(Kind.USE, i))
    # opening a hatch to a dry room levels the water (both rooms go low)
    r = turn.r
    if b.water[r] == 2:
        for dest, h in c.neighbours[r]:
            if (
                h >= 0
                and rules.can_open(b.water, b.blocked, r, dest, h)
                and rules.reflows(b.water[r], b.water[dest])
            ):
                out.append(ix.id(Kind.OPEN, dest))
    return out
