"""The boards drawn for the browser: SVG and HTML built from a seat's view, never the state.

A board module renders the typed view one connection may see (what
:meth:`State.observe` built for its seat: the same knowledge :meth:`State.view` sends it
as JSON), in the connection's language, plus the legal actions of that connection when
it decides. Each clickable thing on the board (a hatch, a room, a
treasure) carries ``data-actions`` — the ids of the legal actions it stands for —
and is a keyboard-reachable button with an ``aria-label``; the page's script
turns a click into one of those actions (or narrows the action list when there
are several). Every marker has a shape or a letter as well as a colour.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

from subtable.core.actions import Action
from subtable.core.events import Event
from subtable.core.game import Game, State
from subtable.core.registry import registration
from subtable.core.view import SeatView
from subtable.i18n import Translator

#: the typed view a renderer reads (each game's own :class:`SeatView`)
V = TypeVar("V", bound=SeatView, contravariant=True)


class Stage(NamedTuple):
    """What one entry shows on the page's stage, built from its events as redacted for the
    reader: dice and cards face up, a caption for each, and the board's changed parts."""

    #: the figures (HTML: a die beside what it needed, a card turned face up), or ``""``
    html: str
    #: one short line per figure, for the "what just happened" box
    lines: tuple[str, ...]
    #: CSS selectors of the board elements the entry changed (highlighted a moment)
    marks: tuple[str, ...]
    #: how many figures: the page lingers longer on a roll or a card
    weight: int


class Choice(NamedTuple):
    """An action shown as one of several choices of one row (a fix-it's minutes)."""

    #: the row's key: actions with the same key share the row
    key: str
    #: the row's title (``Pump Water``)
    title: str
    #: the choice's own text (``3 min``)
    text: str
    #: a second short line (``30%``), or ``""``
    detail: str


class BoardRenderer(Protocol[V]):
    """One game's board and side panels as markup: what every game's ``board`` part draws.

    A renderer may also have the parts of :class:`Following` (the stage, the options'
    rows, the actions not possible now, the end screen); the page does without them.
    """

    #: the registered name (``game.info.name``)
    name: str

    def board(self, view: V, tr: Translator, legal: Sequence[Action]) -> str:
        """The board as one ``<svg>`` element (a string of markup)."""
        ...

    def panels(self, view: V, tr: Translator, legal: Sequence[Action], who: dict[int, str]) -> str:
        """HTML beside the board: each seat's cards and boards as ``view``'s seat sees them.

        ``who`` labels each seat's controller (``you``, ``bot``…), as at the terminal.
        """
        ...


class Following(Protocol[V]):
    """A renderer's optional parts for a person following the game. Each one a renderer
    lacks has a fallback (:func:`following`): no stage, every action a row of its own, no
    action listed as not possible, an end screen with the common parts only."""

    def stage(self, events: Sequence[Event], tr: Translator) -> Stage:
        """The stage of one entry from its ``events`` (already redacted for the reader)."""
        ...

    def choice(self, action: Action, view: V, tr: Translator) -> Choice | None:
        """How ``action`` shows in the options as one choice of a row, or ``None`` for a
        row of its own; ``view`` is the deciding seat's."""
        ...

    def unavailable(self, view: V, legal: Sequence[Action]) -> list[str]:
        """Actions the deciding seat might look for that are not possible now (the page
        offers their reason, asked with ``why``), as notations; built from ``view`` and
        ``legal`` only."""
        ...

    def end(self, view: V, tr: Translator, who: dict[int, str]) -> str:
        """The end screen's own part (HTML): why the game ended and each seat's summary."""
        ...


class _Fallbacks:
    """:class:`Following` for a renderer: its own parts, the fallbacks for those it lacks."""

    def __init__(self, renderer: BoardRenderer[Any]) -> None:
        self._renderer = renderer

    def stage(self, events: Sequence[Event], tr: Translator) -> Stage:
        own = getattr(self._renderer, "stage", None)
        return Stage("", (), (), 0) if own is None else own(events, tr)

    def choice(self, action: Action, view: SeatView, tr: Translator) -> Choice | None:
        own = getattr(self._renderer, "choice", None)
        return None if own is None else own(action, view, tr)

    def unavailable(self, view: SeatView, legal: Sequence[Action]) -> list[str]:
        own = getattr(self._renderer, "unavailable", None)
        return [] if own is None else list(own(view, legal))

    def end(self, view: SeatView, tr: Translator, who: dict[int, str]) -> str:
        own = getattr(self._renderer, "end", None)
        return "" if own is None else str(own(view, tr, who))


def following(renderer: BoardRenderer[Any]) -> Following[Any]:
    """``renderer``'s parts of :class:`Following`, each its own or the fallback."""
    return _Fallbacks(renderer)


def board_renderer(game: Game[Any] | str) -> BoardRenderer[Any]:
    """The renderer of ``game`` (a game, with its components, or a registered name): the
    ``board`` part of its registration, called with the components."""
    components = None if isinstance(game, str) else getattr(game, "components", None)
    renderer: BoardRenderer[Any] = registration(game).load("board")(components)
    return renderer


def revealed(state: State[Any], seats: int) -> SeatView:
    """The spectators' view with every seat's own hand shown (the replay "with everything
    revealed"): nobody's own view, so no panel says "you are". A game's view without
    ``hands`` is the spectators' view as it is."""
    view = state.observe(None)
    if not hasattr(view, "hands"):
        return view
    own: list[Any] = [state.observe(s) for s in range(seats)]  # each seat's typed view
    hands = tuple(v.hands[s] for s, v in enumerate(own))
    return dataclasses.replace(view, hands=hands)  # type: ignore[type-var]
