"""Stopping background tasks: the caller waits for each to finish and stays cancellable."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor

from subtable.web.tasks import cancel_and_wait


async def _slow_to_stop(stopped: list[str]) -> None:
    try:
        await asyncio.Event().wait()
    finally:
        await asyncio.sleep(0.01)  # a cleanup that awaits (closing a connection)
        stopped.append("child")


async def _suppressing(tasks: list[asyncio.Task[None]]) -> None:
    """The idiom ``cancel_and_wait`` replaces."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(BaseException):
            await task


async def _caller_outcome(stop: Callable[[list[asyncio.Task[None]]], Awaitable[None]]) -> str:
    stopped: list[str] = []
    child = asyncio.create_task(_slow_to_stop(stopped))
    await asyncio.sleep(0)

    async def caller() -> str:
        await stop([child])
        return "went on"

    task = asyncio.create_task(caller())
    await asyncio.sleep(0)  # the caller now waits for its child
    task.cancel()  # the caller itself is stopped meanwhile
    await asyncio.wait([task, child])
    assert stopped == ["child"] and child.cancelled()  # the child still stops whole
    return "cancelled" if task.cancelled() else task.result()


def _run(stop: Callable[[list[asyncio.Task[None]]], Awaitable[None]]) -> str:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _caller_outcome(stop)).result(timeout=30)


def test_the_caller_stays_cancellable_while_it_waits() -> None:
    assert _run(cancel_and_wait) == "cancelled"
    # awaiting each task under suppress(BaseException) swallows the caller's cancellation
    assert _run(_suppressing) == "went on"


def test_a_failure_on_the_way_out_is_retrieved() -> None:
    async def run() -> None:
        async def failing() -> None:
            try:
                await asyncio.Event().wait()
            finally:
                raise RuntimeError("while stopping")

        task = asyncio.create_task(failing())
        await asyncio.sleep(0)
        await cancel_and_wait([task])
        assert task.done() and not task.cancelled()
        assert task._log_traceback is False  # type: ignore[attr-defined]  # retrieved

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result(timeout=30)
