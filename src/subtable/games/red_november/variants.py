"""Red November's variants: the components a variant may override, and how.

The schema of the overrides (:func:`_model`, built from the packaged event and item kinds),
how an override changes the parsed ``components.toml`` and the board's consistency checks;
:mod:`subtable.core.variants` reads the files and ``--set`` pieces and names the key at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from subtable.core.variants import NonNegative, Positive, Strict, VariantError, Variants
from subtable.games.red_november.components import (
    FIX_KINDS,
    ComponentsToml,
    _build,
    components_toml,
)

#: a Faint Check number printed on an event card (0 is the dash)
FaintNumber = Annotated[int, Field(ge=0, le=9, strict=True)]


class RNItem(Strict):
    """One item kind: how many copies are in the box, how many start in the Grog stash
    (and, in the schema :func:`schema` builds, ``bonus``: what it adds to each fix-it roll)."""

    copies: NonNegative | None = None
    stash: NonNegative | None = None


class RNTracks(Strict):
    """The disaster tracks: spaces 1..length, the start space and the reset points."""

    length: Annotated[int, Field(ge=2, le=30, strict=True)] | None = None
    start: Positive | None = None
    reset_points: list[Positive] | None = None


class RNTime(Strict):
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


class RNActions(Strict):
    """Numbers printed on the player aid."""

    max_fix_minutes: Positive | None = None
    low_water_penalty: NonNegative | None = None
    stores_max_draw: NonNegative | None = None
    cabin_max_draw: NonNegative | None = None


def _model() -> type[BaseModel]:
    data = components_toml()
    #: an event kind: its number of copies (the packaged Faint numbers, in order and
    #: repeated), or the Faint Check number of each copy
    count: Any = NonNegative
    event: Any = (count | list[FaintNumber] | None, None)
    #: an item's bonus to each fix-it action (the kinds left out keep the packaged bonus).
    #: The fields of the models built here are typed Any: pydantic's create_model takes
    #: them as keywords beside its own.
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


def _apply(data: ComponentsToml, ov: Mapping[str, Any]) -> None:
    for kind, value in ov.get("events", {}).items():
        spec = next(s for s in data["events"] if s["kind"] == kind)
        printed = list(spec["faint"]) or [0]
        if isinstance(value, list):
            spec["faint"] = list(value)
        else:
            spec["faint"] = [printed[i % len(printed)] for i in range(value)]
    for kind, value in ov.get("items", {}).items():
        item = next(s for s in data["items"] if s["kind"] == kind)
        if isinstance(value, int):
            item["copies"] = value
            continue
        bonus = {**item.get("bonus", {}), **value.get("bonus", {})}
        item.update(value)
        if "bonus" in value:
            item["bonus"] = bonus
    data["disaster_tracks"].update(ov.get("disaster_tracks", {}))
    data["actions"].update(ov.get("actions", {}))
    time, tt = ov.get("time_track", {}), data["time_track"]
    start = {**tt["start"], **{str(k): v for k, v in time.get("start", {}).items()}}
    tt.update(time)
    tt["start"] = start


def _check(data: ComponentsToml, ov: Mapping[str, Any]) -> None:
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
                f"{spec.get('stash', 0)} in the stash but only {spec['copies']} copies in the box",
            )
    deck = sum(int(s["copies"]) - int(s.get("stash", 0)) for s in data["items"])
    most = max(int(g) for g in tt["start"])
    if deck < 2 * most:
        raise VariantError(
            "items", f"{deck} cards in the item deck cannot deal two to each of {most} gnomes"
        )
    if not any(s["faint"] for s in data["events"] if not s.get("set_aside", False)):
        raise VariantError("events", "the event deck would be empty")


#: the ``variants`` part of Red November's registration
VARIANTS = Variants(components_toml, _model, _apply, _check, _build)
