"""Red November's legend: every symbol the board draws, with what it means, in the reader's
language. It sits beside the decks on a wide board and under the Time Track otherwise."""

from __future__ import annotations

from subtable.games.red_november.view import RedNovemberView
from subtable.i18n import Translator
from subtable.web.boards.red_november_layout import BoardParts
from subtable.web.boards.svg import el, make, to_html


def legend(board: BoardParts, view: RedNovemberView, tr: Translator) -> str:
    """The legend as a ``<details>`` (open) holding a list of symbol and meaning."""
    rows: list[tuple[str, str, str]] = [
        ("s-hatch", "", tr("rn.legend.hatch")),
        ("s-hatch s-blocked", tr("rn.mark.blocked"), tr("rn.legend.blocked")),
        ("s-fire", "", tr("rn.legend.fire")),
        ("s-water s-low", "~", tr("rn.legend.low_water")),
        ("s-water s-high", "≈", tr("rn.legend.high_water")),
        ("s-gnome", "1", tr("rn.legend.gnome")),
        ("s-keeper", "1", tr("rn.legend.keeper")),
        ("s-ghost", "1", tr("rn.legend.ghost")),
        ("s-event", "★", tr("rn.legend.event")),
        ("s-item", "☆", tr("rn.legend.item")),
        ("s-cell s-level", "▲", tr("rn.legend.level")),
        ("s-cell", "↺", tr("rn.legend.reset")),
        ("s-cell s-end", "☠", tr("rn.legend.end")),
    ]
    for name in board.c.tokens:
        token = board.ui.token(name, tr)
        letter = token.lstrip("¡¿«\"'")[:1].upper()
        rows.append(("s-token", letter, tr("rn.legend.token", name=token)))
    box = make("details", cls="rn-legend", open="open")
    el(box, "summary", tr("rn.legend.title"))
    items = el(box, "ul")
    for cls, mark, words in rows:
        item = el(items, "li")
        el(item, "span", mark, cls=f"sym {cls}", aria_hidden="true")
        el(item, "span", words)
    return to_html(box)
