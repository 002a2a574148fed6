"""Bots think off the server's event loop, a slice at a time, in turn across tables.

A :class:`BotPool` runs one or more *workers* (processes; a thread in tests). Each
worker holds the searches of the tables given to it and thinks for them in turn, a
short slice each (:data:`SLICE_SECONDS` of wall time, then the next table), so one
table's long search delays another table's move by at most one slice per turn of the
round — never by the whole search. A search is a generator (:meth:`ISMCTSBot.think`):
however it is sliced it draws the same numbers, so the choice is the same as in one
go, and a table replays identically from its record. A question to the expert
(:mod:`subtable.web.advicejob`: a seat's view and its legal actions) is thought the same
way and answered with the advice's JSON. The round takes turns by table, not by job: a
table's bot and the questions its players ask share one turn (:class:`Round`), so asking
the expert in a loop slows another table no more than one bot does.

A worker rebuilds the position from the table's game, options, seed and effective
actions (it keeps the last position of each table to avoid replaying from the
start), builds the seat's bot with a generator seeded from the table's seed, the
seat and the entry's sequence number, clamps its search budget to the server's
ceiling, and answers with the chosen action's notation. A worker process ends when
the server process does, ``kill -9`` included: it watches its parent.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import itertools
import logging
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Protocol

from subtable.bots.advice import Advice
from subtable.bots.base import (
    check_bot_params,
    collector_paused,
    finish,
    make_bot,
    observe,
    parse_bot_spec,
)
from subtable.core.actions import Action
from subtable.core.game import State
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.web.advicejob import AdviceJob, advising
from subtable.web.wire import Options

log = logging.getLogger("subtable.web")

_BOT_SALT = 0x5E12_B07B_07B0_0001
_CACHE_SIZE = 64
#: wall time a worker thinks for one table before it turns to the next
SLICE_SECONDS = 0.02
#: how often a worker process checks that the server is still there
_WATCH_SECONDS = 0.5
#: the default server-wide ceiling on a search bot's iterations per decision
DEFAULT_MAX_BUDGET = 2_000

_cache: OrderedDict[str, tuple[list[str], State[Any]]] = OrderedDict()


def bot_seed(seed: int, seat: int, seq: int) -> int:
    """The seed of the bot deciding for ``seat`` at entry ``seq`` of a table seeded ``seed``."""
    return Rng(seed ^ _BOT_SALT ^ (seat << 40) ^ seq).next64()


@dataclass(frozen=True, slots=True)
class BotJob:
    """One decision to make: a table's position and the bot of the deciding seat."""

    key: str
    game: str
    options: Options
    seed: int
    actions: list[str]
    seat: int
    spec: str
    seq: int
    max_budget: int


def _position(job: BotJob) -> State[Any]:
    cached = _cache.get(job.key)
    actions = job.actions
    if cached is not None and cached[0] == actions[: len(cached[0])]:
        done, state = cached
    else:
        done, state = [], make_game(job.game, None, **job.options).new_state(job.seed)
    for text in actions[len(done) :]:
        state.apply(text)
    _cache[job.key] = (list(actions), state)
    _cache.move_to_end(job.key)
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return state


def thinking(job: BotJob) -> Generator[int, None, str]:
    """The job's decision as a search that can be paused (see :func:`choose`)."""
    state = _position(job)
    name, params = parse_bot_spec(job.spec)
    params = check_bot_params(name, state.game, params)
    bot = make_bot(name, state.game, job.seat, Rng(bot_seed(job.seed, job.seat, job.seq)), **params)
    budget = getattr(bot, "budget", None)
    if isinstance(budget, int) and budget > job.max_budget:
        # a table older than the server's ceiling (or its spec) asks for more: the ceiling
        bot.budget = job.max_budget  # type: ignore[attr-defined]
    if hasattr(bot, "ceiling"):  # and no more than the ceiling where the position asks more
        bot.ceiling = job.max_budget  # pyright: ignore[reportAttributeAccessIssue]
    obs = observe(state, job.seat)
    think: Callable[[Any], Generator[int, None, Action]] | None = getattr(bot, "think", None)
    if think is not None:
        action = yield from think(obs)
    else:
        action = bot.choose(obs)
    if action.id not in state.legal_action_ids():
        action = state.legal_actions()[0]
    return action.notation()


def searching(job: BotJob | AdviceJob) -> Generator[int, None, Any]:
    """A job as a search that can be paused: a bot's decision, or a question to the expert."""
    if isinstance(job, AdviceJob):
        return advising(job)
    return thinking(job)


