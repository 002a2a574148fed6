"""Bot strength and speed: the table of the README (section "Bots and the simulation lab").

    python benchmarks/bench_bots.py [--games N] [--search-games M] [--seed S] [--workers W]
                                    [--only red-november|submarine] [--budget B]
    python benchmarks/bench_bots.py --decision-cpu [--budget B] [--only GAME]

Each row is one ``subtable simulate`` run (printed with the row, so any figure
can be re-measured alone); win rates come with their 95% Wilson intervals.
Red November: 4 gnomes, standard rules — random, heuristic and ismcts for every
seat. Submarine: 3 players — ismcts (seat 1) against two heuristic bots, and the
heuristic against itself and against random bots for reference.

``--decision-cpu`` measures instead the CPU time (``time.process_time``) of an
ismcts decision, every seat searching, over the first 40 searched decisions of
a fixed game (the best of three runs; the actions are the same each run, and
their digest is printed so that two versions of the bots can be compared on the
same work).
"""

from __future__ import annotations

import argparse
import hashlib
import time
from typing import Any

from subtable.bots import make_bot, observe
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.sim.runner import SimConfig, simulate


def _row(
    game: str,
    options: dict[str, Any],
    bots: list[str],
    games: int,
    seed: int,
    workers: int | None,
    budget: int | None,
) -> dict[str, Any]:
    params = {"budget": budget} if budget else {}
    config = SimConfig(game, options, games, seed, bots, None, params)
    start = time.perf_counter()
    s = simulate(config, workers=workers)
    s["wall"] = time.perf_counter() - start
    opts = " ".join(f"--players {v}" for k, v in options.items() if k == "players")
    who = f"--bot {bots[0]}" if len(bots) == 1 else f"--seats {','.join(bots)}"
    extra = f" --budget {budget}" if budget else ""
    s["command"] = f"subtable simulate {game} {opts} --games {games} --seed {seed} {who}{extra}"
    return s


def _rate(s: dict[str, Any]) -> str:
    if "win_rate" in s:
        lo, hi = s["win_rate_ci95"]
        return f"{s['win_rate']:.1%} [{lo:.1%}, {hi:.1%}] ({s['wins']}/{s['games']})"
    lo, hi = s["win_rate_by_seat_ci95"][0]
    return (
        f"{s['win_rate_by_seat'][0]:.1%} [{lo:.1%}, {hi:.1%}] ({s['wins_by_seat'][0]}/{s['games']})"
    )


def decision_cpu(
    game_name: str, players: int, budget: int, decisions: int = 40, seed: int = 11, runs: int = 3
) -> tuple[float, int, str]:
    """CPU seconds per searched ismcts decision (best of ``runs``), the decisions counted,
    and a digest of the actions played."""
    best = float("inf")
    count, digest = 0, ""
    for _ in range(runs):
        game = make_game(game_name, players=players)
        state = game.new_state(seed)
        bots = [
            make_bot("ismcts", game, s, Rng(1000 + s), budget=budget) for s in range(game.num_seats)
        ]
        cpu, count, actions = 0.0, 0, []
        while not state.is_terminal() and count < decisions:
            seat = state.current_seat()
            assert seat is not None
            bot: Any = bots[seat]
            start = time.process_time()
            action = bot.choose(observe(state, seat))
            spent = time.process_time() - start
            if bot.last_iterations:
                cpu += spent
                count += 1
            actions.append(action.id)
            state.apply(action)
        best = min(best, cpu / max(count, 1))
        digest = hashlib.sha256(str(actions).encode()).hexdigest()[:12]
    return best, count, digest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games for fast bots")
    parser.add_argument("--search-games", type=int, default=100, help="games with ismcts")
    parser.add_argument("--seed", type=int, default=7301)  # held out: no tuning saw it
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--budget", type=int, default=None, help="ismcts iterations")
    parser.add_argument("--only", choices=["red-november", "submarine"], default=None)
    parser.add_argument(
        "--decision-cpu",
        action="store_true",
        help="CPU per ismcts decision instead of the strength table",
    )
    args = parser.parse_args()
    if args.decision_cpu:
        for game, players in (("red-november", 4), ("submarine", 3)):
            if args.only and game != args.only:
                continue
            cpu, count, digest = decision_cpu(game, players, args.budget or 50)
            print(
                f"{game}: {cpu * 1000:.1f} ms CPU per ismcts decision "
                f"(budget {args.budget or 50}, {count} decisions, actions {digest})",
                flush=True,
            )
        return
    rows: list[tuple[str, dict[str, Any]]] = []
    g, sg = args.games, args.search_games
    plan: list[tuple[str, str, dict[str, Any], list[str], int]] = [
        ("red-november", "random (all seats)", {"players": 4}, ["random"], g),
        ("red-november", "heuristic (all seats)", {"players": 4}, ["heuristic"], g),
        ("red-november", "ismcts (all seats)", {"players": 4}, ["ismcts"], sg),
        (
            "submarine",
            "heuristic vs random, random",
            {"players": 3},
            ["heuristic", "random", "random"],
            g,
        ),
        ("submarine", "heuristic vs heuristic, heuristic", {"players": 3}, ["heuristic"], g),
        (
            "submarine",
            "ismcts vs heuristic, heuristic",
            {"players": 3},
            ["ismcts", "heuristic", "heuristic"],
            sg,
        ),
    ]
    print("| game | bots | games | win rate (seat 1 / team) [95% CI] | s/game | command |")
    print("|---|---|---|---|---|---|")
    for game, label, options, bots, games in plan:
        if args.only and game != args.only:
            continue
        budget = args.budget if any(b.startswith("ismcts") for b in bots) else None
        s = _row(game, options, bots, games, args.seed, args.workers, budget)
        rows.append((label, s))
        print(
            f"| {game} | {label} | {s['games']} | {_rate(s)} | "
            f"{s['wall'] / s['games']:.2f} | `{s['command']}` |",
            flush=True,
        )


if __name__ == "__main__":
    main()
