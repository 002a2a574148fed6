"""Red November under the generic conformance check and property tests."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from subtable.core.conformance import check_random_game
from subtable.core.errors import IllegalActionError, InvalidActionError, OptionError
from subtable.core.rng import Rng
from subtable.games.red_november import RedNovember
from subtable.games.red_november.invariants import broken_invariants
from subtable.games.red_november.state import RedNovemberState

CONFIGS = [
    {"players": 4},
    {"players": 3, "greater_challenge": 2},
    {"players": 8, "less_deadly_dying": True},
    {"players": 5, "crazed_gnomes": True},
    {"players": 6, "crazed_gnomes": True, "less_deadly_dying": True, "greater_challenge": 1},
    {"players": 2},
    {"players": 1, "gnomes": 5, "heroic_sacrifice": True},
    {"players": 7, "heroic_sacrifice": True, "crazed_gnomes": True},
]


def perturb_secret(state: RedNovemberState, seat: int, rng: Rng) -> None:
    """Change only hidden things: deck orders and, under Crazed Gnomes, ``seat``'s hand."""
    rng.shuffle(state.item_deck)
    rng.shuffle(state.event_deck)
    if state.game.options["crazed_gnomes"]:
        hand = state.hands[seat]
        held = [i for i, k in enumerate(hand) if k]
        swap = [j for j, card in enumerate(state.item_deck) if held and card != held[0]]
        if held and swap:
            j = swap[0]
            hand[held[0]] -= 1
            hand[state.item_deck[j]] += 1
            state.item_deck[j] = held[0]
    state._legal = None


@pytest.mark.parametrize(
    "options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_random_games_conform(options) -> None:
    game = RedNovember(**options)
    for seed in range(12):
        check_random_game(game, seed, perturb=perturb_secret, invariants=broken_invariants)  # type: ignore[arg-type]


def test_same_seed_same_game() -> None:
    game = RedNovember(players=4)
    a, b = game.new_state(11), game.new_state(11)
    assert a.digest() == b.digest()
    assert game.new_state(12).digest() != a.digest()


def test_views_hide_decks_always_and_hands_under_crazed_gnomes() -> None:
    open_game = RedNovember(players=4).new_state(1)
    view = open_game.view(0)
    assert isinstance(view["item_deck"], int) and isinstance(view["event_deck"], int)
    assert all(g["hand"] is not None for g in view["gnomes"])
    crazed = RedNovember(players=4, crazed_gnomes=True).new_state(1)
    view = crazed.view(2)
    assert [g["hand"] is not None for g in view["gnomes"]] == [False, False, True, False]
    assert all(g["hand_size"] == 2 for g in view["gnomes"])
    assert all(g["hand"] is None for g in crazed.view(None)["gnomes"])
    assert "rng" not in view and "legal" not in crazed.view(None)


def test_checked_apply_refuses_and_leaves_state_untouched() -> None:
    state = RedNovember(players=4).new_state(3)
    before = state.to_json()
    with pytest.raises(InvalidActionError):
        state.apply("teleport 3")
    with pytest.raises(IllegalActionError) as info:
        state.apply("give grog")
    assert info.value.code == "wrong_phase"
    other = (state.current_seat() + 1) % 4
    with pytest.raises(IllegalActionError) as info:
        state.apply(state.legal_actions()[0], seat=other)
    assert info.value.code == "not_your_turn"
    assert state.to_json() == before


def test_option_validation() -> None:
    for bad in (
        {"players": 2, "gnomes": 3},
        {"players": 1, "gnomes": 2},
        {"players": 4, "gnomes": 5},
        {"players": 9},
        {"greater_challenge": 3},
        {"crazed_gnomes": "yes"},
        {"colour": 1},
    ):
        with pytest.raises(OptionError):
            RedNovember(**bad)
    assert RedNovember(players=2).num_seats == 4
    assert RedNovember(players=1).num_seats == 3
    assert RedNovember(players=2).seat_owners() == (0, 0, 1, 1)
    assert not RedNovember(players=2).abandon_allowed


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 10**6), max_size=400),
    options=st.sampled_from(CONFIGS),
)
def test_invariants_hold_along_any_game(seed, choices, options) -> None:
    """Every card in one place, token supplies, keeper order, markers on their tracks."""
    state = RedNovember(**options).new_state(seed)
    for pick in choices:
        if state.is_terminal():
            break
        ids = state.legal_action_ids()
        state.apply(ids[pick % len(ids)])
        assert broken_invariants(state) == []


def test_declared_end_reasons_cover_every_outcome() -> None:
    game = RedNovember(players=4)
    c = game.components
    losses = {*c.tracks, *c.tokens, "crew_lost"}
    assert set(game.info.end_reasons) == {"rescued"} | losses
