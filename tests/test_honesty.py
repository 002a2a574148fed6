"""Fair play by construction: no view, and no bot, depends on what its seat cannot see.

``tests/honesty.py`` re-samples everything a seat cannot see (seed, generator,
deck orders, other hands and piles) from the saved state, independently of the
views, and demands the same view and the same bot choices. The last tests plant
leaks and show that the check catches each of them.
"""

from __future__ import annotations

from typing import Any

import pytest

from honesty import Leak, check_game, check_position
from subtable.core.registry import make_game
from subtable.core.rng import Rng

pytestmark = pytest.mark.slow  # most tests here take over two seconds

SEED = 0x5EED_0F_F41_2026  # large, so that no other number in a view can equal it

RED_NOVEMBER = [
    {"players": 4},
    {"players": 4, "crazed_gnomes": True},
    {"players": 5, "crazed_gnomes": True, "less_deadly_dying": True, "greater_challenge": 2},
    {"players": 2, "crazed_gnomes": True},
    {"players": 1, "gnomes": 4, "heroic_sacrifice": True},
]


@pytest.mark.parametrize(
    "options", RED_NOVEMBER, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_red_november_views_and_bots_depend_only_on_what_the_seat_sees(
    options: dict[str, Any],
) -> None:
    game = make_game("red-november", **options)
    assert sum(check_game(game, SEED + k) for k in range(2)) > 10


@pytest.mark.parametrize("players", [2, 3, 5])
def test_submarine_views_and_bots_depend_only_on_what_the_seat_sees(players: int) -> None:
    game = make_game("submarine", players=players)
    assert check_game(game, SEED, every=41) > 10


def _midgame(name: str, **options: Any) -> Any:
    state = make_game(name, **options).new_state(SEED)
    rng = Rng(3)
    for _ in range(25):
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[rng.below(len(ids))])
    return state


def test_a_planted_seed_in_the_view_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _midgame("red-november", players=4)
    check_position(state, Rng(1), bots=())  # honest as it stands
    cls = type(state)
    honest = cls.view

    def leaky(self: Any, seat: int | None) -> dict[str, Any]:
        return {**honest(self, seat), "options_digest": self.seed}

    monkeypatch.setattr(cls, "view", leaky)
    with pytest.raises(Leak, match="seed"):
        check_position(state, Rng(1), bots=())


def test_a_planted_deck_order_in_the_view_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _midgame("submarine", players=3)
    cls = type(state)
    honest = cls.view

    def leaky(self: Any, seat: int | None) -> dict[str, Any]:
        return {**honest(self, seat), "next_card": self.pile[0][-1] if self.pile[0] else None}

    monkeypatch.setattr(cls, "view", leaky)
    with pytest.raises(Leak, match="view changed"):
        check_position(state, Rng(1), bots=())


def test_a_bot_that_peeks_at_the_state_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from subtable.bots import base
    from subtable.bots.random_bot import RandomBot

    state = _midgame("red-november", players=4)

    def peeking(self: Any, obs: Any) -> Any:
        actions = obs.legal_actions
        return actions[obs._state.event_deck[-1] % len(actions)]  # reads the deck's order

    monkeypatch.setattr(RandomBot, "choose", peeking)
    assert base.bot_class("random") is RandomBot
    caught = False
    rng = Rng(5)
    for _ in range(20):  # some positions offer a single action: play on until one does not
        try:
            check_position(state, rng, bots=(("random", {}),))
        except Leak as leak:
            assert "bot random" in str(leak)
            caught = True
            break
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[rng.below(len(ids))])
    assert caught
