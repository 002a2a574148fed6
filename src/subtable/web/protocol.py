"""The WebSocket protocol (``docs/protocol.md``): the client's messages, validated with
pydantic, and the server's frames, each stamped with the protocol version here, once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal, cast

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from subtable.web import PROTOCOL_VERSION

#: an action: its id or its canonical notation
ActionRef = Annotated[
    StrictInt | Annotated[StrictStr, Field(min_length=1, max_length=64)],
    Field(union_mode="left_to_right"),
]
Seq = Annotated[StrictInt, Field(ge=0, le=10**9)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    v: Annotated[StrictInt, Field(ge=1, le=1)] = 1


class Hello(_Message):
    """Take a seat (or the spectator's chair) with a token; ``last_seq`` to resume."""

    type: Literal["hello"]
    table: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    token: Annotated[StrictStr, Field(min_length=1, max_length=128)]
    last_seq: Seq | None = None
    lang: Annotated[StrictStr, Field(max_length=16)] | None = None
    #: ``"html"``: also send the board, panels and log lines rendered in ``lang``
    render: Literal["html"] | None = None
    #: the player's display name, set as it sits down (a person's seat only)
    name: Annotated[StrictStr, Field(max_length=64)] | None = None
    #: the last line of chat seen (the chat after it comes in ``sync``; none: the last ones)
    last_chat: Seq | None = None


class ActionMsg(_Message):
    """Play an action at the position numbered ``seq``."""

    type: Literal["action"]
    seq: Seq
    action: ActionRef
    seat: Annotated[StrictInt, Field(ge=0, le=64)] | None = None


class UndoMsg(_Message):
    """Take back your last decision, if it revealed nothing."""

    type: Literal["undo"]
    seq: Seq


class WhyMsg(_Message):
    """Ask why an action is (not) possible now."""

    type: Literal["why"]
    action: ActionRef


class ChatMsg(_Message):
    """Say something at the table (a seated person)."""

    type: Literal["chat"]
    text: Annotated[StrictStr, Field(max_length=2_000)]


class NameMsg(_Message):
    """Choose the name the table shows for you."""

    type: Literal["name"]
    name: Annotated[StrictStr, Field(max_length=64)]


class HintMsg(_Message):
    """Ask the expert about your decision (answered to you alone; the log says you asked)."""

    type: Literal["hint"]
    seat: Annotated[StrictInt, Field(ge=0, le=64)] | None = None


class StartMsg(_Message):
    """Start a table that waits for its people now, bots taking the open seats (the person
    who opened it only)."""

    type: Literal["start"]


class PingMsg(_Message):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]


AnyMessage = Hello | ActionMsg | UndoMsg | WhyMsg | ChatMsg | NameMsg | HintMsg | StartMsg | PingMsg
ClientMessage = Annotated[AnyMessage, Field(discriminator="type")]
_adapter: TypeAdapter[AnyMessage] = TypeAdapter(ClientMessage)
MESSAGE_TYPES = ("hello", "action", "undo", "why", "chat", "name", "hint", "start", "ping")


class BadMessage(Exception):
    """A message that does not fit the protocol: a code and a message naming the problem."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def first_problem(errors: Sequence[Any], skip: int = 0, whole: str = "message") -> str:
    """The first of pydantic's ``errors`` in words: where (its location less the first
    ``skip`` parts, cut short; ``whole`` when it is about the whole) and what is wrong."""
    if not errors:
        return f"{whole}: invalid"
    first = errors[0]
    where = ".".join(str(p)[:40] for p in tuple(first.get("loc", ()))[skip:]) or whole
    return f"{where}: {str(first.get('msg', ''))[:200]}"


def parse_message(data: Any) -> AnyMessage:
    """Validate decoded JSON as a client message."""
    if not isinstance(data, dict):
        raise BadMessage("bad_message", "a message must be a JSON object")
    data = cast("dict[str, Any]", data)
    # exactly the integer 1: ``true`` equals 1 in Python, and ``1.0`` is not a version
    if "v" in data and (type(data["v"]) is not int or data["v"] != PROTOCOL_VERSION):
        raise BadMessage(
            "bad_version",
            f"protocol version {data['v']!r} is not spoken here "
            f"(this server speaks {PROTOCOL_VERSION})",
        )
    kind = data.get("type")
    if kind not in MESSAGE_TYPES:
        raise BadMessage(
            "unknown_type", f"unknown message type {kind!r} (known: {', '.join(MESSAGE_TYPES)})"
        )
    try:
        return _adapter.validate_python(data)
    except ValidationError as exc:
        raise BadMessage("bad_message", f"{kind}: {first_problem(exc.errors(), 1)}") from None


# -- the server's frames -------------------------------------------------------------------
class Frame(BaseModel):
    """A message of the server: its ``v`` is the protocol version, set here only."""

    model_config = ConfigDict(extra="forbid")

    v: int = PROTOCOL_VERSION

    def wire(self) -> dict[str, Any]:
        """The frame as the JSON object sent."""
        return self.model_dump(mode="json")


class ErrorFrame(Frame):
    """A message refused: a reason code, a message, the reason in the reader's language
    (``why``, when there are words for it), and what else the refusal tells (``seq``…)."""

    model_config = ConfigDict(extra="allow")

    type: Literal["error"] = "error"
    code: str
    message: str
    why: Any = None

    def wire(self) -> dict[str, Any]:
        """The frame as sent (``why`` only when there is one)."""
        out = super().wire()
        if out["why"] is None:
            del out["why"]
        return out


class PongFrame(Frame):
    """The answer to ``ping``: the table's position (``None`` before hello)."""

    type: Literal["pong"] = "pong"
    seq: int | None


class WhyFrame(Frame):
    """Why an action is (not) possible now (its fields: ``docs/protocol.md``)."""

    model_config = ConfigDict(extra="allow")

    type: Literal["why"] = "why"


class SyncFrame(Frame):
    """After hello: the entries and chat missed, the questions asked, the position now."""

    type: Literal["sync"] = "sync"
    entries: list[dict[str, Any]]
    chat: list[dict[str, Any]]
    advice_asked: list[Any]
    state: dict[str, Any]
