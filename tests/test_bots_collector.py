"""The cycle collector is paused while a search thinks — in one go (``finish``) or one web
slice at a time — and is always back as it was afterwards, an error included."""

from __future__ import annotations

import gc
import queue
import threading
from collections.abc import Generator, Iterator
from types import SimpleNamespace

import pytest

from subtable.bots.base import collector_paused, finish
from subtable.web import botpool


@pytest.fixture(autouse=True)
def _collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def _probe(seen: list[bool], steps: int = 3, fail: bool = False) -> Generator[int, None, str]:
    for i in range(steps):
        seen.append(gc.isenabled())
        yield i
    if fail:
        raise RuntimeError("the search failed")
    seen.append(gc.isenabled())
    return "done"


def test_a_search_run_in_one_go_thinks_with_the_collector_paused() -> None:
    seen: list[bool] = []
    assert finish(_probe(seen)) == "done"
    assert seen == [False] * 4
    assert gc.isenabled()


def test_the_collector_comes_back_when_a_search_fails() -> None:
    seen: list[bool] = []
    with pytest.raises(RuntimeError, match="the search failed"):
        finish(_probe(seen, fail=True))
    assert seen == [False] * 3
    assert gc.isenabled()


def test_a_collector_paused_by_someone_else_stays_paused() -> None:
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
    assert finish(_probe([])) == "done"
    assert not gc.isenabled()


def test_a_web_worker_pauses_it_while_it_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def searching(job: object) -> Generator[int, None, str]:
        return _probe(seen, steps=5)

    monkeypatch.setattr(botpool, "searching", searching)
    inbox: queue.Queue[object] = queue.Queue()
    outbox: queue.Queue[object] = queue.Queue()
    worker = threading.Thread(target=botpool._work, args=(inbox, outbox, 0.001), daemon=True)
    worker.start()
    inbox.put(("think", 1, SimpleNamespace(key="table")))  # a job: the worker reads its table
    assert outbox.get(timeout=30) == ("done", 1, "done")
    assert gc.isenabled()  # back on between slices and after the search
    inbox.put(None)
    worker.join(timeout=30)
    assert seen == [False] * 6
