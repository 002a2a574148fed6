"""What every subcommand shares: consoles, clean errors, game options."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from subtable.core.errors import SubtableError
from subtable.core.game import Game, parse_option_args

out = Console()
err = Console(stderr=True)


def fail(message: str) -> typer.Exit:
    """Print a clean error and return the exit to raise (code 2)."""
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(2)


def build_options(
    game: type[Game[Any]], players: int | None, gnomes: int | None, option: list[str]
) -> dict[str, Any]:
    """Options for ``game`` (its class) from the command line."""
    specs = game.option_specs
    options = parse_option_args(specs, option)
    if players is not None:
        options["players"] = players
    if gnomes is not None:
        if "gnomes" not in specs:
            raise SubtableError(f"{game.info.name} has no gnomes: drop --gnomes")
        options["gnomes"] = gnomes
    return options
