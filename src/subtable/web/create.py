"""Checking a new table's request: the same checks, and the same messages, as ``subtable play``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, model_validator

from subtable.bots.base import parse_bot_spec
from subtable.core.errors import SubtableError
from subtable.core.game import Game
from subtable.i18n import LANGUAGES, Translator, normalize, translator
from subtable.web.live import TURN_BASED, Refused, TablePeople
from subtable.web.routes.answers import Created, Invite, Watch
from subtable.words.game_options import GameRequest, GameRequestError, build_game, flag_specs
from subtable.words.messages import seat_message
from subtable.words.seats import SeatError, parse_seats

if TYPE_CHECKING:
    from subtable.web.live import Manager


Name = Annotated[StrictStr, Field(max_length=64)]


class CreateBody(BaseModel):
    """``POST /api/tables`` (every field bounded: the body is checked before any work).

    Beside these fields, an option a game gives a flag of its own (its declaration says
    so) is a field of its own; any other field is refused.
    """

    model_config = ConfigDict(extra="allow")

    game: Name
    players: Annotated[StrictInt, Field(ge=0, le=64)] | None = None
    options: Annotated[dict[Name, Any], Field(max_length=16)] = Field(default_factory=dict)
    seats: Annotated[list[Name], Field(max_length=16)] | None = None
    lang: Annotated[StrictStr, Field(max_length=16)] | None = None
    #: ``public``: listed in the lobby while a person's seat is open; ``private``: links only
    visibility: Literal["public", "private"] = "private"
    #: the names of the people seated at creation, one per player (``null`` for the others)
    names: Annotated[list[Name | None], Field(max_length=16)] | None = None
    #: ``live``, or ``turn-based`` with ``turn_limit`` seconds a decision and the ``late``
    #: policy when they run out (``bot``: a bot plays it and the log says so; ``abandon``)
    mode: Literal["live", "turn-based"] = "live"
    turn_limit: Annotated[StrictInt, Field(ge=0, le=10**8)] | None = None
    late: Literal["bot", "abandon"] | None = None
    #: whether players may ask the expert for advice (``hint``); ``None``: at a cooperative
    #: game, or where one person plays
    advice: StrictBool | None = None

    @model_validator(mode="after")
    def _only_flags(self) -> CreateBody:
        unknown = sorted(set(self.model_extra or {}) - set(flag_specs()))
        if unknown:
            raise ValueError(f"unknown field(s): {', '.join(unknown)}")
        return self

    @property
    def flags(self) -> dict[str, Any]:
        """The options given by a flag of their own (checked when the game is built)."""
        return {k: v for k, v in (self.model_extra or {}).items() if v is not None}


class CreateError(Exception):
    """A request that makes no table: a code and the CLI's message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def build_seats(
    seats: list[str] | None, game: Game[Any], tr: Translator, max_budget: int
) -> list[str]:
    """One controller per player (``human`` or a bot spec), with the CLI's messages; a
    search budget above the server's ceiling (``max_budget``) is refused."""
    for entry in seats or []:  # before any bot is built from it
        keys = {part.partition("=")[0].strip().lower() for part in entry.split(":")[1:]}
        if "path" in keys:  # a request must not make the server read its own files
            raise CreateError(
                "bad_bot_param",
                f"bot {entry[:64]!r}: a web table plays the bots installed with the server "
                "(no path=)",
            )
        if "ms" in keys:
            raise CreateError(
                "bad_bot_param",
                f"bot {entry!r}: at a web table bots think by "
                "iteration budget (budget=N), not by the clock (ms)",
            )
    text = None if seats is None else ",".join(seats)
    try:
        out = parse_seats(text, game)
    except SeatError as exc:
        code = exc.code if exc.code in ("seat_count", "bot_cannot_play") else "unknown_seat"
        raise CreateError(code, seat_message(exc, game, tr)) from None
    except SubtableError as exc:  # a bad bot parameter
        raise CreateError(exc.code, exc.message) from None
    for entry in out:
        if entry == "human":
            continue
        params = parse_bot_spec(entry)[1]
        budget = params.get("budget")
        if isinstance(budget, int | float) and budget > max_budget:
            raise CreateError(
                "bad_bot_param",
                f"bot {entry!r}: budget {budget:g} is above this server's ceiling of "
                f"{max_budget} iterations a decision (subtable serve --max-budget)",
            )
    return out


def check_lang(lang: str | None, tr: Translator) -> None:
    """Refuse a language without a catalogue (the CLI's message)."""
    if lang is not None and lang not in LANGUAGES:
        raise CreateError("bad_lang", tr("ui.err.lang", lang=lang, known=", ".join(LANGUAGES)))


def table_people(manager: Manager, body: CreateBody, controllers: list[str]) -> TablePeople:
    """Who sits where and how the table is played, checked (:class:`Refused` naming what is
    wrong): names only for people's seats, a turn-based table's time limit in range."""
    names: dict[int, str] = {}
    for player, raw in enumerate(body.names or []):
        if raw is None:
            continue
        if player >= len(controllers) or controllers[player] != "human":
            raise Refused("bad_name", f"player {player + 1} is not a person's seat: no name")
        names[player] = manager.clean_name(raw)
    limits = manager.limits
    limit = None
    if body.mode == TURN_BASED:
        if body.turn_limit is None:
            raise Refused("bad_turn_limit", "a turn-based table needs turn_limit (seconds)")
        if not limits.turn_limit_min <= body.turn_limit <= limits.turn_limit_max:
            raise Refused(
                "bad_turn_limit",
                f"turn_limit must be from {limits.turn_limit_min:g} to "
                f"{limits.turn_limit_max:g} seconds, not {body.turn_limit}",
            )
        limit = float(body.turn_limit)
    elif body.turn_limit is not None or body.late is not None:
        raise Refused("bad_turn_limit", "turn_limit and late are for turn-based tables")
    late = (body.late or "bot") if body.mode == TURN_BASED else None
    return TablePeople(names, body.visibility, body.mode, limit, late)


async def open_table(
    manager: Manager, body: CreateBody, base_url: str, creator: str | None = None
) -> Created:
    """Check a request and open its table: the answer of ``POST /api/tables``.

    Raises :class:`CreateError` (nothing is created) for a request that makes no table,
    ``too_many_tables`` when ``creator`` (or the server) has as many as it may.
    """
    lang = normalize(body.lang) if body.lang is not None else "en"
    tr = translator(lang or "en")
    check_lang(body.lang if lang is None else lang, tr)
    request = GameRequest(body.game, body.players, body.flags, body.options)
    try:
        game = build_game(request, tr)
    except GameRequestError as exc:
        raise CreateError(exc.code, exc.message) from None
    controllers = build_seats(body.seats, game, tr, manager.limits.max_budget)
    try:
        people = table_people(manager, body, controllers)
        table, tokens, spectator = await manager.create(
            game, body.game, controllers, tr.lang, creator, people=people, advice=body.advice
        )
    except Refused as exc:
        raise CreateError(exc.code, exc.message) from None
    base = base_url.rstrip("/")
    ws = base.replace("http", "ws", 1) + "/ws"
    return Created(
        id=table.id,
        game=body.game,
        options=table.row.options,
        lang=tr.lang,
        ws=ws,
        invites=[
            Invite(player=p, seats=list(table.seats_of(p)), token=t, url=f"{base}/t/{table.id}#{t}")
            for p, t in sorted(tokens.items())
        ],
        spectator=Watch(token=spectator, url=f"{base}/t/{table.id}#{spectator}"),
        status=table.status_json(),
    )
