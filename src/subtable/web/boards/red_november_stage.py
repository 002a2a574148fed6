"""Red November on the page's stage, in its options and at its end (HTML, from one seat's
view and the events as redacted for it).

* :func:`stage`: a fix-it roll as a die beside what it needed ("needs ≤ 6 — rolled 8 —
  failed"), each event card turned face up with its rules text and what it did (the
  room the die picked, fire, water, the tracks), a Faint Check's card; and the board's
  parts the entry changed (rooms, hatches, tracks, tokens, gnomes, the Time Track).
* :func:`choice`: a fix-it's (or a draw's) minutes as choices of one row, with the odds.
* :func:`unavailable`: the fix-its of the active gnome's room, his items, drawing and
  abandoning that are not possible now (the page asks ``why``).
* :func:`end`: why the game ended (which track or token, at which space of the Time
  Track) and each gnome's fate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from subtable.core.actions import Action
from subtable.core.events import Event
from subtable.games.red_november.actions import FIX_OF_KIND, ROOM_FIX_KINDS, Kind, RNAction
from subtable.games.red_november.components import SEA
from subtable.games.red_november.view import Phase, RedNovemberView
from subtable.i18n import Translator
from subtable.web.boards import Choice, Stage
from subtable.web.boards.red_november_layout import BoardParts
from subtable.web.boards.svg import Element, el, make, to_html

#: the notation word of each room fix-it
_WORDS = {
    Kind.FIX_ENGINE: "fix-engine",
    Kind.FIX_PUMPS: "fix-pumps",
    Kind.FIX_REACTOR: "fix-reactor",
    Kind.STOP_MISSILES: "stop-missiles",
    Kind.KILL_KRAKEN: "kill-kraken",
}
#: events that end a figure's story (what follows belongs to no card)
_BREAKS = frozenset({"turn_started", "turn_ended", "game_won", "game_lost"})
#: events that say nothing worth a caption line on the stage
_QUIET = frozenset({"event_drawn", "room_rolled", "fix_attempted", "faint_check"})


@dataclass
class _Figure:
    kind: str  # "roll", "card", "faint"
    params: dict[str, Any]
    die: int | None = None
    effects: list[str] = field(default_factory=lambda: list[str]())


# -- the stage ----------------------------------------------------------------------------
def stage(board: BoardParts, events: Sequence[Event], tr: Translator) -> Stage:
    """Dice, cards and the changed parts of the board for one entry's ``events``."""
    figures: list[_Figure] = []
    marks: list[str] = []
    current: _Figure | None = None
    for event in events:
        key, p = event.key, event.params
        for mark in _marks(board, key, p):
            if mark not in marks:
                marks.append(mark)
        if key == "fix_attempted":
            current = _Figure("roll", dict(p))
            figures.append(current)
        elif key == "event_drawn":
            current = _Figure("card", dict(p))
            figures.append(current)
        elif key == "faint_check":
            figures.append(_Figure("faint", dict(p)))
        elif key == "room_rolled" and current is not None and current.kind == "card":
            current.die = int(p["room"])
            current.effects.append(_line(board, event, tr))
        elif key in _BREAKS:
            current = None
        elif current is not None and key not in _QUIET:
            line = _line(board, event, tr)
            if line:
                current.effects.append(line)
    if not figures:
        return Stage("", (), tuple(marks), 0)
    root = make("div", cls="stage-figures")
    lines = tuple(_figure(board, root, f, tr) for f in figures)
    return Stage(to_html(root), lines, tuple(marks), len(figures))


def _line(board: BoardParts, event: Event, tr: Translator) -> str:
    try:
        return board.ui.narrate(event, tr) or ""
    except (KeyError, TypeError, ValueError, IndexError):
        return ""


