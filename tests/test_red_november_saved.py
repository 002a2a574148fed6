"""Saved Red November states: a consistent one comes back exactly, anything else is a
``ValueError`` that names the problem — never an ``IndexError``/``KeyError``/``TypeError``
later, whatever is done with the state."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from subtable.core.rng import Rng
from subtable.games.red_november import RedNovember
from subtable.games.red_november.components import SEA

CONFIGS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 5, "crazed_gnomes": True, "greater_challenge": 2},
    {"players": 8, "less_deadly_dying": True},
    {"players": 2, "greater_challenge": 1, "heroic_sacrifice": True},
    {"players": 1, "gnomes": 3, "crazed_gnomes": True, "less_deadly_dying": True},
]
GAMES = [RedNovember(**options) for options in CONFIGS]


@lru_cache(maxsize=1)
def saved_states() -> tuple[tuple[int, str], ...]:
    """(game index, saved JSON text) from random games, every few decisions and at the end."""
    out = []
    for k, game in enumerate(GAMES):
        for seed in range(3):
            state = game.new_state(seed)
            rng = Rng(seed)
            step = 0
            while True:
                if step % 6 == 0 or state.is_terminal():
                    out.append((k, json.dumps(state.to_json())))
                if state.is_terminal():
                    break
                ids = state.legal_action_ids()
                state.apply_unchecked(ids[rng.below(len(ids))])
                step += 1
    return tuple(out)


def saved(k: int = 0, index: int = 5) -> dict[str, Any]:
    rows = [text for g, text in saved_states() if g == k]
    data: dict[str, Any] = json.loads(rows[index])
    return data


def test_every_saved_state_comes_back_exactly() -> None:
    for k, text in saved_states():
        game = GAMES[k]
        data = json.loads(text)
        state = game.state_from_json(data)
        assert state.to_json() == data
        original = json.loads(text)
        assert game.state_from_json(original).legal_action_ids() == state.legal_action_ids()


def _other_aboard(data: dict[str, Any]) -> int:
    return next(
        g
        for g in range(len(data["room"]))
        if g != data["active"] and data["alive"][g] and not data["abandoned"][g]
    )


def _refused(data: Any, *words: str, k: int = 0) -> None:
    with pytest.raises(ValueError) as info:
        GAMES[k].state_from_json(data)
    message = str(info.value)
    assert message.startswith("invalid Red November state")
    for word in words:
        assert word in message, message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.pop("room"), ["lacks", "room"]),
        (lambda d: d.__setitem__("ghost", "7"), ["ghost", "whole number"]),
        (lambda d: d.__setitem__("ghost", True), ["ghost"]),
        (lambda d: d["room"].__setitem__(0, 12), ["room[0]", "12"]),
        (lambda d: d["room"].append(3), ["room", "entries"]),
        (lambda d: d["fire"].__setitem__(2, 1), ["fire[2]", "true or false"]),
        (lambda d: d["water"].__setitem__(4, 3), ["water[4]"]),
        (lambda d: d["event_deck"].append(d["event_deck"][0]), ["event cards", "exactly once"]),
        (lambda d: d["event_deck"].pop(), ["event cards"]),
        (lambda d: d["item_deck"].pop(), ["cards in play"]),
        (lambda d: d.__setitem__("stash", d["stash"] - 1), ["grog"]),
        (lambda d: d["hands"].__setitem__(1, [0] * 3), ["hands[1]"]),
        (lambda d: d["keeper"].__setitem__(0, 61), ["keeper[0]"]),
        (lambda d: d["token"].__setitem__(0, 0), ["Rescued"]),
        (lambda d: d.__setitem__("phase", 9), ["phase"]),
        (lambda d: d.__setitem__("decider", -1), ["decider"]),
        (lambda d: d.__setitem__("decider", _other_aboard(d)), ["decides"]),
        (lambda d: d.__setitem__("stage", 3), ["stage"]),
        (lambda d: d.__setitem__("choice", 2), ["choice"]),
        (lambda d: d.__setitem__("result_reason", "bored"), ["result_reason"]),
        (lambda d: d.__setitem__("rng", -1), ["rng"]),
        (lambda d: d["history"].append(100_000), ["history"]),
        (lambda d: d["alive"].__setitem__(1, False), ["gnome 2", "gone"]),
        (lambda d: d["red_room"].__setitem__(0, 5), ["red area"]),
        (lambda d: d["discards"].append([9, 4]), ["discards[0]"]),
        (lambda d: d["seq"].__setitem__(1, d["seq"][0]), ["seq"]),
        (lambda d: d["track"].__setitem__(0, 10), ["asphyxiation", "end"]),
    ],
)
def test_an_inconsistent_state_is_refused_with_a_named_problem(
    change: Any, words: list[str]
) -> None:
    data = saved(0, 5)
    assert data["phase"] == 0 and data["stage"] == 0  # a movement decision of a live game
    change(data)
    _refused(data, *words)


def test_a_state_that_is_not_an_object_is_refused() -> None:
    _refused([1, 2, 3], "JSON object")
    _refused(None, "JSON object")


def test_a_gnome_in_a_space_that_does_not_exist_is_refused() -> None:
    data = saved(0, 5)
    data["room"][2] = SEA + 1
    _refused(data, "room[2]")
    data = saved(0, 5)
    active = data["active"]
    data["room"][active] = 0
    _refused(data, f"gnome {active + 1}", "aboard")


def test_a_state_for_another_number_of_gnomes_is_refused() -> None:
    data = saved(0, 5)
    _refused(data, "entries", k=2)  # four gnomes' data for an eight-gnome game


# -- the property: whatever the damage, ValueError or a state that works -----------------------
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 70),
    st.sampled_from([-1, 0, 1, 2, 11, 12, 56, 60, 61, 2**64, -(2**64)]),
    st.text(max_size=2),
    st.floats(allow_nan=False, max_value=100, min_value=-100),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner, max_size=2)
    ),
    max_leaves=6,
)


@st.composite
def damaged(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    rows = saved_states()
    k, text = rows[draw(st.integers(0, len(rows) - 1))]
    data: dict[str, Any] = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        if not data:
            break
        key = draw(st.sampled_from(sorted(data)))
        op = draw(
            st.sampled_from(["replace", "delete", "nudge", "entry", "drop", "duplicate", "swap"])
        )
        value = data[key]
        if op == "delete":
            del data[key]
        elif op == "replace":
            data[key] = draw(VALUES)
        elif op == "nudge":
            data[key] = _nudge(draw, value)
        elif isinstance(value, list) and value:
            i = draw(st.integers(0, len(value) - 1))
            if op == "entry":
                value[i] = _nudge(draw, value[i]) if draw(st.booleans()) else draw(VALUES)
            elif op == "drop":
                del value[i]
            elif op == "duplicate":
                value.insert(i, copy.deepcopy(value[i]))
            else:
                j = draw(st.integers(0, len(value) - 1))
                value[i], value[j] = value[j], value[i]
        else:
            data[key] = _nudge(draw, value)
    return k, data


def _nudge(draw: st.DrawFn, value: Any) -> Any:
    """A near miss of ``value``: a neighbouring number, the other truth value, one entry off."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + draw(st.sampled_from([-2, -1, 1, 2, 10]))
    if isinstance(value, list) and value:
        i = draw(st.integers(0, len(value) - 1))
        out = list(value)
        out[i] = _nudge(draw, value[i])
        return out
    return draw(VALUES)


@pytest.mark.slow
@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(damaged(), st.integers(0, 1000))
def test_a_damaged_state_is_refused_or_works(case: tuple[int, dict[str, Any]], pick: int) -> None:
    k, data = case
    game = GAMES[k]
    try:
        state = game.state_from_json(data)
    except ValueError:
        return
    ids = state.legal_action_ids()
    assert state.is_terminal() or ids
    for seat in (None, *range(game.num_seats)):
        state.observe(seat)
        json.dumps(state.view(seat))
    saved_again = state.to_json()
    assert game.state_from_json(json.loads(json.dumps(saved_again))) == state
    if ids:
        state.apply(ids[pick % len(ids)])
        state.legal_action_ids()
        json.dumps(state.view(state.current_seat()))
