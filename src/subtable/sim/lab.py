"""The simulation lab: parameter sweeps, per-game CSV rows, the runs behind a report."""

from __future__ import annotations

import csv
import itertools
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from subtable.core.errors import OptionError
from subtable.core.options import OptionValue
from subtable.core.registry import registration
from subtable.sim.runner import (
    GameResult,
    Progress,
    RunSummary,
    SeatCountError,
    SimConfig,
    check_config,
    run,
    start_backend,
    summarise,
)

#: sweep keys that are not game options
_SPECIAL = ("players", "bot", "budget")


@dataclass(slots=True)
class Run:
    """One point of a sweep: its configuration, games and summary."""

    point: dict[str, OptionValue]
    config: SimConfig
    results: list[GameResult]
    summary: RunSummary

    @property
    def label(self) -> str:
        """``players=5 greater_challenge=1`` (or ``all games`` without a sweep)."""
        return " ".join(f"{k}={v}" for k, v in self.point.items()) or "all games"


def _values(raw: str) -> list[str]:
    raw = raw.strip()
    if ".." in raw:
        lo, _, hi = raw.partition("..")
        try:
            a, b = int(lo), int(hi)
        except ValueError:
            raise OptionError(
                f"a range must be whole numbers a..b, not {raw!r}", code="bad_sweep"
            ) from None
        step = 1 if b >= a else -1
        return [str(v) for v in range(a, b + step, step)]
    values = [v.strip() for v in raw.split(",") if v.strip()]
    if not values:
        raise OptionError(f"no values in sweep {raw!r}", code="bad_sweep")
    return values


def parse_sweeps(game: str, specs: Sequence[str]) -> list[tuple[str, list[OptionValue]]]:
    """``["players=3..8", "option.greater_challenge=0,2"]`` as (key, typed values)."""
    option_specs = registration(game).option_specs()
    flags = [name for name, spec in option_specs.items() if spec.flag]
    out: list[tuple[str, list[OptionValue]]] = []
    for spec in specs:
        key, sep, raw = spec.partition("=")
        key = key.strip().removeprefix("option.").removeprefix("o.").replace("-", "_")
        if not sep:
            raise OptionError(f"a sweep is KEY=a..b or KEY=a,b,c, not {spec!r}", code="bad_sweep")
        if key in ("players", "budget"):
            try:
                values: list[OptionValue] = [int(v) for v in _values(raw)]
            except ValueError:
                raise OptionError(f"sweep {key} takes whole numbers", code="bad_sweep") from None
        elif key == "bot":
            values = [v.strip() for v in raw.split(",") if v.strip()]  # seats joined by +
        elif key in option_specs:
            values = [option_specs[key].check(option_specs[key].parse(v)) for v in _values(raw)]
        else:
            named = [*_SPECIAL, *flags]
            known = ", ".join(
                [*named, *sorted(f"option.{k}" for k in option_specs if k not in named)]
            )
            raise OptionError(f"cannot sweep {key!r} (known: {known})", code="bad_sweep")
        if any(k == key for k, _ in out):
            raise OptionError(f"{key} is swept twice", code="bad_sweep")
        out.append((key, values))
    return out


def grid(
    base: SimConfig, sweeps: list[tuple[str, list[OptionValue]]]
) -> list[tuple[dict[str, OptionValue], SimConfig]]:
    """Every configuration of the sweep grid (the base alone without sweeps)."""
    if not sweeps:
        return [({}, base)]
    keys = [k for k, _ in sweeps]
    out = []
    for combo in itertools.product(*(v for _, v in sweeps)):
        point = dict(zip(keys, combo, strict=True))
        options = dict(base.options)
        bots = list(base.bots)
        params = dict(base.bot_params)
        for k, v in point.items():
            if k == "bot":
                bots = [s.strip() for s in str(v).split("+")]
            elif k == "budget":
                params["budget"] = v
            else:
                options[k] = v
        # an option that follows a swept one (a crew that follows the player count)
        # settles from each swept value, unless it is swept too
        for name in _followers(base.game, point):
            options.pop(name, None)
        out.append((point, replace(base, options=options, bots=bots, bot_params=params)))
    return out


def _followers(game: str, point: Mapping[str, OptionValue]) -> list[str]:
    """The options of ``game`` that follow an option swept at ``point`` and are not swept."""
    specs = registration(game).option_specs()
    return [
        name
        for name, spec in specs.items()
        if spec.follows is not None and spec.follows.on in point and name not in point
    ]


def run_grid(
    base: SimConfig,
    sweeps: list[tuple[str, list[OptionValue]]],
    *,
    workers: int | None,
    backend: str,
    address: str | None,
    progress: Progress | None,
) -> list[Run]:
    """Play every point of the grid; check all of them before playing any."""
    points = grid(base, sweeps)
    games = []
    mismatched: list[tuple[dict[str, OptionValue], SeatCountError]] = []
    for point, config in points:
        try:
            games.append(check_config(config))
        except SeatCountError as exc:
            if not point:
                raise
            mismatched.append((point, exc))
    if mismatched:
        raise OptionError(_seat_mismatch(mismatched), code="bad_sweep")
    start_backend(backend, address)
    runs = []
    for (point, config), game in zip(points, games, strict=True):
        start = time.perf_counter()
        results = run(config, workers=workers, backend=backend, address=address, progress=progress)
        summary = summarise(game, config, results, time.perf_counter() - start)
        runs.append(Run(point, config, results, summary))
    return runs


def _seat_mismatch(mismatched: list[tuple[dict[str, OptionValue], SeatCountError]]) -> str:
    """Why some points of a sweep have not one bot per seat, and what to do instead."""
    bots = mismatched[0][1].bots
    seats = sorted({exc.seats for _, exc in mismatched})
    where = ", ".join(" ".join(f"{k}={v}" for k, v in point.items()) for point, _ in mismatched)
    counts = " or ".join(str(n) for n in seats)
    if any("bot" in point for point, _ in mismatched):
        return (
            f"the bot sweep gives {len(bots)} bots ({'+'.join(bots)}), one per seat, for games "
            f"with {counts} seats ({where}): each bot=A+B+… needs one bot per seat of every "
            "swept game, or a single bot for every seat"
        )
    return (
        f"--seats gives {len(bots)} bots ({', '.join(bots)}), one per seat, but the sweep "
        f"also plays games with {counts} seats ({where}); when sweeping players, use "
        "--bot NAME (one bot for every seat) instead of --seats"
    )


CSV_FIELDS = (
    "config",
    "game",
    "players",
    "options",
    "bots",
    "seed",
    "reason",
    "winners",
    "returns",
    "decisions",
    "minute",
    "clock",
    "turns",
)


def write_csv(path: Path, runs: Sequence[Run]) -> None:
    """One row per game."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for r in runs:
            options = r.summary["options"]
            for g in r.results:
                writer.writerow(
                    {
                        "config": r.label,
                        "game": r.config.game,
                        "players": options.get("players", ""),
                        "options": json.dumps(options, sort_keys=True),
                        "bots": ";".join(r.summary["bots"]),
                        "seed": g.seed,
                        "reason": g.reason,
                        "winners": ";".join(str(w) for w in g.winners),
                        "returns": ";".join(f"{x:g}" for x in g.returns),
                        "decisions": g.decisions,
                        "minute": g.metrics.get("minute", ""),
                        "clock": g.metrics.get("clock", ""),
                        "turns": g.metrics.get("turns", "") or "",
                    }
                )
