"""The command line: simulate, replay, and clean errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # most tests here take over two seconds

TIMING = {"seconds", "games_per_sec", "decisions_per_sec"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "subtable", *args], capture_output=True, text=True, timeout=300
    )


def simulate_json(*args: str) -> dict:
    proc = run("simulate", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_simulate_red_november_json_fields_and_determinism() -> None:
    args = ("red-november", "--players", "4", "--games", "30", "--bot", "random", "--seed", "5")
    a, b = simulate_json(*args), simulate_json(*args)
    for key in ("games", "wins", "win_rate", "loss_causes", "mean_decisions", *TIMING):
        assert key in a
    assert a["games"] == 30
    assert sum(a["loss_causes"].values()) + a["wins"] == 30
    assert {k: v for k, v in a.items() if k not in TIMING} == {
        k: v for k, v in b.items() if k not in TIMING
    }
    c = simulate_json("red-november", "--players", "4", "--games", "30", "--seed", "6")
    assert c["mean_decisions"] != a["mean_decisions"]


def test_simulate_options_reach_the_game() -> None:
    s = simulate_json(
        "red-november",
        "--players",
        "1",
        "--gnomes",
        "5",
        "--option",
        "greater_challenge=2",
        "-o",
        "crazed_gnomes",
        "--games",
        "3",
    )
    assert s["options"]["gnomes"] == 5 and s["options"]["greater_challenge"] == 2
    assert s["options"]["crazed_gnomes"] is True


def test_simulate_readable_summary() -> None:
    proc = run("simulate", "red-november", "--games", "5")
    assert proc.returncode == 0
    assert "wins" in proc.stdout and "games/s" in proc.stdout


def test_a_level_in_the_lab_shows_its_published_win_rates_beside_the_run() -> None:
    from subtable.bots.levels import level_rates

    easy = run("simulate", "red-november", "--players", "4", "--games", "3", "--bot", "easy")
    assert easy.returncode == 0, easy.stderr
    published = round(level_rates("red-november")["easy"] * 100)
    assert f"(measured): easy {published}%" in " ".join(easy.stdout.split())
    plain = run("simulate", "red-november", "--players", "4", "--games", "3", "--bot", "heuristic")
    assert plain.returncode == 0 and "(measured)" not in plain.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (("simulate", "chess"), "unknown game"),
        (("simulate", "red-november", "--players", "2", "--gnomes", "3"), "gnomes must be 4"),
        (("simulate", "red-november", "-o", "colour=red"), "unknown option"),
        (("simulate", "red-november", "-o", "greater_challenge=9"), "must be one of"),
        (("simulate", "red-november", "--bot", "genius"), "unknown bot"),
    ],
)
def test_bad_simulate_arguments_exit_2_without_traceback(args, message) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_records_saved_then_replayed(tmp_path: Path) -> None:
    proc = run(
        "simulate", "red-november", "--games", "3", "--seed", "2", "--save-records", str(tmp_path)
    )
    assert proc.returncode == 0, proc.stderr
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    for f in files:
        out = run("replay", str(f), "--json")
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["verified"] is True
    data = json.loads(files[0].read_text())
    data["actions"] = data["actions"][:-1]
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    out = run("replay", str(tampered))
    assert out.returncode == 2 and "digest" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize(
    "content, message",
    [
        ("{oops", "not valid JSON"),
        ('{"format": "subtable-record/1"}', "no 'game' field"),
        ("", "not valid JSON"),
    ],
)
def test_malformed_records_exit_2(tmp_path: Path, content: str, message: str) -> None:
    f = tmp_path / "r.json"
    f.write_text(content)
    proc = run("replay", str(f))
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


def test_missing_record_file(tmp_path: Path) -> None:
    proc = run("replay", str(tmp_path / "nope.json"))
    assert proc.returncode == 2 and "cannot read" in proc.stderr


def test_simulate_submarine_json_fields_and_determinism() -> None:
    args = ("submarine", "--players", "3", "--games", "12", "--bot", "random", "--seed", "4")
    a, b = simulate_json(*args), simulate_json(*args)
    for key in ("games", "end_reasons", "wins_by_seat", "mean_decisions", *TIMING):
        assert key in a
    assert set(a["end_reasons"]) == {"twelve_treasures", "column_emptied", "cards_exhausted"}
    assert sum(a["end_reasons"].values()) == 12
    assert sum(a["wins_by_seat"]) >= 12  # a shared win counts for each winner
    assert {k: v for k, v in a.items() if k not in TIMING} == {
        k: v for k, v in b.items() if k not in TIMING
    }


def test_submarine_has_no_gnomes() -> None:
    proc = run("simulate", "submarine", "--gnomes", "4", "--games", "1")
    assert proc.returncode == 2 and "no gnomes" in proc.stderr


def test_submarine_records_saved_then_replayed(tmp_path: Path) -> None:
    proc = run(
        "simulate",
        "submarine",
        "--players",
        "4",
        "--games",
        "2",
        "--seed",
        "3",
        "--save-records",
        str(tmp_path),
    )
    assert proc.returncode == 0, proc.stderr
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2
    for f in files:
        out = run("replay", str(f), "--json")
        assert out.returncode == 0, out.stderr
        result = json.loads(out.stdout)
        assert result["verified"] and result["game"] == "submarine"
        assert result["outcome"]["reason"] in {
            "twelve_treasures",
            "column_emptied",
            "cards_exhausted",
        }
    data = json.loads(files[0].read_text())
    data["actions"][-1] = "boat off"
    files[0].write_text(json.dumps(data))
    bad = run("replay", str(files[0]))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
