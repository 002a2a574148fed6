"""The typed Red November view: what it holds, what it never holds, and its wire form."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest

from subtable.core.rng import Rng
from subtable.core.view import SeatView
from subtable.games.red_november import RedNovember, RedNovemberState, rules
from subtable.games.red_november.view import (
    PHASE_NAMES,
    Bookkeeping,
    Choice,
    GnomeView,
    Phase,
    RedNovemberView,
    ThisTurn,
)

BIG_SEED = 0x5EED_0F_F41_2026  # no other number of a view can equal it

#: every key of the wire form that a front end reads back (the remote terminal, through
#: ``RedNovember.view_from_json``, and the browser page)
UI_KEYS = {
    "game",
    "seat",
    "turn",
    "active",
    "ghost",
    "pending",
    "rooms",
    "blocked",
    "tracks",
    "tokens",
    "gnomes",
    "event_deck",
    "event_discard",
    "event_removed",
    "kraken_set_aside",
    "item_deck",
    "item_discard",
    "grog_stash",
    "this_turn",
    "options",
    "outcome",
}
GNOME_KEYS = {
    "seat",
    "room",
    "alive",
    "abandoned",
    "fainted",
    "intoxication",
    "keeper",
    "stack",
    "red_area",
    "hand",
    "hand_size",
}
THIS_TURN_KEYS = {"grog", "enter_fire", "aqualung", "lucky", "crowbar", "started_outside", "bonus"}


@dataclasses.dataclass(frozen=True, slots=True)
class _OtherView(SeatView):
    """Another game's view."""

    seat: int | None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat}


def positions(game: RedNovember, seed: int, every: int = 3) -> Iterator[RedNovemberState]:
    state = game.new_state(seed)
    rng = Rng(seed)
    step = 0
    while True:
        if step % every == 0 or state.is_terminal():
            yield state
        if state.is_terminal():
            return
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[rng.below(len(ids))])
        step += 1


