"""Submarine's variants: the components a variant may override, and how.

The schema of the overrides (:class:`SubmarineVariant`), how an override changes the parsed
``components.toml`` and the board's consistency checks; :mod:`subtable.core.variants` reads
the files and ``--set`` pieces and names the key at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, Field

from subtable.core.variants import NonNegative, Positive, Strict, VariantError, Variants
from subtable.games.submarine.components import ComponentsToml, _build, components_toml


class SubPlayers(Strict):
    """What each player receives at one player count."""

    bathyscaphes: Positive | None = None
    cards: Positive | None = None


class SubCards(Strict):
    """The search cards."""

    per_colour: Positive | None = None
    hand_size: Positive | None = None


class SubTreasures(Strict):
    """The treasure tokens: how many each cell holds at setup, by level (shallowest first)."""

    per_level: list[NonNegative] | None = None


class SubmarineVariant(Strict):
    """Submarine's overridable components."""

    players: dict[Annotated[int, Field(ge=2, le=5)], SubPlayers] | None = None
    cards: SubCards | None = None
    treasures: SubTreasures | None = None


def _apply(data: ComponentsToml, ov: Mapping[str, Any]) -> None:
    players = data["players"]
    for count, setup in ov.get("players", {}).items():
        key = str(count)
        if key in players:
            players[key].update(setup)
        else:  # a count the file lacks: the override alone (the checks name what it lacks)
            players[key] = setup
    data["cards"].update(ov.get("cards", {}))
    data["treasures"].update(ov.get("treasures", {}))


def _check(data: ComponentsToml, ov: Mapping[str, Any]) -> None:
    board, treasures = data["board"], data["treasures"]
    levels, columns = int(board["levels"]), int(board["columns"])
    per_level = [int(k) for k in treasures.get("per_level", range(1, levels + 1))]
    if len(per_level) != levels:
        raise VariantError(
            "treasures.per_level", f"gives {len(per_level)} counts for the {levels} levels"
        )
    dealt = columns * sum(per_level)
    supply = len(treasures["types"]) * len(treasures["colours"])
    column = " + ".join(map(str, per_level))
    if dealt > supply:
        raise VariantError(
            "treasures.per_level",
            f"{columns} columns of {column} treasures need {dealt} treasure tokens; "
            f"there are only {supply}",
        )
    if dealt < supply:
        raise VariantError(
            "treasures.per_level",
            f"{columns} columns of {column} treasures deal {dealt} of the {supply} treasure "
            "tokens; every one must start in the sea",
        )
    per_colour = int(data["cards"]["per_colour"])
    colours = len(data["treasures"]["colours"])
    hand = int(data["cards"]["hand_size"])
    for count, setup in data["players"].items():
        n, cards = int(count), int(setup["cards"])
        if -(-n * cards // colours) > per_colour:
            key = f"players.{count}.cards" if "players" in ov else "cards.per_colour"
            raise VariantError(
                key,
                f"{n} players x {cards} cards need more than {per_colour} search cards "
                f"of each of the {colours} colours",
            )
        if cards < hand:
            raise VariantError(
                f"players.{count}.cards", f"{cards} cards cannot fill a hand of {hand}"
            )


def _model() -> type[BaseModel]:
    return SubmarineVariant


#: the ``variants`` part of Submarine's registration
VARIANTS = Variants(components_toml, _model, _apply, _check, _build)
