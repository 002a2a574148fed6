"""Schemathesis over the whole HTTP schema (``/openapi.json``): every route tried with
inputs drawn from its declared parameters and bodies, valid and not. No answer may be a
5xx, and every answer must fit what the schema declares for it (status, type, shape)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from subtable.web.app import Settings, create_app
from subtable.web.limits import Limits

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def _app() -> Any:
    """The app on a database of its own (schemathesis keeps its lifespan for the run)."""
    folder = Path(tempfile.mkdtemp(prefix="subtable-schema-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    limits = Limits(tables_per_minute=10_000.0, max_budget=20)
    return create_app(Settings(db=str(folder / "tables.sqlite3"), bot_workers=0, limits=limits))


#: the lobby's event stream never ends (no client may wait on it to validate an answer):
#: described in the schema, exercised by tests/web/test_lobby_feed.py
STREAM = "/api/lobby/events"
whole = schemathesis.openapi.from_asgi("/openapi.json", _app())
schema = whole.exclude(path=STREAM)


def test_the_schema_describes_the_lobby_stream() -> None:
    operation = whole.raw_schema["paths"][STREAM]["get"]
    assert "text/event-stream" in operation["responses"]["200"]["content"]
    assert "429" in operation["responses"]


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_route_answers_within_its_schema(case: Any) -> None:
    case.call_and_validate(checks=CHECKS)


class _Tables(schema.as_state_machine()):  # type: ignore[misc]
    """Sequences that follow the schema's links: open a table, then join it, read its
    status and record, ask for the next one."""

    def validate_response(
        self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
    ) -> None:
        case.validate_response(response, checks=CHECKS, transport_kwargs=kwargs or None)


TestLinkedRoutes = _Tables.TestCase
TestLinkedRoutes.settings = settings(
    max_examples=15,
    stateful_step_count=4,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
