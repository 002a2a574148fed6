"""The ``ui`` part of a game's registration as the terminal reads it:
:class:`subtable.ui.games.GameUI` (this path stays for plug-ins)."""

from subtable.ui.games import GameUI as GameUI
