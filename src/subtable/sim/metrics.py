"""Per-game figures the lab collects while a game is played.

A collector sees the structured events of every applied action and the final
state's spectator view — never a secret — and returns JSON-ready figures that
the report and the CSV use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from subtable.core.events import Event
from subtable.core.game import Game, State


class GameMetrics:
    """The default collector: nothing beyond the outcome."""

    @staticmethod
    def for_game(game: Game[Any], state: State[Any]) -> GameMetrics:
        """The collector registered for ``game`` (started on its initial ``state``)."""
        collector = _COLLECTORS.get(game.info.name)
        return GameMetrics() if collector is None else collector(state)

    def events(self, events: list[Event]) -> None:
        """Take note of an action's events."""

    def final(self, state: State[Any]) -> dict[str, Any]:
        """The figures of the finished game."""
        outcome = state.outcome()
        turns = None if outcome is None else outcome.details.get("turns")
        return {} if turns is None else {"turns": turns}


class RedNovemberMetrics(GameMetrics):
    """Disaster-track levels at every turn start, and the minute the game ended."""

    def __init__(self, state: State[Any]) -> None:
        self.levels: dict[str, int] = dict(state.view(None)["tracks"])
        #: ``[minute, asphyxiation, heat, pressure]`` at each turn start
        self.trace: list[list[int]] = []

    def events(self, events: list[Event]) -> None:
        """Follow the tracks and the turns."""
        for e in events:
            key = e.key
            if key == "track_advanced" or key == "track_reset":
                self.levels[e.params["track"]] = e.params["level"]
            elif key == "turn_started":
                self.trace.append([e.params["space"], *self.levels.values()])

    def final(self, state: State[Any]) -> dict[str, Any]:
        """The minute (the lowest keeper still aboard), the clock (the highest), turns,
        tracks and their trace."""
        view = state.view(None)
        keepers = [
            g["keeper"]
            for g in view["gnomes"]
            if g["alive"] and not g["abandoned"] and g["keeper"] is not None
        ]
        outcome = state.outcome()
        return {
            "minute": min(keepers) if keepers else 0,
            "clock": max(keepers, default=0),
            "turns": None if outcome is None else outcome.details.get("turns"),
            "tracks": dict(view["tracks"]),
            "track_names": list(self.levels),
            "trace": self.trace,
        }


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


#: the collector of each game, by the game's registered name
_COLLECTORS: dict[str, Callable[[State[Any]], GameMetrics]] = {
    "red-november": RedNovemberMetrics,
    "submarine": SubmarineMetrics,
}


def register_metrics(game_name: str, collector: Callable[[State[Any]], GameMetrics]) -> None:
    """Make ``collector(initial_state)`` collect the figures of ``game_name``'s games."""
    _COLLECTORS[game_name] = collector
