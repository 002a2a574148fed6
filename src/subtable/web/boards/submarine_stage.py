"""Submarine on the page's stage, in its options and at its end (HTML, from one seat's view
and the events as redacted for it).

* :func:`stage`: a collected treasure as its token, with the cards paid as far as the
  reader may see them (a toll card given from another captain's hand shows as a card's
  back); a swap as the card put under the pile and the one drawn (backs, for another
  captain's swap); the board's changed cells, boats and edge.
* :func:`choice`: the ways of paying for one treasure as choices of one row.
* :func:`unavailable`: the treasures in the acting bathyscaphes' cells that cannot be
  collected now (the page asks ``why``: a toll not payable, no card of the colour).
* :func:`end`: why the game ended, then the scores with the tie-break, best first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from subtable.core.actions import Action
from subtable.core.events import Event
from subtable.games.submarine.actions import Kind, SubAction
from subtable.games.submarine.view import Phase, SubmarineView
from subtable.i18n import Translator
from subtable.web.boards import Choice, Stage
from subtable.web.boards.submarine_panels import end_reason
from subtable.web.boards.submarine_parts import (
    BoardParts,
    abbr,
    card_name,
    cell_tokens,
    colour_class,
    css,
    glyph,
    seat_class,
    split_token,
    treasures_of,
)
from subtable.web.boards.svg import Element, el, make, to_html


# -- the stage ----------------------------------------------------------------------------
def stage(board: BoardParts, events: Sequence[Event], tr: Translator) -> Stage:
    """Treasures collected, tolls paid and swaps for one entry's ``events``."""
    ui = board.ui
    root = make("div", cls="stage-figures sub-stage")
    lines: list[str] = []
    marks: list[str] = []
    paid: list[str | None] = []  # the cards paid before a treasure is collected (None: unseen)
    for event in events:
        key, p = event.key, event.params
        for mark in _marks(key, p):
            if mark not in marks:
                marks.append(mark)
        if key in ("card_paid", "card_given"):
            paid.append(str(p["card"]) if isinstance(p.get("card"), str) else None)
        elif key == "treasure_collected":
            name = f"{p['treasure']}-{p['colour']}"
            fig = el(root, "figure", cls="stage-fig treasure")
            _token(fig, name, tr, board)
            cards = el(fig, "div", cls="stage-cards")
            if p.get("paid") == "joker" and isinstance(p.get("joker"), str):
                _token(cards, str(p["joker"]), tr, board, small=True)
            for card in paid:
                _card(cards, card, tr)
            line = ui.narrate(event, tr) or ""
            el(el(fig, "figcaption"), "span", line, cls="verdict")
            lines.append(line)
            paid = []
        elif key == "card_swapped":
            fig = el(root, "figure", cls="stage-fig swap")
            cards = el(fig, "div", cls="stage-cards")
            _card(cards, p.get("card") if isinstance(p.get("card"), str) else None, tr)
            el(cards, "span", "→", cls="arrow", aria_hidden="true")
            _card(cards, p.get("drawn") if isinstance(p.get("drawn"), str) else None, tr)
            line = ui.narrate(event, tr) or ""
            el(el(fig, "figcaption"), "span", line, cls="verdict")
            lines.append(line)
    if not lines:
        return Stage("", (), tuple(marks), 0)
    el(root, "style", css(".sub-stage"))
    return Stage(to_html(root), tuple(lines), tuple(marks), len(lines))


def _token(
    parent: Element, name: str, tr: Translator, board: BoardParts, *, small: bool = False
) -> None:
    kind, colour = split_token(name)
    joker = " joker" if kind == board.ui.c.joker else ""
    size = " small" if small else ""
    tile = el(parent, "span", cls=f"stage-token {colour_class(colour)}{joker}{size}", role="img",
              aria_label=board.ui.token(name, tr))  # fmt: skip
    el(tile, "span", glyph(kind, tr), cls="glyph", aria_hidden="true")
    el(tile, "span", abbr(colour, tr), cls="ink", aria_hidden="true")


def _card(parent: Element, colour: str | None, tr: Translator) -> None:
    """A search card face up (its colour's letters) or, unseen, its back."""
    if colour is None:
        el(parent, "span", "?", cls="stage-card back", role="img", aria_label=tr("web.stage.back"))
        return
    el(parent, "span", abbr(colour, tr), cls=f"stage-card {colour_class(colour)}", role="img",
       aria_label=card_name(colour, tr))  # fmt: skip


