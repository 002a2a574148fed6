"""Issue #27, the conventions researchers expect: action_masks(), max_steps, shaped rewards,
a factored action view, vectorised environments."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

import subtable.rl as rl
from subtable.rl.actions import FactoredActions, factored_actions
from subtable.rl.common import potential
from subtable.rl.gymnasium_env import FactoredActionWrapper


def test_action_masks_is_the_observation_mask() -> None:
    env = rl.gym_env("submarine", players=3, opponents="random")
    obs, _ = env.reset(seed=4)
    for _ in range(20):
        m = env.action_masks()
        assert m.dtype == np.bool_ and m.shape == (env.num_actions,)
        assert np.array_equal(m, obs["action_mask"].astype(bool))
        obs, _, done, trunc, _ = env.step(int(np.flatnonzero(m)[0]))
        if done or trunc:
            break


@pytest.mark.parametrize(("name", "players"), [("red-november", 1), ("submarine", 3)])
def test_max_steps_truncates(name: str, players: int) -> None:
    env = rl.gym_env(name, players=players, max_steps=5, opponents="random")
    obs, _ = env.reset(seed=2)
    flags = []
    for _ in range(5):
        obs, _, done, trunc, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        flags.append((done, trunc))
    assert flags[-1] == (False, True) and not any(t for _, t in flags[:-1])
    assert info["truncated_after"] == 5 and not env.action_masks().any()
    with pytest.raises(RuntimeError):
        env.step(0)
    with pytest.raises(ValueError):
        rl.gym_env(name, players=players, max_steps=0)


def test_pettingzoo_truncation() -> None:
    env = rl.aec_env("submarine", players=3, max_steps=7)
    env.reset(seed=1)
    decisions = 0
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        decisions += 1
    assert decisions == 7
    api_test(rl.aec_env("red-november", players=3, max_steps=30), num_cycles=200)
    parallel_api_test(rl.parallel_env("submarine", players=2, max_steps=30), num_cycles=200)


@pytest.mark.parametrize(("name", "players"), [("red-november", 1), ("submarine", 3)])
def test_shaped_reward_is_potential_based(name: str, players: int) -> None:
    """The shaping telescopes: an episode's shaped return is the outcome minus the potential
    of the first position (the potential is 0 once the game is over)."""
    shaped = rl.gym_env(name, players=players, reward="shaped", opponents="heuristic")
    plain = rl.gym_env(name, players=players, opponents="heuristic")
    obs, _ = shaped.reset(seed=8)
    plain.reset(seed=8)
    start = potential(shaped.state, 0)
    assert start != 0.0 or name == "submarine"
    total = outcome = 0.0
    nonzero = 0
    done = False
    rng = np.random.default_rng(2)
    while not done:
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, r, done, _, info = shaped.step(a)
        _, r0, _, _, _ = plain.step(a)
        total += float(r)
        outcome += float(r0)
        nonzero += info["shaping"] != 0.0
        assert abs(float(r) - float(r0) - info["shaping"]) < 1e-9
    assert nonzero > 0
    assert total == pytest.approx(outcome - start)


def test_pettingzoo_shaped_rewards() -> None:
    # (always the first legal action never ends a game of Submarine: max_steps stops it)
    env = rl.aec_env("submarine", players=3, reward="shaped", max_steps=3000)
    env.reset(seed=3)
    rng = np.random.default_rng(1)
    totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += float(reward)
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert any(v != 0.0 for v in totals.values())
    with pytest.raises(ValueError, match="reward"):
        rl.aec_env("submarine", reward="score")


@pytest.mark.parametrize("name", ["red-november", "submarine"])
def test_factored_view_keeps_the_flat_ids(name: str) -> None:
    fa = factored_actions(name)
    n = len(fa.game.action_space)
    assert len(fa.kind_of) == n and int(fa.sizes.sum()) == n
    for i in range(n):
        k, a = fa.split(i)
        assert fa.flat(k, a) == i
    kind, _arg = fa.describe(0)
    assert kind == fa.kinds[0]
    with pytest.raises(ValueError):
        fa.flat(0, int(fa.sizes[0]))
    state = fa.game.new_state(3)
    mask = np.zeros(n, dtype=np.int8)
    mask[state.legal_action_ids()] = 1
    kinds, args = fa.masks(mask)
    assert np.array_equal(kinds, fa.kind_mask(mask))
    assert int(args.sum()) == int(mask.sum())
    assert {fa.flat(k, a) for k, a in zip(*np.nonzero(args), strict=True)} == set(
        np.flatnonzero(mask).tolist()
    )


def test_factored_wrapper_plays_a_game() -> None:
    env = FactoredActionWrapper(rl.gym_env("red-november", players=1, opponents="heuristic"))
    assert isinstance(env.factored, FactoredActions)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    done = trunc = False
    while not (done or trunc):
        kinds = np.flatnonzero(obs["kind_mask"])
        k = int(rng.choice(kinds))
        a = int(rng.choice(np.flatnonzero(obs["arg_mask"][k])))
        assert obs["action_mask"][env.factored.flat(k, a)] == 1
        obs, _, done, trunc, info = env.step(np.array([k, a]))
        assert "illegal_action" not in info
    env.reset(seed=5)
    _, _, done, _, info = env.step(np.array([0, 10**6]))  # names no action: illegal
    assert info["illegal_action"] and done


def test_vector_env_example() -> None:
    envs = gym.vector.SyncVectorEnv(
        [lambda: rl.gym_env("submarine", players=3, opponents="heuristic") for _ in range(3)]
    )
    obs, _ = envs.reset(seed=0)
    assert obs["observation"].shape == (3, 2310) and obs["action_mask"].shape == (3, 4343)
    rng = np.random.default_rng(0)
    for _ in range(5):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, _rewards, _terms, _truncs, _ = envs.step(actions)
    envs.close()
