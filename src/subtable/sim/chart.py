"""Where the game turned, drawn: one SVG, built as elements, for every place that shows it.

:func:`turning_figure` is the one drawing of a :class:`~subtable.sim.turning.Turning`: the
web table, the replay and ``subtable replay --report`` show the same ``<svg>``, its legend
and its list of moments (only the links differ: the replay's steps, or the report's own
list). It draws each curve of chances (0–100 %) over the moves with its 95 % band, a dash
and a marker of its own (it reads without colour), each significant drop (▼) and rise (▲)
as a link with a tooltip saying what happened, and the replay's current step as a dashed
line. A curve without a significant moment says so. Moves are numbered as the log that
shows them numbers them (``numbers``). Every text goes through ElementTree, so names and
narration are escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from subtable.core.game import Game
from subtable.i18n import Translator
from subtable.markup import SVG_NS, Element, el, make, num, title
from subtable.sim.turning import Turning, moment_text

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
_DROP, _RISE = "#9b1c1c", "#1b5e20"


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
    """A moment marked on a curve: the move (its position), the values around it, where it
    links (``None``: nowhere), what happened there (the tooltip)."""

    curve: int
    move: int
    before: float
    after: float
    href: str | None
    text: str


@dataclass(frozen=True, slots=True)
class Axes:
    """The chart's words and its horizontal scale: ``numbers[k]`` is position ``k``'s move
    number as the log shows it (0 before the first move)."""

    title: str
    description: str
    x_label: str
    y_label: str
    numbers: Sequence[int]


def _x(number: float, last: int) -> float:
    return _LEFT + (WIDTH - _LEFT - _RIGHT) * (number / max(1, last))


def _y(value: float) -> float:
    return _TOP + (HEIGHT - _TOP - _BOTTOM) * (1.0 - max(0.0, min(1.0, value)))


def _ticks(last: int) -> list[int]:
    """About eight round move numbers along the axis."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if last / step <= 8:
            return list(range(0, last + 1, step))
    return [0, last]


def _n(value: float) -> str:
    """A coordinate, to a tenth."""
    return num(round(value, 1))


def _marker(parent: Element, kind: str, x: float, y: float, size: float = 3.2) -> None:
    s = size * 1.3
    if kind == "square":
        side = 2 * size
        el(parent, "rect", x=round(x - size, 1), y=round(y - size, 1), width=side, height=side)
    elif kind == "diamond":
        d = f"M{_n(x)} {_n(y - s)}L{_n(x + s)} {_n(y)}L{_n(x)} {_n(y + s)}L{_n(x - s)} {_n(y)}Z"
        el(parent, "path", d=d)
    elif kind == "triangle":
        d = f"M{_n(x)} {_n(y - s)}L{_n(x + s)} {_n(y + s)}L{_n(x - s)} {_n(y + s)}Z"
        el(parent, "path", d=d)
    elif kind == "cross":
        lo_x, hi_x, lo_y, hi_y = _n(x - size), _n(x + size), _n(y - size), _n(y + size)
        d = f"M{lo_x} {lo_y}L{hi_x} {hi_y}M{lo_x} {hi_y}L{hi_x} {lo_y}"
        el(parent, "path", d=d, fill="none")
    else:
        el(parent, "circle", cx=round(x, 1), cy=round(y, 1), r=round(size, 1))


def legend_swatch(index: int) -> Element:
    """A small drawing of curve ``index``'s stroke and marker (for the legend beside)."""
    colour, dash = STROKES[index % len(STROKES)]
    svg = make("svg", cls="swatch", width=30, height=12, viewBox="0 0 30 12", aria_hidden="true")
    el(svg, "path", d="M0 6H30", stroke=colour, stroke_width=2, stroke_dasharray=dash or None)
    _marker(el(svg, "g", fill=colour, stroke=colour), MARKS[index % len(MARKS)], 15, 6)
    return svg


