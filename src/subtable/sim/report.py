"""A self-contained HTML report of a simulation (plots embedded as base64 PNG).

Needs matplotlib (``pip install 'subtable[lab]'``); it is imported lazily and
drawn with the Agg backend, so no display is needed.
"""

from __future__ import annotations

import base64
import html
import io
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from subtable.core.errors import SubtableError
from subtable.sim.lab import Run
from subtable.sim.stats import wilson_interval


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise SubtableError("--report needs matplotlib: pip install 'subtable[lab]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    _pyplot().close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _rate(run: Run) -> tuple[float, float, float]:
    """The team's (or seat 1's) win rate and its Wilson interval."""
    s = run.summary
    n = s["games"]
    wins = s["wins"] if "wins" in s else s["wins_by_seat"][0]
    lo, hi = wilson_interval(wins, n)
    return (wins / n if n else 0.0, lo, hi)


def _win_plots(plt: Any, runs: Sequence[Run]) -> list[tuple[str, str]]:
    """Win rate with 95% CIs against each swept key (one line per other setting)."""
    coop = "wins" in runs[0].summary
    what = "team win rate" if coop else "seat 1 win rate"
    keys = list(runs[0].point)
    out = []
    if not keys:
        fig, ax = plt.subplots(figsize=(5, 3))
        if coop:
            rate, lo, hi = _rate(runs[0])
            ax.bar(["all games"], [rate], yerr=[[rate - lo], [hi - rate]], capsize=6)
        else:
            s = runs[0].summary
            rates = s["win_rate_by_seat"]
            cis = s["win_rate_by_seat_ci95"]
            labels = [f"seat {i + 1}\n{b}" for i, b in enumerate(s["bots"])]
            ax.bar(
                labels,
                rates,
                yerr=[
                    [r - c[0] for r, c in zip(rates, cis, strict=True)],
                    [c[1] - r for r, c in zip(rates, cis, strict=True)],
                ],
                capsize=6,
            )
            what = "win rate by seat"
        ax.set_ylabel(what)
        ax.set_ylim(0, 1)
        out.append((f"Win rate ({what}, 95% Wilson CI)", _png(fig)))
        return out
    for key in keys:
        others = [k for k in keys if k != key]
        lines: dict[tuple[Any, ...], list[Run]] = {}
        for r in runs:
            lines.setdefault(tuple(r.point[k] for k in others), []).append(r)
        fig, ax = plt.subplots(figsize=(6, 3.5))
        for rest, group in lines.items():
            xs = [str(r.point[key]) for r in group]
            stats = [_rate(r) for r in group]
            ys = [s[0] for s in stats]
            err = [[s[0] - s[1] for s in stats], [s[2] - s[0] for s in stats]]
            label = " ".join(f"{k}={v}" for k, v in zip(others, rest, strict=True)) or None
            ax.errorbar(xs, ys, yerr=err, marker="o", capsize=4, label=label)
        ax.set_xlabel(key)
        ax.set_ylabel(what)
        ax.set_ylim(0, 1)
        if others:
            ax.legend(fontsize=7)
        out.append((f"Win rate by {key} (95% Wilson CI)", _png(fig)))
    return out


def _causes_plot(plt: Any, runs: Sequence[Run]) -> str:
    causes = sorted({r.reason for run in runs for r in run.results})
    fig, ax = plt.subplots(figsize=(max(5, 0.9 * len(runs) + 3), 3.5))
    bottom = [0.0] * len(runs)
    labels = [run.label for run in runs]
    for cause in causes:
        share = [
            Counter(r.reason for r in run.results)[cause] / max(1, len(run.results)) for run in runs
        ]
        ax.bar(labels, share, bottom=bottom, label=cause)
        bottom = [b + s for b, s in zip(bottom, share, strict=True)]
    ax.set_ylabel("share of games")
    ax.legend(fontsize=7, bbox_to_anchor=(1.01, 1), loc="upper left")
    ax.tick_params(axis="x", labelrotation=30, labelsize=7)
    return _png(fig)


def _minute_plot(plt: Any, runs: Sequence[Run], win_reason: str | None) -> str | None:
    lost = [
        [r.metrics for r in run.results if "minute" in r.metrics and r.reason != win_reason]
        for run in runs
    ]
    if not any(lost):
        return None
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.5), sharey=True)
    bins = list(range(0, 64, 3))
    for ax, key, what in (
        (axes[0], "minute", "lowest keeper aboard (the brief's minute)"),
        (axes[1], "clock", "highest keeper aboard (the game clock)"),
    ):
        for run, games in zip(runs, lost, strict=True):
            if games:
                ax.hist(
                    [m.get(key, m["minute"]) for m in games],
                    bins=bins,
                    histtype="step",
                    linewidth=1.5,
                    label=run.label,
                )
        ax.invert_xaxis()
        ax.set_xlabel(f"time track when lost: {what}")
    axes[0].set_ylabel("lost games")
    if len(runs) > 1:
        axes[1].legend(fontsize=7)
    return _png(fig)


