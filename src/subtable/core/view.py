"""What one seat may see, as a typed value, and each game's vocabulary as data.

A :class:`SeatView` is the engine's answer to "what may seat *s* know now?". Each
game subclasses it with declared, typed fields (a frozen dataclass); everything
outside the game's own package — bots, the terminal and web tables, the RL
adapters — reads those fields, never the state. :meth:`SeatView.to_json` is its
wire form (what :meth:`subtable.core.game.State.view` returns and what a server
sends). A view never carries the seed, the generator, a deck's order or another
seat's hidden cards.

A :class:`Vocabulary` lists every word an engine may put in an event, an illegal
move's reason or an outcome, so that translations and checks iterate the
declaration instead of reading the engine's source.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

_T = TypeVar("_T")


class SeatView(ABC):
    """Base of each game's typed view (subclasses are frozen dataclasses).

    Subclasses declare at least ``seat`` (``None`` for a spectator).
    """

    __slots__ = ()

    seat: int | None

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data (its wire form)."""


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The keys a game's engine may emit, declared as data.

    ``extra`` holds game-specific families (e.g. Red November's causes of death)
    by name.
    """

    #: every :attr:`Event.key <subtable.core.events.Event.key>` the engine emits
    event_keys: frozenset[str]
    #: every reason code of :class:`~subtable.core.errors.IllegalActionError` from ``why_illegal``
    illegal_reasons: frozenset[str]
    #: every :attr:`Outcome.reason <subtable.core.game.Outcome.reason>`
    end_reasons: tuple[str, ...]
    #: the names of the decisions a view's ``phase`` can take
    phases: tuple[str, ...]
    extra: Mapping[str, frozenset[str]] = field(default_factory=dict)


def slot_filler(cls: type[_T]) -> Callable[..., _T]:
    """A positional constructor for the frozen, slotted dataclass ``cls`` that fills its slots
    directly: ``slot_filler(C)(*values)`` equals ``C(*values)`` given every field in order.

    A frozen dataclass's ``__init__`` goes through ``object.__setattr__`` for each field, which
    makes it about twice as slow, and the games' ``observe`` is on the search bots' hot path.
    Like ``dataclasses`` itself, it compiles the straight-line code once.
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def fill({', '.join(names)}):", "    v = _new(_cls)"]
    for i, name in enumerate(names):
        env[f"_set{i}"] = getattr(cls, name).__set__
        lines.append(f"    _set{i}(v, {name})")
    lines.append("    return v")
    exec("\n".join(lines), env)  # generated from the declared field names only
    fill: Callable[..., _T] = env["fill"]
    return fill


def by_fields(obj: Any) -> tuple[type, tuple[Any, ...]]:
    """``__reduce__`` for a dataclass: rebuild it from its fields through its constructor.

    A class that mypyc compiles (see ``hatch_build.py``) restores pickled and deep-copied
    instances by assigning each field, which a frozen dataclass refuses, and without an
    instance dictionary a plain one would be copied with its defaults; its constructor works
    in both builds.
    """
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj))
