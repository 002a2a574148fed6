"""``subtable simulate``: many games with bots — statistics, speed, sweeps and reports."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from subtable.bots.levels import chosen_level
from subtable.commands.common import err, fail, given, out, with_option_flags
from subtable.core.errors import OptionError, SubtableError
from subtable.core.registry import game_class, game_names
from subtable.core.variants import describe, load_overrides, merge, read_variant, validate
from subtable.i18n import LANGUAGES, Translator, detect_language, normalize, translator
from subtable.sim.words import (
    compare_cells,
    compare_head,
    end_reason,
    game_title,
    number,
    point_label,
    rate_ci,
)
from subtable.words.game_options import GameRequest, asked_options
from subtable.words.seat_words import levels_measured

if TYPE_CHECKING:  # the lab's modules load lazily, when a command runs
    from subtable.bots.base import BotParamValue
    from subtable.sim.compare import Comparison
    from subtable.sim.lab import Run
    from subtable.sim.runner import RunSummary, SimConfig


@contextmanager
def _progress_bar(total: int, enabled: bool, tr: Translator) -> Iterator[Any]:
    """A Rich progress bar on stderr, labelled in the run's language; yields the
    ``advance(n)`` callback."""
    if not enabled:
        yield None
        return
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    )
    with bar:
        task = bar.add_task(escape(tr("lab.progress")), total=total)
        yield lambda n: bar.advance(task, n)


#: the longer options of ``subtable simulate``, declared once
_GameOption = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="a game option NAME[=VALUE] (repeatable)"),
]
_Budget = Annotated[int | None, typer.Option(min=1, help="search bots: iterations per decision")]
_SaveRecords = Annotated[
    Path | None, typer.Option(help="write each game's record into this folder")
]
_Workers = Annotated[int | None, typer.Option(min=1, help="local processes (default: every core)")]
_Address = Annotated[
    str | None, typer.Option(help="Ray cluster address (default: start a local Ray)")
]
_Report = Annotated[
    Path | None, typer.Option(help="write a self-contained HTML report (needs matplotlib)")
]
_Csv = Annotated[Path | None, typer.Option("--csv", help="write one CSV row per game")]
_Bot = Annotated[
    str,
    typer.Option(
        help="bot for every seat: random, heuristic, ismcts (NAME[:key=value]...) or a "
        "level: easy, normal, strong"
    ),
]
_Seats = Annotated[
    str | None,
    typer.Option(
        help="comma-separated bot per seat (overrides --bot), e.g. ismcts,heuristic,heuristic"
    ),
]
_Sweep = Annotated[
    list[str] | None,
    typer.Option(
        help="KEY=a..b or KEY=a,b,c over players, bot, budget, an option with a flag of "
        "its own or option.NAME (repeatable: a grid)"
    ),
]
_Components = Annotated[
    Path | None,
    typer.Option(
        help="a TOML file of component overrides laid over the packaged components "
        "(see docs/lab.md)"
    ),
]
_Set = Annotated[
    list[str] | None,
    typer.Option(
        "--set", help="a component override KEY.PATH=VALUE, e.g. events.fire=10 (repeatable)"
    ),
]
_Compare = Annotated[
    Path | None,
    typer.Option(
        help="also play this variant (TOML overrides laid over the baseline) on the same "
        "seeds, and compare the two"
    ),
]
_CompareSet = Annotated[
    list[str] | None,
    typer.Option(help="an override of the compared variant KEY.PATH=VALUE (repeatable)"),
]
_CompareSeed = Annotated[
    int | None,
    typer.Option(
        help="play the compared variant on another run seed: two independent runs "
        "instead of paired games (to see what pairing saves)"
    ),
]
_Precision = Annotated[
    float,
    typer.Option(
        min=0.001, max=0.5, help="the wanted 95% half-width of a difference (0.02: ±2 points)"
    ),
]
_Lang = Annotated[
    str | None,
    typer.Option(
        help=f"language of the tables and the report: {'|'.join(LANGUAGES)} "
        "(default: from LANG, else en)"
    ),
]


@with_option_flags
def simulate(
    game: Annotated[str, typer.Argument(help=f"one of: {', '.join(game_names())}")],
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    option: _GameOption = None,
    games: Annotated[int, typer.Option(min=1, help="how many games (per sweep point)")] = 100,
    bot: _Bot = "random",
    seats: _Seats = None,
    budget: _Budget = None,
    seed: Annotated[int, typer.Option(help="seed of the whole run")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    save_records: _SaveRecords = None,
    workers: _Workers = None,
    backend: Annotated[str, typer.Option(help="local, or ray (needs the cluster extra)")] = "local",
    address: _Address = None,
    sweep: _Sweep = None,
    report: _Report = None,
    csv_path: _Csv = None,
    components: _Components = None,
    set_: _Set = None,
    compare: _Compare = None,
    compare_set: _CompareSet = None,
    compare_seed: _CompareSeed = None,
    precision: _Precision = 0.02,
    progress: Annotated[bool, typer.Option(help="a progress bar on stderr")] = True,
    lang: _Lang = None,
    **flags: Any,
) -> None:
    """Play many games with bots and report win rates, causes and speed."""
    from subtable.sim.lab import parse_sweeps
    from subtable.sim.runner import SimConfig

    tr = translator(language(lang))
    comparing = compare is not None or bool(compare_set) or compare_seed is not None
    try:
        request = GameRequest(game, players, given(flags), pieces=option or [])
        options = asked_options(request)
        cls = game_class(game)  # the name, resolved here once
        bots = [b.strip() for b in seats.split(",")] if seats else [bot]
        params: dict[str, BotParamValue] = {"budget": budget} if budget is not None else {}
        variant = read_variant(game, components, set_ or [])
        config = SimConfig(game, options, games, seed, bots, save_records, params, variant)
        sweeps = parse_sweeps(game, sweep or [])
        if report is not None:
            from subtable.sim.report import pyplot

            pyplot()  # fail early when matplotlib is missing
        if comparing:
            if sweeps:
                raise OptionError("--compare cannot be combined with --sweep", code="bad_sweep")
            other = compare_config(config, components, set_ or [], compare, compare_set or [])
            if compare_seed is not None:
                other.seed = compare_seed
            _run_comparison(
                config,
                other,
                tr=tr,
                precision=precision,
                workers=workers,
                backend=backend,
                address=address,
                progress=progress,
                as_json=as_json,
                report=report,
                csv_path=csv_path,
            )
            return
        runs = _run_sweeps(config, sweeps, tr, workers, backend, address, progress)
        _write_runs(runs, csv_path, report, tr, game, cls.info.win_reason)
    except (SubtableError, ValueError) as exc:
        raise fail(str(exc), tr) from None
    _print_runs(runs, bool(sweeps), as_json, tr)
    if as_json:
        return
    measured = levels_measured(game, tr)
    if measured is not None and any(chosen_level(game, b) for b in bots):
        out.print(escape(measured))  # the published figure beside this run's own
    _say_written(tr, csv_path, report)


def _run_sweeps(
    config: SimConfig,
    sweeps: list[tuple[str, list[Any]]],
    tr: Translator,
    workers: int | None,
    backend: str,
    address: str | None,
    progress: bool,
) -> list[Run]:
    """Play every point of the sweep grid (one point without a sweep), with a progress bar."""
    from subtable.sim.lab import run_grid

    points = 1
    for _, values in sweeps:
        points *= len(values)
    with _progress_bar(config.games * points, progress, tr) as advance:
        return run_grid(
            config, sweeps, workers=workers, backend=backend, address=address, progress=advance
        )


def _write_runs(
    runs: list[Run],
    csv_path: Path | None,
    report: Path | None,
    tr: Translator,
    game: str,
    win_reason: str | None,
) -> None:
    """Write the CSV rows and the HTML report that were asked for."""
    from subtable.sim.lab import write_csv

    if csv_path is not None:
        write_csv(csv_path, runs)
    if report is not None:
        from subtable.sim.report import write_report

        command = _command_line()
        write_report(report, runs, tr=tr, game=game, command=command, win_reason=win_reason)


def _print_runs(runs: list[Run], swept: bool, as_json: bool, tr: Translator) -> None:
    """The runs' summaries: one JSON object, or a table per sweep point."""
    if as_json:
        if swept:
            print(json.dumps({"sweep": [{"point": r.point, **r.summary} for r in runs]}))
        else:
            print(json.dumps(runs[0].summary))
        return
    for r in runs:
        print_summary(r.summary, point_label(r.point, tr) if swept else "", tr)


