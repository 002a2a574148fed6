"""The tables' JSON API: open a table, take a seat, read its status and record, play again,
the lobby (and its feed of changes) and "your tables"."""

from __future__ import annotations

from typing import Annotated, NotRequired, TypedDict

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from subtable import __version__
from subtable.core.record import RecordJSON
from subtable.i18n import normalize, translator
from subtable.web import PROTOCOL_VERSION
from subtable.web.create import CreateBody, open_table
from subtable.web.guard import short
from subtable.web.limits import Buckets
from subtable.web.live import LiveTable, Refused, Unreadable, token_hash
from subtable.web.lobby import SeatsBody, seat_status
from subtable.web.pages import page_language
from subtable.web.routes.answers import Created, Health, Joined, Lobby, NextTable, SeatsNow
from subtable.web.routes.deps import AllowanceDep, FeedDep, ManagerDep, SameSite
from subtable.web.routes.errors import MEANING, ApiError, ErrorBody, refusals
from subtable.web.wire import Status

router = APIRouter(tags=["tables"])

#: a table's id in a path (ids are short; anything longer names no table)
TableId = Annotated[str, Path(max_length=64)]
#: ``POST /api/seats``: a page polls once a minute; a reload or two
SEATS_RATE, SEATS_BURST = 1.0, 20.0


class JoinBody(BaseModel):
    """``POST /api/tables/{id}/join``: the open seat to take, and the name to show."""

    model_config = ConfigDict(extra="forbid")

    player: Annotated[StrictInt, Field(ge=0, le=64)]
    name: Annotated[StrictStr, Field(max_length=64)]


class AgainBody(BaseModel):
    """``POST /api/tables/{id}/again``: the caller's seat token (in the body, never in a URL)."""

    model_config = ConfigDict(extra="forbid")

    token: StrictStr = Field(max_length=128)


async def existing(manager: ManagerDep, table_id: TableId) -> LiveTable:
    """The table a path names, or 404 ``no_table`` (409 ``unreadable``: its record does not
    replay)."""
    try:
        table = await manager.get(table_id)
    except Unreadable as exc:
        raise ApiError(409, exc.code, exc.message) from exc
    if table is None:
        raise ApiError(404, "no_table", f"there is no table {short(table_id, 64)!r}")
    return table


TableDep = Annotated[LiveTable, Depends(existing)]


@router.get("/healthz", response_model=None, responses={200: {"model": Health}})
async def healthz(request: Request, manager: ManagerDep) -> Health:
    """Whether the server runs, its version, protocol, database and open tables."""
    return Health(
        ok=True,
        version=__version__,
        protocol=PROTOCOL_VERSION,
        db=request.app.state.db_kind,
        tables=len(manager.tables),
    )


class Link(TypedDict):
    """An OpenAPI link: the operation it leads to, its parameters and body taken from the
    response."""

    operationId: str
    parameters: dict[str, str]
    requestBody: NotRequired[dict[str, str]]


def _from_created(operation: str, body: dict[str, str] | None = None) -> Link:
    """An OpenAPI link from a new table to ``operation`` at that table (with ``body``)."""
    link: Link = {"operationId": operation, "parameters": {"table_id": "$response.body#/id"}}
    if body is not None:
        link["requestBody"] = body
    return link


#: where a new table leads (OpenAPI links: clients and fuzzers follow them)
CREATED_LINKS: dict[str, Link] = {
    "JoinTable": _from_created("join_table"),
    "TableStatus": _from_created("table_status"),
    "TableRecord": _from_created("table_record"),
    "PlayAgain": _from_created("play_again", {"token": "$response.body#/invites/0/token"}),
}


@router.post(
    "/api/tables",
    status_code=201,
    operation_id="create_table",
    dependencies=[SameSite],
    response_model=None,
    responses=refusals(403, 413, 429)
    | {201: {"model": Created, "description": "The table is open", "links": CREATED_LINKS}},
)
async def create_table(
    request: Request,
    body: CreateBody,
    manager: ManagerDep,
    allowance: AllowanceDep,
    feed: FeedDep,
) -> Created:
    """Open a table: one invitation per person's seat and the spectators' link."""
    allowance.take()
    created = await open_table(manager, body, str(request.base_url), allowance.client)
    feed.changed()
    return created


@router.get("/api/lobby", response_model=None, responses={200: {"model": Lobby}})
async def lobby(manager: ManagerDep) -> Lobby:
    """The public tables with a person's seat open."""
    return Lobby(tables=await manager.lobby())


