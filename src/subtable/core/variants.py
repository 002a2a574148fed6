"""Variants as data: partial overrides of a game's packaged components.

A variant is a small document that changes some numbers of the printed components
and leaves the rest as packaged — a TOML file given with ``--components`` and/or
``KEY=VALUE`` pieces given with ``--set``::

    # one more Kraken, two fewer Fire cards, the Time Track at 50 with 6 seats
    [events]
    kraken = 2
    fire = 6
    [time_track.start]
    6 = 50

Each game declares its own overridable components (its ``variants`` part, a
:class:`Variants` in its package: the schema, how an override changes the parsed TOML,
the board's consistency); this module holds what every game shares. Every override is
checked against a schema (pydantic models that forbid unknown
keys and negative counts) and then against the board's consistency (a track
start past its end, more Grog in the stash than in the box, too few search cards
for the players...). Any problem raises :class:`VariantError` naming the key,
before a single game is built. Nothing packaged ever changes: the overrides are
applied to a copy of the parsed packaged TOML and the components are rebuilt
from it.

The overrides are plain JSON-ready data (:func:`normalise`); a game built from a
variant remembers them (:func:`variant_of`), so its record carries them and
``subtable replay`` rebuilds the same components.
"""

from __future__ import annotations

import copy
import tomllib
import weakref
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from subtable.core.components import TomlTable, TomlValue
from subtable.core.errors import OptionError
from subtable.core.game import Game
from subtable.core.options import OptionValue
from subtable.core.registry import MissingPart, registration

#: a game's parsed ``components.toml`` (a TypedDict of the game's)
T = TypeVar("T")

NonNegative = Annotated[int, Field(ge=0, strict=True)]
Positive = Annotated[int, Field(ge=1, strict=True)]


