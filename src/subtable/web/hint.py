"""Ask the expert at the web table: the ``hint`` message, answered to the asker alone.

A seated player whose decision it is, at a table that allows advice, sends ``{"type":
"hint"}``. Everyone at the table is told that advice was asked (``advice_asked``, a line
for the log, kept in the database so that a reload shows it too); then the seat's view —
never the state — and its legal actions go to the bot pool (:mod:`subtable.web.advicejob`),
which thinks a slice at a time in turn with the other tables' bots, and the answer
(``advice``: the expert's best options, each with its chance of winning, its interval, the
sampled worlds and one line of why, in the asker's language) goes to the asking connection
only. The seed comes from the view (:func:`~subtable.bots.advice.advice_seed`) and the
budget is fixed, so the same view gets the same advice, byte for byte; asking again about
the same decision answers from memory, with no new line in the log.

The questions are bounded like the bots' work: each seat has at most one question waiting
(a question about a new decision replaces it), a question whose decision has passed or
whose asker has left is dropped, and the pool thinks for them in their table's turn only
(:class:`~subtable.web.botpool.Round`). A player asks at most ``Limits.hints_per_minute``
questions a minute (bursts of ``Limits.hint_burst``), and the log keeps one line per
decision asked about, however often it was asked.

Refused (``error`` with ``about: "hint"``): a spectator, a finished game, a table that does
not allow it (``advice_off``) or a game without an expert (``no_advice``), someone else's
decision (``not_your_turn``), a question already being thought about (``hint_pending``),
too many questions (``rate_limited``).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import IntegrityError

from subtable.bots.advice import ADVICE_BUDGET, ADVICE_TOP, Advice
from subtable.bots.advice import advice_seed as seed_of_view
from subtable.i18n import Translator
from subtable.web import render
from subtable.web.advicejob import AdviceJob, pack_view
from subtable.web.db import AskedRow
from subtable.web.limits import Buckets, Limits
from subtable.web.live import Client, LiveTable, Manager, Refused
from subtable.web.protocol import (
    AdviceAsked,
    AdviceAskedFrame,
    AdviceChoice,
    AdviceFrame,
    AskedRef,
    ErrorFrame,
)
from subtable.web.tasks import cancel_and_wait
from subtable.words.advice import advice_lines, chance

log = logging.getLogger("subtable.web")

#: answers kept per table (one per decision asked about)
_KEPT = 8


@dataclass(eq=False)
class _Question:
    """A question being thought about: the decision ``(seq, seat)``, who asked, the task."""

    key: tuple[int, int]
    client: Client
    task: asyncio.Task[None] | None = None
    dropped: bool = False

    def drop(self) -> None:
        """Stop thinking about it (the pool withdraws the job; nothing is answered)."""
        self.dropped = True
        if self.task is not None:
            self.task.cancel()


@dataclass(eq=False)
class _Hints:
    """What one table remembers of the questions to its expert."""

    #: questions per player, a token bucket each
    asks: Buckets
    #: (seq, seat) -> the advice, the newest last
    answers: OrderedDict[tuple[int, int], Advice] = field(
        default_factory=lambda: OrderedDict[tuple[int, int], Advice]()
    )
    #: seat -> its question being thought about (one at most)
    waiting: dict[int, _Question] = field(default_factory=lambda: dict[int, _Question]())
    #: the questions' tasks, dropped ones included until they end
    tasks: set[asyncio.Task[None]] = field(default_factory=lambda: set[asyncio.Task[None]]())


_HINTS: weakref.WeakKeyDictionary[LiveTable, _Hints] = weakref.WeakKeyDictionary()


def _hints(table: LiveTable, limits: Limits) -> _Hints:
    found = _HINTS.get(table)
    if found is None:
        asks = Buckets(limits.hints_per_minute / 60.0, limits.hint_burst)
        found = _HINTS[table] = _Hints(asks)
    return found


def drop_stale(table: LiveTable) -> None:
    """Drop the questions about decisions that have passed (the table moved or closed)."""
    memo = _HINTS.get(table)
    if memo is None:
        return
    for question in list(memo.waiting.values()):
        if question.key[0] != table.seq or table.over:
            question.drop()


def leave(table: LiveTable, client: Client) -> None:
    """Drop the questions ``client`` asked (it left the table: nobody would be answered)."""
    memo = _HINTS.get(table)
    if memo is None:
        return
    for question in list(memo.waiting.values()):
        if question.client is client:
            question.drop()


def _refuse(code: str, message: str, why: str, **extra: Any) -> Refused:
    return Refused(code, message, about="hint", why=why, **extra)


def _check(manager: Manager, table: LiveTable, client: Client, seat: int | None) -> int:
    """The seat to advise (the asker's, deciding now), else :class:`Refused`."""
    tr = client.tr
    if client.player is None:
        raise _refuse("spectator", "a spectator cannot ask for advice", tr("web.hint.spectator"))
    try:
        manager._over(table)  # the table's own check of a finished or closed game
    except Refused as exc:
        raise _refuse(exc.code, exc.message, tr("web.error.game_over")) from None
    if table.waiting:
        raise _refuse("waiting", "the table waits for its people", tr("web.error.waiting"))
    if not table.advice_on:
        raise _refuse("advice_off", "this table does not allow advice", tr("advice.off"))
    decider = table.state.current_seat()
    assert decider is not None
    if decider not in client.seats:
        raise _refuse(
            "not_your_turn",
            f"you may ask for advice only on your own decision (seat {decider + 1} decides now)",
            tr("web.hint.not_yours"),
            decider=decider,
        )
    if seat is not None and seat != decider:
        raise _refuse(
            "not_your_turn",
            f"seat {seat + 1} does not decide now (seat {decider + 1} does)",
            tr("web.hint.not_yours"),
            decider=decider,
        )
    return decider


async def hint(manager: Manager, table: LiveTable, client: Client, seat: int | None) -> None:
    """Answer a ``hint`` message (see the module's doc); the thinking goes on in a task,
    so the asker's connection keeps reading its messages meanwhile."""
    decider = _check(manager, table, client, seat)
    limits = manager.limits
    memo = _hints(table, limits)
    key = (table.seq, decider)
    known = memo.answers.get(key)
    if known is not None:  # the same decision again: the same advice, no new line
        client.send(advice_frame(table, client, key[0], decider, known))
        return
    before = memo.waiting.get(decider)
    if before is not None and before.key == key:
        raise _refuse(
            "hint_pending",
            "the expert is already thinking about this decision",
            client.tr("web.hint.pending"),
        )
    if not memo.asks.allow(str(client.player)):
        raise Refused(
            "rate_limited",
            f"too many questions: at most {limits.hints_per_minute:g} a minute "
            f"(bursts of {limits.hint_burst:g})",
            about="hint",
        )
    state = table.state
    view = state.observe(decider)
    job = AdviceJob(
        key=table.id,
        game=table.row.game,
        options=table.row.options,
        view=pack_view(view),
        legal=tuple(state.legal_action_ids()),
        seed=seed_of_view(view),
        budget=min(ADVICE_BUDGET, limits.max_budget),
        top=ADVICE_TOP,
    )
    if before is not None:  # one question per seat: the new one replaces it
        before.drop()
    question = memo.waiting[decider] = _Question(key, client)
    try:
        await _log_asked(manager, table, key[0], decider)
    except BaseException:
        _forget(memo, question)
        raise
    if question.dropped:  # the asker left meanwhile
        _forget(memo, question)
        return
    task = asyncio.get_running_loop().create_task(_think(manager, table, question, job))
    question.task = task
    memo.tasks.add(task)
    task.add_done_callback(memo.tasks.discard)


def _forget(memo: _Hints, question: _Question) -> None:
    """``question`` is no longer waiting (answered, failed or dropped)."""
    seat = question.key[1]
    if memo.waiting.get(seat) is question:
        del memo.waiting[seat]


async def _log_asked(manager: Manager, table: LiveTable, seq: int, seat: int) -> None:
    """Keep that ``seat`` asked, then tell everyone at the table (once per decision)."""
    async with table.lock:
        if table.seq != seq:
            raise Refused("stale_seq", "the position changed: ask again", seq=table.seq)
        if any(a.seq == seq and a.seat == seat for a in table.asked):
            return  # asked before (and dropped): the log says so already
        asked = AskedRow(len(table.asked) + 1, seq, seat, manager.clock())
        try:
            await manager.store.add_asked(table.id, asked)
        except (IntegrityError, sqlite3.IntegrityError):  # another process logged one
            table.asked = await manager.store.asked_from(table.id, 1)
            raise Refused("stale_seq", "someone asked at the same moment: ask again") from None
        table.asked.append(asked)
        for other in list(table.clients):
            note = asked_note(table, asked, other)
            other.send(AdviceAskedFrame(asked=note.asked, line=note.line))


async def _think(manager: Manager, table: LiveTable, question: _Question, job: AdviceJob) -> None:
    memo = _hints(table, manager.limits)
    client, key = question.client, question.key
    try:
        try:
            found = await manager.pool.advise(job)
        except RuntimeError as exc:
            log.error("advice failed at table %s: %s", table.id, exc)
            client.send(
                ErrorFrame(
                    code="advice_failed",
                    message="the expert could not answer",
                    why=client.tr("web.hint.failed"),
                    about="hint",
                )
            )
            return
        memo.answers[key] = found
        while len(memo.answers) > _KEPT:
            memo.answers.popitem(last=False)
        client.send(advice_frame(table, client, key[0], key[1], found))
    finally:
        _forget(memo, question)


def asked_note(table: LiveTable, asked: AskedRow, client: Client) -> AdviceAsked:
    """One time advice was asked, as ``client`` reads it (public: who, and when)."""
    tr = client.tr
    return AdviceAsked(
        asked=AskedRef(n=asked.n, seq=asked.seq, seat=asked.seat),
        line=tr("advice.asked", who=seat_label(table, asked.seat, client.seats, tr)),
    )


def asked_since(table: LiveTable, client: Client, last_seq: int | None) -> list[AdviceAsked]:
    """The times advice was asked that a (re)joining page shows: all of them, or those from
    the entry it last saw (the page drops the ones it already shows, by number)."""
    return [asked_note(table, a, client) for a in table.asked if a.seq >= (last_seq or 0)]


def seat_label(table: LiveTable, seat: int, seats: tuple[int, ...], tr: Translator) -> str:
    """``Player 1 (you)``, ``Captain 2 (Ann)``: the seat and who holds it."""
    who = render.who_labels(table, seats, tr)[seat]
    return f"{table.ui.seat_name(seat, tr)} ({who})"


def advice_frame(
    table: LiveTable, client: Client, seq: int, seat: int, advice: Advice
) -> AdviceFrame:
    """The ``advice`` answer: the figures, and the same in the asker's words."""
    tr = client.tr
    ui = table.ui
    space = table.game.action_space
    lines = advice_lines(advice, table.game, ui, tr)
    options = [
        AdviceChoice(
            rank=rank,
            action=option.action,
            notation=option.notation,
            label=ui.action_label(space[option.action], tr),
            chance=chance(option.chance, tr),
            low=chance(option.low, tr),
            high=chance(option.high, tr),
            worlds=option.worlds,
            expert=option.expert,
            reason=ui.advice_reason(option.reason.key, option.reason.params, tr),
        )
        for rank, option in enumerate(advice.options, start=1)
    ]
    return AdviceFrame(
        seq=seq, seat=seat, title=lines[0], options=options, lines=lines, advice=advice.to_json()
    )


async def close(manager: Manager) -> None:
    """Cancel the questions still being thought about at ``manager``'s tables (the server
    stops)."""
    memos = [_HINTS[t] for t in list(manager.tables.values()) if t in _HINTS]
    tasks = [t for memo in memos for t in memo.tasks]
    await cancel_and_wait(tasks)
