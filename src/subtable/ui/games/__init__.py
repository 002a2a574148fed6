"""Per-game knowledge of the terminal table: the ``ui`` part of each game's registration."""

from __future__ import annotations

from typing import Any

from subtable.core.game import Game
from subtable.core.registry import registration
from subtable.ui.games.base import GameUI


def game_ui(game: Game[Any] | str) -> GameUI:
    """The :class:`GameUI` of ``game`` (with its components: a variant's), or of the game
    registered under a name (with the packaged components)."""
    components = None if isinstance(game, str) else getattr(game, "components", None)
    ui: GameUI = registration(game).load("ui")(components)
    return ui


__all__ = ["GameUI", "game_ui"]
