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
from typing import Any

from subtable import __version__
from subtable.core.errors import RecordError, SubtableError
from subtable.core.game import State
from subtable.core.options import OptionValue
from subtable.core.registry import make_game

FORMAT = "subtable-record/1"


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
    result: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    #: component overrides the game was played with (``{}``: the packaged components; the
    #: JSON then has no ``variant`` field, exactly as before variants existed)
    variant: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, name: str, state: State[Any], **meta: Any) -> GameRecord:
        """Record ``state`` (a game built by :func:`make_game` under ``name``)."""
        from subtable.core.variants import variant_of

        space = state.game.action_space
        outcome = state.outcome()
        result = None
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

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "ruleset": self.ruleset,
            "options": self.options,
        }
        if self.variant:
            data["variant"] = self.variant
        data.update(
            {
                "seed": self.seed,
                "actions": self.actions,
                "digest": self.digest,
                "result": self.result,
                "meta": self.meta,
            }
        )
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
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("the record's 'result' field has the wrong type")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("the record's 'meta' field has the wrong type")
        variant = data.get("variant", {})
        if not isinstance(variant, dict):
            raise RecordError("the record's 'variant' field has the wrong type")
        return cls(
            data["game"],
            data["ruleset"],
            data["options"],
            data["seed"],
            list(data["actions"]),
            data["digest"],
            result,
            meta,
            variant,
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
