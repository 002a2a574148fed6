"""The rules at hand: each game's rule book, section by section, in the table's language.

The content is plain text (no markup: the terminal and the web escape it), built from the
catalogues' ``rules.*`` messages with the numbers of the game's own components formatted
in, so that a variant's book gives the variant's numbers. Each game's sections live in
``subtable.ui.games.<game>_rules``.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

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


def rule_book(game: str, tr: Translator, *, components: Any = None) -> list[RuleSection]:
    """The rules of ``game`` (registry name) in ``tr``'s language, section by section.

    ``components`` are the game's own (a variant's); the packaged ones by default.
    """
    if game == "red-november":
        from subtable.ui.games.red_november_rules import red_november_book

        return red_november_book(tr, components)
    if game == "submarine":
        from subtable.ui.games.submarine_rules import submarine_book

        return submarine_book(tr, components)
    raise KeyError(game)


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
