"""Helpers shared by the games' user interfaces."""

from __future__ import annotations

from collections.abc import Callable

from subtable.core.errors import IllegalActionError
from subtable.i18n import Translator

#: one colour per seat; always shown together with the seat's number or letter
SEAT_STYLES = (
    "bright_red",
    "bright_green",
    "bright_yellow",
    "bright_blue",
    "bright_magenta",
    "bright_cyan",
    "white",
    "orange3",
)


def style_for(seat: int) -> str:
    """The Rich style of a seat (never the only marker of it)."""
    return SEAT_STYLES[seat % len(SEAT_STYLES)]


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
