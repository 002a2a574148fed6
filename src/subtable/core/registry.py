"""The games this package knows: one registration per game, declaring its parts.

A game is a plug-in. Its package declares, in one :class:`GamePlugin`, its name, its
engine and — each by a ``"module:attribute"`` path imported on first use, so that no
layer imports another upward — the parts the other layers ask for:

=============  ==========================================================  ===============
part           what it is                                                  asked by
=============  ==========================================================  ===============
``game``       the :class:`~subtable.core.game.Game` subclass (required)   everyone
``options``    the options by name (:class:`~subtable.core.options.Option  commands, web,
               Spec`: types, ranges, defaults, words, dependencies); the   lab
               engine's ``option_specs`` when not declared
``variants``   the variant model and builder (:class:`VariantRules`)       core.variants
``expert``     the expert policy class (``heuristic``, ``ismcts``)         bots
``ui``         the terminal table's ``GameUI`` class, called with the      ui, web, lab
               game's components (its names, narration, board, texts)
``rules``      the rule book: ``book(tr, components)`` → sections          ui
``board``      the browser's ``BoardRenderer`` class, called with the      web
               game's components
``encoder``    the RL observation ``Encoder`` class, called with the game  rl, agent bot
``rl``         the RL extras (``subtable.rl.common.RLSupport``)            rl
``metrics``    the lab's ``GameMetrics`` class, called with the first      sim
               state
``lessons``    the guided lessons: a sequence of ``learn.Lesson``          learn
=============  ==========================================================  ===============

A part may also be given as the object itself (a test's game does so). A game without
a part gets the documented fallback of the layer that asks (no ``heuristic`` without an
expert, the lab's generic figures without metrics, an empty rule book, no lessons…) or a
clear :class:`MissingPart` error naming the game and the part.

Games are found in one place: :data:`BUILTIN` (the games shipped in this package, found
from a source tree too, without install metadata), then the ``subtable.games`` entry-point
group (``[project.entry-points."subtable.games"]``: ``name = "package.module:PLUGIN"``),
through which a separate package adds a game. :func:`register_game` adds one at run time
(the tests' game); :func:`unregister_game` takes it away again.

Every layer receives a :class:`~subtable.core.game.Game` and asks :func:`registration`
for its part; only the edges (the command line, a record, a web request, the RL
constructors) turn a name into a game, with :func:`make_game` or :func:`resolve_game`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from subtable.core.errors import OptionError
from subtable.core.game import Game
from subtable.core.options import OptionSpec, OptionValue

#: the games shipped in this package: name -> where its :class:`GamePlugin` is declared
BUILTIN: dict[str, str] = {
    "red-november": "subtable.games.red_november.plugin:PLUGIN",
    "submarine": "subtable.games.submarine.plugin:PLUGIN",
}
#: the entry-point group through which other packages add games
ENTRY_POINTS = "subtable.games"

#: the parts a registration may declare (``game`` is required), and what each one is
PARTS: dict[str, str] = {
    "game": "engine",
    "options": "options",
    "variants": "component variants",
    "expert": "expert policy",
    "ui": "terminal table",
    "rules": "rule book",
    "board": "browser board",
    "encoder": "observation encoder",
    "rl": "research-adapter extras",
    "metrics": "lab figures",
    "lessons": "guided lessons",
}


class VariantRules(Protocol):
    """What a game's ``variants`` part offers (see :class:`subtable.core.variants.Variants`)."""

    def make(
        self, cls: type[Game[Any]], variant: Mapping[str, Any], **options: OptionValue | None
    ) -> Game[Any]:
        """``cls`` with ``options`` on the components of ``variant`` (validated)."""
        ...


