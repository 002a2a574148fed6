"""Where the game turned, written: the chart of a :class:`~subtable.sim.turning.Turning` as
SVG, PNG or an HTML page with its moments.

The SVG and the page hold the drawing the web table shows
(:func:`~subtable.sim.chart.turning_figure`): one implementation. Only the PNG is drawn
with matplotlib (the ``lab`` extra, imported lazily with the Agg backend); it reads without
colour too: each curve has its own dash and marker, with its 95% band shaded; the
significant drops are marked ▼ and rises ▲ with their move's number; the legend sits
outside the axes.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from subtable.core.game import Game
from subtable.i18n import Translator
from subtable.sim.report import STYLES, heading, legend_outside, pyplot, write_page
from subtable.sim.turning import Turning, moment_text

#: the chart's looks in a page of its own (the web table's style sheet gives the same)
CHART_STYLE = (
    ".turning-figure{max-width:60rem}.turning-chart{width:100%;height:auto}"
    ".turning-legend,.turning-moments{list-style:none;padding-left:.2rem}"
    ".turning-legend li{display:inline-flex;align-items:center;gap:.3rem;margin-right:1.2rem}"
    ".turning-moments li.drop span{color:#9b1c1c}.turning-moments li.rise span{color:#1b5e20}"
)


def _figure(turning: Turning, game: Game[Any], tr: Translator) -> Any:
    from subtable.words import game_ui

    plt = pyplot()
    ui = game_ui(game)
    fig, ax = plt.subplots(figsize=(9, 4))
    curves = turning.curves()
    for i, (seat, values) in enumerate(curves):
        dash, marker = STYLES[i % len(STYLES)]
        label = tr("lab.turning.team") if seat is None else ui.seat_name(seat, tr)
        lows, highs = turning.band(seat)
        ax.fill_between(
            range(len(values)),
            [v * 100 for v in lows],
            [v * 100 for v in highs],
            alpha=0.15,
            linewidth=0,
        )
        ax.plot(
            range(len(values)),
            [v * 100 for v in values],
            linestyle=dash,
            marker=marker,
            markevery=max(1, len(values) // 12),
            markersize=3,
            linewidth=1.2,
            label=label,
        )
    drawn = dict(curves)
    for moment in turning.shown_moments():
        y = drawn[moment.seat][moment.move] * 100  # on its curve
        symbol = "v" if moment.delta < 0 else "^"
        ax.plot([moment.move], [y], marker=symbol, color="black", markersize=7, linestyle="")
        ax.annotate(
            str(moment.move),
            (moment.move, y),
            textcoords="offset points",
            xytext=(0, -12 if moment.delta < 0 else 6),
            ha="center",
            fontsize=7,
        )
    ax.set_ylim(0, 100)
    ax.set_xlim(0, max(1, len(curves[0][1]) - 1))
    ax.set_xlabel(tr("lab.turning.axis.moves"))
    ax.set_ylabel(tr("lab.turning.axis.chance"))
    title = tr("lab.turning.title", game=ui.title(tr))
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    legend_outside(ax)
    fig.tight_layout()
    return fig


def write_chart(turning: Turning, path: Path, game: Game[Any], tr: Translator) -> None:
    """Write the chart to ``path``: the web table's SVG for a ``.svg`` name, else PNG."""
    if path.suffix.lower() == ".svg":
        from subtable.sim.chart import turning_figure

        svg = turning_figure(turning, game, tr).find(".//svg")
        assert svg is not None
        path.write_text(ET.tostring(svg, encoding="unicode", method="xml"), encoding="utf-8")
        return
    fig = _figure(turning, game, tr)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    pyplot().close(fig)
    path.write_bytes(buf.getvalue())


def moment_rows(turning: Turning, game: Game[Any], tr: Translator) -> list[tuple[str, str]]:
    """Each moment's curve (the team or a seat) and what happened, in the reader's words."""
    from subtable.words import game_ui

    ui = game_ui(game)
    return [
        (
            tr("lab.turning.team") if m.seat is None else ui.seat_name(m.seat, tr),
            moment_text(turning, m, tr, game),
        )
        for m in turning.shown_moments()
    ]


def write_turning_report(
    path: Path, turning: Turning, game: Game[Any], tr: Translator, *, command: str = ""
) -> None:
    """A self-contained HTML page: the web table's chart, its legend and its moments."""
    from subtable.sim.chart import turning_figure
    from subtable.words import game_ui

    title = tr("lab.turning.title", game=game_ui(game).title(tr))
    body = [*heading(title, command), turning_figure(turning, game, tr)]
    write_page(path, title, body, [], tr, CHART_STYLE)
