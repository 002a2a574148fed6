"""PettingZoo: every seat is an agent (``gnome_0`` …, ``captain_0`` …).

* :class:`SubtableAEC` (``aec_env(game, **options)``): the turn-based AEC API. The agent to act
  is the seat the engine asks (any seat may have to decide, not only the turn player: trades,
  defences, discards). ``observe(agent)`` gives ``{"observation", "action_mask"}``; the mask is
  all zero for an agent that is not to act. An illegal action raises ``ValueError``, and
  something that is not an integer id (``0.7``) ``TypeError``.
  Rewards come at the end: each seat's return (1 for every winning seat, a whole team or
  a lone winner). ``reward="shaped"`` adds, at every step and for every agent, the change
  of its potential (:func:`subtable.rl.common.potential`).
* :class:`SubtableParallel` (``parallel_env(game, **options)``): every agent acts at every
  step; the action space has one more action, :attr:`SubtableParallel.pass_action` (= the
  game's action count), the only legal action of the agents not to act. ``step`` needs an
  action for every live agent, and only for them.
* ``max_steps``: the game is truncated (every agent) after that many decisions.

Spaces are built once per environment (PettingZoo's tests require the same object).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from subtable.core.game import Game, State
from subtable.core.options import OptionValue
from subtable.rl.actions import FactoredActions
from subtable.rl.common import (
    Mask,
    Obs,
    SharesGameTables,
    action_id,
    check_render_mode,
    legal_mask,
    potential,
    resolve_game,
    seat_prefix,
)
from subtable.rl.encoding import make_encoder
from subtable.rl.gymnasium_env import check_max_steps, check_reward


def _agents(game: Game[Any]) -> tuple[list[str], dict[str, int]]:
    """The agents' names (``gnome_0``…) and the seat of each."""
    names = [f"{seat_prefix(game)}_{s}" for s in range(game.num_seats)]
    return names, {a: s for s, a in enumerate(names)}


def _env_name(game: Game[Any]) -> str:
    return f"subtable_{game.info.name.replace('-', '_')}_v0"


class _Seats(SharesGameTables):
    """What both environments hold: the game, one agent per seat, the encoder, the spaces
    (built once: PettingZoo's tests require the same objects), the position and its dealer."""

    metadata: dict[str, Any]

    def _setup(
        self,
        game: str | Game[Any],
        render_mode: str | None,
        options: Mapping[str, OptionValue | None],
        extra: int,
        reward: str = "outcome",
        max_steps: int | None = None,
    ) -> None:
        """``extra``: actions the environment adds after the game's own (the parallel pass)."""
        self.game = resolve_game(game, options)
        self.reward_mode = check_reward(reward, self.game)
        self.max_steps = check_max_steps(max_steps)
        self._steps = 0
        self._potentials: list[float] = []
        self.metadata = {**self.metadata, "name": _env_name(self.game)}
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents, self.agent_seat = _agents(self.game)
        self.encoder = make_encoder(self.game)
        self.num_actions = len(self.game.action_space)
        choices = self.num_actions + extra
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.MultiBinary(choices),
            }
        )
        act_space = spaces.Discrete(choices)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces: dict[str, spaces.Space[Any]] = dict.fromkeys(
            self.possible_agents, act_space
        )
        #: the kind x argument view of the game's action ids (:mod:`subtable.rl.actions`)
        self.factored = FactoredActions(self.game)
        self.game_state: State[Any] | None = None
        self._np_random = np.random.default_rng()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same object on every call."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The same object on every call."""
        return self.action_spaces[agent]

    def _deal(self, seed: int | None) -> None:
        """A new game, its seed drawn from the environment's generator (reseeded by ``seed``)."""
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        self.game_state = self.game.new_state(int(self._np_random.integers(0, 2**63 - 1)))
        self.agents = list(self.possible_agents)
        self._steps = 0
        if self.reward_mode == "shaped":
            self._potentials = [potential(self.game_state, s) for s in range(self.game.num_seats)]

    def _shaping(self) -> list[float]:
        """Per seat, the change of its potential since the last call (shaped rewards)."""
        state = self.game_state
        assert state is not None
        now = [potential(state, s) for s in range(self.game.num_seats)]
        out = [a - b for a, b in zip(now, self._potentials, strict=True)]
        self._potentials = now
        return out

    def _truncate(self) -> bool:
        """Count a decision; whether ``max_steps`` truncates the game now."""
        self._steps += 1
        state = self.game_state
        assert state is not None
        return (
            self.max_steps is not None and self._steps >= self.max_steps and not state.is_terminal()
        )

    def render(self) -> str | None:
        """``ansi``: the spectator's view as JSON text."""
        if self.render_mode != "ansi" or self.game_state is None:
            return None
        import json

        return json.dumps(self.game_state.view(None), sort_keys=True)

    def close(self) -> None:
        """Nothing to release."""


