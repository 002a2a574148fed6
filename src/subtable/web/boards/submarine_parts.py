"""What Submarine's board and panels share: names, marks, colours and click targets.

Every token is drawn with its treasure's glyph and its colour's letters (never
its colour alone); every seat's piece with the seat's number. The legal actions
are sorted here by the thing on the table that stands for them (:func:`targets`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from subtable.core.actions import Action
from subtable.games.submarine.actions import Kind, SubAction
from subtable.games.submarine.components import Components
from subtable.games.submarine.view import LEFT, Phase, SubmarineView
from subtable.i18n import Translator
from subtable.words.submarine import SubmarineWords as SubmarineUI


class BoardParts(Protocol):
    """What the board's stage reads of the board that draws it
    (:class:`~subtable.web.boards.submarine.SubmarineBoard`, which calls it: a protocol
    here keeps the arrows one way)."""

    @property
    def ui(self) -> SubmarineUI: ...


#: one glyph per treasure type, emoji old enough for every current system (a type
#: missing here shows its name's first letters)
GLYPHS = {
    "amphora": "\U0001f3fa",  # amphora
    "anchor": "\u2693\ufe0f",  # anchor
    "bell": "\U0001f514",  # bell
    "chest": "\U0001f4e6",  # package
    "coin": "\U0001f4b0",  # money bag
    "crown": "\U0001f451",  # crown
    "goblet": "\U0001f3c6",  # trophy
    "helmet": "\u26d1\ufe0f",  # helmet with white cross
    "pearl": "\U0001f52e",  # crystal ball
    "shell-box": "\U0001f48e",  # gem stone
    "statue": "\U0001f5ff",  # moai
    "sword": "\U0001f5e1\ufe0f",  # dagger
    "joker": "\U0001f41a",  # spiral shell
}

#: the fill and text colours of the treasure (and search card) colours, by name
COLOUR_FILLS = {
    "red": ("#d62828", "#ffffff"),
    "yellow": ("#f6c945", "#1a1a1a"),
    "green": ("#1e7b3a", "#ffffff"),  # dark enough for white text (WCAG AA)
    "blue": ("#2b6cd4", "#ffffff"),
    "purple": ("#8e44ad", "#ffffff"),
}
#: the seats' colours (fill, text), always shown with the seat's number
SEAT_FILLS = (
    ("#1b1b1b", "#ffffff"),
    ("#ffffff", "#1b1b1b"),
    ("#f07f13", "#1b1b1b"),
    ("#00a3a3", "#1b1b1b"),
    ("#8b5a2b", "#ffffff"),
)

_UNSAFE = re.compile(r"[^a-z0-9-]")


def css_name(name: str) -> str:
    """``name`` as a safe CSS class fragment."""
    return _UNSAFE.sub("", name.lower()) or "x"


def colour_class(colour: str) -> str:
    """The CSS class of a treasure or card colour: ``tc-red``."""
    return f"tc-{css_name(colour)}"


def seat_class(seat: int) -> str:
    """The CSS class of a seat's pieces: ``seat-2``."""
    return f"seat-{seat % len(SEAT_FILLS)}"


def css(scope: str) -> str:
    """The colour rules, each prefixed by the selector ``scope``."""
    rules = []
    for colour, (fill, text) in COLOUR_FILLS.items():
        cls = colour_class(colour)
        rules.append(f"{scope} .{cls} .shape{{fill:{fill}}}{scope} .{cls} .ink{{fill:{text}}}")
        rules.append(f"{scope} .{cls}.chip{{background:{fill};color:{text}}}")
    for seat, (fill, text) in enumerate(SEAT_FILLS):
        cls = seat_class(seat)
        rules.append(f"{scope} .{cls} .shape{{fill:{fill}}}{scope} .{cls} .ink{{fill:{text}}}")
        rules.append(f"{scope} .{cls}.swatch{{background:{fill};color:{text}}}")
    return "".join(rules)


def split_token(name: str) -> tuple[str, str]:
    """``("shell-box", "red")`` from ``shell-box-red``."""
    kind, _, colour = name.rpartition("-")
    return kind, colour


def glyph(kind: str, tr: Translator) -> str:
    """The treasure type's glyph (its translated name's first letters if it has none)."""
    return GLYPHS.get(kind) or tr(f"sub.treasure.{kind}")[:2]


