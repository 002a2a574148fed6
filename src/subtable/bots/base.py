"""The one bot interface used by ``play``, ``simulate`` and the web table.

A bot sees an :class:`Observation` — its seat's typed view and its legal
actions — never the state, and draws randomness only from its own seeded
generator.
"""

from __future__ import annotations

import gc
import importlib
import re
from collections.abc import Callable, Generator, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Protocol, TypeAlias, TypeVar, cast

from pydantic import BaseModel, ValidationError

from subtable.core.actions import Action
from subtable.core.errors import OptionError
from subtable.core.game import Game, State
from subtable.core.rng import Rng
from subtable.core.view import SeatView

#: one bot parameter's value (``None``: the bot's own default)
BotParamValue: TypeAlias = int | float | bool | str | None


class Observation:
    """What one seat may know when it must decide.

    The view and the action objects are computed lazily (a random bot needs
    neither). The state reference is private to the engine side of the
    boundary: bots read only :attr:`seat`, :attr:`game`, :attr:`legal_ids`,
    :attr:`legal_actions` and :attr:`view`.
    """

    __slots__ = ("_actions", "_state", "_view", "game", "legal_ids", "seat")

    def __init__(self, state: State[Any], seat: int) -> None:
        self._state = state
        self._view: SeatView | None = None
        self._actions: list[Action] | None = None
        self.seat = seat
        self.game: Game[Any] = state.game
        #: the legal actions' ids, sorted
        self.legal_ids: list[int] = state.legal_action_ids()

    @property
    def legal_actions(self) -> list[Action]:
        """The legal actions, in id order."""
        if self._actions is None:
            space = self.game.action_space
            self._actions = [space[i] for i in self.legal_ids]
        return self._actions

    @property
    def view(self) -> SeatView:
        """The seat's typed view (:meth:`State.observe`; ``view.to_json()`` for its wire
        form)."""
        if self._view is None:
            self._view = self._state.observe(self.seat)
        return self._view


def observe(state: State[Any], seat: int | None = None) -> Observation:
    """The observation of ``seat`` (default: the seat that decides now)."""
    if seat is None:
        seat = state.current_seat()
        if seat is None:
            raise ValueError("the game is over: nobody decides")
    return Observation(state, seat)


class Bot(Protocol):
    """A policy for one seat."""

    name: str

    def choose(self, obs: Observation) -> Action:
        """Pick one of ``obs.legal_actions``."""
        ...


BotFactory = Callable[[Game[Any], int, Rng], Bot]
_BOTS: dict[str, str] = {
    "random": "subtable.bots.random_bot:RandomBot",
    "heuristic": "subtable.bots.heuristic:HeuristicBot",
    "ismcts": "subtable.bots.ismcts:ISMCTSBot",
    # a trained policy (python -m subtable.rl.train); numpy inference, the rl extra
    "agent": "subtable.bots.agent:AgentBot",
}


def register_bot(name: str, target: str) -> None:
    """Register a bot class path ``module:Class`` under ``name``."""
    _BOTS[name] = target


def bot_names() -> list[str]:
    """Registered bot names."""
    return sorted(_BOTS)


def bot_class(name: str) -> type[Any]:
    """The class registered as ``name``."""
    try:
        target = _BOTS[name]
    except KeyError:
        raise OptionError(
            f"unknown bot {name!r} (known: {', '.join(bot_names())})",
            code="unknown_bot",
            params={"bot": name},
        ) from None
    module, _, attr = target.partition(":")
    cls: type[Any] = getattr(importlib.import_module(module), attr)
    return cls


def bot_params(name: str) -> frozenset[str]:
    """The parameters bot ``name`` accepts (its class's ``params``)."""
    return frozenset(getattr(bot_class(name), "params", ()))


