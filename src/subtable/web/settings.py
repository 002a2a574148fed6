"""How a server runs: its database, bot workers, limits and connection rules."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from subtable.web.limits import Limits


@dataclass(frozen=True, slots=True)
class Settings:
    """How a server runs."""

    db: str | None = None
    #: bot worker processes (0: a thread, for tests)
    bot_workers: int = 1
    #: what one request, one client and one table may ask (``limits.py``)
    limits: Limits = field(default_factory=Limits)
    #: the wall clock of turn-based deadlines (tests give their own)
    clock: Callable[[], float] = time.time
    #: extra origins allowed to open a WebSocket (the server's own always is)
    allowed_origins: tuple[str, ...] = ()
    #: the reverse proxies whose ``X-Forwarded-For`` / ``X-Forwarded-Proto`` are believed
    #: (addresses or networks, ``*`` for any); none: forwarded headers are ignored, and a
    #: client is the address that connected
    forwarded_allow_ips: tuple[str, ...] = ()
    #: largest client message, in characters
    max_message: int = 16_384
    #: messages per second a connection may send, and the burst above that
    rate: float = 20.0
    burst: float = 40.0
    #: outgoing messages queued for one connection before it is dropped as too slow
    max_queue: int = 1_000
    #: seconds a connection may stay without saying hello
    hello_timeout: float = 30.0
    #: rebuild every unfinished table at start-up
    restore: bool = True
    #: seconds between moves of the live objects into the collector's permanent
    #: generation (0: never); ``subtable serve`` sets it, so long-lived tables cost the
    #: garbage collector nothing
    gc_freeze: float = 0.0