def _track_curves(run: Run) -> dict[str, list[float | None]]:
    """Mean level of each track at each minute 60..0, over the games still running."""
    names: list[str] = []
    sums: dict[str, list[float]] = {}
    counts = [0] * 61
    for r in run.results:
        trace = r.metrics.get("trace")
        if not trace:
            continue
        names = r.metrics["track_names"]
        for name in names:
            sums.setdefault(name, [0.0] * 61)
        i = 0
        for minute in range(60, -1, -1):
            while i + 1 < len(trace) and trace[i + 1][0] >= minute:
                i += 1
            if trace[i][0] < minute or minute < r.metrics.get("minute", 0):
                continue
            counts[minute] += 1
            for t, name in enumerate(names):
                sums[name][minute] += trace[i][1 + t]
    return {
        name: [s[m] / counts[m] if counts[m] else None for m in range(61)]
        for name, s in sums.items()
    }


def _tracks_plot(plt: Any, runs: Sequence[Run]) -> str | None:
    curves = [(run, _track_curves(run)) for run in runs[:8]]
    curves = [(run, c) for run, c in curves if c]
    if not curves:
        return None
    names = list(curves[0][1])
    fig, axes = plt.subplots(1, len(names), figsize=(4 * len(names), 3.2), sharey=True)
    for ax, name in zip(axes, names, strict=True):
        for run, c in curves:
            xs = [m for m in range(61) if c[name][m] is not None]
            ax.plot(xs, [c[name][m] for m in xs], label=run.label)
        ax.set_title(name)
        ax.invert_xaxis()
        ax.set_xlabel("time track minute")
    axes[0].set_ylabel("mean level (games still running)")
    if len(curves) > 1:
        axes[-1].legend(fontsize=7)
    return _png(fig)


def _decisions_plot(plt: Any, runs: Sequence[Run]) -> str:
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for run in runs[:8]:
        ax.hist(
            [r.decisions for r in run.results],
            bins=30,
            histtype="step",
            linewidth=1.5,
            label=run.label,
        )
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    if len(runs) > 1:
        ax.legend(fontsize=7)
    return _png(fig)


def _table(runs: Sequence[Run]) -> str:
    coop = "wins" in runs[0].summary
    head = ["configuration", "games", "bots"]
    head += (
        ["win rate (95% CI)", "loss causes"]
        if coop
        else ["win rate by seat (95% CI)", "end reasons"]
    )
    head += ["mean decisions", "games/s"]
    rows = []
    for run in runs:
        s = run.summary
        if coop:
            lo, hi = s["win_rate_ci95"]
            rate = f"{s['win_rate']:.1%} ({lo:.1%}–{hi:.1%})"
            causes = ", ".join(
                f"{k}: {v}" for k, v in sorted(s["loss_causes"].items(), key=lambda kv: -kv[1])
            )
        else:
            rate = "<br>".join(
                f"seat {i + 1}: {r:.1%} ({c[0]:.1%}–{c[1]:.1%})"
                for i, (r, c) in enumerate(
                    zip(s["win_rate_by_seat"], s["win_rate_by_seat_ci95"], strict=True)
                )
            )
            causes = ", ".join(f"{k}: {v}" for k, v in s["end_reasons"].items())
        cells = [
            run.label,
            str(s["games"]),
            ", ".join(s["bots"]),
            rate,
            causes,
            f"{s['mean_decisions']:.1f}",
            f"{s['games_per_sec']:.1f}",
        ]
        rows.append(
            "<tr>"
            + "".join(f"<td>{c if '<br>' in c else html.escape(c)}</td>" for c in cells)
            + "</tr>"
        )
    return (
        "<table><tr>"
        + "".join(f"<th>{html.escape(h)}</th>" for h in head)
        + "</tr>"
        + "".join(rows)
        + "</table>"
    )


def write_report(
    path: Path, runs: Sequence[Run], *, title: str, command: str = "", win_reason: str | None = None
) -> None:
    """Write the HTML report of ``runs`` (one per sweep point) to ``path``."""
    plt = _pyplot()
    sections: list[tuple[str, str]] = _win_plots(plt, runs)
    sections.append(("Loss causes / end reasons (share of games)", _causes_plot(plt, runs)))
    minute = _minute_plot(plt, runs, win_reason)
    if minute:
        sections.append(("When games are lost", minute))
    tracks = _tracks_plot(plt, runs)
    if tracks:
        sections.append(("Disaster-track levels over time", tracks))
    sections.append(("Decisions per game", _decisions_plot(plt, runs)))
    body = [f"<h1>{html.escape(title)}</h1>"]
    if command:
        body.append(f"<p><code>{html.escape(command)}</code></p>")
    body.append(_table(runs))
    for heading, png in sections:
        body.append(
            f"<h2>{html.escape(heading)}</h2><img alt='{html.escape(heading)}' "
            f"src='data:image/png;base64,{png}'>"
        )
    style = (
        "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
        "table{border-collapse:collapse;font-size:.85em}td,th{border:1px solid #ccc;"
        "padding:.3em .5em;text-align:left;vertical-align:top}img{max-width:100%}"
    )
    path.write_text(
        f"<!doctype html><html><head><meta charset='utf-8'><title>"
        f"{html.escape(title)}</title><style>{style}</style></head><body>"
        + "\n".join(body)
        + "</body></html>",
        encoding="utf-8",
    )
