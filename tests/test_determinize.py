"""Determinization: sampled worlds agree with the seat's view and never read secrets."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from subtable.core.game import State
from subtable.core.rng import Rng
from subtable.core.view import SeatView
from subtable.games.red_november import RedNovember
from subtable.games.red_november import rules as rn_rules
from subtable.games.submarine import Submarine
from subtable.games.submarine.view import Phase, SubmarineView


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


RN_CONFIGS = [
    {"players": 4},
    {"players": 5, "crazed_gnomes": True},
    {"players": 3, "greater_challenge": 2},
    {"players": 8, "less_deadly_dying": True},
    {"players": 1, "gnomes": 3},
]


@pytest.mark.parametrize("options", RN_CONFIGS, ids=lambda o: ",".join(map(str, o.values())))
def test_red_november_samples_give_back_the_same_view(options: dict[str, Any]) -> None:
    game = RedNovember(**options)
    checked = 0
    for seed in range(3):
        for state in _walk(game.new_state(seed), seed, every=3):
            seat = state.current_seat()
            assert seat is not None
            for viewer in (seat, (seat + 1) % game.num_seats):
                view = state.observe(viewer)
                sample = game.determinize(view, Rng(checked))
                assert sample.observe(viewer) == view
                assert sample.view(viewer) == state.view(viewer)
                assert sample.seed != state.seed
                assert sample.legal_action_ids() == state.legal_action_ids() or viewer != seat
                checked += 1
    assert checked > 30


def test_red_november_conserves_every_card() -> None:
    game = RedNovember(players=5, crazed_gnomes=True)
    for state in _walk(game.new_state(4), 4, every=5):
        view = state.observe(state.current_seat())
        sample = game.determinize(view, Rng(1))
        items = (
            sample.item_deck
            + sample.item_discard
            + [i for h in sample.hands for i, k in enumerate(h) for _ in range(k)]
        )
        grog = game.components.item_index("grog")
        counts = Counter(items)
        counts[grog] += sample.stash
        assert counts == {it.index: it.copies for it in game.components.items}
        events = (
            sample.event_deck + sample.event_discard + sample.event_removed + sample.event_aside
        )
        assert sorted(events) == list(range(len(game.components.events)))


def test_red_november_samples_ignore_the_true_secrets() -> None:
    """The sample depends on the view and the generator only; the hidden cards are uniform."""
    game = RedNovember(players=5, crazed_gnomes=True)
    state = game.new_state(9)
    for _ in range(25):
        state.apply_unchecked(state.legal_action_ids()[0])
    seat = state.current_seat()
    assert seat is not None
    view = state.observe(seat)
    twin = state.clone()
    rng = Rng(77)
    rng.shuffle(twin.event_deck)  # only secrets change: deck orders and the generator
    rng.shuffle(twin.item_deck)
    twin.rng = Rng(123)
    twin.seed = 4242
    assert twin.observe(seat) == view
    assert twin.view(seat) == state.view(seat)
    a = game.determinize(view, Rng(5))
    b = game.determinize(twin.observe(seat), Rng(5))
    assert a.to_json() == b.to_json()
    unseen = rn_rules.unseen_events(
        game.components, view.event_discard, view.event_removed, view.event_aside
    )
    tops = Counter(game.determinize(view, Rng(k)).event_deck[-1] for k in range(3000))
    assert set(tops) == set(unseen)  # every unseen card can be on top ...
    expected = 3000 / len(unseen)
    assert max(tops.values()) < 2 * expected  # ... about equally often
    hidden = [g for g in range(5) if g != seat]
    counts = rn_rules.unseen_item_counts(game.components, view.stash, view.hands, view.item_discard)
    pool = Counter({i: k for i, k in enumerate(counts) if k})
    dealt = Counter(
        i
        for k in range(300)
        for g in hidden
        for i, c in enumerate(game.determinize(view, Rng(k)).hands[g])
        for _ in range(c)
    )
    assert set(dealt) <= set(pool)
    assert tops[state.event_deck[-1]] < 2 * expected  # the true top card is not favoured


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_submarine_samples_give_back_the_same_view(players: int) -> None:
    game = Submarine(players=players)
    checked = mid_turn = 0
    for seed in range(2):
        for state in _walk(game.new_state(seed), seed, every=5, limit=700):
            seat = state.current_seat()
            assert seat is not None
            for viewer in (seat, (seat + 1) % players, None):
                view = state.observe(viewer)
                wire = json.loads(json.dumps(view.to_json()))  # plain data: no link to the state
                assert SubmarineView.from_wire(wire, game) == view
                sample = game.determinize(view, Rng(checked))
                assert sample.observe(viewer) == view
                assert sample.view(viewer) == wire
                if viewer == seat:
                    assert sample.legal_action_ids() == state.legal_action_ids()
                    # the sample plays on like the real state (same public result)
                    a = state.legal_action_ids()[checked % len(state.legal_action_ids())]
                    twin = state.clone()
                    twin.apply_unchecked(a)
                    sample.apply_unchecked(a)
                    if twin.observe(None).pile_sizes == sample.observe(None).pile_sizes:
                        assert (sample.observe(None).cells, sample.observe(None).phase) == (
                            twin.observe(None).cells,
                            twin.observe(None).phase,
                        )
                mid_turn += bool(view.placed or view.owed or view.moving >= 0)
                checked += 1
    assert checked > 60 and mid_turn > 0


def test_submarine_sample_keeps_the_turn_bookkeeping() -> None:
    """Acted bathyscaphes, the collection under way, its jokers put down and the toll owed."""
    game = Submarine(players=3)
    seen: set[str] = set()
    for seed in range(6):
        for state in _walk(game.new_state(seed), seed, every=1, limit=900):
            view = state.observe(state.current_seat())
            if view.phase not in (Phase.ACT, Phase.GIVE, Phase.TO):
                continue
            sample = game.determinize(view, Rng(seed))
            for name in (
                "acted",
                "acting",
                "moving",
                "placed",
                "owed",
                "pend_token",
                "pend_cell",
                "column",
                "seat",
                "turn",
                "first",
                "cells",
                "baths",
            ):
                assert getattr(sample, name) == getattr(state, name), name
                if getattr(state, name) not in (-1, 0, [], ()):
                    seen.add(name)
    assert {"acted", "acting", "moving", "placed", "owed", "pend_token"} <= seen


def test_submarine_samples_ignore_the_true_secrets() -> None:
    """Only the view and the generator decide the sample; the seed is fresh."""
    game = Submarine(players=4)
    state = game.new_state(5)
    for _ in range(40):
        state.apply_unchecked(state.legal_action_ids()[-1])
    seat = state.current_seat()
    assert seat is not None
    twin = state.clone()
    rng = Rng(9)
    for s in range(4):
        rng.shuffle(twin.pile[s])  # pile orders are secret, the seat's own too
    other = (seat + 1) % 4
    pool = [col for col, k in enumerate(twin.hand[other]) for _ in range(k)] + twin.pile[other]
    rng.shuffle(pool)
    twin.hand[other] = [pool[:3].count(col) for col in range(5)]
    twin.pile[other] = pool[3:]
    twin.rng = Rng(4242)
    twin.seed = 99
    twin.history = []
    twin.refresh()
    view = state.observe(seat)
    assert twin.observe(seat) == view
    a = game.determinize(view, Rng(3))
    b = game.determinize(twin.observe(seat), Rng(3))
    assert a.to_json() == b.to_json()
    assert a.seed not in (state.seed, twin.seed) and a.history == []
    tops = Counter(game.determinize(view, Rng(k)).pile[seat][-1] for k in range(400))
    assert len(tops) == 5  # even the seat's own next card is unknown


def test_submarine_determinize_refuses_foreign_views() -> None:
    @dataclass(frozen=True)
    class Other(SeatView):
        seat: int | None

        def to_json(self) -> dict[str, Any]:
            return {"seat": self.seat}

    game = Submarine(players=3)
    with pytest.raises(ValueError, match="SubmarineView"):
        game.determinize(Other(0), Rng(1))
    with pytest.raises(ValueError, match="3-player"):
        Submarine(players=4).determinize(game.new_state(1).observe(0), Rng(1))
    view = game.new_state(1).observe(0)
    assert game.strata(view) == 0  # nothing is stratified: a stratum is refused
    with pytest.raises(ValueError, match="strata"):
        game.determinize(view, Rng(1), stratum=0)


def test_submarine_hidden_cards_vary_and_add_up() -> None:
    game = Submarine(players=4)
    state = game.new_state(3)
    for _ in range(30):
        state.apply_unchecked(state.legal_action_ids()[-1])
    seat = state.current_seat()
    assert seat is not None
    view = state.observe(seat)
    hands = set()
    for k in range(40):
        sample = game.determinize(view, Rng(k))
        total = [sum(x) for x in zip(sample.discard, sample.box_cards, *sample.hand, strict=True)]
        for pile in sample.pile:
            for colour in pile:
                total[colour] += 1
        assert total == [game.components.cards_per_colour] * len(game.components.colours)
        assert sample.hand[seat] == state.hand[seat]
        hands.add(tuple(tuple(h) for s, h in enumerate(sample.hand) if s != seat))
    assert len(hands) > 10
