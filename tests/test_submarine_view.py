"""Submarine's typed view: everything public, the turn's bookkeeping, and no secret."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from subtable.core.rng import Rng
from subtable.games.submarine import Submarine, SubmarineState
from subtable.games.submarine.view import LEFT, Phase, SubmarineView

_GAMES: dict[int, Submarine] = {}


def game(players: int) -> Submarine:
    if players not in _GAMES:
        _GAMES[players] = Submarine(players=players)
    return _GAMES[players]


def positions(players: int, seed: int, every: int = 3) -> list[SubmarineState]:
    st = game(players).new_state(seed)
    rng = Rng(seed ^ 0xF1E1D)
    out = []
    step = 0
    while not st.is_terminal():
        if step % every == 0:
            out.append(st.clone())
        ids = st.legal_action_ids()
        st.apply_unchecked(ids[rng.below(len(ids))])
        step += 1
    out.append(st)
    return out


def test_the_view_declares_no_secret_field() -> None:
    names = {f.name for f in dataclasses.fields(SubmarineView)}
    assert not names & {"seed", "rng", "pile", "piles", "history", "box_cards", "hand"}
    assert {
        "hands",
        "hand_sizes",
        "pile_sizes",
        "boxed_cards",
        "acted",
        "acting",
        "moving",
        "placed",
        "owed",
        "pending_token",
        "legal",
    } <= names
    view = game(3).new_state(1).observe(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.turn = 5  # type: ignore[misc]


def _perturb_secrets(st: SubmarineState, seat: int | None, rng: Rng) -> SubmarineState:
    """Change everything ``seat`` cannot see: pile orders (its own too), other hands, boxed
    colours, the generator, the seed and the history."""
    twin = st.clone()
    n = twin.n
    for s in range(n):
        rng.shuffle(twin.pile[s])
    for s in range(n):
        if s == seat:
            continue
        cards = [col for col, k in enumerate(twin.hand[s]) for _ in range(k)]
        pool = cards + twin.pile[s]
        rng.shuffle(pool)
        twin.hand[s] = [pool[: len(cards)].count(col) for col in range(5)]
        twin.pile[s] = pool[len(cards) :]
    # swap one boxed card with a card of another colour in some pile
    for s in range(n):
        for j, col in enumerate(twin.pile[s]):
            other = next((c for c in range(5) if c != col and twin.box_cards[c]), None)
            if other is not None:
                twin.box_cards[other] -= 1
                twin.box_cards[col] += 1
                twin.pile[s][j] = other
                break
        else:
            continue
        break
    twin.rng = Rng(rng.next64())
    twin.seed = rng.next64()
    twin.history = [0, 1, 2]
    return twin


@pytest.mark.parametrize("players", [2, 3, 5])
def test_secrets_do_not_change_the_view(players: int) -> None:
    rng = Rng(players)
    changed = 0
    for st in positions(players, players, every=9):
        for seat in (None, *range(players)):
            twin = _perturb_secrets(st, seat, rng)
            changed += twin.to_json() != st.to_json()
            assert twin.observe(seat) == st.observe(seat)
            assert twin.view(seat) == st.view(seat)
    assert changed > 20


def test_own_hand_is_seen_and_others_are_counts() -> None:
    st = game(3).new_state(2)
    view = st.observe(1)
    assert view.hands[1] == tuple(st.hand[1]) and sum(view.hands[1]) == 3
    assert view.hands[0] is None and view.hands[2] is None
    assert view.hand_sizes == (3, 3, 3) and view.pile_sizes == (12, 12, 12)
    assert all(h is None for h in st.observe(None).hands)
    twin = st.clone()
    twin.hand[1] = [3, 0, 0, 0, 0]
    assert twin.observe(1) != view and twin.observe(0) == st.observe(0)


@pytest.mark.parametrize("players", [2, 4])
def test_the_view_holds_the_public_position(players: int) -> None:
    for st in positions(players, 7, every=11):
        seat = st.current_seat()
        v = st.observe(seat)
        lv = st.c.levels
        assert v.phase is st.phase and v.current_seat == seat and v.active == st.seat
        assert [list(c) for c in v.cells] == st.cells
        assert [list(b) for b in v.bathyscaphes] == st.baths
        assert list(v.boats) == st.boat and all(LEFT <= b <= st.c.columns for b in v.boats)
        assert [list(t) for t in v.treasures] == st.owned
        assert [list(j) for j in v.jokers] == st.spare
        assert list(v.discard) == st.discard and v.boxed_cards == sum(st.box_cards)
        assert list(v.boxed_jokers) == st.box_tokens
        assert (v.column, v.acted, v.acting, v.moving) == (
            st.column,
            st.acted,
            st.acting,
            st.moving,
        )
        assert list(v.placed) == st.placed and list(v.owed) == st.owed
        assert (v.pending_token, v.pending_cell) == (st.pend_token, st.pend_cell)
        assert [st.baths[st.seat][i] % lv + 1 for i in v.idle()] == [
            b % lv + 1
            for i, b in enumerate(st.baths[st.seat])
            if b // lv == st.column and not st.acted >> i & 1
        ]
        if v.moving >= 0:
            assert v.moving_cell() == st.baths[st.seat][st.moving]
        if v.acting >= 0:
            assert v.acting_cell() == st.baths[st.seat][st.acting]
        assert v.cards_held(0) == st.cards_held(0)
        if st.is_terminal():
            out = st.outcome()
            assert out is not None
            assert (v.end_reason, v.winners) == (out.reason, out.winners)
        else:
            assert (v.end_reason, v.winners) == (None, ())


def test_legal_actions_only_for_the_deciding_seat() -> None:
    for st in positions(3, 4, every=13):
        seat = st.current_seat()
        if seat is None:
            assert all(st.observe(s).legal == () for s in range(3))
            continue
        mine = st.observe(seat)
        assert list(mine.legal) == st.legal_action_ids()
        assert mine.to_json()["legal"] == [a.notation() for a in st.legal_actions()]
        for other in ((seat + 1) % 3, None):
            assert st.observe(other).legal == ()
            assert "legal" not in st.view(other)


def test_wire_form_keeps_the_table_keys_and_comes_back() -> None:
    """The keys the terminal table reads (ui/games/submarine.py) stay, in their shapes."""
    for st in positions(4, 3, every=17):
        for seat in (st.current_seat(), None):
            v = st.observe(seat)
            wire: dict[str, Any] = json.loads(json.dumps(st.view(seat)))
            assert wire == v.to_json()
            assert {
                "game",
                "seat",
                "turn",
                "first",
                "pending",
                "cells",
                "players",
                "discard",
                "box_cards",
                "options",
                "outcome",
            } <= set(wire)
            assert wire["pending"]["phase"] == v.phase.label
            assert len(wire["cells"]) == st.c.columns
            assert all(len(col) == st.c.levels for col in wire["cells"])
            for p in wire["players"]:
                assert {
                    "seat",
                    "boat",
                    "bathyscaphes",
                    "treasures",
                    "jokers",
                    "hand",
                    "hand_size",
                    "pile_size",
                } <= set(p)
                assert p["boat"] in ("left", "right", *range(1, st.c.columns + 1))
            if v.phase in (Phase.ACT, Phase.GIVE, Phase.TO):
                assert {"column", "idle"} <= set(wire["pending"])
            if v.phase == Phase.GIVE:
                assert wire["pending"]["toll_left"] == len(v.owed) > 0
            assert SubmarineView.from_wire(wire, st.game) == v


def test_wire_form_refused_when_broken() -> None:
    wire = game(3).new_state(1).view(0)
    del wire["engine"]
    with pytest.raises(ValueError, match="not a Submarine view"):
        SubmarineView.from_wire(wire, game(3))