class SubtableAEC(_Seats, AECEnv[str, Obs, int]):  # type: ignore[misc]
    """A subtable game as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's own declaration)
        "render_modes": ["ansi"],
        "name": "subtable_v0",
        "is_parallelizable": True,
    }

    def __init__(
        self,
        game: str | Game[Any],
        render_mode: str | None = None,
        reward: str = "outcome",
        max_steps: int | None = None,
        **options: OptionValue | None,
    ) -> None:
        super().__init__()
        self._setup(game, render_mode, options, 0, reward, max_steps)
        self._zero_mask: Mask = np.zeros(self.num_actions, dtype=np.int8)

    # -- the AEC API ------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game (``seed`` makes it reproducible)."""
        self._deal(seed)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.game_state is not None
        seat = self.game_state.current_seat()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> Obs:
        """The agent's encoded view and its action mask (all zero unless it is to act)."""
        state = self.game_state
        assert state is not None, "call reset() first"
        seat = self.agent_seat[agent]
        to_act = state.current_seat() == seat and not self.truncations.get(agent, False)
        return {
            "observation": self.encoder.encode(state.observe(seat)),
            "action_mask": legal_mask(state, self.num_actions)
            if to_act
            else self._zero_mask.copy(),
        }

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (``None`` for an agent already done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)  # pyright: ignore[reportArgumentType]
            return
        state = self.game_state
        assert state is not None
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        a = action_id(action, self.num_actions)
        if not state.is_legal(a):
            raise ValueError(f"action {a} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        state.apply_unchecked(a)
        truncated = self._truncate()
        for other in self.agents:
            self.rewards[other] = 0.0
        if self.reward_mode == "shaped":
            for seat, extra in enumerate(self._shaping()):
                self.rewards[self.possible_agents[seat]] += extra
        if truncated:
            for other in self.agents:
                self.truncations[other] = True
        if state.is_terminal():
            returns = state.returns()
            outcome = state.outcome()
            for other in self.agents:
                self.rewards[other] += float(returns[self.agent_seat[other]])
                self.terminations[other] = True
                if outcome is not None:
                    self.infos[other] = {"outcome": outcome.reason, "winners": outcome.winners}
        self._select()
        self._accumulate_rewards()


class SubtableParallel(_Seats, ParallelEnv[str, Obs, int]):  # type: ignore[misc]
    """A subtable game as a PettingZoo parallel environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "subtable_v0"}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game[Any],
        render_mode: str | None = None,
        reward: str = "outcome",
        max_steps: int | None = None,
        **options: OptionValue | None,
    ) -> None:
        self._setup(game, render_mode, options, 1, reward, max_steps)
        #: the "pass" action of the agents not to act
        self.pass_action = self.num_actions

    def _observe(self, agent: str) -> Obs:
        state = self.game_state
        assert state is not None
        seat = self.agent_seat[agent]
        mask = np.zeros(self.num_actions + 1, dtype=np.int8)
        if state.current_seat() == seat:
            legal_mask(state, self.num_actions, mask[: self.num_actions])
        elif not state.is_terminal():
            mask[self.pass_action] = 1
        return {"observation": self.encoder.encode(state.observe(seat)), "action_mask": mask}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        """Deal a new game."""
        self._deal(seed)
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """The deciding agent's action is applied; the others must pass."""
        state = self.game_state
        assert state is not None, "call reset() first"
        seat = state.current_seat()
        assert seat is not None
        agent = self.possible_agents[seat]
        missing = [x for x in self.agents if x not in actions]
        if missing:
            raise ValueError(f"no action for {', '.join(missing)} (every live agent acts)")
        strangers = [x for x in actions if x not in self.agents]
        if strangers:
            raise ValueError(f"{', '.join(map(str, strangers))}: not live agents of this game")
        a = action_id(actions[agent], self.num_actions + 1)
        if not state.is_legal(a):
            raise ValueError(f"action {a} is not legal for {agent} now")
        for other, act in actions.items():
            if other != agent and action_id(act, self.num_actions + 1) != self.pass_action:
                raise ValueError(f"{other} is not to act: its only action is pass")
        state.apply_unchecked(a)
        truncated = self._truncate()
        agents = self.agents
        obs = {x: self._observe(x) for x in agents}
        done = state.is_terminal()
        infos: dict[str, dict[str, Any]] = {x: {} for x in agents}
        rewards = dict.fromkeys(agents, 0.0)
        if self.reward_mode == "shaped":
            for s, extra in enumerate(self._shaping()):
                rewards[self.possible_agents[s]] += extra
        if done:
            returns = state.returns()
            for x in agents:
                rewards[x] += float(returns[self.agent_seat[x]])
            outcome = state.outcome()
            if outcome is not None:
                infos = {x: {"outcome": outcome.reason, "winners": outcome.winners} for x in agents}
        terms = dict.fromkeys(agents, done)
        truncs = dict.fromkeys(agents, truncated)
        if done or truncated:
            self.agents = []
        return obs, rewards, terms, truncs, infos


def aec_env(game: str | Game[Any], **options: Any) -> SubtableAEC:
    """A PettingZoo AEC environment of ``game`` with ``options`` (e.g. ``players=3``)."""
    return SubtableAEC(game, **options)


def parallel_env(game: str | Game[Any], **options: Any) -> SubtableParallel:
    """A PettingZoo parallel environment of ``game`` with ``options``."""
    return SubtableParallel(game, **options)
