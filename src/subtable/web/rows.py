"""The database's rows as the server holds them: a table, a line of chat, a time advice was
asked, an entry of the log."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, TypedDict

from subtable.sim.turning import TurningJSON
from subtable.web.wire import Options


class KeptChart(TurningJSON):
    """A finished table's chart as ``tables.turning`` keeps it: its JSON form, how it was
    computed (one kept by another method is computed again) and the seconds and CPU
    seconds it took."""

    method: str
    seconds: float
    cpu_seconds: float


@dataclass(slots=True)
class TableRow:
    """One ``tables`` row."""

    id: str
    game: str
    options: Options
    seed: int
    controllers: list[str]
    lang: str
    spectator_hash: str
    finished: bool
    creator: str | None = None
    #: why the table closed before its game ended (``abandoned``), else ``None``
    closed: str | None = None
    #: each person's display name, by player index
    names: dict[int, str] = field(default_factory=lambda: dict[int, str]())
    #: ``public`` (in the lobby while a person's seat is open) or ``private``
    visibility: str = "private"
    #: ``live``, or ``turn-based`` with ``turn_limit`` seconds a decision and the ``late``
    #: policy (``bot`` or ``abandon``); ``deadline``: when the person deciding runs out
    mode: str = "live"
    turn_limit: float | None = None
    late: str | None = None
    deadline: float | None = None
    created_at: float = 0.0
    #: whether players may ask the expert for advice (``None``: the default, decided when
    #: the table is built)
    advice: bool | None = None
    #: whether the game began (a public table waits for the people of its open seats)
    started: bool = True
    #: the player who opened a public table, who may start it before its seats are filled
    host: int | None = None


@dataclass(frozen=True, slots=True)
class ChatRow:
    """One line said at a table: its number, the entry it followed, who, what, when."""

    n: int
    seq: int
    player: int
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class AskedRow:
    """One time a player asked the expert for advice: its number, the entry it followed,
    the seat it was for, when."""

    n: int
    seq: int
    seat: int
    at: float


@dataclass(frozen=True, slots=True)
class EntryRow:
    """One entry of a table's log."""

    seq: int
    kind: str
    seat: int | None
    action: str


class EntryInsert(TypedDict):
    """An ``entries`` row as it is written."""

    table_id: str
    seq: int
    kind: str
    seat: int | None
    action: str
    created_at: float


def entry_rows(batch: list[tuple[str, EntryRow, asyncio.Future[None]]]) -> list[EntryInsert]:
    """The ``entries`` rows of a batch, stamped now."""
    now = time.time()
    return [
        {
            "table_id": t,
            "seq": e.seq,
            "kind": e.kind,
            "seat": e.seat,
            "action": e.action,
            "created_at": now,
        }
        for t, e, _ in batch
    ]


def table_row(row: Any) -> TableRow:
    """A ``tables`` row as the server holds it (its names are read apart)."""
    return TableRow(
        row.id,
        row.game,
        dict(row.options),
        int(row.seed),
        list(row.controllers),
        row.lang,
        row.spectator_hash,
        bool(row.finished),
        row.creator,
        row.closed,
        visibility=row.visibility or "private",
        mode=row.mode or "live",
        turn_limit=None if row.turn_limit is None else float(row.turn_limit),
        late=row.late,
        deadline=None if row.deadline is None else float(row.deadline),
        created_at=float(row.created_at),
        advice=None if row.advice is None else bool(row.advice),
        started=row.started is not False,  # a table older than waiting began at creation
        host=None if row.host is None else int(row.host),
    )
