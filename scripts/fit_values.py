"""Refit a game's leaf-value model: logistic regression on expert self-play.

    python scripts/fit_values.py --game red-november --games 3000            # print the fit
    python scripts/fit_values.py --game submarine --games 3000 --write       # and save it
    python scripts/fit_values.py --game red-november --games 8000 --seed 2024 --players 4 \
        --net 32 --write                  # a value network for one gnome count (the train extra)

The search bots' leaf values are linear weights over an expert's position
features, squashed to a win probability, stored as data beside the expert
(``src/subtable/bots/<game>/weights.json``, read by
:func:`subtable.bots.weights.load_model`). This script plays ``heuristic``
self-play games on a process pool, reads each turn's first position through
the deciding seat's typed view, labels it with the outcome and fits the weights
by Newton's method with a small ridge (numpy, from the ``lab``/``test`` extras).
With ``--net`` it fits instead a small network (scikit-learn's MLPClassifier, the
``train`` extra) on every tenth game held out, written to ``value_net.json``; the
expert uses it at the player counts it saw (``--players``), the logistic model at others.
It lives outside the runtime package: it may use the simulation lab.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from subtable.bots.base import make_bot, observe
from subtable.bots.red_november import RNExpert
from subtable.bots.submarine import SubExpert
from subtable.bots.weights import NET_FILE, WEIGHTS_FILE, model_json, net_json
from subtable.core.rng import Rng
from subtable.games.red_november.game import RedNovember
from subtable.games.red_november.view import RedNovemberView
from subtable.games.submarine.game import Submarine
from subtable.games.submarine.view import Phase as SubPhase
from subtable.games.submarine.view import SubmarineView
from subtable.sim.runner import game_seeds

BOTS = Path(__file__).resolve().parent.parent / "src" / "subtable" / "bots"
Rows = list[tuple[list[float], int]]


def collect_red_november(job: tuple[int, int]) -> Rows:
    """Features at every turn's first decision of one heuristic game, labelled rescued."""
    seed, players = job
    game = RedNovember(players=players)
    expert = RNExpert(game)
    state = game.new_state(seed)
    salt = Rng(seed ^ 0x5EED)
    bots = [make_bot("heuristic", game, s, Rng(salt.next64())) for s in range(game.num_seats)]
    rows: list[list[float]] = []
    last_turn = -1
    while not state.is_terminal():
        seat = state.current_seat()
        assert seat is not None
        view = state.observe(seat)
        assert isinstance(view, RedNovemberView)
        if view.turn != last_turn:
            last_turn = view.turn
            rows.append(expert.features(expert.board(view)))
        state.apply_unchecked(bots[seat].choose(observe(state, seat)).id)
    outcome = state.outcome()
    won = int(outcome is not None and outcome.reason == game.info.win_reason)
    return [(r, won) for r in rows]


def collect_submarine(job: tuple[int, int]) -> Rows:
    """Each seat's features at every turn's start of one heuristic game, labelled won."""
    seed, players = job
    game = Submarine(players=players)
    expert = SubExpert(game)
    state = game.new_state(seed)
    salt = Rng(seed ^ 0x5EED)
    bots = [make_bot("heuristic", game, s, Rng(salt.next64())) for s in range(players)]
    rows: list[list[list[float]]] = []
    last = -1
    while not state.is_terminal() and len(state.history) < 5000:
        seat = state.current_seat()
        assert seat is not None
        view = state.observe(seat)
        assert isinstance(view, SubmarineView)
        if view.turn != last and view.phase in (SubPhase.BOAT, SubPhase.SWAP):
            last = view.turn
            board = expert.board(view)
            rows.append([expert.seat_features(board, s) for s in range(players)])
        state.apply_unchecked(bots[seat].choose(observe(state, seat)).id)
    outcome = state.outcome()
    if outcome is None:
        return []
    winners = set(outcome.winners)
    return [(f, int(s in winners)) for row in rows for s, f in enumerate(row)]


@dataclass(frozen=True)
class Fitting:
    """How one game's model is fitted."""

    package: str
    expert: type
    collect: Callable[[tuple[int, int]], Rows]
    seed: int
    #: the player count of the ``i``-th game
    players: Callable[[int], int]
    describe: str


FITTINGS: dict[str, Fitting] = {
    "red-november": Fitting(
        "red_november",
        RNExpert,
        collect_red_november,
        11,
        lambda i: 3 + i % 6 if i % 2 else 4,
        "turn starts of heuristic self-play, 3-8 gnomes, labelled rescued or not",
    ),
    "submarine": Fitting(
        "submarine",
        SubExpert,
        collect_submarine,
        13,
        lambda i: 3 if i % 3 else 2 + i % 4,
        "turn starts of heuristic self-play, one row per seat, labelled won or not",
    ),
}


