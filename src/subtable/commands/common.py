"""What every subcommand shares: consoles, the one error printer, the games' option flags."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Annotated, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from subtable.core.options import OptionValue
from subtable.core.registry import registrations
from subtable.i18n import Translator, translator
from subtable.words.game_options import flag_specs

out = Console()
err = Console(stderr=True)

F = TypeVar("F", bound=Callable[..., None])


def fail(message: str, tr: Translator | None = None) -> typer.Exit:
    """Print a clean error (in ``tr``'s language, else English) and return the exit to
    raise (code 2)."""
    tr = tr or translator("en")
    err.print(
        Text(tr("ui.error", message=message), style="bold red"),
        highlight=False,
        soft_wrap=True,
    )
    return typer.Exit(2)


def _flag_parameters() -> list[inspect.Parameter]:
    """One ``--NAME`` parameter per option some registered game gives a flag of its own."""
    plugins = registrations()
    out = []
    for name, spec in sorted(flag_specs().items()):
        games = ", ".join(p.name for p in plugins if name in p.option_specs())
        option = typer.Option(help=f"{spec.help} ({games})")
        kind = Annotated[spec.type | None, option]  # type: ignore[name-defined]
        out.append(
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=kind)
        )
    return out


def with_option_flags(command: F) -> F:
    """``command``, which takes the flags as ``**flags``, declared to Typer with one
    ``--NAME`` per option a game gives a flag of its own."""
    sig = inspect.signature(command, eval_str=True)
    kept = [p for p in sig.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    command.__signature__ = sig.replace(  # type: ignore[attr-defined]
        parameters=[*kept, *_flag_parameters()]
    )
    return command


def given(flags: Mapping[str, OptionValue | None]) -> dict[str, OptionValue]:
    """The flags given on the command line (Typer passes ``None`` for the others)."""
    return {name: value for name, value in flags.items() if value is not None}