def _command_line() -> str:
    """This run's command, quoted as a shell would take it back (shown in the reports)."""
    return "subtable " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def _say_written(tr: Translator, *paths: Path | None) -> None:
    """Tell which of the output files were written."""
    for path in paths:
        if path is not None:
            out.print(tr("lab.wrote", path=str(path)), highlight=False)


def language(lang: str | None) -> str:
    """The language asked for with ``--lang``, else the environment's (refused if unknown)."""
    if lang is None:
        return detect_language()
    chosen = normalize(lang)
    if chosen is None:
        tr = translator(detect_language())
        raise fail(tr("ui.err.lang", lang=lang, known=", ".join(LANGUAGES)), tr)
    return chosen


def print_summary(s: RunSummary, label: str = "", tr: Translator | None = None) -> None:
    """A readable summary table, end reasons named in ``tr``'s language."""
    from subtable.sim.runner import team_wins

    tr = tr or translator("en")
    game = s["game"]
    where = escape(f" [{label}]") if label else ""
    title = tr.plural(
        "lab.summary.title",
        "lab.summary.title.plural",
        s["games"],
        game=game_title(game, tr) + where,
        seed=s["seed"],
    )
    table = Table(title=title, show_header=False)
    table.add_row(tr("lab.options"), ", ".join(f"{k}={v}" for k, v in s["options"].items()))
    table.add_row(tr("lab.bots"), ", ".join(s["bots"]))
    if params := s.get("bot_params"):
        table.add_row(tr("lab.bot_params"), ", ".join(f"{k}={v}" for k, v in params.items()))
    team = team_wins(s)
    if team is not None:
        rate = rate_ci(team.rate, team.lo, team.hi, tr)
        table.add_row(tr("lab.wins"), tr("lab.count_rate", count=team.wins, rate=rate))
        for cause, count in sorted(team.loss_causes.items(), key=lambda kv: -kv[1]):
            table.add_row(tr("lab.lost", reason=end_reason(game, cause, tr)), str(count))
    else:
        rates, cis = s.get("win_rate_by_seat", []), s.get("win_rate_by_seat_ci95", [])
        for seat, (w, r, ci) in enumerate(zip(s["wins_by_seat"], rates, cis, strict=True)):
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


