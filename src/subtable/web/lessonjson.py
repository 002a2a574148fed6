"""The JSON of the lessons in the browser, as typed dicts: what ``POST /api/learn/{game}/
{lesson}`` answers (a lesson page starts from the same) and the lessons' index."""

from __future__ import annotations

# pydantic reads these for the OpenAPI schema: it needs typing_extensions' TypedDict here
from typing_extensions import TypedDict


class PlayedJson(TypedDict):
    """A move played in a scene, as the learner reads it: a head line and its narration."""

    seat: int
    learner: bool
    notation: str
    head: str
    lines: list[str]


class TriedJson(TypedDict):
    """What became of the move tried: accepted or not (and why), the scene done, and what
    was played (the learner's move, the bots' answers)."""

    accepted: bool
    kind: str
    message: str
    scene_done: bool
    played: list[PlayedJson]


class LessonRef(TypedDict):
    """A lesson: its id, title and summary."""

    id: str
    title: str
    summary: str


class SceneJson(TypedDict):
    """The scene the learner is at, its words, and whether it is done."""

    index: int
    number: int
    count: int
    id: str
    title: str
    heading: str
    intro: str
    task: str
    seat: int
    plays_to_the_end: bool
    done: bool


class LessonOption(TypedDict):
    """A move the learner may try now (numbered from 1), named for the reader."""

    n: int
    id: int
    notation: str
    label: str
    hint: str | None


class RuleEntry(TypedDict):
    """A rule of the rule book (``title``: ``None`` for a rule without one)."""

    title: str | None
    text: str


class RuleSection(TypedDict):
    """A section of the rule book the scene is about."""

    title: str
    entries: list[RuleEntry]


class NextLesson(TypedDict):
    """The lesson after this one."""

    id: str
    title: str


class LessonState(TypedDict):
    """What the learner sees (see :mod:`subtable.web.learn`)."""

    game: str
    lesson: LessonRef
    scene: SceneJson
    moves: list[str]
    outcome: TriedJson | None
    opening: list[PlayedJson]
    board: str
    panels: str
    result: str
    options: list[LessonOption]
    expected: list[str]
    show: str
    rules: list[RuleSection]
    finished: bool
    lesson_done: str
    next_scene: int | None
    next_lesson: NextLesson | None


class LessonItem(TypedDict):
    """A lesson in the index: its id, title, summary and how many scenes, in words."""

    id: str
    title: str
    summary: str
    scenes: str


class LessonGame(TypedDict):
    """A game with lessons, in the index."""

    game: str
    title: str
    lessons: list[LessonItem]
