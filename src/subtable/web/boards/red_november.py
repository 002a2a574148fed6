"""Red November's board as SVG, drawn from one seat's view: :class:`RedNovemberBoard`.

The drawing is a group of SVG elements that the page lays out: the submarine (ten
rooms, their hatches, fire, water and gnomes, the Sea below the keel); the three
Disaster Tracks and the decks with the Grog stash, beside it on a desktop; the Time
Track under both, in three rows (and in six narrower rows, which a phone shows
instead, so that every part keeps a readable size at 360 px). Colours come from
CSS classes (a default ``<style>`` is embedded; the page may override it):

``room``, ``sea``, ``hatch`` (+ ``blocked``), ``fire``, ``water low``/``water high``,
``gnome g1``…``g8`` (+ ``fainted``, ``active``, ``you``), ``keeper``, ``ghost``,
``space`` (+ ``event``, ``item``), ``token``, ``track-cell`` (+ ``reset``, ``end``,
``level``), ``pile``, ``target`` (clickable).

Every marker has a letter, a number or a shape besides its colour: gnomes
carry their number, a fainted gnome lies down with a "z", blocked hatches an X,
fire a flame, water a band whose height tells low from high plus ``~``/``≈``.
"""

from __future__ import annotations

from collections.abc import Sequence

from subtable.core.actions import Action
from subtable.core.events import Event
from subtable.games.red_november.components import SEA, Components, default_components
from subtable.games.red_november.view import GnomeView, RedNovemberView
from subtable.i18n import Translator
from subtable.web.boards import Choice, Stage
from subtable.web.boards import red_november_panels as panels_mod
from subtable.web.boards import red_november_stage as stage_mod
from subtable.web.boards import red_november_tracks as tracks
from subtable.web.boards.red_november_layout import (
    MARGIN,
    NARROW,
    NARROW_COLUMNS,
    SIDE_W,
    SUB_W,
    TIME_COLUMNS,
    WIDTH,
    Box,
    Targets,
    actions_text,
    board_targets,
    described,
    exterior_spot,
    fold_lines,
    hatch_spot,
    room_box,
    text_in,
)
from subtable.web.boards.red_november_legend import legend
from subtable.web.boards.svg import (
    Element,
    add_class,
    el,
    label,
    make,
    svg_root,
    target,
    to_svg,
    wrap,
)
from subtable.words.red_november import RedNovemberWords as RedNovemberUI

#: the default colours (the page's CSS may override any of them)
STYLE = """
.rn-board .narrow .space .n{font-size:9px}
.rn-board text{font-family:system-ui,sans-serif;fill:#1d2330}
.rn-board .heading{font-size:13px;font-weight:700}
.rn-board .hull{fill:#8d99a6;stroke:#3b4654;stroke-width:3}
.rn-board .room>rect{fill:#eef1f4;stroke:#3b4654;stroke-width:1.5}
.rn-board .room .num{font-size:15px;font-weight:700}
.rn-board .room .name{font-size:8.5px}
.rn-board .sea>rect{fill:#cfe3f2;stroke:#3b4654;stroke-dasharray:4 3}
.rn-board .water.low{fill:#7fb3e0;opacity:.55}
.rn-board .water.high{fill:#2f78c4;opacity:.55}
.rn-board .water-mark{font-size:14px;font-weight:700;fill:#0d3f73}
.rn-board .fire path{fill:#e8590c;stroke:#7a2500}
.rn-board .hatch rect{fill:#ffd43b;stroke:#3b4654}
.rn-board .hatch.blocked rect{fill:#495057}
.rn-board .hatch.blocked text{fill:#fff;font-weight:700;font-size:9px}
.rn-board .exterior-link{stroke:#3b4654;stroke-width:2;stroke-dasharray:2 2}
.rn-board .gnome circle,.rn-board .gnome ellipse,.rn-board .keeper circle{stroke:#1d2330}
.rn-board .gnome text,.rn-board .keeper text,.rn-board .ghost text{font-size:9px;font-weight:700}
.rn-board .gnome.active circle,.rn-board .gnome.active ellipse{stroke-width:3}
.rn-board .gnome .zz{font-size:8px;font-style:italic}
.rn-board .red-area{fill:#c92a2a}
.rn-board .g1 .disc{fill:#ffa8a8}.rn-board .g2 .disc{fill:#a5d8ff}
.rn-board .g3 .disc{fill:#b2f2bb}.rn-board .g4 .disc{fill:#ffec99}
.rn-board .g5 .disc{fill:#d0bfff}.rn-board .g6 .disc{fill:#ffc078}
.rn-board .g7 .disc{fill:#99e9f2}.rn-board .g8 .disc{fill:#eebefa}
.rn-board .ghost circle{fill:none;stroke:#1d2330;stroke-dasharray:2 1.5}
.rn-board .space>rect{fill:#f8f9fa;stroke:#868e96}
.rn-board .space .n{font-size:8px}
.rn-board .space.rescued>rect{fill:#d3f9d8}
.rn-board .icon{font-size:9px}.rn-board .icon.ev{fill:#c92a2a}
.rn-board .token rect{fill:#212529}.rn-board .token text{fill:#fff;font-size:7px;font-weight:700}
.rn-board .track-cell rect{fill:#f8f9fa;stroke:#868e96}
.rn-board .track-cell.reset rect{stroke-width:2.5}
.rn-board .track-cell.end rect{fill:#ffc9c9}
.rn-board .track-cell.level rect{fill:#343a40}.rn-board .track-cell.level text{fill:#fff}
.rn-board .track-cell text{font-size:9px}
.rn-board .pile rect{fill:#fff;stroke:#495057}
.rn-board .pile .count{font-size:15px;font-weight:700}
.rn-board .pile .name{font-size:8.5px}
.rn-board .target{cursor:pointer}
.rn-board .target>rect:first-of-type,.rn-board .target>.disc{stroke:#1971c2;stroke-width:2.5}
.rn-board .target:focus{outline:none}
.rn-board .target:focus>rect:first-of-type,.rn-board .target:focus>.disc{stroke:#e8590c}
.rn-board .hatch rect.hit{fill:transparent;stroke:none}
"""
#: the side of the square a hatch answers a tap in: 24 px on a 360-px phone
HIT = 34


