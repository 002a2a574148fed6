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
from subtable.core.game import Game, State
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
    chart: Annotated[
        Path | None,
        typer.Option(
            help="where the game turned: the chance of winning after every move, as a chart "
            "(PNG, or SVG for a .svg name); its largest drops and rises are printed"
        ),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(help="the same chart and moments as a self-contained HTML page"),
    ] = None,
    worlds: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="worlds sampled from each seat's view per estimate (16 for a team's curve, "
            "18 split among a competitive game's seats); moments: three times as many fresh "
            "ones (48 by default)",
        ),
    ] = None,
) -> None:
    """Re-run a game record and verify its final digest; --log narrates the game; --chart
    and --report show where it turned."""
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
    if chart is not None or report is not None:
        turned(record, state.game, tr, chart=chart, report=report, worlds=worlds)
    from subtable.words import game_ui, result_words

    ui = game_ui(state.game)
    ended = state.outcome()
    ending = tr("lab.replay.unfinished") if ended is None else result_words(ui, ended, tr)
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


def turned(
    record: GameRecord,
    game: Game[Any],
    tr: Translator,
    *,
    chart: Path | None,
    report: Path | None,
    worlds: int | None,
) -> None:
    """Compute where ``record``'s game turned; write the chart and/or the report and print
    the moments."""
    from subtable.sim.turning import turning_points
    from subtable.sim.turning_report import moment_rows, write_chart, write_turning_report

    try:
        turning = turning_points(record, worlds=worlds)
        if chart is not None:
            write_chart(turning, chart, game, tr)
        if report is not None:
            write_turning_report(report, turning, game, tr)
    except SubtableError as exc:
        raise fail(exc.message) from None
    except OSError as exc:
        raise fail(str(exc)) from None
    out.print(Text(tr("lab.turning.heading"), style="bold"))
    rows = moment_rows(turning, game, tr)
    for who, text in rows:
        out.print(Text(f"  {who}: {text}"), soft_wrap=True)
    if not rows:
        out.print(Text("  " + tr("lab.turning.none")), soft_wrap=True)
    for path in (chart, report):
        if path is not None:
            out.print(Text(tr("lab.turning.written", path=str(path))), soft_wrap=True)


def narrate(record: GameRecord, tr: Translator) -> None:
    """Print the game of ``record`` as the table's log reads to a spectator: each move by
    whom, then what it caused (hidden cards stay hidden)."""
    from subtable.words import game_ui
    from subtable.words.people import shown
    from subtable.words.seat_words import bot_who

    game = make_game(record.game, record.variant or None, **record.options)
    state: State[Any] = game.new_state(record.seed)
    ui = game_ui(game)
    controllers = record.meta.get("bots") or record.meta.get("seats") or []

    def who(seat: int) -> str:
        name = ui.seat_name(seat, tr)
        if seat < len(controllers) and str(controllers[seat]) not in ("human", ""):
            spec = shown(str(controllers[seat]))  # a record's file says anything: seen, not obeyed
            return tr("ui.seat_label", seat=name, who=bot_who(record.game, spec, tr))
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
    # advice asked after the k-th action ([k, seat] in the record): who asked, never what
    # was advised
    asked: dict[int, list[int]] = {}
    for item in record.meta.get("advice") or []:
        match item:
            case [int(moves), int(asker)] if 0 <= asker < game.num_seats:
                asked.setdefault(max(moves, 1), []).append(asker)
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
        for asker in asked.get(len(state.history), []):
            say(tr("advice.asked", who=who(asker)), "dim")
