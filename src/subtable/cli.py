"""The ``subtable`` command: each subcommand lives in :mod:`subtable.commands`."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from subtable import __version__, compiled_modules
from subtable.commands.common import out
from subtable.commands.join import join
from subtable.commands.learn import learn
from subtable.commands.play import play
from subtable.commands.replay import replay_cmd
from subtable.commands.serve import serve
from subtable.commands.simulate import simulate
from subtable.core.registry import game_names


def _tidy(params: list[Any], ctx: Any) -> list[Any]:
    """Help without type oddities: a flag takes no value, so it shows none (``--help``,
    not ``--help <bool>``), and a repeatable option shows the type of one value."""
    for param in params:
        if getattr(param, "metavar", "") is not None:
            continue
        if getattr(param, "is_flag", False):
            param.metavar = ""
        elif hasattr(param, "display_type"):
            shown = str(param.display_type(ctx))  # typer ≥ 0.20: ``<list[str]>``
            if shown.startswith("<list[") and shown.endswith("]>"):
                param.metavar = f"<{shown[6:-2]}>"
    return params


class _Command(TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        return _tidy(super().get_params(ctx), ctx)


class _Group(TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _tidy(super().get_params(ctx), ctx)


app = typer.Typer(
    cls=_Group,
    add_completion=False,
    no_args_is_help=True,
    help=f"Rules-exact board games ({', '.join(game_names())}): play, learn, simulate, replay.",
)
app.command(cls=_Command)(simulate)
app.command("replay", cls=_Command)(replay_cmd)
app.command(cls=_Command)(play)
app.command(cls=_Command)(serve)
app.command(cls=_Command)(join)
app.command(cls=_Command)(learn)


def _version(value: bool) -> None:
    if value:
        count = len(compiled_modules())
        build = f"{count} modules compiled" if count else "pure Python"
        out.print(f"subtable {__version__} ({build})")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Rules-exact board games: play, learn, simulate, replay."""


def main() -> None:
    """Console entry point."""
    app()


if __name__ == "__main__":
    main()