def abbr(colour: str, tr: Translator) -> str:
    """A colour's letters (``Re``), shown on every token and card besides the colour."""
    return tr(f"sub.colour.abbr.{colour}")


def card_name(colour: str, tr: Translator) -> str:
    """A search card of ``colour``, its colour agreeing with the noun."""
    return tr(f"sub.board.card.{colour}")


def now_column(view: SubmarineView) -> int:
    """The column (0-based) whose bathyscaphes act this turn, or -1."""
    return view.column if view.phase in (Phase.ACT, Phase.GIVE, Phase.TO) else -1


def token_names(view: SubmarineView, tokens: Iterable[int]) -> list[str]:
    """The names of the tokens ``tokens`` (ids), in that order: ``shell-box-red``."""
    names = view.game.token_names
    return [names[t] for t in tokens]


def cell_tokens(view: SubmarineView, column: int, level: int) -> list[str]:
    """The names of the tokens in a cell (0-based column and level), in id order."""
    return token_names(view, sorted(view.cells[column * view.game.components.levels + level]))


def bathyscaphe_cells(view: SubmarineView, seat: int) -> list[tuple[int, int]]:
    """The (column, level) of each of ``seat``'s bathyscaphes, 1-based, sorted."""
    levels = view.game.components.levels
    return sorted((b // levels + 1, b % levels + 1) for b in view.bathyscaphes[seat])


def boat_side(view: SubmarineView, seat: int) -> str | None:
    """``"left"`` or ``"right"`` when ``seat``'s boat is off that edge, else ``None``."""
    pos = view.boats[seat]
    return "left" if pos == LEFT else "right" if pos == view.game.components.columns else None


def treasures_of(view: SubmarineView, seat: int) -> list[str]:
    """The names of the treasures on ``seat``'s board, in the order of its types."""
    return token_names(view, (t for t in view.treasures[seat] if t >= 0))


class Targets:
    """The legal actions, sorted by the board element that stands for each.

    Keys: ``("place", col)`` and ``("to", col, level)`` a cell; ``("boat", col)`` the
    surface above a column; ``("off",)`` the right edge; ``("move", seat, col, level)``
    a seat's bathyscaphes in a cell; ``("token", name)`` a token in the sea;
    ``("card", colour)`` a card of the viewing seat's hand. 0-based columns and
    levels. ``no-swap`` and ``done`` have no element (the page lists every action).
    """

    def __init__(self, view: SubmarineView, legal: Sequence[Action], ui: SubmarineUI) -> None:
        self.by_key: dict[tuple[Any, ...], list[SubAction]] = defaultdict(list)
        self.ui = ui
        c: Components = ui.c
        seat = view.current_seat
        column = now_column(view)
        for a in legal:
            if not isinstance(a, SubAction):
                continue
            key: tuple[Any, ...] | None = None
            if a.kind == Kind.PLACE:
                key = ("cell", a.column, 0)
            elif a.kind == Kind.TO:
                key = ("cell", a.column, a.level)
            elif a.kind == Kind.BOAT:
                key = ("boat", a.column)
            elif a.kind == Kind.BOAT_OFF:
                key = ("off",)
            elif a.kind == Kind.MOVE and seat is not None and column >= 0:
                key = ("move", seat, column, a.level)
            elif a.kind == Kind.COLLECT:
                key = ("token", c.token_name(a.token))
            elif a.kind in (Kind.GIVE, Kind.SWAP):
                key = ("card", c.colours[a.colour])
            if key is not None:
                self.by_key[key].append(a)

    def get(self, *key: Any) -> list[SubAction]:
        """The actions the element ``key`` stands for (maybe none)."""
        return self.by_key.get(key, [])

    def label(self, actions: Sequence[SubAction], tr: Translator) -> str:
        """The accessible name of an element standing for ``actions`` (not empty)."""
        first = actions[0]
        if len(actions) > 1 and first.kind == Kind.COLLECT:
            token = self.ui.token(self.ui.c.token_name(first.token), tr)
            return tr("sub.board.collect", token=token)
        return "; ".join(self._label(a, tr) for a in actions)

    def _label(self, a: SubAction, tr: Translator) -> str:
        if a.kind == Kind.GIVE:
            return tr("sub.board.give", card=card_name(self.ui.c.colours[a.colour], tr))
        if a.kind == Kind.SWAP:
            return tr("sub.board.swap", card=card_name(self.ui.c.colours[a.colour], tr))
        return self.ui.action_label(a, tr)
