"""Where the game turned, drawn for the browser: one inline ``<svg>``, no script, no library.

:func:`chart_svg` draws each curve of chances (0–100 %) over the moves with its 95 % band,
a dash and a marker of its own (it reads without colour), the three largest drops (▼) and
rises (▲) of each as links to that moment of the replay, each with a tooltip saying what
happened, and the replay's current step as a dashed line. Everything it writes is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

#: the drawing's size (user units; the page scales it to its width)
WIDTH, HEIGHT = 760, 280
_LEFT, _RIGHT, _TOP, _BOTTOM = 46, 14, 14, 40
#: each curve's stroke: colour, dash (none: solid); the marker's shape tells them apart too
STROKES = (
    ("#0b5cad", ""),
    ("#b3261e", "7 4"),
    ("#2e7d32", "2 3"),
    ("#8a4f00", "10 3 2 3"),
    ("#6a1b9a", "4 2"),
    ("#00695c", "12 4"),
    ("#37474f", "1 2"),
    ("#ad1457", "6 2 1 2"),
)
MARKS = ("circle", "square", "diamond", "triangle", "cross", "circle", "square", "diamond")


@dataclass(frozen=True, slots=True)
class Curve:
    """One curve: its name, the chance after each move (index 0: before the first) and its
    95 % band."""

    label: str
    values: Sequence[float]
    lows: Sequence[float]
    highs: Sequence[float]


@dataclass(frozen=True, slots=True)
class Mark:
    """A moment marked on a curve: the move, the values around it, where it links, what
    happened there (the tooltip)."""

    curve: int
    move: int
    before: float
    after: float
    href: str
    text: str


def _x(move: float, moves: int) -> float:
    return _LEFT + (WIDTH - _LEFT - _RIGHT) * (move / max(1, moves))


def _y(value: float) -> float:
    return _TOP + (HEIGHT - _TOP - _BOTTOM) * (1.0 - max(0.0, min(1.0, value)))


def _ticks(moves: int) -> list[int]:
    """About eight round move numbers along the axis."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if moves / step <= 8:
            return list(range(0, moves + 1, step))
    return [0, moves]


def _marker(kind: str, x: float, y: float, size: float = 3.2) -> str:
    if kind == "square":
        side = 2 * size
        corner = f'x="{x - size:.1f}" y="{y - size:.1f}"'
        return f'<rect {corner} width="{side:.1f}" height="{side:.1f}"/>'
    if kind == "diamond":
        s = size * 1.3
        return (
            f'<path d="M{x:.1f} {y - s:.1f}L{x + s:.1f} {y:.1f}'
            f'L{x:.1f} {y + s:.1f}L{x - s:.1f} {y:.1f}Z"/>'
        )
    if kind == "triangle":
        s = size * 1.3
        return f'<path d="M{x:.1f} {y - s:.1f}L{x + s:.1f} {y + s:.1f}L{x - s:.1f} {y + s:.1f}Z"/>'
    if kind == "cross":
        return (
            f'<path d="M{x - size:.1f} {y - size:.1f}L{x + size:.1f} {y + size:.1f}'
            f'M{x - size:.1f} {y + size:.1f}L{x + size:.1f} {y - size:.1f}" fill="none"/>'
        )
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size:.1f}"/>'


def legend_swatch(index: int) -> str:
    """A small drawing of curve ``index``'s stroke and marker (for the legend beside)."""
    colour, dash = STROKES[index % len(STROKES)]
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    mark = _marker(MARKS[index % len(MARKS)], 15, 6)
    return (
        f'<svg class="swatch" width="30" height="12" viewBox="0 0 30 12" aria-hidden="true">'
        f'<path d="M0 6H30" stroke="{colour}" stroke-width="2"{dashed}/>'
        f'<g fill="{colour}" stroke="{colour}">{mark}</g></svg>'
    )