def choose(job: BotJob) -> str:
    """The action (notation) the bot of ``job.seat`` plays, thought in one go."""
    return finish(thinking(job))


# -- the worker's side -------------------------------------------------------------------
class _Inbox(Protocol):
    def get(self, block: bool = True, timeout: float | None = None) -> Any: ...


class _Outbox(Protocol):
    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None: ...


class Round:
    """The jobs a worker thinks for, in turn by *table*: each table with work gets one slice
    per turn of the round, whatever number of jobs it has — its bot's decision and the
    questions to its expert share that slice in turn, so no table gets ahead of another by
    asking more."""

    def __init__(self) -> None:
        #: table key -> its jobs (id -> search), in the order they take their turns
        self._tables: OrderedDict[str, OrderedDict[int, Generator[int, None, Any]]] = OrderedDict()
        self._table_of: dict[int, str] = {}

    def __bool__(self) -> bool:
        return bool(self._tables)

    def add(self, key: str, job_id: int, search: Generator[int, None, Any]) -> None:
        """A new job of table ``key``: it waits behind the table's other jobs."""
        self._tables.setdefault(key, OrderedDict())[job_id] = search
        self._table_of[job_id] = key

    def cancel(self, job_id: int) -> None:
        """Drop a job (nothing if it is gone already)."""
        key = self._table_of.pop(job_id, None)
        if key is None:
            return
        jobs = self._tables[key]
        jobs.pop(job_id, None)
        if not jobs:
            del self._tables[key]

    def take(self) -> tuple[int, Generator[int, None, Any]]:
        """The job to think for now: the first job of the first table; the table goes to the
        back of the round, the job to the back of its table's jobs (:meth:`cancel` it once
        it is done)."""
        key, jobs = next(iter(self._tables.items()))
        self._tables.move_to_end(key)
        job_id, search = next(iter(jobs.items()))
        jobs.move_to_end(job_id)
        return job_id, search


def _work(inbox: _Inbox, outbox: _Outbox, slice_seconds: float) -> None:
    """A worker's loop: take jobs and cancellations, think for each table in turn a slice at
    a time (:class:`Round`), answer ``("done", id, notation)`` or ``("failed", id, error)``;
    ``None`` stops it."""
    jobs = Round()
    while True:
        try:
            while True:  # everything waiting; block only when there is nothing to think about
                message = inbox.get(block=not jobs)
                if message is None:
                    return
                kind, job_id, job = message
                if kind == "think":
                    jobs.add(job.key, job_id, searching(job))
                else:
                    jobs.cancel(job_id)
        except queue.Empty:
            pass
        job_id, search = jobs.take()
        end = time.perf_counter() + slice_seconds
        try:
            with collector_paused():  # one slice: bounded (see bots.base.collector_paused)
                while time.perf_counter() < end:
                    next(search)
        except StopIteration as done:
            jobs.cancel(job_id)
            outbox.put(("done", job_id, done.value))
        except Exception as exc:  # a failing bot must not stop the worker
            jobs.cancel(job_id)
            outbox.put(("failed", job_id, f"{type(exc).__name__}: {exc}"))


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(_WATCH_SECONDS)
        if os.getppid() != parent:
            os._exit(0)


def _worker_main(inbox: Any, outbox: Any, slice_seconds: float, parent: int) -> None:
    """A worker process: ends with the server, even when the server was killed."""
    with contextlib.suppress(Exception):  # Linux: the kernel kills us with our parent
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops us (Ctrl-C reaches both)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    _work(inbox, outbox, slice_seconds)


