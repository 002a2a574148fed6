"""``subtable simulate``: many games with bots — statistics, speed, sweeps and reports."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from subtable.commands.common import build_options, err, fail, out
from subtable.core.errors import SubtableError
from subtable.core.registry import game_names


@contextmanager
def _progress_bar(total: int, enabled: bool) -> Iterator[Any]:
    """A Rich progress bar on stderr; yields the ``advance(n)`` callback."""
    if not enabled:
        yield None
        return
    bar = Progress(
        TextColumn("[bold]simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    )
    with bar:
        task = bar.add_task("games", total=total)
        yield lambda n: bar.advance(task, n)


def simulate(
    game: Annotated[str, typer.Argument(help=f"one of: {', '.join(game_names())}")],
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    gnomes: Annotated[int | None, typer.Option(help="Red November: number of gnomes")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="a game option NAME[=VALUE] (repeatable)"),
    ] = None,
    games: Annotated[int, typer.Option(min=1, help="how many games (per sweep point)")] = 100,
    bot: Annotated[
        str,
        typer.Option(help="bot for every seat: random, heuristic, ismcts (NAME[:key=value]...)"),
    ] = "random",
    seats: Annotated[
        str | None,
        typer.Option(
            help="comma-separated bot per seat (overrides --bot), e.g. ismcts,heuristic,heuristic"
        ),
    ] = None,
    budget: Annotated[
        int | None, typer.Option(min=1, help="search bots: iterations per decision")
    ] = None,
    seed: Annotated[int, typer.Option(help="seed of the whole run")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    save_records: Annotated[
        Path | None, typer.Option(help="write each game's record into this folder")
    ] = None,
    workers: Annotated[
        int | None, typer.Option(min=1, help="local processes (default: every core)")
    ] = None,
    backend: Annotated[
        str, typer.Option(help="local, or ray (pip install 'subtable\\[cluster]')")
    ] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: start a local Ray)")
    ] = None,
    sweep: Annotated[
        list[str] | None,
        typer.Option(
            help="KEY=a..b or KEY=a,b,c over players, gnomes, bot, budget or option.NAME "
            "(repeatable: a grid)"
        ),
    ] = None,
    report: Annotated[
        Path | None, typer.Option(help="write a self-contained HTML report (needs matplotlib)")
    ] = None,
    csv_path: Annotated[
        Path | None, typer.Option("--csv", help="write one CSV row per game")
    ] = None,
    progress: Annotated[bool, typer.Option(help="a progress bar on stderr")] = True,
) -> None:
    """Play many games with bots and report win rates, causes and speed."""
    from subtable.sim.lab import parse_sweeps, run_grid, write_csv
    from subtable.sim.runner import SimConfig

    try:
        options = build_options(game, players, gnomes, option or [])
        bots = [b.strip() for b in seats.split(",")] if seats else [bot]
        params = {"budget": budget} if budget is not None else {}
        config = SimConfig(game, options, games, seed, bots, save_records, params)
        sweeps = parse_sweeps(game, sweep or [])
        if report is not None:
            from subtable.sim.report import _pyplot

            _pyplot()  # fail early when matplotlib is missing
        points = 1
        for _, values in sweeps:
            points *= len(values)
        with _progress_bar(games * points, progress) as advance:
            runs = run_grid(
                config, sweeps, workers=workers, backend=backend, address=address, progress=advance
            )
        if csv_path is not None:
            write_csv(csv_path, runs)
        if report is not None:
            from subtable.core.registry import game_class
            from subtable.sim.report import write_report

            command = "subtable " + " ".join(shlex.quote(a) for a in sys.argv[1:])
            write_report(
                report,
                runs,
                title=f"subtable simulate {game}",
                command=command,
                win_reason=game_class(game).info.win_reason,
            )
    except (SubtableError, ValueError) as exc:
        raise fail(str(exc)) from None
    if as_json:
        if sweeps:
            print(json.dumps({"sweep": [{"point": r.point, **r.summary} for r in runs]}))
        else:
            print(json.dumps(runs[0].summary))
        return
    for r in runs:
        print_summary(r.summary, r.label if sweeps else "")
    for path in (csv_path, report):
        if path is not None:
            out.print(f"wrote {path}")


def print_summary(s: dict[str, Any], label: str = "") -> None:
    """A readable summary table."""
    where = f" [{label}]" if label else ""
    table = Table(
        title=f"{s['game']}{where} — {s['games']} games, seed {s['seed']}", show_header=False
    )
    table.add_row("options", ", ".join(f"{k}={v}" for k, v in s["options"].items()))
    table.add_row("bots", ", ".join(s["bots"]))
    if s.get("bot_params"):
        table.add_row("bot parameters", ", ".join(f"{k}={v}" for k, v in s["bot_params"].items()))
    if "win_rate" in s:
        lo, hi = s["win_rate_ci95"]
        table.add_row("wins", f"{s['wins']} ({s['win_rate']:.1%}, 95% CI {lo:.1%}–{hi:.1%})")
        for cause, count in sorted(s["loss_causes"].items(), key=lambda kv: -kv[1]):
            table.add_row(f"  lost: {cause}", str(count))
    else:
        for seat, (w, rate, ci) in enumerate(
            zip(s["wins_by_seat"], s["win_rate_by_seat"], s["win_rate_by_seat_ci95"], strict=True)
        ):
            table.add_row(
                f"seat {seat + 1} wins", f"{w} ({rate:.1%}, 95% CI {ci[0]:.1%}–{ci[1]:.1%})"
            )
        for reason, count in s["end_reasons"].items():
            table.add_row(f"  ended: {reason}", str(count))
    table.add_row("mean decisions", f"{s['mean_decisions']:.1f}")
    table.add_row(
        "speed",
        f"{s['games_per_sec']:.0f} games/s, "
        f"{s['decisions_per_sec']:.0f} decisions/s ({s['seconds']:.2f} s)",
    )
    out.print(table)
