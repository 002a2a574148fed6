"""The JSON form of a view, as the words declare it, matches what the engine sends: a field
renamed or added on one side fails here, not in a game."""

from __future__ import annotations

from typing import Any

from subtable.core.registry import make_game
from subtable.words.red_november_json import (
    GnomeJson,
    OutcomeJson,
    PendingJson,
    RedNovemberJson,
    RoomJson,
    ThisTurnJson,
)


def _mismatch(data: dict[str, Any], declared: Any) -> list[str]:
    """Keys the engine sent but ``declared`` lacks, and required keys it did not send."""
    keys = set(data)
    extra = keys - declared.__required_keys__ - declared.__optional_keys__
    missing = declared.__required_keys__ - keys
    return [f"extra {k}" for k in sorted(extra)] + [f"missing {k}" for k in sorted(missing)]


def _check(view: dict[str, Any]) -> list[str]:
    found = _mismatch(view, RedNovemberJson)
    found += _mismatch(view["pending"], PendingJson)
    found += _mismatch(view["this_turn"], ThisTurnJson)
    for room in view["rooms"]:
        found += _mismatch(room, RoomJson)
    for gnome in view["gnomes"]:
        found += _mismatch(gnome, GnomeJson)
    if view["outcome"] is not None:
        found += _mismatch(view["outcome"], OutcomeJson)
    return found


def test_red_november_views_match_their_declaration() -> None:
    game = make_game("red-november", players=4, crazed_gnomes=True)
    state = game.new_state(7)
    phases = set()
    for step in range(2000):
        for seat in (None, *range(game.num_seats)):
            view = state.view(seat)
            assert not _check(view), _check(view)
        phases.add(view["pending"]["phase"])
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[(step * 7) % len(legal)])
    assert state.is_terminal() and {"movement", "over"} <= phases


def test_the_check_catches_a_renamed_field() -> None:
    view = make_game("red-november", players=3).new_state(1).view(0)
    view["grog"] = view.pop("grog_stash")
    assert _check(view) == ["extra grog", "missing grog_stash"]
