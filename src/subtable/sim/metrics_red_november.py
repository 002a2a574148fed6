"""Red November's figures for the lab (the ``metrics`` part of its registration)."""

from __future__ import annotations

from typing import Any

from subtable.core.events import Event
from subtable.core.game import State
from subtable.games.red_november.view import RedNovemberView
from subtable.i18n import Translator
from subtable.sim.metrics import Figures, GameMetrics


def _tracks(view: RedNovemberView) -> dict[str, int]:
    """Each disaster track's level, by name, in the tracks' order."""
    return dict(zip(view.game.components.tracks, view.track, strict=True))


class RedNovemberMetrics(GameMetrics):
    """Disaster-track levels at every turn start, and the minute the game ended."""

    def __init__(self, state: State[Any]) -> None:
        self.levels = _tracks(_public(state))
        #: ``[minute, asphyxiation, heat, pressure]`` at each turn start
        self.trace: list[list[int]] = []

    @staticmethod
    def label(key: str, tr: Translator) -> str:
        """A disaster track's name (the report's track plots)."""
        return tr(f"rn.track.{key}")

    def events(self, events: list[Event]) -> None:
        """Follow the tracks and the turns."""
        for e in events:
            key = e.key
            if key == "track_advanced" or key == "track_reset":
                self.levels[e.params["track"]] = e.params["level"]
            elif key == "turn_started":
                self.trace.append([e.params["space"], *self.levels.values()])

    def final(self, state: State[Any]) -> Figures:
        """The minute (the lowest keeper still aboard), the clock (the highest), turns,
        tracks and their trace."""
        view = _public(state)
        keepers = [g.keeper for g in view.gnomes if g.alive and not g.abandoned and g.keeper >= 0]
        outcome = state.outcome()
        return {
            "minute": min(keepers) if keepers else 0,
            "clock": max(keepers, default=0),
            "turns": None if outcome is None else outcome.details.get("turns"),
            "tracks": _tracks(view),
            "track_names": list(self.levels),
            "trace": self.trace,
        }


def _public(state: State[Any]) -> RedNovemberView:
    """What a spectator sees of ``state`` (a Red November state)."""
    view = state.observe(None)
    if not isinstance(view, RedNovemberView):
        raise TypeError(f"not a Red November state: {type(state).__name__}")
    return view
