"""What a browser seat is sent on top of the protocol: its board, its panels and the log,
rendered on the server in the connection's language from that connection's views only.

The page asks for it with ``"render": "html"`` in its ``hello``; terminal clients and
scripts do not pay for it. Everything here is built from the typed views of the seats
whose JSON views the same message carries (and from the legal actions of the deciding
connection), so the rendered markup can hold nothing the views do not.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any, Protocol

from subtable.core.actions import Action
from subtable.core.errors import SubtableError
from subtable.core.events import Event
from subtable.core.game import Game, State
from subtable.core.view import SeatView
from subtable.i18n import Translator
from subtable.web.boards import Following, board_renderer, following
from subtable.web.boards.svg import Element, children_html, el, make, to_html, wrap
from subtable.web.db import TableRow
from subtable.web.wire import LegalAction, StageJson, StateHtml
from subtable.words import GameUI, action_as_seen, result_words
from subtable.words.seat_words import bot_who


class Entry(Protocol):
    """What the end screen reads of a table's entry (:class:`subtable.web.livetypes.LiveEntry`)."""

    @property
    def seat(self) -> int | None: ...

    @property
    def action(self) -> str: ...

    @property
    def events(self) -> Sequence[Event]: ...


class LiveTable(Protocol):
    """What the rendering reads of a live table (:class:`subtable.web.livetable.LiveTable`,
    which calls this module: a protocol here keeps the arrow one way)."""

    @property
    def id(self) -> str: ...

    @property
    def row(self) -> TableRow: ...

    @property
    def game(self) -> Game[Any]: ...

    @property
    def state(self) -> State[Any]: ...

    @property
    def ui(self) -> GameUI: ...

    @property
    def owners(self) -> tuple[int, ...]: ...

    @property
    def entries(self) -> Sequence[Entry]: ...


def who_labels(table: LiveTable, seats: Sequence[int], tr: Translator) -> dict[int, str]:
    """Who holds each seat, as seen by a connection holding ``seats``: you, a bot, a person
    by the name they chose (else "player 2"). Names are escaped where they are drawn."""
    out: dict[int, str] = {}
    for seat, player in enumerate(table.owners):
        controller = table.row.controllers[player]
        name = table.row.names.get(player)
        if seat in seats:
            out[seat] = tr("ui.who.you")
        elif controller != "human":
            out[seat] = bot_who(table.row.game, controller, tr)  # ``bot easy``
        elif name:
            out[seat] = name
        else:
            out[seat] = tr("ui.who.player", n=player + 1)
    return out


def late_line(table: LiveTable, seat: int, tr: Translator) -> str:
    """The log's note that a person's time ran out and a bot played their decision."""
    player = table.owners[seat]
    who = table.row.names.get(player) or tr("ui.who.player", n=player + 1)
    return tr("web.late.bot", seat=table.ui.seat_name(seat, tr), who=who)


def role_text(table: LiveTable, player: int | None, seats: Sequence[int], tr: Translator) -> str:
    """Who this page is: a player and its seats, or a spectator."""
    if player is None:
        return tr("web.role.spectator")
    names = tr.join([table.ui.seat_name(s, tr) for s in seats])
    if name := table.row.names.get(player):  # escaped where it is drawn
        return tr("web.role.named", name=name, seats=names)
    return tr("web.role.player", n=player + 1, seats=names)


def status_text(table: LiveTable, seats: Sequence[int], tr: Translator) -> str:
    """One line: the result, whose decision it is, or that it is yours."""
    state = table.state
    if state.is_terminal():
        return result_text(table, tr)
    decider = state.current_seat()
    if decider is None:
        return ""
    name = table.ui.seat_name(decider, tr)
    if decider in seats:
        return tr("web.status.yours", seat=name)
    return tr("web.status.waiting", seat=name, who=who_labels(table, seats, tr)[decider])


