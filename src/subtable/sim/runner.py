"""Play many complete games with bots and summarise them.

Every game's seed is drawn from the run's seed up front (:func:`game_seeds`) and
each bot's generator from its game's seed, so a run's result depends only on its
configuration — not on timing, nor on how the games are split across processes
(``workers``) or machines (the Ray backend).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, NotRequired, TypedDict

from subtable.bots.base import BotParamValue, make_bot, observe, parse_bot_spec
from subtable.bots.levels import resolve_level
from subtable.core.components import TomlTable
from subtable.core.errors import SubtableError
from subtable.core.game import Game, Utility
from subtable.core.options import OptionValue
from subtable.core.record import GameRecord
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.sim.metrics import Figures, GameMetrics
from subtable.sim.stats import wilson_interval

_BOT_SALT = 0x5EED_B075_0000_0001
#: called with the number of games just finished
Progress = Callable[[int], None]


class SeatCountError(ValueError):
    """More than one bot given, but not one per seat."""

    def __init__(self, bots: list[str], seats: int) -> None:
        super().__init__(
            f"{len(bots)} bots given ({', '.join(bots)}) for a game of {seats} seats: "
            "give one bot per seat, or one bot for every seat"
        )
        self.bots = bots
        self.seats = seats


@dataclass(slots=True)
class SimConfig:
    """One simulation run."""

    game: str
    options: dict[str, OptionValue]
    games: int
    seed: int = 0
    #: bot specs (``name`` or ``name:key=value:...``), one per seat or one for every seat
    bots: list[str] = field(default_factory=lambda: ["random"])
    save_records: Path | None = None
    #: parameters given to every bot that accepts them (e.g. ``{"budget": 200}``)
    bot_params: dict[str, BotParamValue] = field(default_factory=dict)
    #: validated component overrides (:mod:`subtable.core.variants`); ``{}``: as packaged
    variant: TomlTable = field(default_factory=dict)

    def seat_bots(self, seats: int) -> list[str]:
        """The bot spec of each seat."""
        if len(self.bots) == 1:
            return self.bots * seats
        if len(self.bots) != seats:
            raise SeatCountError(list(self.bots), seats)
        return list(self.bots)


@dataclass(slots=True)
class GameResult:
    """The outcome of one simulated game."""

    seed: int
    reason: str
    winners: tuple[int, ...]
    returns: list[float]
    decisions: int
    #: game-specific figures for the lab (see :mod:`subtable.sim.metrics`)
    metrics: Figures = field(default_factory=lambda: Figures())


def game_seeds(seed: int, count: int) -> list[int]:
    """The seeds of a run's games."""
    rng = Rng(seed)
    return [rng.next64() >> 1 for _ in range(count)]


def play_game(
    game: Game[Any],
    seed: int,
    bot_names: Sequence[str],
    *,
    record_to: Path | None = None,
    game_name: str = "",
    bot_params: dict[str, BotParamValue] | None = None,
) -> GameResult:
    """Play one game to the end with the given bots (one spec per seat)."""
    state = game.new_state(seed)
    salt = Rng(seed ^ _BOT_SALT)
    bots = []
    for i, spec in enumerate(bot_names):
        name, params = parse_bot_spec(resolve_level(spec, game), bot_params)
        bots.append(make_bot(name, game, i, Rng(salt.next64()), **params))
    metrics = GameMetrics.for_game(game, state)
    decisions = 0
    limit = game.info.max_game_length
    while not state.is_terminal():
        seat = state.current_seat()
        assert seat is not None
        action = bots[seat].choose(observe(state, seat))
        events = state.apply_unchecked(action.id)
        metrics.events(events)
        decisions += 1
        if decisions > limit:
            raise SubtableError(
                f"game with seed {seed} exceeded {limit} decisions (bots {', '.join(bot_names)})"
            )
    outcome = state.outcome()
    assert outcome is not None
    if record_to is not None:
        GameRecord.of(game_name, state, bots=list(bot_names)).save(record_to / f"game-{seed}.json")
    return GameResult(
        seed, outcome.reason, outcome.winners, state.returns(), decisions, metrics.final(state)
    )


