"""The expert's queue is fair: questions take their table's turn in the bot pool, one per
seat at most, none about a decision that has passed or for an asker who left, and a
player who asks in a loop is told to slow down."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import queue
import threading
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import Seat, new_table
from tests.web.test_hint import _app as hint_app

from subtable.bots.advice import Advice
from subtable.web import botpool, hint
from subtable.web.botpool import BotPool, Round


# -- the pool's round --------------------------------------------------------------------
@dataclass(frozen=True)
class _Job:
    key: str
    name: str
    steps: int


def _slices(jobs: list[_Job], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The jobs' names in the order a worker thinks for them, one slice each."""
    order: list[str] = []

    def search(job: _Job) -> Generator[int, None, str]:
        for _ in range(job.steps):
            order.append(job.name)
            time.sleep(0.002)  # longer than a slice: one step per slice
            yield 1
        return job.name

    monkeypatch.setattr(botpool, "searching", search)
    inbox: queue.Queue[Any] = queue.Queue()
    outbox: queue.Queue[Any] = queue.Queue()
    for n, job in enumerate(jobs, start=1):  # all waiting before the worker starts
        inbox.put(("think", n, job))
    worker = threading.Thread(target=botpool._work, args=(inbox, outbox, 0.001))
    worker.start()
    answers = [outbox.get(timeout=30) for _ in jobs]
    inbox.put(None)
    worker.join(timeout=10)
    assert all(kind == "done" for kind, _, _ in answers)
    return order


def test_a_flood_of_questions_takes_one_turn_of_the_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    flood = [_Job("asking", f"q{n}", 4) for n in range(30)]
    bot = _Job("other", "bot", 4)
    order = _slices([*flood, bot], monkeypatch)
    mine = [i for i, name in enumerate(order) if name == "bot"]
    assert len(mine) == bot.steps
    # the other table's bot waits at most one slice (the asking table's turn) between two
    # of its own: the bound a single bot beside it has, however many questions are waiting
    assert mine[0] <= 1
    assert all(b - a <= 2 for a, b in itertools.pairwise(mine))
    # and the asking table's questions take their turns among themselves
    questions = [name for name in order if name != "bot"]
    assert questions[:3] == ["q0", "q1", "q2"]


def test_the_round_forgets_a_cancelled_job_and_an_empty_table() -> None:
    rounds = Round()

    def search() -> Generator[int, None, None]:
        yield 1

    rounds.add("a", 1, search())
    rounds.add("a", 2, search())
    rounds.add("b", 3, search())
    assert [rounds.take()[0] for _ in range(4)] == [1, 3, 2, 3]
    rounds.cancel(3)
    rounds.cancel(3)  # twice: nothing
    assert [rounds.take()[0] for _ in range(2)] == [1, 2]
    rounds.cancel(1)
    rounds.cancel(2)
    assert not rounds


def test_a_tables_jobs_stay_on_one_worker() -> None:
    pool = BotPool(0)
    try:
        pool._load = [0, 0]
        first = pool._assign("a")
        assert pool._assign("a") == first  # beside its own: the table's turn
        other = pool._assign("b")
        assert other != first  # the least loaded
        pool._release("a")
        pool._release("a")
        assert pool._assign("c") == first
    finally:
        pool._load = [0]
        pool.close()


# -- the questions at the table ----------------------------------------------------------
@dataclass
class _Held:
    """Questions reaching the pool, held there until :attr:`release` is set."""

    started: int = 0
    cancelled: int = 0
    answered: int = 0
    now: int = 0
    peak: int = 0
    release: threading.Event = field(default_factory=threading.Event)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> _Held:
    record = _Held()
    real = BotPool.advise

    async def advise(self: BotPool, job: Any) -> Advice:
        record.started += 1
        record.now += 1
        record.peak = max(record.peak, record.now)
        try:
            while not record.release.is_set():
                await asyncio.sleep(0.005)
            found = await real(self, job)
            record.answered += 1
            return found
        except asyncio.CancelledError:
            record.cancelled += 1
            raise
        finally:
            record.now -= 1

    monkeypatch.setattr(BotPool, "advise", advise)
    return record


def _app(db: Path, **limits: Any) -> TestClient:
    """The app of ``test_hint``, its players free to ask as often as a test needs."""
    return hint_app(db, **{"hint_burst": 100.0, **limits})