def compare_config(
    config: SimConfig,
    components: Path | None,
    sets: list[str],
    compare: Path | None,
    compare_sets: list[str],
) -> SimConfig:
    """The compared variant's configuration: the baseline's overrides with the compared
    ones laid over them (validated; records go to ``variant/`` beside ``baseline/``)."""
    from dataclasses import replace

    raw = merge(load_overrides(components, sets), load_overrides(compare, compare_sets))
    variant = validate(config.game, raw) if raw else {}
    records = config.save_records
    if records is not None:
        config.save_records = records / "baseline"
    return replace(
        config, variant=variant, save_records=None if records is None else records / "variant"
    )


def _run_comparison(
    base: SimConfig,
    other: SimConfig,
    *,
    tr: Translator,
    precision: float,
    workers: int | None,
    backend: str,
    address: str | None,
    progress: bool,
    as_json: bool,
    report: Path | None,
    csv_path: Path | None,
) -> None:
    """Play the baseline and the variant on the same seeds and compare them."""
    from subtable.sim.compare import compare_results
    from subtable.sim.lab import run_grid, write_csv
    from subtable.sim.runner import check_config

    try:
        game = check_config(base)
        check_config(other)  # both fail before any game is played
        runs: list[Run] = []
        with _progress_bar(base.games + other.games, progress, tr) as advance:
            for name, config in (("baseline", base), ("variant", other)):
                (r,) = run_grid(
                    config, [], workers=workers, backend=backend, address=address, progress=advance
                )
                r.point = {"compare": name}
                runs.append(r)
        comparison = compare_results(game, runs[0].results, runs[1].results, precision=precision)
        if csv_path is not None:
            write_csv(csv_path, runs)
        if report is not None:
            from subtable.sim.report import write_compare_report

            write_compare_report(
                report,
                runs,
                comparison,
                tr=tr,
                game=base.game,
                command=_command_line(),
                win_reason=game.info.win_reason,
            )
    except (SubtableError, ValueError) as exc:
        raise fail(str(exc), tr) from None
    if as_json:
        print(
            json.dumps(
                {
                    "baseline": runs[0].summary,
                    "variant": runs[1].summary,
                    "comparison": comparison,
                }
            )
        )
        return
    for r in runs:
        print_summary(r.summary, point_label(r.point, tr), tr)
    print_comparison(base.game, runs[0].summary, runs[1].summary, comparison, tr)
    _say_written(tr, csv_path, report)


def print_comparison(
    game: str,
    base: RunSummary,
    variant: RunSummary,
    comparison: Comparison,
    tr: Translator,
) -> None:
    """The comparison table: each figure's rates, difference, intervals, test and the games
    a wanted precision needs."""
    from subtable.sim.compare import stats_of

    paired = comparison["paired"]
    if not paired:
        title = tr("lab.compare.title.independent", games=comparison["games"])
    else:
        title = tr("lab.compare.title.paired", games=comparison["games"])
    table = Table(title=title)
    for head in compare_head(comparison, tr):
        table.add_column(head)
    for st in stats_of(comparison):
        table.add_row(*compare_cells(game, st, tr))
    table.caption = tr(
        "lab.compare.changes",
        baseline=overrides_text(base, tr),
        variant=overrides_text(variant, tr),
    )
    out.print(table)


def overrides_text(summary: RunSummary, tr: Translator) -> str:
    """A run's component overrides as ``--set`` pieces (or "the packaged components")."""
    pieces = describe(summary.get("variant", {}))
    return ", ".join(pieces) if pieces else tr("lab.compare.packaged")
