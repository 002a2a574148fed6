"""How the planner prices one task: the way to its room, a fix-it roll, the plan it
makes and the choice it weighs (:mod:`subtable.bots.red_november.planning`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from subtable.bots.red_november.tasks import FIX, Task, Turn
from subtable.games.red_november.components import SEA, Components


class Reach(NamedTuple):
    """The way to a task's room: minutes walked, first steps, items burnt on the way and
    their cost, the low-water penalty paid there, and the minutes left for the task."""

    walk: int
    first: dict[int, int]
    route_items: list[int]
    route_cost: float
    pen: int
    left: int


class Roll(NamedTuple):
    """A fix-it roll prepared: the minutes rolled for, the bonus, the items used, and the
    cost of the items burnt and used (in minutes)."""

    minutes: int
    bonus: int
    uses: list[int]
    item_cost: float


class Plan(NamedTuple):
    """How a task is done: minutes spent, the odds of success, the value won, the action
    taken, the items used first, and the cost of the items burnt and used (in minutes)."""

    minutes: int
    prob: float
    value: float
    action: int
    uses: list[int]
    item_cost: float


@dataclass(slots=True)
class Choice:
    """A task priced: its rate (value won per minute spent) and the steps that begin it."""

    rate: float
    steps: list[int]
    task: Task


def reach_room(
    c: Components, turn: Turn, task: Task, route: tuple[int, dict[int, int], list[int], float]
) -> Reach | None:
    """The way to the task's room (``route``: plain, through fire burning an item, or out
    to sea) and the minutes left there, or ``None`` when the room bars the task."""
    b = turn.b
    room = task.room
    walk, first, route_items, route_cost = route
    if room != SEA and room != turn.r and b.water[room] == 2:
        arrive_water = 1
    else:
        arrive_water = 0 if room == SEA else b.water[room]
    if room != SEA and b.fire[room] and task.fix != FIX["extinguish"]:
        return None
    if room == turn.r and room != SEA and b.water[room] == 2:
        return None
    pumps = task.fix == FIX["pump"]
    fire_fix = task.fix == FIX["extinguish"]
    pen = c.low_water_penalty if (arrive_water == 1 and not pumps and not fire_fix) else 0
    left = turn.t - walk - pen
    if task.deadline >= 0:
        left = min(left, turn.t - walk - pen - task.deadline)
    if left < 1:
        return None
    return Reach(walk, first, route_items, route_cost, pen, left)
