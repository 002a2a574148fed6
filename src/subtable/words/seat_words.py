"""Who sits at a seat, in a person's words: a bot chosen by its level reads ``bot easy``
(not its spec, ``heuristic:mistakes=0.5``). A leaf module: the terminal table, the
replay, and the web's rendering and lobby all use it."""

from __future__ import annotations

from babel.numbers import format_percent

from subtable.bots.levels import level_of, level_rates
from subtable.i18n import Translator
from subtable.words.common import bot_words


def bot_who(game: str, spec: str, tr: Translator) -> str:
    """A table's bot: ``bot easy`` for a level's spec, ``bot heuristic`` (in the reader's
    language) for a kind people choose, else ``bot SPEC``."""
    level = level_of(game, spec)
    if level is None:
        return bot_words(spec, tr)
    return tr("ui.who.bot", bot=_level_words(level, tr))


def levels_measured(game: str, tr: Translator) -> str | None:
    """The bot levels' measured win rates in words, shown wherever people choose a level
    (``How often a team of 4 of one level wins (measured): easy 32%, normal 68% and
    strong 74%.``); ``None`` when the game's expert declares none."""
    rates = level_rates(game)
    if not rates:
        return None
    listed = tr.join(
        [
            tr(
                "ui.levels.rate",
                level=_level_words(level, tr),
                rate=format_percent(rate, locale=tr.lang),
            )
            for level, rate in rates.items()
        ]
    )
    return tr(f"ui.levels.measured.{game}", rates=listed)


def _level_words(level: str, tr: Translator) -> str:
    words = {
        "easy": tr("web.level.easy"),
        "normal": tr("web.level.normal"),
        "strong": tr("web.level.strong"),
    }
    return words[level]
