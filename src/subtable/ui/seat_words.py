"""Who sits at a seat, in a person's words: a bot chosen by its level reads ``bot easy``
(not its spec, ``heuristic:mistakes=0.5``). A leaf module: the terminal table, the
replay, and the web's rendering and lobby all use it."""

from __future__ import annotations

from collections.abc import Mapping

from subtable.bots.experts import expert_class, has_expert
from subtable.bots.levels import LEVELS
from subtable.i18n import Translator
from subtable.ui.games.common import bot_words


def level_of(game: str, spec: str) -> str | None:
    """The level whose spec ``spec`` is at ``game``, if any."""
    if not has_expert(game):
        return None
    declared: Mapping[str, str] = getattr(expert_class(game), "levels", {})
    return next((level for level in LEVELS if declared.get(level) == spec), None)


def bot_who(game: str, spec: str, tr: Translator) -> str:
    """A table's bot: ``bot easy`` for a level's spec, ``bot heuristic`` (in the reader's
    language) for a kind people choose, else ``bot SPEC``."""
    level = level_of(game, spec)
    words = {
        "easy": tr("web.level.easy"),
        "normal": tr("web.level.normal"),
        "strong": tr("web.level.strong"),
    }
    if level is None:
        return bot_words(spec, tr)
    return tr("ui.who.bot", bot=words[level])