def _figure(board: BoardParts, root: Element, f: _Figure, tr: Translator) -> str:
    """Draw one figure; return its short line."""
    ui = board.ui
    p = f.params
    if f.kind == "roll":
        fix = ui.fix(str(p["fix"]), tr)
        if "hatch" in p:
            fix = f"{fix} {ui.hatch(p['hatch'])}"
        title = tr("web.stage.fix", gnome=ui.seat_name(int(p["gnome"]), tr), fix=fix,
                   minutes=tr("unit.min", n=p["minutes"]))  # fmt: skip
        if p.get("roll") is None:  # too late: no die is rolled
            verdict = tr("web.stage.no_roll")
            ok = False
        else:
            ok = bool(p["success"])
            verdict = tr(
                "web.stage.roll",
                target=p["target"],
                roll=p["roll"],
                result=tr("web.stage.success") if ok else tr("web.stage.failure"),
            )
        fig = el(root, "figure", cls=f"stage-fig roll {'ok' if ok else 'fail'}")
        _die(fig, p.get("roll"), tr)
        cap = el(fig, "figcaption")
        el(cap, "strong", title)
        el(cap, "span", verdict, cls="verdict")
        for line in f.effects:
            el(cap, "span", line, cls="effect")
        return f"{title}: {verdict}"
    kind = str(p["card"])
    name = ui.card(kind, tr)
    number = p.get("number")
    fig = el(root, "figure", cls=f"stage-fig card card-{kind.replace('_', '-')}")
    face = el(fig, "div", cls="card-face")
    if number:
        el(face, "span", str(number), cls="card-num", title=tr("web.stage.faint_number", n=number))
    el(face, "strong", name, cls="card-title")
    if f.kind == "faint":
        cap = el(fig, "figcaption")
        line = _line(board, Event("faint_check", p), tr)
        el(cap, "span", line, cls="verdict")
        return line
    if tr.has(f"rn.event_text.{kind}"):
        el(face, "p", tr(f"rn.event_text.{kind}"), cls="card-text")
    cap = el(fig, "figcaption")
    el(cap, "strong", tr("web.stage.event", space=p["space"]))
    if f.die is not None:
        row = el(cap, "span", cls="effect rolled")
        _die(row, f.die, tr, small=True)
    for line in f.effects:  # none when the card waits for a choice (Fire Spreads)
        el(cap, "span", line, cls="effect")
    said = "; ".join(line.rstrip(".") for line in f.effects)
    return f"{name}: {said}" if said else name


def _die(parent: Element, value: Any, tr: Translator, *, small: bool = False) -> None:
    shown = "–" if value is None else str(value)
    el(parent, "span", shown, cls="die small" if small else "die", role="img",
       aria_label=tr("web.stage.die", n=shown))  # fmt: skip


def _marks(board: BoardParts, key: str, p: dict[str, Any]) -> list[str]:
    """CSS selectors (inside the board) of what ``key`` changed."""
    c = board.c
    out: list[str] = []
    if key in ("fire_started", "fire_out", "room_flooded", "water_pumped", "fire_spread"):
        out.append(f'[data-room="{int(p["room"])}"]')
    elif key in ("rooms_flooded", "water_reflowed"):
        out += [f'[data-room="{int(r)}"]' for r in p.get("rooms", [])]
    elif key in ("hatch_blocked", "hatch_unblocked"):
        a, b = (int(x) for x in p["hatch"])
        h = c.hatch_between(a, b)
        if h is not None and h >= 0:
            out.append(f'[data-hatch="{h}"]')
    elif key == "hatch_opened":
        a, b = int(p["room"]), int(p["to"])
        h = c.hatch_between(a, b)
        if h is not None and h >= 0:
            out.append(f'[data-hatch="{h}"]')
        elif h == -1:  # an exterior hatch: drawn on the room's floor
            out.append(f'[data-exterior="{b if a == SEA else a}"]')
    elif key in ("gnome_moved", "gnome_fainted", "gnome_stood_up"):
        out.append(f'.gnome[data-seat="{int(p["gnome"])}"]')
    elif key in ("gnome_killed", "gnome_replaced") and isinstance(p.get("room"), int):
        out.append(f'[data-room="{int(p["room"])}"]')
    elif key in ("track_advanced", "track_reset"):
        out.append(f'[data-track="{_safe(p["track"])}"]')
    elif key == "destruction_placed":
        out.append(f'[data-token="{_safe(p["token"])}"]')
    elif key == "event_drawn":
        out.append('[data-pile="event_discard"]')
    elif key == "turn_ended" and isinstance(p.get("space"), int):
        out.append(f'[data-space="{int(p["space"])}"]')
    return out


def _safe(name: Any) -> str:
    """A component name fit for a selector (they are slugs; anything else is dropped)."""
    text = str(name)
    return text if text.replace("_", "").replace("-", "").isalnum() else ""


# -- the options --------------------------------------------------------------------------
def choice(
    board: BoardParts, action: Action, view: RedNovemberView, tr: Translator
) -> Choice | None:
    """A fix-it's minutes (with the odds), a draw's cards, going in through a hatch or
    staying, or the gnomes to trade with (or attack) as choices of one row."""
    if not isinstance(action, RNAction):
        return None
    ui = board.ui
    kind = action.kind
    if kind in (Kind.MOVE, Kind.OPEN):
        title = tr("web.rn.open_to", room=ui.room(action.target, tr))
        go = tr("web.rn.go_in") if kind == Kind.MOVE else tr("web.rn.stay")
        return Choice(f"hatch:{action.target}", title, go, "")
    if kind in (Kind.TRADE, Kind.ATTACK):  # a row of the gnomes it may be done with
        title = tr("web.rn.trade_with") if kind == Kind.TRADE else tr("web.rn.attack_with")
        return Choice(f"{int(kind)}", title, ui.seat_name(action.target, tr), "")
    if action.minutes <= 0:
        return None
    key = f"{int(kind)}:{action.target}"
    if kind == Kind.DRAW:
        return Choice(key, tr("web.rn.draw"), str(action.minutes),
                      tr("unit.min", n=action.minutes))  # fmt: skip
    fix = FIX_OF_KIND.get(kind)
    if fix is None:
        return None
    title = ui.fix(fix, tr)
    if kind == Kind.UNBLOCK:
        title = f"{title} {action.label}"
    detail = ""
    if view.active >= 0:  # a turn under way: the ghost tells the minutes left
        percent = round((ui.odds(action, view) or 0.0) * 100)  # tenths: exact
        detail = tr("web.rn.percent", percent=percent)
    return Choice(key, title, tr("unit.min", n=action.minutes), detail)


