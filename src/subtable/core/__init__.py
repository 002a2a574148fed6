"""The game-agnostic core: Game/State, actions, events, the generator, records."""

from subtable.core.actions import Action, ActionSpace
from subtable.core.errors import (
    AmbiguousActionError,
    IllegalActionError,
    InvalidActionError,
    OptionError,
    RecordError,
    SubtableError,
)
from subtable.core.events import Event
from subtable.core.game import Game, GameInfo, OptionSpec, Outcome, State, Utility
from subtable.core.rng import Rng

__all__ = [
    "Action",
    "ActionSpace",
    "AmbiguousActionError",
    "Event",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "InvalidActionError",
    "OptionError",
    "OptionSpec",
    "Outcome",
    "RecordError",
    "Rng",
    "State",
    "SubtableError",
    "Utility",
]
