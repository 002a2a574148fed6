"""Decision quality: each bot's choices at the same positions, judged by a deeper search.

    python benchmarks/bench_decisions.py [--seed 77] [--games 3] [--reference 1600]
                                         [--bots ismcts,ismcts:extend=1,strong] [--reps 3]
                                         [--workers 1] [--cache DIR]

A game costs minutes of CPU to play and hundreds of games to resolve a few points of win
rate; a decision costs a fraction of a second to judge. The positions are every decision of
heuristic games (Red November, 4 gnomes, seed ``--seed``) where the expert offers a
search more than one option. At each, the expert's advice (:func:`subtable.bots.advice.advise`,
``--reference`` iterations: each of the expert's candidates played on the same sampled worlds,
the tree below it) gives every option its estimated chance of winning; the reference's
choice is the best of them. Each bot then decides ``--reps`` times from the seat's view, with
a different seed each time; its **regret** at a decision is the reference's chance for the
reference's choice less its chance for the bot's. Printed per bot: the mean regret (in
thousandths of a chance of winning) with a 95% bootstrap interval over positions, how often it
chose as the reference did and as the expert did, its mean iterations and CPU a decision; and
each bot's regret against the first bot's, paired by position.

The reference is itself a search, and a few positions carry most of the regret: read the
intervals. docs/strength.md says what it resolved. ``--workers`` splits the positions among
processes (every position's seeds follow from its index, so the figures do not depend on it);
``--cache`` keeps the reference's chances in a JSON file there and reads them back on the next
run with the same positions and reference budget.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from subtable.bots import make_bot, observe
from subtable.bots.advice import advise
from subtable.bots.base import parse_bot_spec
from subtable.bots.experts import make_expert
from subtable.bots.levels import resolve_level
from subtable.core.game import State
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.sim.runner import game_seeds

#: the options the reference compares (its advice's ``top``; one spare beyond them)
REFERENCE_TOP = 5


@dataclass(frozen=True, slots=True)
class Position:
    """A decision of a heuristic game, where the expert offers more than one option."""

    state: State[Any]
    seat: int
    #: the expert's own choice
    expert: int


@dataclass(slots=True)
class Judged:
    """One bot's decisions at one position: its regrets (one per rep), choices, effort."""

    regrets: list[float]
    as_reference: int
    as_expert: int
    outside: int
    iterations: int
    cpu: float


def positions(game_name: str, players: int, seed: int, games: int) -> list[Position]:
    """Every decision of ``games`` heuristic games where the expert, reading the seat's view,
    offers more than one candidate (a search's root asks it the same, in a sampled world)."""
    game = make_game(game_name, players=players)
    expert = make_expert(game)
    found: list[Position] = []
    for s in game_seeds(seed, games):
        state = game.new_state(s)
        bots = [make_bot("heuristic", game, i, Rng(s + i)) for i in range(players)]
        while not state.is_terminal():
            seat = state.current_seat()
            assert seat is not None
            obs = observe(state, seat)
            if len(obs.legal_ids) > 1:
                board = expert.board(obs.view)
                options = expert.candidates(board, seat, obs.legal_ids, 4, Rng(s))
                if len(options) > 1:
                    found.append(Position(state.clone(), seat, options[0]))
            state.apply_unchecked(bots[seat].choose(obs).id)
    return found


def judge(
    game_name: str,
    players: int,
    found: list[Position],
    chances: list[dict[int, float]],
    spec: str,
    reps: int,
    first: int = 0,
) -> list[Judged]:
    """``spec``'s decisions at every position, ``reps`` seeds each, by the reference
    (``first``: the first position's index in the whole list, which its seeds follow)."""
    game = make_game(game_name, players=players)
    name, params = parse_bot_spec(resolve_level(spec, game), None)
    out: list[Judged] = []
    for k, (pos, chance) in enumerate(zip(found, chances, strict=True), start=first):
        obs = observe(pos.state, pos.seat)
        best = max(chance, key=lambda a: chance[a])
        j = Judged([], 0, 0, 0, 0, 0.0)
        for r in range(reps):
            bot = make_bot(name, game, pos.seat, Rng(1_000_003 * (r + 1) + k), **params)
            start = time.process_time()
            pick = bot.choose(obs).id
            j.cpu += time.process_time() - start
            j.iterations += getattr(bot, "last_iterations", 0)
            if pick not in chance:
                j.outside += 1
                continue
            j.regrets.append(chance[best] - chance[pick])
            j.as_reference += pick == best
            j.as_expert += pick == pos.expert
        out.append(j)
    return out


def reference(
    game_name: str, players: int, found: list[Position], budget: int, first: int = 0
) -> list[dict[int, float]]:
    """Per position, each of the expert's options' estimated chance (``first``: as in
    :func:`judge`)."""
    game = make_game(game_name, players=players)
    out: list[dict[int, float]] = []
    for k, pos in enumerate(found, start=first):
        obs = observe(pos.state, pos.seat)
        advice = advise(
            game, obs.view, obs.legal_ids, seed=7_919 * (k + 1), budget=budget, top=REFERENCE_TOP
        )
        out.append({o.action: o.chance for o in advice.options})
    return out


@dataclass(frozen=True, slots=True)
class Setup:
    """Where the positions come from: enough for a worker process to rebuild them."""

    game: str
    players: int
    seed: int
    games: int
    limit: int  # the first ``limit`` positions only (0: all)

    def positions(self) -> list[Position]:
        found = positions(self.game, self.players, self.seed, self.games)
        return found[: self.limit] if self.limit else found


