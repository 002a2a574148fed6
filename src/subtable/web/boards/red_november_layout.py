"""Red November's board geometry and which board element stands for which legal action.

The *layout* (where each room is drawn) is presentation; everything the rules
read — which hatches exist, which rooms open to the Sea, the fix-it rooms, the
Time Track's length and icons — comes from the game's components.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from subtable.core.actions import Action
from subtable.games.red_november.actions import FIX_OF_KIND, Kind, RNAction
from subtable.games.red_november.components import SEA, Components
from subtable.games.red_november.view import RedNovemberView
from subtable.i18n import Translator
from subtable.web.boards.svg import Element, el
from subtable.words.red_november import RedNovemberWords as RedNovemberUI

#: width of the whole drawing (viewBox units): the submarine, the Disaster Tracks and the
#: decks beside it (``SIDE_X``), the Time Track under both
WIDTH = 720
#: left margin of every section
MARGIN = 10
#: the submarine's drawing's width
SUB_W = 480
#: the width of the column beside the submarine (the Disaster Tracks, the decks)
SIDE_W = 212
#: spaces in one row of the Time Track
TIME_COLUMNS = 21
#: the narrow Time Track of a phone: its width and spaces in a row
NARROW = 360
NARROW_COLUMNS = 11
#: the submarine's rooms in map units (x, y, width, height), as on the board:
#: the Engine Room at the stern (left), the Captain's Cabin at the nose (right),
#: the rooms with an exterior hatch (3, 6, 9) along the keel above the Sea
ROOM_BOXES: dict[int, tuple[float, float, float, float]] = {
    1: (0, 0, 60, 180),
    2: (60, 0, 120, 100),
    3: (60, 100, 60, 80),
    4: (120, 100, 60, 80),
    5: (180, 0, 70, 125),
    6: (180, 125, 70, 55),
    7: (250, 100, 80, 80),
    8: (250, 0, 120, 100),
    9: (330, 100, 130, 80),
    10: (370, 0, 90, 100),
}
#: where the map starts in the drawing
SUB_X, SUB_Y = MARGIN + 0, 34
#: the Sea, below the keel (map units)
SEA_BOX = (0.0, 200.0, 460.0, 46.0)

#: element keys: ``room:5``, ``room:11`` (the Sea), ``hatch:3`` (interior hatch index),
#: ``ext:9`` (room 9's exterior hatch), ``gnome:2``, ``pile:item_deck``, ``pile:grog_stash``,
#: ``item:<seat>:<kind>`` (a card in a hand, in the panels)
Targets = dict[str, list[RNAction]]


class BoardParts(Protocol):
    """What the board's sections and panels read of the board that draws them
    (:class:`~subtable.web.boards.red_november.RedNovemberBoard`, which calls them: a
    protocol here keeps the arrows one way)."""

    @property
    def c(self) -> Components: ...

    @property
    def ui(self) -> RedNovemberUI: ...

    def act(self, elem: Element, key: str, targets: Targets, what: str, tr: Translator) -> None:
        """Make ``elem`` the target of ``targets[key]`` (if any), else just label it."""
        ...


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle in drawing units."""

    x: float
    y: float
    w: float
    h: float

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h


def room_box(room: int) -> Box:
    """Room ``room``'s rectangle in drawing units (``SEA`` for the Sea)."""
    x, y, w, h = SEA_BOX if room == SEA else ROOM_BOXES[room]
    return Box(SUB_X + x, SUB_Y + y, w, h)


def hatch_spot(a: int, b: int) -> tuple[float, float, bool]:
    """Where the hatch between rooms ``a`` and ``b`` is drawn: (x, y, on a vertical wall).

    The middle of the wall the two rooms share; the middle between their
    centres if a layout ever places them apart.
    """
    p, q = room_box(a), room_box(b)
    for left, right in ((p, q), (q, p)):
        if abs(left.right - right.x) < 0.01:
            lo, hi = max(left.y, right.y), min(left.bottom, right.bottom)
            if hi > lo:
                return left.right, (lo + hi) / 2, True
    for top, below in ((p, q), (q, p)):
        if abs(top.bottom - below.y) < 0.01:
            lo, hi = max(top.x, below.x), min(top.right, below.right)
            if hi > lo:
                return (lo + hi) / 2, top.bottom, False
    return (p.cx + q.cx) / 2, (p.cy + q.cy) / 2, False


def exterior_spot(room: int) -> tuple[float, float]:
    """Where room ``room``'s exterior hatch is drawn: the middle of its floor."""
    box = room_box(room)
    return box.cx, box.bottom


def active_room(view: RedNovemberView) -> int | None:
    """The space of the gnome whose turn it is, if he is aboard or in the Sea."""
    active = view.active
    if active < 0 or not view.on_board(active):
        return None
    return view.room[active]


def pending_seat(view: RedNovemberView) -> int | None:
    """The seat that decides now."""
    return None if view.is_over or view.decider < 0 else view.decider


