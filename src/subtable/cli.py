"""The ``subtable`` command: each subcommand lives in :mod:`subtable.commands`."""

from __future__ import annotations

from typing import Annotated

import typer

from subtable import __version__
from subtable.commands.common import out
from subtable.commands.join import join
from subtable.commands.play import play
from subtable.commands.replay import replay_cmd
from subtable.commands.serve import serve
from subtable.commands.simulate import simulate

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Rules-exact Red November and Submarine: play, simulate, replay.",
)
app.command()(simulate)
app.command("replay")(replay_cmd)
app.command()(play)
app.command()(serve)
app.command()(join)


def _version(value: bool) -> None:
    if value:
        out.print(f"subtable {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Rules-exact Red November and Submarine."""


def main() -> None:
    """Console entry point."""
    app()


if __name__ == "__main__":
    main()
