"""The JSON objects the server sends inside frames and answers, as typed dicts: a wrong key
or value type fails the type check, and they cost nothing at run time (they are plain dicts,
so the wire keeps the order in which their keys are written). Only a view and a redacted
event stay free-form: each game gives its own."""

from __future__ import annotations

from typing import Any, Literal, NotRequired

# pydantic reads these for the OpenAPI schema: it needs typing_extensions' TypedDict here
from typing_extensions import TypedDict

#: a game's options as a table keeps them: each a scalar (``players``…)
Options = dict[str, int | float | bool | str]
#: a view, an event or advice as a game writes it: its keys are the game's own
GameJson = dict[str, Any]


class Waiting(TypedDict):
    """While a table waits for its people: the open seats and who may start it."""

    open: list[int]
    host: int | None


class OutcomeJson(TypedDict):
    """A finished game's outcome: why it ended, who won, each seat's return."""

    reason: str
    winners: list[int]
    returns: list[float]


class ViewJson(TypedDict):
    """What one seat (``None``: a spectator) sees of the position."""

    seat: int | None
    view: GameJson


class LegalAction(TypedDict):
    """An action the decider may take now, named for the reader."""

    id: int
    notation: str
    label: str
    hint: str | None


class StageJson(TypedDict):
    """What a page shows of an entry: its dice and cards, their lines, the board's
    changed parts, and how long to show them."""

    html: str
    lines: list[str]
    marks: list[str]
    weight: int


class StateHtml(TypedDict):
    """The position drawn for a page: the board, the seats' panels, the status line, the
    options, the actions not possible now, the rules for now and the end screen."""

    board: str
    panels: str
    status: str
    options: str
    unavailable: str
    help: str
    end: str


class StateJson(TypedDict):
    """The position as one connection may see it, and what it may do now (a page also
    gets the position drawn: ``html``)."""

    seq: int
    decider: int | None
    your_turn: bool
    views: list[ViewJson]
    legal: list[LegalAction]
    can_undo: bool
    deadline: float | None
    finished: bool
    outcome: OutcomeJson | None
    waiting: Waiting | None
    html: NotRequired[StateHtml]


class PlayerStatus(TypedDict):
    """A player of a table in its public status."""

    player: int
    controller: Literal["human", "bot"]
    bot: str | None
    seats: list[int]
    taken: bool


class Status(TypedDict):
    """``GET /api/tables/{id}``: a table's public status."""

    id: str
    game: str
    options: Options
    seq: int
    players: list[PlayerStatus]
    spectators: int
    decider: int | None
    deciding_player: int | None
    finished: bool
    outcome: OutcomeJson | None
    closed: str | None
    people: list[str | None]
    visibility: str
    mode: str
    turn_limit: float | None
    late: str | None
    deadline: float | None
    advice: bool
    waiting: Waiting | None


class LobbySeat(TypedDict):
    """A player of a lobby table: who holds it, and whether a person may take it."""

    player: int
    controller: Literal["human", "bot"]
    bot: str | None
    name: str | None
    open: bool


class LobbyTable(TypedDict):
    """A public table of ``GET /api/lobby``, with a person's seat open."""

    id: str
    game: str
    options: Options
    lang: str
    mode: str
    turn_limit: float | None
    late: str | None
    seats: list[LobbySeat]
    started: bool
    created: float


class SeatNow(TypedDict):
    """An entry of ``POST /api/seats``: what a token's holder may know of its table now
    (a finished table's leaves out ``seq`` and ``waiting``)."""

    table: str
    game: str
    player: int | None
    seq: NotRequired[int]
    your_turn: bool
    deadline: float | None
    waiting: NotRequired[int]
    mode: str
    finished: bool
    closed: str | None


class SeatRefused(TypedDict):
    """An entry of ``POST /api/seats`` whose token opens nothing (or whose table's record
    does not replay): only that."""

    table: str
    error: Literal["no_table", "bad_token", "unreadable"]


class LobbyRowSeat(TypedDict):
    """A player of a lobby table as the home page lists it, in the reader's words."""

    player: int
    label: str
    sit: str
    who: str
    open: bool
    bot: bool


class LobbyRow(TypedDict):
    """A lobby table as the home page lists it, in the reader's words."""

    id: str
    title: str
    options: str
    lang: str
    pace: str
    taken: int
    state: str
    total: int
    seats: list[LobbyRowSeat]