def state_html(
    table: LiveTable,
    seats: Sequence[int],
    views: Sequence[SeatView],
    legal: Sequence[Action],
    tr: Translator,
    rows: Sequence[LegalAction] = (),
) -> StateHtml:
    """The board of the first view, the panels of every view, the status line, the options
    (``rows``: the legal actions' labels and hints), the rules for now and, once the game
    is over, the end screen."""
    renderer = board_renderer(table.game)
    parts = following(renderer)
    who = who_labels(table, seats, tr)
    board = renderer.board(views[0], tr, legal)
    # a player holding several seats sees each seat's panels; the deciding seat's first,
    # the others folded away (they differ only by that seat's own hidden cards)
    panels = renderer.panels(views[0], tr, legal, who)
    for view in views[1:]:
        if view.seat is None:  # a spectator has one view only
            continue
        other = make("details", cls="other-seat")
        el(other, "summary", table.ui.seat_name(view.seat, tr))
        panels += wrap(other, renderer.panels(view, tr, [], who))
    out: StateHtml = {
        "board": board,
        "panels": panels,
        "status": escape(status_text(table, seats, tr)),
        "options": options_html(parts, views[0], legal, rows, tr),
        "unavailable": unavailable_html(table, parts, views[0], legal, tr),
        "help": help_html(table, views[0], tr),
        "end": "",
    }
    if table.state.is_terminal():
        out["end"] = end_html(table, parts, seats, views[0], who, tr)
    return out


def options_html(
    renderer: Following[Any],
    view: SeatView,
    legal: Sequence[Action],
    rows: Sequence[LegalAction],
    tr: Translator,
) -> str:
    """The options as list items: one button per action, and the actions that differ only
    by a number (a fix-it's minutes) as the choices of one row, each with its odds."""
    root = make("ol")
    groups: dict[str, tuple[Element, Element]] = {}  # a row's key: its item and its choices
    for action, row in zip(legal, rows, strict=True):
        label, hint = row["label"], row["hint"] or ""
        choice = renderer.choice(action, view, tr)
        if choice is None:
            li = el(root, "li")
            button = el(li, "button", type="button", cls="action", data_id=action.id)
            el(button, "span", label, cls="label")
            if hint:
                el(button, "small", hint, cls="warn" if "⚠" in hint else None)
            continue
        if choice.key not in groups:
            li = el(root, "li", cls="group")
            head = f"opt-{len(groups)}"
            el(li, "span", choice.title, cls="group-title", id=head)
            groups[choice.key] = (li, el(li, "span", cls="chips", role="group",
                                         aria_labelledby=head))  # fmt: skip
            if "⚠" in hint:  # a warning (heroic sacrifice) holds for the whole row
                el(li, "small", hint[hint.index("⚠") :], cls="warn")
        chips = groups[choice.key][1]
        said = f"{label} — {hint}" if hint else label
        button = el(chips, "button", type="button", cls="action chip", data_id=action.id,
                    title=said)  # fmt: skip
        el(button, "span", said, cls="sr-only")
        el(button, "span", choice.text, aria_hidden="true")
        if choice.detail:
            el(button, "small", choice.detail, aria_hidden="true")
    return children_html(root)


def unavailable_html(
    table: LiveTable,
    renderer: Following[Any],
    view: SeatView,
    legal: Sequence[Action],
    tr: Translator,
) -> str:
    """The deciding seat's actions that are not possible now, each a button that asks the
    server ``why`` (the answer reads only the asker's own decision)."""
    if not legal:
        return ""
    root = make("ul")
    for n, notation in enumerate(renderer.unavailable(view, legal)):
        try:
            action = table.game.parse_action(notation)
        except SubtableError:
            continue
        choice = renderer.choice(action, view, tr)
        name = choice.title if choice is not None else table.ui.action_label(action, tr)
        li = el(root, "li")
        button = el(li, "button", type="button", cls="why", data_notation=notation,
                    aria_expanded="false", aria_controls=f"why-{n}")  # fmt: skip
        el(button, "span", name, cls="label")
        el(button, "small", tr("web.table.why"))
        el(li, "p", cls="why-text", id=f"why-{n}", hidden="hidden")
    return children_html(root)


