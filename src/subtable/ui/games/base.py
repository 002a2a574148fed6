"""The ``ui`` part of a game's registration: :class:`subtable.words.GameUI` (a game's words
live below the front ends; this path stays for plug-ins)."""

from subtable.words import GameUI as GameUI
