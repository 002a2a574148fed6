"""Where the game turned, at the web table: how long the chart of a whole game takes.

    python benchmarks/bench_turning.py [--seeds 7301,7302] [--worlds N]

Plays heuristic games (Red November with 4 gnomes, Submarine with 3 players; the lab's
seeds of docs/lab.md), then computes each chart as the server does: its worlds shared out
among ``web.turning.WORKERS`` fresh worker processes (``spawn``, as ``subtable serve``
starts them: the first chart pays the processes' start and imports), then again in the same,
warm processes: the curves' worlds (``--worlds``, by default the game's), then the fresh
worlds that confirm the candidate moments. Prints, per game, the wall seconds and the CPU
seconds (the workers' and the joining's ``time.process_time``: on a shared machine the wall
time grows with the others' load, the CPU time much less), how many moments were found
significant and each with its change and paired 95% interval, in points.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from subtable.bots.base import make_bot, observe
from subtable.core.record import GameRecord
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.web.turning import WORKERS, WORLDS, run_chart

GAMES = (("red-november", {"players": 4}), ("submarine", {"players": 3}))


def record_of(name: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """A heuristic game's record (its JSON form)."""
    game = make_game(name, **options)
    state = game.new_state(seed)
    bots = [make_bot("heuristic", game, s, Rng(seed ^ s)) for s in range(game.num_seats)]
    while not state.is_terminal():
        seat = state.current_seat()
        assert seat is not None
        state.apply(bots[seat].choose(observe(state, seat)))
    return GameRecord.of(name, state).to_json()


def chart(pool: ProcessPoolExecutor, record: dict[str, Any], worlds: int | None) -> dict[str, Any]:
    """A record's chart, as the server computes it (its worlds shared among the workers)."""
    return run_chart(pool, record, worlds, WORKERS)


def _moment(m: dict[str, Any]) -> str:
    who = "team" if m["seat"] is None else f"seat {m['seat'] + 1}"
    change, low, high = (round(100 * v) for v in (m["after"] - m["before"], m["low"], m["high"]))
    return f"move {m['move']} ({who}): {change:+d} [{low:+d}, {high:+d}] p={m['p']:.1e}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default="7301,7302")
    parser.add_argument("--worlds", type=int, default=WORLDS)
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    print(f"workers {WORKERS}")
    print("game                 seed  moves worlds  first (wall, cpu)   warm (wall, cpu)   moments")
    for name, options in GAMES:
        for seed in seeds:
            record = record_of(name, options, seed)
            ctx = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(WORKERS, mp_context=ctx) as pool:
                started = time.perf_counter()
                first = chart(pool, record, args.worlds)
                first_wall = time.perf_counter() - started
                started = time.perf_counter()
                warm = chart(pool, record, args.worlds)
                warm_wall = time.perf_counter() - started
            assert first["series"] == warm["series"]
            print(
                f"{name:<20} {seed:>5} {len(record['actions']):>6} {warm['worlds']:>6}  "
                f"{first_wall:6.1f} s {first['cpu_seconds']:6.1f} s    "
                f"{warm_wall:6.1f} s {warm['cpu_seconds']:6.1f} s   {len(warm['moments']):>4}"
            )
            for m in warm["moments"]:
                print("    " + _moment(m))


if __name__ == "__main__":
    main()