def check_bot_params(
    name: str, game: Game[Any], params: Mapping[str, BotParamValue]
) -> dict[str, BotParamValue]:
    """``params`` of bot ``name`` at ``game``, validated and converted to their types.

    Each bot declares its parameters' types and ranges (a pydantic model, from its
    ``param_model(game)``); a value of the wrong type, out of range, infinite or NaN is
    refused with :class:`OptionError` (``bad_bot_param``) naming the parameter, before
    anything is built.
    """
    cls = bot_class(name)
    unknown = set(params) - bot_params(name)
    if unknown:
        known = ", ".join(sorted(bot_params(name))) or "none"
        raise OptionError(
            f"bot {name} has no parameter {', '.join(sorted(unknown))} (known: {known})",
            code="bad_bot_param",
            params={"bot": name, "params": sorted(unknown)},
        )
    model_of = getattr(cls, "param_model", None)
    if model_of is None or not params:
        return dict(params)
    model: type[BaseModel] = model_of(game)
    try:
        checked = model.model_validate(dict(params))
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(p) for p in first["loc"]) or "?"
        given = params.get(key, first.get("input"))
        shown = given if not isinstance(given, str) or len(given) <= 24 else given[:24] + "…"
        raise OptionError(
            f"bot {name}: parameter {key} cannot be {shown!r} ({first['msg'].lower()})",
            code="bad_bot_param",
            params={"bot": name, "param": key},
        ) from None
    return {k: getattr(checked, k) for k in params if k in model.model_fields}


def make_bot(name: str, game: Game[Any], seat: int, rng: Rng, **params: BotParamValue) -> Bot:
    """Build bot ``name`` for ``seat`` with its own generator (parameters checked first)."""
    cls = bot_class(name)
    checked = check_bot_params(name, game, params)
    bot: Bot = cls(game, seat, rng, **checked)
    return bot


_NUMBER = re.compile(r"[+-]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?(?:[eE][+-]?[0-9]+)?", re.ASCII)


def flag(value: object) -> bool:
    """A yes/no bot parameter, given as a bool or as text (``--bot ismcts:effort=false``)."""
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)


def _value(raw: str) -> int | float | str:
    """A command-line value: a number when it is written in ASCII digits, else the text."""
    if raw and _NUMBER.fullmatch(raw) and any(ch.isdigit() for ch in raw):
        for kind in (int, float):
            try:
                return kind(raw)
            except ValueError:
                pass
    return raw


def parse_bot_spec(
    spec: str, defaults: Mapping[str, BotParamValue] | None = None
) -> tuple[str, dict[str, BotParamValue]]:
    """Split ``"ismcts:budget=200:c=0.5"`` into a name and parameters.

    ``defaults`` (e.g. ``--budget``) go to the bots that accept them; the spec's own
    parameters win.
    """
    name, *parts = spec.strip().split(":")
    name = name.strip()
    accepted = bot_params(name)
    params = {k: v for k, v in (defaults or {}).items() if k in accepted}
    for part in parts:
        key, sep, raw = part.partition("=")
        if not sep or not key.strip():
            raise OptionError(
                f"bad bot parameter {part!r} in {spec!r} (write key=value)",
                code="bad_bot_param",
                params={"spec": spec},
            )
        params[key.strip()] = _value(raw.strip())
    return name, params


T = TypeVar("T")


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a search thinks, back on after it if it was on.

    A search keeps a tree, its sampled worlds and its expert's caches growing while it
    allocates many short-lived containers: run every few hundred surviving allocations, the
    collector walks the young objects again and again and the whole heap every few
    collections, a tenth to a sixth of a search's CPU. Paused for one search or one slice of it
    (a bounded stretch), it collects once afterwards and frees the same objects; it is not
    touched where someone else already paused it.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def finish(search: Generator[int, None, T]) -> T:
    """What a search that can be paused gives, run in one go (the collector paused)."""
    with collector_paused():
        while True:
            try:
                next(search)
            except StopIteration as done:
                return cast(T, done.value)