def ints(value: Any) -> Iterator[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from ints(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from ints(v)


def keys_of(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys_of(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_of(v)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 4},
        {"players": 5, "crazed_gnomes": True},
        {"players": 2, "crazed_gnomes": True, "greater_challenge": 2},
    ],
)
def test_the_view_never_carries_the_seed_the_generator_or_the_history(
    options: dict[str, Any],
) -> None:
    game = RedNovember(**options)
    for state in positions(game, BIG_SEED, every=5):
        for seat in (None, *range(game.num_seats)):
            wire = state.view(seat)
            assert "public" not in wire
            assert not {"seed", "rng", "history"} & set(keys_of(wire))
            assert state.seed not in set(ints(wire))
            assert state.rng.state not in set(ints(wire))
            typed = state.observe(seat)
            names = {f.name for f in dataclasses.fields(typed)}
            assert not {"seed", "rng", "history", "event_deck", "item_deck"} & names
            json.dumps(wire)  # JSON-ready


def test_hidden_parts_do_not_change_the_view() -> None:
    """Deck orders, the generator and (Crazed Gnomes) the other hands' contents are unseen."""
    game = RedNovember(players=5, crazed_gnomes=True)
    for state in positions(game, 11, every=7):
        for seat in (None, *range(5)):
            twin = state.clone()
            rng = Rng(seat or 99)
            rng.shuffle(twin.event_deck)
            rng.shuffle(twin.item_deck)
            twin.rng = Rng(12345)
            twin.seed = 777
            others = [g for g in range(5) if g != seat and sum(twin.hands[g])]
            if len(others) >= 2:  # swap two other gnomes' hands of the same size
                a, b = others[:2]
                if sum(twin.hands[a]) == sum(twin.hands[b]):
                    twin.hands[a], twin.hands[b] = twin.hands[b], twin.hands[a]
            twin._legal = None
            assert twin.observe(seat) == state.observe(seat)
            assert twin.view(seat) == state.view(seat)


def test_crazed_gnomes_hide_the_other_hands_and_only_those() -> None:
    game = RedNovember(players=4, crazed_gnomes=True)
    state = game.new_state(3)
    for seat in range(4):
        view = state.observe(seat)
        assert view.hands[seat] == tuple(state.hands[seat])
        assert all(view.hands[g] is None for g in range(4) if g != seat)
        assert view.hand_size == tuple(sum(h) for h in state.hands)
        wire = state.view(seat)
        assert [g["hand"] is None for g in wire["gnomes"]] == [g != seat for g in range(4)]
    assert all(h is None for h in state.observe(None).hands)
    open_game = RedNovember(players=4).new_state(3)
    assert all(h is not None for h in open_game.observe(None).hands)


def test_legal_actions_are_shown_to_the_deciding_seat_only() -> None:
    game = RedNovember(players=4)
    for state in positions(game, 5, every=4):
        decider = state.current_seat()
        for seat in (None, *range(4)):
            view = state.observe(seat)
            wire = state.view(seat)
            if seat is not None and seat == decider:
                assert view.legal == tuple(state.legal_action_ids())
                assert wire["legal"] == [a.notation() for a in state.legal_actions()]
            else:
                assert view.legal == () and "legal" not in wire


def test_the_wire_form_keeps_every_key_the_table_reads() -> None:
    game = RedNovember(players=5, crazed_gnomes=True, greater_challenge=2)
    seen_phases = set()
    for state in positions(game, 2, every=1):
        wire = state.view(0)
        assert set(wire) >= UI_KEYS
        assert all(set(g) >= GNOME_KEYS for g in wire["gnomes"])
        assert set(wire["this_turn"]) >= THIS_TURN_KEYS
        pend = wire["pending"]
        assert pend["phase"] in PHASE_NAMES
        seen_phases.add(pend["phase"])
        assert pend["seat"] == state.current_seat()
        if pend["phase"] == "event_choice":
            assert pend["choice"] in RedNovember.vocabulary.extra["choices"]
        if pend["phase"] in ("trade_give", "trade_back", "defend"):
            assert pend["partner"] == state.partner
        assert wire["event_deck"] == len(state.event_deck)
        assert wire["item_deck"] == len(state.item_deck)
        assert sum(wire["item_discard"].values()) == len(state.item_discard)
        assert [r["room"] for r in wire["rooms"]] == list(range(1, 11))
        assert wire["grog_stash"] == state.stash
        if state.is_terminal():
            out = state.outcome()
            assert out is not None
            assert wire["outcome"] == {"reason": out.reason, "winners": list(out.winners)}
        else:
            assert wire["outcome"] is None
    assert {"movement", "over"} <= seen_phases


def test_the_typed_view_mirrors_the_state() -> None:
    game = RedNovember(players=6, less_deadly_dying=True)
    for state in positions(game, 8, every=2):
        v = state.observe(2)
        assert isinstance(v, RedNovemberView) and v.seat == 2
        assert isinstance(v.phase, Phase) and isinstance(v.choice, Choice)
        assert isinstance(v.this_turn, ThisTurn) and isinstance(v.book, Bookkeeping)
        assert (v.turn, v.phase, v.decider, v.active, v.ghost) == (
            state.turn,
            state.phase,
            state.decider,
            state.active,
            state.ghost,
        )
        assert v.fire == tuple(state.fire) and v.water == tuple(state.water)
        assert v.keeper == tuple(state.keeper) and v.stack == tuple(state.seq)
        assert v.room == tuple(state.room) and v.intoxication == tuple(state.intox)
        assert v.event_deck_size == len(state.event_deck)
        assert v.item_discard == tuple(state.item_discard)
        assert v.this_turn.bonus == tuple(state.t_bonus)
        assert v.book.discards == tuple(state.discards)
        gnomes = v.gnomes
        assert all(isinstance(g, GnomeView) for g in gnomes)
        assert [g.on_board for g in gnomes] == [state.on_board(g) for g in range(6)]
        assert v.is_over == state.is_terminal()
        for f in dataclasses.fields(v):
            value = getattr(v, f.name)
            assert not isinstance(value, list | dict), f"{f.name} is mutable"


def test_the_view_is_frozen_and_detached_from_the_state() -> None:
    state = RedNovember(players=4).new_state(1)
    view = state.observe(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.ghost = 3  # type: ignore[misc]
    before = view.room
    state.room[0] = 11
    assert view.room == before


def test_observe_refuses_a_seat_that_does_not_exist() -> None:
    state = RedNovember(players=4).new_state(1)
    for seat in (4, -1, 9):
        with pytest.raises(ValueError, match="seat"):
            state.observe(seat)


def _thirty_moves_in(game: RedNovember) -> tuple[RedNovemberState, int, RedNovemberView]:
    """A game of seed ``BIG_SEED`` after 30 first-legal moves: the state, the seat to play
    and its view."""
    state = game.new_state(BIG_SEED)
    for _ in range(30):
        state.apply_unchecked(state.legal_action_ids()[0])
    seat = state.current_seat()
    assert seat is not None
    return state, seat, state.observe(seat)


def test_determinize_samples_a_fresh_seed_and_keeps_the_view() -> None:
    game = RedNovember(players=4, crazed_gnomes=True)
    state, seat, view = _thirty_moves_in(game)
    samples = [game.determinize(view, Rng(k)) for k in range(20)]
    assert all(s.seed != state.seed and s.observe(seat) == view for s in samples)
    assert len({s.seed for s in samples}) == 20
    assert len({s.rng.state for s in samples}) == 20
    assert all(s.history == [] for s in samples)
    again = game.determinize(view, Rng(3))
    assert again.to_json() == samples[3].to_json()  # the sample is a function of rng alone


def test_determinize_refuses_a_view_that_does_not_add_up() -> None:
    game = RedNovember(players=4)
    state = game.new_state(2)
    view = state.observe(0)
    with pytest.raises(ValueError, match="event deck"):
        game.determinize(
            dataclasses.replace(view, event_deck_size=view.event_deck_size + 1), Rng(1)
        )
    with pytest.raises(ValueError, match="item"):
        game.determinize(dataclasses.replace(view, stash=view.stash + 30), Rng(1))
    with pytest.raises(ValueError, match="gnomes"):
        RedNovember(players=5).determinize(view, Rng(1))
    with pytest.raises(ValueError, match="Red November"):
        game.determinize(_OtherView(0), Rng(1))


def test_a_stratum_puts_that_unseen_event_card_on_top_and_keeps_the_view() -> None:
    game = RedNovember(players=4)
    _, seat, view = _thirty_moves_in(game)
    unseen = rules.unseen_events(
        game.components, view.event_discard, view.event_removed, view.event_aside
    )
    assert game.strata(view) == view.event_deck_size == len(unseen) > 1
    tops = []
    for k in range(game.strata(view)):
        world = game.determinize(view, Rng(k), stratum=k)
        assert world.observe(seat) == view
        assert sorted(world.event_deck) == unseen
        tops.append(world.event_deck[-1])  # the deck is drawn from its end
    assert tops == unseen  # each stratum its own card: every unseen card on top once
    for bad in (-1, len(unseen)):
        with pytest.raises(ValueError, match="stratum"):
            game.determinize(view, Rng(1), stratum=bad)
