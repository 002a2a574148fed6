"""Learn to play in the browser: the lessons (``/learn``), played through the same
:class:`~subtable.learn.run.LessonRun` as ``subtable learn`` at the terminal.

The server keeps nothing between requests: the page sends the scene it is at and the moves
the lesson accepted in it so far, and ``POST /api/learn/{game}/{lesson}`` replays them —
every one must be accepted again, at most :data:`MAX_MOVES` — then tries the new move and
answers with what the learner sees: the scene's text, the board and panels drawn from the
learner's own view (the table page's renderers), the options, what was played and
narrated, or the friendly explanation of a move that misses the point (not played). A
scene's position and its bots are seeded, so the same moves give the same scene, byte for
byte. Each request runs in a thread, a few at a time: a lesson never holds the event loop.

Errors are ``4xx`` JSON (``{"error": {"code", "message"}}``): an unknown game or lesson
(404), a malformed body, a scene out of range, a move list the lesson does not accept, too
many moves (400).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from subtable.i18n import Translator
from subtable.learn import LessonRun, Outcome, Played, find_lesson, lesson_games, lessons
from subtable.learn.run import text_of
from subtable.web.boards import board_renderer
from subtable.web.guard import short
from subtable.web.lessonjson import (
    LessonGame,
    LessonState,
    PlayedJson,
    TriedJson,
)
from subtable.web.routes.errors import ApiError
from subtable.words import game_ui, result_words
from subtable.words.common import bot_words
from subtable.words.rules import rule_book

#: the moves one scene may carry (a played-out game is far shorter)
MAX_MOVES = 300
#: lesson requests computed at once (the others wait their turn)
AT_ONCE = 2

Notation = Annotated[StrictStr, Field(min_length=1, max_length=64)]


class LearnBody(BaseModel):
    """``POST /api/learn/{game}/{lesson}``: where the learner is, and the move to try."""

    model_config = ConfigDict(extra="forbid")

    #: the scene (0-based)
    scene: Annotated[StrictInt, Field(ge=0, le=999)] = 0
    #: the moves the scene accepted so far, in order (notations, as answered before)
    moves: Annotated[list[Notation], Field(max_length=4 * MAX_MOVES)] = Field(default_factory=list)
    #: the move to try: a notation (or a unique beginning), or an option's number (1-based)
    move: Annotated[StrictInt | Notation, Field(union_mode="left_to_right")] | None = None
    lang: Annotated[StrictStr, Field(max_length=16)] | None = None


class LearnError(ApiError):
    """A lesson request refused: its HTTP status, a code and a message."""


def _played(run: LessonRun, played: tuple[Played, ...], tr: Translator) -> list[PlayedJson]:
    """What was played, as the learner reads it: a head line and its narration."""
    out: list[PlayedJson] = []
    for move in played:
        who = run.ui.seat_name(move.seat, tr)
        out.append(
            {
                "seat": move.seat,
                "learner": move.learner,
                "notation": move.notation,
                "head": tr("ui.played", who=who, action=move.notation, label=move.label),
                "lines": list(move.lines),
            }
        )
    return out


def _outcome(run: LessonRun, outcome: Outcome, tr: Translator) -> TriedJson:
    return {
        "accepted": outcome.accepted,
        "kind": outcome.kind,
        "message": outcome.message,
        "scene_done": outcome.scene_done,
        "played": _played(run, outcome.played, tr),
    }


def lesson_state(game: str, lesson_id: str, body: LearnBody, tr: Translator) -> LessonState:
    """Replay ``body``'s moves in its scene, try its move, and say what the learner sees
    (see the module's doc); :class:`LearnError` for a request the lesson refuses."""
    if game not in lesson_games():
        known = ", ".join(lesson_games())
        raise LearnError(404, "no_game", f"no lessons for {short(game, 40)!r} (lessons: {known})")
    try:
        lesson = find_lesson(game, lesson_id)
    except KeyError:
        known = ", ".join(x.id for x in lessons(game))
        raise LearnError(
            404, "no_lesson", f"no lesson {short(lesson_id, 40)!r} (lessons: {known})"
        ) from None
    count = len(lesson.scenes)
    if body.scene >= count:
        raise LearnError(
            400,
            "bad_scene",
            f"scene {body.scene} is out of range (this lesson has scenes 0 to {count - 1})",
        )
    if len(body.moves) > MAX_MOVES:
        raise LearnError(
            400,
            "too_many_moves",
            f"a scene carries at most {MAX_MOVES} moves ({len(body.moves)} sent): "
            "start the scene again",
        )
    run = LessonRun(lesson, tr)
    if body.scene:
        run.index = body.scene
        run.restart()
    opening = run.opening
    for n, move in enumerate(body.moves, start=1):
        if run.scene_done:
            raise LearnError(
                400, "bad_moves", f"move {n} ({short(move, 64)!r}) comes after the scene's end"
            )
        replayed = run.try_move(move)
        if not replayed.accepted:
            raise LearnError(
                400,
                "bad_moves",
                f"move {n} ({short(move, 64)!r}) is not one this scene accepts "
                f"({replayed.kind}): start the scene again",
            )
    moves = list(body.moves)
    outcome = None
    if body.move is not None:
        if isinstance(body.move, int) and body.move < 1:
            raise LearnError(400, "bad_move", "an option's number starts at 1")
        tried = run.try_move(body.move)
        if tried.accepted:
            mine = next(p for p in tried.played if p.learner)
            moves.append(mine.notation)
        outcome = _outcome(run, tried, tr)
    return _describe(run, lesson_id, moves, outcome, opening if not body.moves else (), tr)


def _describe(
    run: LessonRun,
    lesson_id: str,
    moves: list[str],
    outcome: TriedJson | None,
    opening: tuple[Played, ...],
    tr: Translator,
) -> LessonState:
    p = run.prompt()
    state = run.state
    game = state.game
    ui = run.ui
    seat = run.scene.seat
    over = run.scene_done or state.is_terminal()
    legal = [] if over else state.legal_actions()
    renderer = board_renderer(game)
    who = {s: bot_words(run.scene.bot, tr) for s in range(game.num_seats)}
    who[seat] = tr("ui.who.you")
    seen = p.view
    book = [s for s in rule_book(game, tr) if s.key in run.scene.rules]
    names = [x.id for x in lessons(run.lesson.game)]
    at = names.index(lesson_id)
    after = lessons(run.lesson.game)[at + 1] if at + 1 < len(names) else None
    last = run.index + 1 >= len(run.lesson.scenes)
    return {
        "game": run.lesson.game,
        "lesson": {
            "id": run.lesson.id,
            "title": p.lesson,
            "summary": text_of(run.lesson.summary, tr),
        },
        "scene": {
            "index": run.index,
            "number": p.number,
            "count": p.scenes,
            "id": p.scene_id,
            "title": p.title,
            "heading": tr("learn.ui.scene", n=p.number, total=p.scenes, title=p.title),
            "intro": p.intro,
            "task": p.task,
            "seat": seat,
            "plays_to_the_end": run.scene.plays_to_the_end,
            "done": over,
        },
        "moves": moves,
        "outcome": outcome,
        "opening": _played(run, opening, tr),
        "board": renderer.board(seen, tr, legal),
        "panels": renderer.panels(seen, tr, legal, who),
        "result": "" if (ended := state.outcome()) is None else result_words(ui, ended, tr),
        "options": [
            {
                "n": n,
                "id": a.id,
                "notation": a.notation(),
                "label": ui.action_label(a, tr),
                "hint": ui.action_hint(a, seen, tr),
            }
            for n, a in enumerate(legal, start=1)
        ],
        "expected": list(p.expected),
        "show": tr("learn.ui.expected", moves=", ".join(p.expected))
        if p.expected
        else tr("learn.ui.no_hint"),
        "rules": [
            {
                "title": s.title,
                "entries": [{"title": e.title, "text": e.text} for e in s.entries],
            }
            for s in book
        ],
        "finished": over and last,
        "lesson_done": tr("learn.ui.lesson_done", title=p.lesson) if over and last else "",
        "next_scene": None if last else run.index + 1,
        "next_lesson": None
        if after is None
        else {"id": after.id, "title": text_of(after.title, tr)},
    }


def lesson_list(tr: Translator) -> list[LessonGame]:
    """Each game with lessons: its title and its lessons' titles and summaries."""
    out: list[LessonGame] = []
    for game in lesson_games():
        out.append(
            {
                "game": game,
                "title": game_ui(game).title(tr),
                "lessons": [
                    {
                        "id": x.id,
                        "title": text_of(x.title, tr),
                        "summary": text_of(x.summary, tr),
                        "scenes": tr.plural(
                            "web.learn.scenes", "web.learn.scenes.plural", len(x.scenes)
                        ),
                    }
                    for x in lessons(game)
                ],
            }
        )
    return out
