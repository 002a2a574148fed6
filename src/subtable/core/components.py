"""Component data: each game's board, decks and tracks live in a TOML file of its package."""

from __future__ import annotations

import tomllib
from datetime import date, datetime, time
from importlib import resources
from typing import TypeAlias

#: a value of a TOML document (a variant's overrides, once checked, hold no dates)
TomlValue: TypeAlias = (
    str | int | float | bool | date | datetime | time | list["TomlValue"] | dict[str, "TomlValue"]
)
#: a TOML table: a parsed file, a variant's overrides (each game's schema checks their keys)
TomlTable: TypeAlias = dict[str, TomlValue]


def packaged_toml(package: str, filename: str = "components.toml") -> TomlTable:
    """Parse a TOML file shipped inside ``package``."""
    raw = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    data: TomlTable = tomllib.loads(raw)
    return data
