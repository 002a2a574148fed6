"""A Submarine view's JSON form, read as its game declares it
(:mod:`subtable.games.submarine.wire`), like :mod:`subtable.words.red_november_json`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from subtable.games.submarine.wire import PlayerJSON, SubmarineViewJSON

__all__ = ["PlayerJSON", "SubmarineViewJSON", "view_json"]


def view_json(view: Mapping[str, Any]) -> SubmarineViewJSON:
    """``view`` (a Submarine view's JSON form, from the engine or the wire) as declared."""
    return cast(SubmarineViewJSON, view)
