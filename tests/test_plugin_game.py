"""A third game plugs in from the tests alone: Dice Race (``tests/plugin_game``),
registered here, is played by the lab, checked by the research adapters' own checkers,
played to its end by bots at the web table and at the terminal — with no change outside
the tests. Whatever the house needs of a game, it asks the game's registration."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from plugin_game import PLUGIN
from subtable.core.record import GameRecord, replay
from subtable.core.registry import (
    MissingPart,
    game_names,
    make_game,
    register_game,
    registration,
    unregister_game,
)
from subtable.i18n import translator
from subtable.sim.runner import SimConfig, simulate
from subtable.ui.table import GameTable
from subtable.words.seats import parse_seats


@pytest.fixture
def dice_race() -> Iterator[str]:
    """Dice Race registered for one test (and forgotten after it)."""
    register_game(PLUGIN)
    try:
        yield PLUGIN.name
    finally:
        unregister_game(PLUGIN.name)


def test_the_registration_adds_and_removes_a_game(dice_race: str) -> None:
    assert dice_race in game_names()
    assert registration(make_game(dice_race)) is PLUGIN
    with pytest.raises(MissingPart, match="dice-race has no expert policy"):
        registration(dice_race).load("expert")
    with pytest.raises(ValueError, match="already registered"):
        register_game(PLUGIN)
    unregister_game(dice_race)
    assert dice_race not in game_names()
    register_game(PLUGIN)


def test_the_lab_plays_it(dice_race: str) -> None:
    summary = simulate(
        SimConfig(dice_race, {"players": 3}, games=40, seed=3, bots=["ismcts:budget=20"]),
        workers=1,
    )
    assert summary["games"] == 40 and summary["end_reasons"] == {"finish": 40}
    assert sum(summary["wins_by_seat"]) == 40


def test_simulate_on_the_command_line(dice_race: str, tmp_path: Path) -> None:
    from subtable.cli import app

    runner = CliRunner()
    args = ["simulate", dice_race, "--players", "2", "--games", "12", "--workers", "1"]
    done = runner.invoke(app, [*args, "--json", "--save-records", str(tmp_path)])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout.splitlines()[-1])["end_reasons"] == {"finish": 12}
    record = GameRecord.load(next(tmp_path.glob("game-*.json")))
    assert replay(record).is_terminal()
    table = runner.invoke(app, [*args, "--no-progress", "--lang", "fr"])
    assert table.exit_code == 0, table.output
    assert "Course de dés" in table.stdout and "A runner crossed the finish" in table.stdout
    shown = runner.invoke(app, ["replay", str(next(tmp_path.glob("game-*.json"))), "--log"])
    assert shown.exit_code == 0 and "wins the race" in shown.stdout, shown.output


def test_the_research_adapters_checkers_pass(dice_race: str) -> None:
    pytest.importorskip("gymnasium")
    import pyspiel
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, parallel_api_test

    import subtable.rl as rl
    import subtable.rl.openspiel as sos

    check_env(rl.gym_env(dice_race, opponents="random", players=3), skip_render_check=True)
    api_test(rl.aec_env(dice_race, players=3), num_cycles=200)
    parallel_api_test(rl.parallel_env(dice_race, players=2), num_cycles=200)
    with pytest.raises(ValueError, match="no shaped reward"):
        rl.gym_env(dice_race, reward="shaped", opponents="random")
    sos.register(dice_race)
    game = pyspiel.load_game(sos.short_name(dice_race), {"players": 3, "goal": 15})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    assert rl.register_gym_envs() and rl.gym_id(dice_race) in rl.GYM_IDS


def test_bots_play_it_at_the_terminal(dice_race: str) -> None:
    game = make_game(dice_race, players=3)
    seats = parse_seats("bot,random,bot", game)
    assert seats == ["ismcts", "random", "ismcts"]  # no expert: the best bot that can play
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False)
    table = GameTable(game.new_state(5), seats, translator("en"), console, fast=True)
    assert table.run() == 0
    text = out.getvalue()
    assert "Dice Race" in text and "crosses the finish line" in text and "wins the race" in text


def test_bots_play_it_at_the_web_table(dice_race: str, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from subtable.web.app import Settings, create_app

    app = create_app(Settings(db=str(tmp_path / "t.db"), bot_workers=0, rate=1000, burst=1000))
    with TestClient(app) as client:
        page = client.get("/")
        assert page.status_code == 200 and "Dice Race" in page.text
        made = client.post("/api/tables", json={"game": dice_race, "seats": ["random", "random"]})
        assert made.status_code == 201, made.text
        table: dict[str, Any] = made.json()
        with client.websocket_connect("/ws") as ws:
            hello = {"v": 1, "type": "hello", "table": table["id"], "render": "html"}
            ws.send_text(json.dumps({**hello, "token": table["spectator"]["token"]}))
            assert json.loads(ws.receive_text())["type"] == "welcome"
            frame = json.loads(ws.receive_text())
            deadline = time.monotonic() + 60
            while not frame["state"]["finished"] and time.monotonic() < deadline:
                frame = json.loads(ws.receive_text())
                # its board has no stage of its own: the fallback, an empty one
                stage = frame["entry"]["stage"]
                assert stage == {"html": "", "lines": [], "marks": [], "weight": 0}
            assert frame["state"]["finished"], frame
            html = frame["state"]["html"]
            assert 'class="race"' in html["board"] and "Runner 1" in html["board"]
            assert "wins the race" in html["status"]
            assert 'class="end-screen"' in html["end"] and "wins the race" in html["end"]
        assert client.get(f"/t/{table['id']}").status_code == 200  # no rule book: no panel
        replay_page = client.get(f"/replay/{table['id']}")
        assert replay_page.status_code == 200 and "wins the race" in replay_page.text
