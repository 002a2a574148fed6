"""Red November: the cooperative game of gnomes on a sinking submarine."""

from subtable.games.red_november.actions import Kind, RNAction
from subtable.games.red_november.components import Components, load_components
from subtable.games.red_november.game import RedNovember
from subtable.games.red_november.state import RedNovemberState
from subtable.games.red_november.view import Choice, Phase, RedNovemberView

__all__ = [
    "Choice",
    "Components",
    "Kind",
    "Phase",
    "RNAction",
    "RedNovember",
    "RedNovemberState",
    "RedNovemberView",
    "load_components",
]
