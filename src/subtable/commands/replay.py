"""``subtable replay``: re-run a game record, verify its digest, and narrate it (``--log``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from subtable.commands.common import fail, out
from subtable.core.errors import SubtableError
from subtable.core.events import Event
from subtable.core.game import State
from subtable.core.record import GameRecord, replay
from subtable.core.registry import make_game
from subtable.i18n import LANGUAGES, Translator, translator


def replay_cmd(
    file: Annotated[Path, typer.Argument(help="a game record (JSON)")],
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    log: Annotated[
        bool, typer.Option("--log", help="narrate the game, move by move, as the table does")
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(help=f"language: {'|'.join(LANGUAGES)} (default: from LANG, else en)"),
    ] = None,
) -> None:
    """Re-run a game record and verify its final digest; --log narrates the game."""
    from subtable.commands.simulate import language

    tr = translator(language(lang))
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
    if log:
        narrate(record, tr)
    from subtable.ui.games import game_ui

    ui = game_ui(state.game)
    view_outcome = state.view(None)["outcome"]
    ending = tr("lab.replay.unfinished") if view_outcome is None else ui.result(view_outcome, tr)
    out.print(
        Text(
            tr.plural(
                "lab.replay.verified",
                "lab.replay.verified.plural",
                len(record.actions),
                file=str(file),
                game=ui.title(tr),
                ending=ending,
            )
        ),
        soft_wrap=True,
    )


def narrate(record: GameRecord, tr: Translator) -> None:
    """Print the game of ``record`` as the table's log reads to a spectator: each move by
    whom, then what it caused (hidden cards stay hidden)."""
    from subtable.ui.games import game_ui

    game = make_game(record.game, record.variant or None, **record.options)
    state: State[Any] = game.new_state(record.seed)
    ui = game_ui(game)
    controllers = record.meta.get("bots") or record.meta.get("seats") or []

    def who(seat: int) -> str:
        name = ui.seat_name(seat, tr)
        if seat < len(controllers) and str(controllers[seat]) not in ("human", ""):
            return tr("ui.seat_label", seat=name, who=tr("ui.who.bot", bot=controllers[seat]))
        return name

    def say(text: str, style: str = "") -> None:
        out.print(Text(text, style=style), soft_wrap=True)

    def events(items: list[Event]) -> None:
        for event in items:
            try:
                line = ui.narrate(event.for_seat(None), tr)
            except (KeyError, TypeError, ValueError, IndexError):
                line = tr("ui.event.unknown", key=event.key)
            if line:
                say("  " + line)

    out.rule(Text(ui.title(tr), style="bold"))
    events(list(state.opening_events))
    space = game.action_space
    for text in record.actions:
        seat = state.current_seat()
        action = space.parse(text)
        said = tr(
            "ui.played",
            who=who(seat) if seat is not None else "",
            action=action.notation(),
            label=ui.action_label(action, tr),
        )
        say(said)
        events(state.apply(text))
