"""Submarine's figures for the lab (the ``metrics`` part of its registration)."""

from __future__ import annotations

from typing import Any

from subtable.core.events import Event
from subtable.core.game import State
from subtable.sim.metrics import Figures, GameMetrics


class SubmarineMetrics(GameMetrics):
    """Treasures collected by each seat."""

    def __init__(self, state: State[Any]) -> None:
        self.turns = 0

    def events(self, events: list[Event]) -> None:
        """Count turns."""
        for e in events:
            if e.key == "turn_started":
                self.turns += 1

    def final(self, state: State[Any]) -> Figures:
        """Turns, and each seat's score when the outcome gives it."""
        outcome = state.outcome()
        out: Figures = {"turns": self.turns}
        if outcome is not None and "scores" in outcome.details:
            out["scores"] = outcome.details["scores"]
        return out
