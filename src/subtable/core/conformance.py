"""One conformance check for any game of the core, run over seeded random games.

At every decision it checks that the legal actions are unique and sorted, that
notation and ids round-trip, that an illegal action is refused with the state
unchanged, that ``clone()`` and JSON serialisation reproduce the state, and
(with a ``perturb`` hook) that a seat's view does not change when only another
seat's secret does. At the end it replays the seed and actions and compares
digests, and checks the game stayed within its declared length.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from subtable.core.errors import IllegalActionError
from subtable.core.game import Game, State
from subtable.core.rng import Rng

#: ``perturb(state, seat, rng)`` changes only ``seat``'s secret information (in place).
Perturb = Callable[[State[Any], int, Rng], None]
#: ``invariants(state)`` returns the broken invariants' descriptions.
Invariants = Callable[[State[Any]], list[str]]


class ConformanceError(AssertionError):
    """A game broke a conformance rule."""


def _frozen(state: State[Any]) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def check_random_game(
    game: Game[Any],
    seed: int,
    *,
    deep_every: int = 7,
    perturb: Perturb | None = None,
    invariants: Invariants | None = None,
) -> int:
    """Play one random game from ``seed`` checking everything; return its length."""
    space = game.action_space
    rng = Rng(seed ^ 0xC0FFEE)
    state = game.new_state(seed)
    steps = 0
    while not state.is_terminal():
        ids = state.legal_action_ids()
        if not ids:
            raise ConformanceError(f"seed {seed} step {steps}: no legal action for a live game")
        if ids != sorted(set(ids)):
            raise ConformanceError(f"seed {seed} step {steps}: legal ids not sorted/unique")
        seat = state.current_seat()
        if seat is None:
            raise ConformanceError(f"seed {seed} step {steps}: live game with nobody to decide")
        for i in ids:
            action = space.from_id(i)
            if space.parse(action.notation()) is not action:
                raise ConformanceError(f"notation of {action!r} does not round-trip")
        if invariants is not None:
            broken = invariants(state)
            if broken:
                raise ConformanceError(f"seed {seed} step {steps}: {'; '.join(broken)}")
        if steps % deep_every == 0:
            _deep_checks(game, state, ids, seat, rng, perturb, seed, steps)
        state.apply_unchecked(ids[rng.below(len(ids))])
        steps += 1
        if steps > game.info.max_game_length:
            raise ConformanceError(f"seed {seed}: longer than {game.info.max_game_length}")
    if state.current_seat() is not None or state.legal_action_ids():
        raise ConformanceError(f"seed {seed}: a finished game still offers decisions")
    if state.outcome() is None:
        raise ConformanceError(f"seed {seed}: a finished game has no outcome")
    again = game.new_state(seed)
    try:
        for i in state.history:
            again.apply(i)
    except IllegalActionError as exc:
        raise ConformanceError(f"seed {seed}: replay refused a recorded action: {exc}") from None
    if again.digest() != state.digest():
        raise ConformanceError(f"seed {seed}: replaying seed and actions gave another state")
    return steps


def _deep_checks(
    game: Game[Any],
    state: State[Any],
    ids: list[int],
    seat: int,
    rng: Rng,
    perturb: Perturb | None,
    seed: int,
    steps: int,
) -> None:
    where = f"seed {seed} step {steps}"
    before = _frozen(state)
    twin = state.clone()
    if _frozen(twin) != before:
        raise ConformanceError(f"{where}: clone differs")
    rebuilt = game.state_from_json(json.loads(json.dumps(state.to_json())))
    if _frozen(rebuilt) != before or rebuilt.legal_action_ids() != ids:
        raise ConformanceError(f"{where}: JSON round trip differs")
    illegal = [i for i in range(len(game.action_space)) if i not in set(ids)]
    if illegal:
        bad = illegal[rng.below(len(illegal))]
        try:
            state.apply(bad)
        except IllegalActionError as exc:
            if not exc.code or not exc.message:
                raise ConformanceError(
                    f"{where}: an illegal action's error lacks a reason"
                ) from None
        else:
            raise ConformanceError(f"{where}: illegal action {bad} was accepted")
        if _frozen(state) != before:
            raise ConformanceError(f"{where}: a refused action changed the state")
    # the clone must evolve exactly like the original
    choice = ids[rng.clone().below(len(ids))]
    twin.apply_unchecked(choice)
    if _frozen(state) != before:
        raise ConformanceError(f"{where}: playing on a clone changed the original")
    probe = state.clone()
    probe.apply_unchecked(choice)
    if _frozen(twin) != _frozen(probe):
        raise ConformanceError(f"{where}: a clone diverged from its original")
    if perturb is not None:
        for other in range(game.num_seats):
            if other == seat:
                continue
            view = state.view(seat)
            changed = state.clone()
            perturb(changed, other, rng)
            if changed.view(seat) != view:
                raise ConformanceError(
                    f"{where}: seat {seat}'s view changed with seat {other}'s secret"
                )
