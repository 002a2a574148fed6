"""The browser's pages: home (and its form), the lobby fragment, a table, a replay."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from subtable.core.registry import game_names
from subtable.i18n import Translator, normalize, translator
from subtable.web import lobby
from subtable.web.create import CreateError, open_table
from subtable.web.limits import ascii_int
from subtable.web.live import LiveTable, Unreadable
from subtable.web.pages import (
    body_from_form,
    home_page,
    no_table,
    page,
    page_language,
    player_labels,
    replay_page,
    unreadable_table,
)
from subtable.web.routes.deps import FeedDep, GuardDep, ManagerDep
from subtable.web.turning import replay_block
from subtable.words import game_ui
from subtable.words.rules import rule_book
from subtable.words.seats import HUMAN

router = APIRouter(tags=["pages"], default_response_class=HTMLResponse)

#: a number in a page's query (read leniently: anything else is as if absent)
QueryNumber = Annotated[str | None, Query()]
#: the most milliseconds between other seats' moves a page may ask for
MAX_PACE = 5_000


def lang_response(response: Response, request: Request, lang: str) -> Response:
    """Remember a language chosen with ``?lang=`` in a cookie."""
    if request.query_params.get("lang"):
        response.set_cookie("lang", lang, max_age=365 * 86_400, samesite="lax")
    return response


@router.get("/")
async def home(request: Request, manager: ManagerDep) -> Response:
    """The home page: open a table, the lobby, your tables."""
    tr = translator(page_language(request))
    tables = await manager.lobby()
    return lang_response(home_page(tr, {}, tables=tables), request, tr.lang)


@router.get("/lobby")
async def lobby_part(request: Request, manager: ManagerDep) -> Response:
    """The home page's lobby alone (the page refreshes it in place)."""
    tr = translator(page_language(request))
    rows = lobby.lobby_rows(await manager.lobby(), tr)
    return page("lobby.html", tr, lobby=rows)


@router.post("/new", responses={400: {}, 403: {}, 413: {}, 429: {}})
async def new(
    request: Request,
    manager: ManagerDep,
    guard: GuardDep,
    feed: FeedDep,
    game: Annotated[str, Form()] = "",
    lang: Annotated[str, Form()] = "",
) -> Response:
    """The home page's form: the new table's invitations (a table of one person among bots:
    that person's seat), or the form again with the reason.

    Besides ``game`` and ``lang``, the form sends ``{game}-{field}`` fields: players,
    options, seats, name, visibility and pace."""
    if guard.cross_site(request):  # another site's page cannot open tables here
        tr = translator(page_language(request))
        return page("message.html", tr, status=403, message=tr("web.error.cross_site"))
    form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    tr = translator(normalize(lang) or page_language(request))
    body, problem = body_from_form(game, form, tr)
    status = 400
    if body is not None and not guard.may_open(request):
        body, problem, status = None, tr("web.error.too_many_tables"), 429
    if body is not None:
        try:
            created = await open_table(manager, body, str(request.base_url), guard.client(request))
        except CreateError as exc:
            problem = exc.message
            if exc.code == "too_many_tables":
                problem, status = tr("web.error.too_many_tables"), 429
        else:
            feed.changed()
            if (body.seats or []).count(HUMAN) == 1:  # one person among bots: to the seat
                return RedirectResponse(created.invites[0].url, status_code=303)
            return page(
                "created.html",
                tr,
                created=created,
                title=game_ui(game).title(tr),
                player_label=player_labels(tr),
                public=body.visibility == "public",
            )
    tables = await manager.lobby()
    where = game if game in game_names() else ""
    return home_page(tr, {where: problem}, status=status, tables=tables, form=form)


@router.get("/t/{table_id}", responses={404: {}})
async def table_page(
    request: Request, table_id: str, manager: ManagerDep, pace: QueryNumber = None
) -> Response:
    """A seat's (or the spectators') table: the page then plays over the WebSocket."""
    try:
        table = await manager.get(table_id)
    except Unreadable:
        return unreadable_table(request)
    if table is None:
        return no_table(request)
    tr = translator(page_language(request, table.row.lang))
    wait = ascii_int(pace)  # ``?pace=0`` in tests; else the player's own choice
    response = page(
        "table.html",
        tr,
        table=table.id,
        title=table.ui.title(tr),
        pace="" if wait is None else str(min(wait, MAX_PACE)),
        rules=rule_book(table.game, tr),
    )
    return lang_response(response, request, tr.lang)


@router.get("/replay/{table_id}", responses={404: {}, 409: {}})
async def replay(
    request: Request,
    table_id: str,
    manager: ManagerDep,
    seat: QueryNumber = None,
    step: QueryNumber = None,
) -> Response:
    """A finished game step by step, as everyone or as one seat saw it."""
    try:
        table = await manager.get(table_id)
    except Unreadable:
        return unreadable_table(request)
    if table is None:
        return no_table(request)
    tr = translator(page_language(request, table.row.lang))
    if not table.over:
        return page("message.html", tr, status=409, message=tr("web.replay.not_over"))
    return lang_response(await _replay(request, table, tr, seat, step), request, tr.lang)


async def _replay(
    request: Request, table: LiveTable, tr: Translator, seat: str | None, step: str | None
) -> Response:
    seats = len(table.owners)
    chosen = ascii_int(seat)
    everything = chosen is None or not 0 < chosen <= seats
    reader = None if chosen is None or everything else chosen - 1
    asked = ascii_int(step)
    data = replay_page(
        table, tr, len(table.effective_actions()) if asked is None else asked, reader, everything
    )
    turning = await replay_block(request, table, tr, reader, data["step"])
    return page(
        "replay.html",
        tr,
        table=table.id,
        title=table.ui.title(tr),
        seat_choices=[(str(s + 1), table.ui.seat_name(s, tr)) for s in range(seats)],
        view="all" if everything else str(reader + 1 if reader is not None else "all"),
        turning=turning,
        **data,
    )
