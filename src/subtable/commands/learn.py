"""``subtable learn``: guided lessons at the terminal."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from subtable.commands.common import fail
from subtable.i18n import LANGUAGES, detect_language, normalize, translator
from subtable.learn import find_lesson, lesson_games, lessons
from subtable.ui.lessons import LessonScreen


def learn(
    game: Annotated[str, typer.Argument(help=f"one of: {', '.join(lesson_games())}")],
    lesson: Annotated[
        str | None, typer.Option(help="the lesson to take (its id); default: choose from a list")
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(help=f"language: {'|'.join(LANGUAGES)} (default: from LANG, else en)"),
    ] = None,
) -> None:
    """Learn to play, scene by scene: each scene sets a position and says what to try."""
    env_lang = detect_language()
    if lang is not None and normalize(lang) is None:
        tr = translator(env_lang)
        raise fail(tr("ui.err.lang", lang=lang, known=", ".join(LANGUAGES)), tr)
    tr = translator(normalize(lang) or env_lang)
    if game not in lesson_games():
        raise fail(tr("learn.ui.no_game", game=game, known=", ".join(lesson_games())), tr)
    screen = LessonScreen(game, tr, Console(highlight=False))
    if lesson is None:
        chosen = screen.choose(lessons(game))
        if chosen is None:
            raise typer.Exit(0)
    else:
        try:
            chosen = find_lesson(game, lesson)
        except KeyError:
            known = ", ".join(x.id for x in lessons(game))
            raise fail(tr("learn.ui.no_lesson", lesson=lesson, known=known), tr) from None
    raise typer.Exit(screen.run(chosen))
