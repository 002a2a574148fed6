"""What the games' Rich boards share: one colour per seat."""

from __future__ import annotations

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
