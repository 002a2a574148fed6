"""``subtable play``: people and bots at one game in the terminal."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from subtable.bots.levels import chosen_level
from subtable.commands.common import fail, given, with_option_flags
from subtable.core.errors import RecordError, SubtableError
from subtable.core.game import Game, State
from subtable.core.record import GameRecord, replay
from subtable.core.registry import game_names
from subtable.i18n import LANGUAGES, Translator, detect_language, normalize, translator
from subtable.ui.table import GameTable
from subtable.words.game_options import GameRequest, GameRequestError, build_game
from subtable.words.messages import seat_message
from subtable.words.seat_words import levels_measured
from subtable.words.seats import SeatError, parse_seats


@with_option_flags
def play(
    game: Annotated[
        str | None, typer.Argument(help=f"one of: {', '.join(game_names())} (not with --load)")
    ] = None,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            help="one entry per player: human, bot (the strongest bot), a level (easy, normal, "
            "strong) or a bot name; default: human,bot,bot,…"
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="a game option NAME[=VALUE] (repeatable)"),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(help=f"language: {'|'.join(LANGUAGES)} (default: from LANG, else en)"),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="seed of the game (default: random)")] = None,
    fast: Annotated[bool, typer.Option("--fast", help="bots play without pausing")] = False,
    load: Annotated[Path | None, typer.Option(help="resume a game saved with 'save FILE'")] = None,
    advice: Annotated[
        bool | None,
        typer.Option(
            "--advice/--no-advice",
            help="let players ask the expert (hint); default: at a cooperative game and where one "
            "person plays, not at a competitive table of several people",
        ),
    ] = None,
    **flags: Any,
) -> None:
    """Play a game at the terminal, with people and bots."""
    env_lang = detect_language()
    if lang is not None and normalize(lang) is None:
        tr = translator(env_lang)
        raise fail(tr("ui.err.lang", lang=lang, known=", ".join(LANGUAGES)), tr)
    chosen = normalize(lang)
    record: GameRecord | None = None
    if load is not None:
        tr = translator(chosen or env_lang)
        if game is not None:
            raise fail(tr("ui.err.game_and_load"), tr)
        try:
            record = GameRecord.load(load)
            state: State[Any] = replay(record)
        except RecordError as exc:
            raise fail(tr("ui.err.load", path=str(load), detail=exc.message), tr) from None
        saved_lang = normalize(str(record.meta.get("lang", "")))
        tr = translator(chosen or saved_lang or env_lang)
        controllers = _saved_seats(record, state.game, seats, tr)
    else:
        tr = translator(chosen or env_lang)
        if game is None:
            raise fail(tr("ui.err.no_game", known=", ".join(game_names())), tr)
        request = GameRequest(game, players, given(flags), pieces=option or [])
        try:
            built = build_game(request, tr)
        except GameRequestError as exc:
            raise fail(exc.message, tr) from None
        if seed is None:
            seed = random.SystemRandom().randrange(10**6)
        state = built.new_state(seed)
        controllers = _seats(seats, built, tr)
    table = GameTable(state, controllers, tr, Console(highlight=False), fast=fast, advice=advice)
    if record is not None and state.is_terminal():
        table.say(tr("ui.loaded_finished", path=str(load)))
    name = state.game.info.name
    measured = levels_measured(name, tr)
    if measured is not None and any(chosen_level(name, spec) for spec in controllers):
        table.say(measured)  # a bot chosen by its level: how strong that level is
    code = table.run(intro=None if record is not None else list(state.opening_events), loaded=load)
    raise typer.Exit(code)


def _seats(text: str | None, game: Game[Any], tr: Translator) -> list[str]:
    try:
        return parse_seats(text, game)
    except SeatError as exc:
        raise fail(seat_message(exc, game, tr), tr) from None
    except SubtableError as exc:  # a bad bot parameter (an agent file that does not fit)
        raise fail(exc.message, tr) from None


def _saved_seats(
    record: GameRecord, game: Game[Any], text: str | None, tr: Translator
) -> list[str]:
    if text is None:
        saved = record.meta.get("seats")
        if isinstance(saved, list) and all(isinstance(s, str) for s in saved):
            text = ",".join(saved)
    return _seats(text, game, tr)
