"""The boards drawn for the browser: SVG and HTML built from a seat's view, never the state.

A board module renders what :meth:`State.view` sent to one connection (its JSON,
untouched), in the connection's language, plus the legal actions of that
connection when it decides. Each clickable thing on the board (a hatch, a room, a
treasure) carries ``data-actions`` — the ids of the legal actions it stands for —
and is a keyboard-reachable button with an ``aria-label``; the page's script
turns a click into one of those actions (or narrows the action list when there
are several). Every marker has a shape or a letter as well as a colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from subtable.core.actions import Action
from subtable.core.game import Game
from subtable.core.registry import registration
from subtable.i18n import Translator


class BoardRenderer(Protocol):
    """One game's board and side panels as markup."""

    #: the registered name (``game.info.name``)
    name: str

    def board(self, view: dict[str, Any], tr: Translator, legal: Sequence[Action]) -> str:
        """The board as one ``<svg>`` element (a string of markup)."""
        ...

    def panels(
        self, view: dict[str, Any], tr: Translator, legal: Sequence[Action], who: dict[int, str]
    ) -> str:
        """HTML beside the board: each seat's cards and boards as ``view``'s seat sees them.

        ``who`` labels each seat's controller (``you``, ``bot``…), as at the terminal.
        """
        ...


def board_renderer(game: Game[Any] | str) -> BoardRenderer:
    """The renderer of ``game`` (a game, with its components, or a registered name): the
    ``board`` part of its registration, called with the components."""
    components = None if isinstance(game, str) else getattr(game, "components", None)
    renderer: BoardRenderer = registration(game).load("board")(components)
    return renderer
