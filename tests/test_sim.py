"""The simulation lab: identical results across processes and Ray, sweeps, CSV, reports."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from subtable.core.errors import OptionError, SubtableError
from subtable.sim.lab import grid, parse_sweeps, run_grid, write_csv
from subtable.sim.runner import SimConfig, run, simulate
from subtable.sim.stats import wilson_interval

pytestmark = pytest.mark.slow  # most tests here take over two seconds

TIMING = {"seconds", "games_per_sec", "decisions_per_sec"}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "subtable", *args], capture_output=True, text=True, timeout=300
    )


def test_wilson_interval() -> None:
    assert wilson_interval(0, 0) == (0.0, 0.0)
    lo, hi = wilson_interval(0, 100)
    assert lo == 0.0 and 0.03 < hi < 0.04
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)


@pytest.mark.parametrize(
    "game, options, bots",
    [
        ("red-november", {"players": 4}, ["random"]),
        ("red-november", {"players": 5}, ["heuristic"]),
        ("submarine", {"players": 3}, ["heuristic", "random", "random"]),
    ],
)
def test_workers_give_exactly_the_single_process_result(game, options, bots) -> None:
    config = SimConfig(game, options, 12, 7, bots)
    one = run(config, workers=1)
    two = run(config, workers=2)
    assert one == two
    assert [r.seed for r in one] == [r.seed for r in run(SimConfig(game, options, 12, 7))]


def test_summary_is_deterministic_and_counts_every_reason() -> None:
    config = SimConfig("red-november", {"players": 4}, 10, 1, ["heuristic"])
    a, b = simulate(config, workers=2), simulate(config, workers=1)
    assert {k: v for k, v in a.items() if k not in TIMING} == {
        k: v for k, v in b.items() if k not in TIMING
    }
    assert set(a["end_reasons"]) >= {"rescued", "missiles", "crew_lost"}
    assert sum(a["loss_causes"].values()) + a["wins"] == 10


def test_metrics_follow_the_tracks_and_the_clock() -> None:
    results = run(SimConfig("red-november", {"players": 4}, 6, 2, ["heuristic"]), workers=1)
    for r in results:
        m = r.metrics
        assert 0 <= m["minute"] <= 60 and m["turns"] >= 1
        minutes = [p[0] for p in m["trace"]]
        assert minutes == sorted(minutes, reverse=True) and len(m["trace"][0]) == 4
        assert m["track_names"] == ["asphyxiation", "heat", "pressure"]
        if r.reason == "rescued":
            assert m["minute"] == 0


def test_sweeps_parse_ranges_lists_and_options() -> None:
    sweeps = parse_sweeps(
        "red-november", ["players=3..5", "option.greater_challenge=0,2", "less_deadly_dying=true"]
    )
    assert sweeps == [
        ("players", [3, 4, 5]),
        ("greater_challenge", [0, 2]),
        ("less_deadly_dying", [True]),
    ]
    points = grid(SimConfig("red-november", {"gnomes": 4}, 1), sweeps)
    assert len(points) == 6
    assert points[0][1].options == {"players": 3, "greater_challenge": 0, "less_deadly_dying": True}
    assert parse_sweeps("submarine", ["bot=random,heuristic+random+random"]) == [
        ("bot", ["random", "heuristic+random+random"])
    ]
    for bad in (
        "colour=red",
        "players",
        "players=a..b",
        "greater_challenge=7",
        "players=3,4 players=5",
    ):
        with pytest.raises(OptionError):
            parse_sweeps("red-november", bad.split(" "))


def test_grid_runs_csv_rows(tmp_path: Path) -> None:
    base = SimConfig("submarine", {}, 3, 4, ["heuristic"])
    runs = run_grid(
        base,
        parse_sweeps("submarine", ["players=2..3"]),
        workers=1,
        backend="local",
        address=None,
        progress=None,
    )
    assert [r.summary["options"]["players"] for r in runs] == [2, 3]
    path = tmp_path / "games.csv"
    write_csv(path, runs)
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 6 and rows[0]["config"] == "players=2"
    assert {r["reason"] for r in rows} <= {"twelve_treasures", "column_emptied", "cards_exhausted"}
    assert int(rows[-1]["decisions"]) > 0
    with pytest.raises(SubtableError, match="unknown backend"):
        run(base, backend="carrier-pigeon")


def test_simulate_command_lab_outputs(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    report, table = tmp_path / "lab.html", tmp_path / "lab.csv"
    proc = _cli(
        "simulate",
        "red-november",
        "--games",
        "6",
        "--bot",
        "heuristic",
        "--seed",
        "3",
        "--sweep",
        "players=3..4",
        "--sweep",
        "option.greater_challenge=0,1",
        "--report",
        str(report),
        "--csv",
        str(table),
        "--json",
        "--workers",
        "2",
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [p["point"] for p in data["sweep"]] == [
        {"players": 3, "greater_challenge": 0},
        {"players": 3, "greater_challenge": 1},
        {"players": 4, "greater_challenge": 0},
        {"players": 4, "greater_challenge": 1},
    ]
    assert all(p["games"] == 6 and "win_rate_ci95" in p for p in data["sweep"])
    page = report.read_text()
    assert page.count("data:image/png;base64,") >= 5 and "Disaster-track" in page
    assert "<script" not in page and "http" not in page.split("<body>")[1].split("<code>")[0]
    assert len(table.read_text().splitlines()) == 25


def test_simulate_command_seats_budget_and_errors() -> None:
    proc = _cli(
        "simulate",
        "submarine",
        "--players",
        "3",
        "--games",
        "2",
        "--seed",
        "1",
        "--seats",
        "ismcts:depth=4,heuristic,random",
        "--budget",
        "3",
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["bots"] == ["ismcts:depth=4", "heuristic", "random"]
    assert data["bot_params"] == {"budget": 3}
    for args, message in [
        (("--sweep", "colour=red"), "cannot sweep"),
        (("--bot", "random:budget=3"), "no parameter"),
        (("--backend", "pigeon"), "unknown backend"),
    ]:
        proc = _cli("simulate", "red-november", "--games", "2", *args)
        assert proc.returncode == 2 and message in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr


def test_ray_backend_gives_the_local_result() -> None:
    ray = pytest.importorskip("ray")
    config = SimConfig("red-november", {"players": 4}, 8, 5, ["heuristic"])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert run(config, backend="ray") == run(config, workers=1)
    finally:
        ray.shutdown()
