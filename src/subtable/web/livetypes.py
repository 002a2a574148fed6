"""The live layer's small types: who sits at a new table, a token's digest, a client as the
tables see it, a refusal (and a table that cannot be opened), an applied entry, and a
rematch."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from subtable.core.events import Event
from subtable.i18n import Translator
from subtable.web.protocol import Frame, RematchFrame

HUMAN = "human"
#: the kind of an entry a bot played for a person whose time ran out (turn-based tables),
#: and the reason a table closes when its late policy is to abandon it
LATE = "late"
TURN_BASED: Final = "turn-based"


@dataclass(frozen=True, slots=True)
class TablePeople:
    """Who may sit at a new table and how it is played: the names of the people seated
    at creation, ``public`` or ``private``, ``live`` or ``turn-based`` (``turn_limit``
    seconds a decision, then ``late``: ``bot`` plays it, or ``abandon`` closes the table)."""

    names: dict[int, str] = field(default_factory=lambda: dict[int, str]())
    visibility: str = "private"
    mode: str = "live"
    turn_limit: float | None = None
    late: str | None = None


def token_hash(token: str) -> str:
    """The SHA-256 (hex) stored instead of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A long random secret (32 bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


class Client(Protocol):
    """A connection at a table: a player's seats, or a spectator (no seats)."""

    player: int | None
    seats: tuple[int, ...]
    tr: Translator
    #: the page asked for rendered boards and narrated log lines (``render: "html"``)
    html: bool

    def send(self, frame: Frame) -> None:
        """Queue one of the server's frames to send (never blocks)."""
        ...


class Refused(Exception):
    """A client's request refused: a reason code, a message, and what else to tell."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


class Unreadable(Refused):
    """A stored table whose record does not replay (an entry no longer legal, options this
    version does not know): it is refused, and its record is kept as it was."""

    def __init__(self, table_id: str, seq: int) -> None:
        where = "its settings" if seq == 0 else f"its entry {seq}"
        super().__init__(
            "unreadable",
            f"table {table_id!r} cannot be opened: {where} does not replay here;"
            " its record is kept as it was",
        )
        self.seq = seq


@dataclass(slots=True)
class LiveEntry:
    """One applied entry and the events it caused (unredacted: redact per seat)."""

    seq: int
    kind: str
    seat: int | None
    action: str
    events: list[Event]
    #: the actions that make the position after it (undone ones left out)
    moves: int = 0


@dataclass(frozen=True, slots=True)
class Rematch:
    """The table a finished one continues at ("play again"): its id and the raw tokens of
    its seats, kept in memory only, to hand each person their own."""

    table: str
    #: each human player's token at the new table
    tokens: dict[int, str]
    spectator: str

    def link(self, player: int | None) -> str:
        """The new table's link for ``player`` (``None``: the spectators')."""
        token = self.spectator if player is None else self.tokens[player]
        return f"/t/{self.table}#{token}"

    def frame(self, player: int | None) -> RematchFrame:
        """The ``rematch`` frame for a connection of ``player``: its own link only."""
        return RematchFrame(table=self.table, url=self.link(player))
