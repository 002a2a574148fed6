"""Gymnasium: one seat learns, the other seats are subtable bots.

``gym_env("submarine", seat=0, opponents="heuristic", players=3)`` or, after
``import subtable.rl``, ``gymnasium.make("subtable/Submarine-v0", players=3)``.

* observation: ``Dict(observation=Box(0, 1, (size,), float32), action_mask=MultiBinary(N))``
  — the encoding of :mod:`subtable.rl.encode_red_november` / :mod:`~subtable.rl.encode_submarine`
  and the legal actions of the learning seat;
* action: ``Discrete(N)``, the game's action ids (``game.action_space``); ``env.action_masks()``
  gives the mask as booleans (the convention of maskable policy-gradient libraries such as
  sb3-contrib's ``MaskablePPO``);
* reward: at the end, the seat's return (1 win, 0 otherwise); 0 on every other step. With
  ``reward="shaped"``, each step also pays the change of a potential read from the seat's view
  (:func:`subtable.rl.common.potential`; 0 once the game is over): potential-based shaping,
  which leaves the optimal policies unchanged (Ng, Harada & Russell, 1999);
* ``max_steps``: the episode is truncated after that many of the seat's decisions;
* an **illegal action** does not raise: the episode ends (``terminated``) with reward
  :data:`ILLEGAL_PENALTY` and ``info["illegal_action"] = True``; something that is not an
  integer id at all (``0.7``) raises ``TypeError``;
* the bots' and the game's randomness comes from ``reset(seed=...)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from subtable.bots.base import Bot, make_bot, observe, parse_bot_spec
from subtable.core.game import Game, State
from subtable.core.options import OptionValue
from subtable.core.rng import Rng
from subtable.rl.actions import FactoredActions
from subtable.rl.common import (
    Obs,
    SharesGameTables,
    action_id,
    check_render_mode,
    check_shaped,
    legal_mask,
    potential,
    resolve_game,
    seed_from,
)
from subtable.rl.encoding import make_encoder

#: the reward of an illegal action (which also ends the episode)
ILLEGAL_PENALTY = -1.0
#: the ``reward`` options
REWARDS = ("outcome", "shaped")


def check_reward(reward: str, game: Game[Any]) -> str:
    """``reward`` if it is one of :data:`REWARDS` (``shaped``: if ``game`` has a potential)."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    if reward == "shaped":
        check_shaped(game)
    return reward


def check_max_steps(max_steps: int | None) -> int | None:
    """``max_steps`` if it is ``None`` or a positive integer."""
    if max_steps is not None and (isinstance(max_steps, bool) or int(max_steps) != max_steps):
        raise ValueError(f"max_steps must be a whole number, not {max_steps!r}")
    if max_steps is not None and max_steps < 1:
        raise ValueError("max_steps must be positive")
    return None if max_steps is None else int(max_steps)