# -- the server's side -------------------------------------------------------------------
class BotPool:
    """Workers that think for every table's bots in turn (see the module's text).

    ``workers`` processes (0: one thread of this process, for tests). A table's jobs go to
    one worker — the one thinking for that table already, else the one with the fewest
    jobs — so they share that table's turn in its round; :meth:`choose` awaits the answer
    and a cancelled :meth:`choose` withdraws the job.
    """

    def __init__(
        self,
        workers: int,
        *,
        max_budget: int = DEFAULT_MAX_BUDGET,
        slice_seconds: float = SLICE_SECONDS,
    ) -> None:
        self.max_budget = max_budget
        self._ids = itertools.count(1)
        self._waiting: dict[int, tuple[asyncio.Future[Any], str]] = {}
        self._load: list[int] = []
        #: table key -> (its worker, its jobs there)
        self._tables: dict[str, tuple[int, int]] = {}
        self._inboxes: list[Any] = []
        self._processes: list[Any] = []
        self._threads: list[threading.Thread] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        if workers > 0:
            ctx = multiprocessing.get_context("spawn")  # the server runs threads: no fork
            self._outbox: Any = ctx.Queue()
            for _ in range(workers):
                inbox: Any = ctx.Queue()
                proc = ctx.Process(
                    target=_worker_main,
                    args=(inbox, self._outbox, slice_seconds, os.getpid()),
                    daemon=True,
                    name="subtable-bot",
                )
                proc.start()
                self._inboxes.append(inbox)
                self._processes.append(proc)
        else:
            self._outbox = queue.Queue()
            inbox = queue.Queue()
            thread = threading.Thread(
                target=_work, args=(inbox, self._outbox, slice_seconds), daemon=True
            )
            thread.start()
            self._inboxes.append(inbox)
            self._threads.append(thread)
        self._load = [0] * len(self._inboxes)
        self._reader = threading.Thread(target=self._read, daemon=True, name="subtable-bots")
        self._reader.start()

    @property
    def pids(self) -> list[int]:
        """The worker processes' ids (none when the worker is a thread)."""
        return [p.pid for p in self._processes if p.pid is not None]

    def _read(self) -> None:
        while True:
            message = self._outbox.get()
            if message is None:
                return
            loop = self._loop
            if loop is not None and not loop.is_closed():
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                    loop.call_soon_threadsafe(self._answer, message)

    def _answer(self, message: tuple[str, int, Any]) -> None:
        kind, job_id, text = message
        waiting = self._waiting.pop(job_id, None)
        if waiting is None:
            return  # withdrawn
        fut, key = waiting
        self._release(key)
        if fut.done():
            return
        if kind == "done":
            fut.set_result(text)
        else:
            fut.set_exception(RuntimeError(text))

    async def choose(self, job: BotJob) -> str:
        """The notation the job's bot plays (raises ``RuntimeError`` if the bot failed)."""
        notation: str = await self._think(job)
        return notation

    async def advise(self, job: AdviceJob) -> Advice:
        """The expert's advice for the job's view (``RuntimeError`` if the search failed);
        thought a slice at a time like the bots' decisions."""
        advice: Advice = await self._think(job)
        return advice

    def _assign(self, key: str) -> int:
        """The worker for one more job of table ``key``."""
        worker, count = self._tables.get(key, (-1, 0))
        if count == 0:
            worker = min(range(len(self._load)), key=self._load.__getitem__)
        self._tables[key] = (worker, count + 1)
        self._load[worker] += 1
        return worker

    def _release(self, key: str) -> int:
        """One job of table ``key`` less; the worker it was on."""
        worker, count = self._tables.pop(key)
        if count > 1:
            self._tables[key] = (worker, count - 1)
        self._load[worker] -= 1
        return worker

    async def _think(self, job: BotJob | AdviceJob) -> Any:
        if self._closed:  # no worker would ever answer
            raise RuntimeError("the bot pool is closed")
        self._loop = asyncio.get_running_loop()
        job_id = next(self._ids)
        worker = self._assign(job.key)
        fut: asyncio.Future[Any] = self._loop.create_future()
        self._waiting[job_id] = (fut, job.key)
        self._inboxes[worker].put(("think", job_id, job))
        try:
            return await fut
        except asyncio.CancelledError:
            if self._waiting.pop(job_id, None) is not None:
                self._inboxes[self._release(job.key)].put(("cancel", job_id, None))
            raise

    def close(self) -> None:
        """Stop the workers (what they were thinking about is dropped)."""
        self._closed = True
        for inbox in self._inboxes:
            with contextlib.suppress(Exception):
                inbox.put(None)
        with contextlib.suppress(Exception):
            self._outbox.put(None)
        for proc in self._processes:
            proc.join(timeout=2)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=2)
        for thread in self._threads:
            thread.join(timeout=2)
        self._reader.join(timeout=2)
        if self._processes:  # release the queues' locks now, not at interpreter exit
            for q in (*self._inboxes, self._outbox):
                q.close()
                q.join_thread()
            self._inboxes.clear()
            self._outbox = queue.Queue()
        for fut, _ in self._waiting.values():
            if not fut.done():
                fut.cancel()
        self._waiting.clear()
        self._tables.clear()
