"""``subtable simulate``: many games with bots, statistics and speed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from subtable.commands.common import build_options, fail, out
from subtable.core.errors import SubtableError
from subtable.core.registry import game_names


def simulate(
    game: Annotated[str, typer.Argument(help=f"one of: {', '.join(game_names())}")],
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    gnomes: Annotated[int | None, typer.Option(help="Red November: number of gnomes")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="a game option NAME[=VALUE] (repeatable)")] = None,
    games: Annotated[int, typer.Option(min=1, help="how many games")] = 100,
    bot: Annotated[str, typer.Option(help="bot for every seat")] = "random",
    seats: Annotated[str | None, typer.Option(
        help="comma-separated bot per seat (overrides --bot)")] = None,
    seed: Annotated[int, typer.Option(help="seed of the whole run")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    save_records: Annotated[Path | None, typer.Option(
        help="write each game's record into this folder")] = None,
) -> None:
    """Play many games with bots and report win rates, causes and speed."""
    from subtable.sim.runner import SimConfig
    from subtable.sim.runner import simulate as run

    try:
        options = build_options(game, players, gnomes, option or [])
        bots = [b.strip() for b in seats.split(",")] if seats else [bot]
        config = SimConfig(game, options, games, seed, bots, save_records)
        summary = run(config)
    except (SubtableError, ValueError) as exc:
        raise fail(str(exc)) from None
    if as_json:
        print(json.dumps(summary))
        return
    print_summary(summary)


def print_summary(s: dict[str, Any]) -> None:
    """A readable summary table."""
    table = Table(title=f"{s['game']} — {s['games']} games, seed {s['seed']}", show_header=False)
    table.add_row("options", ", ".join(f"{k}={v}" for k, v in s["options"].items()))
    table.add_row("bots", ", ".join(s["bots"]))
    if "win_rate" in s:
        lo, hi = s["win_rate_ci95"]
        table.add_row("wins", f"{s['wins']} ({s['win_rate']:.1%}, 95% CI {lo:.1%}–{hi:.1%})")
        for cause, count in sorted(s["loss_causes"].items(), key=lambda kv: -kv[1]):
            table.add_row(f"  lost: {cause}", str(count))
    else:
        for seat, (w, rate) in enumerate(zip(s["wins_by_seat"], s["win_rate_by_seat"],
                                             strict=True)):
            table.add_row(f"seat {seat + 1} wins", f"{w} ({rate:.1%})")
        for reason, count in s["end_reasons"].items():
            table.add_row(f"  ended: {reason}", str(count))
    table.add_row("mean decisions", f"{s['mean_decisions']:.1f}")
    table.add_row("speed", f"{s['games_per_sec']:.0f} games/s, "
                           f"{s['decisions_per_sec']:.0f} decisions/s ({s['seconds']:.2f} s)")
    out.print(table)