class RedNovemberBoard:
    """The :class:`~subtable.web.boards.BoardRenderer` of Red November."""

    name = "red-november"

    def __init__(self, components: Components | None = None) -> None:
        self.c = components or default_components()
        self.ui = RedNovemberUI(self.c)

    # -- protocol ------------------------------------------------------------------
    def board(self, view: RedNovemberView, tr: Translator, legal: Sequence[Action]) -> str:
        """The board as a group of ``<svg>`` elements the page lays out: the submarine, the
        Disaster Tracks and the decks (beside it or under it, as the width allows), the Time
        Track under them (and a narrower Time Track, in more rows, that a phone shows
        instead)."""
        targets = board_targets(view, legal, self.c)
        sub = svg_root(SUB_W, 0, cls="rn-sub", role="group", aria_label=tr("rn.board.submarine"))
        el(sub, "style", STYLE)
        y = self._submarine(sub, view, tr, targets)
        sub.set("viewBox", f"0 0 {SUB_W} {round(y + 6)}")
        side = svg_root(SIDE_W + 2 * MARGIN, 0, cls="rn-side rn-tracks", role="group",
                        aria_label=tr("rn.board.disaster_tracks"))  # fmt: skip
        bottom = tracks.disaster_tracks(self, side, view, tr, MARGIN, 10, SIDE_W)
        side.set("viewBox", f"0 0 {SIDE_W + 2 * MARGIN} {round(bottom + 4)}")
        decks = svg_root(SIDE_W + 2 * MARGIN, 0, cls="rn-side rn-decks", role="group",
                         aria_label=tr("rn.board.col.decks"))  # fmt: skip
        bottom = tracks.piles(self, decks, view, tr, targets, MARGIN, 4, SIDE_W)
        decks.set("viewBox", f"0 0 {SIDE_W + 2 * MARGIN} {round(bottom + 4)}")
        parts = [to_svg(sub), to_svg(side), to_svg(decks)]
        for cls, width, cols in (("rn-time wide", WIDTH, TIME_COLUMNS),
                                 ("rn-time narrow", NARROW, NARROW_COLUMNS)):  # fmt: skip
            time = svg_root(width, 0, cls=cls, role="group",
                            aria_label=tr("rn.board.time_track_title"))  # fmt: skip
            bottom = tracks.time_track(self, time, view, tr, 6, width, cols)
            time.set("viewBox", f"0 0 {width} {round(bottom + 6)}")
            parts.append(to_svg(time))
        frame = make("div", cls="rn-board", role="group", aria_label=tr("rn.board.aria"))
        return wrap(frame, *parts, legend(self, view, tr))

    def panels(
        self, view: RedNovemberView, tr: Translator, legal: Sequence[Action], who: dict[int, str]
    ) -> str:
        """Each gnome's items (name and rules text), the decision under way, this turn."""
        targets = board_targets(view, legal, self.c)
        return panels_mod.render(self, view, tr, targets, who)

    def stage(self, events: Sequence[Event], tr: Translator) -> Stage:
        """Fix-it rolls as dice, event cards face up, the board's changed parts."""
        return stage_mod.stage(self, events, tr)

    def choice(self, action: Action, view: RedNovemberView, tr: Translator) -> Choice | None:
        """A fix-it's minutes with their odds, a draw's cards: choices of one row."""
        return stage_mod.choice(self, action, view, tr)

    def unavailable(self, view: RedNovemberView, legal: Sequence[Action]) -> list[str]:
        """The active gnome's fix-its, items, draw and abandon not possible now."""
        return stage_mod.unavailable(self, view, legal)

    def end(self, view: RedNovemberView, tr: Translator, who: dict[int, str]) -> str:
        """Which track or token ended the game, when; each gnome's fate."""
        return stage_mod.end(self, view, tr, who)

    # -- helpers -------------------------------------------------------------------
    def act(self, elem: Element, key: str, targets: Targets, what: str, tr: Translator) -> None:
        """Make ``elem`` the target of ``targets[key]`` (if any), else just label it."""
        actions = targets.get(key)
        if actions:
            text = tr("rn.board.target", what=what, actions=actions_text(actions, tr, self.ui))
            target(elem, [a.id for a in actions], text)
        else:
            label(elem, what)

    # -- the submarine -------------------------------------------------------------
    def _submarine(
        self, root: Element, view: RedNovemberView, tr: Translator, targets: Targets
    ) -> float:
        el(root, "text", tr("rn.board.submarine"), x=MARGIN, y=20, cls="heading")
        layer = el(root, "g", cls="submarine")
        boxes = [room_box(r) for r in range(1, SEA)]
        x0, y0 = min(b.x for b in boxes), min(b.y for b in boxes)
        x1, y1 = max(b.right for b in boxes), max(b.bottom for b in boxes)
        el(layer, "rect", x=x0 - 8, y=y0 - 8, width=x1 - x0 + 16, height=y1 - y0 + 16, rx=34,
           cls="hull", aria_hidden="true")  # fmt: skip
        here: dict[int, list[GnomeView]] = {}
        for g in view.gnomes:
            if g.on_board:
                here.setdefault(g.room, []).append(g)
        sea = room_box(SEA)
        for r in exterior_rooms(self.c):
            x, yy = exterior_spot(r)
            el(layer, "line", x1=x, y1=yy, x2=x, y2=sea.y, cls="exterior-link", aria_hidden="true")
        for r in [*range(1, SEA), SEA]:
            self._room(layer, r, here.get(r, []), view, tr, targets)
        self._hatches(layer, view, tr, targets)
        self._gnomes(layer, view, here, tr, targets)
        return sea.bottom

    def _room(
        self,
        layer: Element,
        r: int,
        gnomes: list[GnomeView],
        view: RedNovemberView,
        tr: Translator,
        targets: Targets,
    ) -> None:
        box = room_box(r)
        g = el(layer, "g", cls="sea" if r == SEA else "room", data_room=r)
        el(g, "rect", x=box.x, y=box.y, width=box.w, height=box.h)
        # the Sea has neither fire nor water
        fire, water = (False, 0) if r == SEA else (view.fire[r], view.water[r])
        details: list[str] = []
        if fire:
            details.append(tr("rn.board.on_fire"))
        if water:
            details.append(tr("rn.board.high_water") if water == 2 else tr("rn.board.low_water"))
            share = 0.6 if water == 2 else 0.25
            h = box.h * share
            el(g, "rect", x=box.x + 1, y=box.bottom - h, width=box.w - 2, height=h - 1,
               cls=f"water {'high' if water == 2 else 'low'}")  # fmt: skip
            el(g, "text", "≈" if water == 2 else "~", x=box.right - 4, y=box.bottom - 4,
               cls="water-mark", text_anchor="end")  # fmt: skip
        if fire:
            fx, fy = box.right - 12, box.y + 6
            f = el(g, "g", cls="fire")
            el(f, "path", d=f"M{fx} {fy}c5 6 7 10 5 14a6 6 0 0 1-10 0c-2-4 1-6 2-9"
               f"c1 3 2 4 3 4c1-3 0-6 0-9z")  # fmt: skip
        if r == SEA:
            el(g, "text", self.ui.room(SEA, tr), x=box.x + 6, y=box.y + 14, cls="num")
        else:
            el(g, "text", str(r), x=box.x + 4, y=box.y + 15, cls="num")
            slug = self.c.room_names.get(r, "")
            if slug:
                name = tr(f"rn.room.{slug}")
                for i, line in enumerate(fold_lines(name, box.w - 8, 8.5, 3)):
                    text_in(g, line, box.x + 4, box.y + 26 + i * 9.5, box.w - 8, size=8.5,
                            cls="name")  # fmt: skip
        for gn in gnomes:
            details.append(self._gnome_words(gn, view, tr))
        self.act(g, f"room:{r}", targets, described(tr, self.ui.room(r, tr), details), tr)

    def _gnome_words(self, g: GnomeView, view: RedNovemberView, tr: Translator) -> str:
        """``Gnome 2 (fainted, active)``."""
        status = self.ui.gnome_status(g.seat, view, tr)
        name = self.ui.seat_name(g.seat, tr)
        return tr("rn.board.with_status", what=name, status=", ".join(status)) if status else name

    def _hatches(
        self, layer: Element, view: RedNovemberView, tr: Translator, targets: Targets
    ) -> None:
        for h, (a, b) in enumerate(self.c.hatches):
            x, y, vertical = hatch_spot(a, b)
            is_blocked = view.blocked[h]
            g = el(layer, "g", cls="hatch" + (" blocked" if is_blocked else ""), data_hatch=h)
            w, hh = (8, 16) if vertical else (16, 8)
            el(g, "rect", x=x - w / 2, y=y - hh / 2, width=w, height=hh, rx=2)
            hit_area(g, x, y)
            if is_blocked:
                el(g, "text", tr("rn.mark.blocked"), x=x, y=y + 3, text_anchor="middle")
            state = tr("rn.board.blocked") if is_blocked else tr("rn.board.closed")
            what = described(tr, tr("rn.board.hatch", a=a, b=b), [state])
            self.act(g, f"hatch:{h}", targets, what, tr)
        for r in exterior_rooms(self.c):
            x, y = exterior_spot(r)
            g = el(layer, "g", cls="hatch exterior", data_exterior=r)
            el(g, "rect", x=x - 8, y=y - 4, width=16, height=8, rx=4)
            hit_area(g, x, y)
            self.act(g, f"ext:{r}", targets, tr("rn.board.hatch_exterior", n=r), tr)

    def _gnomes(
        self,
        layer: Element,
        view: RedNovemberView,
        here: dict[int, list[GnomeView]],
        tr: Translator,
        targets: Targets,
    ) -> None:
        for r, gnomes in here.items():
            box = room_box(r)
            top = 8 if r == SEA else (16 if not self.c.room_names.get(r) else 44)
            if r == SEA:
                box = Box(box.x + 40, box.y, box.w - 40, box.h)
            area = Box(box.x + 3, box.y + top, box.w - 6, box.h - top - 3)
            step = 19.0
            cols = max(1, int(area.w // step))
            if len(gnomes) > cols * max(1, int(area.h // step)):
                step = 14.0
                cols = max(1, int(area.w // step))
            for i, g in enumerate(sorted(gnomes, key=lambda g: g.seat)):
                cx = area.x + step / 2 + (i % cols) * step
                cy = area.y + step / 2 + (i // cols) * step
                self._gnome(layer, g, cx, cy, step / 2 - 1.5, view, tr, targets)

    def _gnome(
        self,
        layer: Element,
        g: GnomeView,
        cx: float,
        cy: float,
        rad: float,
        view: RedNovemberView,
        tr: Translator,
        targets: Targets,
    ) -> None:
        s = g.seat
        node = el(layer, "g", cls=f"gnome g{s + 1}", data_seat=s)
        if g.fainted:
            add_class(node, "fainted")
            el(node, "ellipse", cx=cx, cy=cy + rad / 3, rx=rad, ry=rad * 0.6, cls="disc")
            el(node, "text", str(s + 1), x=cx - 2, y=cy + rad / 3 + 3, text_anchor="middle")
            el(node, "text", tr("rn.mark.fainted"), x=cx + rad - 1, y=cy - rad / 3, cls="zz")
        else:
            el(node, "circle", cx=cx, cy=cy, r=rad, cls="disc")
            el(node, "text", str(s + 1), x=cx, y=cy + 3, text_anchor="middle")
        if s == view.active:
            add_class(node, "active")
        if s == view.seat:
            add_class(node, "you")
        if g.red_room == g.room != 0:  # drew items here: may not draw again yet
            el(node, "rect", x=cx + rad - 4, y=cy + rad - 4, width=4, height=4, cls="red-area")
        self.act(node, f"gnome:{s}", targets, self._gnome_words(g, view, tr), tr)


def exterior_rooms(c: Components) -> list[int]:
    """The rooms with an exterior hatch, from the components."""
    return [r for r in range(1, SEA) if any(d == SEA for d, _ in c.neighbours[r])]


def hit_area(g: Element, x: float, y: float) -> None:
    """An invisible square around a small piece at ``(x, y)`` that a finger can hit."""
    el(
        g,
        "rect",
        x=x - HIT / 2,
        y=y - HIT / 2,
        width=HIT,
        height=HIT,
        cls="hit",
        aria_hidden="true",
    )
