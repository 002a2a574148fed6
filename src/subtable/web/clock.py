"""Time at the live tables: turn-based deadlines and their late policy, and the sweep of
abandoned and idle tables."""

from __future__ import annotations

import contextlib
import logging
import time

from subtable.web.db import EntryRow
from subtable.web.livetable import LiveTable
from subtable.web.livetypes import LATE, TURN_BASED, Refused
from subtable.web.people import People
from subtable.words.seats import best_bot

log = logging.getLogger("subtable.web")


class Clock(People):
    """Deadlines, the late policy and the sweep."""

    def _deadline(self, table: LiveTable) -> float | None:
        """When the person deciding now runs out of time (``None``: a live table, a bot's
        decision, a table waiting for its people, or the end)."""
        row = table.row
        if row.mode != TURN_BASED or row.turn_limit is None or table.over or table.waiting:
            return None
        seat = table.state.current_seat()
        if seat is None or not table.is_human(seat):
            return None
        return self.clock() + row.turn_limit

    async def _arm(self, table: LiveTable) -> None:
        """Store the deadline of the decision that starts now (a turn-based table)."""
        deadline = self._deadline(table)
        if deadline != table.row.deadline:
            table.row.deadline = deadline
            await self.store.set_deadline(table.id, deadline)

    async def check_deadlines(self) -> int:
        """Apply the late policy where a person's time ran out; how many tables it hit."""
        now = self.clock()
        late = [
            t
            for t in self.tables.values()
            if t.row.deadline is not None and t.row.deadline <= now and not t.over
        ]
        for table in late:
            await self._late(table)
        return len(late)

    async def _late(self, table: LiveTable) -> None:
        seq = table.seq
        seat = table.state.current_seat()
        if seat is None:
            return
        if table.row.late == "abandon":
            async with table.lock:
                if table.seq != seq or table.over:
                    return
                await self.store.close_table(table.id, LATE)
                await self.store.set_deadline(table.id, None)
                table.row.closed, table.row.deadline = LATE, None
                table.broadcast_closed()
            log.info("table %s closed: player %d ran out of time", table.id, table.owners[seat])
            return
        job = table.bot_job(seat, best_bot(table.game), self.limits.max_budget)
        try:
            notation = await self.pool.choose(job)
        except RuntimeError:
            notation = table.state.legal_actions()[0].notation()
        async with table.lock:
            if table.seq == seq and not table.over:
                with contextlib.suppress(Refused):
                    await self._commit_and_apply(table, EntryRow(seq + 1, LATE, seat, notation))

    # -- abandoned and idle tables -----------------------------------------------------
    async def sweep(self, now: float | None = None) -> tuple[int, int]:
        """Close the tables abandoned for ``limits.abandon_after`` seconds (nobody there,
        no move) and let go of finished ones nobody looked at for ``limits.evict_after``.
        Returns (closed, let go); the database keeps both, with their records."""
        now = time.time() if now is None else now
        closed = evicted = 0
        for table in list(self.tables.values()):
            if table.clients or (table.bot_task is not None and not table.bot_task.done()):
                continue
            idle = now - table.active
            if not table.over and idle >= self.limits.abandon_after:
                async with table.lock:
                    if table.clients or table.over:
                        continue
                    await self.store.close_table(table.id, "abandoned")
                    table.row.closed = "abandoned"
                log.info("table %s closed: abandoned", table.id)
                closed += 1
            elif not table.over or idle < self.limits.evict_after:
                continue
            elif table.rematch is not None and self._going_on(table.rematch.table):
                continue  # its players may still come back for their seats at the new table
            self.tables.pop(table.id, None)
            evicted += 1
        return closed, evicted

    def _going_on(self, table_id: str) -> bool:
        """Whether the table ``table_id`` is in memory and its game goes on."""
        table = self.tables.get(table_id)
        return table is not None and not table.over
