"""The uniformly random bot: the baseline, and the simulation lab's default."""

from __future__ import annotations

from typing import Any

from subtable.bots.base import Observation
from subtable.core.actions import Action
from subtable.core.game import Game
from subtable.core.rng import Rng


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"
    params: frozenset[str] = frozenset()

    def __init__(self, game: Game[Any], seat: int, rng: Rng) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng

    def _action(self, action_id: int) -> Action:
        action: Action = self.game.action_space[action_id]
        return action

    def choose(self, obs: Observation) -> Action:
        """A uniformly random legal action."""
        ids = obs.legal_ids
        return self._action(ids[self.rng.below(len(ids))])
