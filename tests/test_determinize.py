"""Determinization: sampled worlds agree with the seat's view and never read secrets."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest

from subtable.core.game import State
from subtable.core.rng import Rng
from subtable.games.red_november import RedNovember
from subtable.games.red_november.determinize import determinize as rn_determinize
from subtable.games.red_november.determinize import unseen_events, unseen_items
from subtable.games.submarine import Submarine
from subtable.games.submarine.determinize import determinize as sub_determinize


def _walk(state: State[Any], seed: int, every: int, limit: int = 400):
    """Yield positions of a random game (every ``every`` decisions)."""
    rng = Rng(seed)
    step = 0
    while not state.is_terminal() and step < limit:
        if step % every == 0:
            yield state
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[rng.below(len(ids))])
        step += 1


RN_CONFIGS = [{"players": 4}, {"players": 5, "crazed_gnomes": True},
              {"players": 3, "greater_challenge": 2}, {"players": 8, "less_deadly_dying": True},
              {"players": 1, "gnomes": 3}]


@pytest.mark.parametrize("options", RN_CONFIGS, ids=lambda o: ",".join(map(str, o.values())))
def test_red_november_samples_give_back_the_same_view(options: dict[str, Any]) -> None:
    game = RedNovember(**options)
    checked = 0
    for seed in range(3):
        for state in _walk(game.new_state(seed), seed, every=3):
            seat = state.current_seat()
            assert seat is not None
            for viewer in (seat, (seat + 1) % game.num_seats):
                view = state.view(viewer)
                frozen = json.loads(json.dumps(view))  # plain data: no link to the state
                sample = rn_determinize(game, frozen, Rng(checked))
                assert sample.view(viewer) == view
                assert frozen == json.loads(json.dumps(view))  # the view is not modified
                assert sample.legal_action_ids() == state.legal_action_ids() or viewer != seat
                checked += 1
    assert checked > 30


def test_red_november_conserves_every_card() -> None:
    game = RedNovember(players=5, crazed_gnomes=True)
    for state in _walk(game.new_state(4), 4, every=5):
        view = state.view(state.current_seat())
        sample = rn_determinize(game, view, Rng(1))
        items = sample.item_deck + sample.item_discard + [
            i for h in sample.hands for i, k in enumerate(h) for _ in range(k)]
        grog = game.components.item_index("grog")
        counts = Counter(items)
        counts[grog] += sample.stash
        assert counts == {it.index: it.copies for it in game.components.items}
        events = (sample.event_deck + sample.event_discard + sample.event_removed
                  + sample.event_aside)
        assert sorted(events) == list(range(len(game.components.events)))


def test_red_november_samples_ignore_the_true_secrets() -> None:
    """The sample depends on the view and the generator only; the hidden cards are uniform."""
    game = RedNovember(players=5, crazed_gnomes=True)
    state = game.new_state(9)
    for _ in range(25):
        state.apply_unchecked(state.legal_action_ids()[0])
    seat = state.current_seat()
    assert seat is not None
    view = copy.deepcopy(state.view(seat))
    twin = state.clone()
    rng = Rng(77)
    rng.shuffle(twin.event_deck)  # only secrets change: deck orders and the generator
    rng.shuffle(twin.item_deck)
    twin.rng = Rng(123)
    assert twin.view(seat) == view
    a = rn_determinize(game, view, Rng(5))
    b = rn_determinize(game, twin.view(seat), Rng(5))
    assert a.to_json() == b.to_json()
    unseen = unseen_events(game, view["public"])
    tops = Counter(rn_determinize(game, view, Rng(k)).event_deck[-1] for k in range(3000))
    assert set(tops) == set(unseen)  # every unseen card can be on top ...
    expected = 3000 / len(unseen)
    assert max(tops.values()) < 2 * expected  # ... about equally often
    hidden = [g for g in range(5) if g != seat]
    pool = Counter(unseen_items(game, view["public"]))
    dealt = Counter(i for k in range(300) for g in hidden
                    for i, c in enumerate(rn_determinize(game, view, Rng(k)).hands[g])
                    for _ in range(c))
    assert set(dealt) <= set(pool)
    assert tops[state.event_deck[-1]] < 2 * expected  # the true top card is not favoured


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_submarine_samples_give_back_the_same_view(players: int) -> None:
    game = Submarine(players=players)
    checked = 0
    for seed in range(2):
        for state in _walk(game.new_state(seed), seed, every=7, limit=700):
            seat = state.current_seat()
            assert seat is not None
            for viewer in (seat, (seat + 1) % players):
                view = json.loads(json.dumps(state.view(viewer)))
                sample = sub_determinize(game, view, Rng(checked))
                assert sample.view(viewer) == view
                if viewer == seat:
                    assert sample.legal_action_ids() == state.legal_action_ids()
                checked += 1
    assert checked > 20


def test_submarine_hidden_cards_vary_and_add_up() -> None:
    game = Submarine(players=4)
    state = game.new_state(3)
    for _ in range(30):
        state.apply_unchecked(state.legal_action_ids()[-1])
    seat = state.current_seat()
    assert seat is not None
    view = state.view(seat)
    hands = set()
    for k in range(40):
        sample = sub_determinize(game, view, Rng(k))
        total = [sum(x) for x in zip(sample.discard, sample.box_cards, *sample.hand, strict=True)]
        for pile in sample.pile:
            for colour in pile:
                total[colour] += 1
        assert total == [game.components.cards_per_colour] * len(game.components.colours)
        assert sample.hand[seat] == state.hand[seat]
        hands.add(tuple(tuple(h) for s, h in enumerate(sample.hand) if s != seat))
    assert len(hands) > 10
