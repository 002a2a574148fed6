"""Why the Submarine expert would play an action: one reason key and its parameters.

:func:`reason` reads the seat's view only (the expert's :class:`~.board.SubBoard`): what a
collection brings (a type still missing, the last one, a column emptied, a joker), the toll
it costs, where the boat stops and how many bathyscaphes wait there, what lies in a
destination cell. The table translates ``sub.advice.<key>``; :data:`REASONS` lists the keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from subtable.bots.submarine.board import SubBoard
from subtable.games.submarine import rules
from subtable.games.submarine.actions import Kind, SubAction
from subtable.games.submarine.components import Components

#: every reason key :func:`reason` gives
REASONS = frozenset(
    {
        "place",
        "boat",
        "boat_off",
        "move",
        "to",
        "collect_last",
        "collect_column",
        "collect_new",
        "collect_joker",
        "collect_paid_joker",
        "give",
        "swap",
        "keep_hand",
        "done",
    }
)

Reason = tuple[str, dict[str, Any]]


def reason(
    c: Components, acts: Sequence[SubAction], b: SubBoard, seat: int, action_id: int
) -> Reason:
    """What ``action_id`` (one of ``acts``) is for, as ``seat`` sees the position ``b``."""
    a = acts[action_id]
    lv = c.levels
    kind = a.kind
    owned = b.owned[seat]
    if kind == Kind.PLACE:
        lo = a.column * lv
        return "place", {"column": a.column + 1, "missing": _missing(c, b, seat, lo, lo + 2)}
    if kind == Kind.BOAT:
        here = sum(1 for x in b.baths[seat] if x // lv == a.column)
        return "boat", {"column": a.column + 1, "count": here}
    if kind == Kind.BOAT_OFF:
        return "boat_off", {}
    if kind == Kind.MOVE:
        return "move", {"level": a.level + 1}
    if kind == Kind.TO:
        cell = a.column * lv + a.level
        return "to", {
            "column": a.column + 1,
            "level": a.level + 1,
            "tokens": len(b.cells[cell]),
            "missing": _missing(c, b, seat, cell, cell + 1),
        }
    if kind == Kind.COLLECT:
        token = a.token
        treasure = {"token": c.token_name(token)}
        if a.pay >= 0:
            return "collect_paid_joker", {**treasure, "joker": c.token_name(a.pay)}
        cell = rules.cell_of(b.cells, b.column, lv, token)
        toll = rules.toll_count(b.baths, seat, cell, lv) if cell >= 0 else 0
        new = rules.stores_on_board(owned, token, c.treasure_tokens, len(c.colours))
        have = sum(1 for t in owned if t >= 0)
        if new and have + 1 == len(c.types):
            return "collect_last", {**treasure, "toll": toll}
        left = rules.column_treasures(b.cells, b.column, lv, c.treasure_tokens)
        if token < c.treasure_tokens and left == 1:
            return "collect_column", {**treasure, "toll": toll, "column": b.column + 1}
        if new:
            return "collect_new", {**treasure, "toll": toll, "count": have + 1}
        return "collect_joker", {**treasure, "toll": toll}
    if kind == Kind.GIVE:
        return "give", {"colour": c.colours[a.colour]}
    if kind == Kind.SWAP:
        return "swap", {"colour": c.colours[a.colour]}
    if kind == Kind.NO_SWAP:
        return "keep_hand", {}
    return "done", {}


def _missing(c: Components, b: SubBoard, seat: int, lo: int, hi: int) -> int:
    """How many tokens in cells ``lo`` … ``hi - 1`` are treasure types ``seat`` still lacks."""
    owned = b.owned[seat]
    return sum(
        1
        for cell in range(lo, hi)
        for t in b.cells[cell]
        if rules.stores_on_board(owned, t, c.treasure_tokens, len(c.colours))
    )