class SubtableEnv(SharesGameTables, gym.Env[dict[str, Any], np.int64]):  # gym's Dict space
    """One seat of a subtable game as a single-agent Gymnasium environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game[Any],
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        render_mode: str | None = None,
        reward: str = "outcome",
        max_steps: int | None = None,
        **options: OptionValue | None,
    ) -> None:
        self.game = resolve_game(game, options)
        #: ``"outcome"`` (0/1 at the end) or ``"shaped"`` (plus the potential's changes)
        self.reward_mode = check_reward(reward, self.game)
        #: truncate after this many of the seat's decisions (``None``: never)
        self.max_steps = check_max_steps(max_steps)
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
        #: the kind x argument view of the action ids (:mod:`subtable.rl.actions`)
        self.factored = FactoredActions(self.game)
        self.state: State[Any] | None = None
        self._bots: list[Bot | None] = [None] * n
        self._done = False
        self._steps = 0
        self._potential = 0.0

    # -- helpers ----------------------------------------------------------------
    def _obs(self) -> Obs:
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
    ) -> tuple[Obs, dict[str, Any]]:
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
        self._steps = 0
        self._potential = potential(self.state, self.seat) if self.reward_mode == "shaped" else 0.0
        return self._obs(), self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the seat now, as booleans (all False once the episode is over).

        The method maskable policy-gradient libraries look for (sb3-contrib's
        ``MaskablePPO``); the same mask is ``obs["action_mask"]``.
        """
        if self.state is None:
            raise RuntimeError("call reset() first")
        out = np.zeros(self.num_actions, dtype=np.bool_)
        if not self._done:
            out[self.state.legal_action_ids()] = True
        return out

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """Apply the seat's action, then the bots' until the seat decides or the game ends."""
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        try:
            a = action_id(action, self.num_actions)
        except ValueError:
            a = -1  # an integer out of range: illegal
        if a < 0 or not state.is_legal(a):
            info = self._info()
            info["illegal_action"] = True
            self._done = True  # the game stays as it was; the episode is over
            return self._obs(), ILLEGAL_PENALTY, True, False, info
        state.apply_unchecked(a)
        self._play_bots()
        self._steps += 1
        done = state.is_terminal()
        truncated = not done and self.max_steps is not None and self._steps >= self.max_steps
        self._done = done or truncated
        reward = state.returns()[self.seat] if done else 0.0
        info = self._info()
        if self.reward_mode == "shaped":
            now = potential(state, self.seat)
            info["shaping"] = now - self._potential
            reward += info["shaping"]
            self._potential = now
        if truncated:
            info["truncated_after"] = self._steps
        return self._obs(), reward, done, truncated, info

    def render(self) -> str | None:
        """``ansi``: the seat's view as JSON text."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        import json

        return json.dumps(self.state.view(self.seat), sort_keys=True)


class FactoredActionWrapper(gym.Wrapper[dict[str, Any], Any, dict[str, Any], Any]):
    """The environment with kind x argument actions (:mod:`subtable.rl.actions`).

    Action: ``MultiDiscrete([K, A])``, ``(kind, argument)``; the flat id it stands for is
    ``env.factored.flat(kind, argument)`` (the wrapped environment's action, kept in
    ``info["action_id"]``). Observation: the wrapped one plus ``kind_mask`` ``(K,)`` and
    ``arg_mask`` ``(K, A)``. A pair that names no action counts as an illegal action.
    """

    def __init__(self, env: SubtableEnv) -> None:
        super().__init__(env)
        self.factored: FactoredActions = env.factored
        fa = self.factored
        self.action_space = spaces.MultiDiscrete([fa.num_kinds, fa.max_args])
        self.observation_space = spaces.Dict(
            {
                **env.observation_space.spaces,  # type: ignore[attr-defined]
                "kind_mask": spaces.MultiBinary(fa.num_kinds),
                "arg_mask": spaces.MultiBinary([fa.num_kinds, fa.max_args]),
            }
        )

    def _wrap(self, obs: Obs) -> Obs:
        kinds, args = self.factored.masks(obs["action_mask"])
        return {**obs, "kind_mask": kinds, "arg_mask": args}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """As the wrapped environment's, with the factored masks."""
        obs, info = self.env.reset(seed=seed, options=options)
        return self._wrap(obs), info

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the flat id of ``(kind, argument)``."""
        kind, arg = (action_id(x, 1 << 62) for x in np.asarray(action).reshape(2))
        try:
            flat = self.factored.flat(kind, arg)
        except ValueError:
            flat = self.env.unwrapped.num_actions  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, info = self.env.step(np.int64(flat))
        info["action_id"] = flat
        return self._wrap(obs), reward, terminated, truncated, info


def factored_wrapper(env: Any) -> FactoredActionWrapper:
    """A :class:`FactoredActionWrapper` around a subtable Gymnasium environment."""
    return FactoredActionWrapper(env)
