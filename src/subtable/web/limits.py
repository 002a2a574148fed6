"""What one request, one client and one table may ask of the server, checked before any work.

Every limit here is a setting (``subtable serve --help`` names the flags) with a
default fit for a public server; ``docs/protocol.md`` lists them and what a client
gets when it passes one.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass

from subtable.web.botpool import DEFAULT_MAX_BUDGET

_DIGITS = re.compile(r"[0-9]{1,9}", re.ASCII)


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's ceilings."""

    #: most iterations a search bot may think per decision (``--max-budget``)
    max_budget: int = DEFAULT_MAX_BUDGET
    #: questions to the expert one player may ask a minute at a table (and in one burst)
    hints_per_minute: float = 20.0
    hint_burst: float = 5.0
    #: largest HTTP request body, in bytes (413 above)
    max_body: int = 65_536
    #: deepest nesting of arrays and objects in a JSON message or body
    max_json_depth: int = 32
    #: unfinished tables on the server (``--max-tables``)
    max_tables: int = 10_000
    #: unfinished tables opened from one client address (``--max-tables-per-client``)
    max_tables_per_client: int = 20
    #: tables one client address may open per minute (and in one burst)
    tables_per_minute: float = 10.0
    #: seconds without a move and without anybody at the table before it is closed
    #: as abandoned (``--abandon-after``; its record is kept)
    abandon_after: float = 14 * 86_400.0
    #: seconds a table nobody looks at stays in memory once its game is over
    evict_after: float = 600.0
    #: seconds between two sweeps for abandoned and idle tables
    sweep_every: float = 60.0
    #: characters in a person's display name; new names one player may take a minute
    #: (and in one burst)
    name_length: int = 24
    names_per_minute: float = 6.0
    names_burst: float = 3.0
    #: characters in a line of chat, lines one person may say a minute (and in one burst),
    #: lines a table's chat keeps
    chat_length: int = 300
    chat_per_minute: float = 20.0
    chat_burst: float = 5.0
    chat_lines: int = 2_000
    #: public tables the lobby lists at most (the newest)
    lobby_size: int = 100
    #: a turn-based table's time limit per decision: its least and its most (seconds)
    turn_limit_min: float = 60.0
    turn_limit_max: float = 30 * 86_400.0
    #: seconds between two looks for people whose time ran out
    deadline_every: float = 5.0


def ascii_int(raw: str | None) -> int | None:
    """``raw`` as a whole number written in ASCII digits (at most nine), else ``None``.

    ``"²"``, ``"٣"``, ``"+1"``, ``" 1"`` and ``"1e3"`` are not numbers here: ``str.isdigit``
    and ``int`` accept some of them, and a number too long for ``int`` would raise.
    """
    if raw is None or not _DIGITS.fullmatch(raw):
        return None
    return int(raw)


def json_too_deep(text: str, limit: int) -> bool:
    """Whether ``text`` nests arrays or objects deeper than ``limit`` (outside strings).

    Python's parser recurses per level: a message of 16 KiB of ``[`` would exhaust the
    stack. This scan costs one pass, and none for a message with few brackets.
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def client_key(address: str | None) -> str:
    """What the server keeps of a client's address: a short digest, never the address."""
    return hashlib.sha256((address or "?").encode("utf-8", "surrogatepass")).hexdigest()[:32]


class Buckets:
    """A token bucket per key (a client address): ``rate`` a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float, *, size: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.size = size
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str, now: float | None = None) -> bool:
        """Take one token from ``key``'s bucket, if it has one."""
        now = time.monotonic() if now is None else now
        tokens, stamp = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        if len(self._buckets) >= self.size and key not in self._buckets:
            # forget the full buckets (they are as good as new), then the oldest: the map
            # stays bounded
            self._buckets = {
                k: v
                for k, v in self._buckets.items()
                if v[0] + (now - v[1]) * self.rate < self.burst
            }
            for old in list(self._buckets)[: max(0, len(self._buckets) - self.size // 2)]:
                del self._buckets[old]
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1.0, now)
        return True


def too_fast(limits: Limits) -> str:
    """The refusal of a client that opens tables faster than the limits allow."""
    return (
        f"too many tables opened from your address: at most {limits.tables_per_minute:g} "
        "a minute; wait a little and try again"
    )
