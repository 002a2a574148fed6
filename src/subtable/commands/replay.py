"""``subtable replay``: re-run a game record and verify its digest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from subtable.commands.common import fail, out
from subtable.core.errors import SubtableError
from subtable.core.record import GameRecord, replay


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
    result = {
        "file": str(file),
        "game": record.game,
        "actions": len(record.actions),
        "verified": True,
        "digest": record.digest,
        "outcome": None
        if outcome is None
        else {"reason": outcome.reason, "winners": list(outcome.winners)},
    }
    if as_json:
        print(json.dumps(result))
        return
    ending = (
        "unfinished"
        if outcome is None
        else (
            f"ended: {outcome.reason}; winners: "
            f"{', '.join(str(w + 1) for w in outcome.winners) or 'none'}"
        )
    )
    out.print(f"[green]verified[/] {file}: {record.game}, {len(record.actions)} actions, {ending}")
