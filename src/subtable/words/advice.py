"""Advice in words: the expert's options with their chances and reasons, in any language.

:func:`advice_lines` turns an :class:`~subtable.bots.advice.Advice` into the lines the
terminal table prints after ``hint`` (the web table may use them too). :func:`advice_allowed`
is the tables' default for whether players may ask: at a cooperative game, or where only
one person plays; not at a competitive table of several people.
"""

from __future__ import annotations

from typing import Any

from babel.numbers import format_percent

from subtable.bots.advice import Advice
from subtable.core.game import Game, Utility
from subtable.i18n import Translator
from subtable.words import GameUI


def advice_allowed(game: Game[Any], humans: int) -> bool:
    """Whether a table allows advice unless its creator says otherwise."""
    return game.info.utility == Utility.COOPERATIVE or humans <= 1


def chance(value: float, tr: Translator) -> str:
    """A chance of winning as a whole percentage in ``tr``'s language (``47%``, ``47 %``)."""
    return format_percent(value, locale=tr.lang)


def advice_lines(advice: Advice, game: Game[Any], ui: GameUI, tr: Translator) -> list[str]:
    """The title, then one line per option: rank, notation, label, chance, interval, reason."""
    worlds = max((o.worlds for o in advice.options), default=0)
    seat = ui.seat_name(advice.seat, tr)
    if advice.team:
        head = tr.plural("advice.title.team", "advice.title.team.plural", worlds, seat=seat)
    else:
        head = tr.plural("advice.title.seat", "advice.title.seat.plural", worlds, seat=seat)
    lines = [head]
    space = game.action_space
    for rank, option in enumerate(advice.options, start=1):
        reason = ui.advice_reason(option.reason.key, option.reason.params, tr)
        lines.append(
            tr(
                "advice.option",
                rank=rank,
                action=option.notation,
                label=ui.action_label(space[option.action], tr),
                chance=chance(option.chance, tr),
                low=chance(option.low, tr),
                high=chance(option.high, tr),
                reason=reason,
            )
        )
    return lines
