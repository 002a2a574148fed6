"""``GET /api/tables/{id}/turning``: "where the game turned", the chart of a finished table."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from subtable.i18n import normalize, translator
from subtable.web.limits import ascii_int
from subtable.web.routes.errors import ApiError, error_response, refusals
from subtable.web.routes.tables import TableDep
from subtable.web.turning import Busy, Turnings, Unavailable, turning_html

router = APIRouter(tags=["tables"])

#: the answers besides the chart itself and the refusals
PENDING: dict[int | str, dict[str, Any]] = {
    202: {"description": "Being worked out: ask again"},
    503: {"description": "Busy, or the chart could not be worked out"},
}


class TurningQuery(BaseModel):
    """Whose chart and where: the reader's seat (``all`` or a number), the replay's step and
    the language of its words (anything else is ignored, as a page's links may carry it)."""

    model_config = ConfigDict(extra="ignore")

    seat: str | None = Field(default=None, max_length=16)
    step: str | None = Field(default=None, max_length=16)
    lang: str | None = Field(default=None, max_length=16)


@router.get(
    "/api/tables/{table_id}/turning",
    response_model=None,
    responses=refusals(404, 409) | PENDING,
    operation_id="turning",
)
async def turning(
    request: Request, table: TableDep, query: Annotated[TurningQuery, Query()]
) -> JSONResponse:
    """The chart once it is worked out (202 while it is, 409 while the game goes on)."""
    tr = translator(normalize(query.lang) or table.row.lang)
    chosen = ascii_int(query.seat)
    seat = chosen - 1 if chosen is not None and 0 < chosen <= len(table.owners) else None
    service: Turnings = request.app.state.turnings
    try:
        found = await service.get(table)
    except Unavailable as exc:
        if exc.code in ("not_over", "no_expert"):
            raise ApiError(409, exc.code, exc.message) from exc
        raise ApiError(503, exc.code, exc.message) from exc
    except Busy:
        busy = error_response(503, "busy", "the server is working out other games")
        busy.headers["Retry-After"] = "5"
        return busy
    if found is None:
        return JSONResponse({"status": "computing"}, status_code=202)
    html = turning_html(found, table, tr, seat, ascii_int(query.step))
    return JSONResponse({"status": "ready", "html": html, "turning": found.to_json()})
