"""The JSON form of a view, as each game declares it (``games/<game>/wire.py``, which the
words and the terminal read), matches what the engine sends: a field renamed or added on one
side fails here, not in a game."""

from __future__ import annotations

from typing import Any

import pytest

from subtable.core.registry import make_game
from subtable.games.red_november import wire as rn
from subtable.games.submarine import wire as sub


def _mismatch(data: dict[str, Any], declared: Any) -> list[str]:
    """Keys the engine sent but ``declared`` lacks, and required keys it did not send."""
    keys = set(data)
    extra = keys - declared.__required_keys__ - declared.__optional_keys__
    missing = declared.__required_keys__ - keys
    return [f"extra {k}" for k in sorted(extra)] + [f"missing {k}" for k in sorted(missing)]


def _check(view: dict[str, Any]) -> list[str]:
    """Where ``view`` (either game's) and its declaration disagree."""
    outcome = view["outcome"]
    if view["game"] == "submarine":
        found = _mismatch(view, sub.SubmarineViewJSON) + _mismatch(view["pending"], sub.PendingJSON)
        found += _mismatch(view["engine"], sub.EngineJSON)
        for player in view["players"]:
            found += _mismatch(player, sub.PlayerJSON)
        return found + (_mismatch(outcome, sub.OutcomeJSON) if outcome else [])
    found = _mismatch(view, rn.RedNovemberViewJSON) + _mismatch(view["pending"], rn.PendingJSON)
    found += _mismatch(view["this_turn"], rn.ThisTurnJSON)
    for room in view["rooms"]:
        found += _mismatch(room, rn.RoomJSON)
    for gnome in view["gnomes"]:
        found += _mismatch(gnome, rn.GnomeJSON)
    return found + (_mismatch(outcome, rn.OutcomeJSON) if outcome else [])


@pytest.mark.parametrize(
    ("name", "options"),
    [("red-november", {"players": 4, "crazed_gnomes": True}), ("submarine", {"players": 3})],
)
def test_the_views_match_their_declaration(name: str, options: dict[str, Any]) -> None:
    """Every seat's view and a spectator's, through a whole game."""
    game = make_game(name, **options)
    state = game.new_state(7)
    phases = set()
    for step in range(5000):
        for seat in (None, *range(game.num_seats)):
            view = state.view(seat)
            assert not _check(view), _check(view)
        phases.add(view["pending"]["phase"])
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[(step * 7) % len(legal)])
    assert state.is_terminal() and len(phases) > 2


def test_the_check_catches_a_renamed_field() -> None:
    view = make_game("red-november", players=3).new_state(1).view(0)
    view["grog"] = view.pop("grog_stash")
    assert _check(view) == ["extra grog", "missing grog_stash"]
    view = make_game("submarine", players=2).new_state(1).view(0)
    view["pending"]["who"] = view["pending"].pop("seat")
    assert _check(view) == ["extra who", "missing seat"]
