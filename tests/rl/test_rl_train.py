"""The training baseline (the ``train`` extra): a few hundred PPO steps on the CPU."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")

from subtable.bots.base import make_bot, observe
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.rl.policy import NumpyPolicy
from subtable.rl.train import TrainConfig, evaluate_file, train

pytestmark = pytest.mark.slow  # most tests here take over two seconds


def _tiny(game: str, **more: object) -> TrainConfig:
    values: dict[str, object] = {
        "total_steps": 256,
        "num_envs": 2,
        "rollout": 64,
        "minibatch": 64,
        "epochs": 2,
        "hidden": (32,),
        "curve_deals": 4,
        "curve_points": 2,
        "eval_deals": 6,
        "imitate": 0,
    }
    return TrainConfig.preset(game, **{**values, **more})


def test_train_writes_an_agent_that_plays(tmp_path: Path) -> None:
    config = _tiny("red-november", imitate=3)
    report = train(config, tmp_path, log=lambda _: None)
    assert report["steps"] == 256 and report["episodes"] > 0
    assert [p["phase"] for p in report["curve"]][:2] == ["init", "imitation"]
    assert report["imitation"]["samples"] > 0
    players = report["evaluation"]["players"]
    assert set(players) == {"agent", "agent_sampled", "random", "heuristic"}
    assert all(
        p["games"] == 6 and 0 <= p["wilson95"][0] <= p["wilson95"][1] <= 1 for p in players.values()
    )
    for name in ("agent.npz", "curve.csv", "report.json", "curve.png"):
        assert (tmp_path / name).stat().st_size > 0
    saved = json.loads((tmp_path / "report.json").read_text())
    assert saved["config"]["game"] == "red-november"
    # the exported agent sits in a seat (numpy inference)
    game = make_game("red-november", players=1)
    policy = NumpyPolicy.load(tmp_path / "agent.npz")
    policy.check_game(game)
    bot = make_bot("agent", game, 0, Rng(0), path=str(tmp_path / "agent.npz"))
    state = game.new_state(3)
    assert bot.choose(observe(state, 0)).id in state.legal_action_ids()
    again = evaluate_file(tmp_path / "agent.npz", 6)
    assert again["players"]["agent"] == players["agent"]


def test_training_is_reproducible(tmp_path: Path) -> None:
    config = _tiny("submarine", curve_points=1, imitate=2)
    train(config, tmp_path / "a", log=lambda _: None)
    train(config, tmp_path / "b", log=lambda _: None)
    a = NumpyPolicy.load(tmp_path / "a" / "agent.npz")
    b = NumpyPolicy.load(tmp_path / "b" / "agent.npz")
    assert all(np.array_equal(x[0], y[0]) for x, y in zip(a.layers, b.layers, strict=True))
