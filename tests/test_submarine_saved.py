"""Submarine saved states: inconsistent data fails at once with a ValueError naming the problem."""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from subtable.core.rng import Rng
from subtable.games.submarine import Submarine
from subtable.games.submarine.view import Phase

_GAMES: dict[int, Submarine] = {}


def game(players: int) -> Submarine:
    if players not in _GAMES:
        _GAMES[players] = Submarine(players=players)
    return _GAMES[players]


@cache
def saved_states() -> tuple[tuple[int, str], ...]:
    """(players, JSON) of positions from random games: every phase, the end included."""
    out: list[tuple[int, str]] = []
    for players in (2, 3, 4, 5):
        for seed in range(3):
            st = game(players).new_state(seed)
            rng = Rng(seed + 100 * players)
            seen: set[int] = set()
            step = 0
            while True:
                if st.phase not in seen or step % 97 == 0:
                    seen.add(st.phase)
                    out.append((players, json.dumps(st.to_json())))
                if st.is_terminal():
                    break
                ids = st.legal_action_ids()
                st.apply_unchecked(ids[rng.below(len(ids))])
                step += 1
    return tuple(out)


def one(phase: Phase, players: int = 3) -> dict[str, Any]:
    """A saved state in ``phase``."""
    for n, text in saved_states():
        data: dict[str, Any] = json.loads(text)
        if n == players and data["phase"] == phase:
            return data
    raise AssertionError(f"no saved {phase.label} state")


def load(players: int, data: Any) -> None:
    game(players).state_from_json(data)


def test_every_saved_phase_loads_back() -> None:
    phases = set()
    for players, text in saved_states():
        data = json.loads(text)
        st = game(players).state_from_json(data)
        assert st.to_json() == data
        assert game(players).state_from_json(st.to_json()).to_json() == data  # no JSON between
        phases.add(st.phase)
        assert isinstance(st.phase, Phase)
    assert phases == set(Phase)


@pytest.mark.parametrize(
    ("phase", "edit", "words"),
    [
        (Phase.ACT, lambda d: d["boat"].__setitem__(d["seat"], -1), "boat over column"),
        (Phase.BOAT, lambda d: d.__setitem__("column", 2), "no column"),
        (Phase.BOAT, lambda d: d.__setitem__("phase", 9), "phase 9"),
        (Phase.BOAT, lambda d: d["cells"].pop(), "'cells' has 23 cells"),
        (Phase.BOAT, lambda d: d["hand"].append([0, 0, 0, 0, 0]), "'hand' has 4 entries"),
        (Phase.BOAT, lambda d: d["cells"][0].append(99), "token 99"),
        (Phase.BOAT, lambda d: d["cells"][0].append(d["cells"][5][0]), "repeated"),
        (Phase.BOAT, lambda d: d["discard"].__setitem__(0, d["discard"][0] + 1), "red cards"),
        (Phase.BOAT, lambda d: d["pile"][0].append(7), "colour out of range"),
        (Phase.BOAT, lambda d: d.__setitem__("seat", 3), "'seat' 3"),
        (Phase.BOAT, lambda d: d.__setitem__("turn", "7"), "integers"),
        (Phase.BOAT, lambda d: d.__setitem__("owed", [1]), "toll is owed"),
        (Phase.BOAT, lambda d: d.pop("rng"), "lacks rng"),
        (Phase.BOAT, lambda d: d["baths"][0].pop(), "bathyscaphes"),
        (Phase.BOAT, lambda d: d.__setitem__("result_reason", "bored"), "no result"),
        (Phase.PLACE, lambda d: d.__setitem__("seat", (d["seat"] + 1) % 3), "cannot be placing"),
        (Phase.GIVE, lambda d: d.__setitem__("owed", []), "owed"),
        (Phase.TO, lambda d: d.__setitem__("moving", 7), "moving bathyscaphe 7"),
        (Phase.OVER, lambda d: d.__setitem__("result_winners", []), "winners"),
    ],
)
def test_inconsistent_states_are_refused_by_name(phase: Phase, edit: Any, words: str) -> None:
    data = one(phase)
    edit(data)
    with pytest.raises(ValueError, match=words):
        load(3, data)


def test_not_an_object() -> None:
    with pytest.raises(ValueError, match="JSON object"):
        load(3, [1, 2])


# ------------------------------------------------------------------ property --
_JUNK = hs.one_of(
    hs.integers(-3, 70),
    hs.none(),
    hs.text(max_size=2),
    hs.booleans(),
    hs.floats(allow_nan=False, width=16),
    hs.builds(list),
    hs.builds(lambda: [[]]),
)


