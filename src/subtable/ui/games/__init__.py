"""What each game adds to the terminal table: its board drawn with Rich, beside its words
(:class:`subtable.words.GameUI`, below the front ends). The ``ui`` part of a game's
registration is both: the words every front end reads and the terminal's board."""

from __future__ import annotations

from typing import Any, Protocol, cast

from rich.console import RenderableType

from subtable.core.game import Game
from subtable.core.view import SeatView
from subtable.i18n import Translator
from subtable.words import GameUI as GameWords
from subtable.words import game_ui as game_words


class GameUI(GameWords, Protocol):
    """A game's words and its board as the terminal draws it."""

    def render(
        self, view: SeatView, tr: Translator, who: dict[int, str], *, compact: bool = False
    ) -> RenderableType:
        """The table as ``view``'s seat sees it; ``who`` labels each seat's controller;
        ``compact`` lays it out for a small terminal (80×24)."""
        ...


def game_ui(game: Game[Any] | str) -> GameUI:
    """The terminal's :class:`GameUI` of ``game`` (see :func:`subtable.words.game_ui`)."""
    return cast(GameUI, game_words(game))


__all__ = ["GameUI", "game_ui"]
