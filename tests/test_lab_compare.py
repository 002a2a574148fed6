"""Paired comparisons in the lab: the statistics, the command, the report."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from subtable.cli import app
from subtable.sim.compare import compare_binary
from subtable.sim.stats import (
    games_for_half_width,
    mcnemar_exact_p,
    newcombe_interval,
    paired_difference_interval,
)


def test_mcnemar_exact_matches_the_binomial_tail() -> None:
    assert mcnemar_exact_p(0, 0) == 1.0
    assert mcnemar_exact_p(5, 5) == 1.0
    # b=0, c=6: 2 * (1/2)^6
    assert mcnemar_exact_p(0, 6) == pytest.approx(2 / 64)
    # b=2, c=10: 2 * P(X <= 2), X ~ Bin(12, 1/2) = 2 * 79/4096
    assert mcnemar_exact_p(2, 10) == pytest.approx(2 * 79 / 4096)


def test_paired_interval_agresti_min() -> None:
    diff, lo, hi = paired_difference_interval(10, 30, 200)
    assert diff == pytest.approx(0.1)
    m = 202
    d = 20 / m
    half = 1.959964 * math.sqrt(((41 / m) - d * d) / m)
    assert (lo, hi) == pytest.approx((d - half, d + half))


def test_newcombe_interval_known_value() -> None:
    # Newcombe (1998), table II example (56/70 vs 48/80): 0.2000, 95% CI 0.0524 to 0.3339
    d, lo, hi = newcombe_interval(48, 80, 56, 70)
    assert d == pytest.approx(0.2)
    assert lo == pytest.approx(0.0524, abs=5e-4)
    assert hi == pytest.approx(0.3339, abs=5e-4)


def test_games_for_half_width() -> None:
    assert games_for_half_width(0.5, 0.02) == math.ceil(0.5 * (1.959964 / 0.02) ** 2)
    with pytest.raises(ValueError):
        games_for_half_width(0.5, 0)


def test_correlated_pairs_give_a_narrower_interval_than_independent_runs() -> None:
    rng = random.Random(1)
    base = [rng.random() < 0.5 for _ in range(2000)]
    variant = [x if rng.random() < 0.9 else (rng.random() < 0.55) for x in base]
    st = compare_binary("win", base, variant)
    assert st.width < st.unpaired_width / 2
    assert st.games_needed < st.games_needed_unpaired
    unpaired = compare_binary("win", base, variant, paired=False)
    assert unpaired.ci95 == unpaired.unpaired_ci95 and unpaired.base_only == 0


def _sim(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(
        app, ["simulate", *args, "--no-progress", "--json", "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_simulate_compare_pairs_the_seeds_and_reports_every_figure() -> None:
    data = _sim(
        "submarine", "--players", "3", "--games", "6", "--compare-set", "players.3.bathyscaphes=4"
    )
    assert set(data) == {"baseline", "variant", "comparison"}
    comparison: dict = data["comparison"]  # type: ignore[assignment]
    assert comparison["paired"] and comparison["games"] == 6
    whats = [f["what"] for f in comparison["figures"]]
    assert whats[:3] == ["seat.1", "seat.2", "seat.3"]
    assert any(w.startswith("reason.") for w in whats)
    assert data["variant"]["variant"] == {"players": {"3": {"bathyscaphes": 4}}}  # type: ignore[index]
    assert "variant" not in data["baseline"]  # type: ignore[operator]


def test_a_variant_identical_to_the_baseline_differs_by_nothing() -> None:
    data = _sim("red-november", "--games", "4", "--bot", "random", "--compare-set", "events.fire=8")
    for f in data["comparison"]["figures"]:  # type: ignore[index]
        assert f["diff"] == 0 and f["base_only"] == 0 and f["variant_only"] == 0


def test_compare_seed_makes_independent_runs() -> None:
    data = _sim(
        "red-november", "--games", "3", "--compare-set", "events.kraken=2", "--compare-seed", "9"
    )
    assert data["comparison"]["paired"] is False  # type: ignore[index]


def test_invalid_overrides_fail_before_any_game(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[events]\nfire = -2\n", encoding="utf-8")
    for args in (
        ["--components", str(bad)],
        ["--set", "events.fire=-2"],
        ["--compare", str(bad)],
        ["--compare-set", "events.fire=-2"],
    ):
        result = CliRunner().invoke(
            app, ["simulate", "red-november", "--games", "1", "--no-progress", *args]
        )
        assert result.exit_code != 0
        assert "events.fire" in result.output


@pytest.mark.slow
def test_terminal_summary_and_report_in_another_language(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    report = tmp_path / "r.html"
    result = CliRunner().invoke(
        app,
        [
            "simulate",
            "red-november",
            "--games",
            "4",
            "--bot",
            "random",
            "--workers",
            "1",
            "--set",
            "events.kraken=2",
            "--compare-set",
            "time_track.start.4=55",
            "--no-progress",
            "--lang",
            "fr",
            "--report",
            str(report),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "référence" in result.output and "lab.compare" not in result.output
    page = report.read_text(encoding="utf-8")
    assert "Comparaison de variantes" in page and "lab.compare" not in page
    assert page.count("<img") >= 4
    assert "events.kraken=2" in page and "time_track.start.4=55" in page
