"""Play many complete games with bots and summarise them.

Every game's seed is drawn from the run's seed up front, so a run's result
depends only on its configuration — not on timing or on how the games are
split across workers.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from subtable.bots.base import make_bot, observe
from subtable.core.game import Game, Utility
from subtable.core.record import GameRecord
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.sim.stats import wilson_interval

_BOT_SALT = 0x5EED_B075_0000_0001


@dataclass(slots=True)
class SimConfig:
    """One simulation run."""

    game: str
    options: dict[str, Any]
    games: int
    seed: int = 0
    #: bot names, one per seat, or a single name for every seat
    bots: list[str] = field(default_factory=lambda: ["random"])
    save_records: Path | None = None

    def seat_bots(self, seats: int) -> list[str]:
        """The bot name of each seat."""
        if len(self.bots) == 1:
            return self.bots * seats
        if len(self.bots) != seats:
            raise ValueError(f"{len(self.bots)} bots given for {seats} seats")
        return list(self.bots)


@dataclass(slots=True)
class GameResult:
    """The outcome of one simulated game."""

    seed: int
    reason: str
    winners: tuple[int, ...]
    returns: list[float]
    decisions: int


def game_seeds(seed: int, count: int) -> list[int]:
    """The seeds of a run's games."""
    rng = Rng(seed)
    return [rng.next64() >> 1 for _ in range(count)]


def play_game(game: Game[Any], seed: int, bot_names: list[str], *,
              record_to: Path | None = None, game_name: str = "") -> GameResult:
    """Play one game to the end with the given bots (one name per seat)."""
    state = game.new_state(seed)
    salt = Rng(seed ^ _BOT_SALT)
    bots = [make_bot(name, game, seat, Rng(salt.next64()))
            for seat, name in enumerate(bot_names)]
    decisions = 0
    limit = game.info.max_game_length
    while not state.is_terminal():
        seat = state.current_seat()
        assert seat is not None
        action = bots[seat].choose(observe(state, seat))
        state.apply_unchecked(action.id)
        decisions += 1
        if decisions > limit:
            raise RuntimeError(f"game with seed {seed} exceeded {limit} decisions")
    outcome = state.outcome()
    assert outcome is not None
    if record_to is not None:
        GameRecord.of(game_name, state, bots=bot_names).save(record_to / f"game-{seed}.json")
    return GameResult(seed, outcome.reason, outcome.winners, state.returns(), decisions)


def run_games(config: SimConfig, seeds: list[int]) -> list[GameResult]:
    """Play the games of ``seeds`` in this process."""
    game = make_game(config.game, **config.options)
    bots = config.seat_bots(game.num_seats)
    if config.save_records is not None:
        config.save_records.mkdir(parents=True, exist_ok=True)
    return [play_game(game, s, bots, record_to=config.save_records, game_name=config.game)
            for s in seeds]


def summarise(game: Game[Any], config: SimConfig, results: list[GameResult],
              seconds: float) -> dict[str, Any]:
    """The run's statistics as JSON-ready data."""
    n = len(results)
    decisions = sum(r.decisions for r in results)
    reasons = Counter(r.reason for r in results)
    wins_by_seat = [0] * game.num_seats
    for r in results:
        for w in r.winners:
            wins_by_seat[w] += 1
    out: dict[str, Any] = {
        "game": config.game, "options": dict(game.options), "seed": config.seed,
        "bots": config.seat_bots(game.num_seats), "games": n,
        "end_reasons": dict(sorted(reasons.items())),
        "wins_by_seat": wins_by_seat,
        "mean_decisions": decisions / n if n else 0.0,
    }
    win_reason = game.info.win_reason
    if game.info.utility is Utility.COOPERATIVE and win_reason is not None:
        wins = reasons.get(win_reason, 0)
        lo, hi = wilson_interval(wins, n)
        out["wins"] = wins
        out["win_rate"] = wins / n if n else 0.0
        out["win_rate_ci95"] = [lo, hi]
        out["loss_causes"] = {k: v for k, v in sorted(reasons.items()) if k != win_reason}
    else:
        out["win_rate_by_seat"] = [w / n if n else 0.0 for w in wins_by_seat]
        out["win_rate_by_seat_ci95"] = [list(wilson_interval(w, n)) for w in wins_by_seat]
    out["seconds"] = seconds
    out["games_per_sec"] = n / seconds if seconds > 0 else 0.0
    out["decisions_per_sec"] = decisions / seconds if seconds > 0 else 0.0
    return out


def simulate(config: SimConfig) -> dict[str, Any]:
    """Run a simulation and return its summary."""
    game = make_game(config.game, **config.options)
    config.seat_bots(game.num_seats)  # validate before spending time
    seeds = game_seeds(config.seed, config.games)
    start = time.perf_counter()
    results = run_games(config, seeds)
    seconds = time.perf_counter() - start
    return summarise(game, config, results, seconds)
