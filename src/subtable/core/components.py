"""Component data: each game's board, decks and tracks live in a TOML file of its package."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any


def packaged_toml(package: str, filename: str = "components.toml") -> dict[str, Any]:
    """Parse a TOML file shipped inside ``package``."""
    raw = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    return tomllib.loads(raw)
