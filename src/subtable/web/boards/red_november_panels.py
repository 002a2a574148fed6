"""Red November's side panels as HTML: the decision under way, this turn, each gnome and his cards.

Item cards show the item's name, and its rules text folded under it (opened on demand)
once the card texts exist in the catalogue (``rn.item_text.<kind>``). A card that stands for a
legal action (``use``, ``give``, ``discard``) is a button with ``data-actions``
like the board's targets.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from subtable.core.game import Outcome
from subtable.games.red_november.view import GnomeView, RedNovemberView
from subtable.i18n import Translator
from subtable.web.boards.red_november_layout import BoardParts, Targets, actions_text
from subtable.web.boards.svg import Element, add_class, el, make, to_html
from subtable.words import result_words


def render(
    board: BoardParts,
    view: RedNovemberView,
    tr: Translator,
    targets: Targets,
    who: dict[int, str],
) -> str:
    """The panels' markup (one ``<div class="rn-panels">``)."""
    root = make("div", cls="rn-panels")
    _status(board, root, view, tr)
    for g in view.gnomes:
        _gnome(board, root, g, view, tr, targets, who)
    _discards(board, root, view, tr)
    return to_html(root)


def _status(board: BoardParts, root: Element, view: RedNovemberView, tr: Translator) -> None:
    box = el(root, "section", cls="rn-status")
    head = tr("rn.board.turn", turn=view.turn)
    if view.seat is not None:
        head += " · " + tr("rn.board.you_are", gnome=board.ui.seat_name(view.seat, tr))
    el(box, "h2", head)
    pending = board.ui.pending_text(view, tr)
    if pending:
        el(box, "p", pending, cls="rn-pending")
    parts = board.ui.turn_phrases(view, tr)
    if parts:
        p = el(box, "p", cls="rn-this-turn")
        el(p, "strong", tr("rn.turn.title"))
        el(p, "span", " " + " · ".join(parts))
    if view.is_over:
        outcome = Outcome(view.book.result_reason, view.book.result_winners)
        el(box, "p", result_words(board.ui, outcome, tr), cls="rn-outcome")


def _gnome(
    board: BoardParts,
    root: Element,
    g: GnomeView,
    view: RedNovemberView,
    tr: Translator,
    targets: Targets,
    who: dict[int, str],
) -> None:
    ui = board.ui
    s = g.seat
    sec = el(root, "section", cls=f"rn-gnome g{s + 1}", data_seat=s)
    if s == view.active:
        add_class(sec, "active")
    if s == view.seat:
        add_class(sec, "you")
    head = el(sec, "h3")
    el(head, "span", str(s + 1), cls="rn-badge")
    el(head, "span", " " + ui.seat_name(s, tr))
    facts = el(sec, "dl", cls="rn-facts")

    def fact(col: str, value: str) -> None:
        el(facts, "dt", tr(f"rn.board.col.{col}"))
        el(facts, "dd", value)

    if who.get(s):
        fact("player", who[s])
    fact("room", ui.room(g.room, tr) if g.on_board else "–")
    fact("keeper", str(g.keeper) if g.keeper >= 0 else "–")
    level = g.intoxication
    fact("intoxication", f"{level}/4" if level else tr("rn.board.sober"))
    status = board.ui.gnome_status(s, view, tr)
    if status:
        fact("status", ", ".join(status))
    hand = view.hand_by_kind(s)
    if hand is None:
        el(sec, "p", tr("rn.board.hidden_hand", n=g.hand_size), cls="rn-hand hidden")
        return
    if not hand:
        el(sec, "p", tr("rn.board.hand_empty"), cls="rn-hand empty")
        return
    cards = el(sec, "ul", cls="rn-hand")
    for kind, count in hand.items():
        name = ui.item(kind, tr)
        li = el(cards, "li", cls=f"rn-card item-{kind.replace('_', '-')}", data_item=kind)
        # the card's name is the button: a list item must stay a list item
        card = el(li, "strong", name, cls="rn-card-name")
        if count > 1:
            el(li, "span", f" ×{count}", cls="rn-card-count")
        if tr.has(f"rn.item_text.{kind}"):  # folded: the name first, the text on demand
            more = el(li, "details", cls="rn-card-more")
            el(more, "summary", tr("rn.board.card_text"))
            el(more, "p", tr(f"rn.item_text.{kind}"), cls="rn-card-text")
        actions = targets.get(f"item:{s}:{kind}")
        if actions:
            text = tr("rn.board.target", what=name, actions=actions_text(actions, tr, ui))
            card.set("data-actions", " ".join(str(a.id) for a in sorted(actions, key=_id)))
            card.set("role", "button")
            card.set("tabindex", "0")
            card.set("aria-label", text)
            add_class(card, "target")


def _id(action: Any) -> int:
    return int(action.id)


def _discards(board: BoardParts, root: Element, view: RedNovemberView, tr: Translator) -> None:
    ui = board.ui
    box = el(root, "section", cls="rn-discards")
    if view.item_discard:
        p = el(box, "p")
        el(p, "strong", tr("rn.board.item_discard"))
        # the kinds in the order they were first discarded, each with its count
        counts = Counter(board.c.items[i].kind for i in view.item_discard)
        el(p, "span", " " + ui.items(dict(counts), tr))
    if view.event_discard:
        last = board.c.events[view.event_discard[-1]].kind
        el(box, "p", tr("rn.board.last_event", card=ui.card(last, tr)))