def _marks(key: str, p: dict[str, Any]) -> list[str]:
    """CSS selectors (inside the board) of what ``key`` changed."""
    if key in ("bathyscaphe_placed", "treasure_collected", "bathyscaphe_chosen"):
        return [f'[data-cell="{int(p["column"])}-{int(p["level"])}"]']
    if key == "bathyscaphe_moved":
        return [f'[data-cell="{int(p["to_column"])}-{int(p["to_level"])}"]']
    if key == "boat_moved":
        return [f'[data-surface="{int(p["column"])}"]']
    if key == "boat_left_board":
        return [".edge-right"]
    return []


# -- the options --------------------------------------------------------------------------
def choice(board: BoardParts, action: Action, view: SubmarineView, tr: Translator) -> Choice | None:
    """The ways of paying for one treasure, as choices of one row."""
    del view
    if not isinstance(action, SubAction) or action.kind != Kind.COLLECT:
        return None
    c = board.ui.c
    name = c.token_name(action.token)
    title = tr("sub.board.collect", token=board.ui.token(name, tr))
    if action.pay < 0:
        colour = c.colours[c.token_colour(action.token)]
        return Choice(f"collect:{name}", title, card_name(colour, tr), tr("web.sub.toll"))
    joker = c.token_name(action.pay)
    kind, colour = split_token(joker)
    return Choice(f"collect:{name}", title, f"{glyph(kind, tr)} {abbr(colour, tr)}",
                  board.ui.token(joker, tr))  # fmt: skip


def unavailable(board: BoardParts, view: SubmarineView, legal: Sequence[Action]) -> list[str]:
    """The treasures in the cells of the deciding captain's bathyscaphes that may act now,
    that cannot be collected (a toll not payable, no card of the colour)."""
    if view.phase != Phase.ACT or view.current_seat != view.seat:
        return []
    column = view.column
    if column < 0:
        return []
    c = board.ui.c
    # the levels (0-based) of the bathyscaphes that may act, the collecting one's too
    cells = [view.bathyscaphes[view.active][i] for i in view.idle()]
    if view.acting >= 0:
        cells.append(view.acting_cell())
    levels = [cell % c.levels for cell in cells]
    open_tokens = {
        c.token_name(a.token) for a in legal if isinstance(a, SubAction) and a.kind == Kind.COLLECT
    }
    out: list[str] = []
    for level in sorted(set(levels)):
        for name in cell_tokens(view, column, level):
            if name not in open_tokens and f"collect {name} with card" not in out:
                out.append(f"collect {name} with card")
    return out


# -- the end ------------------------------------------------------------------------------
def end(board: BoardParts, view: SubmarineView, tr: Translator, who: dict[int, str]) -> str:
    """Why the game ended, then the scores, best first, with the tie-break: different
    treasures, then jokers, then search cards held (hand and pile)."""
    ui = board.ui
    root = make("div", cls="end-game sub-end")
    el(root, "p", end_reason(view, tr, ui), cls="end-reason")
    el(root, "p", tr("web.end.sub.tiebreak"), cls="end-why")
    table = el(root, "table", cls="end-seats")
    head = el(el(table, "thead"), "tr")
    for text in (tr("web.end.rank"), tr("web.end.sub.player"), tr("web.end.sub.treasures"),
                 tr("web.end.sub.jokers"), tr("web.end.sub.cards")):  # fmt: skip
        el(head, "th", text, scope="col")
    body = el(table, "tbody")
    winners = set(view.winners)
    rows = []
    for seat in range(view.players):
        treasures = len(treasures_of(view, seat))
        score = (treasures, len(view.jokers[seat]), view.cards_held(seat))
        rows.append((score, seat))
    rows.sort(key=lambda r: (r[0], -r[1]), reverse=True)
    rank = 0
    previous: tuple[int, int, int] | None = None
    for n, (score, seat) in enumerate(rows, start=1):
        if score != previous:
            rank, previous = n, score
        row = el(body, "tr", data_seat=seat)
        el(row, "td", str(rank))
        cell = el(row, "th", scope="row")
        el(cell, "span", tr("sub.mark.boat", n=seat + 1), cls=f"swatch {seat_class(seat)}")
        name = ui.seat_name(seat, tr)
        if seat in winners:
            name = tr("web.end.winner", name=name)
        span = el(cell, "span", " " + name)
        if who.get(seat):
            span.text = f" {name} ({who[seat]})"
        for value in score:
            el(row, "td", str(value))
    el(root, "style", css(".sub-end"))
    return to_html(root)
