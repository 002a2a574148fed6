"""Game records: everything needed to replay a game bit for bit.

A record is JSON: the game, its ruleset version, options, seed, the actions in
canonical notation, and a digest of the final state. Replaying re-runs the
actions from the seed with full legality checks and compares digests, so a
malformed, truncated or tampered record is refused with a precise reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NotRequired, TypedDict, Unpack

from subtable import __version__
from subtable.core.components import TomlTable
from subtable.core.errors import RecordError, SubtableError
from subtable.core.game import State
from subtable.core.options import OptionValue
from subtable.core.registry import make_game

FORMAT = "subtable-record/1"


class RecordResult(TypedDict):
    """How a recorded game ended: why, who won, each seat's return."""

    reason: str
    winners: list[int]
    returns: list[float]


class RecordMeta(TypedDict, total=False):
    """What a record keeps beyond the game: the engine that played it and what the front end
    that saved it adds (its seats or bots, language, table, why it closed, advice asked)."""

    engine: str
    seats: list[str]
    bots: list[str]
    lang: str
    table: str
    closed: str
    #: each time advice was asked: ``[actions played before, seat]``
    advice: list[list[int]]


class RecordJSON(TypedDict):
    """A record's JSON form, in the order its file gives the keys."""

    format: str
    game: str
    ruleset: str
    options: dict[str, OptionValue]
    variant: NotRequired[TomlTable]
    seed: int
    actions: list[str]
    digest: str
    result: RecordResult | None
    meta: RecordMeta


@dataclass(slots=True)
class GameRecord:
    """A finished (or unfinished) game as data."""

    game: str
    ruleset: str
    options: dict[str, OptionValue]
    seed: int
    actions: list[str]
    digest: str
    #: how the game ended (``reason``, ``winners``, ``returns``), as the file gives it
    result: RecordResult | None = None
    meta: RecordMeta = field(default_factory=lambda: RecordMeta())
    #: component overrides the game was played with (``{}``: the packaged components; the
    #: JSON then has no ``variant`` field, exactly as before variants existed)
    variant: TomlTable = field(default_factory=dict)

    @classmethod
    def of(cls, name: str, state: State[Any], **meta: Unpack[RecordMeta]) -> GameRecord:
        """Record ``state`` (a game built by :func:`make_game` under ``name``)."""
        from subtable.core.variants import variant_of

        space = state.game.action_space
        outcome = state.outcome()
        result: RecordResult | None = None
        if outcome is not None:
            result = {
                "reason": outcome.reason,
                "winners": list(outcome.winners),
                "returns": state.returns(),
            }
        return cls(
            name,
            state.game.ruleset,
            dict(state.game.options),
            state.seed,
            [space[i].notation() for i in state.history],
            state.digest(),
            result,
            {"engine": __version__, **meta},
            variant_of(state.game),
        )

    def to_json(self) -> RecordJSON:
        """JSON-ready data."""
        data: RecordJSON = {
            "format": FORMAT,
            "game": self.game,
            "ruleset": self.ruleset,
            "options": self.options,
            "variant": self.variant,
            "seed": self.seed,
            "actions": self.actions,
            "digest": self.digest,
            "result": self.result,
            "meta": self.meta,
        }
        if not self.variant:
            del data["variant"]
        return data

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Validate the shape of record data (not its moves: see :func:`replay`)."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"unknown record format {data.get('format')!r} (expected {FORMAT!r})")
        expect: dict[str, type | tuple[type, ...]] = {
            "game": str,
            "ruleset": str,
            "options": dict,
            "seed": int,
            "actions": list,
            "digest": str,
        }
        for key, typ in expect.items():
            if key not in data:
                raise RecordError(f"the record has no {key!r} field")
            if not isinstance(data[key], typ) or isinstance(data[key], bool):
                raise RecordError(f"the record's {key!r} field has the wrong type")
        if not all(isinstance(a, str) for a in data["actions"]):
            raise RecordError("every action in a record must be a string")
        if data.get("result") is not None and not isinstance(data["result"], dict):
            raise RecordError("the record's 'result' field has the wrong type")
        if not isinstance(data.get("meta", {}), dict):
            raise RecordError("the record's 'meta' field has the wrong type")
        if not isinstance(data.get("variant", {}), dict):
            raise RecordError("the record's 'variant' field has the wrong type")
        # the result, meta and variant as the file gives them, checked for their kind only (a
        # replay checks the variant against the game's schema)
        return cls(
            data["game"],
            data["ruleset"],
            data["options"],
            data["seed"],
            list(data["actions"]),
            data["digest"],
            data.get("result"),
            data.get("meta", {}),
            data.get("variant", {}),
        )

    def save(self, path: str | Path) -> None:
        """Write the record as indented JSON."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file (raises :class:`RecordError` on any problem)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read the file ({exc.strerror or exc})") from None
        except UnicodeDecodeError:
            raise RecordError("the file is not text") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"the file is not valid JSON (line {exc.lineno}: {exc.msg})"
            ) from None
        return cls.from_json(data)


def replay(record: GameRecord, *, verify: bool = True) -> State[Any]:
    """Re-run a record from its seed; check every action and the final digest."""
    try:
        game = make_game(record.game, record.variant or None, **record.options)
    except SubtableError as exc:
        raise RecordError(f"the record's game or options are invalid: {exc.message}") from None
    if game.ruleset != record.ruleset:
        raise RecordError(
            f"the record was played under ruleset {record.ruleset!r}; "
            f"this engine plays {game.ruleset!r}"
        )
    state = game.new_state(record.seed)
    for index, text in enumerate(record.actions, start=1):
        try:
            state.apply(text)
        except SubtableError as exc:
            raise RecordError(
                f"action {index} ({text!r}) cannot be played: {exc.message}",
                params={"index": index, "action": text},
            ) from None
    if verify and state.digest() != record.digest:
        raise RecordError(
            "the final state does not match the record's digest "
            "(the record was altered or made by another ruleset)"
        )
    return state
