"""The fitted win-probability model of Red November positions (search leaf values).

``WEIGHTS`` are logistic-regression weights over
:meth:`~subtable.bots.rn_heuristic.RNExpert.features`, fitted on turn-start
positions of games the ``heuristic`` bot played, labelled with the outcome.
Refit (needs numpy) with::

    python -m subtable.bots.rn_value --games 3000
"""

from __future__ import annotations

from typing import Any

WEIGHTS: tuple[float, ...] = (
    5.581, -3.059, -0.7695, 0.9022, 0.042, -0.6589, -0.9117, 0.2904, 0.3535, 0.2627, -0.9826,
    -0.881, -0.9016, 0.033, -3.1699, -1.0638, -0.37, -0.5951, -1.928, -1.4547, -2.3524, 0.0176,
    0.1042, 0.0893, -0.0883, -0.7913, 0.2934, -3.2782)


def _collect(args: tuple[int, int]) -> list[tuple[list[float], int]]:
    from subtable.bots.base import make_bot, observe
    from subtable.bots.rn_heuristic import Board, RNExpert
    from subtable.core.registry import make_game
    from subtable.core.rng import Rng

    seed, players = args
    game = make_game("red-november", players=players)
    expert = RNExpert(game)
    state: Any = game.new_state(seed)
    salt = Rng(seed ^ 0x5EED)
    bots = [make_bot("heuristic", game, s, Rng(salt.next64())) for s in range(game.num_seats)]
    rows: list[list[float]] = []
    last_turn = -1
    while not state.is_terminal():
        if state.turn != last_turn:
            last_turn = state.turn
            rows.append(expert.features(Board.from_state(state)))
        seat = state.current_seat()
        assert seat is not None
        state.apply_unchecked(bots[seat].choose(observe(state, seat)).id)
    outcome = state.outcome()
    won = int(outcome is not None and outcome.reason == "rescued")
    return [(r, won) for r in rows]


def fit(games: int, seed: int = 11, workers: int = 2) -> list[float]:
    """Play ``games`` heuristic games (3-8 gnomes) and fit the weights."""
    from subtable.bots.value_fit import fit_weights
    from subtable.sim.runner import game_seeds

    jobs = [(s, 3 + i % 6 if i % 2 else 4) for i, s in enumerate(game_seeds(seed, games))]
    weights, loss, prior = fit_weights(_collect, jobs, workers=workers)
    print(f"{games} games; log loss {loss:.4f} (prior {prior:.4f})")
    return weights


if __name__ == "__main__":
    from subtable.bots.value_fit import main

    main("Red November", fit, 11)
