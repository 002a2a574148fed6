"""Bot levels people can choose: ``easy``, ``normal`` and ``strong``.

A level is a name for a bot spec that each game's expert declares (its ``levels``), so
that a person picks "strong" rather than a search budget. Levels are resolved at the
edge — the terminal's ``--seats``, the web form, the lab's ``--bot`` — into the spec
they stand for, which is what tables and records keep.

In Red November the bots are your crewmates: easy bots make a harder game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from subtable.bots.experts import expert_class, has_expert
from subtable.core.game import Game

#: the levels, weakest first
LEVELS = ("easy", "normal", "strong")


def _declared(game: str, attribute: str) -> Mapping[str, Any]:
    """What the expert of the game named ``game`` declares as ``attribute``, by level."""
    if not has_expert(game):
        return {}
    declared: Mapping[str, Any] = getattr(expert_class(game), attribute, {})
    return declared


def declared_levels(game: str) -> dict[str, str]:
    """Each level's bot spec at the game named ``game``, weakest first (empty for a game
    without an expert)."""
    declared = _declared(game, "levels")
    return {level: str(declared[level]) for level in LEVELS if level in declared}


def level_specs(game: Game[Any]) -> dict[str, str]:
    """Each level's bot spec at ``game`` (empty for a game without an expert)."""
    return declared_levels(game.info.name)


def level_rates(game: str) -> dict[str, float]:
    """Each level's measured win rate at the game named ``game``, as its expert declares it
    (``level_rates``; empty when it declares none)."""
    declared = _declared(game, "level_rates")
    return {level: float(declared[level]) for level in LEVELS if level in declared}


def resolve_level(spec: str, game: Game[Any]) -> str:
    """``spec`` with a level name replaced by the spec it stands for at ``game``
    (``strong:c=0.5`` keeps its extra parameters); any other spec as it is."""
    name, sep, rest = spec.partition(":")
    known = level_specs(game)
    if name.strip() not in known:
        return spec
    return known[name.strip()] + (":" + rest if sep else "")


def chosen_level(game: str, spec: str) -> str | None:
    """The level a bot ``spec`` was chosen by at the game named ``game``: the level it
    names (``strong``, ``strong:c=0.5``) or the one whose spec it is exactly (``ismcts``:
    how a table records a ``normal`` seat); ``None`` for any other spec. Every front end
    asks this before showing the levels' measured win rates."""
    name = spec.partition(":")[0].strip()
    if name in declared_levels(game):
        return name
    return level_of(game, spec)


def level_of(game: str, spec: str) -> str | None:
    """The level whose spec ``spec`` is exactly at the game named ``game``, if any."""
    return next((level for level, known in declared_levels(game).items() if known == spec), None)
