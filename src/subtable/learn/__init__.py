"""Learn to play: guided lessons for each game, for the terminal (``subtable learn``) and the
web table (``/learn``).

The generic core is :mod:`.lesson` (what a lesson is) and :mod:`.run` (playing one, for any
front end); each game's lessons are in its own module, found through :data:`CONTENT`, the
one table keyed by game name::

    from subtable.learn import lessons, LessonRun
    run = LessonRun(lessons("red-november")[0], translator("fr"))
    run.prompt().task          # what to try
    run.try_move("move 5")     # Outcome(accepted, kind, message, played, scene_done)
    run.next_scene()
"""

from __future__ import annotations

import importlib

from subtable.learn.lesson import Lesson, Msg, Scene, Step, Wrong
from subtable.learn.run import LessonRun, Outcome, Played, Prompt

#: game name -> the module whose ``LESSONS`` holds its lessons
CONTENT: dict[str, str] = {
    "red-november": "subtable.learn.red_november",
    "submarine": "subtable.learn.submarine",
}


def lesson_games() -> list[str]:
    """The games that have lessons."""
    return sorted(CONTENT)


def lessons(game: str) -> tuple[Lesson, ...]:
    """The lessons of ``game``, in the order to take them (``KeyError`` if it has none)."""
    found: tuple[Lesson, ...] = importlib.import_module(CONTENT[game]).LESSONS
    return found


def find_lesson(game: str, lesson_id: str) -> Lesson:
    """The lesson of ``game`` called ``lesson_id`` (``KeyError`` if none)."""
    for lesson in lessons(game):
        if lesson.id == lesson_id:
            return lesson
    raise KeyError(lesson_id)


__all__ = [
    "CONTENT",
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
