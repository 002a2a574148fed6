"""The bots of the live tables: started when a bot decides, their choices committed like a
player's, and stopped when the server closes."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from subtable.web.clock import Clock
from subtable.web.db import EntryRow
from subtable.web.livetable import LiveTable
from subtable.web.livetypes import Refused
from subtable.web.tasks import cancel_and_wait

log = logging.getLogger("subtable.web")


class Bots(Clock):
    """Bot scheduling at the live tables."""

    def schedule_bot(self, table: LiveTable) -> None:
        """Start the bot of the deciding seat thinking, if a bot decides and none thinks
        (and the table does not wait for its people)."""
        if self.closed or table.over or table.waiting:
            return
        seat = table.state.current_seat()
        if seat is None or table.is_human(seat):
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(table))

    async def _bot_turn(self, table: LiveTable) -> None:
        seq = table.seq
        seat = table.state.current_seat()
        if seat is None:
            return
        job = table.bot_job(seat, table.controller(seat), self.limits.max_budget)
        try:
            notation = await self.pool.choose(job)
        except RuntimeError as exc:  # a failing bot must not stop the table: the first action
            if self.closed:
                return
            log.error("bot failed at table %s: %s", table.id, exc)
            notation = table.state.legal_actions()[0].notation()
        async with table.lock:
            # the position may have moved while the bot thought (an undo, another
            # process): then its choice is dropped and the bot thinks again
            if table.seq == seq and not table.over:
                row = EntryRow(seq + 1, "action", seat, notation)
                with contextlib.suppress(Refused):
                    await self._commit_and_apply(table, row)
        table.bot_task = None
        self.schedule_bot(table)

    async def close(self) -> None:
        """Stop scheduling bots and wait for the ones thinking."""
        self.closed = True
        tasks = [
            t.bot_task
            for t in self.tables.values()
            if t.bot_task is not None and not t.bot_task.done()
        ]
        await cancel_and_wait(tasks)
        self.pool.close()
