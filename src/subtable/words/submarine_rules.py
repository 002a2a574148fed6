"""Submarine's rule book, as the French rulebook and the project's rulings (SUB-*) say it.

Every number of the components — the board, the treasures, the deal for each number of
players, the hand — comes from :class:`Components`, so a variant's book gives its own.
"""

from __future__ import annotations

from subtable.games.submarine.components import Components, default_components
from subtable.i18n import Translator
from subtable.words.rules import RuleEntry, RuleSection
from subtable.words.submarine import SubmarineWords


def submarine_book(tr: Translator, components: Components | None = None) -> list[RuleSection]:
    """Submarine's rules in ``tr``'s language, with ``components``' numbers."""
    c = components or default_components()
    ui = SubmarineWords(c)
    return [
        _goal(tr, c, ui),
        _setup(tr, c),
        _turn(tr, c),
        _boat(tr),
        _bathyscaphes(tr, c),
        _collect(tr),
        _tolls(tr, c),
        _swaps(tr),
        _jokers(tr),
        _end(tr, c),
    ]


def _p(text: str) -> RuleEntry:
    return RuleEntry(None, text)


def _goal(tr: Translator, c: Components, ui: SubmarineWords) -> RuleSection:
    treasures = tr.join([tr(f"sub.treasure.{t}") for t in c.types])
    colours = tr.join([ui.colour(col, tr) for col in c.colours])
    return RuleSection(
        "goal",
        tr("rules.sub.goal.title"),
        (
            _p(tr("rules.sub.goal.aim", types=len(c.types), colours=len(c.colours))),
            _p(tr("rules.sub.goal.treasures", treasures=treasures, colours=colours)),
        ),
    )


def _setup(tr: Translator, c: Components) -> RuleSection:
    entries = [
        _p(
            tr(
                "rules.sub.setup.board",
                columns=c.columns,
                levels=c.levels,
                tokens=c.treasure_tokens,
                per_level=tr.join([str(k) for k in c.treasures_per_level]),
            )
        )
    ]
    for players, setup in sorted(c.setups.items()):
        kept = -(-players * setup.cards // len(c.colours))  # RULING SUB-1: rounded up
        entries.append(
            RuleEntry(
                tr.plural("rules.sub.setup.players", "rules.sub.setup.players.plural", players),
                tr(
                    "rules.sub.setup.deal",
                    bathyscaphes=setup.bathyscaphes,
                    cards=setup.cards,
                    kept=kept,
                ),
            )
        )
    entries.append(_p(tr("rules.sub.setup.cards", hand=c.hand_size)))
    entries.append(_p(tr("rules.sub.setup.placing")))
    return RuleSection("setup", tr("rules.sub.setup.title"), tuple(entries))


def _turn(tr: Translator, c: Components) -> RuleSection:
    return RuleSection(
        "turn",
        tr("rules.sub.turn.title"),
        (_p(tr("rules.sub.turn.steps", hand=c.hand_size)), _p(tr("rules.sub.turn.forced"))),
    )


def _boat(tr: Translator) -> RuleSection:
    return RuleSection(
        "boat",
        tr("rules.sub.boat.title"),
        (_p(tr("rules.sub.boat.move")), _p(tr("rules.sub.boat.off"))),
    )


def _bathyscaphes(tr: Translator, c: Components) -> RuleSection:
    return RuleSection(
        "bathyscaphes",
        tr("rules.sub.bathyscaphes.title"),
        (
            _p(tr("rules.sub.bathyscaphes.act")),
            _p(tr("rules.sub.bathyscaphes.move", levels=c.levels)),
        ),
    )


def _collect(tr: Translator) -> RuleSection:
    return RuleSection(
        "collect",
        tr("rules.sub.collect.title"),
        (
            _p(tr("rules.sub.collect.action")),
            _p(tr("rules.sub.collect.pay")),
            _p(tr("rules.sub.collect.store")),
        ),
    )


def _tolls(tr: Translator, c: Components) -> RuleSection:
    return RuleSection(
        "tolls",
        tr("rules.sub.tolls.title"),
        (
            _p(tr("rules.sub.tolls.due")),
            _p(tr("rules.sub.tolls.from")),
            _p(tr("rules.sub.tolls.receive", hand=c.hand_size)),
        ),
    )


def _swaps(tr: Translator) -> RuleSection:
    return RuleSection("swaps", tr("rules.sub.swaps.title"), (_p(tr("rules.sub.swaps.swap")),))


def _jokers(tr: Translator) -> RuleSection:
    return RuleSection(
        "jokers",
        tr("rules.sub.jokers.title"),
        (
            _p(tr("rules.sub.jokers.what")),
            _p(tr("rules.sub.jokers.pay")),
            _p(tr("rules.sub.jokers.board")),
            _p(tr("rules.sub.jokers.ties")),
        ),
    )


def _end(tr: Translator, c: Components) -> RuleSection:
    return RuleSection(
        "end",
        tr("rules.sub.end.title"),
        (
            _p(tr("rules.sub.end.when", types=len(c.types))),
            _p(tr("rules.sub.end.no_cards")),
            _p(tr("rules.sub.end.ranking")),
        ),
    )
