"""The expert's shortcuts answer as the long way does: the best task found without pricing
every task, the task list remembered by what it is read from, a track's risk read off one
run of its chain."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from subtable.bots.base import observe
from subtable.bots.red_november.expert import RNExpert
from subtable.bots.red_november.risk import track_risk
from subtable.bots.red_november.tasks import situation
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.games.red_november.view import Phase


def _movement_boards(players: int, games: int) -> Iterator[tuple[RNExpert, Any]]:
    """Every movement decision of ``games`` expert games, as the deciding seat sees it."""
    game = make_game("red-november", players=players)
    expert = RNExpert(game)
    for seed in range(games):
        state = game.new_state(1000 + seed)
        while not state.is_terminal():
            seat = state.current_seat()
            assert seat is not None
            ids = state.legal_action_ids()
            view: Any = observe(state, seat).view
            if view.phase == Phase.MOVE and len(ids) > 1:
                yield expert, view
            state.apply_unchecked(expert.choose(view, seat, ids, Rng(0)))


@pytest.mark.parametrize("players", [4, 6])
def test_the_best_task_is_the_one_every_task_priced_puts_first(players: int) -> None:
    checked = 0
    for expert, b in _movement_boards(players, 6):
        planner = expert.planner
        _, best = planner._best(b)
        _, every = planner._choices(b)
        assert [(c.rate, c.steps, c.task) for c in best] == [
            (c.rate, c.steps, c.task) for c in every[:1]
        ]
        checked += bool(every)
    assert checked > 300


def _other(b: Any) -> int:
    return (b.active + 1) % len(b.room)


def _set(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*values[:i], value, *values[i + 1 :])


#: a change to each board field the task list is read from (its cache key), one at a time
_CHANGES: dict[str, Any] = {
    "track": lambda b: {"track": _set(b.track, 0, min(b.track[0] + 2, 6))},
    "token": lambda b: {"token": _set(b.token, 0, -1 if b.token[0] >= 0 else max(1, b.ghost - 4))},
    "fire": lambda b: {"fire": _set(b.fire, 5, not b.fire[5])},
    "water": lambda b: {"water": _set(b.water, 2, (b.water[2] + 1) % 3)},
    "blocked": lambda b: {"blocked": _set(b.blocked, 3, not b.blocked[3])},
    "keeper": lambda b: {"keeper": _set(b.keeper, _other(b), max(1, b.keeper[_other(b)] - 12))},
    "alive": lambda b: {"alive": _set(b.alive, _other(b), not b.alive[_other(b)])},
    "abandoned": lambda b: {"abandoned": _set(b.abandoned, _other(b), True)},
    "events seen": lambda b: {"event_discard": b.event_discard[: len(b.event_discard) // 2]},
    "red room": lambda b: {"red_room": _set(b.red_room, b.active, b.game.components.stores_room)},
    "intoxication": lambda b: {
        "intoxication": _set(b.intoxication, b.active, 4 - b.intoxication[b.active])
    },
    "item cards": lambda b: {"item_deck_size": 0, "item_discard": ()},
    "stash": lambda b: {"stash": 0 if b.stash else 3},
}


@pytest.mark.parametrize("field", sorted(_CHANGES))
def test_the_task_list_remembered_is_that_boards_own(field: str) -> None:
    # the list of a board is remembered; the same board with one field changed must get its
    # own list, not the remembered one (a field read but left out of the key would not)
    changed = differs = 0
    for expert, b in itertools.islice(_movement_boards(4, 3), 0, None, 3):
        tasks = expert.tasks
        tasks.find(situation(b, expert.routes, expert.items))
        other = dataclasses.replace(b, **_CHANGES[field](b))
        turn = situation(other, expert.routes, expert.items)
        fresh = tasks._find(turn)
        assert tasks.find(turn) == fresh
        changed += 1
        differs += fresh != tasks._find(situation(b, expert.routes, expert.items))
    assert changed > 50
    assert differs > 0, f"changing {field} never changed the tasks: the check proves nothing"


def _risk_directly(level: int, events: int, q1: float, q2: float, end: int) -> float:
    """The chance of reaching ``end`` within ``events`` draws, the chain walked in full."""
    if level >= end:
        return 1.0
    dist = {level: 1.0}
    reached = 0.0
    for _ in range(events):
        nxt: dict[int, float] = {}
        for lv, p in dist.items():
            for step, q in ((0, 1.0 - q1 - q2), (1, q1), (2, q2)):
                if lv + step >= end:
                    reached += p * q
                else:
                    nxt[lv + step] = nxt.get(lv + step, 0.0) + p * q
        dist = nxt
    return reached


def test_a_tracks_risk_is_the_chains_whatever_horizon_is_asked_first() -> None:
    track_risk.cache_clear()
    horizons = [15, 0, 3, 40, 1, 15, 7]  # a longer run first, then shorter and longer ones
    for level, (q1, q2), end in itertools.product(
        range(0, 9), [(0.2, 0.05), (0.313, 0.0), (0.0, 0.125)], [6, 9]
    ):
        for events in horizons:
            assert track_risk(level, events, q1, q2, end) == pytest.approx(
                _risk_directly(level, events, q1, q2, end), abs=1e-12
            )
