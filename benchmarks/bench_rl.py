"""PettingZoo AEC environment steps per second, with observations and masks, on one core.

    python benchmarks/bench_rl.py [red-november|submarine|all] [--seconds S] [--repeat R]

The loop is PettingZoo's own (``agent_iter``, ``last()``, ``step``), with a uniformly random
policy over the action mask; a step is one ``env.step`` of an agent that acts (the final
``step(None)`` of each finished agent is not counted). Cases: 4-gnome Red November and
3-player Submarine. Target: at least 10,000 steps per second for each.

A breakdown follows (microseconds per decision): the engine alone (legal ids + unchecked
apply, new deals included), the seat's typed view (``observe``), the encoding, the mask,
and what the environment and the policy add. CPU time (``time.process_time``), best of
``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.rl import aec_env, make_encoder
from subtable.rl.common import legal_mask

CASES: dict[str, dict[str, Any]] = {
    "red-november": {"players": 4},
    "submarine": {"players": 3},
}
TARGET = 10_000.0


def bench_aec(name: str, seconds: float, seed: int) -> dict[str, float]:
    """Steps per second of the AEC loop with a random masked policy."""
    env = aec_env(name, **CASES[name])
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = time.process_time()
    env.reset(seed=seed)
    while True:
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        episodes += 1
        if time.process_time() - start >= seconds:
            break
        env.reset()
    cpu = time.process_time() - start
    return {"steps_per_sec": steps / cpu, "steps": steps, "episodes": episodes, "cpu": cpu}


def breakdown(name: str, seconds: float, seed: int) -> dict[str, float]:
    """Microseconds per decision spent in each layer (the same random games, replayed)."""
    game = make_game(name, **CASES[name])
    enc = make_encoder(game)
    n_actions = len(game.action_space)
    # play random games once, recording the seeds and actions
    games: list[tuple[int, list[int]]] = []
    rng = Rng(seed)
    total = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds / 4:
        s = rng.next64() >> 1
        state = game.new_state(s)
        acts = []
        while not state.is_terminal():
            ids = state.legal_action_ids()
            a = ids[rng.below(len(ids))]
            acts.append(a)
            state.apply_unchecked(a)
        games.append((s, acts))
        total += len(acts)

    def run(observe: bool, encode: bool, mask: bool) -> float:
        start = time.process_time()
        for s, acts in games:
            state = game.new_state(s)
            for a in acts:
                seat = state.current_seat()
                state.legal_action_ids()
                if observe:
                    view = state.observe(seat)
                    if encode:
                        enc.encode(view)
                if mask:
                    legal_mask(state, n_actions)
                state.apply_unchecked(a)
        return (time.process_time() - start) / total * 1e6

    engine = min(run(False, False, False) for _ in range(3))
    view = min(run(True, False, False) for _ in range(3))
    encoded = min(run(True, True, False) for _ in range(3))
    masked = min(run(True, True, True) for _ in range(3))
    return {
        "engine_us": engine,
        "observe_us": view - engine,
        "encode_us": encoded - view,
        "mask_us": masked - encoded,
        "layers_us": masked,
    }


def compare_ismcts(games: int, sims: int, seed: int, players: int = 3) -> dict[str, Any]:
    """Red November crews of OpenSpiel's IS-MCTS vs subtable's ISMCTS on the same deals.

    Every gnome of a crew is played by the same kind of bot, with ``sims`` simulations
    (iterations) per decision. OpenSpiel's bot uses its own IS-MCTS over our
    ``resample_from_infostate`` with one random rollout per leaf; subtable's uses its
    defaults (heuristic rollouts, a fitted value model). Deals: engine seeds
    ``seed .. seed + games - 1``.
    """
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import subtable.rl.openspiel as sos
    from subtable.bots import make_bot, observe

    ospiel = pyspiel.load_game(sos.RED_NOVEMBER, {"players": players})
    engine_game = make_game("red-november", players=players)
    out: dict[str, Any] = {"players": players, "games": games, "sims": sims, "seed": seed}
    for kind in ("openspiel", "subtable"):
        wins = decisions = 0
        start = time.process_time()
        for g in range(games):
            if kind == "openspiel":
                state = ospiel.new_initial_state_from_seed(seed + g)
                bots = [
                    ismcts.ISMCTSBot(
                        ospiel,
                        mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + 100 * g + p)),
                        2.0,
                        sims,
                        random_state=np.random.RandomState(seed + 100 * g + p),
                        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                    )
                    for p in range(players)
                ]
                while not state.is_terminal():
                    p = state.current_player()
                    state.apply_action(bots[p].step(state))
                    decisions += 1
                done = state.engine.outcome()
                wins += done is not None and done.reason == "rescued"
            else:
                est = engine_game.new_state(seed + g)
                sbots = [
                    make_bot("ismcts", engine_game, p, Rng(seed + 100 * g + p), budget=sims)
                    for p in range(players)
                ]
                while not est.is_terminal():
                    seat = est.current_seat()
                    assert seat is not None
                    est.apply_unchecked(sbots[seat].choose(observe(est, seat)).id)
                    decisions += 1
                outcome = est.outcome()
                wins += outcome is not None and outcome.reason == "rescued"
        out[kind] = {
            "crew_wins": int(wins),
            "decisions": decisions,
            "cpu_seconds": time.process_time() - start,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="all", choices=["all", *CASES])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument(
        "--ismcts",
        type=int,
        metavar="GAMES",
        default=0,
        help="instead: OpenSpiel's IS-MCTS vs subtable's ISMCTS, 3-gnome crews, GAMES deals",
    )
    parser.add_argument("--sims", type=int, default=25, help="simulations per decision")
    args = parser.parse_args()
    if args.ismcts:
        print(json.dumps(compare_ismcts(args.ismcts, args.sims, args.seed), indent=2))
        return
    names = list(CASES) if args.game == "all" else [args.game]
    report: dict[str, Any] = {}
    ok = True
    for name in names:
        runs = [bench_aec(name, args.seconds, args.seed + i) for i in range(args.repeat)]
        best = max(runs, key=lambda r: r["steps_per_sec"])
        parts = breakdown(name, args.seconds, args.seed)
        aec_us = 1e6 / best["steps_per_sec"]
        parts["env_and_policy_us"] = aec_us - parts["layers_us"]
        report[name] = {"options": CASES[name], **best, **parts}
        ok &= best["steps_per_sec"] >= TARGET
        if not args.json:
            opts = ", ".join(f"{k}={v}" for k, v in CASES[name].items())
            verdict = "ok" if best["steps_per_sec"] >= TARGET else "BELOW TARGET"
            print(
                f"{name} ({opts}): {best['steps_per_sec']:,.0f} AEC steps/s "
                f"({best['episodes']} games, {best['steps']:,} steps) "
                f"[target {TARGET:,.0f}: {verdict}]"
            )
            print(
                "  per decision (us): "
                f"engine {parts['engine_us']:.1f}, observe {parts['observe_us']:.1f}, "
                f"encode {parts['encode_us']:.1f}, mask {parts['mask_us']:.1f}, "
                f"env+policy {parts['env_and_policy_us']:.1f}, total {aec_us:.1f}"
            )
    if args.json:
        print(json.dumps(report, indent=2))
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
