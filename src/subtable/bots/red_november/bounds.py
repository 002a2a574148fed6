"""How good a task can be at best: a bound on its rate, to leave tasks unpriced.

The planner takes one step of the task with the best value per minute. Where only that task
is wanted (every decision but a search's turn-start candidates), a task whose rate cannot
reach the best rate found so far need not be priced at all: :meth:`RateBounds.rate` bounds it
from above, cheaply, from the walk and the bonus at hand.
"""

from __future__ import annotations

import math

from subtable.bots.red_november.params import Params
from subtable.bots.red_november.tasks import Task, Turn
from subtable.games.red_november import rules
from subtable.games.red_november.components import Components

#: a bound's margin over the float rounding of the rate it bounds
_SLACK = 1.0 + 1e-9


def fix_odds(minutes: int, bonus: int) -> float:
    """The chance a fix-it roll succeeds (the engine's odds, as a float)."""
    return min(rules.DIE, rules.fix_target(minutes, bonus)) / rules.DIE


class RateBounds:
    """Upper bounds on tasks' rates (value per minute, as the planner prices them)."""

    def __init__(self, c: Components, p: Params) -> None:
        self.c = c
        self.p = p
        self._bonus_cache: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}

    def rate(self, turn: Turn, task: Task) -> float:
        """An upper bound on the rate the planner gives ``task``: its whole value (nothing
        deferred) at the best odds per minute that the shortest walk to it and every bonus at
        hand (this turn's, all his cards') allow; for a way cleared first, its whole value."""
        if task.draw or task.value <= 0.0:
            return math.inf  # a draw's worth is priced from the deck, not from ``value``
        if turn.bonus_most is None:
            turn.bonus_most = self._most_bonus(tuple(turn.hand), turn.b.this_turn.bonus)
        most = turn.bonus_most[task.fix]
        room = task.room
        bound = -math.inf
        if room == turn.r:
            walk: int | None = 0
        else:
            walk = turn.plain[0].get(room)
            for paths in (turn.bold, turn.sea):
                if paths is not None:
                    d = paths[0].get(room)
                    if d is not None and (walk is None or d < walk):
                        walk = d
        keep = max(1.0, self.p.defer_keep)
        if walk is not None:
            # the odds per minute are best at one minute or at the first sure one: in between
            # the ratio is monotone, and past it the odds stay at 1
            sure = max(1, rules.DIE - most)
            odds = max(fix_odds(1, most) / (walk + 1), fix_odds(sure, most) / (walk + sure))
            bound = task.value * keep * odds * _SLACK
        if room not in turn.plain[0] and task.value >= 5.0:  # the way cleared first
            bound = max(bound, task.value * 0.7 * keep * _SLACK)
        return bound

    def _most_bonus(self, hand: tuple[int, ...], bonus: tuple[int, ...]) -> tuple[int, ...]:
        """Per fix kind, ``bonus`` plus every card of ``hand``'s that helps (cached: hands
        repeat)."""
        key = (hand, bonus)
        most = self._bonus_cache.get(key)
        if most is None:
            total = list(bonus)
            for i, k in enumerate(hand):
                if k:
                    for f, add in enumerate(self.c.items[i].bonus):
                        total[f] += max(0, add) * k
            if len(self._bonus_cache) > 4096:
                self._bonus_cache.clear()
            most = self._bonus_cache[key] = tuple(total)
        return most
