"""Submarine: the competitive treasure hunt of boats and bathyscaphes."""

from subtable.games.submarine.actions import Kind, SubAction
from subtable.games.submarine.components import Components, load_components
from subtable.games.submarine.game import Submarine
from subtable.games.submarine.state import SubmarineState

__all__ = ["Components", "Kind", "SubAction", "Submarine", "SubmarineState", "load_components"]
