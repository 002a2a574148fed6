"""Submarine's components, loaded from ``components.toml``.

Tokens are small integers: a treasure of type ``t`` (0..11) and colour ``c``
(0..4) is ``t * 5 + c``; the shell jokers are type 12, so tokens 60..64.
Cells are ``column * levels + level`` with 0-based column and level (level 0
is the shallowest, printed as level 1).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import NotRequired, TypedDict, cast

from subtable.core.components import packaged_toml

PACKAGE = "subtable.games.submarine"


class BoardToml(TypedDict):
    """``[board]``: the columns and levels of the sea."""

    columns: int
    levels: int


class TreasuresToml(TypedDict):
    """``[treasures]``: the types, colours, the joker's name and each level's count."""

    types: list[str]
    colours: list[str]
    joker: str
    per_level: NotRequired[list[int]]


class CardsToml(TypedDict):
    """``[cards]``: the search cards of each colour and a hand's size."""

    per_colour: int
    hand_size: int


class PlayersToml(TypedDict):
    """``[players.N]``: what each of N players receives."""

    bathyscaphes: int
    cards: int


class ComponentsToml(TypedDict):
    """``components.toml`` as parsed (:func:`_build` checks its keys and values)."""

    ruleset: str
    board: BoardToml
    treasures: TreasuresToml
    cards: CardsToml
    #: by player count (``"2"``...)
    players: dict[str, PlayersToml]


def components_toml(text: str | None = None) -> ComponentsToml:
    """Component TOML parsed (the packaged file when ``text`` is ``None``): the shape
    :func:`_build` reads, which raises ``KeyError`` or ``ValueError`` where it is not."""
    return cast(ComponentsToml, packaged_toml(PACKAGE) if text is None else tomllib.loads(text))


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    """What each player receives for one player count."""

    bathyscaphes: int
    cards: int


@dataclass(frozen=True, slots=True)
class Components:
    """Everything Submarine's rules read from the printed components."""

    ruleset: str
    columns: int
    levels: int
    types: tuple[str, ...]
    colours: tuple[str, ...]
    joker: str
    cards_per_colour: int
    hand_size: int
    setups: dict[int, PlayerSetup]
    #: per level (0 the shallowest): the treasures each of its cells holds at setup
    treasures_per_level: tuple[int, ...]

    @property
    def cells(self) -> int:
        """How many cells the sea has."""
        return self.columns * self.levels

    @property
    def joker_type(self) -> int:
        """The type index of the shell jokers (after the treasure types)."""
        return len(self.types)

    @property
    def treasure_tokens(self) -> int:
        """How many treasure tokens there are (jokers excluded)."""
        return len(self.types) * len(self.colours)

    @property
    def tokens(self) -> int:
        """How many tokens there are, jokers included."""
        return (len(self.types) + 1) * len(self.colours)

    def token_type(self, token: int) -> int:
        """The type index of ``token`` (``joker_type`` for a shell)."""
        return token // len(self.colours)

    def token_colour(self, token: int) -> int:
        """The colour index of ``token``."""
        return token % len(self.colours)

    def type_name(self, token: int) -> str:
        """``"crown"`` (or ``"joker"``) for ``token``."""
        t = self.token_type(token)
        return self.joker if t == self.joker_type else self.types[t]

    def token_name(self, token: int) -> str:
        """The token in notation: ``crown-red``, ``joker-blue``."""
        return f"{self.type_name(token)}-{self.colours[self.token_colour(token)]}"


def _build(data: ComponentsToml) -> Components:
    board, treasures, cards = data["board"], data["treasures"], data["cards"]
    colours = tuple(treasures["colours"])
    types = tuple(treasures["types"])
    if len(set(colours)) != len(colours) or len(set(types)) != len(types):
        raise ValueError("components: treasure types and colours must be distinct")
    columns, levels = int(board["columns"]), int(board["levels"])
    per_level = tuple(int(k) for k in treasures.get("per_level", range(1, levels + 1)))
    if len(per_level) != levels or any(k < 0 for k in per_level):
        raise ValueError(f"components: per_level must give {levels} treasure counts, none negative")
    if columns * sum(per_level) != len(types) * len(colours):
        raise ValueError("components: the cells must hold exactly every treasure at setup")
    setups = {
        int(k): PlayerSetup(int(v["bathyscaphes"]), int(v["cards"]))
        for k, v in data["players"].items()
    }
    per_colour = int(cards["per_colour"])
    for n, s in setups.items():
        if -(-n * s.cards // len(colours)) > per_colour:
            raise ValueError(f"components: not enough search cards for {n} players")
    return Components(
        ruleset=data["ruleset"],
        columns=columns,
        levels=levels,
        types=types,
        colours=colours,
        joker=treasures["joker"],
        cards_per_colour=per_colour,
        hand_size=int(cards["hand_size"]),
        setups=setups,
        treasures_per_level=per_level,
    )


def load_components(text: str | None = None) -> Components:
    """Parse component TOML (the packaged file when ``text`` is ``None``)."""
    if text is None:
        return default_components()
    return _build(components_toml(text))


@cache
def default_components() -> Components:
    """The packaged components (parsed once)."""
    return _build(components_toml())
