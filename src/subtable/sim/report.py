"""A self-contained HTML report of a simulation (plots embedded as base64 PNG).

Needs matplotlib (the ``lab`` extra); it is imported lazily and drawn with the
Agg backend, so no display is needed. Every word of the report is in the
reader's language (``tr``); end reasons are named, never shown as codes. The
plots are read without colour too: each end reason has its own hatching and
its share printed on the bar, each line its own dash and marker; legends sit
outside the axes, so they hide no data.
"""

from __future__ import annotations

import base64
import io
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from subtable.core.errors import SubtableError
from subtable.i18n import Translator, translator
from subtable.markup import Element, el, make
from subtable.sim.lab import Run
from subtable.sim.metrics import GameMetrics
from subtable.sim.runner import team_wins
from subtable.sim.stats import wilson_interval
from subtable.sim.words import (
    end_reason,
    game_title,
    number,
    percent,
    point_label,
    rate_ci,
    sweep_key,
)

if TYPE_CHECKING:
    from subtable.sim.compare import Comparison

#: a table's cell: its text, or its lines
Cell = str | Sequence[str]
#: one hatching per end reason, so the causes read in grey and on paper
HATCHES = ("", "///", "...", "xx", "\\\\", "++", "oo", "--", "**", "||", "OO")
#: one (dash, marker) per line
STYLES = (("-", "o"), ("--", "s"), (":", "^"), ("-.", "D"), ("-", "v"), ("--", "P"), (":", "X"))


def pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        from subtable.sim.extras import install_hint

        raise SubtableError(f"--report needs matplotlib: {install_hint('lab')}") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def png_base64(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    pyplot().close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def legend_outside(ax: Any, **kwargs: Any) -> None:
    """A legend right of the axes: it never covers a bar or a line."""
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, **kwargs)


def _rate(run: Run) -> tuple[float, float, float]:
    """The team's (or player 1's) win rate and its Wilson interval."""
    s = run.summary
    n = s["games"]
    wins = s["wins"] if "wins" in s else s["wins_by_seat"][0]
    lo, hi = wilson_interval(wins, n)
    return (wins / n if n else 0.0, lo, hi)


def _fair_share(run: Run) -> float:
    """Each player's share of the wins if no seat had an edge: 1/players."""
    return 1 / max(1, len(run.summary["wins_by_seat"]))


def _win_plots(plt: Any, runs: Sequence[Run], tr: Translator) -> list[tuple[str, str]]:
    """Win rate with 95% CIs against each swept key (one line per other setting); in a
    competitive game, the fair share (1/players) as a dashed line."""
    coop = "wins" in runs[0].summary
    what = tr("lab.plot.team_rate") if coop else tr("lab.plot.player1_rate")
    keys = list(runs[0].point)
    out = []
    if not keys:
        fig, ax = plt.subplots(figsize=(5, 3.2))
        if coop:
            rate, lo, hi = _rate(runs[0])
            label = f"{tr('lab.all_games')}\n{percent(rate, tr)}"
            ax.bar([label], [rate], yerr=[[rate - lo], [hi - rate]], capsize=6)
        else:
            s = runs[0].summary
            rates = s.get("win_rate_by_seat", [])
            cis = s.get("win_rate_by_seat_ci95", [])
            labels = [
                f"{tr('lab.seat', n=i + 1)}\n{b}\n{percent(r, tr)}"
                for i, (b, r) in enumerate(zip(s["bots"], rates, strict=True))
            ]
            ax.bar(
                labels,
                rates,
                yerr=[
                    [r - c[0] for r, c in zip(rates, cis, strict=True)],
                    [c[1] - r for r, c in zip(rates, cis, strict=True)],
                ],
                capsize=6,
                label=tr("lab.plot.win_rate"),
            )
            share = _fair_share(runs[0])
            ax.axhline(
                share,
                color="black",
                linestyle="--",
                linewidth=1,
                label=tr("lab.plot.fair_share", players=len(rates)),
            )
            what = tr("lab.plot.rate_by_seat")
            legend_outside(ax)
        ax.set_ylabel(what)
        ax.set_ylim(0, 1)
        out.append((tr("lab.heading.win_rate", what=what), png_base64(fig)))
        return out
    for key in keys:
        others = [k for k in keys if k != key]
        lines: dict[tuple[Any, ...], list[Run]] = {}
        for r in runs:
            lines.setdefault(tuple(r.point[k] for k in others), []).append(r)
        fig, ax = plt.subplots(figsize=(6, 3.5))
        for i, (rest, group) in enumerate(lines.items()):
            xs = [str(r.point[key]) for r in group]
            stats = [_rate(r) for r in group]
            ys = [s[0] for s in stats]
            err = [[s[0] - s[1] for s in stats], [s[2] - s[0] for s in stats]]
            label = " ".join(f"{k}={v}" for k, v in zip(others, rest, strict=True))
            dash, marker = STYLES[i % len(STYLES)]
            ax.errorbar(
                xs, ys, yerr=err, linestyle=dash, marker=marker, capsize=4, label=label or what
            )
            if not coop:
                shares = [_fair_share(r) for r in group]
                ax.plot(
                    xs,
                    shares,
                    color="black",
                    linestyle="--",
                    linewidth=1,
                    marker="_",
                    label=tr("lab.plot.fair_share_any") if i == 0 else None,
                )
        ax.set_xlabel(sweep_key(key, tr))
        ax.set_ylabel(what)
        ax.set_ylim(0, 1)
        if others or not coop:
            legend_outside(ax)
        out.append((tr("lab.heading.win_rate_by", key=sweep_key(key, tr)), png_base64(fig)))
    return out


