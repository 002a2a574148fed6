"""Find generator states for the lessons' dice: ``python scripts/lesson_dice.py 2 5 1``.

A lesson's position carries the engine's generator (the saved form's ``rng``); a scene
whose point needs a die to land on a number (the rulebook's examples) fixes the state this
script finds: the smallest one whose next rolls of the 10-sided action die are the numbers
given, in order.
"""

from __future__ import annotations

import sys

from subtable.core.rng import Rng


def state_for(rolls: list[int], sides: int = 10) -> int:
    """The smallest generator state whose next dice are ``rolls``."""
    state = 0
    while True:
        rng = Rng(state)
        if all(rng.die(sides) == roll for roll in rolls):
            return state
        state += 1


if __name__ == "__main__":
    wanted = [int(x) for x in sys.argv[1:]]
    print(state_for(wanted))
