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
from subtable.i18n import LANGUAGES, Translator, detect_language, normalize, translator
from subtable.sim.words import end_reason, number, point_label, rate_ci


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
    backend: Annotated[str, typer.Option(help="local, or ray (needs the cluster extra)")] = "local",
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
    lang: Annotated[
        str | None,
        typer.Option(
            help=f"language of the tables and the report: {'|'.join(LANGUAGES)} "
            "(default: from LANG, else en)"
        ),
    ] = None,
) -> None:
    """Play many games with bots and report win rates, causes and speed."""
    from subtable.sim.lab import parse_sweeps, run_grid, write_csv
    from subtable.sim.runner import SimConfig

    tr = translator(language(lang))
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
                tr=tr,
                game=game,
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
        print_summary(r.summary, point_label(r.point, tr) if sweeps else "", tr)
    for path in (csv_path, report):
        if path is not None:
            out.print(tr("lab.wrote", path=str(path)), highlight=False)


def language(lang: str | None) -> str:
    """The language asked for with ``--lang``, else the environment's (refused if unknown)."""
    if lang is None:
        return detect_language()
    chosen = normalize(lang)
    if chosen is None:
        tr = translator(detect_language())
        raise fail(tr("ui.err.lang", lang=lang, known=", ".join(LANGUAGES)))
    return chosen


def print_summary(s: dict[str, Any], label: str = "", tr: Translator | None = None) -> None:
    """A readable summary table, end reasons named in ``tr``'s language."""
    tr = tr or translator("en")
    game = s["game"]
    where = f" [{label}]" if label else ""
    title = tr.plural(
        "lab.summary.title",
        "lab.summary.title.plural",
        s["games"],
        game=tr(f"game.{game}") + where,
        seed=s["seed"],
    )
    table = Table(title=title, show_header=False)
    table.add_row(tr("lab.options"), ", ".join(f"{k}={v}" for k, v in s["options"].items()))
    table.add_row(tr("lab.bots"), ", ".join(s["bots"]))
    if s.get("bot_params"):
        table.add_row(
            tr("lab.bot_params"), ", ".join(f"{k}={v}" for k, v in s["bot_params"].items())
        )
    if "win_rate" in s:
        lo, hi = s["win_rate_ci95"]
        rate = rate_ci(s["win_rate"], lo, hi, tr)
        table.add_row(tr("lab.wins"), tr("lab.count_rate", count=s["wins"], rate=rate))
        for cause, count in sorted(s["loss_causes"].items(), key=lambda kv: -kv[1]):
            table.add_row(tr("lab.lost", reason=end_reason(game, cause, tr)), str(count))
    else:
        for seat, (w, r, ci) in enumerate(
            zip(s["wins_by_seat"], s["win_rate_by_seat"], s["win_rate_by_seat_ci95"], strict=True)
        ):
            rate = rate_ci(r, ci[0], ci[1], tr)
            table.add_row(tr("lab.seat_wins", n=seat + 1), tr("lab.count_rate", count=w, rate=rate))
        for reason, count in s["end_reasons"].items():
            table.add_row(tr("lab.ended", reason=end_reason(game, reason, tr)), str(count))
    table.add_row(tr("lab.mean_decisions"), number(s["mean_decisions"], tr))
    table.add_row(
        tr("lab.speed"),
        tr(
            "lab.speed.value",
            games=number(s["games_per_sec"], tr, 0),
            decisions=number(s["decisions_per_sec"], tr, 0),
            seconds=number(s["seconds"], tr, 2),
        ),
    )
    out.print(table)
