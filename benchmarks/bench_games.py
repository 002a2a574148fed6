"""Random complete games per second on one core, for each game.

    python benchmarks/bench_games.py [red-november|submarine|all] [--games N] [--seed S]

Two figures per game: the engine's lean path (``legal_action_ids`` +
``apply_unchecked``, as search bots use it) and the full simulation path
(random bots through the observation interface, as ``subtable simulate`` runs).
Targets: at least 200 complete games per second for both games.

Times are the process's CPU time (``time.process_time``): the throughput of
one core, less disturbed by whatever else the machine runs; each figure is the
best of ``--repeat`` runs (as ``timeit`` advises: slower runs measure the noise).
Wall-clock figures are printed beside them.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.sim.runner import SimConfig, game_seeds, run_games

CASES: dict[str, dict[str, Any]] = {
    "red-november": {"players": 4},
    "submarine": {"players": 3},
}
TARGET = 200.0


def bench_engine(name: str, games: int, seed: int) -> dict[str, float]:
    """The lean path: ids and unchecked applies."""
    game = make_game(name, **CASES[name])
    decisions = 0
    start, wall = time.process_time(), time.perf_counter()
    for s in game_seeds(seed, games):
        state = game.new_state(s)
        rng = Rng(s + 1)
        while not state.is_terminal():
            ids = state.legal_action_ids()
            state.apply_unchecked(ids[rng.below(len(ids))])
            decisions += 1
    seconds, wall = time.process_time() - start, time.perf_counter() - wall
    return {
        "games_per_sec": games / seconds,
        "decisions_per_sec": decisions / seconds,
        "mean_decisions": decisions / games,
        "cpu_seconds": seconds,
        "wall_games_per_sec": games / wall,
    }


def bench_simulate(name: str, games: int, seed: int) -> dict[str, float]:
    """The simulation path: random bots through observations."""
    config = SimConfig(name, dict(CASES[name]), games, seed, ["random"])
    start, wall = time.process_time(), time.perf_counter()
    results = run_games(config, game_seeds(seed, games))
    seconds, wall = time.process_time() - start, time.perf_counter() - wall
    decisions = sum(r.decisions for r in results)
    return {
        "games_per_sec": games / seconds,
        "decisions_per_sec": decisions / seconds,
        "cpu_seconds": seconds,
        "wall_games_per_sec": games / wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="all", choices=[*CASES, "all"])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (best kept)")
    args = parser.parse_args()
    names = list(CASES) if args.game == "all" else [args.game]
    report = {}
    for name in names:
        try:
            make_game(name, **CASES[name])
        except ImportError:
            print(f"{name}: not available")
            continue
        engine = max(
            (bench_engine(name, args.games, args.seed) for _ in range(args.repeat)),
            key=lambda r: r["games_per_sec"],
        )
        sim = max(
            (bench_simulate(name, args.games, args.seed) for _ in range(args.repeat)),
            key=lambda r: r["games_per_sec"],
        )
        report[name] = {"options": CASES[name], "engine": engine, "simulate": sim}
        verdict = (
            "meets" if min(engine["games_per_sec"], sim["games_per_sec"]) >= TARGET else "MISSES"
        )
        print(
            f"{name} {CASES[name]}: engine {engine['games_per_sec']:.0f} games/s "
            f"({engine['decisions_per_sec']:.0f} decisions/s, "
            f"{engine['mean_decisions']:.1f} decisions/game); simulate "
            f"{sim['games_per_sec']:.0f} games/s (CPU time; wall clock "
            f"{engine['wall_games_per_sec']:.0f} and {sim['wall_games_per_sec']:.0f}) — "
            f"{verdict} the {TARGET:.0f} games/s target"
        )
    print(json.dumps(report))


if __name__ == "__main__":
    main()