def _causes_plot(plt: Any, runs: Sequence[Run], game: str, tr: Translator) -> str:
    """How the games ended: one horizontal bar per configuration (its name beside it, so
    long names never overlap), one hatching per end reason, shares printed on the bars."""
    causes = sorted({r.reason for run in runs for r in run.results})
    fig, ax = plt.subplots(figsize=(8, 0.6 * len(runs) + 1.6))
    left = [0.0] * len(runs)
    labels = [point_label(run.point, tr) for run in runs]
    ys = list(range(len(runs)))
    for i, cause in enumerate(causes):
        share = [
            Counter(r.reason for r in run.results)[cause] / max(1, len(run.results)) for run in runs
        ]
        bars = ax.barh(
            ys,
            share,
            left=left,
            hatch=HATCHES[i % len(HATCHES)],
            edgecolor="black",
            linewidth=0.5,
            label=end_reason(game, cause, tr),
        )
        ax.bar_label(
            bars,
            labels=[percent(x, tr) if x >= 0.06 else "" for x in share],
            label_type="center",
            fontsize=7,
            bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "linewidth": 0},
        )
        left = [a + b for a, b in zip(left, share, strict=True)]
    ax.set_yticks(ys, labels=labels, fontsize=8)
    ax.invert_yaxis()  # the first configuration on top, as in the table
    ax.set_xlim(0, 1)
    ax.set_xlabel(tr("lab.plot.share"))
    legend_outside(ax, title=tr("lab.plot.end_reason"), title_fontsize=7)
    return png_base64(fig)


def _minute_plot(
    plt: Any, runs: Sequence[Run], win_reason: str | None, tr: Translator
) -> str | None:
    lost = [
        [r.metrics for r in run.results if "minute" in r.metrics and r.reason != win_reason]
        for run in runs
    ]
    if not any(lost):
        return None
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    bins = list(range(0, 64, 3))
    for ax, key, title in (
        (axes[0], "minute", tr("lab.plot.lead_keeper")),
        (axes[1], "clock", tr("lab.plot.last_keeper")),
    ):
        for i, (run, games) in enumerate(zip(runs, lost, strict=True)):
            if games:
                ax.hist(
                    [m.get(key, m["minute"]) for m in games],
                    bins=bins,
                    histtype="step",
                    linewidth=1.5,
                    linestyle=STYLES[i % len(STYLES)][0],
                    label=point_label(run.point, tr),
                )
        ax.invert_xaxis()
        ax.set_title(title, fontsize=9)
        ax.set_xlabel(tr("lab.plot.time_track"))
    axes[0].set_ylabel(tr("lab.plot.lost_games"))
    if len(runs) > 1:
        legend_outside(axes[1])
    fig.tight_layout()
    return png_base64(fig)


