"""Red November as a :class:`~subtable.core.game.Game`: rules, options, metadata."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from subtable.core.errors import OptionError
from subtable.core.game import Game, GameInfo, OptionSpec, Utility
from subtable.games.red_november.actions import ActionIndex, RNAction, build_action_space
from subtable.games.red_november.components import Components, default_components
from subtable.games.red_november.state import RedNovemberState


class RedNovember(Game[RNAction]):
    """Red November (Faidutti & Gontier), cooperative, 3–8 gnomes, 1–8 players.

    >>> game = RedNovember(players=4)
    >>> state = game.new_state(seed=7)
    >>> state.current_seat() in range(4)
    True
    """

    info: ClassVar[GameInfo] = GameInfo(
        name="red-november", title="Red November", ruleset=default_components().ruleset,
        min_players=1, max_players=8, min_seats=3, max_seats=8,
        utility=Utility.COOPERATIVE, hidden_information=True, max_game_length=5_000,
        win_reason="rescued",
        end_reasons=("rescued", "asphyxiation", "heat", "pressure", "kraken", "crushed",
                     "missiles", "asphyxiated", "crew_lost"))
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {
        "players": OptionSpec("players", int, 4, "number of players (1-8)", tuple(range(1, 9))),
        "gnomes": OptionSpec("gnomes", int, None,
                             "number of gnomes (3-8; 2 players hold 4, a solo player 3 or more)",
                             tuple(range(3, 9))),
        "greater_challenge": OptionSpec(
            "greater_challenge", int, 0,
            "0 off; 1 Respites leave the game; 2 also one event per gnome before the first turn",
            (0, 1, 2)),
        "less_deadly_dying": OptionSpec("less_deadly_dying", bool, False,
                                        "a dead gnome is replaced by a new one in a random room"),
        "crazed_gnomes": OptionSpec("crazed_gnomes", bool, False,
                                    "hidden hands and the Attack Gnome action"),
        "heroic_sacrifice": OptionSpec(
            "heroic_sacrifice", bool, False,
            "FAQ house rule: enter a burning room with Grog or an Extinguisher, act, and die"),
    }

    def __init__(self, components: Components | None = None, **options: Any) -> None:
        self.components = components or default_components()
        super().__init__(**options)
        self.action_space = build_action_space(self.components)
        self.index = ActionIndex(self.action_space)

    def _validate(self, options: dict[str, Any]) -> dict[str, Any]:
        players, gnomes = options["players"], options["gnomes"]
        if gnomes is None:
            gnomes = {1: 3, 2: 4}.get(players, players)
        if players == 1 and gnomes < 3:
            raise OptionError("a solo player controls at least 3 gnomes")
        if players == 2 and gnomes != 4:
            raise OptionError("with 2 players each controls two gnomes: gnomes must be 4",
                              params={"option": "gnomes", "value": gnomes})
        if players >= 3 and gnomes != players:
            raise OptionError(f"with {players} players there are {players} gnomes, not {gnomes}",
                              params={"option": "gnomes", "value": gnomes})
        if gnomes not in self.components.start_space:
            raise OptionError(f"the time track has no starting space for {gnomes} gnomes")
        options["gnomes"] = gnomes
        return options

    @property
    def num_seats(self) -> int:
        """One seat per gnome."""
        return int(self.options["gnomes"])

    @property
    def num_players(self) -> int:
        """The people (or bots) at the table."""
        return int(self.options["players"])

    @property
    def abandon_allowed(self) -> bool:
        """Abandon Comrades is ignored with one or two players."""
        return self.num_players >= 3

    def seat_owners(self) -> tuple[int, ...]:
        """Solo: every gnome is player 0's; 2 players: two gnomes each."""
        p = self.num_players
        if p == 1:
            return (0,) * self.num_seats
        if p == 2:
            return tuple(g // 2 for g in range(self.num_seats))
        return tuple(range(self.num_seats))

    def new_state(self, seed: int) -> RedNovemberState:
        """Set up a game from ``seed``."""
        state = RedNovemberState(self, seed)
        state._setup()
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> RedNovemberState:
        """Rebuild a state from JSON data."""
        return RedNovemberState.from_json(self, data)
