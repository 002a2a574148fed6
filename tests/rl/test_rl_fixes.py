"""Issue #27, items 1-6: what a researcher trips over in the first hour.

Each test here failed before the fix it covers (see the commit messages).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import subtable.rl as rl
import subtable.rl.openspiel as sos
from subtable.rl import make_encoder

RED_NOVEMBER = sos.short_name("red-november")
SUBMARINE = sos.short_name("submarine")


# -- 1. OpenSpiel deals do not depend on what an algorithm asked for ----------------------
TOUCHES: dict[str, Callable[[Any, Any], Any]] = {
    "clone": lambda g, s: s.clone(),
    "observation_tensor": lambda g, s: s.observation_tensor(0),
    "information_state_tensor": lambda g, s: s.information_state_tensor(1),
    "observation_tensor_size": lambda g, s: g.observation_tensor_size(),
    "information_state_tensor_shape": lambda g, s: g.information_state_tensor_shape(),
    "deserialize": lambda g, s: g.deserialize_state(s.serialize()),
    "resample_from_infostate": lambda g, s: s.resample_from_infostate(
        0, pyspiel.UniformProbabilitySampler(0.0, 1.0)
    ),
}


def _next_deals(touch: Callable[[Any, Any], Any] | None, name: str) -> list[str]:
    game = pyspiel.load_game(name, {"players": 3, "seed": 42})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    if touch is not None:
        touch(game, state)
    return [str(game.new_initial_state()) for _ in range(2)]


@pytest.mark.parametrize("name", [SUBMARINE, RED_NOVEMBER])
@pytest.mark.parametrize("touch", sorted(TOUCHES))
def test_deals_do_not_depend_on_what_was_asked(name: str, touch: str) -> None:
    assert _next_deals(TOUCHES[touch], name) == _next_deals(None, name)


def test_the_series_is_the_same_as_before() -> None:
    """The n-th deal of seed s is still the n-th output of SplitMix64(s) (records agree)."""
    from subtable.core.rng import Rng

    game = pyspiel.load_game(SUBMARINE, {"players": 3, "seed": 7})
    rng = Rng(7)
    for _ in range(3):
        assert game.new_initial_state().engine.seed == rng.next64() >> 1


def _ismcts_game(seed: int, tensors: bool) -> tuple[list[int], str]:
    """A few IS-MCTS decisions (seeded), then the game's next deal."""
    game = pyspiel.load_game(RED_NOVEMBER, {"players": 3, "seed": 5})
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        2.0,
        8,
        random_state=np.random.RandomState(seed),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    state = game.new_initial_state()
    actions = []
    for _ in range(4):
        if tensors:
            state.observation_tensor(state.current_player())
            state.information_state_tensor(state.current_player())
        action = bot.step(state)
        actions.append(action)
        state.apply_action(action)
    return actions, str(game.new_initial_state())


def test_ismcts_replays_and_leaves_the_deals_alone() -> None:
    """OpenSpiel's Python IS-MCTS resamples with an unseeded sampler: the worlds come from the
    game's own seeded generator instead, so a seeded search replays (items 1 and 5)."""
    first = _ismcts_game(3, tensors=False)
    assert _ismcts_game(3, tensors=False) == first
    assert _ismcts_game(3, tensors=True) == first


def test_resampling_is_seeded_by_the_game() -> None:
    def worlds() -> list[str]:
        game = pyspiel.load_game(SUBMARINE, {"players": 3, "seed": 9})
        state = game.new_initial_state_from_seed(4)
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)  # unseeded: not used
        return [str(state.resample_from_infostate(1, sampler).engine.to_json()) for _ in range(3)]

    a = worlds()
    assert a == worlds() and len(set(a)) == 3