def run_games(config: SimConfig, seeds: Sequence[int]) -> list[GameResult]:
    """Play the games of ``seeds`` in this process."""
    game = make_game(config.game, config.variant or None, **config.options)
    bots = config.seat_bots(game.num_seats)
    if config.save_records is not None:
        config.save_records.mkdir(parents=True, exist_ok=True)
    return [
        play_game(
            game,
            s,
            bots,
            record_to=config.save_records,
            game_name=config.game,
            bot_params=config.bot_params,
        )
        for s in seeds
    ]


def _chunks(seeds: list[int], parts: int) -> list[list[int]]:
    size = max(1, -(-len(seeds) // parts))
    return [seeds[i : i + size] for i in range(0, len(seeds), size)]


def run(
    config: SimConfig,
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> list[GameResult]:
    """Play every game of ``config`` (in seed order) on this machine or on Ray.

    ``workers`` defaults to every core; the results are exactly those of one process.
    """
    seeds = game_seeds(config.seed, config.games)
    if backend == "ray":
        return _run_ray(config, seeds, address, progress)
    if backend != "local":
        raise SubtableError(f"unknown backend {backend!r} (local or ray)")
    procs = workers or os.cpu_count() or 1
    if procs <= 1 or len(seeds) <= 1:
        out: list[GameResult] = []
        for chunk in _chunks(seeds, max(1, len(seeds) // 8)):
            out.extend(run_games(config, chunk))
            if progress is not None:
                progress(len(chunk))
        return out
    from concurrent.futures import ProcessPoolExecutor, as_completed

    chunks = _chunks(seeds, min(len(seeds), procs * 8))
    results: list[list[GameResult] | None] = [None] * len(chunks)
    with ProcessPoolExecutor(min(procs, len(chunks))) as pool:
        futures = {pool.submit(run_games, config, chunk): i for i, chunk in enumerate(chunks)}
        for future in as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            if progress is not None:
                progress(len(chunks[i]))
    return [r for chunk_results in results if chunk_results for r in chunk_results]


def start_backend(backend: str, address: str | None = None) -> Any:
    """Connect to the backend before timing starts (Ray: the cluster, started if need be)."""
    if backend == "local":
        return None
    if backend != "ray":
        raise SubtableError(f"unknown backend {backend!r} (local or ray)")
    try:
        # ray is the optional ``cluster`` extra: absent unless that extra is installed
        import ray  # pyright: ignore[reportMissingImports]
    except ImportError:
        from subtable.sim.extras import install_hint

        raise SubtableError(f"the ray backend needs Ray: {install_hint('cluster')}") from None
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    return ray


def _run_ray(
    config: SimConfig, seeds: list[int], address: str | None, progress: Progress | None
) -> list[GameResult]:
    ray = start_backend("ray", address)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    chunks = _chunks(seeds, min(len(seeds), max(1, cpus) * 8))
    remote = ray.remote(run_games)
    refs = {remote.remote(config, chunk): i for i, chunk in enumerate(chunks)}
    results: list[list[GameResult] | None] = [None] * len(chunks)
    pending = list(refs)
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            i = refs[ref]
            results[i] = ray.get(ref)
            if progress is not None:
                progress(len(chunks[i]))
    return [r for chunk_results in results if chunk_results for r in chunk_results]


class RunSettings(TypedDict, total=False):
    """What a run was given beyond its options, when given."""

    bot_params: dict[str, BotParamValue]
    #: the validated component overrides (:mod:`subtable.core.variants`)
    variant: TomlTable


class WinFigures(TypedDict, total=False):
    """The wins: the team's in a cooperative game, else each seat's."""

    wins: int
    win_rate: float
    win_rate_ci95: list[float]
    loss_causes: dict[str, int]
    win_rate_by_seat: list[float]
    win_rate_by_seat_ci95: list[list[float]]


class RunSummary(TypedDict):
    """A run's statistics (:func:`summarise`), in the order its JSON gives them."""

    game: str
    options: dict[str, OptionValue]
    seed: int
    bots: list[str]
    games: int
    end_reasons: dict[str, int]
    wins_by_seat: list[int]
    mean_decisions: float
    bot_params: NotRequired[dict[str, BotParamValue]]
    variant: NotRequired[TomlTable]
    wins: NotRequired[int]
    win_rate: NotRequired[float]
    win_rate_ci95: NotRequired[list[float]]
    loss_causes: NotRequired[dict[str, int]]
    win_rate_by_seat: NotRequired[list[float]]
    win_rate_by_seat_ci95: NotRequired[list[list[float]]]
    seconds: float
    games_per_sec: float
    decisions_per_sec: float


class TeamWins(NamedTuple):
    """A cooperative run's wins, their rate with its 95% interval, and the loss causes."""

    wins: int
    rate: float
    lo: float
    hi: float
    loss_causes: dict[str, int]


def team_wins(summary: RunSummary) -> TeamWins | None:
    """The team's wins of a cooperative run's ``summary`` (``None``: a competitive run)."""
    s = summary
    if "wins" in s and "win_rate" in s and "win_rate_ci95" in s and "loss_causes" in s:
        lo, hi = s["win_rate_ci95"]
        return TeamWins(s["wins"], s["win_rate"], lo, hi, s["loss_causes"])
    return None


def _win_figures(
    game: Game[Any], n: int, reasons: Counter[str], wins_by_seat: list[int]
) -> WinFigures:
    """The team's wins, rate and loss causes (cooperative), else each seat's rate."""
    win_reason = game.info.win_reason
    if game.info.utility is Utility.COOPERATIVE and win_reason is not None:
        wins = reasons.get(win_reason, 0)
        lo, hi = wilson_interval(wins, n)
        return {
            "wins": wins,
            "win_rate": wins / n if n else 0.0,
            "win_rate_ci95": [lo, hi],
            "loss_causes": {k: v for k, v in sorted(reasons.items()) if k != win_reason},
        }
    return {
        "win_rate_by_seat": [w / n if n else 0.0 for w in wins_by_seat],
        "win_rate_by_seat_ci95": [list(wilson_interval(w, n)) for w in wins_by_seat],
    }


def summarise(
    game: Game[Any], config: SimConfig, results: list[GameResult], seconds: float
) -> RunSummary:
    """The run's statistics as JSON-ready data."""
    n = len(results)
    decisions = sum(r.decisions for r in results)
    reasons = Counter(r.reason for r in results)
    for reason in game.info.end_reasons:  # every declared reason, zeros included
        reasons.setdefault(reason, 0)
    wins_by_seat = [0] * game.num_seats
    for r in results:
        for w in r.winners:
            wins_by_seat[w] += 1
    settings: RunSettings = {}
    if config.bot_params:
        settings["bot_params"] = dict(config.bot_params)
    if config.variant:
        settings["variant"] = dict(config.variant)
    figures = _win_figures(game, n, reasons, wins_by_seat)
    return {
        "game": config.game,
        "options": dict(game.options),
        "seed": config.seed,
        "bots": config.seat_bots(game.num_seats),
        "games": n,
        "end_reasons": dict(sorted(reasons.items())),
        "wins_by_seat": wins_by_seat,
        "mean_decisions": decisions / n if n else 0.0,
        **settings,
        **figures,
        "seconds": seconds,
        "games_per_sec": n / seconds if seconds > 0 else 0.0,
        "decisions_per_sec": decisions / seconds if seconds > 0 else 0.0,
    }


def check_config(config: SimConfig) -> Game[Any]:
    """Build the game and the seat bots once, so bad options fail before any work."""
    game = make_game(config.game, config.variant or None, **config.options)
    for seat, spec in enumerate(config.seat_bots(game.num_seats)):
        name, params = parse_bot_spec(resolve_level(spec, game), config.bot_params)
        make_bot(name, game, seat, Rng(0), **params)
    return game


def simulate(
    config: SimConfig,
    *,
    workers: int | None = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> RunSummary:
    """Run a simulation and return its summary."""
    game = check_config(config)
    start_backend(backend, address)
    start = time.perf_counter()
    results = run(config, workers=workers, backend=backend, address=address, progress=progress)
    seconds = time.perf_counter() - start
    return summarise(game, config, results, seconds)
