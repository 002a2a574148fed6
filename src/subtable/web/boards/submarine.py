"""Submarine's board for the browser: the sea as SVG, from one seat's view.

The sea is drawn column by column and level by level (the counts come from the
packaged components), under a surface row where the boats stop, between the
two strips off the board's edges. Tokens show their treasure's glyph and their
colour's letters; boats (``B1``) and bathyscaphes (``▼1``) their seat's number.
The side panels (each captain's board, the hand, the piles) are built by
:mod:`subtable.web.boards.submarine_panels`.

Click targets (``data-actions``): ``place``/``to`` → the cell, ``boat N`` → the
surface above column N, ``boat off`` → the strip right of the board, ``move lN``
→ the turn player's bathyscaphes in that cell, ``collect T with …`` → the token
T (all ways of paying on the one token), ``give``/``swap`` → the hand's card (in
the panels). ``done`` and ``no-swap`` stay in the page's action list.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from subtable.core.actions import Action
from subtable.core.events import Event
from subtable.games.submarine.components import Components, default_components
from subtable.games.submarine.view import SubmarineView
from subtable.i18n import Translator
from subtable.web.boards import Choice, Stage
from subtable.web.boards import submarine_stage as stage_mod
from subtable.web.boards.submarine_panels import render_panels
from subtable.web.boards.submarine_parts import (
    Targets,
    abbr,
    bathyscaphe_cells,
    boat_side,
    cell_tokens,
    colour_class,
    css,
    glyph,
    now_column,
    seat_class,
    split_token,
)
from subtable.web.boards.svg import Element, add_class, el, label, svg_root, target, title, to_svg
from subtable.words.submarine import SubmarineWords as SubmarineUI

#: layout, in viewBox units
SIDE = 50  # the strips off the left and right edges
COL_W = 112
HEAD = 26  # the column numbers
TOKEN = 48
GAP = 4
TOKENS_PER_ROW = 2
BATH_W, BATH_H = 34, 20
BATHS_PER_ROW = 3
BOAT_W, BOAT_H = 46, 22
BOATS_PER_ROW = 2

_STYLE = (
    "svg.sub-board{font-family:system-ui,sans-serif}"
    ".sub-board .sky{fill:#dff1fb}.sub-board .strip{fill:#eef2f4}"
    ".sub-board .sea0{fill:#9fd3ec}.sub-board .sea1{fill:#6fb6dc}"
    ".sub-board .sea2{fill:#4b94c4}.sub-board .sea3{fill:#2f6fa3}"
    ".sub-board .cell>.shape{stroke:#ffffff;stroke-opacity:.6;stroke-width:1}"
    ".sub-board .now>.shape{stroke:#ffd166;stroke-width:4;stroke-opacity:1}"
    ".sub-board .num{font-size:15px;font-weight:700;fill:#22313f;text-anchor:middle}"
    ".sub-board .lvl{fill:#ffffff}"
    ".sub-board .token>.shape{stroke:#1a1a1a;stroke-width:1.5}"
    ".sub-board .joker>.shape{stroke-dasharray:4 2;stroke-width:2.5}"
    ".sub-board .glyph{font-size:21px;text-anchor:middle}"
    ".sub-board .ink{font-size:15px;font-weight:700;text-anchor:middle}"
    ".sub-board .piece>.shape{stroke:#1a1a1a;stroke-width:1.5}"
    ".sub-board .piece .ink{font-size:12px}.sub-board .boat .ink{font-size:13px}"
    ".sub-board .me>.shape{stroke:#ffd166;stroke-width:3}"
    ".sub-board .target{cursor:pointer}"
    ".sub-board .target>.shape{stroke:#ff7b00;stroke-width:3;stroke-dasharray:none}"
    ".sub-board .target:hover>.shape,.sub-board .target:focus>.shape"
    "{stroke:#ff3d00;stroke-width:5}"
    ".sub-board .target:focus{outline:none}"
)


class SubmarineBoard:
    """The :class:`~subtable.web.boards.BoardRenderer` of Submarine."""

    name = "submarine"

    def __init__(self, components: Components | None = None) -> None:
        self.c = components or default_components()
        self.ui = SubmarineUI(self.c)

    def board(self, view: SubmarineView, tr: Translator, legal: Sequence[Action]) -> str:
        """The sea, the boats and the bathyscaphes as one ``<svg>``."""
        return to_svg(_Sea(view, tr, Targets(view, legal, self.ui), self.ui).draw())

    def panels(
        self, view: SubmarineView, tr: Translator, legal: Sequence[Action], who: dict[int, str]
    ) -> str:
        """Each captain's board, the viewing seat's hand, the piles, the turn in words."""
        return render_panels(view, tr, Targets(view, legal, self.ui), self.ui, who)

    def stage(self, events: Sequence[Event], tr: Translator) -> Stage:
        """Treasures collected with what was paid, swaps, the changed cells."""
        return stage_mod.stage(self, events, tr)

    def choice(self, action: Action, view: SubmarineView, tr: Translator) -> Choice | None:
        """The ways of paying for one treasure: choices of one row."""
        return stage_mod.choice(self, action, view, tr)

    def unavailable(self, view: SubmarineView, legal: Sequence[Action]) -> list[str]:
        """Treasures beside the acting bathyscaphes that cannot be collected now."""
        return stage_mod.unavailable(self, view, legal)

    def end(self, view: SubmarineView, tr: Translator, who: dict[int, str]) -> str:
        """The scores with the tie-break."""
        return stage_mod.end(self, view, tr, who)


class _Sea:
    """One drawing of the sea (the layout is computed from the view and components)."""

    def __init__(self, view: SubmarineView, tr: Translator, targets: Targets, ui: SubmarineUI):
        self.view, self.tr, self.targets, self.ui = view, tr, targets, ui
        self.columns = view.game.components.columns
        self.levels = view.game.components.levels
        self.seats = range(view.players)
        n = view.players
        strip_rows = max(n, 1)
        surface_rows = math.ceil(max(n, 1) / BOATS_PER_ROW)
        self.surface_h = max(strip_rows, surface_rows) * (BOAT_H + GAP) + 2 * GAP
        self.bath_rows = math.ceil(max(n, 1) / BATHS_PER_ROW)
        self.row_y: list[float] = []
        self.row_h: list[float] = []
        y = HEAD + self.surface_h
        for lv in range(self.levels):
            # room for the packaged setup (L tokens at level L), or for more if a cell holds more
            cap = max(lv + 1, *(len(view.cells[col * self.levels + lv]) for col in
                                range(self.columns)))  # fmt: skip
            h = (
                GAP
                + math.ceil(cap / TOKENS_PER_ROW) * (TOKEN + GAP)
                + self.bath_rows * (BATH_H + GAP)
                + GAP
            )
            self.row_y.append(y)
            self.row_h.append(h)
            y += h
        self.width = 2 * SIDE + self.columns * COL_W
        self.height = y + GAP
        self.now_column = now_column(view)

    def col_x(self, col: int) -> float:
        return SIDE + col * COL_W

    # -------------------------------------------------------------------- draw --
    def draw(self) -> Element:
        tr = self.tr
        root = svg_root(self.width, self.height, cls="sub-board", role="group")
        label(root, tr("sub.board.sea"))
        el(root, "style", _STYLE + css(".sub-board"))
        el(root, "rect", x=0, y=0, width=self.width, height=HEAD + self.surface_h, cls="sky")
        for col in range(self.columns):
            x = self.col_x(col) + COL_W / 2
            el(root, "text", str(col + 1), x=x, y=HEAD - 8, cls="num")
        self._strips(root)
        self._surface(root)
        for col in range(self.columns):
            for lv in range(self.levels):
                self._cell(root, col, lv)
        return root

    def _strips(self, root: Element) -> None:
        tr = self.tr
        top = HEAD
        h = self.height - HEAD
        for side, x in (("left", 0), ("right", self.width - SIDE)):
            g = el(root, "g", cls=f"edge edge-{side}")
            el(g, "rect", x=x, y=top, width=SIDE, height=h, cls="strip shape")
            boats = [s for s in self.seats if boat_side(self.view, s) == side]
            where = tr("sub.board.boat.left") if side == "left" else tr("sub.board.boat.right")
            for i, seat in enumerate(boats):
                self._boat(g, seat, x + (SIDE - BOAT_W) / 2, top + GAP + i * (BOAT_H + GAP))
            if side == "right":  # the way off the board
                el(g, "text", "→", x=x + SIDE / 2, y=HEAD + self.surface_h - 8, cls="num")
            if side == "right" and (acts := self.targets.get("off")):
                target(g, [a.id for a in acts], self.targets.label(acts, tr))
            else:
                title(g, where)
        for lv in range(self.levels):
            y = self.row_y[lv] + self.row_h[lv] / 2 + 6
            t = el(root, "text", str(lv + 1), x=SIDE / 2, y=y, cls="num")
            title(t, tr("sub.board.level", n=lv + 1))

    def _surface(self, root: Element) -> None:
        tr = self.tr
        by_col: dict[int, list[int]] = defaultdict(list)
        for s in self.seats:
            if boat_side(self.view, s) is None:
                by_col[self.view.boats[s]].append(s)
        for col in range(self.columns):
            x = self.col_x(col)
            g = el(root, "g", cls="surface", data_surface=col + 1)
            el(g, "rect", x=x, y=HEAD, width=COL_W, height=self.surface_h, cls="sky shape")
            if col == self.now_column:
                add_class(g, "now")
            for i, seat in enumerate(by_col[col]):
                row, k = divmod(i, BOATS_PER_ROW)
                bx = x + GAP + k * (BOAT_W + GAP * 2) + 4
                self._boat(g, seat, bx, HEAD + GAP + row * (BOAT_H + GAP))
            acts = self.targets.get("boat", col)
            if acts:
                target(g, [a.id for a in acts], self.targets.label(acts, tr))

    def _boat(self, parent: Element, seat: int, x: float, y: float) -> None:
        tr = self.tr
        g = el(parent, "g", cls=f"piece boat {seat_class(seat)}")
        if seat == self.view.seat:
            add_class(g, "me")
        w, h = BOAT_W, BOAT_H
        hull = f"{x},{y} {x + w},{y} {x + w - 7},{y + h} {x + 7},{y + h}"
        el(g, "polygon", points=hull, cls="shape")
        el(g, "text", tr("sub.mark.boat", n=seat + 1), x=x + w / 2, y=y + h - 6, cls="ink")
        title(g, tr("sub.board.boat_of", player=self.ui.seat_name(seat, tr)))

    def _cell(self, root: Element, col: int, lv: int) -> None:
        tr = self.tr
        x, y, h = self.col_x(col), self.row_y[lv], self.row_h[lv]
        g = el(root, "g", cls="cell", data_cell=f"{col + 1}-{lv + 1}")
        el(g, "rect", x=x, y=y, width=COL_W, height=h, cls=f"sea{min(lv, 3)} shape")
        if col == self.now_column:
            add_class(g, "now")
        tokens = cell_tokens(self.view, col, lv)
        left = x + (COL_W - TOKENS_PER_ROW * TOKEN - (TOKENS_PER_ROW - 1) * GAP) / 2
        for i, name in enumerate(tokens):
            row, k = divmod(i, TOKENS_PER_ROW)
            self._token(g, name, left + k * (TOKEN + GAP), y + GAP + row * (TOKEN + GAP))
        here: dict[int, int] = defaultdict(int)
        for s in self.seats:
            for c, lvl in bathyscaphe_cells(self.view, s):
                if (c - 1, lvl - 1) == (col, lv):
                    here[s] += 1
        band = y + h - GAP - self.bath_rows * (BATH_H + GAP)
        for i, (seat, count) in enumerate(sorted(here.items())):
            row, k = divmod(i, BATHS_PER_ROW)
            self._bathyscaphes(g, seat, count, col, lv, x + 3 + k * (BATH_W + 2), band + row * 24)
        acts = self.targets.get("cell", col, lv)
        where = tr("sub.board.cell_at", column=col + 1, level=lv + 1)
        if acts:
            target(g, [a.id for a in acts], self.targets.label(acts, tr))
        else:
            title(g, where)

    def _token(self, parent: Element, name: str, x: float, y: float) -> None:
        tr = self.tr
        kind, colour = split_token(name)
        g = el(parent, "g", cls=f"token {colour_class(colour)}")
        if kind == self.ui.c.joker:
            add_class(g, "joker")
        el(g, "rect", x=x, y=y, width=TOKEN, height=TOKEN, rx=10, cls="shape")
        el(g, "text", glyph(kind, tr), x=x + TOKEN / 2, y=y + 24, cls="glyph")
        el(g, "text", abbr(colour, tr), x=x + TOKEN / 2, y=y + TOKEN - 6, cls="ink")
        acts = self.targets.get("token", name)
        if acts:
            target(g, [a.id for a in acts], self.targets.label(acts, tr))
        else:
            title(g, self.ui.token(name, tr))

    def _bathyscaphes(
        self, parent: Element, seat: int, count: int, col: int, lv: int, x: float, y: float
    ) -> None:
        tr = self.tr
        g = el(parent, "g", cls=f"piece bathyscaphe {seat_class(seat)}")
        if seat == self.view.seat:
            add_class(g, "me")
        el(g, "rect", x=x, y=y, width=BATH_W, height=BATH_H, rx=9, cls="shape")
        mark = tr("sub.mark.bathyscaphe", n=seat + 1)
        fit: dict[str, Any] = {}
        if count > 1:
            mark = f"{mark}×{count}"
            fit = {"textLength": BATH_W - 6, "lengthAdjust": "spacingAndGlyphs"}
        el(g, "text", mark, x=x + BATH_W / 2, y=y + BATH_H - 6, cls="ink", **fit)
        acts = self.targets.get("move", seat, col, lv)
        if acts:
            target(g, [a.id for a in acts], self.targets.label(acts, tr))
        else:
            player = self.ui.seat_name(seat, tr)
            title(
                g,
                tr.plural("sub.board.baths", "sub.board.baths.plural", count, player=player),
            )