class VariantError(OptionError):
    """An override the schema or the board refuses (``key`` names it, dotted)."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(
            f"variant: {key}: {problem}",
            code="bad_variant",
            params={"key": key, "problem": problem},
        )
        self.key = key


class Strict(BaseModel):
    """A table of overrides: unknown keys refused, frozen (the base of each game's models)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# -- one game's variants ---------------------------------------------------------------------
class Variants(Generic[T]):
    """One game's overridable components, declared in the game's package (its ``variants``
    part, :mod:`subtable.core.registry`): its packaged TOML, parsed afresh by ``packaged``,
    the schema of its overrides, how they change the parsed TOML, the board's consistency,
    the builder.

    The overrides ``apply`` and ``check`` are given are the schema's (its keys checked)."""

    def __init__(
        self,
        packaged: Callable[[], T],
        model: Callable[[], type[BaseModel]],
        apply: Callable[[T, Mapping[str, Any]], None],
        check: Callable[[T, Mapping[str, Any]], None],
        build: Callable[[T], Any],
    ) -> None:
        self._packaged = packaged
        self._model = model
        self._apply = apply
        self._check = check
        self._build = build
        self._schema: type[BaseModel] | None = None

    def schema(self) -> type[BaseModel]:
        """The pydantic model of the overrides (built once)."""
        if self._schema is None:
            self._schema = self._model()
        return self._schema

    def validate(self, overrides: Mapping[str, Any]) -> TomlTable:
        """Check ``overrides`` against the schema and the board; the normalised overrides.

        Raises :class:`VariantError` naming the first key at fault.
        """
        try:
            parsed = self.schema().model_validate(dict(overrides))
        except ValidationError as exc:
            errors = exc.errors()
            # a union reports each branch: prefer the one that names the deepest key
            err = max(errors, key=lambda e: len(_key(e["loc"])))
            raise VariantError(_key(err["loc"]), _problem(err)) from None
        data = _prune(parsed.model_dump(mode="json", exclude_none=True))
        self.build(data)  # the board's consistency
        return data

    def build(self, overrides: Mapping[str, Any]) -> Any:
        """The components with (already schema-valid) ``overrides`` applied."""
        data = self._packaged()
        self._apply(data, overrides)
        self._check(data, overrides)
        try:
            return self._build(data)
        except (ValueError, KeyError) as exc:
            raise VariantError("(components)", str(exc)) from None

    def make(
        self, cls: type[Game[Any]], variant: Mapping[str, Any], **options: OptionValue | None
    ) -> Game[Any]:
        """``cls`` with ``options`` on the components of ``variant`` (validated), given to it
        as ``components=``; the game remembers the overrides (:func:`variant_of`)."""
        if not variant:
            return cls(**options)
        overrides = self.validate(variant)
        if not overrides:
            return cls(**options)
        game = cls(components=self.build(overrides), **options)
        _VARIANTS[game] = overrides
        return game


def rules_of(game: str) -> Variants[Any]:
    """The variants of the game registered as ``game``."""
    try:
        rules: Variants[Any] = registration(game).load("variants")
    except MissingPart:
        raise OptionError(f"{game} has no component data to override", code="bad_variant") from None
    return rules


def schema(game: str) -> type[BaseModel]:
    """The pydantic model of ``game``'s overrides."""
    return rules_of(game).schema()


# -- parsing --------------------------------------------------------------------------------
def _key(loc: Sequence[int | str]) -> str:
    # a union's branches are named by their types (``int``, ``list[...]``, a model's class
    # name, which begins with a capital): keep the keys
    parts = [
        str(p) for p in loc if not str(p).startswith(("int", "list[")) and not str(p)[:1].isupper()
    ]
    return ".".join(p for p in parts if p not in ("constrained-int", "[key]")) or "(top level)"


def _problem(err: Mapping[str, Any]) -> str:
    if err["type"] == "extra_forbidden":
        return "unknown key (not a component this game lets you override)"
    return str(err["msg"]).replace("Input should be", "should be")


def validate(game: str, overrides: Mapping[str, Any]) -> TomlTable:
    """Check ``overrides`` against ``game``'s schema and board; the normalised overrides.

    Raises :class:`VariantError` naming the first key at fault.
    """
    return rules_of(game).validate(overrides)


def _prune(data: TomlTable) -> TomlTable:
    """Drop empty tables (``[events]`` with nothing under it changes nothing)."""
    pruned = {k: _prune(v) if isinstance(v, dict) else v for k, v in data.items()}
    return {k: v for k, v in pruned.items() if v != {}}


def parse_value(raw: str) -> TomlValue:
    """A ``--set`` value: a TOML value (``10``, ``[1, 4]``, ``{copies = 3}``), else text."""
    try:
        value: TomlValue = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw
    return value


def parse_sets(pieces: Sequence[str]) -> TomlTable:
    """``["events.fire=10", "time_track.start.6=50"]`` as nested overrides."""
    out: TomlTable = {}
    for piece in pieces:
        key, sep, raw = piece.partition("=")
        key = key.strip()
        if not sep or not key or any(not p for p in key.split(".")):
            raise VariantError(piece, "an override is KEY.PATH=VALUE, e.g. events.fire=10")
        node = out
        parts = key.split(".")
        for i, part in enumerate(parts[:-1]):
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise VariantError(".".join(parts[: i + 1]), "is set to a value and a table")
            node = child
        node[parts[-1]] = parse_value(raw.strip())
    return out


def merge(base: TomlTable, extra: TomlTable) -> TomlTable:
    """``extra`` laid over ``base``, table by table (``extra`` wins)."""
    out = copy.deepcopy(base)
    for key, value in extra.items():
        below = out.get(key)
        if isinstance(value, dict) and isinstance(below, dict):
            out[key] = merge(below, value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def load_overrides(path: str | Path | None, sets: Sequence[str] = ()) -> TomlTable:
    """The raw overrides of a ``--components`` file with ``--set`` pieces laid over it."""
    data: TomlTable = {}
    if path is not None:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise VariantError(str(path), f"cannot read the file ({exc.strerror or exc})") from None
        except tomllib.TOMLDecodeError as exc:
            raise VariantError(str(path), f"not valid TOML ({exc})") from None
    return merge(data, parse_sets(sets))


def read_variant(game: str, path: str | Path | None, sets: Sequence[str] = ()) -> TomlTable:
    """Load, merge and validate a variant for ``game`` (``{}`` for none)."""
    raw = load_overrides(path, sets)
    return validate(game, raw) if raw else {}


def build(game: str, overrides: Mapping[str, Any]) -> Any:
    """The components of ``game`` with (already schema-valid) ``overrides`` applied."""
    return rules_of(game).build(overrides)


# -- games built from a variant ---------------------------------------------------------------
_VARIANTS: weakref.WeakKeyDictionary[Any, TomlTable] = weakref.WeakKeyDictionary()


def make_variant_game(
    name: str, variant: Mapping[str, Any] | None, **options: OptionValue | None
) -> Any:
    """Build game ``name`` with ``options`` on the components of ``variant`` (validated)."""
    return registration(name).make(variant, **options)


def variant_of(game: Any) -> TomlTable:
    """The overrides ``game`` was built with (``{}`` for the packaged components)."""
    return dict(_VARIANTS.get(game, {}))


def describe(overrides: Mapping[str, Any], prefix: str = "") -> list[str]:
    """``["events.fire=10", "time_track.start.6=50"]``: the overrides as ``--set`` pieces."""
    out: list[str] = []
    for key, value in overrides.items():
        if isinstance(value, Mapping):
            out.extend(describe(value, f"{prefix}{key}."))
        else:
            out.append(f"{prefix}{key}={value}")
    return out