def _track_curves(run: Run) -> dict[str, list[float | None]]:
    """Mean level of each track at each minute 60..0, over the games still running."""
    names: list[str] = []
    sums: dict[str, list[float]] = {}
    counts = [0] * 61
    for r in run.results:
        trace = r.metrics.get("trace")
        if not trace:
            continue
        names = r.metrics.get("track_names", [])
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


def _tracks_plot(plt: Any, runs: Sequence[Run], tr: Translator) -> str | None:
    curves = [(run, _track_curves(run)) for run in runs[:8]]
    curves = [(run, c) for run, c in curves if c]
    if not curves:
        return None
    names = list(curves[0][1])
    metrics = GameMetrics.of(runs[0].config.game)
    fig, axes = plt.subplots(1, len(names), figsize=(4 * len(names), 3.4), sharey=True)
    for ax, name in zip(axes, names, strict=True):
        for i, (run, c) in enumerate(curves):
            xs = [m for m in range(61) if c[name][m] is not None]
            dash, _ = STYLES[i % len(STYLES)]
            ax.plot(xs, [c[name][m] for m in xs], linestyle=dash, label=point_label(run.point, tr))
        ax.set_title(metrics.label(name, tr), fontsize=9)
        ax.invert_xaxis()
        ax.set_xlabel(tr("lab.plot.time_track"))
    axes[0].set_ylabel(tr("lab.plot.mean_level"))
    if len(curves) > 1:
        legend_outside(axes[-1])
    fig.tight_layout()
    return png_base64(fig)


def _decisions_plot(plt: Any, runs: Sequence[Run], tr: Translator) -> str:
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for i, run in enumerate(runs[:8]):
        ax.hist(
            [r.decisions for r in run.results],
            bins=30,
            histtype="step",
            linewidth=1.5,
            linestyle=STYLES[i % len(STYLES)][0],
            label=point_label(run.point, tr),
        )
    ax.set_xlabel(tr("lab.plot.decisions"))
    ax.set_ylabel(tr("lab.plot.games"))
    if len(runs) > 1:
        legend_outside(ax)
    return png_base64(fig)


def _table(runs: Sequence[Run], game: str, tr: Translator) -> Element:
    coop = "wins" in runs[0].summary
    head = [tr("lab.col.configuration"), tr("lab.col.games"), tr("lab.bots")]
    head += (
        [tr("lab.col.win_rate"), tr("lab.col.loss_causes")]
        if coop
        else [tr("lab.col.win_rate_by_seat"), tr("lab.col.end_reasons")]
    )
    head += [tr("lab.mean_decisions"), tr("lab.col.speed")]
    rows: list[list[Cell]] = []
    for run in runs:
        s = run.summary
        team = team_wins(s)
        if team is not None:
            rate: Cell = rate_ci(team.rate, team.lo, team.hi, tr)
            causes = sorted(team.loss_causes.items(), key=lambda kv: -kv[1])
        else:
            rate = [
                tr(
                    "lab.seat_rate",
                    seat=tr("lab.seat", n=i + 1),
                    rate=rate_ci(r, c[0], c[1], tr),
                )
                for i, (r, c) in enumerate(
                    zip(
                        s.get("win_rate_by_seat", []),
                        s.get("win_rate_by_seat_ci95", []),
                        strict=True,
                    )
                )
            ]
            causes = list(s["end_reasons"].items())
        reasons = [
            tr("lab.reason_count", reason=end_reason(game, k, tr), count=v) for k, v in causes
        ]
        cells: list[Cell] = [
            point_label(run.point, tr),
            str(s["games"]),
            ", ".join(s["bots"]),
            rate,
            reasons,
            number(s["mean_decisions"], tr),
            number(s["games_per_sec"], tr),
        ]
        rows.append(cells)
    return html_table(head, rows)