def help_html(table: LiveTable, view: SeatView, tr: Translator) -> str:
    """The terminal's ``help``: the rules for the decision on screen, as list items."""
    root = make("ul")
    for line in table.ui.reminder(view, tr):
        el(root, "li", line)
    return children_html(root)


def end_html(
    table: LiveTable,
    renderer: Following[Any],
    seats: Sequence[int],
    view: SeatView,
    who: dict[int, str],
    tr: Translator,
) -> str:
    """The end screen: the result, the move that ended the game, the game's own summary
    (why, each seat), the seed, the replay and — for a player — play again."""
    head = make("div", cls="end-head")
    el(head, "h2", result_text(table, tr), id="end-title")
    last = table.entries[-1] if table.entries else None
    if last is not None and last.seat is not None:
        action = table.game.parse_action(last.action)
        label = action_as_seen(table.game, table.ui, action, last.seat, last.events, seats, tr)[1]
        el(head, "p", tr("web.end.after", seat=table.ui.seat_name(last.seat, tr),
                         who=who.get(last.seat, ""), action=label), cls="end-last")  # fmt: skip
    tail = make("div", cls="end-tail")
    el(tail, "p", tr("web.end.seed", seed=table.row.seed), cls="end-seed")
    actions = el(tail, "p", cls="end-actions")
    if seats:
        again = el(actions, "button", tr("web.end.again"), type="button", id="again",
                   cls="primary")  # fmt: skip
        again.tail = " "
    link = el(actions, "a", tr("web.replay.watch"), href=f"/replay/{table.id}?lang={tr.lang}")
    link.tail = " "
    el(actions, "a", tr("web.replay.download"), href=f"/api/tables/{table.id}/record",
       download=f"{table.id}.json")  # fmt: skip
    if seats:
        el(tail, "p", tr("web.end.again_help"), cls="end-help")
    el(tail, "div", cls="rematch", id="rematch", hidden="hidden")
    screen = make("section", cls="end-screen", aria_labelledby="end-title")
    return wrap(screen, to_html(head), renderer.end(view, tr, who), to_html(tail))


def result_text(table: LiveTable, tr: Translator) -> str:
    """The result of the table's finished game in words (``""`` while it goes on)."""
    outcome = table.state.outcome()
    if outcome is None:
        return ""
    return result_words(table.ui, outcome, tr)


def stage_json(table: LiveTable, events: Sequence[Event], tr: Translator) -> StageJson:
    """An entry's stage (dice and cards, their lines, the board's changed parts)."""
    stage = following(board_renderer(table.game)).stage(events, tr)
    return {
        "html": stage.html,
        "lines": list(stage.lines),
        "marks": list(stage.marks),
        "weight": stage.weight,
    }


def narrate(table: LiveTable, events: Sequence[Event], tr: Translator) -> list[str]:
    """The log lines of (already redacted) events, in ``tr``'s language."""
    lines: list[str] = []
    for event in events:
        try:
            line = table.ui.narrate(event, tr)
        except (KeyError, TypeError, ValueError, IndexError):
            line = None
        if line:
            lines.append(line)
    return lines


def error_text(code: str, tr: Translator) -> str | None:
    """A refusal's reason in the connection's language, for the codes a page can meet."""
    if code == "stale_seq":
        return tr("web.error.stale_seq")
    if code == "not_your_turn":
        return tr("web.error.not_your_turn")
    if code == "not_your_seat":
        return tr("web.error.not_your_seat")
    if code == "spectator":
        return tr("web.error.spectator")
    if code == "game_over":
        return tr("web.error.game_over")
    if code in ("bad_token", "no_table"):
        return tr("web.error.bad_link")
    if code == "unreadable":
        return tr("web.error.unreadable")
    if code == "rate_limited":
        return tr("web.error.rate_limited")
    return None