@contextlib.contextmanager
def _table(tmp_path: Path, **limits: Any) -> Iterator[Seat]:
    """The seat to decide at a two-person Submarine table with advice on."""
    with _app(tmp_path / "t.db", **limits) as client, contextlib.ExitStack() as stack:
        t = new_table(client, game="submarine", players=2, seats=["human"] * 2, advice=True)
        seats = [
            Seat(stack.enter_context(client.websocket_connect("/ws")), t["id"], i["token"])
            for i in t["invites"]
        ]
        yield next(s for s in seats if s.state["your_turn"])


def _until(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 20
    while not check():
        if time.monotonic() > deadline:
            pytest.fail("the server did not get there in 20 s")
        time.sleep(0.01)


def _ask(seat: Seat) -> dict[str, Any]:
    seat.send({"v": 1, "type": "hint"})
    return seat.recv()


def _act_and_undo(seat: Seat) -> None:
    seat.act(seat.state["legal"][0]["id"])
    assert seat.recv()["type"] == "update"
    assert seat.state["can_undo"]
    seat.send({"v": 1, "type": "undo", "seq": seat.state["seq"]})
    assert seat.recv()["type"] == "update"


def test_a_question_whose_decision_passed_is_dropped(tmp_path: Path, held: _Held) -> None:
    with _table(tmp_path) as seat:
        for n in range(1, 5):
            assert _ask(seat)["type"] == "advice_asked"
            _until(lambda n=n: held.started == n)  # type: ignore[misc]
            _act_and_undo(seat)
            _until(lambda n=n: held.cancelled == n)  # type: ignore[misc]
        assert held.peak == 1
        held.release.set()
        assert _ask(seat)["type"] == "advice_asked"
        answer = seat.recv()
        assert answer["type"] == "advice" and answer["seq"] == seat.state["seq"]
        assert (held.started, held.cancelled, held.answered) == (5, 4, 1)


def test_a_new_question_replaces_the_waiting_one(
    tmp_path: Path, held: _Held, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the table's moves drop nothing here: the replacement alone keeps one question a seat
    monkeypatch.setattr(hint, "drop_stale", lambda table: None)
    with _table(tmp_path) as seat:
        for n in range(1, 4):
            assert _ask(seat)["type"] == "advice_asked"
            _until(lambda n=n: held.started == n)  # type: ignore[misc]
            _until(lambda n=n: held.cancelled == n - 1)  # type: ignore[misc]
            _act_and_undo(seat)
        assert held.peak == 1 and held.now == 1


def test_a_question_is_dropped_when_its_asker_leaves_and_logged_once(
    tmp_path: Path, held: _Held
) -> None:
    with _app(tmp_path / "t.db") as client:
        t = new_table(client, game="submarine", players=2, seats=["human"] * 2, advice=True)
        tokens = [i["token"] for i in t["invites"]]
        with client.websocket_connect("/ws") as ws:
            first = Seat(ws, t["id"], tokens[0])
        mover = tokens[0] if first.state["your_turn"] else tokens[1]
        with client.websocket_connect("/ws") as ws:
            seat = Seat(ws, t["id"], mover)
            assert _ask(seat)["type"] == "advice_asked"
            _until(lambda: held.started == 1)
        _until(lambda: held.cancelled == 1)
        held.release.set()
        with client.websocket_connect("/ws") as ws:
            seat = Seat(ws, t["id"], mover)
            assert len(seat.sync["advice_asked"]) == 1
            answer = _ask(seat)  # the same decision again: thought anew, not logged anew
            assert answer["type"] == "advice", answer
        with client.websocket_connect("/ws") as ws:
            assert len(Seat(ws, t["id"], mover).sync["advice_asked"]) == 1
        assert (held.started, held.cancelled, held.answered) == (2, 1, 1)


def test_asking_in_a_loop_is_rate_limited(tmp_path: Path, held: _Held) -> None:
    with _table(tmp_path, hint_burst=3.0, hints_per_minute=1.0) as seat:
        for _ in range(3):
            assert _ask(seat)["type"] == "advice_asked"
            _act_and_undo(seat)
        error = _ask(seat)
        assert error["type"] == "error" and error["code"] == "rate_limited", error
        assert error["about"] == "hint" and error["why"] and "a minute" in error["message"]
        _until(lambda: held.started == 3)
        seat.send({"v": 1, "type": "ping"})
        assert seat.recv()["type"] == "pong"  # nothing else was sent, nothing was logged
        assert held.started == 3