def _frame(svg: Element, axes: Axes, step: int | None) -> None:
    """The frame, the grid, the axes' numbers and words, the replay's current step."""
    last = axes.numbers[-1] if axes.numbers else 0
    right, bottom = WIDTH - _RIGHT, HEIGHT - _BOTTOM
    el(
        svg,
        "rect",
        x=_LEFT,
        y=_TOP,
        width=right - _LEFT,
        height=bottom - _TOP,
        fill="#fff",
        stroke="#8a8f96",
    )
    for pct in (0, 25, 50, 75, 100):
        y = _y(pct / 100)
        dash = None if pct in (0, 100) else "3 3"
        el(svg, "path", d=f"M{_LEFT} {_n(y)}H{right}", stroke="#d5d9de", stroke_dasharray=dash)
        el(
            svg,
            "text",
            f"{pct}%",
            x=_LEFT - 6,
            y=round(y + 4, 1),
            text_anchor="end",
            cls="tick",
            font_size=11,
        )
    for number in _ticks(last):
        x = _x(number, last)
        el(svg, "path", d=f"M{_n(x)} {bottom}v4", stroke="#8a8f96")
        el(
            svg,
            "text",
            str(number),
            x=round(x, 1),
            y=bottom + 16,
            text_anchor="middle",
            cls="tick",
            font_size=11,
        )
    el(
        svg,
        "text",
        axes.x_label,
        x=(_LEFT + right) / 2,
        y=HEIGHT - 6,
        text_anchor="middle",
        cls="axis",
        font_size=12,
    )
    el(
        svg,
        "text",
        axes.y_label,
        transform=f"translate(12 {_n((_TOP + bottom) / 2)}) rotate(-90)",
        text_anchor="middle",
        cls="axis",
        font_size=12,
    )
    if step is not None and 0 <= step < len(axes.numbers):
        x = _x(axes.numbers[step], last)
        el(
            svg,
            "path",
            cls="now",
            d=f"M{_n(x)} {_TOP}V{bottom}",
            stroke="#f5a300",
            stroke_width=2,
            stroke_dasharray="5 3",
        )


def _points(xs: Sequence[float], values: Sequence[float]) -> list[str]:
    return [f"{_n(x)},{_n(_y(v))}" for x, v in zip(xs, values, strict=True)]


