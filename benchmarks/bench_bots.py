"""Bot strength and speed: the table of the README (section "Bots and the simulation lab").

    python benchmarks/bench_bots.py [--games N] [--search-games M] [--seed S] [--workers W]
                                    [--only red-november|submarine] [--budget B]

Each row is one ``subtable simulate`` run (printed with the row, so any figure
can be re-measured alone); win rates come with their 95% Wilson intervals.
Red November: 4 gnomes, standard rules — random, heuristic and ismcts for every
seat. Submarine: 3 players — ismcts (seat 1) against two heuristic bots, and the
heuristic against itself and against random bots for reference.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from subtable.sim.runner import SimConfig, simulate


def _row(game: str, options: dict[str, Any], bots: list[str], games: int, seed: int,
         workers: int | None, budget: int | None) -> dict[str, Any]:
    params = {"budget": budget} if budget else {}
    config = SimConfig(game, options, games, seed, bots, None, params)
    start = time.perf_counter()
    s = simulate(config, workers=workers)
    s["wall"] = time.perf_counter() - start
    opts = " ".join(f"--players {v}" for k, v in options.items() if k == "players")
    who = f"--bot {bots[0]}" if len(bots) == 1 else f"--seats {','.join(bots)}"
    extra = f" --budget {budget}" if budget else ""
    s["command"] = (f"subtable simulate {game} {opts} --games {games} --seed {seed} "
                    f"{who}{extra}")
    return s


def _rate(s: dict[str, Any]) -> str:
    if "win_rate" in s:
        lo, hi = s["win_rate_ci95"]
        return f"{s['win_rate']:.1%} [{lo:.1%}, {hi:.1%}] ({s['wins']}/{s['games']})"
    lo, hi = s["win_rate_by_seat_ci95"][0]
    return (f"{s['win_rate_by_seat'][0]:.1%} [{lo:.1%}, {hi:.1%}] "
            f"({s['wins_by_seat'][0]}/{s['games']})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games for fast bots")
    parser.add_argument("--search-games", type=int, default=100, help="games with ismcts")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--budget", type=int, default=None, help="ismcts iterations")
    parser.add_argument("--only", choices=["red-november", "submarine"], default=None)
    args = parser.parse_args()
    rows: list[tuple[str, dict[str, Any]]] = []
    g, sg = args.games, args.search_games
    plan: list[tuple[str, str, dict[str, Any], list[str], int]] = [
        ("red-november", "random (all seats)", {"players": 4}, ["random"], g),
        ("red-november", "heuristic (all seats)", {"players": 4}, ["heuristic"], g),
        ("red-november", "ismcts (all seats)", {"players": 4}, ["ismcts"], sg),
        ("submarine", "heuristic vs random, random", {"players": 3},
         ["heuristic", "random", "random"], g),
        ("submarine", "heuristic vs heuristic, heuristic", {"players": 3}, ["heuristic"], g),
        ("submarine", "ismcts vs heuristic, heuristic", {"players": 3},
         ["ismcts", "heuristic", "heuristic"], sg),
    ]
    print("| game | bots | games | win rate (seat 1 / team) [95% CI] | s/game | command |")
    print("|---|---|---|---|---|---|")
    for game, label, options, bots, games in plan:
        if args.only and game != args.only:
            continue
        budget = args.budget if any(b.startswith("ismcts") for b in bots) else None
        s = _row(game, options, bots, games, args.seed, args.workers, budget)
        rows.append((label, s))
        print(f"| {game} | {label} | {s['games']} | {_rate(s)} | "
              f"{s['wall'] / s['games']:.2f} | `{s['command']}` |", flush=True)


if __name__ == "__main__":
    main()
