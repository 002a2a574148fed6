"""CPU milliseconds per ISMCTS decision, this checkout against a reference commit.

    python benchmarks/bench_search.py [--games N] [--seed S] [--base 9c98ced] [--quick]
                                      [--game red-november|submarine] [--budget B]
                                      [--bot ismcts:expand=false:turns=2]
    python benchmarks/bench_search.py --profile red-november [--max-decisions N]
    python benchmarks/bench_search.py --instructions --quick [--game red-november] [--base C]

Both games at the bots' default settings (``ismcts`` at its default budget):
Red November with 4 gnomes, all four searching; Submarine with 3 players,
``ismcts`` against two heuristics. Every game is played to its end (``--quick``:
one game each, stopped after 40 decisions; ``--budget``: another number of iterations;
``--bot``: the searching seats' spec, parameters included; the reference commit must know them) on
the seeds of ``--seed`` (those of ``subtable simulate --seed``), and each ``ismcts`` decision
with a choice (two or
more legal actions) is timed in process CPU time (``time.process_time``): one
core's work, little disturbed by other jobs on the machine.

``--instructions`` runs both under valgrind's cachegrind and counts the instructions the
decisions took instead (a run with no game gives the start-up, taken off): a count that other
jobs on the machine do not move, for comparing code that plays the same actions (an exact
speed-up) where CPU times move ±10% from run to run. Valgrind is some 40 times slower: use it
with ``--quick``.

The reference commit is checked out into a temporary ``git worktree``; it and this checkout are
each built into a wheel as ``pip install`` builds it (Red November's engine and expert compiled
with mypyc where the commit's build does so: ``hatch_build.py``) and unpacked, and each is
measured by the same code, run in a subprocess with ``PYTHONPATH`` pointing at it (one process
each, one after the other), so the two columns differ only by the code under test. ``--source``
measures the trees' ``src`` instead (pure Python, no build). The games themselves may differ when
the bots' choices do (the seeds are the same).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CASES: dict[str, dict[str, Any]] = {
    "red-november": {"options": {"players": 4}, "seats": ["ismcts"] * 4},
    "submarine": {"options": {"players": 3}, "seats": ["ismcts", "heuristic", "heuristic"]},
}


# ------------------------------------------------------------------ worker --
def measure(
    game_name: str,
    games: int,
    seed: int,
    max_decisions: int,
    budget: int = 0,
    bot: str = "ismcts",
    fixed: bool = False,
) -> dict[str, Any]:
    """Play ``games`` games and time every ``ismcts`` decision with a choice (``budget``:
    the search's iterations, 0 for its default; ``bot``: the searching seats' spec; ``fixed``:
    the heuristic plays every seat and the search only decides, so that every build and
    budget decides at the same positions)."""
    from subtable.bots.base import make_bot, observe, parse_bot_spec
    from subtable.core.registry import make_game
    from subtable.core.rng import Rng
    from subtable.sim import runner

    case = CASES[game_name]
    game = make_game(game_name, **case["options"])
    name, params = parse_bot_spec(bot, {"budget": budget} if budget else None)
    times: list[float] = []
    searches: list[float] = []  # the decisions where the search ran (not the expert alone)
    decisions = 0
    for s in runner.game_seeds(seed, games):
        state = game.new_state(s)
        salt = Rng(s ^ runner._BOT_SALT)
        bots = [
            make_bot(name, game, i, Rng(salt.next64()), **params)
            if n == "ismcts"
            else make_bot(n, game, i, Rng(salt.next64()))
            for i, n in enumerate(case["seats"])
        ]
        players = [make_bot("heuristic", game, i, Rng(s + i)) for i in range(len(bots))]
        steps = 0
        while not state.is_terminal() and (max_decisions <= 0 or steps < max_decisions):
            seat = state.current_seat()
            assert seat is not None
            obs = observe(state, seat)
            searching = case["seats"][seat] == "ismcts" and len(obs.legal_ids) > 1
            start = time.process_time()
            action = bots[seat].choose(obs)
            if searching:
                times.append(time.process_time() - start)
                if getattr(bots[seat], "last_iterations", 0):  # it did search
                    searches.append(times[-1])
            if fixed:
                action = players[seat].choose(obs)
            state.apply_unchecked(action.id)
            steps += 1
        decisions += steps
    times_ms = sorted(t * 1000 for t in times)
    return {
        "decisions": decisions,
        "searched": len(times_ms),
        "mean_ms": sum(times_ms) / max(1, len(times_ms)),
        "median_ms": statistics.median(times_ms) if times_ms else 0.0,
        # most decisions with a choice are the expert's alone (one candidate): the median over
        # those where the search ran says what a searched decision costs
        "ran": len(searches),
        "median_ran_ms": 1000 * statistics.median(searches) if searches else 0.0,
        "p95_ms": times_ms[min(len(times_ms) - 1, int(0.95 * len(times_ms)))] if times_ms else 0.0,
        "total_s": sum(times_ms) / 1000,
    }


def profile(game_name: str, seed: int, decisions: int, top: int) -> None:
    """Where the CPU of the ``ismcts`` decisions in one game's first ``decisions``
    decisions goes: first by part (the expert's rollout moves, candidate moves and leaf
    values, each including the view it reads; the engine; sampling worlds), timed with
    ``perf_counter`` around each call; then the same decisions again under cProfile."""
    import collections
    import cProfile
    import pstats

    from subtable.bots import heuristic
    from subtable.bots.base import make_bot, observe
    from subtable.core.registry import make_game
    from subtable.core.rng import Rng
    from subtable.sim import runner

    case = CASES[game_name]
    game = make_game(game_name, **case["options"])
    s = runner.game_seeds(seed, 1)[0]
    spent: collections.Counter[str] = collections.Counter()
    saved: list[tuple[Any, str, Any]] = []

    def timed(owner: Any, attr: str, label: str) -> None:
        inner = getattr(owner, attr)
        saved.append((owner, attr, inner))

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                spent[label] += time.perf_counter() - start

        setattr(owner, attr, wrapper)

    def play(prof: cProfile.Profile | None) -> float:
        state = game.new_state(s)
        salt = Rng(s ^ runner._BOT_SALT)
        bots = [make_bot(n, game, i, Rng(salt.next64())) for i, n in enumerate(case["seats"])]
        total = 0.0
        for _ in range(decisions):
            if state.is_terminal():
                break
            seat = state.current_seat()
            assert seat is not None
            obs = observe(state, seat)
            searching = case["seats"][seat] == "ismcts"
            before = spent.copy()
            start = time.perf_counter()
            if searching and prof is not None:
                prof.enable()
            action = bots[seat].choose(obs)
            if searching and prof is not None:
                prof.disable()
            if searching:
                total += time.perf_counter() - start
            else:  # the heuristic seats' own calls are not the search's
                spent.clear()
                spent.update(before)
            state.apply_unchecked(action.id)
        return total

    hooks = heuristic.SearchHooks
    for attr, label in (
        ("act", "expert: rollout moves"),
        ("candidates", "expert: candidates"),
        ("evaluate", "expert: leaf values"),
        ("_board", "  (the views they read)"),
    ):
        timed(hooks, attr, label)
    state_class = type(game.new_state(s))
    for attr, label in (
        ("apply_unchecked", "engine: apply"),
        ("legal_action_ids", "engine: legal ids"),
        ("clone", "engine: clone"),
    ):
        timed(state_class, attr, label)
    timed(type(game), "determinize", "sampling worlds")
    total = play(None)
    for owner, attr, inner in saved:
        setattr(owner, attr, inner)
    print(f"{game_name}: {total:.2f} s in ismcts decisions (wall clock, by part)")
    for label, seconds in spent.most_common():
        print(f"  {label:<26}{seconds:8.2f} s {100 * seconds / total:6.1f}%")
    rest = total - sum(v for k, v in spent.items() if not k.startswith(" "))
    print(f"  {'search itself (the rest)':<26}{rest:8.2f} s {100 * rest / total:6.1f}%")
    prof = cProfile.Profile()
    play(prof)
    pstats.Stats(prof).sort_stats("tottime").print_stats(top)


# ------------------------------------------------------------------ driver --
#: valgrind's instruction count, without its cache simulation (the fastest way to count)
_CACHEGRIND = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]


def code_of(tree: Path, into: Path, source: bool) -> tuple[Path, str]:
    """The directory to put on ``PYTHONPATH`` for the code of ``tree``, and how it was built:
    its ``src`` (``source``), or its wheel, built as ``pip install`` builds it and unpacked
    into ``into``."""
    if source:
        return tree / "src", "source"
    wheels = into / "wheel"
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels)]
    subprocess.run([*build, str(tree)], check=True, capture_output=True)
    (wheel,) = wheels.glob("*.whl")
    lib = into / "lib"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(lib)
    compiled = any(lib.glob("subtable/**/*.so"))
    return lib, "compiled" if compiled else "pure"


def run_in(src: Path, args: argparse.Namespace, game: str) -> dict[str, Any]:
    """The worker's figures for ``game`` with the code of ``src``; with ``--instructions``,
    the instructions its decisions took, the start-up (a run of no game) taken off."""
    result = _worker(src, args, game, args.games)
    if args.instructions:
        start_up = _worker(src, args, game, 0)["instructions"]
        result["instructions"] -= start_up
    return result


def _worker(src: Path, args: argparse.Namespace, game: str, games: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    cmd = [
        *(_CACHEGRIND if args.instructions else []),
        sys.executable,
        __file__,
        "--worker",
        game,
        "--games",
        str(games),
        "--seed",
        str(args.seed),
        "--max-decisions",
        str(args.max_decisions),
        "--budget",
        str(args.budget),
        "--bot",
        args.bot,
        *(["--fixed"] if args.fixed else []),
    ]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, cwd=src.parent)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    if args.instructions:
        refs = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
        if refs is None:
            raise SystemExit(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
        result["instructions"] = int(refs.group(1).replace(",", ""))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per game and commit")
    parser.add_argument("--seed", type=int, default=7301)
    parser.add_argument("--base", default="9c98ced", help="the reference commit")
    parser.add_argument("--max-decisions", type=int, default=0, help="stop each game after N")
    parser.add_argument("--quick", action="store_true", help="one game each, 40 decisions")
    parser.add_argument("--budget", type=int, default=0, help="ismcts iterations (0: default)")
    parser.add_argument("--bot", default="ismcts", help="the searching seats' spec")
    parser.add_argument("--game", choices=[*CASES, "all"], default="all")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions (valgrind), not time"
    )
    parser.add_argument(
        "--source", action="store_true", help="the trees' src, not their built wheels"
    )
    parser.add_argument(
        "--fixed", action="store_true", help="time decisions at the positions of heuristic games"
    )
    parser.add_argument("--worker", choices=list(CASES), help=argparse.SUPPRESS)
    parser.add_argument(
        "--profile", choices=list(CASES), help="profile this checkout's decisions in one game"
    )
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, args.seed, args.max_decisions or 60, 30)
        return
    if args.worker:
        print(
            json.dumps(
                measure(
                    args.worker,
                    args.games,
                    args.seed,
                    args.max_decisions,
                    args.budget,
                    args.bot,
                    args.fixed,
                )
            )
        )
        return
    if args.quick:
        args.games, args.max_decisions = 1, 40
    names = list(CASES) if args.game == "all" else [args.game]
    tmp = Path(tempfile.mkdtemp(prefix="bench_search_"))
    base_tree = tmp / "base"
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(base_tree), args.base],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    report: dict[str, Any] = {}
    try:
        base_code, base_build = code_of(base_tree, tmp / "base-built", args.source)
        now_code, now_build = code_of(ROOT, tmp / "now-built", args.source)
        print(f"{args.base}: {base_build}; this checkout: {now_build}")
        for name in names:
            base = run_in(base_code, args, name)
            now = run_in(now_code, args, name)
            speedup = base["mean_ms"] / now["mean_ms"] if now["mean_ms"] else 0.0
            report[name] = {"base": base, "now": now, "speedup": speedup}
    finally:
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(base_tree)], cwd=ROOT, capture_output=True
        )
        shutil.rmtree(tmp, ignore_errors=True)
    if args.instructions:
        print(f"Instructions of the {args.bot} decisions, start-up taken off, seed {args.seed}")
        for name in names:
            base, now = report[name]["base"], report[name]["now"]
            same = "the same" if base["decisions"] == now["decisions"] else "NOT the same"
            was, is_ = base["instructions"], now["instructions"]
            print(
                f"{name:<14} {args.base}: {was / 1e9:.3f} G, this: {is_ / 1e9:.3f} G "
                f"({is_ / was:.3f} of it), {now['decisions']} decisions ({same} number)"
            )
        print(json.dumps(report))
        return
    head = (
        f"{'game':<28}{'commit':<10}{'searched':>9}{'mean ms':>10}{'median':>8}{'p95 ms':>10}"
        f"{'CPU s':>8}{'ran':>6}{'median ran':>12}"
    )
    budget = f"budget {args.budget}" if args.budget else "the default budget"
    where = ", at the positions of heuristic games" if args.fixed else ""
    print(
        f"CPU ms per {args.bot} decision, seed {args.seed}, {args.games} game(s) per row, {budget}"
        f"{where}"
    )
    print(head)
    for name in names:
        label = f"{name} {CASES[name]['options']}"
        for key, commit in (("base", args.base), ("now", "this")):
            r = report[name][key]
            print(
                f"{label:<28}{commit:<10}{r['searched']:>9}{r['mean_ms']:>10.1f}"
                f"{r.get('median_ms', 0.0):>8.1f}{r['p95_ms']:>10.1f}{r['total_s']:>8.1f}"
                f"{r.get('ran', 0):>6}{r.get('median_ran_ms', 0.0):>12.1f}"
            )
        print(f"{'':<28}{'speedup':<10}{report[name]['speedup']:>28.2f}x")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
