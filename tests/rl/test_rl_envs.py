"""Gymnasium and PettingZoo: the libraries' own checkers, for both games."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, seed_test

import subtable.rl as rl
from subtable.rl.gymnasium_env import ILLEGAL_PENALTY

GYM_CASES: list[tuple[str, dict[str, Any]]] = [
    ("red-november", {"players": 4}),
    ("red-november", {"players": 1, "gnomes": 3}),
    ("red-november", {"players": 4, "crazed_gnomes": True, "greater_challenge": 1}),
    ("submarine", {"players": 2}),
    ("submarine", {"players": 5}),
]
PZ_CASES: list[tuple[str, dict[str, Any]]] = [
    ("red-november", {"players": 3}),
    ("red-november", {"players": 4, "crazed_gnomes": True, "less_deadly_dying": True}),
    ("red-november", {"players": 2}),
    ("red-november", {"players": 8, "heroic_sacrifice": True, "greater_challenge": 2}),
    ("submarine", {"players": 2}),
    ("submarine", {"players": 3}),
    ("submarine", {"players": 4}),
    ("submarine", {"players": 5}),
]


@pytest.mark.parametrize(("name", "options"), GYM_CASES)
def test_gymnasium_check_env(name: str, options: dict[str, Any]) -> None:
    env = rl.gym_env(name, seat=0, opponents="random", **options)
    check_env(env, skip_render_check=True)


def test_registered_ids_and_heuristic_opponents() -> None:
    for env_id, players in (("subtable/RedNovember-v0", 4), ("subtable/Submarine-v0", 3)):
        env = gym.make(env_id, players=players)
        check_env(env.unwrapped, skip_render_check=True)
        obs, _ = env.reset(seed=3)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, done, truncated, info = env.step(int(legal[0]))
            assert not truncated
        assert reward in (0.0, 1.0) and "outcome" in info


def test_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = rl.gym_env("submarine", players=3, opponents="random")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (
        ILLEGAL_PENALTY,
        True,
        False,
        True,
    )
    with pytest.raises(RuntimeError):
        env.step(illegal)


def test_gym_reset_seed_reproduces_the_episode() -> None:
    runs = []
    for _ in range(2):
        env = rl.gym_env("red-november", seat=1, opponents="heuristic", players=4)
        obs, _ = env.reset(seed=42)
        trace = [obs["observation"].copy()]
        done = False
        while not done:
            obs, _, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
            trace.append(obs["observation"].copy())
        runs.append(trace)
    assert len(runs[0]) == len(runs[1])
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))


@pytest.mark.parametrize(("name", "options"), PZ_CASES)
def test_pettingzoo_api_and_seed(name: str, options: dict[str, Any]) -> None:
    api_test(rl.aec_env(name, **options), num_cycles=400)
    seed_test(lambda: rl.aec_env(name, **options), num_cycles=200)


@pytest.mark.parametrize(("name", "options"), PZ_CASES)
def test_pettingzoo_parallel_api(name: str, options: dict[str, Any]) -> None:
    parallel_api_test(rl.parallel_env(name, **options), num_cycles=400)


def test_aec_loop_to_the_end_and_the_rewards() -> None:
    env = rl.aec_env("red-november", players=4)
    env.reset(seed=9)
    rng = np.random.default_rng(0)
    finals: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            finals[agent] = float(reward)
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.any()
        others = [a for a in env.agents if a != agent]
        assert not any(env.observe(a)["action_mask"].any() for a in others)
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert set(finals) == set(env.possible_agents)
    assert len(set(finals.values())) == 1  # the crew wins or loses together (nobody abandoned)


@pytest.mark.parametrize("make", [rl.gym_env, rl.aec_env, rl.parallel_env])
def test_every_env_checks_its_render_mode(make: Any) -> None:
    with pytest.raises(ValueError, match="'human'"):
        make("submarine", render_mode="human", players=3)
    env = make("submarine", render_mode="ansi", players=3)
    env.reset(seed=5)
    assert '"cells"' in env.render()
