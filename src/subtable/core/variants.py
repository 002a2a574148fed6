"""Variants as data: partial overrides of a game's packaged components.

A variant is a small document that changes some numbers of the printed components
and leaves the rest as packaged — a TOML file given with ``--components`` and/or
``KEY=VALUE`` pieces given with ``--set``::

    # one more Kraken, two fewer Fire cards, the Time Track at 50 with 6 gnomes
    [events]
    kraken = 2
    fire = 6
    [time_track.start]
    6 = 50

Every override is checked against a schema (pydantic models that forbid unknown
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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from subtable.core.components import packaged_toml
from subtable.core.errors import OptionError

NonNegative = Annotated[int, Field(ge=0, strict=True)]
Positive = Annotated[int, Field(ge=1, strict=True)]
#: a Faint Check number printed on an event card (0 is the dash)
FaintNumber = Annotated[int, Field(ge=0, le=9, strict=True)]

_PACKAGES = {
    "red-november": "subtable.games.red_november",
    "submarine": "subtable.games.submarine",
}


class VariantError(OptionError):
    """An override the schema or the board refuses (``key`` names it, dotted)."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(
            f"variant: {key}: {problem}",
            code="bad_variant",
            params={"key": key, "problem": problem},
        )
        self.key = key


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- Red November -------------------------------------------------------------------------
class RNItem(_Strict):
    """One item kind: how many copies are in the box, how many start in the Grog stash
    (and, in the schema :func:`schema` builds, ``bonus``: what it adds to each fix-it roll)."""

    copies: NonNegative | None = None
    stash: NonNegative | None = None


class RNTracks(_Strict):
    """The disaster tracks: spaces 1..length, the start space and the reset points."""

    length: Annotated[int, Field(ge=2, le=30, strict=True)] | None = None
    start: Positive | None = None
    reset_points: list[Positive] | None = None


class RNTime(_Strict):
    """The Time Track: start space per number of gnomes and the marked spaces."""

    start: dict[Annotated[int, Field(ge=3, le=8)], Positive] | None = None
    item_spaces: list[Positive] | None = None
    #: a Draw Event icon on every space divisible by ``event_spaces_divisor`` from
    #: ``event_spaces_from`` down to ``event_spaces_to``
    event_spaces_divisor: Positive | None = None
    event_spaces_from: Positive | None = None
    event_spaces_to: Positive | None = None
    abandon_below: NonNegative | None = None
    faint_minutes: Positive | None = None


class RNActions(_Strict):
    """Numbers printed on the player aid."""

    max_fix_minutes: Positive | None = None
    low_water_penalty: NonNegative | None = None
    stores_max_draw: NonNegative | None = None
    cabin_max_draw: NonNegative | None = None


def _rn_model() -> type[BaseModel]:
    from subtable.games.red_november.components import FIX_KINDS

    data = packaged_toml(_PACKAGES["red-november"])
    #: an event kind: its number of copies (the packaged Faint numbers, in order and
    #: repeated), or the Faint Check number of each copy
    count: Any = NonNegative
    event: Any = (count | list[FaintNumber] | None, None)
    #: an item's bonus to each fix-it action (the kinds left out keep the packaged bonus)
    fixes: dict[str, Any] = {kind: (count | None, None) for kind in FIX_KINDS}
    bonus: Any = create_model(
        "RNBonus", __config__=ConfigDict(extra="forbid", frozen=True), **fixes
    )
    bonus_field: Any = (bonus | None, None)
    item_model: Any = create_model("RNItem", __base__=RNItem, bonus=bonus_field)
    item: Any = (count | item_model | None, None)
    kinds: dict[str, Any] = {str(spec["kind"]): event for spec in data["events"]}
    item_kinds: dict[str, Any] = {str(spec["kind"]): item for spec in data["items"]}
    events: Any = create_model(
        "RNEvents",
        __config__=ConfigDict(extra="forbid", frozen=True),
        **kinds,
    )
    items: Any = create_model(
        "RNItems",
        __config__=ConfigDict(extra="forbid", frozen=True),
        **item_kinds,
    )
    tables: dict[str, Any] = {
        "events": (events | None, None),
        "items": (items | None, None),
        "disaster_tracks": (RNTracks | None, None),
        "time_track": (RNTime | None, None),
        "actions": (RNActions | None, None),
    }
    return create_model(
        "RedNovemberVariant", __config__=ConfigDict(extra="forbid", frozen=True), **tables
    )