def board_targets(view: RedNovemberView, legal: Sequence[Action], c: Components) -> Targets:
    """The board element (key) standing for each legal action; actions with none are left out.

    * ``move r`` → room ``r`` (the Sea for ``move sea``);
    * ``open r`` → the hatch between the active gnome's space and ``r``;
    * ``extinguish``/``pump`` → the active gnome's room; the room fix-its → the
      room the components name for them (``kill-kraken`` → the Sea);
    * ``unblock h``/``block h`` → hatch ``h``; ``spread r`` → room ``r``;
    * ``draw`` → the Item Deck in the Equipment Stores, the Grog stash in the
      Captain's Cabin (the components name both rooms);
    * ``trade gN``/``attack gN`` → gnome N's figure;
    * ``use``/``give``/``discard`` an item → that card in the deciding gnome's hand
      (drawn in the panels).

    ``done``, ``no-action``, ``abandon``, ``defend`` and ``yield`` have no board element.
    """
    out: Targets = defaultdict(list)
    here = active_room(view)
    decider = pending_seat(view)
    for action in legal:
        if not isinstance(action, RNAction):
            continue
        k = action.kind
        key: str | None = None
        if k in (Kind.MOVE, Kind.SPREAD):
            key = f"room:{action.target}"
        elif k == Kind.OPEN and here is not None:
            if here == SEA:
                key = f"ext:{action.target}"
            elif action.target == SEA:
                key = f"ext:{here}"
            else:
                h = c.hatch_between(here, action.target)
                key = f"hatch:{h}" if h is not None and h >= 0 else None
        elif k in (Kind.EXTINGUISH, Kind.PUMP) and here is not None:
            key = f"room:{here}"
        elif k in (Kind.UNBLOCK, Kind.BLOCK):
            key = f"hatch:{action.target}"
        elif k in FIX_OF_KIND:
            repair = c.repairs.get(FIX_OF_KIND[k])
            key = f"room:{repair.room}" if repair is not None else None
        elif k == Kind.DRAW and here is not None:
            if here == c.stores_room:
                key = "pile:item_deck"
            elif here == c.cabin_room:
                key = "pile:grog_stash"
            else:
                key = f"room:{here}"
        elif k in (Kind.TRADE, Kind.ATTACK):
            key = f"gnome:{action.target}"
        elif k in (Kind.USE, Kind.GIVE, Kind.DISCARD) and decider is not None:
            key = f"item:{decider}:{c.items[action.target].kind}"
        if key is not None:
            out[key].append(action)
    return dict(out)


def actions_text(actions: Sequence[RNAction], tr: Translator, ui: RedNovemberUI) -> str:
    """The actions of one element in words, minute variants told as a range (``1–10 min``)."""
    groups: dict[tuple[int, int], list[RNAction]] = {}
    for a in actions:
        groups.setdefault((a.kind, a.target), []).append(a)
    parts: list[str] = []
    for (kind, _), group in groups.items():
        if len(group) == 1:
            parts.append(ui.action_label(group[0], tr))
            continue
        lo, hi = min(a.minutes for a in group), max(a.minutes for a in group)
        span = f"{lo}–{hi}"
        first = group[0]
        if kind == Kind.DRAW:
            parts.append(tr.plural("rn.act.draw", "rn.act.draw.plural", hi, count=span))
            continue
        fix = FIX_OF_KIND.get(Kind(kind))
        parts.append(
            tr(
                f"rn.act.{Kind(kind).name.lower()}",
                fix=ui.fix(fix, tr) if fix else "",
                hatch=first.label,
                minutes=tr("unit.min", n=span),
            )
        )
    return tr.join(parts)


def fit_lines(text: str, width: float, size: float) -> list[str]:
    """``text`` split at spaces into lines of about ``width`` units at font size ``size``."""
    per_line = max(4, int(width / (size * 0.56)))
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= per_line:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def fold_lines(text: str, width: float, size: float, most: int) -> list[str]:
    """``text`` in at most ``most`` lines of about ``width`` units: whatever the lines cannot
    hold joins the last one (which :func:`text_in` squeezes), so no word is ever dropped."""
    lines = fit_lines(text, width, size)
    return [*lines[: most - 1], " ".join(lines[most - 1 :])] if len(lines) > most else lines


def text_in(parent: Element, text: str, x: float, y: float, width: float, **attrs: Any) -> None:
    """A one-line ``<text>`` squeezed to ``width`` if it would be longer."""
    size = float(attrs.pop("size", 9))
    node = el(parent, "text", text, x=x, y=y, **attrs)
    if len(text) * size * 0.56 > width:
        node.set("textLength", f"{width:.1f}")
        node.set("lengthAdjust", "spacingAndGlyphs")


def described(tr: Translator, what: str, details: list[str]) -> str:
    """``Room 5: on fire, Gnome 2`` (just ``what`` without details)."""
    return tr("rn.board.described", what=what, details="; ".join(details)) if details else what