@router.get(
    "/api/lobby/events",
    response_class=StreamingResponse,
    operation_id="lobby_events",
    responses={
        200: {
            "description": "A stream that never ends: `event: lobby` and the lobby's JSON "
            "each time it changes",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        429: {"model": ErrorBody, "description": MEANING[429]},
    },
)
async def lobby_events(feed: FeedDep) -> StreamingResponse:
    """Server-Sent Events: ``event: lobby`` each time the lobby changes (429
    ``too_many_listeners`` when the server listens to as many pages as it keeps)."""
    if feed.full():
        raise ApiError(
            429, "too_many_listeners", "too many pages follow the lobby: look again later"
        )
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(feed.events(), media_type="text/event-stream", headers=headers)


@router.post(
    "/api/tables/{table_id}/join",
    status_code=201,
    operation_id="join_table",
    dependencies=[SameSite],
    response_model=None,
    responses=refusals(403, 404, 409, 413, 429) | {201: {"model": Joined}},
)
async def join_table(
    request: Request,
    table_id: TableId,
    body: JoinBody,
    manager: ManagerDep,
    allowance: AllowanceDep,
    feed: FeedDep,
    lang: Annotated[str | None, Query(max_length=16)] = None,
) -> Joined:
    """Take an open seat of a public table: its token and link. A name refused is refused
    in the page's language (``?lang=``, else the page's cookie or the browser's)."""
    allowance.take()
    table = await existing(manager, table_id)
    tr = translator(normalize(lang) or page_language(request))
    try:
        token = await manager.claim(table, body.player, body.name, tr)
    except Refused as exc:
        status = 409 if exc.code == "seat_taken" else 400
        raise ApiError(status, exc.code, exc.extra.get("why") or exc.message) from None
    feed.changed()
    base = str(request.base_url).rstrip("/")
    return Joined(
        table=table.id,
        player=body.player,
        seats=list(table.seats_of(body.player)),
        token=token,
        url=f"{base}/t/{table.id}#{token}",
    )


@router.get(
    "/api/tables/{table_id}",
    operation_id="table_status",
    response_model=None,
    responses=refusals(404, 409) | {200: {"model": Status}},
)
async def table_status(table: TableDep) -> Status:
    """A table's public status: seats, whose turn, the outcome."""
    return table.status_json()


@router.get(
    "/api/tables/{table_id}/record",
    operation_id="table_record",
    response_model=None,
    responses=refusals(404, 409) | {200: {"description": "The record"}},
)
async def table_record(table: TableDep) -> RecordJSON:
    """A finished table's record (with its seed): the game replays from it."""
    if not table.over:
        raise ApiError(
            409, "not_over", "the game goes on: its record (and seed) are given once it is over"
        )
    return table.record().to_json()


@router.post(
    "/api/tables/{table_id}/again",
    operation_id="play_again",
    dependencies=[SameSite],
    response_model=None,
    responses=refusals(403, 404, 409, 413, 429) | {200: {"model": NextTable}},
)
async def play_again(
    table_id: TableId, body: AgainBody, manager: ManagerDep, allowance: AllowanceDep
) -> NextTable:
    """The next table of a finished one (the same for every seat that asks)."""
    table = await existing(manager, table_id)
    digest = token_hash(body.token)
    player = table.token_players.get(digest)
    if player is None:
        if digest == table.row.spectator_hash:
            raise ApiError(403, "spectator", "a spectator cannot open the next table")
        raise ApiError(403, "bad_token", "this token opens no seat at this table")
    try:
        rematch = await manager.again(table, allowance.client, allowance.available)
    except Refused as exc:
        raise ApiError(409 if exc.code == "not_over" else 429, exc.code, exc.message) from None
    return NextTable(id=rematch.table, url=rematch.link(player))


def _seats_asked(request: Request) -> Buckets:
    buckets: Buckets = request.app.state.seats_asked
    return buckets


@router.post(
    "/api/seats",
    dependencies=[SameSite],
    response_model=None,
    responses=refusals(403, 413, 429) | {200: {"model": SeatsNow}},
)
async def seats(
    body: SeatsBody,
    manager: ManagerDep,
    allowance: AllowanceDep,
    asked: Annotated[Buckets, Depends(_seats_asked)],
) -> SeatsNow:
    """For each table this browser holds a token for, whether that seat decides now and
    until when (tokens travel in the body: never in a logged URL)."""
    if not asked.allow(allowance.client):
        raise ApiError(429, "rate_limited", "too many questions: wait a little")
    answers = [await seat_status(manager, ref) for ref in body.seats]
    return SeatsNow(now=manager.clock(), seats=answers)


def seats_buckets() -> Buckets:
    """The allowance of ``POST /api/seats`` per address (kept in the app's state)."""
    return Buckets(rate=SEATS_RATE, burst=SEATS_BURST)
