"""Fuzzing the record reader: a mangled record is refused cleanly, never with a crash."""

from __future__ import annotations

import copy
import json
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from subtable.core.errors import RecordError
from subtable.core.record import GameRecord, replay
from subtable.core.registry import make_game
from subtable.core.rng import Rng

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)


@cache
def _records() -> tuple[str, ...]:
    out = []
    for name, options in (
        ("red-november", {"players": 3, "crazed_gnomes": True}),
        ("submarine", {"players": 2}),
    ):
        game = make_game(name, **options)
        state = game.new_state(4)
        rng = Rng(2)
        for _ in range(60):
            if state.is_terminal():
                break
            ids = state.legal_action_ids()
            state.apply(ids[rng.below(len(ids))])
        out.append(json.dumps(GameRecord.of(name, state).to_json()))
    return tuple(out)


def _mutate(data: dict, where: int, value: object, how: int) -> dict:
    data = copy.deepcopy(data)
    keys = sorted(data)
    key = keys[where % len(keys)]
    if how == 0:
        data[key] = value
    elif how == 1:
        del data[key]
    elif how == 2 and isinstance(data.get("actions"), list) and data["actions"]:
        actions = data["actions"]
        actions[where % len(actions)] = value
    elif how == 3 and isinstance(data.get("options"), dict):
        data["options"][str(value)[:10]] = value
    else:
        data[str(value)[:10]] = value
    return data


@settings(max_examples=150, deadline=None)
@given(which=st.integers(0, 1), where=st.integers(0, 100), value=JSON_VALUES, how=st.integers(0, 4))
def test_mangled_records_are_refused_cleanly(which, where, value, how) -> None:
    data = _mutate(json.loads(_records()[which]), where, value, how)
    try:
        replay(GameRecord.from_json(data))
    except RecordError as exc:
        assert exc.message