class MissingPart(OptionError):
    """A game that does not declare the part a layer asks for."""

    code = "missing_part"

    def __init__(self, game: str, part: str) -> None:
        super().__init__(
            f"{game} has no {PARTS.get(part, part)} (its registration declares no {part!r})",
            params={"game": game, "part": part},
        )
        self.game = game
        self.part = part


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """One game's parts: each a ``"module:attribute"`` path (imported on first use) or the
    object itself; ``None`` for a part the game does not have (see the module docstring)."""

    name: str
    game: str | type[Game[Any]]
    options: str | object | None = None
    variants: str | object | None = None
    expert: str | object | None = None
    ui: str | object | None = None
    rules: str | object | None = None
    board: str | object | None = None
    encoder: str | object | None = None
    rl: str | object | None = None
    metrics: str | object | None = None
    lessons: str | object | None = None

    def __post_init__(self) -> None:
        for part in PARTS:
            target = getattr(self, part)
            if isinstance(target, str):
                module, sep, attr = target.partition(":")
                if not sep or not module or not attr:
                    raise ValueError(
                        f"{self.name}: part {part} must be 'module:attribute', not {target!r}"
                    )

    def has(self, part: str) -> bool:
        """Whether the game declares ``part``."""
        return getattr(self, part) is not None

    def load(self, part: str) -> Any:
        """The object of ``part`` (imported now, once); :class:`MissingPart` if undeclared."""
        if part not in PARTS:
            raise KeyError(f"no part {part!r} (parts: {', '.join(PARTS)})")
        target = getattr(self, part)
        if target is None:
            raise MissingPart(self.name, part)
        return _load(target) if isinstance(target, str) else target

    def game_class(self) -> type[Game[Any]]:
        """The engine: the :class:`Game` subclass (its ``info.name`` is this name)."""
        cls: type[Game[Any]] = self.load("game")
        if cls.info.name != self.name:
            raise ValueError(f"{self.name} is registered with a game named {cls.info.name!r}")
        return cls

    def option_specs(self) -> Mapping[str, OptionSpec]:
        """The game's options as declared (without importing its engine when the
        registration declares them), else as its engine lists them."""
        if self.has("options"):
            specs: Mapping[str, OptionSpec] = self.load("options")
            return specs
        return self.game_class().option_specs

    def make(
        self, variant: Mapping[str, Any] | None = None, **options: OptionValue | None
    ) -> Game[Any]:
        """The game with ``options``, on ``variant``'s components if given (a partial
        override of the packaged components, see :mod:`subtable.core.variants`)."""
        cls = self.game_class()
        if not variant:
            return cls(**options)
        rules: VariantRules = self.load("variants")
        return rules.make(cls, variant, **options)


@cache
def _load(target: str) -> Any:
    module, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module)
    for name in attr.split("."):
        obj = getattr(obj, name)
    return obj


#: every known game: its registration, or where it is declared (loaded when first asked)
_KNOWN: dict[str, GamePlugin | str] = {}
_DISCOVERED = False


def _entry_points() -> list[tuple[str, str]]:
    """``(name, "module:attribute")`` of the ``subtable.games`` entry points installed."""
    from importlib import metadata

    return [(p.name, p.value) for p in metadata.entry_points(group=ENTRY_POINTS)]


def _discover() -> None:
    """Know the built-in games, then those of the entry points (once; nothing imported)."""
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    for name, where in BUILTIN.items():
        _KNOWN.setdefault(name, where)
    for name, where in _entry_points():
        if where in BUILTIN.values():
            continue  # an install that also declares the built-ins as entry points
        if name in _KNOWN:
            raise ValueError(f"two games are registered as {name!r} (again by {where})")
        _KNOWN[name] = where


def _plugin(name: str) -> GamePlugin | None:
    """The registration of ``name`` (loaded from where it is declared), or ``None``."""
    _discover()
    entry = _KNOWN.get(name)
    if entry is None or isinstance(entry, GamePlugin):
        return entry
    plugin = _load(entry)
    if not isinstance(plugin, GamePlugin):
        raise TypeError(f"{entry} is not a GamePlugin")
    if plugin.name != name:
        raise ValueError(f"{entry} declares {plugin.name!r}, registered as {name!r}")
    _KNOWN[name] = plugin
    return plugin


def register_game(plugin: GamePlugin, *, replace: bool = False) -> GamePlugin:
    """Register ``plugin`` (``replace``: over a game of the same name); returns it."""
    _discover()
    if plugin.name in _KNOWN and not replace:
        raise ValueError(f"a game is already registered as {plugin.name!r}")
    _KNOWN[plugin.name] = plugin
    return plugin


def unregister_game(name: str) -> None:
    """Forget the game registered as ``name`` (the tests' game, when they are done)."""
    _discover()
    _KNOWN.pop(name, None)


def registrations() -> list[GamePlugin]:
    """Every registered game, by name (each one's declaration imported)."""
    return [registration(name) for name in game_names()]


def game_names() -> list[str]:
    """The registered game names (nothing imported)."""
    _discover()
    return sorted(_KNOWN)


def registration(game: str | Game[Any]) -> GamePlugin:
    """The registration of ``game`` (a game, or a registered name)."""
    name = game if isinstance(game, str) else game.info.name
    plugin = _plugin(name)
    if plugin is None:
        raise OptionError(
            f"unknown game {name!r} (known: {', '.join(game_names())})",
            code="unknown_game",
            params={"game": name},
        )
    return plugin


def game_class(name: str) -> type[Game[Any]]:
    """The :class:`Game` subclass registered as ``name``."""
    return registration(name).game_class()


def make_game(
    name: str, variant: Mapping[str, Any] | None = None, **options: OptionValue | None
) -> Game[Any]:
    """Build the game ``name`` with ``options`` (on ``variant``'s components if given: a
    partial override of the packaged components, see :mod:`subtable.core.variants`)."""
    return registration(name).make(variant, **options)


def resolve_game(game: str | Game[Any], options: Mapping[str, Any] | None = None) -> Game[Any]:
    """A game object from a game (kept as it is) or a registered name and its options."""
    if isinstance(game, Game):
        if options:
            raise ValueError("pass options with a game name, not with a game object")
        return game
    return make_game(game, **dict(options or {}))
