"""A game's declared options for every front end: their words, the flags some game gives
an option of its own, and the one way a game is built from what a person asked for, with
the same checks and the same messages at the terminal and on the web."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from subtable.core.errors import OptionError, SubtableError
from subtable.core.game import Game
from subtable.core.options import OptionSpec, parse_option_args
from subtable.core.registry import game_names, registration, registrations
from subtable.i18n import Translator
from subtable.words import game_ui
from subtable.words.messages import option_message


def option_label(spec: OptionSpec, tr: Translator) -> str:
    """An option's name in ``tr``'s language (its own name when it declares no words)."""
    return spec.name if spec.label is None else tr.declared(spec.label)


def option_help(spec: OptionSpec, tr: Translator) -> str:
    """What an option does, in ``tr``'s language (empty when it declares no words)."""
    return "" if spec.describe is None else tr.declared(spec.describe)


def flag_specs() -> dict[str, OptionSpec]:
    """The options some registered game gives a flag of its own, by name (the first game
    to declare a name gives its words)."""
    out: dict[str, OptionSpec] = {}
    for plugin in registrations():
        for name, spec in plugin.option_specs().items():
            if spec.flag:
                out.setdefault(name, spec)
    return out


def declared_ids() -> set[str]:
    """Every catalogue id the registered games' option declarations name."""
    ids: set[str] = set()
    for plugin in registrations():
        for spec in plugin.option_specs().values():
            ids |= {i for i in (spec.label, spec.describe) if i is not None}
            if spec.follows is not None:
                ids |= {rule.words for rule in spec.follows.rules}
    return ids


class GameRequestError(SubtableError):
    """What a person asked for makes no game: ``code`` and ``message`` (already in the
    person's language)."""


@dataclass(frozen=True, slots=True)
class GameRequest:
    """The game a person asks for, as a front end received it."""

    game: str
    players: int | None = None
    #: options given by a flag of their own (``--NAME``, a field of the API's body)
    flags: Mapping[str, Any] = field(default_factory=dict)
    #: other options: each a value, or the text of one (a form's field)
    options: Mapping[str, Any] = field(default_factory=dict)
    #: the command line's ``NAME[=VALUE]`` pieces (``-o``)
    pieces: Sequence[str] = ()


def asked_options(request: GameRequest) -> dict[str, Any]:
    """The options ``request`` gives, each checked against the game's declaration (the
    defaults left out; how they fit together is the game's to check when it is built).

    Raises :class:`OptionError` in English, its ``params`` naming what is wrong.
    """
    specs = registration(request.game).option_specs()
    for name in request.flags:
        if name not in specs or not specs[name].flag:
            raise OptionError(
                f"{request.game} has no {name}: drop --{name}",
                code=f"no_{name}",
                params={"flag": name},
            )
    values = parse_option_args(specs, request.pieces)
    for key, value in request.options.items():
        key = key.replace("-", "_")
        spec = specs.get(key)
        if spec is None or spec.flag or key == "players":
            raise OptionError(f"unknown option {key!r}", params={"option": key})
        values[key] = spec.parse(value) if isinstance(value, str) else spec.check(value)
    if request.players is not None:
        values["players"] = request.players
    values.update(request.flags)
    for key, value in values.items():
        specs[key].check(value)
    return values


def build_game(request: GameRequest, tr: Translator) -> Game[Any]:
    """The game ``request`` asks for (its name resolved here, once), or
    :class:`GameRequestError` with the message every front end shows."""
    if request.game not in game_names():
        known = ", ".join(game_names())
        message = tr("ui.err.unknown_game", game=request.game, known=known)
        raise GameRequestError(message, code="unknown_game")
    plugin = registration(request.game)
    try:
        return plugin.make(**asked_options(request))
    except OptionError as exc:
        raise _refusal(exc, request.game, plugin.option_specs(), tr) from None
    except SubtableError as exc:
        message = tr("ui.err.options", detail=exc.message)
        raise GameRequestError(message, code="bad_options") from None


def _refusal(
    exc: OptionError, game: str, specs: Mapping[str, OptionSpec], tr: Translator
) -> GameRequestError:
    """Why the options make no game, in ``tr``'s language."""
    params = exc.params
    if "flag" in params:
        name = str(params["flag"])
        spec = flag_specs().get(name)
        words = name if spec is None else option_label(spec, tr).lower()
        title = game_ui(game).title(tr)
        message = tr("ui.err.no_option", game=title, option=words, flag=name)
        return GameRequestError(message, code=exc.code)
    if "words" in params:
        message = tr.declared(params["words"], **params["fields"])
        return GameRequestError(message, code="bad_options")
    return GameRequestError(option_message(exc, specs, tr), code="bad_option")
