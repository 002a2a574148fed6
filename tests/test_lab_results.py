"""Readable lab results: end reasons named in the reader's language, plots that read
without colour, a narrated replay, and honest command-line help and hints."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from subtable.core.registry import game_class
from subtable.i18n import LANGUAGES, translator
from subtable.sim.extras import install_hint
from subtable.sim.lab import parse_sweeps, run_grid
from subtable.sim.runner import SimConfig
from subtable.sim.words import end_reason

pytestmark = pytest.mark.slow  # most tests here take over two seconds

#: codes that must never reach a reader
CODES = re.compile(r"\b(crew_lost|asphyxiated|asphyxiation|twelve_treasures|column_emptied)\b")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    return subprocess.run(
        [sys.executable, "-m", "subtable", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


# -- names, not codes --------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["red-november", "submarine"])
def test_every_end_reason_has_a_name_without_placeholders(game: str, lang: str) -> None:
    tr = translator(lang)
    names = [end_reason(game, r, tr) for r in game_class(game).info.end_reasons]
    assert not any(CODES.search(n) or "{" in n for n in names), names
    assert len(set(names)) == len(names)  # asphyxiated and asphyxiation read differently


def test_simulate_tables_name_the_end_reasons_in_the_chosen_language() -> None:
    rn = _cli("simulate", "red-november", "--games", "4", "--no-progress", "--lang", "fr")
    assert rn.returncode == 0, rn.stderr
    assert not CODES.search(rn.stdout), rn.stdout
    assert "Tous les gnomes sont morts ou partis" in rn.stdout and "victoires" in rn.stdout
    sub = _cli("simulate", "submarine", "--players", "3", "--games", "4", "--no-progress")
    assert sub.returncode == 0, sub.stderr
    assert not CODES.search(sub.stdout), sub.stdout
    assert "A player had the 12 different treasures" in sub.stdout
    bad = _cli("simulate", "submarine", "--games", "1", "--lang", "xx")
    assert bad.returncode == 2 and "xx" in bad.stderr and "Traceback" not in bad.stderr


def test_report_names_causes_and_speaks_the_language(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    page = tmp_path / "r.html"
    proc = _cli(
        "simulate", "red-november", "--games", "6", "--no-progress", "--lang", "it",
        "--report", str(page),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    text = page.read_text()
    assert '<html lang="it">' in text and "tutti gli gnomi sono morti o fuggiti" in text.lower()
    assert not CODES.search(text.split("<h2>")[0].split("</code>")[-1])
    assert "brief" not in text


# -- plots that read without colour --------------------------------------------------------
def _figures(monkeypatch: pytest.MonkeyPatch, game: str, sweeps: list[str], **options: Any):
    pytest.importorskip("matplotlib")
    from subtable.sim import report

    figs: list[Any] = []

    def keep(fig: Any) -> str:
        fig.canvas.draw()
        figs.append(fig)
        return ""

    monkeypatch.setattr(report, "png_base64", keep)
    config = SimConfig(game, options, 8, 2, ["heuristic"])
    runs = run_grid(
        config, parse_sweeps(game, sweeps), workers=1, backend="local", address=None, progress=None
    )
    plt = report.pyplot()
    return report, plt, runs, figs


def _boxes_overlap(texts: list[Any], renderer: Any) -> bool:
    boxes = [t.get_window_extent(renderer) for t in texts if t.get_text()]
    return any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def test_causes_plot_hatches_each_reason_and_keeps_labels_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    report, plt, runs, figs = _figures(
        monkeypatch, "red-november", ["players=3..5", "option.greater_challenge=0,1"]
    )
    report._causes_plot(plt, runs, "red-november", translator("en"))
    (fig,) = figs
    ax = fig.axes[0]
    renderer = fig.canvas.get_renderer()
    hatches = [c.patches[0].get_hatch() for c in ax.containers]
    assert len(set(hatches)) == len(hatches)  # one pattern per reason: no colour needed
    assert not _boxes_overlap(ax.get_yticklabels(), renderer)
    assert not _boxes_overlap(ax.get_xticklabels(), renderer)
    legend = ax.get_legend()
    assert legend.get_window_extent(renderer).x0 >= ax.get_window_extent(renderer).x1
    assert not CODES.search(" ".join(t.get_text() for t in legend.get_texts()))


def test_submarine_win_rates_show_the_fair_share(monkeypatch: pytest.MonkeyPatch) -> None:
    report, plt, runs, figs = _figures(monkeypatch, "submarine", [], players=4)
    report._win_plots(plt, runs, translator("en"))
    ax = figs[0].axes[0]
    flat = [
        line for line in ax.get_lines() if len(set(line.get_ydata())) == 1 and line.get_ydata()[0]
    ]
    assert any(abs(line.get_ydata()[0] - 0.25) < 1e-9 for line in flat)
    assert "fair share (1/4)" in [t.get_text() for t in ax.get_legend().get_texts()]
    figs.clear()
    report, plt, runs, figs = _figures(monkeypatch, "submarine", ["players=2..3"])
    report._win_plots(plt, runs, translator("en"))
    ax = figs[0].axes[0]
    shares = [list(line.get_ydata()) for line in ax.get_lines()]
    assert [0.5, pytest.approx(1 / 3)] in shares


def test_time_plot_labels_without_jargon_or_overlap(monkeypatch: pytest.MonkeyPatch) -> None:
    report, plt, runs, figs = _figures(monkeypatch, "red-november", ["players=3,4"])
    assert report._minute_plot(plt, runs, "rescued", translator("en")) is not None
    (fig,) = figs
    renderer = fig.canvas.get_renderer()
    labels = [ax.xaxis.get_label() for ax in fig.axes]
    assert not _boxes_overlap(labels, renderer)
    words = " ".join(t.get_text() for ax in fig.axes for t in (*labels, ax.title))
    assert "brief" not in words and "Time Keeper" in words
    legend = fig.axes[1].get_legend()
    assert legend.get_window_extent(renderer).x0 >= fig.axes[1].get_window_extent(renderer).x1


# -- replay narrates ---------------------------------------------------------------------
def test_replay_log_narrates_the_recorded_game(tmp_path: Path) -> None:
    proc = _cli(
        "simulate", "submarine", "--players", "2", "--games", "1", "--seed", "4",
        "--save-records", str(tmp_path), "--no-progress",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (record,) = tmp_path.glob("*.json")
    plain = _cli("replay", str(record))
    assert plain.returncode == 0 and "Player 1 (bot random)" not in plain.stdout
    assert not CODES.search(plain.stdout) and "Winner" in plain.stdout
    told = _cli("replay", str(record), "--log", "--lang", "fr")
    assert told.returncode == 0, told.stderr
    moves = json.loads(record.read_text())["actions"]
    played = [line for line in told.stdout.splitlines() if line.startswith("Joueur ")]
    assert len(played) == len(moves) and "(bot hasard)" in played[0]  # in the reader's words
    assert "pioche" in told.stdout or "place" in told.stdout
    assert "Gagnant" in told.stdout


# -- honest help and hints -----------------------------------------------------------------
@pytest.mark.parametrize("command", [[], ["play"], ["simulate"], ["replay"], ["serve"], ["join"]])
def test_help_shows_no_type_oddities(command: list[str]) -> None:
    proc = _cli(*command, "--help")
    assert proc.returncode == 0, proc.stderr
    assert "<bool>" not in proc.stdout and "<list[" not in proc.stdout
    assert "--help" in proc.stdout


def test_install_hint_fits_how_subtable_was_installed(tmp_path: Path) -> None:
    clone = tmp_path / "subtable"
    clone.mkdir()
    editable = json.dumps({"url": clone.as_uri(), "dir_info": {"editable": True}})
    built = json.dumps({"url": clone.as_uri(), "dir_info": {}})
    index = None
    assert install_hint("lab", direct_url=editable, cwd=clone) == "pip install -e '.[lab]'"
    assert install_hint("lab", direct_url=built, cwd=clone) == "pip install '.[lab]'"
    assert install_hint("lab", direct_url=built, cwd=tmp_path) == f"pip install '{clone}[lab]'"
    assert install_hint("cluster", direct_url=index or "", cwd=clone) == (
        "pip install 'subtable[cluster]'"
    )
    wheel = json.dumps({"url": (clone / "s.whl").as_uri(), "archive_info": {}})
    assert install_hint("lab", direct_url=wheel) == "pip install 'subtable[lab]'"


def test_sweeping_players_with_fixed_seats_explains_the_mismatch() -> None:
    proc = _cli(
        "simulate", "submarine", "--sweep", "players=2..4", "--seats", "random,heuristic",
        "--games", "1", "--no-progress",
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    message = " ".join(proc.stderr.split())
    assert "--seats gives 2 bots" in message and "3 or 4 seats" in message
    assert "--bot" in message
