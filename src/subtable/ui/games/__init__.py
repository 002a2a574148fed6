"""Per-game knowledge of the terminal table, looked up by game name."""

from __future__ import annotations

from typing import Any

from subtable.core.game import Game
from subtable.ui.games.base import GameUI


def game_ui(name: str, game: Game[Any] | None = None) -> GameUI:
    """The :class:`GameUI` of the game registered as ``name`` (with ``game``'s components)."""
    components = getattr(game, "components", None)
    if name == "red-november":
        from subtable.ui.games.red_november import RedNovemberUI

        return RedNovemberUI(components)
    if name == "submarine":
        from subtable.ui.games.submarine import SubmarineUI

        return SubmarineUI(components)
    raise KeyError(name)


__all__ = ["GameUI", "game_ui"]
