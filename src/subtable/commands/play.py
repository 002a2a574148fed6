"""``subtable play``: people and bots at one game in the terminal."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from subtable.bots.levels import chosen_level
from subtable.commands.common import build_options
from subtable.core.errors import OptionError, RecordError, SubtableError
from subtable.core.game import Game, State
from subtable.core.record import GameRecord, replay
from subtable.core.registry import game_class, game_names
from subtable.i18n import LANGUAGES, Translator, detect_language, normalize, translator
from subtable.ui.games import game_ui
from subtable.ui.messages import option_message, seat_message
from subtable.ui.seat_words import levels_measured
from subtable.ui.seats import SeatError, parse_seats
from subtable.ui.table import GameTable


def play(
    game: Annotated[
        str | None, typer.Argument(help=f"one of: {', '.join(game_names())} (not with --load)")
    ] = None,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    gnomes: Annotated[
        int | None, typer.Option(help="number of gnomes (a game with gnomes)")
    ] = None,
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
) -> None:
    """Play a game at the terminal, with people and bots."""
    env_lang = detect_language()
    if lang is not None and normalize(lang) is None:
        tr = translator(env_lang)
        raise _fail(tr, tr("ui.err.lang", lang=lang, known=", ".join(LANGUAGES)))
    chosen = normalize(lang)
    record: GameRecord | None = None
    if load is not None:
        tr = translator(chosen or env_lang)
        if game is not None:
            raise _fail(tr, tr("ui.err.game_and_load"))
        try:
            record = GameRecord.load(load)
            state: State[Any] = replay(record)
        except RecordError as exc:
            raise _fail(tr, tr("ui.err.load", path=str(load), detail=exc.message)) from None
        saved_lang = normalize(str(record.meta.get("lang", "")))
        tr = translator(chosen or saved_lang or env_lang)
        controllers = _saved_seats(record, state.game, seats, tr)
    else:
        tr = translator(chosen or env_lang)
        if game is None:
            raise _fail(tr, tr("ui.err.no_game", known=", ".join(game_names())))
        built = _new_game(game, players, gnomes, option or [], tr)
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


def _new_game(
    name: str, players: int | None, gnomes: int | None, option: list[str], tr: Translator
) -> Game[Any]:
    """The game the command line asks for: the name is resolved here, once."""
    try:
        cls = game_class(name)
    except OptionError:
        raise _fail(
            tr, tr("ui.err.unknown_game", game=name, known=", ".join(game_names()))
        ) from None
    specs = cls.option_specs
    ui = game_ui(name)
    if gnomes is not None and "gnomes" not in specs:
        raise _fail(tr, tr("ui.err.no_gnomes", game=ui.title(tr)))
    try:
        options = build_options(cls, players, gnomes, option)
        for key, value in options.items():
            specs[key].check(value)
        reason = ui.option_error({"players": specs["players"].default, **options}, tr)
        if reason is not None:
            raise _fail(tr, reason)
        return cls(**options)
    except OptionError as exc:
        raise _fail(tr, option_message(exc, specs, tr)) from None
    except SubtableError as exc:
        raise _fail(tr, tr("ui.err.options", detail=exc.message)) from None


def _seats(text: str | None, game: Game[Any], tr: Translator) -> list[str]:
    try:
        return parse_seats(text, game)
    except SeatError as exc:
        raise _fail(tr, seat_message(exc, game, tr)) from None
    except SubtableError as exc:  # a bad bot parameter (an agent file that does not fit)
        raise _fail(tr, exc.message) from None


def _saved_seats(
    record: GameRecord, game: Game[Any], text: str | None, tr: Translator
) -> list[str]:
    if text is None:
        saved = record.meta.get("seats")
        if isinstance(saved, list) and all(isinstance(s, str) for s in saved):
            text = ",".join(saved)
    return _seats(text, game, tr)


def _fail(tr: Translator, message: str) -> typer.Exit:
    Console(stderr=True, highlight=False).print(
        Text(tr("ui.error", message=message), style="bold red"), soft_wrap=True
    )
    return typer.Exit(2)
