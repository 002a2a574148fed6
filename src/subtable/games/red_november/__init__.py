"""Red November: the cooperative game of gnomes on a sinking submarine."""

from subtable.games.red_november.actions import Kind, RNAction
from subtable.games.red_november.components import Components, load_components
from subtable.games.red_november.game import RedNovember
from subtable.games.red_november.state import RedNovemberState

__all__ = ["Components", "Kind", "RNAction", "RedNovember", "RedNovemberState",
           "load_components"]