def _plausible(draw: hs.DrawFn, data: dict[str, Any]) -> None:
    """A damage that keeps the shapes: a number nudged, a token, card or bathyscaphe moved."""
    how = draw(hs.integers(0, 5))
    n = len(data["hand"])
    if how == 0:  # a scalar, near its value
        key = draw(
            hs.sampled_from(
                [
                    "phase",
                    "seat",
                    "first",
                    "turn",
                    "to_place",
                    "column",
                    "acting",
                    "moving",
                    "acted",
                    "pend_token",
                    "pend_cell",
                    "ender",
                ]
            )
        )
        data[key] = draw(hs.sampled_from([-1, 0, 1, 2, 3, 5, 6, data[key] + 1, data[key] - 1]))
    elif how == 1:  # a token moved between places
        places = [c for c in data["cells"]] + data["spare"] + [data["box_tokens"]]
        full = [p for p in places if p]
        src = draw(hs.sampled_from(full))
        token = src.pop(draw(hs.integers(0, len(src) - 1)))
        draw(hs.sampled_from(places)).append(token)
    elif how == 2:  # a card moved between piles and hands
        s, r = draw(hs.integers(0, n - 1)), draw(hs.integers(0, n - 1))
        colour = data["pile"][s].pop() if data["pile"][s] else draw(hs.integers(0, 4))
        if draw(hs.booleans()):
            data["hand"][r][colour] += 1
        else:
            data["pile"][r].append(colour)
    elif how == 3:  # a bathyscaphe or a boat moved
        s = draw(hs.integers(0, n - 1))
        if data["baths"][s] and draw(hs.booleans()):
            data["baths"][s][draw(hs.integers(0, len(data["baths"][s]) - 1))] = draw(
                hs.integers(0, 23)
            )
        else:
            data["boat"][s] = draw(hs.integers(-1, 6))
    elif how == 4:  # turn bookkeeping
        key = draw(hs.sampled_from(["owed", "placed", "result_winners"]))
        data[key] = draw(hs.lists(hs.integers(0, 64 if key == "placed" else n - 1), max_size=2))
    else:
        data["result_reason"] = draw(hs.sampled_from(["", "column_emptied", "twelve_treasures"]))


def _junk(draw: hs.DrawFn, data: dict[str, Any]) -> None:
    """A damage to the shapes and types."""
    key = draw(hs.sampled_from(sorted(data)))
    value = data[key]
    how = draw(hs.integers(0, 4))
    if how == 0 or not isinstance(value, list):
        data[key] = draw(hs.one_of(_JUNK, hs.integers(-3, 70)))
    elif how == 1 and value:
        value.pop(draw(hs.integers(0, len(value) - 1)))
    elif how == 2:
        value.append(draw(_JUNK))
    elif value:
        i = draw(hs.integers(0, len(value) - 1))
        if isinstance(value[i], list) and value[i] and how == 3:
            j = draw(hs.integers(0, len(value[i]) - 1))
            value[i][j] = draw(hs.integers(-3, 70))
        elif isinstance(value[i], list) and value[i]:
            value[i].pop()
        else:
            value[i] = draw(hs.integers(-3, 70))


@hs.composite
def mutated(draw: hs.DrawFn) -> tuple[int, dict[str, Any]]:
    """A saved state with one to three damages, mostly plausible ones."""
    players, text = draw(hs.sampled_from(saved_states()))
    data: dict[str, Any] = json.loads(text)
    junk = draw(hs.integers(0, 3)) == 0
    for _ in range(draw(hs.integers(0 if junk else 1, 3))):
        _plausible(draw, data)
    if junk:  # last: the plausible damages rely on the shapes
        _junk(draw, data)
    return players, data


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_damaged_states_fail_cleanly_or_play_on(case: tuple[int, dict[str, Any]]) -> None:
    players, data = case
    frozen = copy.deepcopy(data)
    try:
        st = game(players).state_from_json(data)
    except ValueError:
        assert data == frozen  # nothing read was changed
        return
    legal = st.legal_action_ids()
    assert legal or st.is_terminal()
    for seat in (None, *range(players)):
        view = st.observe(seat)
        assert view.phase == st.phase
        json.dumps(st.view(seat))
    json.dumps(st.to_json())
    if legal:
        st.apply(legal[len(legal) // 2])
        st.observe(st.current_seat())
