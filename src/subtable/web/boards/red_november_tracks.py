"""Red November's board beside and under the submarine: the Disaster Tracks and the decks
on its right, the Time Track (three compact rows) below it."""

from __future__ import annotations

from subtable.games.red_november.view import GnomeView, RedNovemberView
from subtable.i18n import Translator
from subtable.web.boards.red_november_layout import (
    MARGIN,
    BoardParts,
    Targets,
    described,
    fold_lines,
    text_in,
)
from subtable.web.boards.svg import Element, add_class, el, label, num


# -- the Time Track ------------------------------------------------------------
def time_track(
    board: BoardParts,
    root: Element,
    view: RedNovemberView,
    tr: Translator,
    y: float,
    width: float,
    cols: int,
) -> float:
    """The Time Track from its top space down to "Rescued!", in rows of ``cols`` spaces
    across a drawing ``width`` wide; returns the bottom."""
    el(root, "text", tr("rn.board.time_track_title"), x=MARGIN, y=y + 10, cls="heading")
    y += 16
    layer = el(root, "g", cls="time-track")
    h = 44.0
    w = (width - 2 * MARGIN) / cols - 0.5
    keepers: dict[int, list[GnomeView]] = {}
    for g in view.gnomes:
        if g.keeper >= 0 and g.on_board:
            keepers.setdefault(g.keeper, []).append(g)
    tokens: dict[int, list[str]] = {}
    for name, pos in zip(board.c.tokens, view.token, strict=True):
        if pos >= 0:
            tokens.setdefault(pos, []).append(name)
    # the ghost stands for the active gnome's time (none before the first turn)
    ghost, active = (view.ghost, view.active) if view.active >= 0 else (None, None)
    top = board.c.time_top
    last = y
    for i, space in enumerate(range(top, -1, -1)):
        x = MARGIN + (i % cols) * (w + 0.5)
        yy = y + (i // cols) * (h + 0.5)
        cw, ch = w, h
        if space == 0:  # "Rescued!" fills the rest of its row (a low banner when alone)
            cw = (cols - i % cols) * (w + 0.5) - 0.5
            ch = 24 if i % cols == 0 else h
        _space(board, layer, space, x, yy, cw, ch, keepers.get(space, []),
               tokens.get(space, []), ghost, active, tr)  # fmt: skip
        last = yy + ch
    return last


def _space(
    board: BoardParts,
    layer: Element,
    space: int,
    x: float,
    y: float,
    w: float,
    h: float,
    keepers: list[GnomeView],
    tokens: list[str],
    ghost: int | None,
    active: int | None,
    tr: Translator,
) -> None:
    g = el(layer, "g", cls="space", data_space=space)
    el(g, "rect", x=x, y=y, width=w, height=h)
    el(g, "text", str(space), x=x + 2, y=y + 9, cls="n")
    details: list[str] = []
    if space == 0:
        add_class(g, "rescued")
        details.append(tr("rn.board.rescued"))
        text_in(g, tr("rn.board.rescued"), x + 14, y + 9, w - 16, size=8, cls="n")
    if board.c.event_icon[space]:
        add_class(g, "event")
        details.append(tr("rn.board.event_icon"))
        el(g, "text", "★", x=x + w - 11, y=y + 10, cls="icon ev")
    if board.c.item_icon[space]:
        add_class(g, "item")
        details.append(tr("rn.board.item_icon"))
        el(g, "text", "☆", x=x + w - 20, y=y + 10, cls="icon it")
    order = sorted(keepers, key=lambda k: -k.stack)
    if order:
        names = tr.join([board.ui.seat_name(k.seat, tr) for k in order])
        details.append(tr("rn.board.keepers", gnomes=names))
    marks: list[tuple[str, int]] = [("keeper", k.seat) for k in order]
    if ghost == space and active is not None:
        marks.append(("ghost", active))
        details.append(tr("rn.board.ghost_keeper", gnome=board.ui.seat_name(active, tr)))
    # the marks lie in a grid between the space's number and its Destruction tokens
    step, per_row, top = _grid(len(marks), w, y + h - (12 if tokens else 1), y)
    rad = step / 2 - 0.6
    # a tighter grid has smaller numbers (a style: the stylesheet sets the usual size)
    small = {} if step >= 9 else {"style": f"font-size:{num(step - 1.5)}px"}
    lift = 3 if step >= 9 else step / 3
    for j, (kind, seat) in enumerate(marks):
        cx, cy = x + 2 + step / 2 + (j % per_row) * step, top + (j // per_row) * step
        m = el(g, "g", cls=f"{kind} g{seat + 1}")
        el(m, "circle", cx=cx, cy=cy, r=rad, cls="disc" if kind == "keeper" else None)
        el(m, "text", str(seat + 1), x=cx, y=cy + lift, text_anchor="middle", **small)
    pitch = min(9.0, (w - 3.5) / max(1, len(tokens)))  # side by side, narrower if need be
    for j, name in enumerate(tokens):
        tname = board.ui.token(name, tr)
        details.append(tname)
        t = el(g, "g", cls="token", data_token=name)
        tx = x + 2 + j * pitch
        el(t, "rect", x=tx, y=y + h - 11, width=pitch - 0.5, height=9, rx=1)
        letter = tname.lstrip("¡¿«\"'")[:1].upper()
        el(t, "text", letter, x=tx + (pitch - 0.5) / 2, y=y + h - 4, text_anchor="middle")
        label(t, tname)
    label(g, described(tr, tr("rn.board.space", n=space), details))


def _grid(marks: int, w: float, bottom: float, y: float) -> tuple[float, int, float]:
    """Where ``marks`` Time Keepers and ghost lie in a space ``w`` wide whose top is ``y``:
    the grid's step, marks per row and first row's centre, the marks as large as will fit
    above ``bottom`` (the Destruction tokens' row, or the space's foot)."""
    step = 10.5 if marks <= 2 * max(1, int((w - 4) // 10.5)) else 9.0
    per_row = max(2, int((w - 4) // step))
    if y + 16 + (-(-marks // per_row) - 0.5) * step <= bottom:
        return step, per_row, y + 16
    top = y + 11.5  # below the number and the icons
    while step > 5:
        step -= 0.5
        per_row = max(1, int((w - 4) // step))
        if top + -(-marks // per_row) * step <= bottom:
            break
    return step, per_row, top + step / 2


# -- the Disaster Tracks -------------------------------------------------------
def disaster_tracks(
    board: BoardParts,
    root: Element,
    view: RedNovemberView,
    tr: Translator,
    x0: float,
    y: float,
    width: float,
) -> float:
    """The three Disaster Tracks in a column ``width`` wide at ``x0`` (beside the
    submarine): each track's name over its spaces; returns the bottom."""
    text_in(root, tr("rn.board.disaster_tracks"), x0, y + 4, width, size=14, cls="heading")
    y += 10
    length, resets = board.c.track_length, set(board.c.reset_points)
    w = width / length
    for name, level in zip(board.c.tracks, view.track, strict=True):
        tname = board.ui.track(name, tr)
        row = el(root, "g", cls=f"track track-{name}", data_track=name)
        label(row, tr("rn.board.track_level", track=tname, level=level, length=length))
        text_in(row, tname, x0, y + 13, width, size=10, font_size=10)
        for space in range(1, length + 1):
            x = x0 + (space - 1) * w
            cell = el(row, "g", cls="track-cell", aria_hidden="true")
            el(cell, "rect", x=x, y=y + 16, width=w - 1, height=18)
            mark = str(space)
            if space in resets:
                add_class(cell, "reset")
                mark += "↺"
            if space == length:
                add_class(cell, "end")
                mark = "☠"
            if space == level:
                add_class(cell, "level")
                mark = f"▲{space}"
            el(cell, "text", mark, x=x + (w - 1) / 2, y=y + 28, text_anchor="middle")
        y += 37
    return y


# -- the decks -----------------------------------------------------------------
def piles(
    board: BoardParts,
    root: Element,
    view: RedNovemberView,
    tr: Translator,
    targets: Targets,
    x0: float,
    y: float,
    width: float,
) -> float:
    """The decks, the discard piles and the Grog stash, three to a row, in a column
    ``width`` wide at ``x0``; returns the bottom."""
    text_in(root, tr("rn.board.col.decks"), x0, y + 4, width, size=14, cls="heading")
    y += 10
    discard = view.event_discard
    on_top = [board.c.events[i].kind for i in discard[-1:]]  # the last card, if any
    last = [tr("rn.board.last_event", card=board.ui.card(kind, tr)) for kind in on_top]
    piles: list[tuple[str, str, int, list[str]]] = [
        ("event_deck", tr("rn.board.event_deck"), view.event_deck_size, []),
        ("event_discard", tr("rn.board.event_discard"), len(discard), last),
        ("item_deck", tr("rn.board.item_deck"), view.item_deck_size, []),
        ("item_discard", tr("rn.board.item_discard"), len(view.item_discard), []),
        ("grog_stash", tr("rn.board.grog_stash"), view.stash, []),
    ]
    if view.event_aside:
        piles[0][3].append(tr("rn.board.kraken_aside"))
    if view.event_removed:
        piles[0][3].append(tr("rn.board.removed", n=len(view.event_removed)))
    per_row = 3
    w, h = width / per_row, 50.0
    for i, (key, name, count, extra) in enumerate(piles):
        x = x0 + (i % per_row) * w
        top = y + (i // per_row) * h
        g = el(root, "g", cls=f"pile pile-{key.replace('_', '-')}", data_pile=key)
        el(g, "rect", x=x + 1, y=top + 4, width=w - 3, height=h - 4, rx=4)
        el(g, "text", str(count), x=x + w / 2, y=top + 21, cls="count", text_anchor="middle")
        for j, line in enumerate(fold_lines(name, w - 10, 8.5, 2)):
            text_in(g, line, x + 5, top + 33 + j * 9.5, w - 10, size=8.5, cls="name")
        if key.startswith("event"):
            cards = tr.plural("rn.board.cards", "rn.board.cards.plural", count)
        else:
            cards = tr.plural("rn.board.item_count", "rn.board.item_count.plural", count)
        board.act(g, f"pile:{key}", targets, described(tr, name, [cards, *extra]), tr)
    return y + -(-len(piles) // per_row) * h + 2