# -- Submarine ----------------------------------------------------------------------------
class SubPlayers(_Strict):
    """What each player receives at one player count."""

    bathyscaphes: Positive | None = None
    cards: Positive | None = None


class SubCards(_Strict):
    """The search cards."""

    per_colour: Positive | None = None
    hand_size: Positive | None = None


class SubTreasures(_Strict):
    """The treasure tokens: how many each cell holds at setup, by level (shallowest first)."""

    per_level: list[NonNegative] | None = None


class SubmarineVariant(_Strict):
    """Submarine's overridable components."""

    players: dict[Annotated[int, Field(ge=2, le=5)], SubPlayers] | None = None
    cards: SubCards | None = None
    treasures: SubTreasures | None = None


_MODELS: dict[str, type[BaseModel]] = {}


def schema(game: str) -> type[BaseModel]:
    """The pydantic model of ``game``'s overrides."""
    if game not in _PACKAGES:
        raise OptionError(f"{game} has no component data to override", code="bad_variant")
    if game not in _MODELS:
        _MODELS[game] = _rn_model() if game == "red-november" else SubmarineVariant
    return _MODELS[game]


# -- parsing --------------------------------------------------------------------------------
def _key(loc: Sequence[int | str]) -> str:
    parts = [str(p) for p in loc if not str(p).startswith(("int", "list[", "RN", "Sub"))]
    return ".".join(p for p in parts if p not in ("constrained-int", "[key]")) or "(top level)"


def _problem(err: Mapping[str, Any]) -> str:
    if err["type"] == "extra_forbidden":
        return "unknown key (not a component this game lets you override)"
    return str(err["msg"]).replace("Input should be", "should be")


