"""Bot strength and speed: the figures of docs/strength.md and the README's table.

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

The strength questions of docs/strength.md, each a paired comparison on held-out seeds
(both sides play the same deals; the difference comes with Agresti-Min's 95% interval and
McNemar's exact test; ``--out DIR`` keeps every game's outcome, so a rerun is instant):

    python benchmarks/bench_bots.py paired --bots ismcts --against heuristic [--game G]
                                    [--players P] [--games N] [--seed S] [--workers W]
    python benchmarks/bench_bots.py ceiling   # the same search handed the true position
    python benchmarks/bench_bots.py curve --budgets 25,50,100,200,400,800,1600
    python benchmarks/bench_bots.py levels    # easy, normal, strong, with CPU per decision
    python benchmarks/bench_bots.py walks --games 100 --seed 77   # a walk followed or re-planned
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Generator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from subtable.bots import make_bot, observe
from subtable.bots.base import Observation, register_bot
from subtable.bots.experts import make_expert
from subtable.bots.heuristic import SearchHooks
from subtable.bots.ismcts import ISMCTSBot
from subtable.bots.levels import LEVELS
from subtable.core.actions import Action
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.sim.runner import SimConfig, game_seeds, run_games, simulate
from subtable.sim.stats import mcnemar_exact_p, paired_difference_interval, wilson_interval


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


# -- paired comparisons on held-out seeds ---------------------------------------------------
class _TrueWorld:
    """A game whose every "sampled" world is the true position (decks, dice to come)."""

    def __init__(self, game: Any, truth: Any) -> None:
        self._game = game
        self._truth = truth

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def determinize(self, view: Any, rng: Rng) -> Any:
        return self._truth.clone()


class OracleSearch(ISMCTSBot):
    """The ceiling: ``ismcts`` handed the true position instead of worlds sampled from its
    view — every deck order and every die to come known. No fair bot can pass it; it is
    measured here only, and never registered by the package."""

    name = "oracle"

    def think(self, obs: Observation) -> Generator[int, None, Action]:
        game = self.game
        self.game = _TrueWorld(game, obs._state)  # type: ignore[assignment]
        try:
            return (yield from super().think(obs))
        finally:
            self.game = game


register_bot("oracle", f"{__name__}:OracleSearch")


Row = tuple[int, list[int], str, float]


def _play(job: tuple[str, dict[str, Any], list[str], list[int]]) -> list[Row]:
    game, options, bots, seeds = job
    config = SimConfig(game, options, len(seeds), 0, bots)
    out = []
    for seed in seeds:
        start = time.process_time()
        result = run_games(config, [seed])[0]
        out.append((seed, list(result.winners), result.reason, time.process_time() - start))
    return out


def outcomes(
    game: str,
    options: dict[str, Any],
    bots: list[str],
    games: int,
    seed: int,
    workers: int,
    out: Path | None,
) -> dict[str, Any]:
    """Each game's winners and CPU for ``bots`` on the run seed's deals (cached in ``out``)."""
    key = f"{game}-{'-'.join(f'{k}{v}' for k, v in sorted(options.items()))}-{seed}-{games}-"
    key += hashlib.sha256(",".join(bots).encode()).hexdigest()[:10]
    path = None if out is None else out / f"{key}.json"
    if path is not None and path.exists():
        cached: dict[str, Any] = json.loads(path.read_text())
        return cached
    seeds = game_seeds(seed, games)
    chunks = [seeds[i :: workers * 4] for i in range(workers * 4)]
    rows: list[Row] = []
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(_play, [(game, options, bots, c) for c in chunks if c]):
            rows += part
    rows.sort(key=lambda r: seeds.index(r[0]))
    data = {
        "game": game,
        "options": options,
        "bots": bots,
        "seed": seed,
        "win_reason": make_game(game, **options).info.win_reason,
        "games": [
            {"seed": s, "winners": w, "reason": r, "cpu": round(c, 3)} for s, w, r, c in rows
        ],
    }
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data))
    return data


def _won(data: dict[str, Any], seat: int) -> list[bool]:
    """Whether the team won (a cooperative game), else whether ``seat`` won, game by game."""
    if data["win_reason"] is not None:
        return [g["reason"] == data["win_reason"] for g in data["games"]]
    return [seat in g["winners"] for g in data["games"]]


def paired_line(label: str, a: dict[str, Any], b: dict[str, Any], seat: int = 0) -> str:
    """``b`` against ``a`` on the same deals: both rates, the difference, McNemar."""
    wa, wb = _won(a, seat), _won(b, seat)
    n = len(wa)
    only_a = sum(x and not y for x, y in zip(wa, wb, strict=True))
    only_b = sum(y and not x for x, y in zip(wa, wb, strict=True))
    diff, lo, hi = paired_difference_interval(only_a, only_b, n)

    def rate(w: list[bool]) -> str:
        k = sum(w)
        low, high = wilson_interval(k, n)
        return f"{k}/{n} = {k / n:.1%} [{low:.1%}, {high:.1%}]"

    cpu = sum(g["cpu"] for g in b["games"]) / n
    return (
        f"{label}: {','.join(b['bots'])} {rate(wb)} against {','.join(a['bots'])} {rate(wa)}; "
        f"difference {diff:+.1%} [{lo:+.1%}, {hi:+.1%}], only one side won {only_a} / {only_b}, "
        f"McNemar p = {mcnemar_exact_p(only_a, only_b):.2g}; {cpu:.1f} s CPU a game"
    )


def _strength(args: argparse.Namespace) -> None:
    options: dict[str, Any] = {"players": args.players}
    run = lambda bots: outcomes(  # noqa: E731
        args.game, options, bots, args.games, args.seed, args.workers, args.out
    )
    seats = 1 if args.game == "red-november" else args.players
    rest = [] if seats == 1 else ["heuristic"] * (seats - 1)
    base = run([args.against, *rest] if rest else [args.against])
    where = f"{args.game}, {args.players} players, seed {args.seed}"
    if args.mode == "paired":
        for bot in args.bots.split(","):
            print(paired_line(where, base, run([bot, *rest] if rest else [bot])), flush=True)
    elif args.mode == "ceiling":
        fair = run(["ismcts", *rest] if rest else ["ismcts"])
        oracle = run(["oracle", *rest] if rest else ["oracle"])
        print(paired_line(where + " (fair search)", base, fair), flush=True)
        print(paired_line(where + " (the ceiling)", base, oracle), flush=True)
        print(paired_line(where + " (ceiling over fair)", fair, oracle), flush=True)
    elif args.mode == "curve":
        for budget in args.budgets.split(","):
            spec = f"ismcts:budget={int(budget)}"
            print(paired_line(where, base, run([spec, *rest] if rest else [spec])), flush=True)
    elif args.mode == "levels":
        for level in LEVELS:
            print(paired_line(where, base, run([level, *rest] if rest else [level])), flush=True)


def walks(games: int, seed: int) -> tuple[int, int]:
    """Red November, 4 gnomes, the expert playing ``games`` games of ``seed``: at how many
    decisions a search's hooks would follow a walk (handed the task of the walk's previous
    step), and at how many of those their step is the one the whole plan takes."""
    game = make_game("red-november", players=4)
    expert, judge = make_expert(game), make_expert(game)
    walk = expert.walk
    followed = same = 0

    def counted(b: Any, legal: list[int], width: int, task: Any) -> Any:
        nonlocal followed, same
        out = walk(b, legal, width, task)
        if task is not None and out is not None:
            followed += 1
            same += out[0][0] == judge.choose(b, b.active, legal, Rng(0))
        return out

    class Counting:
        """The expert, its walks counted (the compiled expert's methods cannot be replaced)."""

        walk = staticmethod(counted)

        def __getattr__(self, name: str) -> Any:
            return getattr(expert, name)

    hooks = SearchHooks(game, Counting(), walk=True)
    for s in game_seeds(seed, games):
        state = game.new_state(s)
        while not state.is_terminal():
            ids = state.legal_action_ids()
            seat = state.current_seat()
            assert seat is not None
            if len(ids) > 1:
                hooks.act(state, ids, Rng(0))  # what the search would do, and carry
                ids = [judge.choose(observe(state, seat).view, seat, ids, Rng(0))]
            state.apply_unchecked(ids[0])  # the game the expert plays
    return followed, same


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "walks":
        wp = argparse.ArgumentParser(description="a walk followed or re-planned")
        wp.add_argument("mode", choices=["walks"])
        wp.add_argument("--games", type=int, default=100)
        wp.add_argument("--seed", type=int, default=77)
        wargs = wp.parse_args()
        followed, same = walks(wargs.games, wargs.seed)
        print(
            f"red-november, 4 gnomes, {wargs.games} expert games of seed {wargs.seed}: "
            f"{followed} steps of a walk followed, {same} of them the whole plan's "
            f"({same / max(1, followed):.1%})"
        )
        return
    if len(sys.argv) > 1 and sys.argv[1] in ("paired", "ceiling", "curve", "levels"):
        sp = argparse.ArgumentParser(description="paired strength comparisons")
        sp.add_argument("mode", choices=["paired", "ceiling", "curve", "levels"])
        sp.add_argument("--game", default="red-november", choices=["red-november", "submarine"])
        sp.add_argument("--players", type=int, default=None)
        sp.add_argument("--games", type=int, default=400)
        sp.add_argument("--seed", type=int, default=8808)  # held out: no tuning saw it
        sp.add_argument("--workers", type=int, default=2)
        sp.add_argument("--bots", default="ismcts", help="paired: comma-separated bot specs")
        sp.add_argument("--against", default="heuristic")
        sp.add_argument("--budgets", default="25,50,100,200,400,800,1600")
        sp.add_argument("--out", type=Path, default=None, help="keep each game's outcome here")
        args = sp.parse_args()
        if args.players is None:
            args.players = 4 if args.game == "red-november" else 3
        _strength(args)
        return
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
