"""The expert's tunable weights (minutes are the currency)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from subtable.core.view import by_fields


@dataclass(slots=True)
class Params:
    """Tunable weights of the policy (minutes are the currency)."""

    #: minutes one percentage point of "losing within the horizon" is worth
    minutes_per_risk: float = 100.0
    #: events ahead that the risk of a disaster track is measured over (short is best: far
    #: risks are left to the long-run term)
    horizon: int = 5
    #: long-run minutes per disaster-track level removed
    level_minutes: float = 3.0
    #: a task is left to a gnome whose cost is lower by this many minutes
    defer_margin: float = 3.0
    #: value kept for a task left to a better-placed gnome
    defer_keep: float = 0.35
    #: below this value per minute the gnome idles (moves to a hub, waits)
    idle_rate: float = 0.25
    #: minutes spent on an unaided repair with no deadline (short tries keep the crew together)
    plain_minutes: int = 4
    #: minutes a fire is worth, and more on a hub room
    fire_base: float = 2.0
    fire_hub: float = 2.0
    #: share of a repair's risk that a fire in its room adds
    fire_block: float = 0.2

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        """Copied and pickled by its weights (the compiled class has no instance dictionary:
        without this a copy would take the defaults)."""
        return by_fields(self)
