"""The ``agent`` bot: an exported policy (numpy only) at the table and in the lab."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from subtable.bots.base import make_bot, observe
from subtable.core.errors import OptionError
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.rl import make_encoder
from subtable.rl.policy import FORMAT, NumpyPolicy
from subtable.words.seats import build_seats, parse_seats


def _policy(game_name: str, options: dict[str, Any], path: Path, seed: int = 0) -> Path:
    """A random-weight policy of the exported form (what train.py writes)."""
    game = make_game(game_name, **options)
    size = make_encoder(game).size
    rng = np.random.default_rng(seed)
    layers = [
        (rng.normal(0, 0.1, (size, 16)).astype(np.float32), np.zeros(16, np.float32)),
        (
            rng.normal(0, 1, (16, len(game.action_space))).astype(np.float32),
            np.zeros(len(game.action_space), np.float32),
        ),
    ]
    meta = {"format": FORMAT, "game": game.info.name, "options": options, "seat": 0}
    meta["opponents"] = "heuristic"
    NumpyPolicy(layers, meta).save(path)
    return path


def _play(game: Any, specs: list[tuple[str, dict[str, Any]]], seed: int) -> list[int]:
    state = game.new_state(seed)
    bots = [make_bot(n, game, s, Rng(seed * 31 + s), **p) for s, (n, p) in enumerate(specs)]
    while not state.is_terminal():
        seat = state.current_seat()
        state.apply_unchecked(bots[seat].choose(observe(state, seat)).id)
    return state.history


def test_agent_plays_deterministically(tmp_path: Path) -> None:
    path = _policy("red-november", {"players": 1}, tmp_path / "rn.npz")
    game = make_game("red-november", players=1)
    specs = [("agent", {"path": str(path)}), ("heuristic", {}), ("heuristic", {})]
    first = _play(game, specs, 4)
    assert first == _play(game, specs, 4)
    sampled = [("agent", {"path": str(path), "sample": 1}), ("heuristic", {}), ("heuristic", {})]
    assert _play(game, sampled, 4) == _play(game, sampled, 4)


def test_policy_round_trip_and_float16(tmp_path: Path) -> None:
    path = _policy("submarine", {"players": 3}, tmp_path / "sub.npz")
    policy = NumpyPolicy.load(path)
    x = np.random.default_rng(0).random(policy.obs_size).astype(np.float32)
    policy.meta["float16"] = True
    policy.save(tmp_path / "half.npz")
    half = NumpyPolicy.load(tmp_path / "half.npz")
    assert (tmp_path / "half.npz").stat().st_size < path.stat().st_size
    assert np.allclose(half.logits(x), policy.logits(x), atol=0.05)
    (tmp_path / "bad.npz").write_bytes(b"not a policy")
    with pytest.raises(OptionError, match=r"bad\.npz"):
        make_bot(
            "agent", make_game("submarine", players=3), 0, Rng(0), path=str(tmp_path / "bad.npz")
        )


def test_agent_refuses_another_game(tmp_path: Path) -> None:
    path = _policy("red-november", {"players": 1}, tmp_path / "rn.npz")
    with pytest.raises(OptionError, match="plays red-november"):
        make_bot("agent", make_game("submarine", players=3), 0, Rng(0), path=str(path))
    with pytest.raises(OptionError, match="trained for red-november"):
        make_bot("agent", make_game("red-november", players=4), 0, Rng(0), path=str(path))


def test_agent_sits_at_the_table(tmp_path: Path) -> None:
    (tmp_path / "Runs").mkdir()
    path = _policy("red-november", {"players": 3}, tmp_path / "Runs" / "Agent.npz")
    game = make_game("red-november", players=3)
    entries = parse_seats(f"human,agent:path={path},heuristic", game)
    assert entries[1] == f"agent:path={path}"  # the path keeps its case
    seats = build_seats(game, entries, seed=1)
    assert seats[0].human and seats[1].bot is not None and seats[1].bot.name == "agent"


def test_agent_in_the_lab(tmp_path: Path) -> None:
    path = _policy("red-november", {"players": 1}, tmp_path / "rn.npz")
    cmd = [
        sys.executable, "-m", "subtable", "simulate", "red-november", "--players", "1",
        "--games", "4", "--workers", "1", "--json",
        "--seats", f"agent:path={path},heuristic,heuristic",
    ]  # fmt: skip
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    assert json.loads(out)["games"] == 4


def test_agent_needs_no_torch(tmp_path: Path) -> None:
    """Inference is numpy only; training without PyTorch says which extra to install."""
    path = _policy("submarine", {"players": 3}, tmp_path / "sub.npz")
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from subtable.bots.base import make_bot, observe\n"
        "from subtable.core.registry import make_game\n"
        "from subtable.core.rng import Rng\n"
        "g = make_game('submarine', players=3); s = g.new_state(1)\n"
        f"b = make_bot('agent', g, s.current_seat(), Rng(0), path={str(path)!r})\n"
        "print(b.choose(observe(s)).notation())\n"
        "from subtable.rl.train import main\n"
        "try:\n"
        "    main(['red-november', '--steps', '10'])\n"
        "except SystemExit as e:\n"
        "    print('EXIT', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert "EXIT training needs PyTorch: pip install 'subtable[train]'" in out.stdout


def test_play_says_why_an_agent_does_not_fit(tmp_path: Path) -> None:
    path = _policy("red-november", {"players": 1}, tmp_path / "rn.npz")
    cmd = [sys.executable, "-m", "subtable", "play", "red-november", "--players", "4"]
    cmd += ["--seats", f"human,agent:path={path},bot,bot", "--seed", "1"]
    run = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert run.returncode != 0
    assert "this agent was trained for red-november with players=1" in run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr


def test_the_shipped_agent() -> None:
    """Without a path, the agent shipped for the game and seat count plays (Red November with
    3 gnomes); elsewhere the bot says what to give."""
    game = make_game("red-november", players=1)
    bot = make_bot("agent", game, 0, Rng(0))
    assert bot.policy.meta["game"] == "red-november"
    assert _play(game, [("agent", {}), ("heuristic", {}), ("heuristic", {})], 2)
    assert parse_seats("human,agent,heuristic", make_game("red-november", players=3))[1] == "agent"
    with pytest.raises(OptionError, match="no agent ships for submarine"):
        make_bot("agent", make_game("submarine", players=3), 0, Rng(0))
