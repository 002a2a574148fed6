"""Per-game figures the lab collects while a game is played.

A collector sees the structured events of every applied action and the final
state's spectator view — never a secret — and returns JSON-ready figures that
the report and the CSV use. Each game's collector is the ``metrics`` part of its
registration (``sim/metrics_<game>.py``).
"""

from __future__ import annotations

from typing import Any

from subtable.core.events import Event
from subtable.core.game import Game, State
from subtable.core.registry import registration
from subtable.i18n import Translator


class GameMetrics:
    """The default collector: nothing beyond the outcome."""

    @staticmethod
    def of(game: Game[Any] | str) -> type[GameMetrics]:
        """The collector class of ``game`` (a game or a registered name): the ``metrics``
        part of its registration, this generic one for a game that declares none."""
        plugin = registration(game)
        cls: type[GameMetrics] = plugin.load("metrics") if plugin.has("metrics") else GameMetrics
        return cls

    @staticmethod
    def for_game(game: Game[Any], state: State[Any]) -> GameMetrics:
        """The collector of ``game`` (the ``metrics`` part of its registration, started on
        its initial ``state``); these generic figures for a game that declares none."""
        plugin = registration(game)
        if not plugin.has("metrics"):
            return GameMetrics()
        metrics: GameMetrics = plugin.load("metrics")(state)
        return metrics

    @staticmethod
    def label(key: str, tr: Translator) -> str:
        """A series of the figures (one of a game's tracks) named for the report's plots."""
        return key

    def events(self, events: list[Event]) -> None:
        """Take note of an action's events."""

    def final(self, state: State[Any]) -> dict[str, Any]:
        """The figures of the finished game."""
        outcome = state.outcome()
        turns = None if outcome is None else outcome.details.get("turns")
        return {} if turns is None else {"turns": turns}
