"""Refit a game's leaf-value model: logistic regression on expert self-play.

The search bots' value models (``rn_value.py``, ``sub_value.py``) are linear
weights over an expert's position features, squashed to a win probability.
Each game's module supplies ``collect(job) -> [(features, won), ...]`` and
the jobs; this module plays them on a process pool and fits the weights by
Newton's method with a small ridge (numpy, from the ``lab``/``test`` extras).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Collect = Callable[[Any], list[tuple[list[float], int]]]


def fit_weights(collect: Collect, jobs: Sequence[Any], *, workers: int = 2,
                ridge: float = 1e-3) -> tuple[list[float], float, float]:
    """Weights, log loss and the prior's log loss over every position ``collect`` gives."""
    from concurrent.futures import ProcessPoolExecutor

    import numpy as np

    with ProcessPoolExecutor(workers) as pool:
        data = [row for rows in pool.map(collect, jobs, chunksize=16) for row in rows]
    x = np.array([f for f, _ in data])
    y = np.array([won for _, won in data], dtype=float)
    w = np.zeros(x.shape[1])
    for _ in range(300):
        p = 1 / (1 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    p = 1 / (1 + np.exp(-(x @ w)))
    loss = float(-np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)))
    base = float(y.mean())
    prior = float(-(base * np.log(base) + (1 - base) * np.log(1 - base)))
    return [round(float(v), 4) for v in w], loss, prior


def main(name: str, fit: Callable[[int, int], list[float]], seed: int) -> None:
    """The command line of a value module: ``python -m subtable.bots.X_value --games N``."""
    import argparse

    parser = argparse.ArgumentParser(description=f"Refit the {name} value model.")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=seed)
    args = parser.parse_args()
    print("WEIGHTS =", tuple(fit(args.games, args.seed)))
