"""Submarine's side panels: the turn in words, each captain, the hand, the piles (HTML).

Built only from the view: the viewing seat's hand is shown card by card (each
card a button for the ``give``/``swap`` actions of its colour); any other hand,
and every draw pile, only as a count.
"""

from __future__ import annotations

from collections.abc import Sequence

from subtable.games.submarine.view import Phase, SubmarineView
from subtable.i18n import Translator
from subtable.web.boards.submarine_parts import (
    Targets,
    abbr,
    bathyscaphe_cells,
    boat_side,
    card_name,
    cell_tokens,
    colour_class,
    css,
    glyph,
    seat_class,
    split_token,
    token_names,
    treasures_of,
)
from subtable.web.boards.svg import TARGET_CLASS, Element, el, make, to_html
from subtable.words.submarine import SubmarineWords as SubmarineUI

_STYLE = (
    ".sub-panels .chip{display:inline-block;min-width:2.6em;padding:.1em .35em;margin:.1em;"
    "border:1px solid #1a1a1a;border-radius:.45em;text-align:center;font-weight:700}"
    ".sub-panels .chip.joker{border-style:dashed;border-width:2px}"
    ".sub-panels .card{border-radius:.2em;min-width:3.2em;padding:.35em .4em;font:inherit;"
    "font-weight:700}"
    ".sub-panels .empty{opacity:.45;background:#f3f3f3;color:#333}"
    ".sub-panels .swatch{display:inline-block;padding:0 .4em;border:1px solid #1a1a1a;"
    "border-radius:.3em;font-weight:700}"
    ".sub-panels .player{border:1px solid #ccd;border-radius:.4em;padding:.3em .5em;margin:.3em 0}"
    ".sub-panels .player.turn{border-color:#ff7b00;border-width:2px}"
    ".sub-panels dl{display:grid;grid-template-columns:auto 1fr;gap:.1em .6em;margin:.2em 0}"
    ".sub-panels dt{font-weight:600}.sub-panels dd{margin:0}"
    ".sub-panels .target{cursor:pointer;outline:3px solid #ff7b00}"
    ".sub-panels .target:focus,.sub-panels .target:hover{outline:4px solid #ff3d00}"
)


def _html_target(elem: Element, ids: Sequence[int], text: str) -> None:
    """Make an HTML element a button standing for the actions ``ids``."""
    elem.set("data-actions", " ".join(str(i) for i in sorted(set(ids))))
    elem.set("role", "button")
    elem.set("tabindex", "0")
    elem.set("aria-label", text)
    elem.set("title", text)
    have = (elem.get("class") or "").split()
    elem.set("class", " ".join([*have, TARGET_CLASS]))


def _token_chip(parent: Element, name: str, tr: Translator, ui: SubmarineUI) -> None:
    kind, colour = split_token(name)
    joker = " joker" if kind == ui.c.joker else ""
    text = f"{glyph(kind, tr)} {abbr(colour, tr)}"
    full = ui.token(name, tr)
    el(parent, "span", text, cls=f"chip token {colour_class(colour)}{joker}", title=full)


def _tokens(parent: Element, names: list[str], tr: Translator, ui: SubmarineUI) -> None:
    if not names:
        parent.text = "–"
    for name in names:
        _token_chip(parent, name, tr, ui)


def _seat_swatch(parent: Element, seat: int, tr: Translator, ui: SubmarineUI) -> None:
    el(parent, "span", tr("sub.mark.boat", n=seat + 1), cls=f"swatch {seat_class(seat)}")
    span = el(parent, "span", " " + ui.seat_name(seat, tr))
    span.tail = " "


def _status(root: Element, view: SubmarineView, tr: Translator, ui: SubmarineUI) -> None:
    parts = [tr("game.submarine"), tr("sub.board.turn", turn=view.turn)]
    if view.seat is not None:
        parts.append(tr("sub.board.you_are", player=ui.seat_name(view.seat, tr)))
    el(root, "p", " · ".join(parts), cls="status")
    if view.end_reason is not None:
        winners = tr.join([ui.seat_name(s, tr) for s in view.winners])
        el(root, "p", tr("sub.result", winners=winners), cls="outcome")
        el(root, "p", end_reason(view, tr, ui), cls="reason")
        return
    if view.current_seat is None:
        return
    text = ui.pending_text(view, tr)
    el(root, "p", text, cls="pending")
    extra = []
    if view.phase in (Phase.ACT, Phase.GIVE, Phase.TO) and view.acting >= 0:  # collecting
        level = view.acting_cell() % view.game.components.levels + 1
        extra.append(tr("sub.board.collecting", level=level))
        if view.placed:
            placed = ", ".join(ui.token(t, tr) for t in token_names(view, view.placed))
            extra.append(tr("sub.board.placed", tokens=placed))
    if view.phase == Phase.GIVE and view.owed:
        owed = tr.join([ui.seat_name(s, tr) for s in view.owed])
        extra.append(tr("sub.board.owed", players=owed))
    for line in extra:
        el(root, "p", line, cls="pending-detail")


def end_reason(view: SubmarineView, tr: Translator, ui: SubmarineUI) -> str:
    """Why the finished game ended, as one sentence: the twelfth treasure taken (and by whom),
    a column emptied, or the search cards run out."""
    why = tr(
        f"sub.reason.{view.end_reason or ''}",
        seat=ui.seat_name(view.active, tr),  # whose action ended it
        column=_emptied_column(view, ui),
    )
    return why[:1].upper() + why[1:] + "."


