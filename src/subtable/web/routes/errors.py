"""Every refusal of an HTTP route is a 4xx answer ``{"error": {"code", "message"}}``.

Routes raise :class:`ApiError` (or the project's own errors); the handlers installed by
:func:`install` turn those, FastAPI's validation errors and Starlette's HTTP errors into
that one shape, and :func:`refusals` declares it in the OpenAPI schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from subtable.web.create import CreateError
from subtable.web.guard import short
from subtable.web.protocol import first_problem

#: what each status means for this API (the OpenAPI descriptions)
MEANING = {
    400: "The request is malformed or asks for something the rules refuse",
    403: "Not allowed: another site's page, a spectator, or a token that opens no seat",
    404: "No such table, game or lesson",
    409: "Not now: the seat is taken, the game is (not) over, or its record does not replay",
    413: "The body is too large",
    429: "Too many requests from this address, or too many tables",
}


class ErrorDetail(BaseModel):
    """Why a request was refused: a stable code and a message for people."""

    code: str
    message: str


class ErrorBody(BaseModel):
    """The answer of every refused request."""

    error: ErrorDetail


class ApiError(Exception):
    """A refusal: its HTTP status, a code and a message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that may refuse with ``statuses`` (and 400 always)."""
    wanted = sorted({400, *statuses})
    return {s: {"model": ErrorBody, "description": MEANING[s]} for s in wanted}


def error_response(status: int, code: str, message: str) -> JSONResponse:
    """The answer of a refused request (the message cut short: no input echoed at length)."""
    body = ErrorBody(error=ErrorDetail(code=code, message=short(message)))
    return JSONResponse(body.model_dump(), status_code=status)


def validation_message(errors: Sequence[Any]) -> tuple[str, str]:
    """The code and message of a request that does not fit its model: its first problem
    (where in the body, or in which part of the request, and what is wrong)."""
    if errors and errors[0].get("type") == "json_invalid":
        return "bad_json", "the body is not valid JSON"
    skip = 1 if errors and tuple(errors[0].get("loc", ()))[:1] == ("body",) else 0
    return "bad_request", first_problem(errors, skip, "body")


async def _api_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.code, exc.message)


async def _invalid(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return error_response(400, *validation_message(exc.errors()))


async def _http(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    codes = {404: "not_found", 405: "bad_method", 413: "too_large"}
    status = exc.status_code if 400 <= exc.status_code < 500 else 400
    code = codes.get(status, "bad_request")
    return error_response(status, code, str(exc.detail))


async def _create_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, CreateError)
    status = 429 if exc.code == "too_many_tables" else 400
    return error_response(status, exc.code, exc.message)


def install(app: FastAPI) -> None:
    """Answer every refusal as ``{"error": {"code", "message"}}`` with its 4xx status."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(HTTPException, _http)
    app.add_exception_handler(CreateError, _create_error)


def openapi_of(app: FastAPI) -> dict[str, Any]:
    """The app's OpenAPI schema, built once: FastAPI's, less the ``422`` it declares for
    every route with parameters (a refused request is answered ``400`` here)."""
    if app.openapi_schema is None:
        schema = get_openapi(
            title=app.title, version=app.version, routes=app.routes, description=app.description
        )
        for path in schema.get("paths", {}).values():
            for operation in path.values():
                operation.get("responses", {}).pop("422", None)
        app.openapi_schema = schema
    return app.openapi_schema
