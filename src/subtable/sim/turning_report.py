"""Where the game turned, drawn: the chart of a :class:`~subtable.sim.turning.Turning` and an
HTML page with it and its moments.

Needs matplotlib (the ``lab`` extra), imported lazily with the Agg backend. The chart reads
without colour: each curve has its own dash and marker, with its 95% band shaded; drops are
marked ▼ and rises ▲ with their move's number; the legend sits outside the axes.
"""

from __future__ import annotations

import html
import io
from pathlib import Path
from typing import Any

from subtable.core.game import Game
from subtable.i18n import Translator
from subtable.sim.report import STYLES, html_table, legend_outside, png_base64, pyplot, write_page
from subtable.sim.turning import Turning, moment_text


def _figure(turning: Turning, game: Game[Any], tr: Translator) -> Any:
    from subtable.ui.games import game_ui

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
    for moment in turning.moments:
        y = moment.after * 100
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
    """Write the chart to ``path``: SVG for a ``.svg`` name, else PNG."""
    fig = _figure(turning, game, tr)
    fmt = "svg" if path.suffix.lower() == ".svg" else "png"
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=110, bbox_inches="tight")
    pyplot().close(fig)
    path.write_bytes(buf.getvalue())


def moment_rows(turning: Turning, game: Game[Any], tr: Translator) -> list[tuple[str, str]]:
    """Each moment's curve (the team or a seat) and what happened, in the reader's words."""
    from subtable.ui.games import game_ui

    ui = game_ui(game)
    return [
        (
            tr("lab.turning.team") if m.seat is None else ui.seat_name(m.seat, tr),
            moment_text(turning, m, tr, game),
        )
        for m in turning.moments
    ]


def write_turning_report(
    path: Path, turning: Turning, game: Game[Any], tr: Translator, *, command: str = ""
) -> None:
    """A self-contained HTML page: the chart, then every moment with what happened there."""
    from subtable.ui.games import game_ui

    title = tr("lab.turning.title", game=game_ui(game).title(tr))
    body = [f"<h1>{html.escape(title)}</h1>"]
    if command:
        body.append(f"<p><code>{html.escape(command)}</code></p>")
    body.append(f"<p>{html.escape(tr('lab.turning.method', worlds=turning.worlds))}</p>")
    png = png_base64(_figure(turning, game, tr))
    rows = [[html.escape(who), html.escape(text)] for who, text in moment_rows(turning, game, tr)]
    table = html_table([tr("lab.turning.col.curve"), tr("lab.turning.col.moment")], rows)
    write_page(path, title, [*body, table], [(tr("lab.turning.heading"), png)], tr)