def _emptied_column(view: SubmarineView, ui: SubmarineUI) -> str:
    """The column left without a treasure (jokers aside), for the end reason."""
    c = view.game.components
    for col in range(c.columns):
        names = [t for lv in range(c.levels) for t in cell_tokens(view, col, lv)]
        if not any(split_token(t)[0] != ui.c.joker for t in names):
            return str(col + 1)
    return ""


def _where(view: SubmarineView, seat: int, tr: Translator) -> str:
    side = boat_side(view, seat)
    if side == "left":
        return tr("sub.board.boat.left")
    if side == "right":
        return tr("sub.board.boat.right")
    return tr("sub.board.column", n=view.boats[seat] + 1)


def _hand(
    dd: Element, view: SubmarineView, seat: int, tr: Translator, targets: Targets, ui: SubmarineUI
) -> None:
    hand = view.hands[seat]
    if hand is None:
        n = view.hand_sizes[seat]
        dd.text = tr.plural("sub.board.cards", "sub.board.cards.plural", n)
        return
    dd.set("data-hand", str(seat))  # the one hand drawn card by card: the reader's
    if not any(hand):
        dd.text = "–"
    for colour, count in zip(ui.c.colours, hand, strict=True):
        for _ in range(count):
            name = card_name(colour, tr)
            card = el(dd, "span", abbr(colour, tr), cls=f"chip card {colour_class(colour)}")
            card.set("data-colour", colour)
            acts = targets.get("card", colour)
            if acts:
                _html_target(card, [a.id for a in acts], targets.label(acts, tr))
            else:
                card.set("title", name)
                card.set("aria-label", name)


def _player(
    root: Element,
    view: SubmarineView,
    seat: int,
    tr: Translator,
    targets: Targets,
    ui: SubmarineUI,
    who: dict[int, str],
) -> None:
    box = el(root, "section", cls=f"player {seat_class(seat)}")
    box.set("data-seat", str(seat))
    if view.current_seat == seat:
        box.set("class", box.get("class", "") + " turn")
    head = el(box, "h3")
    _seat_swatch(head, seat, tr, ui)
    if who.get(seat):
        el(head, "small", f"({who[seat]})")
    dl = el(box, "dl")

    def row(column: str, text: str | None = None) -> Element:
        el(dl, "dt", tr(f"sub.board.col.{column}"))
        return el(dl, "dd", text)

    row("boat", _where(view, seat, tr))
    cells = bathyscaphe_cells(view, seat)
    baths = ", ".join(tr("sub.board.cell", column=c, level=lv) for c, lv in cells)
    row("bathyscaphes", baths or "–")
    total = len(ui.c.types)
    owned = treasures_of(view, seat)
    treasures = row("treasures", f"{len(owned)}/{total} ")
    for name in owned:
        _token_chip(treasures, name, tr, ui)
    _tokens(row("jokers"), token_names(view, view.jokers[seat]), tr, ui)
    _hand(row("hand"), view, seat, tr, targets, ui)
    row("pile", str(view.pile_sizes[seat]))


def _my_board(root: Element, view: SubmarineView, tr: Translator, ui: SubmarineUI) -> None:
    seat = view.seat
    if seat is None:
        return
    box = el(root, "section", cls="my-board")
    el(box, "h3", tr("sub.board.your_board"))
    owned = {split_token(t)[0]: t for t in treasures_of(view, seat)}
    div = el(box, "div")
    for kind in ui.c.types:
        if kind in owned:
            _token_chip(div, owned[kind], tr, ui)
        else:
            name = tr(f"sub.treasure.{kind}")
            el(div, "span", glyph(kind, tr), cls="chip empty", title=name)


def _piles(root: Element, view: SubmarineView, tr: Translator, ui: SubmarineUI) -> None:
    box = el(root, "section", cls="piles")
    el(box, "h3", tr("sub.board.discard_title"))
    div = el(box, "div", cls="discard")
    if not any(view.discard):
        div.text = "–"
    for colour, k in zip(ui.c.colours, view.discard, strict=True):
        if k:
            chip = el(div, "span", f"{abbr(colour, tr)} ×{k}", cls=f"chip {colour_class(colour)}")
            chip.set("title", f"{card_name(colour, tr)} ×{k}")
    el(box, "p", tr("sub.board.box_cards", n=view.boxed_cards))
    jokers = el(box, "p", tr("sub.board.box_jokers") + " ")
    _tokens(jokers, token_names(view, view.boxed_jokers), tr, ui)


def render_panels(
    view: SubmarineView, tr: Translator, targets: Targets, ui: SubmarineUI, who: dict[int, str]
) -> str:
    """The panels of :meth:`SubmarineBoard.panels <.submarine.SubmarineBoard.panels>`."""
    root = make("div", cls="sub-panels")
    el(root, "style", _STYLE + css(".sub-panels"))
    _status(root, view, tr, ui)
    players = el(root, "div", cls="players")
    for seat in range(view.players):
        _player(players, view, seat, tr, targets, ui, who)
    _my_board(root, view, tr, ui)
    _piles(root, view, tr, ui)
    return to_html(root)
