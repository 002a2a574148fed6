"""Each game's rules, as sections of short entries, in the reader's language.

A STAND-IN with the agreed API (``rule_book``, :class:`RuleSection`, :class:`RuleEntry`),
built only from texts the catalogues already hold (the terminal's ``help`` reminders, the
item and event cards' rules texts); the full rule book replaces it.
"""

from __future__ import annotations

from dataclasses import dataclass

from subtable.games.red_november.components import default_components
from subtable.i18n import Translator


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One rule: an optional title (a card's name) and its plain text."""

    title: str | None
    text: str


@dataclass(frozen=True, slots=True)
class RuleSection:
    """A part of a game's rules."""

    key: str
    title: str
    entries: tuple[RuleEntry, ...]


def rule_book(game: str, tr: Translator) -> list[RuleSection]:
    """The rules of ``game`` in ``tr``'s language (empty for a game without any)."""
    if game == "red-november":
        return _red_november(tr)
    if game == "submarine":
        return _submarine(tr)
    return []


def _red_november(tr: Translator) -> list[RuleSection]:
    c = default_components()
    turn = (
        tr("rn.help.movement"),
        tr("rn.help.action"),
        tr("rn.help.items"),
        tr("rn.help.time"),
        tr("rn.help.goal"),
    )
    items = tuple(
        RuleEntry(tr(f"rn.item.{kind}"), tr(f"rn.item_text.{kind}"))
        for kind in dict.fromkeys(item.kind for item in c.items)
    )
    events = tuple(
        RuleEntry(tr(f"rn.card.{kind}"), tr(f"rn.event_text.{kind}"))
        for kind in dict.fromkeys(card.kind for card in c.events)
    )
    return [
        RuleSection("turn", tr("game.red-november"), tuple(RuleEntry(None, t) for t in turn)),
        RuleSection("items", tr("rn.board.item_deck"), items),
        RuleSection("events", tr("rn.board.event_deck"), events),
    ]


def _submarine(tr: Translator) -> list[RuleSection]:
    turn = (
        tr("sub.help.placement"),
        tr("sub.help.boat"),
        tr("sub.help.bathyscaphes"),
        tr("sub.help.destination"),
        tr("sub.help.toll"),
        tr("sub.help.swap"),
        tr("sub.help.goal"),
    )
    return [RuleSection("turn", tr("game.submarine"), tuple(RuleEntry(None, t) for t in turn))]
