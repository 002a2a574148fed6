"""Submarine's side panels: the turn in words, each captain, the hand, the piles (HTML).

Built only from the view: the viewing seat's hand is shown card by card (each
card a button for the ``give``/``swap`` actions of its colour); any other hand,
and every draw pile, only as a count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from subtable.i18n import Translator
from subtable.web.boards.submarine_parts import (
    Targets,
    abbr,
    card_name,
    colour_class,
    css,
    glyph,
    seat_class,
    split_token,
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


def _status(root: Element, view: dict[str, Any], tr: Translator, ui: SubmarineUI) -> None:
    parts = [tr("game.submarine"), tr("sub.board.turn", turn=view["turn"])]
    if view["seat"] is not None:
        parts.append(tr("sub.board.you_are", player=ui.seat_name(view["seat"], tr)))
    el(root, "p", " · ".join(parts), cls="status")
    outcome = view.get("outcome")
    pend = view["pending"]
    if outcome is not None:
        winners = tr.join([ui.seat_name(s, tr) for s in outcome["winners"]])
        el(root, "p", tr("sub.result", winners=winners), cls="outcome")
        el(root, "p", end_reason(view, tr, ui), cls="reason")
        return
    if pend.get("seat") is None:
        return
    text = ui.pending_text(view, tr)
    el(root, "p", text, cls="pending")
    extra = []
    if pend.get("collecting_level"):
        extra.append(tr("sub.board.collecting", level=pend["collecting_level"]))
    if pend.get("placed"):
        placed = ", ".join(ui.token(t, tr) for t in pend["placed"])
        extra.append(tr("sub.board.placed", tokens=placed))
    if pend.get("owed"):
        owed = tr.join([ui.seat_name(s, tr) for s in pend["owed"]])
        extra.append(tr("sub.board.owed", players=owed))
    for line in extra:
        el(root, "p", line, cls="pending-detail")


def end_reason(view: dict[str, Any], tr: Translator, ui: SubmarineUI) -> str:
    """Why the finished game ended, as one sentence: the twelfth treasure taken (and by whom),
    a column emptied, or the search cards run out."""
    outcome = view.get("outcome") or {}
    seat = view["pending"].get("seat")
    ender = view.get("engine", {}).get("active", seat)
    why = tr(
        f"sub.reason.{outcome.get('reason', '')}",
        seat=ui.seat_name(int(ender), tr) if ender is not None else "",
        column=_emptied_column(view, ui),
    )
    return why[:1].upper() + why[1:] + "."


def _emptied_column(view: dict[str, Any], ui: SubmarineUI) -> str:
    """The column left without a treasure (jokers aside), for the end reason."""
    for col, levels in enumerate(view["cells"]):
        if not any(split_token(t)[0] != ui.c.joker for cell in levels for t in cell):
            return str(col + 1)
    return ""


def _where(boat: Any, tr: Translator) -> str:
    if boat == "left":
        return tr("sub.board.boat.left")
    if boat == "right":
        return tr("sub.board.boat.right")
    return tr("sub.board.column", n=boat)


def _hand(
    dd: Element, p: dict[str, Any], tr: Translator, targets: Targets, ui: SubmarineUI
) -> None:
    hand: dict[str, int] | None = p["hand"]
    if hand is None:
        n = int(p["hand_size"])
        dd.text = tr.plural("sub.board.cards", "sub.board.cards.plural", n)
        return
    dd.set("data-hand", str(p["seat"]))  # the one hand drawn card by card: the reader's
    if not hand:
        dd.text = "–"
    for colour in ui.c.colours:
        for _ in range(hand.get(colour, 0)):
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
    view: dict[str, Any],
    p: dict[str, Any],
    tr: Translator,
    targets: Targets,
    ui: SubmarineUI,
    who: dict[int, str],
) -> None:
    seat = int(p["seat"])
    box = el(root, "section", cls=f"player {seat_class(seat)}")
    box.set("data-seat", str(seat))
    if view["pending"].get("seat") == seat:
        box.set("class", box.get("class", "") + " turn")
    head = el(box, "h3")
    _seat_swatch(head, seat, tr, ui)
    if who.get(seat):
        el(head, "small", f"({who[seat]})")
    dl = el(box, "dl")

    def row(column: str, text: str | None = None) -> Element:
        el(dl, "dt", tr(f"sub.board.col.{column}"))
        return el(dl, "dd", text)

    row("boat", _where(p["boat"], tr))
    baths = ", ".join(tr("sub.board.cell", column=c, level=lv) for c, lv in p["bathyscaphes"])
    row("bathyscaphes", baths or "–")
    total = len(ui.c.types)
    treasures = row("treasures", f"{len(p['treasures'])}/{total} ")
    for name in p["treasures"]:
        _token_chip(treasures, name, tr, ui)
    _tokens(row("jokers"), p["jokers"], tr, ui)
    _hand(row("hand"), p, tr, targets, ui)
    row("pile", str(p["pile_size"]))


def _my_board(root: Element, view: dict[str, Any], tr: Translator, ui: SubmarineUI) -> None:
    seat = view["seat"]
    if seat is None:
        return
    box = el(root, "section", cls="my-board")
    el(box, "h3", tr("sub.board.your_board"))
    owned = {split_token(t)[0]: t for t in view["players"][seat]["treasures"]}
    div = el(box, "div")
    for kind in ui.c.types:
        if kind in owned:
            _token_chip(div, owned[kind], tr, ui)
        else:
            name = tr(f"sub.treasure.{kind}")
            el(div, "span", glyph(kind, tr), cls="chip empty", title=name)


def _piles(root: Element, view: dict[str, Any], tr: Translator, ui: SubmarineUI) -> None:
    box = el(root, "section", cls="piles")
    el(box, "h3", tr("sub.board.discard_title"))
    div = el(box, "div", cls="discard")
    discard: dict[str, int] = view["discard"]
    if not discard:
        div.text = "–"
    for colour in ui.c.colours:
        k = discard.get(colour, 0)
        if k:
            chip = el(div, "span", f"{abbr(colour, tr)} ×{k}", cls=f"chip {colour_class(colour)}")
            chip.set("title", f"{card_name(colour, tr)} ×{k}")
    el(box, "p", tr("sub.board.box_cards", n=view["box_cards"]))
    jokers = el(box, "p", tr("sub.board.box_jokers") + " ")
    _tokens(jokers, view["box_jokers"], tr, ui)


def render_panels(
    view: dict[str, Any], tr: Translator, targets: Targets, ui: SubmarineUI, who: dict[int, str]
) -> str:
    """The panels of :meth:`SubmarineBoard.panels <.submarine.SubmarineBoard.panels>`."""
    root = make("div", cls="sub-panels")
    el(root, "style", _STYLE + css(".sub-panels"))
    _status(root, view, tr, ui)
    players = el(root, "div", cls="players")
    for p in view["players"]:
        _player(players, view, p, tr, targets, ui, who)
    _my_board(root, view, tr, ui)
    _piles(root, view, tr, ui)
    return to_html(root)
