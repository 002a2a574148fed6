"""The fitted win-probability model of Submarine positions (search leaf values).

``WEIGHTS`` are logistic-regression weights over
:meth:`~subtable.bots.sub_heuristic.SubExpert.seat_features`, fitted on the
turn-start positions of ``heuristic`` self-play games (each seat a row,
labelled with whether it won). Refit (needs numpy) with::

    python -m subtable.bots.sub_value --games 3000
"""

from __future__ import annotations

from typing import Any

WEIGHTS: tuple[float, ...] = (
    -9.296, 7.7583, 0.3466, 7.4117, 2.0302, 0.797, 5.6671, -1.452, 4.9467, -22.001, 0.1882,
    -2.3131, 0.2324)


def _collect(args: tuple[int, int]) -> list[tuple[list[float], int]]:
    from subtable.bots.base import make_bot, observe
    from subtable.bots.sub_heuristic import SubExpert
    from subtable.core.registry import make_game
    from subtable.core.rng import Rng

    seed, players = args
    game = make_game("submarine", players=players)
    expert = SubExpert(game)
    state: Any = game.new_state(seed)
    salt = Rng(seed ^ 0x5EED)
    bots = [make_bot("heuristic", game, s, Rng(salt.next64())) for s in range(players)]
    rows: list[list[list[float]]] = []
    last = -1
    while not state.is_terminal() and len(state.history) < 5000:
        if state.turn != last and state.phase in (1, 4):
            last = state.turn
            board = expert.board_from_state(state)
            rows.append([expert.seat_features(board, s) for s in range(players)])
        seat = state.current_seat()
        state.apply_unchecked(bots[seat].choose(observe(state, seat)).id)
    if not state.is_terminal():
        return []
    winners = set(state.outcome().winners)
    return [(f, int(s in winners)) for row in rows for s, f in enumerate(row)]


def fit(games: int, seed: int = 13, workers: int = 2) -> list[float]:
    """Play ``games`` heuristic games (2-5 players, mostly 3) and fit the weights."""
    from subtable.bots.value_fit import fit_weights
    from subtable.sim.runner import game_seeds

    jobs = [(s, 3 if i % 3 else 2 + i % 4) for i, s in enumerate(game_seeds(seed, games))]
    weights, loss, prior = fit_weights(_collect, jobs, workers=workers)
    print(f"{games} games; log loss {loss:.4f} (prior {prior:.4f})")
    return weights


if __name__ == "__main__":
    from subtable.bots.value_fit import main

    main("Submarine", fit, 13)