def unavailable(board: BoardParts, view: RedNovemberView, legal: Sequence[Action]) -> list[str]:
    """The active gnome's actions he may look for that are not possible now: the fix-its of
    his room, Extinguish Fire or Pump Water where there is fire or water, drawing in the
    Equipment Stores or the Captain's Cabin, Abandon Comrades in the Sea, his items."""
    c = board.c
    active = view.active
    if view.phase != Phase.MOVE or active < 0 or view.seat != active:
        return []
    gnome = view.gnomes[active]
    if not gnome.on_board:
        return []
    room = gnome.room
    kinds = {a.kind for a in legal if isinstance(a, RNAction)}
    used = {a.target for a in legal if isinstance(a, RNAction) and a.kind == Kind.USE}
    out: list[str] = []
    for kind in ROOM_FIX_KINDS:
        repair = c.repairs.get(FIX_OF_KIND[kind])
        if repair is not None and repair.room == room and kind not in kinds:
            out.append(f"{_WORDS[kind]} 1")
    if room != SEA:
        if view.fire[room] and Kind.EXTINGUISH not in kinds:
            out.append("extinguish 1")
        if view.water[room] and Kind.PUMP not in kinds:
            out.append("pump 1")
    if room in (c.stores_room, c.cabin_room) and Kind.DRAW not in kinds:
        out.append("draw 1")
    if room == SEA and Kind.ABANDON not in kinds:
        out.append("abandon")
    for index, count in enumerate(gnome.hand or ()):
        if count and index not in used:
            out.append(f"use {c.items[index].kind.replace('_', '-')}")
    return out


# -- the end ------------------------------------------------------------------------------
def end(board: BoardParts, view: RedNovemberView, tr: Translator, who: dict[int, str]) -> str:
    """Why the game ended (the track or token, the space of the Time Track) and each
    gnome's fate."""
    ui = board.ui
    c = board.c
    reason = view.book.result_reason if view.is_over else ""
    root = make("div", cls="end-game rn-end")
    # the minute the game ended at: the ghost's (the active gnome's time)
    minute = view.ghost if view.active >= 0 else None
    turn = view.turn
    if reason in c.tokens:
        space = view.token[c.tokens.index(reason)]
        text = tr("web.end.rn.token", token=ui.token(reason, tr), space=space if space > 0 else "–",
                  minute=minute if minute is not None else "–", turn=turn)  # fmt: skip
    elif reason in c.tracks:
        level = view.track[c.tracks.index(reason)]
        text = tr("web.end.rn.track", track=ui.track(reason, tr), level=level,
                  length=c.track_length, minute=minute if minute is not None else "–",
                  turn=turn)  # fmt: skip
    elif reason == "rescued":
        text = tr("web.end.rn.rescued", turn=turn)
    else:
        text = tr("web.end.rn.crew_lost", turn=turn)
    el(root, "p", text, cls="end-why")
    table = el(root, "table", cls="end-seats")
    head = el(el(table, "thead"), "tr")
    for col in ("gnome", "player", "status", "keeper"):
        el(head, "th", tr(f"rn.board.col.{col}"), scope="col")
    body = el(table, "tbody")
    winners = set(view.book.result_winners if view.is_over else ())
    for g in view.gnomes:
        s = g.seat
        row = el(body, "tr", data_seat=s)
        name = ui.seat_name(s, tr)
        if s in winners:
            name = tr("web.end.winner", name=name)
        el(row, "th", name, scope="row")
        el(row, "td", who.get(s, ""))
        if not g.alive:
            fate = tr("rn.status.dead")
        elif g.abandoned:
            fate = tr("rn.status.abandoned")
        else:
            fate = tr("web.end.rn.aboard", room=ui.room(g.room, tr))
        el(row, "td", fate)
        el(row, "td", str(g.keeper) if g.keeper >= 0 else "–")
    return to_html(root)
