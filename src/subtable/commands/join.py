"""``subtable join URL``: play a seat of a web table from the terminal."""

from __future__ import annotations

from typing import Annotated

import typer


def join(
    url: Annotated[str, typer.Argument(help="the invite (or spectator) link of a web table")],
    lang: Annotated[str | None, typer.Option(help="language (default: the table's)")] = None,
    name: Annotated[
        str | None, typer.Option(help="your name at the table (asked for when not given)")
    ] = None,
) -> None:
    """Sit at a web table (served by 'subtable serve') with its invite link."""
    from subtable.web.client import run_join

    raise typer.Exit(run_join(url, lang, name=name))
