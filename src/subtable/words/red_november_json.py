"""A Red November view's JSON form, read as its game declares it
(:mod:`subtable.games.red_november.wire`): the terminal's board and the narration read a
view as it arrives from the engine or over the wire, and the type checker sees each field
they read, so that a renamed field fails the check instead of a game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from subtable.games.red_november.wire import GnomeJSON, RedNovemberViewJSON, RoomJSON

__all__ = ["GnomeJSON", "RedNovemberViewJSON", "RoomJSON", "view_json"]


def view_json(view: Mapping[str, Any]) -> RedNovemberViewJSON:
    """``view`` (a Red November view's JSON form, from the engine or the wire) as declared."""
    return cast(RedNovemberViewJSON, view)
