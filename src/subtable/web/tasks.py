"""Stopping the server's background tasks (bots thinking, questions to the expert, a
socket's sender, charts being worked out) without swallowing the caller's own cancellation."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any


async def cancel_and_wait(tasks: Iterable[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` and return once every one has finished; what they raised is dropped.

    The caller stays cancellable while it waits: awaiting each task under
    ``suppress(BaseException)`` would also swallow a cancellation meant for the caller, and a
    caller that goes on after its cancellation was swallowed can keep an event loop from
    ever closing.
    """
    pending = [t for t in tasks if not t.done()]
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending)
    for task in pending:
        if not task.cancelled():
            task.exception()  # retrieved: a failure on the way out is not reported twice