# -- 2. the tensor path: no deal to size a tensor --------------------------------------
@pytest.mark.parametrize("name", [SUBMARINE, RED_NOVEMBER])
def test_tensors_are_sized_without_dealing(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = pyspiel.load_game(name, {"players": 3, "seed": 1})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    size = make_encoder(game.engine_game).size

    def no_deal(seed: int) -> Any:
        raise AssertionError("a tensor call dealt a game")

    monkeypatch.setattr(game.engine_game, "new_state", no_deal)
    assert game.observation_tensor_size() == game.information_state_tensor_size() == size
    assert game.observation_tensor_shape() == game.information_state_tensor_shape() == [size]
    for p in range(3):
        x = state.observation_tensor(p)
        assert isinstance(x, list) and len(x) == size
        assert state.information_state_tensor(p) == x
        observer = game.tensor_observer(False)
        observer.set_from(state, p)
        assert x == observer.tensor.tolist()  # the same float32 values as set_from
    assert len(state.observation_tensor()) == size  # default: the current player


# -- 3. deep copies share the game tables ---------------------------------------------
@pytest.mark.parametrize("make", [rl.gym_env, rl.aec_env, rl.parallel_env])
@pytest.mark.parametrize(("name", "players"), [("red-november", 4), ("submarine", 3)])
def test_deepcopy_shares_the_game(make: Any, name: str, players: int) -> None:
    env = make(name, players=players)
    env.reset(seed=3)
    twin = copy.deepcopy(env)
    assert twin.game is env.game and twin.encoder is env.encoder
    assert twin.game.action_space is env.game.action_space
    state = twin.state if make is rl.gym_env else twin.game_state
    orig = env.state if make is rl.gym_env else env.game_state
    assert state is not orig and state.to_json() == orig.to_json()
    # independent: playing the copy leaves the original alone
    if make is rl.gym_env:
        twin.step(int(np.flatnonzero(twin.action_masks())[0]))
    elif make is rl.aec_env:
        twin.step(int(np.flatnonzero(twin.observe(twin.agent_selection)["action_mask"])[0]))
    else:
        acts = {a: int(np.flatnonzero(twin._observe(a)["action_mask"])[0]) for a in twin.agents}
        twin.step(acts)
    assert state.to_json() != orig.to_json()


# -- 4. the docs' promises -------------------------------------------------------------
def test_make_encoder_takes_a_name() -> None:
    enc = make_encoder("red-november", players=4)
    assert enc.size == 499
    assert make_encoder("submarine", players=3).size == 2310
    with pytest.raises(ValueError, match="unknown game"):
        make_encoder("chess")


# -- 6. strict inputs ------------------------------------------------------------------
@pytest.mark.parametrize("bad", [0.7, 1.0, True, "3", None])
def test_aec_refuses_what_is_not_an_action_id(bad: Any) -> None:
    env = rl.aec_env("submarine", players=3)
    env.reset(seed=1)
    before = env.game_state.to_json()
    with pytest.raises((TypeError, ValueError)):
        env.step(bad)
    assert env.game_state.to_json() == before


def test_aec_takes_numpy_integers() -> None:
    env = rl.aec_env("submarine", players=3)
    env.reset(seed=1)
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(np.int64(legal[0]))
    env.step(np.array(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))


def test_gym_refuses_a_float_action() -> None:
    env = rl.gym_env("submarine", players=3, opponents="random")
    env.reset(seed=1)
    with pytest.raises(TypeError):
        env.step(0.7)


def test_parallel_step_needs_every_live_agent() -> None:
    env = rl.parallel_env("submarine", players=3)
    obs, _ = env.reset(seed=2)
    actor = next(a for a in env.agents if obs[a]["action_mask"][: env.pass_action].any())
    move = int(np.flatnonzero(obs[actor]["action_mask"])[0])
    with pytest.raises(ValueError, match="no action for"):
        env.step({actor: move})
    with pytest.raises(ValueError, match="not live agents"):
        env.step({**{a: env.pass_action for a in env.agents}, actor: move, "captain_9": 0})
    with pytest.raises(TypeError):
        env.step({**{a: env.pass_action for a in env.agents}, actor: float(move)})
    env.step({**{a: env.pass_action for a in env.agents}, actor: move})
