"""PettingZoo AEC environment steps per second, with observations and masks, on one core.

    python benchmarks/bench_rl.py [red-november|submarine|all] [--seconds S] [--repeat R]
    python benchmarks/bench_rl.py --peers       # one run: subtable against PettingZoo and
                                                # OpenSpiel's own games (tensors included)
    python benchmarks/bench_rl.py --costs       # OpenSpiel tensor path vs set_from, deep copies
    python benchmarks/bench_rl.py --ismcts 20   # OpenSpiel's IS-MCTS vs subtable's ISMCTS

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
    ``seed .. seed + games - 1``. Reproducible: the bots' generators are seeded, and the
    worlds OpenSpiel's bot samples come from the game's own generator (its ``seed``).
    """
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from subtable.bots import make_bot, observe

    ospiel = pyspiel.load_game("python_red_november", {"players": players, "seed": seed})
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


def _aec_loop(env: Any, seconds: float, seed: int) -> float:
    """AEC steps per second (CPU) of a random masked policy over any PettingZoo AEC env whose
    observations are ``{"observation", "action_mask"}`` dicts."""
    rng = np.random.default_rng(seed)
    steps = 0
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
        if time.process_time() - start >= seconds:
            break
        env.reset()
    return steps / (time.process_time() - start)


def _openspiel_loop(game: Any, seconds: float, seed: int, tensors: bool) -> float:
    """OpenSpiel steps per second (CPU): a random legal action per step, with the acting
    player's observation tensor when ``tensors``; chance outcomes are sampled."""
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            player = state.current_player()
            if tensors:
                state.observation_tensor(player)
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
    return steps / (time.process_time() - start)


def peers(seconds: float, seed: int) -> dict[str, Any]:
    """subtable's adapters against the libraries' own games, in one run (steps/s, CPU).

    PettingZoo: the AEC loop with a random masked policy (``connect_four_v3``,
    ``tictactoe_v3``; they need ``pygame``). OpenSpiel: a random legal action per step with
    and without the acting player's ``observation_tensor`` (``leduc_poker``, ``hanabi``,
    ``backgammon``, and our Python games: 3 players each).
    """
    import pyspiel

    out: dict[str, Any] = {"pettingzoo_aec": {}, "openspiel": {}}
    pz = out["pettingzoo_aec"]
    pz["subtable red-november (4 gnomes)"] = _aec_loop(
        aec_env("red-november", players=4), seconds, seed
    )
    pz["subtable submarine (3 players)"] = _aec_loop(aec_env("submarine", players=3), seconds, seed)
    try:
        from pettingzoo.classic import connect_four_v3, tictactoe_v3

        pz["pettingzoo connect_four_v3"] = _aec_loop(connect_four_v3.env(), seconds, seed)
        pz["pettingzoo tictactoe_v3"] = _aec_loop(tictactoe_v3.env(), seconds, seed)
    except ImportError as exc:  # PettingZoo's classic games need pygame
        pz["pettingzoo classic"] = f"not measured: {exc}"
    games = {
        "subtable python_red_november (3 gnomes)": (
            "python_red_november",
            {"players": 3, "seed": seed},
        ),
        "subtable python_submarine (3 players)": (
            "python_submarine",
            {"players": 3, "seed": seed},
        ),
        "C++ leduc_poker": ("leduc_poker", {}),
        "C++ hanabi (3 players)": ("hanabi", {"players": 3}),
        "C++ backgammon": ("backgammon", {}),
    }
    for label, (name, params) in games.items():
        game = pyspiel.load_game(name, params)
        out["openspiel"][label] = {
            "with_tensors": _openspiel_loop(game, seconds, seed, True),
            "without": _openspiel_loop(game, seconds, seed, False),
        }
    return out


def costs(seed: int, repeat: int = 2000) -> dict[str, Any]:
    """Microseconds of OpenSpiel's ``state.observation_tensor(p)`` against the observer's
    ``set_from`` (the floor), and milliseconds of ``copy.deepcopy`` of each environment
    (against PettingZoo's ``connect_four_v3``, when pygame is installed)."""
    import copy

    import pyspiel

    import subtable.rl as rl

    out: dict[str, Any] = {"tensor_us": {}, "deepcopy_ms": {}}
    for name in ("python_red_november", "python_submarine"):
        game = pyspiel.load_game(name, {"players": 3, "seed": seed})
        state = game.new_initial_state()
        rng = np.random.default_rng(seed)
        for _ in range(30):
            state.apply_action(int(rng.choice(state.legal_actions())))
        observer = game.tensor_observer(False)
        p = state.current_player()

        def clock(fn: Any) -> float:
            best = float("inf")
            for _ in range(3):
                t0 = time.process_time()
                for _ in range(repeat):
                    fn()
                best = min(best, (time.process_time() - t0) / repeat * 1e6)
            return best

        tensor = clock(lambda s=state, p=p: s.observation_tensor(p))
        floor = clock(lambda s=state, o=observer, p=p: o.set_from(s, p))
        out["tensor_us"][name] = {
            "observation_tensor": tensor,
            "set_from": floor,
            "ratio": tensor / floor,
            "size": game.observation_tensor_size(),
        }
    envs: dict[str, Any] = {
        "gym red-november (4 gnomes, 3 heuristic bots)": rl.gym_env("red-november", players=4),
        "gym submarine (3 players, 2 heuristic bots)": rl.gym_env("submarine", players=3),
        "aec red-november (4 gnomes)": rl.aec_env("red-november", players=4),
        "aec submarine (3 players)": rl.aec_env("submarine", players=3),
        "parallel submarine (3 players)": rl.parallel_env("submarine", players=3),
    }
    try:
        from pettingzoo.classic import connect_four_v3

        envs["pettingzoo connect_four_v3"] = connect_four_v3.env()
    except ImportError:
        pass
    for label, env in envs.items():
        env.reset(seed=seed)
        copy.deepcopy(env)
        t0 = time.process_time()
        for _ in range(50):
            copy.deepcopy(env)
        out["deepcopy_ms"][label] = (time.process_time() - t0) / 50 * 1e3
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
    parser.add_argument(
        "--peers", action="store_true", help="instead: against the libraries' games"
    )
    parser.add_argument("--costs", action="store_true", help="instead: tensor path, deep copies")
    args = parser.parse_args()
    if args.peers:
        report = peers(args.seconds, args.seed)
        if args.json:
            print(json.dumps(report, indent=2))
            return
        for label, rate in report["pettingzoo_aec"].items():
            print(
                f"PettingZoo AEC  {label:45s} "
                + (f"{rate:9,.0f} steps/s" if isinstance(rate, float) else rate)
            )
        for label, r in report["openspiel"].items():
            print(
                f"OpenSpiel       {label:45s} {r['with_tensors']:9,.0f} steps/s with tensors, "
                f"{r['without']:9,.0f} without"
            )
        return
    if args.costs:
        report = costs(args.seed)
        if args.json:
            print(json.dumps(report, indent=2))
            return
        for name, r in report["tensor_us"].items():
            print(
                f"{name}: observation_tensor {r['observation_tensor']:.1f} us, set_from "
                f"{r['set_from']:.1f} us (x{r['ratio']:.2f}; {r['size']} floats)"
            )
        for label, ms in report["deepcopy_ms"].items():
            print(f"copy.deepcopy {label}: {ms:.2f} ms")
        return
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
