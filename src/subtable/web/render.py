"""What a browser seat is sent on top of the protocol: its board, its panels and the log,
rendered on the server in the connection's language from that connection's views only.

The page asks for it with ``"render": "html"`` in its ``hello``; terminal clients and
scripts do not pay for it. Everything here is built from the JSON views the same
message carries (and from the legal actions of the deciding connection), so the
rendered markup can hold nothing the views do not.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any, Protocol

from subtable.core.actions import Action
from subtable.core.events import Event
from subtable.core.game import Game, State
from subtable.i18n import Translator
from subtable.ui.games import GameUI
from subtable.web.boards import board_renderer
from subtable.web.db import TableRow
from subtable.web.seat_words import bot_who


class LiveTable(Protocol):
    """What the rendering reads of a live table (:class:`subtable.web.live.LiveTable`,
    which calls this module: a protocol here keeps the arrow one way)."""

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
    return tr("web.role.player", n=player + 1, seats=names)


def status_text(table: LiveTable, seats: Sequence[int], tr: Translator) -> str:
    """One line: the result, whose decision it is, or that it is yours."""
    state = table.state
    if state.is_terminal():
        view = state.view(seats[0] if seats else None)
        return table.ui.result(view.get("outcome") or {}, tr)
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
    views: Sequence[dict[str, Any]],
    legal: Sequence[Action],
    tr: Translator,
) -> dict[str, str]:
    """The board of the first view, the panels of every view, and the status line."""
    renderer = board_renderer(table.game)
    who = who_labels(table, seats, tr)
    board = renderer.board(views[0], tr, legal)
    # a player holding several seats sees each seat's panels; the deciding seat's first,
    # the others folded away (they differ only by that seat's own hidden cards)
    panels = renderer.panels(views[0], tr, legal, who)
    for view in views[1:]:
        name = escape(table.ui.seat_name(view["seat"], tr))
        more = renderer.panels(view, tr, [], who)
        panels += f'<details class="other-seat"><summary>{name}</summary>{more}</details>'
    return {"board": board, "panels": panels, "status": escape(status_text(table, seats, tr))}


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
    if code == "rate_limited":
        return tr("web.error.rate_limited")
    return None
