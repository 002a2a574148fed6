"""Where the game turned, at the web table: the chart of a finished game, computed once.

:class:`Turnings` computes :func:`~subtable.sim.turning.turning_points` for a finished table
— its record is public once the game is over — off the event loop (a worker process; a
thread when the server's bots think in a thread, as in tests), one game at a time and at
most :data:`MAX_WAITING` waiting (beyond that: ``busy``, ask again), then keeps the result
in the database (``tables.turning``) and in memory, so every later look is free. A whole
Red November game takes a few seconds (``docs/web.md``, "Where the game turned").

The chart is drawn on the server as inline SVG (:mod:`subtable.sim.chart`): the team's curve
in a cooperative game, each seat's in a competitive one; as seen by one seat, that seat's
curve alone (its own view's estimates). Its moments link to that step of the replay, with
what happened there. The replay page shows it at once when it is known, else a placeholder
its script fills in (``GET /api/tables/{id}/turning``); the table page asks for it when the
game ends. Both draw :func:`~subtable.sim.chart.turning_figure`, the drawing ``subtable replay
--report`` writes too, with each move numbered as the table's log numbers it (an undone move
keeps its number; the one played instead takes the next).

The sampled worlds are independent, so the work is shared out among :data:`WORKERS` worker
processes (one share of the worlds each) and joined once all are done: the curves' worlds
first, then the fresh worlds that confirm their candidate moments (:func:`run_chart`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass

from fastapi import Request
from markupsafe import Markup

from subtable.bots.heuristic import search_hooks
from subtable.core.record import GameRecord, RecordJSON
from subtable.i18n import Translator
from subtable.sim.chart import turning_figure
from subtable.sim.turning import (
    Candidates,
    Draws,
    Moment,
    Move,
    Pairs,
    Turning,
    TurningJSON,
    assemble,
    candidate_moves,
    confirm_worlds,
    default_worlds,
    join_pairs,
    join_shares,
    sample_pairs,
    sample_worlds,
)
from subtable.web.boards.svg import Element, el, make, to_html
from subtable.web.db import Store
from subtable.web.live import LATE, LiveTable
from subtable.web.rows import KeptChart
from subtable.web.tasks import cancel_and_wait

log = logging.getLogger("subtable.web")

#: sampled worlds behind each point of the curves (``None``: the game's default,
#: :func:`~subtable.sim.turning.default_worlds`)
WORLDS: int | None = None
#: how the stored charts were computed: one stored otherwise is computed again
METHOD = "confirmed"
#: worker processes sharing a chart's worlds (the machine's cores, at most two)
WORKERS = max(1, min(2, os.cpu_count() or 1))
#: tables waiting for their chart at most (beyond: ``busy``)
MAX_WAITING = 8
#: charts kept in memory (the database keeps them all)
_KEPT = 32


def shares(worlds: int, parts: int) -> list[range]:
    """The worlds split into ``parts`` shares of about the same size (none empty)."""
    parts = max(1, min(parts, worlds))
    return [range(worlds * k // parts, worlds * (k + 1) // parts) for k in range(parts)]


def curve_share(
    record: RecordJSON, worlds: int, share: range, stop: Callable[[], bool] | None = None
) -> tuple[Draws, float]:
    """One share of a record's curve worlds (its JSON form) and the CPU seconds it took:
    what a worker runs (``stop``: a worker thread's way to end it early)."""
    cpu = time.process_time()
    draws = sample_worlds(GameRecord.from_json(record), share, worlds=worlds, stop=stop)
    return draws, time.process_time() - cpu


def confirm_share(
    record: RecordJSON,
    candidates: Candidates,
    confirm: int,
    share: range,
    stop: Callable[[], bool] | None = None,
) -> tuple[Pairs, float]:
    """One share of the ``confirm`` fresh worlds that confirm a record's candidate moments,
    and the CPU seconds it took."""
    cpu = time.process_time()
    game_record = GameRecord.from_json(record)
    pairs = sample_pairs(game_record, candidates, share, worlds=confirm, stop=stop)
    return pairs, time.process_time() - cpu


@dataclass(slots=True)
class ChartJob:
    """A chart under way: its record, its worlds and the curves' shares submitted."""

    record: RecordJSON
    worlds: int
    confirm: int
    parts: int
    stop: Callable[[], bool] | None
    started: float
    curves: list[Future[tuple[Draws, float]]]


def start_chart(
    executor: Executor,
    record: RecordJSON,
    worlds: int | None,
    parts: int,
    stop: Callable[[], bool] | None = None,
) -> ChartJob:
    """Submit a record's curves (its JSON form), its worlds shared out in ``parts`` jobs."""
    started = time.perf_counter()
    confirm = confirm_worlds(worlds)
    worlds = worlds or default_worlds(GameRecord.from_json(record))
    curves = [
        executor.submit(curve_share, record, worlds, share, stop) for share in shares(worlds, parts)
    ]
    return ChartJob(record, worlds, confirm, parts, stop, started, curves)


def finish_chart(executor: Executor, job: ChartJob) -> KeptChart:
    """The chart in its JSON form, once its curves are done and its candidates' fresh
    worlds (submitted here) are too. It holds the seconds it took and the CPU seconds of
    the jobs and the joining."""
    curves = [f.result() for f in job.curves]
    cpu = time.process_time()
    record = GameRecord.from_json(job.record)
    draws = join_shares([d for d, _cpu in curves])
    candidates = candidate_moves(record, draws)
    cpu = time.process_time() - cpu
    confirms = [
        f.result()
        for f in [
            executor.submit(confirm_share, job.record, candidates, job.confirm, share, job.stop)
            for share in shares(job.confirm, job.parts)
        ]
    ]
    joined = time.process_time()
    pairs = join_pairs([p for p, _cpu in confirms])
    turning = assemble(record, draws, worlds=job.worlds, candidates=candidates, pairs=pairs)
    data = turning.to_json()
    seconds = round(time.perf_counter() - job.started, 3)
    jobs = sum(c for _d, c in curves) + sum(c for _p, c in confirms)
    cpu_seconds = round(jobs + cpu + time.process_time() - joined, 3)
    return {**data, "method": METHOD, "seconds": seconds, "cpu_seconds": cpu_seconds}


def run_chart(
    executor: Executor,
    record: RecordJSON,
    worlds: int | None,
    parts: int,
    stop: Callable[[], bool] | None = None,
) -> KeptChart:
    """A record's chart in its JSON form: :func:`start_chart`, then :func:`finish_chart`."""
    return finish_chart(executor, start_chart(executor, record, worlds, parts, stop))


def compute(
    record: RecordJSON, worlds: int | None = None, stop: Callable[[], bool] | None = None
) -> KeptChart:
    """A record's chart in this process (one job at a time)."""
    with ThreadPoolExecutor(1) as executor:
        return run_chart(executor, record, worlds, 1, stop)


def rebuild(table: LiveTable, data: TurningJSON) -> Turning:
    """A :class:`Turning` back from its JSON form, each move's public events replayed from
    the table's record (the JSON does not keep them)."""
    game = table.game
    state = game.new_state(table.row.seed)
    moves = []
    for index, text in enumerate(table.effective_actions(), start=1):
        seat = state.current_seat()
        events = state.apply(text)
        moves.append(Move(index, seat, text, tuple(e.for_seat(None) for e in events)))
    series = tuple(tuple(float(v) for v in s) for s in data["series"])
    team = data["team_series"]
    return Turning(
        game=str(data["game"]),
        team=bool(data["team"]),
        series=series,
        lows=tuple(tuple(float(v) for v in s) for s in data["lows"]),
        highs=tuple(tuple(float(v) for v in s) for s in data["highs"]),
        team_series=None if team is None else tuple(float(v) for v in team),
        moves=tuple(moves),
        moments=tuple(
            Moment(
                m["seat"],
                int(m["move"]),
                float(m["before"]),
                float(m["after"]),
                float(m["p"]),
                float(m.get("low", 0.0)),
                float(m.get("high", 0.0)),
            )
            for m in data["moments"]
        ),
        worlds=int(data["worlds"]),
        seed=int(data["seed"]),
        confirm=int(data.get("confirm", 0)),
    )


def _die_with(parent: int) -> None:
    """A chart worker's start: it ends with the server, ``kill -9`` included (Linux kills
    it with its parent; a thread watches the parent elsewhere), and leaves Ctrl-C to it."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


class Busy(Exception):
    """Too many games wait for their chart: ask again in a moment."""


class Unavailable(Exception):
    """This table has no chart: its game goes on, or it has no expert to estimate with."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def available(table: LiveTable) -> bool:
    """Whether the table's game can be charted (it has an expert and sampled worlds)."""
    return search_hooks(table.game) is not None and table.game.can_determinize


class Turnings:
    """The charts of the finished tables: computed once, off the event loop, and kept."""

    def __init__(self, store: Store, *, processes: bool, worlds: int | None = WORLDS) -> None:
        self.store = store
        self.worlds = worlds
        self._processes = processes
        self._executor: Executor | None = None
        self._kept: OrderedDict[str, Turning] = OrderedDict()
        self._pending: dict[str, asyncio.Task[Turning | None]] = {}
        self._failed: set[str] = set()
        #: set when the server closes: a chart under way in a thread stops (a process is ended)
        self._closing = threading.Event()

    def _pool(self) -> Executor:
        if self._executor is None:
            if self._processes:
                ctx = multiprocessing.get_context("spawn")  # the server runs threads: no fork
                self._executor = ProcessPoolExecutor(
                    WORKERS, mp_context=ctx, initializer=_die_with, initargs=(os.getpid(),)
                )
            else:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="subtable-turning")
        return self._executor

    def _keep(self, table_id: str, turning: Turning) -> Turning:
        self._kept[table_id] = turning
        self._kept.move_to_end(table_id)
        while len(self._kept) > _KEPT:
            self._kept.popitem(last=False)
        return turning

    def check(self, table: LiveTable) -> None:
        """Refuse a table without a chart (:class:`Unavailable`)."""
        if not table.over:
            raise Unavailable("not_over", "the game goes on: its chart comes once it is over")
        if not available(table):
            raise Unavailable("no_expert", "this game has no expert to estimate chances with")
        if table.id in self._failed:
            raise Unavailable("turning_failed", "this game's chart could not be computed")

    async def get(self, table: LiveTable) -> Turning | None:
        """The table's chart if it is known (memory, then the database), starting its
        computation otherwise (``None`` meanwhile). Raises :class:`Unavailable` or
        :class:`Busy`."""
        self.check(table)
        found = self._kept.get(table.id)
        if found is not None:
            self._kept.move_to_end(table.id)
            return found
        task = self._pending.get(table.id)
        if task is not None:
            return task.result() if task.done() else None
        data = await self.store.turning(table.id)
        if data is not None and data.get("method") == METHOD:  # else: an older method's
            return self._keep(table.id, await asyncio.to_thread(rebuild, table, data))
        if len(self._pending) >= MAX_WAITING:
            raise Busy("too many games wait for their chart")
        task = asyncio.get_running_loop().create_task(self._compute(table))
        self._pending[table.id] = task
        return None

    async def wait(self, table: LiveTable, timeout: float = 120.0) -> Turning:
        """The table's chart, computed now if needed (for tests and the measurements)."""
        found = await self.get(table)
        if found is not None:
            return found
        task = self._pending.get(table.id)
        if task is not None:
            await asyncio.wait_for(asyncio.shield(task), timeout)
        found = await self.get(table)
        if found is None:
            raise Unavailable("turning_failed", "this game's chart could not be computed")
        return found

    async def _compute(self, table: LiveTable) -> Turning | None:
        record = table.record().to_json()
        try:
            stop = None if self._processes else self._closing.is_set
            parts = WORKERS if self._processes else 1
            pool = self._pool()
            job = start_chart(pool, record, self.worlds, parts, stop)
            data = await asyncio.to_thread(finish_chart, pool, job)
            log.info(
                "where table %s turned: %d moves in %.1f s",
                table.id,
                len(data["moves"]),
                data["seconds"],
            )
            await self.store.set_turning(table.id, data)
            turning = await asyncio.to_thread(rebuild, table, data)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("where table %s turned: failed", table.id)
            self._failed.add(table.id)
            return None
        finally:
            self._pending.pop(table.id, None)
        return self._keep(table.id, turning)

    async def close(self) -> None:
        """Stop computing (what was under way is dropped) and return once nothing runs."""
        self._closing.set()
        await cancel_and_wait(list(self._pending.values()))
        if self._executor is not None:
            # a chart under way is dropped: its worker stops now, not when it is done
            workers = list(getattr(self._executor, "_processes", {}).values())
            self._executor.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()
            for worker in workers:
                await asyncio.to_thread(worker.join, 2)
            if not self._processes:  # the thread ends at its next playout
                await asyncio.to_thread(self._executor.shutdown, True)