def write_report(
    path: Path,
    runs: Sequence[Run],
    *,
    game: str,
    tr: Translator | None = None,
    command: str = "",
    win_reason: str | None = None,
) -> None:
    """Write the HTML report of ``runs`` (one per sweep point) of ``game`` to ``path``."""
    tr = tr or translator("en")
    plt = pyplot()
    sections: list[tuple[str, str]] = _win_plots(plt, runs, tr)
    sections += _run_plots(plt, runs, game, win_reason, tr)
    title = tr("lab.report.title", game=game_title(game, tr))
    body = heading(title, command)
    body.append(_table(runs, game, tr))
    write_page(path, title, body, sections, tr)


def heading(title: str, command: str = "") -> list[Element]:
    """A report's title and, when given, the command that made it."""
    body = [make("h1", title)]
    if command:
        line = make("p")
        el(line, "code", command)
        body.append(line)
    return body


def _run_plots(
    plt: Any, runs: Any, game: str, win_reason: str | None, tr: Translator
) -> list[tuple[str, str]]:
    """The plots of every report: loss causes, the minute of a loss, the tracks, decisions."""
    sections = [(tr("lab.heading.causes"), _causes_plot(plt, runs, game, tr))]
    minute = _minute_plot(plt, runs, win_reason, tr)
    if minute:
        sections.append((tr("lab.heading.when_lost"), minute))
    tracks = _tracks_plot(plt, runs, tr)
    if tracks:
        sections.append((tr("lab.heading.tracks"), tracks))
    sections.append((tr("lab.heading.decisions"), _decisions_plot(plt, runs, tr)))
    return sections


def write_page(
    path: Path,
    title: str,
    body: list[Element],
    sections: list[tuple[str, str]],
    tr: Translator,
    style: str = "",
) -> None:
    """One self-contained HTML page: ``body``, then each (heading, PNG in base64) plot;
    ``style``: more CSS for what ``body`` holds."""
    page = make("html", lang=tr.lang)
    head = el(page, "head")
    el(head, "meta", charset="utf-8")
    el(head, "title", title)
    el(head, "style", PAGE_STYLE + style)
    root = el(page, "body")
    root.extend(body)
    for name, png in sections:
        el(root, "h2", name)
        el(root, "img", alt=name, src=f"data:image/png;base64,{png}")
    markup = ET.tostring(page, encoding="unicode", method="html")
    path.write_text("<!doctype html>\n" + markup, encoding="utf-8")


#: the report page's looks
PAGE_STYLE = (
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
    "table{border-collapse:collapse;font-size:.85em}td,th{border:1px solid #ccc;"
    "padding:.3em .5em;text-align:left;vertical-align:top}img{max-width:100%}"
)


