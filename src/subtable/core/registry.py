"""The games this package knows, by command-line name."""

from __future__ import annotations

import importlib
from typing import Any

from subtable.core.errors import OptionError
from subtable.core.game import Game

_GAMES: dict[str, str] = {
    "red-november": "subtable.games.red_november:RedNovember",
    "submarine": "subtable.games.submarine:Submarine",
}


def game_names() -> list[str]:
    """The registered game names."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game[Any]]:
    """The :class:`Game` subclass registered as ``name``."""
    try:
        target = _GAMES[name]
    except KeyError:
        raise OptionError(
            f"unknown game {name!r} (known: {', '.join(game_names())})",
            code="unknown_game",
            params={"game": name},
        ) from None
    module, _, attr = target.partition(":")
    cls: type[Game[Any]] = getattr(importlib.import_module(module), attr)
    return cls


def make_game(name: str, variant: dict[str, Any] | None = None, **options: Any) -> Game[Any]:
    """Build the game ``name`` with ``options`` (on ``variant``'s components if given: a
    partial override of the packaged components, see :mod:`subtable.core.variants`)."""
    if variant:
        from subtable.core.variants import make_variant_game

        game: Game[Any] = make_variant_game(name, variant, **options)
        return game
    return game_class(name)(**options)