def chart_svg(
    curves: Sequence[Curve],
    marks: Sequence[Mark],
    *,
    title: str,
    description: str,
    x_label: str,
    y_label: str,
    step: int | None = None,
    uid: str = "turning",
) -> str:
    """The chart as one ``<svg>`` element (see the module's doc)."""
    moves = max((len(c.values) - 1 for c in curves), default=0)
    out = [
        f'<svg class="turning-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="group" '
        f'aria-labelledby="{uid}-title {uid}-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{uid}-title">{escape(title)}</title>',
        f'<desc id="{uid}-desc">{escape(description)}</desc>',
        f'<rect x="{_LEFT}" y="{_TOP}" width="{WIDTH - _LEFT - _RIGHT}" '
        f'height="{HEIGHT - _TOP - _BOTTOM}" fill="#fff" stroke="#8a8f96"/>',
    ]
    # the grid and the axes' numbers
    for pct in (0, 25, 50, 75, 100):
        y = _y(pct / 100)
        out.append(
            f'<path d="M{_LEFT} {y:.1f}H{WIDTH - _RIGHT}" stroke="#d5d9de" '
            f'stroke-dasharray="{"" if pct in (0, 100) else "3 3"}"/>'
        )
        out.append(
            f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" class="tick">{pct}%</text>'
        )
    for move in _ticks(moves):
        x = _x(move, moves)
        out.append(f'<path d="M{x:.1f} {HEIGHT - _BOTTOM}v4" stroke="#8a8f96"/>')
        out.append(
            f'<text x="{x:.1f}" y="{HEIGHT - _BOTTOM + 16}" text-anchor="middle" '
            f'class="tick">{move}</text>'
        )
    out.append(
        f'<text x="{(_LEFT + WIDTH - _RIGHT) / 2:.1f}" y="{HEIGHT - 6}" text-anchor="middle" '
        f'class="axis">{escape(x_label)}</text>'
    )
    out.append(
        f'<text transform="translate(12 {(_TOP + HEIGHT - _BOTTOM) / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle" class="axis">{escape(y_label)}</text>'
    )
    if step is not None and 0 <= step <= moves:
        x = _x(step, moves)
        out.append(
            f'<path class="now" d="M{x:.1f} {_TOP}V{HEIGHT - _BOTTOM}" stroke="#f5a300" '
            f'stroke-width="2" stroke-dasharray="5 3"/>'
        )
    # the bands under the curves, then the curves
    for i, curve in enumerate(curves):
        colour, _dash = STROKES[i % len(STROKES)]
        n = len(curve.values) - 1
        top = [f"{_x(k, moves):.1f},{_y(v):.1f}" for k, v in enumerate(curve.highs)]
        bottom = [f"{_x(k, moves):.1f},{_y(v):.1f}" for k, v in enumerate(curve.lows)][::-1]
        if n >= 1:
            out.append(
                f'<polygon points="{" ".join(top + bottom)}" fill="{colour}" '
                f'fill-opacity="0.12" stroke="none"/>'
            )
    for i, curve in enumerate(curves):
        colour, dash = STROKES[i % len(STROKES)]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        points = " ".join(f"{_x(k, moves):.1f},{_y(v):.1f}" for k, v in enumerate(curve.values))
        out.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" '
            f'stroke-width="2" stroke-linejoin="round"{dashed}><title>{escape(curve.label)}'
            f"</title></polyline>"
        )
        every = max(1, (len(curve.values) - 1) // 12)
        shapes = "".join(
            _marker(MARKS[i % len(MARKS)], _x(k, moves), _y(v), 2.6)
            for k, v in enumerate(curve.values)
            if k % every == 0
        )
        out.append(f'<g fill="{colour}" stroke="{colour}" aria-hidden="true">{shapes}</g>')
    # the moments, each a link to its step of the replay
    for mark in marks:
        x, y = _x(mark.move, moves), _y(mark.after)
        drop = mark.after < mark.before
        s, h = 7.0, 11.2
        # a drop's ▼ under the point, a rise's ▲ above it, unless the frame ends there
        fits_below = y + 4 + h + 12 <= HEIGHT - _BOTTOM
        fits_above = y - 4 - h - 12 >= _TOP
        below = fits_below if drop else not fits_above
        upper, lower = (y + 4, y + 4 + h) if below else (y - 4 - h, y - 4)
        apex, flat = (lower, upper) if drop else (upper, lower)
        shape = f"M{x - s:.1f} {flat:.1f}H{x + s:.1f}L{x:.1f} {apex:.1f}Z"
        label_y = lower + 11 if below else upper - 3
        kind = "drop" if drop else "rise"
        out.append(
            f'<a class="moment {kind}" href="{escape(mark.href)}" data-move="{mark.move}">'
            f"<title>{escape(mark.text)}</title>"
            f'<path d="{shape}"/>'
            f'<text x="{x:.1f}" y="{label_y:.1f}" text-anchor="middle" class="moment-n">'
            f"{mark.move}</text></a>"
        )
    out.append("</svg>")
    return "".join(out)
