"""The WebSocket protocol (``docs/protocol.md``): the client's messages, validated with
pydantic, and the server's frames, each stamped with the protocol version here, once."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any, ClassVar, Literal, cast

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SkipValidation,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from subtable.web import PROTOCOL_VERSION
from subtable.web.wire import GameJson, Options, StageJson, StateJson

#: an action: its id or its canonical notation
ActionRef = Annotated[
    StrictInt | Annotated[StrictStr, Field(min_length=1, max_length=64)],
    Field(union_mode="left_to_right"),
]
Seq = Annotated[StrictInt, Field(ge=0, le=10**9)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    v: Annotated[StrictInt, Field(ge=PROTOCOL_VERSION, le=PROTOCOL_VERSION)] = PROTOCOL_VERSION


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
class Part(BaseModel):
    """A part of what the server sends: its fields go on the wire in the order declared;
    those named in ``omitted_when_none`` are left out when ``None`` (the others are sent
    as ``null``)."""

    model_config = ConfigDict(extra="forbid")

    omitted_when_none: ClassVar[tuple[str, ...]] = ()

    def wire(self) -> dict[str, Any]:
        """The part as the JSON object sent. Its free-form parts (views, events) are passed
        on as they are, not walked again: ``json`` walks them once, as it writes them."""
        out: dict[str, Any] = {}
        for name in type(self).model_fields:
            value = getattr(self, name)
            if value is not None or name not in self.omitted_when_none:
                out[name] = _wire(value)
        for name, value in (self.model_extra or {}).items():
            out[name] = _wire(value)
        return out


def _wire(value: Any) -> Any:
    if isinstance(value, Part):
        return value.wire()
    if isinstance(value, list) and value and isinstance(value[0], Part):
        return [_wire(item) for item in value]
    return value


class Frame(Part):
    """A message of the server: its ``v`` is the protocol version, set here only."""

    v: int = PROTOCOL_VERSION

    def text(self) -> str:
        """The frame as the text sent: compact JSON."""
        return json.dumps(self.wire(), separators=(",", ":"))


class PlayerSeat(Part):
    """A player of the table: a person (``human``) or a bot and its spec."""

    player: int
    controller: Literal["human", "bot"]
    bot: str | None


class Entry(Part):
    """An entry as one connection may see it: the action or its public form, its label in
    the connection's language, the events redacted for it; for a page also the events
    narrated (``lines``) and what to show of them (``stage``)."""

    omitted_when_none = ("lines", "stage")

    seq: int
    kind: str
    seat: int | None
    action: str
    label: str
    events: list[GameJson]
    lines: list[str] | None = None
    stage: SkipValidation[StageJson] | None = None


class ChatLine(Part):
    """A line said at the table (public: every connection gets the same)."""

    n: int
    #: the entry it was said after
    seq: int
    player: int
    name: str | None
    text: str
    at: float | int


class AskedRef(Part):
    """One time a player asked the expert: its number, the entry it followed, the seat."""

    n: int
    seq: int
    seat: int


class AdviceAsked(Part):
    """One time advice was asked, and the log's line about it in the reader's language."""

    asked: AskedRef
    line: str


class WelcomeFrame(Frame):
    """After hello: the table, this connection's role and seats, the players, the setup
    as this connection may see it; for a page (``render: "html"``) also the seats' names,
    the role and the setup narrated."""

    omitted_when_none = ("names", "role_text", "lines")

    type: Literal["welcome"] = "welcome"
    table: str
    game: str
    options: Options
    lang: str
    role: Literal["player", "spectator"]
    player: int | None
    seats: list[int]
    owners: list[int]
    players: list[PlayerSeat]
    opening: list[GameJson]
    people: list[str | None]
    mode: str
    #: seconds a decision (an ``int`` stays one on the wire)
    turn_limit: float | int | None
    late: str | None
    advice: bool
    names: list[str] | None = None
    role_text: str | None = None
    lines: list[str] | None = None


class SyncFrame(Frame):
    """After welcome: the entries and chat missed, the questions asked, the position now."""

    type: Literal["sync"] = "sync"
    entries: list[Entry]
    chat: list[ChatLine]
    advice_asked: list[AdviceAsked]
    state: SkipValidation[StateJson]


class UpdateFrame(Frame):
    """A committed entry, as this connection may see it, and the position after it."""

    type: Literal["update"] = "update"
    entry: Entry
    state: SkipValidation[StateJson]


class ErrorFrame(Frame):
    """A message refused: a reason code, a message, the reason in the reader's language
    (``why``, when there are words for it), the request it answers (``about``: ``hint``)
    and what else the refusal tells (``seq``, ``params``…)."""

    model_config = ConfigDict(extra="allow")
    omitted_when_none = ("why", "about")

    type: Literal["error"] = "error"
    code: str
    message: str
    why: str | None = None
    about: str | None = None


class WhyFrame(Frame):
    """Whether an action is possible now, and why not (``code`` and ``message`` only
    when it is not)."""

    omitted_when_none = ("code", "message")

    type: Literal["why"] = "why"
    action: str
    legal: bool
    code: str | None = None
    message: str | None = None
    why: str


class PongFrame(Frame):
    """The answer to ``ping``: the table's position (``None`` before hello)."""

    type: Literal["pong"] = "pong"
    seq: int | None


class ChatFrame(Frame):
    """A line said at the table, to every connection."""

    type: Literal["chat"] = "chat"
    chat: ChatLine


class PeopleFrame(Frame):
    """The people's names changed: the names, the position drawn anew, and for a page
    the seats' names as its log heads read them."""

    omitted_when_none = ("names",)

    type: Literal["people"] = "people"
    people: list[str | None]
    state: SkipValidation[StateJson]
    names: list[str] | None = None


class ClosedFrame(Frame):
    """The table closed before its game ended: why, and the position."""

    type: Literal["closed"] = "closed"
    reason: str | None
    state: SkipValidation[StateJson]


class RematchFrame(Frame):
    """The finished table goes on at a new one: this connection's own link to it."""

    type: Literal["rematch"] = "rematch"
    table: str
    url: str


class AdviceAskedFrame(Frame):
    """A player asked the expert: who and when (``asked``), and the log's line."""

    type: Literal["advice_asked"] = "advice_asked"
    asked: AskedRef
    line: str


class AdviceChoice(Part):
    """One option of an ``advice`` answer, best first, in the asker's words."""

    rank: int
    action: int
    notation: str
    label: str
    chance: str
    low: str
    high: str
    worlds: int
    expert: bool
    reason: str


class AdviceFrame(Frame):
    """The expert's answer, to the asking connection only: the options in words, the
    terminal's lines, and the figures (``advice``)."""

    type: Literal["advice"] = "advice"
    seq: int
    seat: int
    title: str
    options: list[AdviceChoice]
    lines: list[str]
    advice: GameJson


#: every frame the server sends
SERVER_FRAMES: tuple[type[Frame], ...] = (
    WelcomeFrame,
    SyncFrame,
    UpdateFrame,
    ErrorFrame,
    WhyFrame,
    PongFrame,
    ChatFrame,
    PeopleFrame,
    ClosedFrame,
    RematchFrame,
    AdviceAskedFrame,
    AdviceFrame,
)