def _curves(svg: Element, curves: Sequence[Curve], xs: Sequence[float]) -> None:
    """The bands under the curves, then the curves with their markers."""
    for i, curve in enumerate(curves):
        if len(curve.values) > 1:
            outline = _points(xs, curve.highs) + _points(xs, curve.lows)[::-1]
            colour = STROKES[i % len(STROKES)][0]
            el(
                svg,
                "polygon",
                points=" ".join(outline),
                fill=colour,
                fill_opacity="0.12",
                stroke="none",
            )
    for i, curve in enumerate(curves):
        colour, dash = STROKES[i % len(STROKES)]
        line = el(
            svg,
            "polyline",
            points=" ".join(_points(xs, curve.values)),
            fill="none",
            stroke=colour,
            stroke_width=2,
            stroke_linejoin="round",
            stroke_dasharray=dash or None,
        )
        title(line, curve.label)
        every = max(1, (len(curve.values) - 1) // 12)
        shapes = el(svg, "g", fill=colour, stroke=colour, aria_hidden="true")
        for k, v in enumerate(curve.values):
            if k % every == 0:
                _marker(shapes, MARKS[i % len(MARKS)], xs[k], _y(v), 2.6)


def _moment(svg: Element, mark: Mark, x: float, number: int) -> None:
    """A moment's ▼ or ▲ with its move's number: a link when it has one."""
    y = _y(mark.after)
    drop = mark.after < mark.before
    s, h = 7.0, 11.2
    # a drop's ▼ under the point, a rise's ▲ above it, unless the frame ends there
    fits_below = y + 4 + h + 12 <= HEIGHT - _BOTTOM
    fits_above = y - 4 - h - 12 >= _TOP
    below = fits_below if drop else not fits_above
    upper, lower = (y + 4, y + 4 + h) if below else (y - 4 - h, y - 4)
    apex, flat = (lower, upper) if drop else (upper, lower)
    kind = "drop" if drop else "rise"
    tag = "a" if mark.href is not None else "g"
    box = el(svg, tag, cls=f"moment {kind}", href=mark.href, data_move=mark.move)
    title(box, mark.text)
    shape = f"M{_n(x - s)} {_n(flat)}H{_n(x + s)}L{_n(x)} {_n(apex)}Z"
    el(box, "path", d=shape, fill=_DROP if drop else _RISE, stroke="#fff")
    label_y = lower + 11 if below else upper - 3
    el(
        box,
        "text",
        str(number),
        x=round(x, 1),
        y=round(label_y, 1),
        text_anchor="middle",
        cls="moment-n",
        font_size=11,
        font_weight=700,
    )


def chart_svg(
    curves: Sequence[Curve],
    marks: Sequence[Mark],
    axes: Axes,
    *,
    step: int | None = None,
    uid: str = "turning",
) -> Element:
    """The chart as one ``<svg>`` element (see the module's doc)."""
    svg = make(
        "svg",
        cls="turning-chart",
        viewBox=f"0 0 {WIDTH} {HEIGHT}",
        role="group",
        aria_labelledby=f"{uid}-title {uid}-desc",
        xmlns=SVG_NS,
    )
    el(svg, "title", axes.title, id=f"{uid}-title")
    el(svg, "desc", axes.description, id=f"{uid}-desc")
    _frame(svg, axes, step)
    last = axes.numbers[-1] if axes.numbers else 0
    xs = [_x(n, last) for n in axes.numbers]
    _curves(svg, curves, xs)
    for mark in marks:
        _moment(svg, mark, xs[mark.move], axes.numbers[mark.move])
    return svg


# -- the figure: the chart, its legend and its moments -------------------------------------
def _curve_label(turning: Turning, seat: int | None, tr: Translator, game: Game[Any]) -> str:
    """A curve's name: the team's in a cooperative game (whoever's view it is), else the
    seat's."""
    from subtable.words import game_ui

    if turning.team or seat is None:
        return tr("lab.turning.team")
    return game_ui(game).seat_name(seat, tr)


def _chosen(turning: Turning, seat: int | None) -> list[tuple[int | None, Sequence[float]]]:
    """The curves drawn: as seen by ``seat``, its own curve; else the team's or each seat's."""
    return [(seat, turning.series[seat])] if seat is not None else list(turning.curves())


def turning_figure(
    turning: Turning,
    game: Game[Any],
    tr: Translator,
    *,
    seat: int | None = None,
    step: int | None = None,
    numbers: Sequence[int] | None = None,
    href: Callable[[int], str | None] = lambda _move: None,
) -> Element:
    """The chart with its legend and its moments, as a ``<div>`` (see the module's doc):
    ``seat``: as seen by that seat (its own curve), ``step``: the replay's position,
    ``numbers``: each position's move number in the log (default: its index), ``href``:
    where a moment at a position links."""
    from subtable.words import game_ui
    from subtable.words.advice import chance

    numbers = list(range(len(turning.moves) + 1)) if numbers is None else list(numbers)
    chosen = _chosen(turning, seat)
    index = {s: i for i, (s, _values) in enumerate(chosen)}
    curves = []
    for s, values in chosen:
        lows, highs = turning.band(s)
        curves.append(Curve(_curve_label(turning, s, tr, game), values, lows, highs))
    moments = sorted(
        (m for s, _values in chosen for m in turning.moments_of(s)),
        key=lambda m: (m.move, -1 if m.seat is None else m.seat),
    )
    drawn = dict(chosen)
    marks = [
        Mark(  # on its curve, pointing the way the fresh worlds measured the change
            index[m.seat],
            m.move,
            drawn[m.seat][m.move] - m.delta,
            drawn[m.seat][m.move],
            href(m.move),
            moment_text(turning, m, tr, game, numbers[m.move]),
        )
        for m in moments
    ]
    description = " ".join(
        tr(
            "web.turning.desc",
            curve=c.label,
            start=chance(c.values[0], tr),
            end=chance(c.values[-1], tr),
        )
        for c in curves
    )
    axes = Axes(
        tr("lab.turning.title", game=game_ui(game).title(tr)),
        description,
        tr("lab.turning.axis.moves"),
        tr("lab.turning.axis.chance"),
        numbers,
    )
    body = make("div", cls="turning-body")
    method = tr("web.turning.method", worlds=turning.worlds, confirm=turning.confirm)
    el(body, "p", method, cls="turning-method")
    el(body, "div", cls="turning-figure").append(chart_svg(curves, marks, axes, step=step))
    legend = el(body, "ul", cls="turning-legend", aria_label=tr("web.turning.curves"))
    for i, curve in enumerate(curves):
        item = el(legend, "li")
        item.append(legend_swatch(i))
        item[-1].tail = " " + curve.label
    el(body, "h3", tr("web.turning.moments"), cls="small-h")
    _moment_list(body, marks, curves, tr)
    if any(mark.href is not None for mark in marks):
        el(body, "p", tr("web.turning.choose"), cls="turning-choose")
    return body


def _moment_list(
    body: Element, marks: Sequence[Mark], curves: Sequence[Curve], tr: Translator
) -> None:
    """The moments in words, each a link where it has one; or a line saying there is none."""
    if not marks:
        el(body, "p", tr("lab.turning.none"), cls="turning-none")
        return
    items = el(body, "ul", cls="turning-moments")
    for mark in marks:
        kind = "drop" if mark.after < mark.before else "rise"
        item = el(items, "li", cls=kind)
        sign = el(item, "span", "▼" if kind == "drop" else "▲", aria_hidden="true")
        who = f"{curves[mark.curve].label} — " if len(curves) > 1 else ""
        if mark.href is None:
            sign.tail = " " + who + mark.text
        else:
            sign.tail = " "
            el(item, "a", who + mark.text, href=mark.href)