def validate(game: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Check ``overrides`` against ``game``'s schema and board; the normalised overrides.

    Raises :class:`VariantError` naming the first key at fault.
    """
    model = schema(game)
    try:
        parsed = model.model_validate(dict(overrides))
    except ValidationError as exc:
        errors = exc.errors()
        # a union reports each branch: prefer the one that names the deepest key
        err = max(errors, key=lambda e: len(_key(e["loc"])))
        raise VariantError(_key(err["loc"]), _problem(err)) from None
    data: dict[str, Any] = parsed.model_dump(mode="json", exclude_none=True)
    data = _prune(data)
    build(game, data)  # the board's consistency
    return data


def _prune(data: Any) -> Any:
    """Drop empty tables (``[events]`` with nothing under it changes nothing)."""
    if isinstance(data, dict):
        pruned = {k: _prune(v) for k, v in data.items()}
        return {k: v for k, v in pruned.items() if v != {}}
    return data


def parse_value(raw: str) -> Any:
    """A ``--set`` value: a TOML value (``10``, ``[1, 4]``, ``{copies = 3}``), else text."""
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw


def parse_sets(pieces: Sequence[str]) -> dict[str, Any]:
    """``["events.fire=10", "time_track.start.6=50"]`` as nested overrides."""
    out: dict[str, Any] = {}
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


def merge(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``extra`` laid over ``base``, table by table (``extra`` wins)."""
    out = copy.deepcopy(dict(base))
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def load_overrides(path: str | Path | None, sets: Sequence[str] = ()) -> dict[str, Any]:
    """The raw overrides of a ``--components`` file with ``--set`` pieces laid over it."""
    data: dict[str, Any] = {}
    if path is not None:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise VariantError(str(path), f"cannot read the file ({exc.strerror or exc})") from None
        except tomllib.TOMLDecodeError as exc:
            raise VariantError(str(path), f"not valid TOML ({exc})") from None
    return merge(data, parse_sets(sets))


def read_variant(game: str, path: str | Path | None, sets: Sequence[str] = ()) -> dict[str, Any]:
    """Load, merge and validate a variant for ``game`` (``{}`` for none)."""
    raw = load_overrides(path, sets)
    return validate(game, raw) if raw else {}


# -- applying -------------------------------------------------------------------------------
def _apply_rn(data: dict[str, Any], ov: Mapping[str, Any]) -> None:
    for kind, value in ov.get("events", {}).items():
        spec = next(s for s in data["events"] if s["kind"] == kind)
        printed = list(spec["faint"]) or [0]
        if isinstance(value, list):
            spec["faint"] = list(value)
        else:
            spec["faint"] = [printed[i % len(printed)] for i in range(value)]
    for kind, value in ov.get("items", {}).items():
        spec = next(s for s in data["items"] if s["kind"] == kind)
        change: dict[str, Any] = {"copies": value} if isinstance(value, int) else dict(value)
        if "bonus" in change:
            change["bonus"] = {**spec.get("bonus", {}), **change["bonus"]}
        spec.update(change)
    for table in ("disaster_tracks", "actions"):
        data[table].update(ov.get(table, {}))
    time = dict(ov.get("time_track", {}))
    starts = time.pop("start", {})
    data["time_track"].update(time)
    data["time_track"]["start"] = {
        **data["time_track"]["start"],
        **{str(k): v for k, v in starts.items()},
    }


def _check_rn(data: Mapping[str, Any], ov: Mapping[str, Any]) -> None:
    dt, tt = data["disaster_tracks"], data["time_track"]
    length, top = int(dt["length"]), int(tt["top"])
    if int(dt["start"]) >= length:
        where = "start" if "start" in ov.get("disaster_tracks", {}) else "length"
        raise VariantError(
            f"disaster_tracks.{where}",
            f"the markers start on {dt['start']}, at or past the track's end ({length})",
        )
    for point in dt["reset_points"]:
        if int(point) >= length:
            raise VariantError(
                "disaster_tracks.reset_points",
                f"reset point {point} is at or past the track's end ({length})",
            )
    for gnomes, space in tt["start"].items():
        if int(space) > top:
            raise VariantError(
                f"time_track.start.{gnomes}", f"space {space} is past the track's top ({top})"
            )
    for space in tt["item_spaces"]:
        if int(space) > top:
            raise VariantError(
                "time_track.item_spaces", f"space {space} is past the track's top ({top})"
            )
    low, high = int(tt["event_spaces_to"]), int(tt["event_spaces_from"])
    if high > top:
        raise VariantError(
            "time_track.event_spaces_from", f"space {high} is past the track's top ({top})"
        )
    if not any(s % int(tt["event_spaces_divisor"]) == 0 for s in range(low, high + 1)):
        given = [k for k in ov.get("time_track", {}) if k.startswith("event_spaces_")]
        raise VariantError(
            f"time_track.{given[0]}" if given else "time_track",
            f"no space from {high} down to {low} is divisible by {tt['event_spaces_divisor']}: "
            "the Time Track would have no Draw Event icon",
        )
    if int(tt["abandon_below"]) >= top:
        raise VariantError("time_track.abandon_below", f"must be below the track's top ({top})")
    for spec in data["items"]:
        if int(spec.get("stash", 0)) and spec["kind"] != "grog":
            # the engine deals the stash as Grog (its _draw_items, rules.unseen_item_counts)
            raise VariantError(
                f"items.{spec['kind']}.stash", "only Grog starts in the captain's stash"
            )
        if int(spec.get("stash", 0)) > int(spec["copies"]):
            raise VariantError(
                f"items.{spec['kind']}.stash",
                f"{spec['stash']} in the stash but only {spec['copies']} copies in the box",
            )
    deck = sum(int(s["copies"]) - int(s.get("stash", 0)) for s in data["items"])
    most = max(int(g) for g in tt["start"])
    if deck < 2 * most:
        raise VariantError(
            "items", f"{deck} cards in the item deck cannot deal two to each of {most} gnomes"
        )
    if not any(s["faint"] for s in data["events"] if not s.get("set_aside", False)):
        raise VariantError("events", "the event deck would be empty")


def _apply_sub(data: dict[str, Any], ov: Mapping[str, Any]) -> None:
    for count, setup in ov.get("players", {}).items():
        data["players"].setdefault(str(count), {}).update(setup)
    data["cards"].update(ov.get("cards", {}))
    data["treasures"].update(ov.get("treasures", {}))


def _check_sub(data: Mapping[str, Any], ov: Mapping[str, Any]) -> None:
    board, treasures = data["board"], data["treasures"]
    levels, columns = int(board["levels"]), int(board["columns"])
    per_level = [int(k) for k in treasures.get("per_level", range(1, levels + 1))]
    if len(per_level) != levels:
        raise VariantError(
            "treasures.per_level", f"gives {len(per_level)} counts for the {levels} levels"
        )
    dealt = columns * sum(per_level)
    supply = len(treasures["types"]) * len(treasures["colours"])
    column = " + ".join(map(str, per_level))
    if dealt > supply:
        raise VariantError(
            "treasures.per_level",
            f"{columns} columns of {column} treasures need {dealt} treasure tokens; "
            f"there are only {supply}",
        )
    if dealt < supply:
        raise VariantError(
            "treasures.per_level",
            f"{columns} columns of {column} treasures deal {dealt} of the {supply} treasure "
            "tokens; every one must start in the sea",
        )
    per_colour = int(data["cards"]["per_colour"])
    colours = len(data["treasures"]["colours"])
    hand = int(data["cards"]["hand_size"])
    for count, setup in data["players"].items():
        n, cards = int(count), int(setup["cards"])
        if -(-n * cards // colours) > per_colour:
            key = f"players.{count}.cards" if "players" in ov else "cards.per_colour"
            raise VariantError(
                key,
                f"{n} players x {cards} cards need more than {per_colour} search cards "
                f"of each of the {colours} colours",
            )
        if cards < hand:
            raise VariantError(
                f"players.{count}.cards", f"{cards} cards cannot fill a hand of {hand}"
            )


def build(game: str, overrides: Mapping[str, Any]) -> Any:
    """The components of ``game`` with (already schema-valid) ``overrides`` applied."""
    data = packaged_toml(_PACKAGES[game])
    if game == "red-november":
        from subtable.games.red_november.components import _build as build_rn

        _apply_rn(data, overrides)
        _check_rn(data, overrides)
        builder: Any = build_rn
    else:
        from subtable.games.submarine.components import _build as build_sub

        _apply_sub(data, overrides)
        _check_sub(data, overrides)
        builder = build_sub
    try:
        return builder(data)
    except (ValueError, KeyError) as exc:
        raise VariantError("(components)", str(exc)) from None


# -- games built from a variant ---------------------------------------------------------------
_VARIANTS: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def make_variant_game(name: str, variant: Mapping[str, Any] | None, **options: Any) -> Any:
    """Build game ``name`` with ``options`` on the components of ``variant`` (validated)."""
    from subtable.core.registry import game_class

    cls = game_class(name)
    if not variant:
        return cls(**options)
    overrides = validate(name, variant)
    if not overrides:
        return cls(**options)
    game = cls(components=build(name, overrides), **options)
    _VARIANTS[game] = overrides
    return game


def variant_of(game: Any) -> dict[str, Any]:
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
