"""The lessons in the browser: their pages and ``POST /api/learn/{game}/{lesson}``
(``subtable.web.learn`` computes what the learner sees; each request in a thread, a few
at a time, so a lesson never holds the event loop)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import HTMLResponse, Response

from subtable.i18n import LANGUAGES, Translator, normalize, translator
from subtable.web.guard import short
from subtable.web.learn import AT_ONCE, LearnBody, LearnError, lesson_list, lesson_state
from subtable.web.lessonjson import LessonState
from subtable.web.limits import ascii_int
from subtable.web.pages import page, page_language
from subtable.web.routes.errors import ApiError, refusals
from subtable.web.routes.pages import QueryNumber, lang_response

router = APIRouter(tags=["lessons"])

#: a game's or a lesson's id in a path
Ident = Annotated[str, Path(max_length=64)]


def lesson_slots(request: Request) -> asyncio.Semaphore:
    """The lessons computed at once on this server (the others wait their turn)."""
    state = request.app.state
    if getattr(state, "lesson_slots", None) is None:
        state.lesson_slots = asyncio.Semaphore(AT_ONCE)
    slots: asyncio.Semaphore = state.lesson_slots
    return slots


SlotsDep = Annotated[asyncio.Semaphore, Depends(lesson_slots)]


async def _state(
    slots: asyncio.Semaphore, game: str, lesson_id: str, body: LearnBody, tr: Translator
) -> LessonState:
    async with slots:
        return await asyncio.to_thread(lesson_state, game, lesson_id, body, tr)


@router.get("/learn", response_class=HTMLResponse)
async def learn_index(request: Request) -> Response:
    """Every game's lessons."""
    tr = translator(page_language(request))
    return lang_response(page("learn_index.html", tr, games=lesson_list(tr)), request, tr.lang)


@router.get("/learn/{game}/{lesson_id}", response_class=HTMLResponse, responses={404: {}})
async def learn_page(
    request: Request, game: str, lesson_id: str, slots: SlotsDep, scene: QueryNumber = None
) -> Response:
    """A lesson's page at its first scene (or ``?scene=N``, 1-based)."""
    tr = translator(page_language(request))
    body = LearnBody(scene=max(0, (ascii_int(scene) or 1) - 1))
    try:
        first = await _state(slots, game, lesson_id, body, tr)
    except LearnError as exc:
        if exc.status == 404:
            return page("message.html", tr, status=404, message=tr("web.learn.no_lesson"))
        first = await _state(slots, game, lesson_id, LearnBody(), tr)
    response = page(
        "learn.html",
        tr,
        game=game,
        lesson=lesson_id,
        title=first["lesson"]["title"],
        first=first,
    )
    return lang_response(response, request, tr.lang)


@router.post(
    "/api/learn/{game}/{lesson_id}",
    response_model=None,
    responses=refusals(404, 413) | {200: {"model": LessonState}},
)
async def learn_api(
    request: Request, game: Ident, lesson_id: Ident, body: LearnBody, slots: SlotsDep
) -> LessonState:
    """Replay the scene's moves, try the new one, and say what the learner sees."""
    if body.lang is not None and normalize(body.lang) is None:
        raise ApiError(
            400, "bad_lang", f"unknown language {short(body.lang, 16)!r} ({', '.join(LANGUAGES)})"
        )
    tr = translator(normalize(body.lang) or page_language(request))
    return await _state(slots, game, lesson_id, body, tr)
