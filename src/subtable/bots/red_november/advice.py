"""Why the Red November expert would play an action: one reason key and its parameters.

:func:`reason` reads the seat's view only (the expert's :class:`~.board.Board`) and names
what an action is for — the task the turn planner (:meth:`.planning.Planner.goals`) sees
behind a first step, the way out of a deadly room, the event choice that harms least. The
table translates ``rn.advice.<key>`` with the parameters (rooms, tracks, tokens, items by
their component names); :data:`REASONS` lists every key for the catalogues' checks.
"""

from __future__ import annotations

from typing import Any

from subtable.bots.red_november.board import Board
from subtable.bots.red_november.planning import Planner
from subtable.bots.red_november.tasks import DRAW_DECK, DRAW_STASH, Task
from subtable.core.actions import ActionSpace
from subtable.games.red_november.actions import ACTION_KINDS, FIX_OF_KIND, Kind, RNAction
from subtable.games.red_november.components import FIX_KINDS, SEA, Components
from subtable.games.red_november.view import Choice, Phase

#: every reason key :func:`reason` gives
REASONS = frozenset(
    {
        "repair_here",
        "repair_go",
        "avert_here",
        "avert_go",
        "fire_here",
        "fire_go",
        "pump_here",
        "pump_go",
        "unblock_here",
        "unblock_go",
        "draw_here",
        "draw_go",
        "escape",
        "extinguish_only",
        "try_fix",
        "trade",
        "wait",
        "reposition",
        "use_item",
        "spread",
        "block",
        "discard",
        "give",
        "keep",
        "sober_up",
        "lucky",
        "end_turn",
        "defend",
        "yield",
        "expert",
    }
)

Reason = tuple[str, dict[str, Any]]


def reason(
    c: Components,
    space: ActionSpace[RNAction],
    planner: Planner,
    b: Board,
    seat: int,
    action_id: int,
) -> Reason:
    """What ``action_id`` is for, as ``seat`` sees the position ``b`` (``planner``: the
    expert's, which knows the task behind a first step)."""
    action = space[action_id]
    kind = action.kind
    phase = b.phase
    if phase == Phase.EVENT_CHOICE:
        if b.choice == Choice.SPREAD:
            return "spread", {"room": action.target}
        if b.choice == Choice.BLOCK:
            return "block", {"hatch": list(c.hatches[action.target])}
        return "discard", {"item": c.items[action.target].kind}
    if phase == Phase.DEFEND:
        return ("defend", {}) if kind == Kind.DEFEND else ("yield", {})
    if phase in (Phase.TRADE_GIVE, Phase.TRADE_BACK):
        if kind == Kind.GIVE:
            taker = b.partner if phase == Phase.TRADE_GIVE else b.active
            return "give", {"item": c.items[action.target].kind, "gnome": taker}
        return "keep", {}
    if phase == Phase.AFTER_ACTION:
        if kind == Kind.USE and c.items[action.target].sober:
            return "sober_up", {"level": b.intoxication[b.active]}
        if kind == Kind.USE:
            return "lucky", {"events": c.items[action.target].ignore_events}
        return "end_turn", {}
    a = b.active
    r = b.room[a]
    hazard = r != SEA and (b.fire[r] or b.water[r] == 2)
    if phase == Phase.EXTRA_MOVE or (hazard and kind in (Kind.MOVE, Kind.OPEN)):
        return "escape", {"room": r, "fire": bool(r != SEA and b.fire[r])}
    if kind == Kind.EXTINGUISH and r != SEA and b.fire[r]:
        return "extinguish_only", {"room": r}
    task = planner.goals(b).get(action_id)
    if task is not None:
        return _task_reason(c, b, task, here=kind in ACTION_KINDS or kind == Kind.USE)
    if kind == Kind.USE and hazard:
        return "escape", {"room": r, "fire": bool(b.fire[r])}
    if kind in FIX_OF_KIND:
        return "try_fix", {"fix": FIX_OF_KIND[kind]}
    if kind == Kind.TRADE:
        return "trade", {"gnome": action.target}
    if kind == Kind.NO_ACTION:
        return "wait", {}
    if kind == Kind.DONE:
        return "end_turn", {}
    if kind in (Kind.MOVE, Kind.OPEN):
        return "reposition", {"room": action.target}
    if kind == Kind.USE:
        return "use_item", {"item": c.items[action.target].kind}
    return "expert", {}


def _task_reason(c: Components, b: Board, task: Task, *, here: bool) -> Reason:
    """The reason of a step towards (or the doing of) ``task``."""
    where = "here" if here else "go"
    room = task.room
    if task.fix in (DRAW_DECK, DRAW_STASH):
        return f"draw_{where}", {"room": room}
    fix = FIX_KINDS[task.fix]
    if fix == "extinguish":
        return f"fire_{where}", {"room": room}
    if fix == "pump":
        return f"pump_{where}", {"room": room}
    if fix == "unblock":
        return f"unblock_{where}", {"room": room}
    repair = c.repairs[fix]
    if repair.token >= 0 and b.token[repair.token] >= 0:
        token = c.tokens[repair.token]
        return f"avert_{where}", {
            "fix": fix,
            "room": room,
            "token": token,
            "space": b.token[repair.token],
        }
    if repair.track >= 0:
        return f"repair_{where}", {
            "fix": fix,
            "room": room,
            "track": c.tracks[repair.track],
            "level": b.track[repair.track],
            "length": c.track_length,
        }
    return "try_fix", {"fix": fix}
