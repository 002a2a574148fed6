"""Gymnasium: one seat learns, the other seats are subtable bots.

``gym_env("submarine", seat=0, opponents="heuristic", players=3)`` or, after
``import subtable.rl``, ``gymnasium.make("subtable/Submarine-v0", players=3)``.

* observation: ``Dict(observation=Box(0, 1, (size,), float32), action_mask=MultiBinary(N))``
  — the encoding of :mod:`subtable.rl.encode_red_november` / :mod:`~subtable.rl.encode_submarine`
  and the legal actions of the learning seat;
* action: ``Discrete(N)``, the game's action ids (``game.action_space``);
* reward: at the end, the seat's return (1 win, 0 otherwise); 0 on every other step;
* an **illegal action** does not raise: the episode ends (``terminated``) with reward
  :data:`ILLEGAL_PENALTY` and ``info["illegal_action"] = True``;
* the bots' and the game's randomness comes from ``reset(seed=...)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from subtable.bots.base import Bot, make_bot, observe, parse_bot_spec
from subtable.core.game import Game, State
from subtable.core.rng import Rng
from subtable.rl.common import check_render_mode, legal_mask, resolve_game, seed_from
from subtable.rl.encoding import make_encoder

#: the reward of an illegal action (which also ends the episode)
ILLEGAL_PENALTY = -1.0


class SubtableEnv(gym.Env[dict[str, Any], np.int64]):
    """One seat of a subtable game as a single-agent Gymnasium environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game[Any] = "red-november",
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game = resolve_game(game, options)
        n = self.game.num_seats
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not one of the game's {n} seats")
        self.seat = seat
        specs = [opponents] * n if isinstance(opponents, str) else list(opponents)
        if len(specs) == n - 1:
            specs.insert(seat, "")
        if len(specs) != n:
            raise ValueError(f"give one opponent spec, or one per other seat ({n - 1})")
        self._specs = [parse_bot_spec(s) if s and i != seat else None for i, s in enumerate(specs)]
        self.render_mode = check_render_mode(render_mode)
        self.encoder = make_encoder(self.game)
        self.num_actions = len(self.game.action_space)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.MultiBinary(self.num_actions),
            }
        )
        self.action_space = spaces.Discrete(self.num_actions)
        self.state: State[Any] | None = None
        self._bots: list[Bot | None] = [None] * n
        self._done = False

    # -- helpers ----------------------------------------------------------------
    def _obs(self) -> dict[str, Any]:
        assert self.state is not None
        return {
            "observation": self.encoder.encode(self.state.observe(self.seat)),
            "action_mask": legal_mask(self.state, self.num_actions),
        }

    def _play_bots(self) -> None:
        state = self.state
        assert state is not None
        while not state.is_terminal():
            current = state.current_seat()
            assert current is not None
            if current == self.seat:
                return
            bot = self._bots[current]
            assert bot is not None, f"no bot for seat {current}"
            state.apply_unchecked(bot.choose(observe(state, current)).id)

    def _info(self) -> dict[str, Any]:
        assert self.state is not None
        outcome = self.state.outcome()
        info: dict[str, Any] = {}
        if outcome is not None:
            info["outcome"] = outcome.reason
            info["winners"] = outcome.winners
        return info

    # -- the Gymnasium API ---------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new game from the environment's generator and let bots play to our turn."""
        super().reset(seed=seed)
        rng = Rng(seed_from(self.np_random))
        self.state = self.game.new_state(rng.next64() >> 1)
        self._bots = [
            None if spec is None else make_bot(spec[0], self.game, s, rng.spawn(), **spec[1])
            for s, spec in enumerate(self._specs)
        ]
        self._play_bots()
        self._done = self.state.is_terminal()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Apply the seat's action, then the bots' until the seat decides or the game ends."""
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        a = int(action)
        if not 0 <= a < self.num_actions or not state.is_legal(a):
            info = self._info()
            info["illegal_action"] = True
            self._done = True  # the game stays as it was; the episode is over
            return self._obs(), ILLEGAL_PENALTY, True, False, info
        state.apply_unchecked(a)
        self._play_bots()
        done = self._done = state.is_terminal()
        reward = state.returns()[self.seat] if done else 0.0
        return self._obs(), reward, done, False, self._info()

    def render(self) -> str | None:
        """``ansi``: the seat's view as JSON text."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        import json

        return json.dumps(self.state.view(self.seat), sort_keys=True)