def fit_weights(
    rows: Sequence[tuple[list[float], int]], ridge: float = 1e-3
) -> tuple[list[float], float, float]:
    """Weights, log loss and the prior's log loss of a logistic regression on ``rows``."""
    import numpy as np

    x = np.array([f for f, _ in rows])
    y = np.array([won for _, won in rows], dtype=float)
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


def collect_games(
    name: str, games: int, seed: int, workers: int, players: int | None = None
) -> list[Rows]:
    """The labelled positions of each of ``games`` self-play games of ``name`` (all at
    ``players`` when given, else the fitting's mix of counts)."""
    fitting = FITTINGS[name]
    count = fitting.players if players is None else (lambda _: players)
    jobs = [(s, count(i)) for i, s in enumerate(game_seeds(seed, games))]
    if workers <= 1:
        return [fitting.collect(job) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(fitting.collect, jobs, chunksize=16))


def collect(name: str, games: int, seed: int, workers: int) -> Rows:
    """Every labelled position of ``games`` self-play games of ``name``."""
    return [row for rows in collect_games(name, games, seed, workers) for row in rows]


def fit_net(per_game: list[Rows], hidden: int) -> tuple[Any, list[float], list[float], float]:
    """A network of ``hidden`` ReLU units fitted on nine games in ten: the model, the
    features' means and scales, and its log loss on the tenth game held out."""
    import numpy as np
    from sklearn.metrics import log_loss  # type: ignore[import-untyped]
    from sklearn.neural_network import MLPClassifier  # type: ignore[import-untyped]

    rows = [(f, won, g) for g, game in enumerate(per_game) for f, won in game]
    x = np.array([f for f, _, _ in rows], dtype=np.float32).astype(np.float64)
    y = np.array([won for _, won, _ in rows], dtype=np.float32)
    held = np.array([g % 10 == 0 for _, _, g in rows])
    mean, scale = x[~held].mean(0), x[~held].std(0) + 1e-6
    z = (x - mean) / scale
    net = MLPClassifier(
        hidden_layer_sizes=(hidden,), max_iter=300, early_stopping=True, random_state=0, alpha=1e-3
    ).fit(z[~held], y[~held])
    loss = float(log_loss(y[held], net.predict_proba(z[held])[:, 1]))
    return net, mean.tolist(), scale.tolist(), loss


def write_net(args: argparse.Namespace, fitting: Fitting, seed: int) -> int:
    """``--net``: fit the network and print (and with ``--write`` save) it."""
    per_game = collect_games(args.game, args.games, seed, args.workers, args.players)
    net, mean, scale, loss = fit_net(per_game, args.net)
    positions = sum(len(g) for g in per_game)
    print(f"{args.game}: {args.games} games, {positions} positions; held-out log loss {loss:.4f}")
    if args.write:
        path = BOTS / fitting.package / NET_FILE
        pairs = zip(net.coefs_, net.intercepts_, strict=True)
        layers = [(w.T.tolist(), b.tolist()) for w, b in pairs]
        mix = sorted({fitting.players(i) for i in range(60)})
        players = [args.players] if args.players else mix
        path.write_text(
            net_json(
                mean,
                scale,
                layers,
                players,
                model=f"{args.net} ReLU units over {fitting.expert.__name__} features "
                f"(subtable.bots.{fitting.package}.value), a logistic output",
                positions=f"{fitting.describe}; every tenth game held out",
                refit=f"python scripts/fit_values.py --game {args.game} --games {args.games} "
                f"--seed {seed}"
                + (f" --players {args.players}" if args.players else "")
                + f" --net {args.net} --write",
                held_out_log_loss=round(loss, 4),
            ),
            encoding="utf-8",
        )
        print(f"wrote {path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=sorted(FITTINGS))
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=None, help="default: the game's own")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--write", action="store_true", help=f"save the weights to the expert's {WEIGHTS_FILE}"
    )
    parser.add_argument("--players", type=int, default=None, help="every game at this count")
    parser.add_argument(
        "--net", type=int, default=0, help=f"fit a network of this many units ({NET_FILE})"
    )
    args = parser.parse_args(argv)
    fitting = FITTINGS[args.game]
    seed = fitting.seed if args.seed is None else args.seed
    if args.net:
        return write_net(args, fitting, seed)
    rows = collect(args.game, args.games, seed, args.workers)
    weights, loss, prior = fit_weights(rows)
    print(
        f"{args.game}: {args.games} games, {len(rows)} positions; "
        f"log loss {loss:.4f} (prior {prior:.4f})"
    )
    print("weights:", weights)
    if args.write:
        path = BOTS / fitting.package / WEIGHTS_FILE
        path.write_text(
            model_json(
                weights,
                model=f"logistic regression over {fitting.expert.__name__} features "
                f"(subtable.bots.{fitting.package}.value)",
                positions=fitting.describe,
                refit=f"python scripts/fit_values.py --game {args.game} --games {args.games} "
                f"--seed {seed}",
                log_loss=round(loss, 4),
                prior_log_loss=round(prior, 4),
            ),
            encoding="utf-8",
        )
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