def _spans(count: int, workers: int) -> list[tuple[int, int]]:
    step = -(-count // max(1, workers))
    return [(lo, min(count, lo + step)) for lo in range(0, count, step)]


def _reference_part(job: tuple[Setup, int, int, int]) -> list[dict[int, float]]:
    setup, budget, lo, hi = job
    return reference(setup.game, setup.players, setup.positions()[lo:hi], budget, first=lo)


def _judge_part(job: tuple[Setup, list[dict[int, float]], str, int, int]) -> list[Judged]:
    setup, chances, spec, reps, lo = job
    found = setup.positions()[lo : lo + len(chances)]
    return judge(setup.game, setup.players, found, chances, spec, reps, first=lo)


def reference_all(
    setup: Setup, count: int, budget: int, workers: int, cache: Path | None
) -> list[dict[int, float]]:
    """:func:`reference` over the ``count`` positions of ``setup``, split among ``workers``
    processes, read from and kept in ``cache`` when one is given."""
    path = None
    if cache is not None:
        key = f"{setup.game}-{setup.players}-{setup.seed}-{setup.games}-{setup.limit}-{budget}"
        path = cache / f"reference-{key}.json"
        if path.exists():
            kept = json.loads(path.read_text())
            return [{int(a): float(c) for a, c in ch.items()} for ch in kept]
    jobs = [(setup, budget, lo, hi) for lo, hi in _spans(count, workers)]
    if workers <= 1:
        out = [c for job in jobs for c in _reference_part(job)]
    else:
        with ProcessPoolExecutor(workers) as pool:
            out = [c for part in pool.map(_reference_part, jobs) for c in part]
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(out))
    return out


def judge_all(
    setup: Setup, chances: list[dict[int, float]], spec: str, reps: int, workers: int
) -> list[Judged]:
    """:func:`judge` over every position, split among ``workers`` processes (the same
    figures for any number of them)."""
    jobs = [(setup, chances[lo:hi], spec, reps, lo) for lo, hi in _spans(len(chances), workers)]
    if workers <= 1:
        return [j for job in jobs for j in _judge_part(job)]
    with ProcessPoolExecutor(workers) as pool:
        return [j for part in pool.map(_judge_part, jobs) for j in part]


def bootstrap(values: list[float], draws: int = 2000, seed: int = 1) -> tuple[float, float]:
    """A 95% percentile interval of the mean of ``values``."""
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(rng.choice(values) for _ in range(n)) / n for _ in range(draws))
    return means[int(0.025 * draws)], means[int(0.975 * draws) - 1]


def mean_regret(j: Judged) -> float:
    """A position's regret, averaged over its reps (0 where every rep chose outside)."""
    return sum(j.regrets) / len(j.regrets) if j.regrets else 0.0


def report(spec: str, judged: list[Judged]) -> str:
    """One bot's line."""
    per = [mean_regret(j) for j in judged]
    low, high = bootstrap(per)
    decisions = sum(len(j.regrets) + j.outside for j in judged)
    as_reference = sum(j.as_reference for j in judged) / decisions
    as_expert = sum(j.as_expert for j in judged) / decisions
    return (
        f"{spec:40s} regret {1000 * statistics.fmean(per):5.2f} [{1000 * low:.2f}, "
        f"{1000 * high:.2f}]  as the reference {as_reference:.3f}  as the expert {as_expert:.3f}"
        f"  outside {sum(j.outside for j in judged)}"
        f"  iterations {sum(j.iterations for j in judged) / decisions:.0f}"
        f"  CPU {1000 * sum(j.cpu for j in judged) / decisions:.0f} ms a decision"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="red-november")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--max-positions", type=int, default=0, help="the first N positions only")
    ap.add_argument("--reference", type=int, default=1600, help="the reference's iterations")
    ap.add_argument("--bots", default="ismcts,ismcts:extend=1,strong")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--workers", type=int, default=1, help="processes (the figures are the same)")
    ap.add_argument("--cache", type=Path, default=None, help="keep the reference's chances here")
    args = ap.parse_args()
    game = make_game(args.game, players=args.players)
    specs = [s for s in args.bots.split(",") if s]
    for s in specs:  # a bad spec fails now, not after the reference's minutes
        parse_bot_spec(resolve_level(s, game), None)
    setup = Setup(args.game, args.players, args.seed, args.games, args.max_positions)
    found = setup.positions()
    start = time.perf_counter()
    chances = reference_all(setup, len(found), args.reference, args.workers, args.cache)
    print(
        f"{len(found)} positions of {args.games} heuristic games (seed {args.seed}); the "
        f"reference: {args.reference} iterations, "
        f"{time.perf_counter() - start:.0f} s of wall clock",
        flush=True,
    )
    judged: dict[str, list[Judged]] = {}
    for s in specs:
        judged[s] = judge_all(setup, chances, s, args.reps, args.workers)
        print(report(s, judged[s]), flush=True)
    first = [mean_regret(j) for j in judged[specs[0]]]
    for s in specs[1:]:
        diffs = [mean_regret(j) - f for j, f in zip(judged[s], first, strict=True)]
        low, high = bootstrap(diffs, seed=2)
        print(
            f"  {s} against {specs[0]}: {1000 * statistics.fmean(diffs):+.2f} "
            f"[{1000 * low:+.2f}, {1000 * high:+.2f}] thousandths of regret"
        )


if __name__ == "__main__":
    main()
