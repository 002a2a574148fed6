"""The translated messages for a game that cannot be set up: options and seats.

``subtable play`` and the web table's ``POST /api/tables`` refuse the same
requests with the same words; both build them here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from subtable.core.errors import OptionError
from subtable.core.game import Game, OptionSpec
from subtable.i18n import Translator
from subtable.words import game_ui
from subtable.words.seats import SeatError


def option_message(exc: OptionError, specs: Mapping[str, OptionSpec], tr: Translator) -> str:
    """Why the options make no game, in the reader's language."""
    p = exc.params
    option = str(p.get("option", ""))
    if option and option not in specs:
        return tr("ui.err.unknown_option", option=option, known=", ".join(sorted(specs)))
    if option and "value" in p:
        choices = specs[option].choices
        allowed = ", ".join(map(str, choices)) if choices else specs[option].type.__name__
        return tr("ui.err.option_value", option=option, value=p["value"], allowed=allowed)
    if option:
        return tr("ui.err.option_needs_value", option=option)
    return tr("ui.err.options", detail=exc.message)


def seat_message(exc: SeatError, game: Game[Any], tr: Translator) -> str:
    """Why a ``--seats`` list does not fit ``game``, in the reader's language."""
    p = exc.params
    if exc.code == "seat_count":
        return tr("ui.err.seat_count", given=p["given"], players=p["players"])
    if exc.code == "bot_cannot_play":
        return tr("ui.err.bot_cannot_play", entry=p["entry"], game=game_ui(game).title(tr))
    return tr("ui.err.unknown_seat", entry=p["entry"], bots=", ".join(p["bots"]))