# -- the HTML ------------------------------------------------------------------------------
def replay_href(table: LiveTable, seat: int | None, step: int, lang: str) -> str:
    """The replay at ``step``, as seen by ``seat`` (``None``: everything), scrolled to its
    board (the chart stands above it)."""
    who = "all" if seat is None else str(seat + 1)
    return f"/replay/{table.id}?seat={who}&step={step}&lang={lang}#board"


def log_numbers(table: LiveTable) -> list[int]:
    """Each position's move number in the table's log (0 before the first move): the entry
    that played the move kept (undone moves and undos count in the log, so numbers skip)."""
    numbers = [0] * (len(table.state.history) + 1)
    for entry in table.entries:
        if entry.kind in ("action", LATE) and 0 < entry.moves < len(numbers):
            numbers[entry.moves] = entry.seq
    return numbers


def figure(
    turning: Turning, table: LiveTable, tr: Translator, seat: int | None, step: int | None
) -> Element:
    """The chart, its legend and its moments (:func:`~subtable.sim.chart.turning_figure`),
    each moment linking to its step of the replay; ``seat``: as seen by that seat (its curve
    alone), ``None``: the whole record's."""
    return turning_figure(
        turning,
        table.game,
        tr,
        seat=seat,
        step=step,
        numbers=log_numbers(table),
        href=lambda move: replay_href(table, seat, move, tr.lang),
    )


