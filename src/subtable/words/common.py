"""Words every game's narration shares: the reasons the engine itself gives, the headline of
a move, a bot in the reader's words."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from subtable.core.errors import IllegalActionError
from subtable.core.events import Event
from subtable.i18n import Translator

if TYPE_CHECKING:
    from subtable.words import GameUI


def core_why(
    error: IllegalActionError, tr: Translator, seat_name: Callable[[int, Translator], str]
) -> str | None:
    """The reasons :meth:`State.apply` itself gives (any game), or ``None``."""
    code, p = error.code, error.params
    if code == "not_your_turn":
        return tr("ui.why.not_your_turn", current=seat_name(int(p["current"]), tr))
    if code in ("game_over", "foreign_action"):
        return tr(f"ui.why.{code}")
    return None


def headline(
    ui: GameUI, events: Sequence[Event], tr: Translator, order: Sequence[str]
) -> str | None:
    """The narration of the weightiest of ``events``: the first whose key comes first in
    ``order`` (a game's keys, weightiest first), or ``None`` when none is listed."""
    rank = {key: i for i, key in enumerate(order)}
    listed = [e for e in events if e.key in rank]
    if not listed:
        return None
    return ui.narrate(min(listed, key=lambda e: rank[e.key]), tr)


def bot_words(spec: str, tr: Translator) -> str:
    """A bot in the reader's words: ``bot heuristic``, ``bot heuristique`` in French, for the
    kinds people meet (``heuristic``, ``ismcts``, ``random``); any other spec as it is."""
    kinds = {
        "heuristic": tr("ui.bot.kind.heuristic"),
        "ismcts": tr("ui.bot.kind.ismcts"),
        "random": tr("ui.bot.kind.random"),
    }
    return tr("ui.who.bot", bot=kinds.get(spec, spec))
