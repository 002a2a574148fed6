"""Submarine as a :class:`~subtable.core.game.Game`: rules, options, metadata."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from subtable.core.game import Game, GameInfo, OptionSpec, Utility
from subtable.games.submarine.actions import ActionIndex, SubAction, build_action_space
from subtable.games.submarine.components import Components, default_components
from subtable.games.submarine.state import SubmarineState


class Submarine(Game[SubAction]):
    """Submarine (Leo Colovini, 2004), competitive, 2–5 captains.

    >>> game = Submarine(players=3)
    >>> state = game.new_state(seed=7)
    >>> state.current_seat() in range(3)
    True
    """

    info: ClassVar[GameInfo] = GameInfo(
        name="submarine", title="Submarine", ruleset=default_components().ruleset,
        min_players=2, max_players=5, min_seats=2, max_seats=5,
        utility=Utility.GENERAL_SUM, hidden_information=True, max_game_length=20_000,
        end_reasons=("twelve_treasures", "column_emptied", "cards_exhausted"))
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {
        "players": OptionSpec("players", int, 3, "number of players (2-5)", (2, 3, 4, 5)),
    }

    def __init__(self, components: Components | None = None, **options: Any) -> None:
        self.components = components or default_components()
        super().__init__(**options)
        self.action_space = build_action_space(self.components)
        self.index = ActionIndex(self.action_space, self.components)
        #: the actions by id, and every token's notation (for the hot paths)
        self.actions: tuple[SubAction, ...] = tuple(self.action_space)
        self.token_names: tuple[str, ...] = tuple(
            self.components.token_name(t) for t in range(self.components.tokens))

    @property
    def num_seats(self) -> int:
        """One seat per captain."""
        return int(self.options["players"])

    @property
    def num_players(self) -> int:
        """The people (or bots) at the table."""
        return int(self.options["players"])

    def new_state(self, seed: int) -> SubmarineState:
        """Set up a game from ``seed``."""
        state = SubmarineState(self, seed)
        state._setup()
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> SubmarineState:
        """Rebuild a state from JSON data."""
        return SubmarineState.from_json(self, data)
