"""What a person may be called at a table: their own name, never another's, nor a word the
table shows for someone else.

A page labels each seat by who holds it: ``you``, a bot (``bot easy``), a person's name,
else ``player 2``; and the games name the seats themselves (``Player 2``, or a game's own
word for a seat).
A name equal to one of those another seat shows, in any of the four languages, would let
its owner pass for someone else (player 1's page reading ``Player 2 (you)``). Names
compare by their words: case, accents, spaces and punctuation aside.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence

from subtable.i18n import LANGUAGES, Translator, translator
from subtable.words import GameUI
from subtable.words.common import bot_words
from subtable.words.people import hidden
from subtable.words.seat_words import bot_who

HUMAN = "human"
_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> tuple[str, ...]:
    """``text``'s words as names compare: compatibility forms (``①`` is ``1``), no case,
    no accents, any script's digits as ASCII numbers without leading zeros, punctuation
    and spaces only between words."""
    folded = unicodedata.normalize("NFKD", text).casefold()
    kept = "".join(
        str(unicodedata.decimal(ch)) if unicodedata.decimal(ch, None) is not None else ch
        for ch in folded
        if not unicodedata.combining(ch)
    )
    return tuple(str(int(w)) if w.isascii() and w.isdigit() else w for w in _WORD.findall(kept))


def key(name: str) -> str:
    """What two names that read alike share: their :func:`words` run together (``Ana Bea``
    is ``anabea``), or for a name without letters or digits (``[/]``) the name itself
    without case and spaces."""
    return "".join(words(name)) or "".join(name.casefold().split())


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` that acts instead of showing (a control, a bidi
    override, a zero-width mark: :func:`~subtable.words.people.hidden`), as its code point."""
    for ch in text:
        if hidden(ch):
            return f"U+{ord(ch):04X}"
    return None


def _translators() -> Iterator[Translator]:
    for lang in LANGUAGES:
        yield translator(lang)


def shown_for_others(
    game: str, ui: GameUI, controllers: Sequence[str], owners: Sequence[int], player: int
) -> Iterator[str]:
    """Every label a table shows for someone other than ``player``, in each language:
    ``you``, each bot, each other player's ``player N`` and seat names."""
    for tr in _translators():
        yield tr("ui.who.you")
        for other, controller in enumerate(controllers):
            if other == player:
                continue
            yield tr("ui.who.player", n=other + 1)
            if controller != HUMAN:
                yield bot_who(game, controller, tr)
                yield bot_words(controller, tr)
                yield tr("ui.who.bot", bot=controller)
        for seat, owner in enumerate(owners):
            if owner != player:
                yield ui.seat_name(seat, tr)


def mimicked(name: str, labels: Iterable[str]) -> str | None:
    """The label among ``labels`` that ``name`` would pass for: one it reads as, spaces
    aside (``Player2``), or one of several words it begins with or holds (``Player 2
    (Ana)``); ``None`` when it passes for none."""
    mine = words(name)
    joined = "".join(mine)
    for label in labels:
        theirs = words(label)
        if not theirs:
            continue
        if joined == "".join(theirs):
            return label
        if len(theirs) > 1 and (joined.startswith("".join(theirs)) or _holds(mine, theirs)):
            return label
    return None


def _holds(mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    n = len(theirs)
    return any(mine[i : i + n] == theirs for i in range(len(mine) - n + 1))


def namesake(name: str, names: Mapping[int, str], player: int) -> int | None:
    """The other player already called ``name`` (as names compare), if any."""
    mine = key(name)
    for other, theirs in names.items():
        if other != player and key(theirs) == mine:
            return other
    return None
