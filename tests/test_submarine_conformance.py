"""Submarine under the same generic conformance check as Red November."""

from __future__ import annotations

import pytest

from subtable.core.conformance import check_random_game
from subtable.core.rng import Rng
from subtable.games.submarine import Submarine, SubmarineState


def perturb_secret(state: SubmarineState, seat: int, rng: Rng) -> None:
    """Change only ``seat``'s secrets: its pile order, and one card between hand and pile."""
    pile, hand = state.pile[seat], state.hand[seat]
    rng.shuffle(pile)
    held = [colour for colour, k in enumerate(hand) if k]
    for j, colour in enumerate(pile):
        if held and colour != held[0]:
            hand[held[0]] -= 1
            hand[colour] += 1
            pile[j] = held[0]
            break
    state.refresh()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_conform(players: int) -> None:
    game = Submarine(players=players)
    for seed in range(3):
        check_random_game(game, seed, deep_every=23, perturb=perturb_secret)  # type: ignore[arg-type]


def test_views_show_own_hand_and_only_counts_of_others() -> None:
    state = Submarine(players=3).new_state(2)
    view = state.view(1)
    players = view["players"]
    assert players[1]["hand"] is not None and sum(players[1]["hand"].values()) == 3
    assert players[0]["hand"] is None and players[2]["hand"] is None
    assert all(p["hand_size"] == 3 and p["pile_size"] == 12 for p in players)
    assert "rng" not in repr(view) and "pile" not in {k for p in players for k in p}
    assert all(p["hand"] is None for p in state.view(None)["players"])
