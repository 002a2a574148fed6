"""A third game, registered from the tests only: the proof that a game is a plug-in.

Dice Race brings its engine, its texts, its terminal UI, its browser board and its
observation encoder, and nothing else (no expert, variants, rule book, lab figures or RL
extras: the house's fallbacks apply). Nothing outside this folder knows it.
"""

from __future__ import annotations

from plugin_game.engine import DiceRace
from plugin_game.parts import RaceBoard, RaceEncoder, RaceUI
from subtable.core.registry import GamePlugin

PLUGIN = GamePlugin(
    name="dice-race", game=DiceRace, ui=RaceUI, board=RaceBoard, encoder=RaceEncoder
)
