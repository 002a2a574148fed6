"""Dice Race, a third game for the tests: a race to the finish line with a hidden card.

Each runner is dealt a hidden card (1 to 3, seen by its holder alone). On its turn a runner
rolls the die (1 to 3) or plays its card, once, and moves that many spaces; the first to
reach the goal wins.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from subtable.core.actions import ActionSpace
from subtable.core.events import Event
from subtable.core.game import Game, GameInfo, OptionSpec, Outcome, State, Utility
from subtable.core.rng import Rng
from subtable.core.view import SeatView, Vocabulary


@dataclass(frozen=True, slots=True)
class Move:
    id: int
    name: str

    def notation(self) -> str:
        return self.name


ROLL, CARD = Move(0, "roll"), Move(1, "card")


@dataclass(frozen=True, slots=True)
class RaceView(SeatView):
    seat: int | None
    goal: int
    positions: tuple[int, ...]
    current: int | None
    card: int | None  # the seat's own card while it holds it
    played: tuple[bool, ...]
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        outcome = None if self.winner is None else {"reason": "finish", "winners": [self.winner]}
        return {
            "seat": self.seat,
            "goal": self.goal,
            "positions": list(self.positions),
            "current": self.current,
            "card": self.card,
            "played": list(self.played),
            "outcome": outcome,
        }


class DiceRace(Game[Move]):
    info: ClassVar[GameInfo] = GameInfo(
        name="dice-race",
        title="Dice Race",
        ruleset="dice-race/1",
        min_players=2,
        max_players=4,
        min_seats=2,
        max_seats=4,
        utility=Utility.GENERAL_SUM,
        hidden_information=True,
        max_game_length=200,
        end_reasons=("finish",),
    )
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {
        "players": OptionSpec("players", int, 2, "number of runners (2-4)", (2, 3, 4)),
        "goal": OptionSpec("goal", int, 10, "spaces to the finish line", (6, 10, 15)),
    }
    vocabulary: ClassVar[Vocabulary] = Vocabulary(
        event_keys=frozenset({"dealt", "rolled", "card_played", "won"}),
        illegal_reasons=frozenset({"card_played"}),
        end_reasons=("finish",),
        phases=("turn", "over"),
    )
    action_space = ActionSpace([ROLL, CARD])

    @property
    def num_seats(self) -> int:
        return int(self.options["players"])

    num_players = num_seats

    def new_state(self, seed: int) -> RaceState:
        return RaceState(self, seed)

    def view_from_json(self, data: Mapping[str, Any]) -> RaceView:
        outcome = data["outcome"]
        return RaceView(
            data["seat"],
            data["goal"],
            tuple(data["positions"]),
            data["current"],
            data["card"],
            tuple(data["played"]),
            None if outcome is None else outcome["winners"][0],
        )

    def state_from_json(self, data: Mapping[str, Any]) -> RaceState:
        state = RaceState(self, int(data["seed"]))
        state.positions, state.cards = list(data["positions"]), list(data["cards"])
        state.played, state.turn = list(data["played"]), int(data["turn"])
        state.rng, state.history = Rng(int(data["rng"])), list(data["history"])
        state.winner = data["winner"]
        return state

    def determinize(self, view: SeatView, rng: Rng) -> RaceState:
        assert isinstance(view, RaceView)
        state = RaceState(self, 0)
        state.positions, state.played = list(view.positions), list(view.played)
        state.cards = [1 + rng.below(3) for _ in view.positions]
        if view.seat is not None and view.card is not None:
            state.cards[view.seat] = view.card
        state.turn, state.winner, state.rng = view.current or 0, view.winner, rng.spawn()
        return state


class RaceState(State[Move]):
    game: DiceRace

    def __init__(self, game: DiceRace, seed: int) -> None:
        self.game, self.seed, self.history = game, seed, []
        self.rng = Rng(seed)
        n = game.num_seats
        self.positions, self.played = [0] * n, [False] * n
        self.cards = [1 + self.rng.below(3) for _ in range(n)]
        self.turn, self.winner = 0, None
        self.opening_events = [
            Event("dealt", {"seat": s, "card": c}, (s,), ("card",))
            for s, c in enumerate(self.cards)
        ]

    def current_seat(self) -> int | None:
        return None if self.winner is not None else self.turn

    def legal_action_ids(self) -> list[int]:
        if self.winner is not None:
            return []
        return [0] if self.played[self.turn] else [0, 1]

    def apply_unchecked(self, action_id: int) -> list[Event]:
        seat = self.turn
        self.history.append(action_id)
        if action_id == CARD.id:
            steps, self.played[seat] = self.cards[seat], True
            events = [Event("card_played", {"seat": seat, "value": steps})]
        else:
            steps = 1 + self.rng.below(3)
            events = [Event("rolled", {"seat": seat, "value": steps})]
        self.positions[seat] = min(self.game.options["goal"], self.positions[seat] + steps)
        if self.positions[seat] == self.game.options["goal"]:
            self.winner = seat
            events.append(Event("won", {"seat": seat}))
        else:
            self.turn = (seat + 1) % self.game.num_seats
        return events

    def why_illegal(self, action: Move) -> tuple[str, str, dict[str, Any]]:
        return "card_played", "your card is played already", {}

    def is_terminal(self) -> bool:
        return self.winner is not None

    def outcome(self) -> Outcome | None:
        return None if self.winner is None else Outcome("finish", (self.winner,))

    def clone(self) -> RaceState:
        return self.game.state_from_json(self.to_json())

    def observe(self, seat: int | None) -> RaceView:
        mine = seat is not None and not self.played[seat]
        return RaceView(
            seat,
            self.game.options["goal"],
            tuple(self.positions),
            self.current_seat(),
            self.cards[seat] if mine and seat is not None else None,
            tuple(self.played),
            self.winner,
        )

    def chance_fingerprint(self) -> Hashable:
        return self.rng.fingerprint()

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "positions": self.positions,
            "cards": self.cards,
            "played": self.played,
            "turn": self.turn,
            "rng": self.rng.state,
            "history": self.history,
            "winner": self.winner,
        }
