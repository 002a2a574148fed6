"""People on the home page: the creation form's seats, names and pace; the lobby
of public tables; and ``POST /api/seats``, what each table this browser holds a token for
says of that token's seat (whether it decides now, and until when).

The pages module draws these; ``routes/tables.py`` answers ``POST /api/seats``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Annotated, Any, Literal, TypedDict

from babel.dates import format_timedelta
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from subtable.bots.levels import declared_levels
from subtable.core.registry import registration
from subtable.i18n import Translator
from subtable.web.guard import short
from subtable.web.limits import Limits, ascii_int
from subtable.web.live import TURN_BASED, LiveTable, Manager, Unreadable, token_hash
from subtable.web.wire import LobbyRow, LobbyRowSeat, LobbyTable, SeatNow, SeatRefused
from subtable.words import game_ui
from subtable.words.game_options import option_label
from subtable.words.seat_words import bot_who
from subtable.words.seats import BEST_BOTS, HUMAN

#: the time limits a decision may have at a turn-based table, offered on the home page
TURN_LIMITS = (300, 900, 3_600, 14_400, 43_200, 86_400, 259_200, 604_800)
DEFAULT_TURN_LIMIT = 86_400
#: the levels in the order the form offers them (the default first)
LEVEL_ORDER = ("normal", "easy", "strong")
#: tables one ``POST /api/seats`` may ask about
MAX_SEATS = 50
#: characters in a person's name (the server's default limit, said where a name is typed)
NAME_LENGTH = Limits().name_length
LANG_NAMES = {"en": "English", "fr": "Français", "it": "Italiano", "pt": "Português"}


def strings(tr: Translator) -> dict[str, str]:
    """The fixed texts of names, the lobby, pace, chat and turn notices, in ``tr``'s
    language (merged into the pages' strings)."""
    return {
        "people": tr("web.home.people"),
        "your_name": tr("web.home.your_name"),
        "your_name_help": tr("web.home.your_name_help"),
        "name_limit": str(NAME_LENGTH),
        "name_too_long": tr("web.name.too_long", limit=NAME_LENGTH, n="{n}"),
        "visibility": tr("web.home.visibility"),
        "private": tr("web.home.private"),
        "public": tr("web.home.public"),
        "pace": tr("web.home.pace"),
        "live": tr("web.home.live"),
        "turn_based": tr("web.home.turn_based"),
        "turn_limit": tr("web.home.turn_limit"),
        "late": tr("web.home.late"),
        "late_bot": tr("web.home.late_bot"),
        "late_abandon": tr("web.home.late_abandon"),
        "public_note": tr("web.created.public_note"),
        "lobby": tr("web.lobby.title"),
        "lobby_help": tr("web.lobby.help"),
        "lobby_none": tr("web.lobby.none"),
        "lobby_refresh": tr("web.lobby.refresh"),
        "lobby_taken": tr("web.lobby.taken"),
        "lobby_name_needed": tr("web.lobby.name_needed"),
        "lobby_failed": tr("web.lobby.failed"),
        "lobby_yours": tr("web.lobby.yours"),
        "lobby_seats": tr("web.lobby.seats"),
        "lobby_standard": tr("web.lobby.standard"),
        "your_turn": tr("web.turn.yours"),
        "waiting": tr("web.turn.waiting"),
        "waiting_seat": tr("web.turn.waiting_seat", who="{who}"),
        # a table waiting for its people ("{n}" filled in by the page)
        "waiting_one": tr.plural("web.waiting.people", "web.waiting.people.plural", 1, n="{n}"),
        "waiting_many": tr.plural("web.waiting.people", "web.waiting.people.plural", 2, n="{n}"),
        "begins_one": tr.plural("web.lobby.waiting", "web.lobby.waiting.plural", 1, n="{n}"),
        "begins_many": tr.plural("web.lobby.waiting", "web.lobby.waiting.plural", 2, n="{n}"),
        "waiting_how": tr("web.waiting.how"),
        "start_now": tr("web.waiting.start_now"),
        "host_only": tr("web.waiting.host_only"),
        "time_left": tr("web.turn.time_left"),
        "time_up": tr("web.turn.time_up"),
        "game_over": tr("web.turn.over"),
        "closed": tr("web.turn.closed"),
        "gone": tr("web.turn.gone"),
        "notify": tr("web.turn.notify"),
        "notify_on": tr("web.turn.notify_on"),
        "notify_denied": tr("web.turn.notify_denied"),
        "notification": tr("web.turn.notification"),
        "sound": tr("web.turn.sound"),
        "turn_mode_bot": tr("web.turn.mode_bot"),
        "turn_mode_abandon": tr("web.turn.mode_abandon"),
        "name_prompt": tr("web.people.name_prompt"),
        "name_help": tr("web.people.name_help"),
        "name_save": tr("web.people.name_save"),
        "name_later": tr("web.people.name_later"),
        "chat_say": tr("web.chat.say"),
        "chat_send": tr("web.chat.send"),
        "chat_none": tr("web.chat.none"),
        "chat_spectators": tr("web.chat.spectators"),
        "who_player": tr("ui.who.player"),  # "player {n}": the page fills it in
        "who_you": tr("ui.who.you"),
    }


def duration(seconds: float, lang: str) -> str:
    """``seconds`` in words (``1 day``, ``4 heures``): the largest unit it is a whole
    number of (else rounded)."""
    return format_timedelta(timedelta(seconds=seconds), locale=lang, threshold=1)


def level_kinds(game: str) -> tuple[str, ...]:
    """The bot levels ``game``'s expert declares, in the form's order."""
    declared = declared_levels(game)
    return tuple(level for level in LEVEL_ORDER if level in declared)


def seat_kinds(game: str) -> tuple[str, ...]:
    """What a seat of the creation form may be: a person, a bot level, a named bot."""
    return (HUMAN, *level_kinds(game), *BEST_BOTS)


def default_bot(game: str) -> str:
    """The bot the form offers for the seats after the first (``normal``)."""
    return (*level_kinds(game), *BEST_BOTS)[0]


def seat_label(kind: str, tr: Translator) -> str:
    """A seat kind in words (``a person``, ``bot: normal``)."""
    labels = {
        HUMAN: tr("web.seat.human"),
        "normal": tr("web.seat.normal"),
        "easy": tr("web.seat.easy"),
        "strong": tr("web.seat.strong"),
        "ismcts": tr("web.seat.ismcts"),
        "heuristic": tr("web.seat.heuristic"),
        "random": tr("web.seat.random"),
    }
    return labels.get(kind, kind)


def pace_text(mode: str, turn_limit: float | None, late: str | None, tr: Translator) -> str:
    """How a table is played, in words."""
    if mode != TURN_BASED or turn_limit is None:
        return tr("web.lobby.live")
    time = duration(turn_limit, tr.lang)
    if late == "abandon":
        return tr("web.turn.mode_abandon", time=time)
    return tr("web.turn.mode_bot", time=time)


def options_text(game: str, options: Mapping[str, Any], tr: Translator) -> str:
    """A table's options that differ from the rules' defaults, in words."""
    specs = registration(game).option_specs()
    parts: list[str] = []
    for key, value in options.items():
        spec = specs.get(key)
        if key == "players" or spec is None or value is None or value == spec.default:
            continue
        label = option_label(spec, tr)
        parts.append(label if value is True else f"{label}: {value}")
    return ", ".join(parts) or tr("web.lobby.standard")


def begins_text(started: bool, open_seats: int, tr: Translator) -> str:
    """Whether a lobby table plays already, or how many people it waits for, in words."""
    if started:
        return tr("web.lobby.playing")
    return tr.plural("web.lobby.waiting", "web.lobby.waiting.plural", open_seats, n=open_seats)


def lobby_rows(tables: list[LobbyTable], tr: Translator) -> list[LobbyRow]:
    """``GET /api/lobby``'s tables as the home page lists them."""
    rows: list[LobbyRow] = []
    for t in tables:
        seats: list[LobbyRowSeat] = []
        for s in t["seats"]:
            bot = s["controller"] != HUMAN
            who = bot_who(t["game"], s["bot"], tr) if s["bot"] is not None else s["name"] or ""
            label = tr("ui.who.player", n=s["player"] + 1)
            seats.append(
                {
                    "player": s["player"],
                    "label": label,
                    "sit": tr("web.lobby.sit", who=label),
                    "who": who,
                    "open": s["open"],
                    "bot": bot,
                }
            )
        rows.append(
            {
                "id": t["id"],
                "title": game_ui(t["game"]).title(tr),
                "options": options_text(t["game"], t["options"], tr),
                "lang": LANG_NAMES.get(t["lang"], t["lang"]),
                "pace": pace_text(t["mode"], t["turn_limit"], t["late"], tr),
                "taken": sum(1 for s in seats if not s["open"]),
                "state": begins_text(t["started"], sum(1 for s in seats if s["open"]), tr),
                "total": len(seats),
                "seats": seats,
            }
        )
    return rows


def turn_limit_choices(lang: str) -> list[tuple[int, str]]:
    """The form's time limits a decision, in words."""
    return [(s, duration(s, lang)) for s in TURN_LIMITS]


# -- what the creation form asks of people and pace --------------------------------------
class PeopleFields(TypedDict, total=False):
    """The ``POST /api/tables`` fields of a form's name, visibility and pace."""

    visibility: Literal["public", "private"]
    names: list[str | None]
    mode: Literal["live", "turn-based"]
    turn_limit: int
    late: Literal["bot", "abandon"]


def form_people(
    field: Mapping[str, str], seats: list[str], tr: Translator
) -> tuple[PeopleFields, str]:
    """The ``POST /api/tables`` fields of a home-page form's name, visibility and pace
    (``field``: the form's fields of one game, without its prefix), or why it is refused."""
    public = field.get("visibility") == "public"
    name = " ".join(field.get("name", "").split())
    person_first = bool(seats) and seats[0] == HUMAN
    if public and person_first and not name:
        return {}, tr("web.home.name_needed")
    if person_first and len(name) > NAME_LENGTH:  # refused with the limit said, never cut
        return {}, tr("web.name.too_long", limit=NAME_LENGTH, n=len(name))
    out: PeopleFields = {"visibility": "public" if public else "private"}
    if name and person_first:
        out["names"] = [name] + [None] * (len(seats) - 1)
    if field.get("mode") == TURN_BASED:
        limit = ascii_int(field.get("turn_limit"))
        out["mode"] = TURN_BASED
        out["turn_limit"] = limit if limit is not None else DEFAULT_TURN_LIMIT
        out["late"] = "abandon" if field.get("late") == "abandon" else "bot"
    return out, ""


# -- "your tables": POST /api/seats ------------------------------------------------------
class SeatRef(BaseModel):
    """A table and the token this browser holds for it."""

    model_config = ConfigDict(extra="forbid")

    table: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    token: Annotated[StrictStr, Field(min_length=1, max_length=128)]


class SeatsBody(BaseModel):
    """``POST /api/seats``: at most :data:`MAX_SEATS` tables."""

    model_config = ConfigDict(extra="forbid")

    seats: Annotated[list[SeatRef], Field(max_length=MAX_SEATS)]


def seat_json(table: LiveTable, player: int | None) -> SeatNow:
    """What a token's holder may know of its table now: all of it public (the table's
    status says as much), nothing of any seat's hand."""
    decider = table.state.current_seat()
    deciding = None if decider is None or table.over else table.owners[decider]
    return {
        "table": table.id,
        "game": table.row.game,
        "player": player,
        "seq": table.seq,
        "your_turn": player is not None and deciding == player and not table.waiting,
        "deadline": table.row.deadline if deciding is not None else None,
        # the people a waiting table still waits for (0 once it began)
        "waiting": len(table.open_players()) if table.waiting else 0,
        "mode": table.row.mode,
        "finished": table.state.is_terminal(),
        "closed": table.row.closed,
    }


async def seat_status(manager: Manager, ref: SeatRef) -> SeatNow | SeatRefused:
    """One entry of ``POST /api/seats``: a token that opens nothing learns only that."""
    table = manager.tables.get(ref.table)
    digest = token_hash(ref.token)
    if table is None:
        row = await manager.store.load_table(ref.table)
        if row is None:
            return {"table": short(ref.table, 64), "error": "no_table"}
        if row.finished or row.closed is not None:  # nothing moves: no need to rebuild it
            hashes = await manager.store.token_hashes(ref.table)
            if digest not in hashes and digest != row.spectator_hash:
                return {"table": row.id, "error": "bad_token"}
            return {
                "table": row.id,
                "game": row.game,
                "player": hashes.get(digest),
                "your_turn": False,
                "deadline": None,
                "mode": row.mode,
                "finished": row.finished,
                "closed": row.closed,
            }
        try:
            table = await manager.get(ref.table)
        except Unreadable:
            return {"table": short(ref.table, 64), "error": "unreadable"}
        if table is None:
            return {"table": short(ref.table, 64), "error": "no_table"}
    if digest in table.token_players:
        return seat_json(table, table.token_players[digest])
    if digest == table.row.spectator_hash:
        return seat_json(table, None)
    return {"table": table.id, "error": "bad_token"}
