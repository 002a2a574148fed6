"""Translations: gettext catalogues (``.po``) read with Babel at run time.

Each language's catalogue is every ``.po`` file in ``subtable/locales/<lang>/LC_MESSAGES/``,
split by concern (``subtable.po`` for the engines and the terminal, ``web.po`` for the
web pages, ``cards.po`` for the cards' rules texts, ``board-<game>.po`` for the drawn
boards) so that one id lives in exactly one file.
Message ids are symbolic keys (``rn.item.grog``, ``ui.prompt``); the English
catalogue holds the English text, so every language — English included — is a
real translation and a missing entry is caught by the tests. Placeholders use
:meth:`str.format` fields (``{seat}``). Reading ``.po`` files directly keeps
the source of truth in one place: ``pip install .`` ships them as package data
and there is no compile step to forget.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from babel.messages.catalog import Catalog

#: The languages with a catalogue, the fallback first.
LANGUAGES: tuple[str, ...] = ("en", "fr", "it", "pt")
DEFAULT = "en"
DOMAIN = "subtable"
#: Environment variables read for the language, in POSIX precedence order.
_LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG")
#: first letters of a list's last item that take the conjunction ``ui.list.and.e``
_E_SOUNDS = frozenset("eèé")


def normalize(tag: str | None) -> str | None:
    """``fr_FR.UTF-8``, ``fr-CA`` or ``FR`` → ``fr``; ``None`` for an unsupported language."""
    if not tag:
        return None
    code = tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def detect_language(env: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.

    ``C``/``POSIX`` and unsupported values are skipped, so ``LC_ALL=C.UTF-8``
    (common in containers) does not hide ``LANG=fr_FR.UTF-8``.
    """
    env = os.environ if env is None else env
    for var in _LOCALE_VARS:
        lang = normalize(env.get(var))
        if lang:
            return lang
    return DEFAULT


def catalog_files(lang: str) -> list[Traversable]:
    """The ``.po`` files of ``lang``'s catalogue, ``subtable.po`` (with the header) first."""
    folder = resources.files("subtable.locales").joinpath(lang, "LC_MESSAGES")
    files = [f for f in folder.iterdir() if f.name.endswith(".po")]
    return sorted(files, key=lambda f: (f.name != f"{DOMAIN}.po", f.name))


def catalog(lang: str) -> Catalog:
    """``lang``'s catalogue: its ``.po`` files merged (the first file's header kept).

    An id defined in two files is an error: each message has one home.
    """
    from babel.messages.pofile import read_po  # imported here: only the tables need Babel

    files = catalog_files(lang)
    merged = read_po(io.StringIO(files[0].read_text(encoding="utf-8")), locale=lang, domain=DOMAIN)
    for file in files[1:]:
        part = read_po(io.StringIO(file.read_text(encoding="utf-8")), locale=lang, domain=DOMAIN)
        for message in part:
            if not message.id:
                continue
            if message.id in merged:
                raise ValueError(f"{lang}: {message.id!r} is defined twice (again in {file.name})")
            merged[message.id] = message
    return merged


@cache
def load(lang: str) -> gettext.GNUTranslations:
    """Merge ``lang``'s ``.po`` files with Babel and return them as a gettext catalogue.

    Babel compiles them to an in-memory ``.mo`` so the standard library applies
    the catalogue's own plural rule. Languages other than English fall back
    to the English catalogue for any missing entry.
    """
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, catalog(lang))
    buf.seek(0)
    translations = gettext.GNUTranslations(buf)
    if lang != DEFAULT:
        translations.add_fallback(load(DEFAULT))
    return translations


class Translator:
    """Messages of one language: ``tr("key", **params)``."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT
        self._t = load(self.lang)

    def __call__(self, msgid: str, /, **params: Any) -> str:
        """The message ``msgid`` with ``params`` filled in."""
        return _fill(self._t.gettext(msgid), params)

    def declared(self, msgid: str, /, **params: Any) -> str:
        """A message whose id a declaration holds rather than the code (a game's option
        words): :func:`subtable.words.game_options.declared_ids` enumerates those ids."""
        return self(msgid, **params)

    def plural(self, singular: str, plural: str, count: int, /, **params: Any) -> str:
        """The singular or plural message for ``count`` (``{count}`` is filled in too)."""
        return _fill(self._t.ngettext(singular, plural, count), {"count": count, **params})

    def has(self, msgid: str) -> bool:
        """Whether ``msgid`` has a translation (in this language or English)."""
        return self._t.gettext(msgid) != msgid

    def join(self, items: list[str]) -> str:
        """A localized list: ``a, b and c``."""
        tr = self  # named ``tr`` so the id extractor finds these calls
        if not items:
            return tr("ui.list.none")
        if len(items) == 1:
            return items[0]
        head, last = ", ".join(items[:-1]), items[-1]
        if last[:1].casefold() in _E_SOUNDS:
            # before an "e" Italian writes "ed" ("Ferma Lancio Missili ed Elimina Kraken")
            return tr("ui.list.and.e", head=head, last=last)
        return tr("ui.list.and", head=head, last=last)


def _fill(text: str, params: Mapping[str, Any]) -> str:
    if not params:
        return text
    try:
        return text.format_map(params)
    except (KeyError, IndexError, ValueError):
        # a catalogue with a broken placeholder must not crash a game: show it raw
        return text


@cache
def translator(lang: str) -> Translator:
    """The (shared) translator of ``lang``."""
    return Translator(lang)