# -- paired comparisons ---------------------------------------------------------------------
def _compare_rates_plot(
    plt: Any, runs: Sequence[Run], stats: Sequence[Any], game: str, tr: Translator
) -> str:
    """The baseline's and the variant's rates side by side, figure by figure, with their
    Wilson intervals."""
    from subtable.sim.words import figure_name

    fig, ax = plt.subplots(figsize=(8, 0.5 * len(stats) + 1.6))
    ys = list(range(len(stats)))
    n = [run.summary["games"] for run in runs]
    for k, (label, hatch) in enumerate(
        ((tr("lab.compare.baseline"), ""), (tr("lab.compare.variant"), "///"))
    ):
        rates = [st.base_rate if k == 0 else st.variant_rate for st in stats]
        cis = [wilson_interval(round(r * n[k]), n[k]) for r in rates]
        ax.barh(
            [y + (k - 0.5) * 0.4 for y in ys],
            rates,
            height=0.4,
            xerr=[
                [r - c[0] for r, c in zip(rates, cis, strict=True)],
                [c[1] - r for r, c in zip(rates, cis, strict=True)],
            ],
            capsize=3,
            hatch=hatch,
            edgecolor="black",
            linewidth=0.5,
            label=label,
        )
    ax.set_yticks(ys, labels=[figure_name(game, st.what, tr) for st in stats], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel(tr("lab.plot.share"))
    legend_outside(ax)
    return png_base64(fig)


def _compare_diff_plot(plt: Any, stats: Sequence[Any], game: str, tr: Translator) -> str:
    """Each figure's difference (variant − baseline, in points) with its paired interval
    and, beside it, the interval two independent runs of the same size would give."""
    from subtable.sim.words import figure_name

    fig, ax = plt.subplots(figsize=(8, 0.5 * len(stats) + 1.6))
    ys = list(range(len(stats)))
    diffs = [st.diff * 100 for st in stats]
    ax.errorbar(
        diffs,
        [y - 0.15 for y in ys],
        xerr=[
            [d - st.ci95[0] * 100 for d, st in zip(diffs, stats, strict=True)],
            [st.ci95[1] * 100 - d for d, st in zip(diffs, stats, strict=True)],
        ],
        fmt="o",
        capsize=4,
        linewidth=2,
        label=tr("lab.compare.plot.paired"),
    )
    ax.errorbar(
        diffs,
        [y + 0.15 for y in ys],
        xerr=[
            [d - st.unpaired_ci95[0] * 100 for d, st in zip(diffs, stats, strict=True)],
            [st.unpaired_ci95[1] * 100 - d for d, st in zip(diffs, stats, strict=True)],
        ],
        fmt="s",
        capsize=4,
        linestyle="none",
        linewidth=1,
        color="grey",
        label=tr("lab.compare.plot.independent"),
    )
    ax.axvline(0, color="black", linewidth=1, linestyle="--")
    ax.set_yticks(ys, labels=[figure_name(game, st.what, tr) for st in stats], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(tr("lab.compare.plot.diff"))
    legend_outside(ax)
    return png_base64(fig)


def _compare_table(
    stats: Sequence[Any], comparison: Comparison, game: str, tr: Translator
) -> Element:
    from subtable.sim.words import compare_cells, compare_head

    head = compare_head(comparison, tr)
    rows = [list(compare_cells(game, st, tr)) for st in stats]
    return html_table(head, rows)


def html_table(head: Sequence[str], rows: Sequence[Sequence[Cell]]) -> Element:
    """A table of text: ``head``, then each row's cells (a cell of lines: one a line)."""
    table = make("table")
    top = el(table, "tr")
    for name in head:
        el(top, "th", name)
    for cells in rows:
        row = el(table, "tr")
        for cell in cells:
            lines = [cell] if isinstance(cell, str) else list(cell)
            td = el(row, "td", lines[0] if lines else None)
            for line in lines[1:]:
                el(td, "br").tail = line
    return table


def write_compare_report(
    path: Path,
    runs: Sequence[Run],
    comparison: Comparison,
    *,
    game: str,
    tr: Translator | None = None,
    command: str = "",
    win_reason: str | None = None,
) -> None:
    """Write the HTML report of a comparison: the baseline and the variant (``runs``) side
    by side, and every figure's difference with its paired and independent intervals."""
    from subtable.sim.compare import stats_of

    tr = tr or translator("en")
    plt = pyplot()
    stats = stats_of(comparison)
    sections: list[tuple[str, str]] = [
        (tr("lab.compare.heading.rates"), _compare_rates_plot(plt, runs, stats, game, tr)),
        (tr("lab.compare.heading.diff"), _compare_diff_plot(plt, stats, game, tr)),
        *_run_plots(plt, runs, game, win_reason, tr),
    ]
    title = tr("lab.compare.report.title", game=game_title(game, tr))
    body = heading(title, command)
    for label, run in zip(
        (tr("lab.compare.baseline"), tr("lab.compare.variant")), runs, strict=True
    ):
        from subtable.core.variants import describe

        pieces = describe(run.summary.get("variant", {}))
        text = ", ".join(pieces) if pieces else tr("lab.compare.packaged")
        line = make("p")
        el(line, "b", label).tail = ": "
        el(line, "code", text)
        body.append(line)
    body.append(_table(runs, game, tr))
    method = (
        tr("lab.compare.method.paired", games=comparison["games"])
        if comparison["paired"]
        else tr("lab.compare.method.independent", games=comparison["games"])
    )
    body.append(make("h2", tr("lab.compare.heading.table")))
    body.append(make("p", method))
    body.append(_compare_table(stats, comparison, game, tr))
    write_page(path, title, body, sections, tr)
