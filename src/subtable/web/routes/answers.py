"""The shapes of the API's successful answers, as the OpenAPI schema declares them (the
schema fuzz checks every answer against them)."""

from __future__ import annotations

from pydantic import BaseModel

from subtable.web.wire import LobbyTable, Options, SeatNow, SeatRefused, Status


class Health(BaseModel):
    """``GET /healthz``."""

    ok: bool
    version: str
    protocol: int
    db: str
    tables: int


class Invite(BaseModel):
    """A person's seat at a new table: its token and the link that opens it."""

    player: int
    seats: list[int]
    token: str
    url: str


class Watch(BaseModel):
    """The spectators' token and link."""

    token: str
    url: str


class Created(BaseModel):
    """``POST /api/tables``: the new table, its invitations and its status."""

    id: str
    game: str
    options: Options
    lang: str
    ws: str
    invites: list[Invite]
    spectator: Watch
    status: Status


class Joined(BaseModel):
    """``POST /api/tables/{id}/join``: the seat taken, its token and link."""

    table: str
    player: int
    seats: list[int]
    token: str
    url: str


class NextTable(BaseModel):
    """``POST /api/tables/{id}/again``: the next table, and this seat's link to it."""

    id: str
    url: str


class Lobby(BaseModel):
    """``GET /api/lobby``: the public tables with a person's seat open."""

    tables: list[LobbyTable]


class SeatsNow(BaseModel):
    """``POST /api/seats``: the server's clock and what each token's seat may know."""

    now: float
    seats: list[SeatNow | SeatRefused]
