"""The rules at hand: each game's rule book, section by section, in the table's language.

The content is plain text (no markup: the terminal and the web escape it), built from the
catalogues' ``rules.*`` messages with the numbers of the game's own components formatted
in, so that a variant's book gives the variant's numbers. Each game's sections live in
its own module (``subtable.ui.games.<game>_rules``), the ``rules`` part of its registration.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from subtable.core.game import Game
from subtable.core.registry import registration
from subtable.i18n import Translator


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One paragraph of a section, titled (a card's name) or not."""

    title: str | None
    text: str


@dataclass(frozen=True, slots=True)
class RuleSection:
    """One section of a rule book: a stable ``key`` (``turn``, ``events``), a title, entries."""

    key: str
    title: str
    entries: tuple[RuleEntry, ...]


def rule_book(
    game: Game[Any] | str, tr: Translator, *, components: Any = None
) -> list[RuleSection]:
    """The rules of ``game`` (a game, or a registered name) in ``tr``'s language, section
    by section: the ``rules`` part of its registration, ``book(tr, components)``; empty for
    a game that declares none.

    ``components`` are the game's own (a variant's): a game's by default, else the packaged
    ones.
    """
    plugin = registration(game)
    if not plugin.has("rules"):
        return []
    if components is None and not isinstance(game, str):
        components = getattr(game, "components", None)
    book: list[RuleSection] = plugin.load("rules")(tr, components)
    return book


def find_sections(book: list[RuleSection], word: str) -> list[RuleSection]:
    """The sections ``word`` names: by key or title, whole or by their beginning.

    An exact key or title wins over beginnings; accents and case do not matter.
    """
    key = _fold(word)
    if not key:
        return []
    exact = [s for s in book if key in (_fold(s.key), _fold(s.title))]
    if exact:
        return exact
    return [s for s in book if _fold(s.key).startswith(key) or _fold(s.title).startswith(key)]


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).split())
