"""Per-game figures the lab collects while a game is played.

A collector sees the structured events of every applied action and the final
state's spectator view — never a secret — and returns JSON-ready figures that
the report and the CSV use (:class:`Figures`). Each game's collector is the ``metrics``
part of its registration (``sim/metrics_<game>.py``).
"""

from __future__ import annotations

from typing import Any, TypedDict

from subtable.core.events import Event
from subtable.core.game import Game, State
from subtable.core.registry import registration
from subtable.i18n import Translator


class SeatScore(TypedDict):
    """One seat's score at the end of a game counted in treasures (and its tie-breaks)."""

    seat: int
    treasures: int
    jokers: int
    cards: int


class Figures(TypedDict, total=False):
    """The figures of one finished game that the lab's report and CSV read: each game's
    collector gives those its game has."""

    turns: int | None
    #: the lowest Time Track space a keeper still aboard stands on, and the highest
    minute: int
    clock: int
    #: each disaster track's level at the end, the tracks in order and, at every turn's
    #: start, ``[minute, level of each track...]``
    tracks: dict[str, int]
    track_names: list[str]
    trace: list[list[int]]
    scores: list[SeatScore]


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

    def final(self, state: State[Any]) -> Figures:
        """The figures of the finished game."""
        outcome = state.outcome()
        turns: int | None = None if outcome is None else outcome.details.get("turns")
        return {} if turns is None else {"turns": turns}
