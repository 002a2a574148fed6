"""Submarine's figures for the lab (the ``metrics`` part of its registration)."""

from __future__ import annotations

from typing import Any

from subtable.core.events import Event
from subtable.core.game import State
from subtable.sim.metrics import GameMetrics


class SubmarineMetrics(GameMetrics):
    """Treasures collected by each seat."""

    def __init__(self, state: State[Any]) -> None:
        self.turns = 0

    def events(self, events: list[Event]) -> None:
        """Count turns."""
        for e in events:
            if e.key == "turn_started":
                self.turns += 1

    def final(self, state: State[Any]) -> dict[str, Any]:
        """Turns, and each seat's score when the outcome gives it."""
        outcome = state.outcome()
        out: dict[str, Any] = {"turns": self.turns}
        if outcome is not None:
            for key in ("scores", "treasures", "distinct"):
                if key in outcome.details:
                    out[key] = outcome.details[key]
        return out