def turning_html(
    turning: Turning, table: LiveTable, tr: Translator, seat: int | None, step: int | None
) -> str:
    """:func:`figure`'s markup (what ``GET /api/tables/{id}/turning`` sends)."""
    return to_html(figure(turning, table, tr, seat, step))


def _section(inner: Element, tr: Translator, src: str = "") -> Markup:
    """The replay's chart section around ``inner``."""
    section = make("section", id="turning", cls="turning", aria_labelledby="turning-h")
    if src:
        section.set("data-src", src)
    el(section, "h2", tr("lab.turning.heading"), id="turning-h")
    section.append(inner)
    return Markup(to_html(section))


def api_href(table: LiveTable, seat: int | None, step: int | None, lang: str) -> str:
    """Where a page asks for the chart (``GET /api/tables/{id}/turning``)."""
    who = "all" if seat is None else str(seat + 1)
    step_q = "" if step is None else f"&step={step}"
    return f"/api/tables/{table.id}/turning?seat={who}{step_q}&lang={lang}"


async def replay_block(
    request: Request, table: LiveTable, tr: Translator, seat: int | None, step: int
) -> Markup:
    """The replay page's chart: drawn when known, else a placeholder its script fills in
    (nothing for a game without an expert)."""
    service: Turnings = request.app.state.turnings
    try:
        found = await service.get(table)
    except Unavailable as exc:
        if exc.code == "turning_failed":
            return _section(make("p", tr("web.turning.failed"), cls="error"), tr)
        return Markup("")
    except Busy:
        found = None
    if found is not None:
        return _section(figure(found, table, tr, seat, step), tr)
    waiting = make("p", tr("web.turning.computing"), cls="computing", role="status")
    return _section(waiting, tr, api_href(table, seat, step, tr.lang))
