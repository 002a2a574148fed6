"""Per-game knowledge of the terminal table: the ``ui`` part of each game's registration
(its protocol and lookup live in :mod:`subtable.words`, below the front ends)."""

from subtable.words import GameUI, game_ui

__all__ = ["GameUI", "game_ui"]
