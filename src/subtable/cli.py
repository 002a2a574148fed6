"""The ``subtable`` command: simulate, replay (and, later, play)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from subtable import __version__
from subtable.core.errors import SubtableError
from subtable.core.game import parse_option_args
from subtable.core.record import GameRecord, replay
from subtable.core.registry import game_class, game_names

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Rules-exact Red November and Submarine: play, simulate, replay.")
out = Console()
err = Console(stderr=True)


def fail(message: str) -> typer.Exit:
    """Print a clean error and return the exit to raise (code 2)."""
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(2)


def build_options(game: str, players: int | None, gnomes: int | None,
                  option: list[str]) -> dict[str, Any]:
    """Options for ``game`` from the command line."""
    specs = game_class(game).option_specs
    options = parse_option_args(specs, option)
    if players is not None:
        options["players"] = players
    if gnomes is not None:
        if "gnomes" not in specs:
            raise SubtableError(f"{game} has no gnomes: drop --gnomes")
        options["gnomes"] = gnomes
    return options


def _version(value: bool) -> None:
    if value:
        out.print(f"subtable {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_version,
                                                is_eager=True, help="Show the version.")]
          = False) -> None:
    """Rules-exact Red November and Submarine."""


@app.command()
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
    _print_summary(summary)


def _print_summary(s: dict[str, Any]) -> None:
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


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="a game record (JSON)")],
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
) -> None:
    """Re-run a game record and verify its final digest."""
    try:
        record = GameRecord.load(file)
        state = replay(record)
    except SubtableError as exc:
        raise fail(f"{file}: {exc.message}") from None
    outcome = state.outcome()
    result = {"file": str(file), "game": record.game, "actions": len(record.actions),
              "verified": True, "digest": record.digest,
              "outcome": None if outcome is None else
              {"reason": outcome.reason, "winners": list(outcome.winners)}}
    if as_json:
        print(json.dumps(result))
        return
    ending = "unfinished" if outcome is None else (
        f"ended: {outcome.reason}; winners: "
        f"{', '.join(str(w + 1) for w in outcome.winners) or 'none'}")
    out.print(f"[green]verified[/] {file}: {record.game}, {len(record.actions)} actions, {ending}")


def main() -> None:
    """Console entry point."""
    app()


if __name__ == "__main__":
    main()
