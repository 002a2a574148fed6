"""The browser's pages: home (open a table), the table of a seat or a spectator, the replay.

Pages are rendered on the server with Jinja2 in the reader's language (``?lang=``,
else the ``lang`` cookie, else the table's or the browser's language). The table page
then speaks the WebSocket protocol (``docs/protocol.md``) with ``render: "html"``:
its board and log come rendered from the server, built from that seat's views.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Literal, TypedDict

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from pydantic import ValidationError

from subtable import __version__
from subtable.core.game import Game, OptionSpec, Utility
from subtable.core.registry import game_class, game_names, registration
from subtable.i18n import LANGUAGES, Translator, normalize, translator
from subtable.web import lobby
from subtable.web.boards import board_renderer, revealed
from subtable.web.create import CreateBody
from subtable.web.insight import insight_strings
from subtable.web.limits import ascii_int
from subtable.web.live import LiveTable, shared_game
from subtable.web.protocol import first_problem
from subtable.web.render import who_labels
from subtable.web.turning import log_numbers
from subtable.web.wire import LobbyTable
from subtable.words import action_as_seen, game_ui, result_words
from subtable.words.game_options import option_help, option_label
from subtable.words.seat_words import levels_measured
from subtable.words.seats import BEST_BOTS, HUMAN

#: the seat kinds offered on the home page besides the bot levels of each game
SEAT_KINDS = (HUMAN, *BEST_BOTS)
#: the players offered on the home page (each game's own range is enforced on creation)
MAX_PLAYERS = 8
LANG_NAMES = lobby.LANG_NAMES

_env = Environment(
    loader=PackageLoader("subtable.web", "templates"),
    autoescape=select_autoescape(default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


def page_language(request: Request, fallback: str | None = None) -> str:
    """``?lang=``, the ``lang`` cookie, ``fallback`` (a table's), the browser's, English."""
    for tag in (request.query_params.get("lang"), request.cookies.get("lang"), fallback):
        lang = normalize(tag)
        if lang:
            return lang
    for part in request.headers.get("accept-language", "").split(","):
        lang = normalize(part.split(";")[0])
        if lang:
            return lang
    return "en"


def strings(tr: Translator) -> dict[str, str]:
    """Every fixed text of the pages, in ``tr``'s language."""
    return {
        **_home_strings(tr),
        **_table_strings(tr),
        **_replay_strings(tr),
        **lobby.strings(tr),  # names, the lobby, pace, chat, turn notices
    }


def _home_strings(tr: Translator) -> dict[str, str]:
    """The home page's words, and those every page's header shares."""
    return {
        "tagline": tr("web.home.tagline"),
        "new_table": tr("web.home.new_table"),
        "game": tr("web.home.game"),
        "players": tr("web.home.players"),
        "options": tr("web.home.options"),
        "seats": tr("web.home.seats"),
        "seats_help": tr("web.home.seats_help"),
        "language": tr("web.home.language"),
        "create": tr("web.home.create"),
        "your_tables": tr("web.home.your_tables"),
        "no_tables": tr("web.home.no_tables"),
        "forget": tr("web.home.forget"),
        "invites": tr("web.created.invites"),
        "invites_help": tr("web.created.invites_help"),
        "spectator": tr("web.created.spectator"),
        "open_seat": tr("web.created.open"),
        "watch": tr("web.created.watch"),
        "copy": tr("web.created.copy"),
        "copied": tr("web.created.copied"),
        "home": tr("web.nav.home"),
        "change": tr("web.nav.change_language"),
        "human": tr("web.seat.human"),
        "bot_ismcts": tr("web.seat.ismcts"),
        "bot_heuristic": tr("web.seat.heuristic"),
        "bot_random": tr("web.seat.random"),
    }


def _table_strings(tr: Translator) -> dict[str, str]:
    """The table page's words."""
    return {
        "board": tr("web.table.board"),
        "setup": tr("web.table.setup"),
        "your_options": tr("web.table.your_options"),
        "undo": tr("web.table.undo"),
        "log": tr("web.table.log"),
        "chat": tr("web.table.chat"),
        "stage_prev": tr("web.table.stage_prev"),
        "stage_next": tr("web.table.stage_next"),
        "stage_hide": tr("web.table.stage_hide"),
        "connecting": tr("web.table.connecting"),
        "reconnecting": tr("web.table.reconnecting"),
        "choose_one": tr("web.table.choose_one"),
        "not_now": tr("web.table.not_now"),
        "no_token": tr("web.table.no_token"),
        "no_seat": tr("web.table.no_seat"),
        "zoom": tr("web.table.zoom"),
        "zoom_out": tr("web.table.zoom_out"),
        "zoom_in": tr("web.table.zoom_in"),
        "zoom_reset": tr("web.table.zoom_reset"),
        "no_seat_help": tr("web.table.no_seat_help"),
        "recent": tr("web.table.recent"),
        "recent_none": tr("web.table.recent_none"),
        "stage": tr("web.table.stage"),
        "speed": tr("web.table.speed"),
        "speed_slow": tr("web.table.speed.slow"),
        "speed_normal": tr("web.table.speed.normal"),
        "speed_fast": tr("web.table.speed.fast"),
        "skip": tr("web.table.skip"),
        "rules": tr("web.table.rules"),
        "rules_now": tr("web.table.rules_now"),
        "tab_board": tr("web.table.tab.board"),
        "tab_options": tr("web.table.tab.options"),
        "tab_players": tr("web.table.tab.players"),
        "unavailable": tr("web.table.unavailable"),
        "undo_entry": tr("web.log.undo"),
        "rematch": tr("web.table.rematch"),
        "rematch_seat": tr("web.table.rematch.seat"),
        "rematch_watch": tr("web.table.rematch.watch"),
        "again_failed": tr("web.table.again_failed"),
        "no_table": tr("web.error.bad_link"),
    }


def _replay_strings(tr: Translator) -> dict[str, str]:
    """The replay page's words."""
    return {
        "replay": tr("web.replay.title"),
        "watch_replay": tr("web.replay.watch"),
        "step": tr("web.replay.step"),
        "first": tr("web.replay.first"),
        "previous": tr("web.replay.previous"),
        "next": tr("web.replay.next"),
        "last": tr("web.replay.last"),
        "as_seen_by": tr("web.replay.as_seen_by"),
        "everything": tr("web.replay.everything"),
        "show": tr("web.replay.show"),
        "play": tr("web.replay.play"),
        "pause": tr("web.replay.pause"),
        "pace": tr("web.replay.pace"),
        "download": tr("web.replay.download"),
        "not_over": tr("web.replay.not_over"),
    }


@dataclass(frozen=True, slots=True)
class OptionField:
    """An option as the home page's form asks for it: a box to tick or a list to pick in."""

    id: str
    name: str
    label: str
    help: str
    kind: Literal["bool", "choice"]
    choices: list[int | float | bool | str]
    default: int | float | bool | str | None


@dataclass(frozen=True, slots=True)
class GameForm:
    """What the home page offers for one game."""

    name: str
    title: str
    players: tuple[int, ...]
    default_players: int
    #: the options with a flag of their own (none chosen by default: the game settles them)
    flags: list[OptionField]
    options: list[OptionField]
    #: what each seat may be (a person, a bot level, a named bot) and the default bot
    seat_kinds: tuple[str, ...] = SEAT_KINDS
    default_bot: str = BEST_BOTS[0]
    #: a cooperative game (advice is on by default whoever plays)
    cooperative: bool = False
    #: the bot levels' measured win rates, in words (``None``: none declared)
    levels_measured: str | None = None


def game_form(name: str, tr: Translator) -> GameForm:
    """The creation form's fields for ``name``, from its options' declaration."""
    specs = registration(name).option_specs()
    others = [spec for key, spec in specs.items() if key != "players"]
    return GameForm(
        name=name,
        title=game_ui(name).title(tr),
        players=tuple(specs["players"].choices or ()),
        default_players=int(specs["players"].default),
        flags=[_option_field(name, spec, tr) for spec in others if spec.flag],
        options=[_option_field(name, spec, tr) for spec in others if not spec.flag],
        seat_kinds=lobby.seat_kinds(name),
        default_bot=lobby.default_bot(name),
        cooperative=game_class(name).info.utility == Utility.COOPERATIVE,
        levels_measured=levels_measured(name, tr),
    )


def _option_field(game: str, spec: OptionSpec, tr: Translator) -> OptionField:
    return OptionField(
        id=f"{game}-{spec.name}",
        name=spec.name,
        label=option_label(spec, tr),
        help=option_help(spec, tr),
        kind="bool" if spec.type is bool else "choice",
        choices=list(spec.choices or ()),
        default=spec.default,
    )


def page(name: str, tr: Translator, status: int = 200, **context: Any) -> HTMLResponse:
    """A page of ``templates/`` in ``tr``'s language."""
    html = _env.get_template(name).render(
        lang=tr.lang,
        s=SimpleNamespace(**strings(tr), **insight_strings(tr)),  # ``s.copy``: no dict.copy
        languages=[(code, LANG_NAMES[code]) for code in LANGUAGES],
        version=__version__,
        **context,
    )
    return HTMLResponse(html, status_code=status)


class ReplayPage(TypedDict):
    """What the replay page shows after a step: the board and panels, the log (each
    action's number, line and what it caused), the result, and the chat (entry, who, text)
    up to that moment."""

    step: int
    steps: int
    board: Markup
    panels: Markup
    log: list[tuple[int, str, list[str]]]
    result: str
    chat: list[tuple[int, str, str]]


def replay_page(
    table: LiveTable, tr: Translator, step: int, seat: int | None, everything: bool
) -> ReplayPage:
    """The board, panels and log of a finished game after ``step`` of its actions."""
    game: Game[Any] = shared_game(table.row.game, table.row.options)
    actions = table.effective_actions()
    step = max(0, min(step, len(actions)))
    state = game.new_state(table.row.seed)
    ui = table.ui
    log: list[tuple[int, str, list[str]]] = []
    # "Player 1 (Ana) asked the expert for advice." after the action it followed (public)
    holders = who_labels(table, (), tr)  # names, bot levels: the replay is public
    asked: dict[int, list[str]] = {}
    for moves, asker in table.asked_moves():
        who_asked = f"{ui.seat_name(asker, tr)} ({holders[asker]})"
        asked.setdefault(max(moves, 1), []).append(tr("advice.asked", who=who_asked))
    numbers = log_numbers(table)
    for n, notation in enumerate(actions[:step], start=1):
        decider = state.current_seat()
        action = game.parse_action(notation)
        events = state.apply(action)
        reader = None if everything else seat
        lines = []
        for event in events:
            shown = event if everything else event.for_seat(reader)
            line = ui.narrate(shown, tr)
            if line:
                lines.append(line)
        who = "" if decider is None else ui.seat_name(decider, tr)
        if everything:
            label = ui.action_label(action, tr)
        else:
            readers = [] if seat is None else [seat]
            label = action_as_seen(game, ui, action, decider, events, readers, tr)[1]
        # numbered as the table's log numbered it (an undone move kept its number)
        log.append((numbers[n], f"{who}: {label}", lines + asked.get(n, [])))
    renderer = board_renderer(table.game)
    who_map = holders
    view = revealed(state, len(table.owners)) if everything else state.observe(seat)
    board = renderer.board(view, tr, [])
    panels = renderer.panels(view, tr, [], who_map)
    ended = state.outcome()
    result = "" if ended is None else result_words(ui, ended, tr)
    return {
        "step": step,
        "steps": len(actions),
        "board": Markup(board),
        "panels": Markup(panels),
        "log": log,
        "result": result,
        # what was said, up to this moment (a line said after entry k shows from step k on)
        "chat": [
            (
                line.seq,
                table.row.names.get(line.player) or tr("ui.who.player", n=line.player + 1),
                line.text,
            )
            for line in table.chat
            if line.seq <= step
        ],
    }


def player_labels(tr: Translator) -> list[str]:
    """``player 1`` … ``player 8`` in ``tr``'s language."""
    return [tr("ui.who.player", n=n + 1) for n in range(MAX_PLAYERS)]


def home_page(
    tr: Translator,
    errors: dict[str, str],
    status: int = 200,
    tables: list[LobbyTable] | None = None,
    form: dict[str, str] | None = None,
) -> HTMLResponse:
    """The home page; ``errors`` by game (``""``: about the request as a whole); the lobby's
    ``tables`` (``GET /api/lobby``); ``form``: the values a refused form sent back."""
    return page(
        "home.html",
        tr,
        status=status,
        forms=[game_form(name, tr) for name in game_names()],
        max_players=MAX_PLAYERS,
        seat_label={
            k: lobby.seat_label(k, tr) for name in game_names() for k in lobby.seat_kinds(name)
        },
        player_label=player_labels(tr),
        errors=errors,
        lobby=lobby.lobby_rows(tables or [], tr),
        turn_limits=lobby.turn_limit_choices(tr.lang),
        default_turn_limit=lobby.DEFAULT_TURN_LIMIT,
        sent=form or {},
    )


def no_table(request: Request) -> HTMLResponse:
    """The 404 page of a link that opens no table, in the reader's language."""
    tr = translator(page_language(request))
    return page("message.html", tr, status=404, message=tr("web.error.bad_link"))


def unreadable_table(request: Request) -> HTMLResponse:
    """The 409 page of a table whose stored record does not replay here."""
    tr = translator(page_language(request))
    return page("message.html", tr, status=409, message=tr("web.error.unreadable"))


def body_from_form(
    game: str, form: Mapping[str, str], tr: Translator
) -> tuple[CreateBody | None, str]:
    """The ``POST /api/tables`` body a home-page form stands for."""
    if game not in game_names():
        return None, tr("ui.err.unknown_game", game=game, known=", ".join(game_names()))
    prefix = f"{game}-"
    field = {k[len(prefix) :]: str(v) for k, v in form.items() if k.startswith(prefix)}
    specs = registration(game).option_specs()
    players = ascii_int(field.get("players"))
    # an option with a flag of its own is a number chosen in a list, or left to the game
    flags = {key: ascii_int(field.get(key)) for key, spec in specs.items() if spec.flag}
    if players is not None and players not in (specs["players"].choices or ()):
        # the count is checked before anything is built for each player
        return None, tr(
            "ui.err.option_value",
            option="players",
            value=players,
            allowed=", ".join(str(c) for c in specs["players"].choices or ()),
        )
    options: dict[str, bool | str] = {}
    for key, spec in specs.items():
        if key == "players" or spec.flag:
            continue
        if spec.type is bool:
            options[key] = key in field
        elif key in field:
            options[key] = field[key]
    count = players or int(specs["players"].default)
    seats = [field.get(f"seat{n}", HUMAN if n == 0 else "bot") for n in range(count)]
    lang = str(form.get("lang") or tr.lang)
    people, problem = lobby.form_people(field, seats, tr)
    if problem:
        return None, problem
    # the home page's form says whether it allows advice; another form leaves the default
    advice = ("advice" in field) if "advice-asked" in field else None
    chosen: dict[str, int] = {key: value for key, value in flags.items() if value is not None}
    try:
        body = CreateBody(
            game=game,
            players=players,
            options=options,
            seats=seats,
            lang=lang,
            **people,
            advice=advice,
            **chosen,
        )
    except ValidationError as exc:  # a field beyond its bounds (a name too long…)
        return None, first_problem(exc.errors(), whole="form")
    return body, ""
