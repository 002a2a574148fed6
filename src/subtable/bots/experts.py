"""Each game's expert policy: the ``expert`` part of its registration, imported on first use.

An expert is a pure function of one seat's typed view: it builds its own
record of the view (:meth:`Expert.board`), picks an action, ranks candidates
for a search bot, and estimates each seat's return at positions its leaf-value
model knows. The ``heuristic`` bot plays the expert; ``ismcts`` borrows it for
rollouts, candidate moves and leaf values (:mod:`subtable.bots.heuristic`).

A game's expert is one line of its registration (:mod:`subtable.core.registry`)::

    GamePlugin(name="my-game", game=..., expert="my_package.bots:MyExpert", ...)

The class takes ``(game, params)``, where ``params`` is an instance of its
``params_class`` dataclass (the tunable weights ``--bot heuristic:key=value``
sets).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, create_model

from subtable.core.errors import OptionError
from subtable.core.game import Game
from subtable.core.registry import registration, registrations
from subtable.core.rng import Rng
from subtable.core.view import SeatView

B = TypeVar("B")


class Expert(Protocol[B]):
    """What a game's expert offers; ``B`` is its record of a view (its board)."""

    #: the dataclass of its tunable weights
    params_class: ClassVar[type[Any]]

    def board(self, view: SeatView) -> B:
        """The expert's record of a seat's view."""
        ...

    def choose(self, board: B, seat: int, legal: Sequence[int], rng: Rng) -> int:
        """The action id to play (one of ``legal``)."""
        ...

    def candidates(
        self, board: B, seat: int, legal: Sequence[int], width: int, rng: Rng
    ) -> list[int]:
        """Up to ``width`` distinct legal actions, its choice first."""
        ...

    def evaluate(self, board: B) -> list[float] | None:
        """Each seat's estimated return, or ``None`` where its model cannot judge."""
        ...


def expert_games() -> list[str]:
    """The names of the games that have an expert."""
    return [p.name for p in registrations() if p.has("expert")]


def has_expert(game_name: str) -> bool:
    """Whether the game called ``game_name`` has an expert."""
    try:
        return registration(game_name).has("expert")
    except OptionError:  # not a registered game
        return False


def expert_class(game_name: str) -> type[Any]:
    """The expert class of the game called ``game_name`` (imported now)."""
    if not has_expert(game_name):
        raise OptionError(
            f"no heuristic bot for {game_name}",
            code="unknown_bot",
            params={"bot": "heuristic", "game": game_name},
        )
    cls: type[Any] = registration(game_name).load("expert")
    return cls


def params_of(cls: type[Any]) -> frozenset[str]:
    """The tunable weights' names of an expert class."""
    return frozenset(f.name for f in dataclasses.fields(cls.params_class))


_MODELS: dict[tuple[str, str], type[BaseModel]] = {}


def expert_param_model(game: Game[Any], **more: tuple[Any, Any]) -> type[BaseModel]:
    """The types of ``game``'s expert's weights, as a pydantic model (others ignored),
    with ``more`` fields (``name=(type, default or Field)``) of the bot that plays it."""
    cls = expert_class(game.info.name)
    key = (cls.__qualname__, repr(sorted(more)))
    known = _MODELS.get(key)
    if known is not None:
        return known
    hints = typing.get_type_hints(cls.params_class)
    fields: dict[str, Any] = {
        f.name: (hints[f.name], f.default) for f in dataclasses.fields(cls.params_class)
    }
    fields.update(more)
    config = ConfigDict(extra="ignore", allow_inf_nan=False)
    model: type[BaseModel] = create_model(f"{cls.__name__}Weights", __config__=config, **fields)
    _MODELS[key] = model
    return model


def expert_params() -> frozenset[str]:
    """Every registered expert's tunable weights (what ``--bot heuristic:…`` accepts)."""
    out: set[str] = set()
    for name in expert_games():
        out |= params_of(expert_class(name))
    return frozenset(out)


def make_expert(game: Game[Any], **params: Any) -> Expert[Any]:
    """The expert of ``game`` with these weights (those of other games' experts are ignored)."""
    cls = expert_class(game.info.name)
    known = params_of(cls)
    expert: Expert[Any] = cls(
        game, cls.params_class(**{k: v for k, v in params.items() if k in known})
    )
    return expert
