"""The lobby pushed to open home pages: ``GET /api/lobby/events`` (Server-Sent Events) says
``event: lobby`` whenever the public tables with an open person's seat change, and the page
then fetches the lobby again.

A table opened or a seat taken through the API pokes the feed at once; anything else that
changes the lobby (a seat taken by an invitation, a game over) is seen by a look every
:data:`LOOK_EVERY` seconds, shared by all listeners. Bounded: at most ``cap`` listeners,
each holding only the last lobby it was told of.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable

from subtable.web.wire import LobbyTable

#: seconds between two looks at the lobby when nothing poked the feed
LOOK_EVERY = 5.0
#: listeners one server keeps at most (more are refused, and their pages fall back to a look
#: now and then)
MAX_LISTENERS = 200
#: how long a browser waits before it connects again after the stream broke (milliseconds)
RETRY_MS = 3_000
#: how long a browser turned away at the cap waits before it asks again (milliseconds)
FULL_RETRY_MS = 60_000

Signature = tuple[Hashable, ...]


def signature(tables: list[LobbyTable]) -> Signature:
    """What a lobby page shows of the lobby's tables: each table and which seats are open."""
    return tuple((t["id"], tuple(s["open"] for s in t["seats"])) for t in tables)


class LobbyFeed:
    """Tells every open lobby page that the lobby changed."""

    def __init__(
        self,
        look: Callable[[], Awaitable[list[LobbyTable]]],
        cap: int = MAX_LISTENERS,
        every: float = LOOK_EVERY,
    ) -> None:
        self._look = look
        self.cap = cap
        self.every = every
        self.listeners = 0
        self._wake = asyncio.Event()
        self._pokes = 0  # a listener busy sending when poked sees the count moved on
        self._lock = asyncio.Lock()
        self._seen: Signature = ()
        self._seen_at = -float("inf")

    def full(self) -> bool:
        """Whether no more listener is taken."""
        return self.listeners >= self.cap

    def changed(self) -> None:
        """The lobby may have changed: every listener looks now."""
        self._seen_at = -float("inf")
        self._pokes += 1
        wake, self._wake = self._wake, asyncio.Event()
        wake.set()

    async def now(self) -> Signature:
        """The lobby's signature, looked at no more than once a second for all listeners."""
        async with self._lock:
            if time.monotonic() - self._seen_at >= 1.0:
                self._seen = signature(await self._look())
                self._seen_at = time.monotonic()
            return self._seen

    async def events(self) -> AsyncIterator[str]:
        """One listener's stream: ``event: lobby`` at each change, a comment in between
        (a closed page is noticed when the comment cannot be sent).

        The cap is checked again here, where the listener is counted (nothing awaits in
        between): a burst of requests may all pass the route's look at :meth:`full` before
        the first stream starts; those beyond the cap are told to come back later."""
        if self.full():
            yield f"retry: {FULL_RETRY_MS}\n: full\n\n"
            return
        self.listeners += 1
        try:
            told, pokes = await self.now(), self._pokes
            yield f"retry: {RETRY_MS}\n: listening\n\n"
            while True:
                if pokes == self._pokes:
                    await self._wait()
                pokes = self._pokes
                seen = await self.now()
                if seen != told:
                    told = seen
                    yield "event: lobby\ndata: changed\n\n"
                else:
                    yield ": still\n\n"
        finally:
            self.listeners -= 1

    async def _wait(self) -> None:
        """Until the next poke, or :attr:`every` seconds."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), self.every)
