"""Learn to play: guided lessons for each game, for the terminal (``subtable learn``) and the
web table (``/learn``).

The generic core is :mod:`.lesson` (what a lesson is) and :mod:`.run` (playing one, for any
front end); each game's lessons are in its own module (``learn/<game>.py``), declared as
the ``lessons`` part of the game's registration (:mod:`subtable.core.registry`): a game
that declares none has no lessons::

    from subtable.learn import lessons, LessonRun
    run = LessonRun(lessons("red-november")[0], translator("fr"))
    run.prompt().task          # what to try
    run.try_move("move 5")     # Outcome(accepted, kind, message, played, scene_done)
    run.next_scene()
"""

from __future__ import annotations

from typing import Any

from subtable.core.game import Game
from subtable.core.registry import registration, registrations
from subtable.learn.lesson import Lesson, Msg, Scene, Step, Wrong
from subtable.learn.run import LessonRun, Outcome, Played, Prompt


def lesson_games() -> list[str]:
    """The games that have lessons (those whose registration declares ``lessons``)."""
    return [p.name for p in registrations() if p.has("lessons")]


def lessons(game: Game[Any] | str) -> tuple[Lesson, ...]:
    """The lessons of ``game`` (a game, or a registered name), in the order to take them;
    :class:`~subtable.core.registry.MissingPart` if it has none."""
    found: tuple[Lesson, ...] = tuple(registration(game).load("lessons"))
    return found


def find_lesson(game: Game[Any] | str, lesson_id: str) -> Lesson:
    """The lesson of ``game`` called ``lesson_id`` (``KeyError`` if none)."""
    for lesson in lessons(game):
        if lesson.id == lesson_id:
            return lesson
    raise KeyError(lesson_id)


__all__ = [
    "Lesson",
    "LessonRun",
    "Msg",
    "Outcome",
    "Played",
    "Prompt",
    "Scene",
    "Step",
    "Wrong",
    "find_lesson",
    "lesson_games",
    "lessons",
]
