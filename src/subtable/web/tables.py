"""The table service: the live tables of this process loaded and cached, and every change to
one (an action, an undo, another process's entries) checked, committed, then applied.

A table is its game, options, seed and ordered entries. :class:`LiveTable`
replays them through the same code path whether they come from a player, a
bot, the database at start-up, or another server process (PostgreSQL NOTIFY).
Every accepted entry is committed to the database *before* it is applied in
memory and broadcast, under the table's lock, so no acknowledged move can be
lost and every seat sees the entries in sequence order."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable

from sqlalchemy.exc import IntegrityError

from subtable.core.actions import Action
from subtable.core.errors import IllegalActionError, SubtableError
from subtable.i18n import Translator
from subtable.web.botpool import BotPool
from subtable.web.db import EntryRow, Store, TableRow
from subtable.web.limits import Buckets, Limits
from subtable.web.livetable import LiveTable, build_table
from subtable.web.livetypes import Client, LiveEntry, Refused, Unreadable
from subtable.web.protocol import WhyFrame

log = logging.getLogger("subtable.web")


class Tables(ABC):
    """Every live table of this process, the database, and the bot pool."""

    def __init__(
        self,
        store: Store,
        pool: BotPool,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.pool = pool
        self.limits = limits or Limits()
        #: the wall clock of turn-based deadlines (tests give their own)
        self.clock = clock
        self._said = Buckets(self.limits.chat_per_minute / 60.0, self.limits.chat_burst)
        self._renamed = Buckets(self.limits.names_per_minute / 60.0, self.limits.names_burst)
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        #: the tables whose stored record does not replay, and where it stops (never retried
        #: by this process: opening one again would repeat the same work to the same end)
        self.unreadable: dict[str, int] = {}
        self.closed = False
        #: called after a table got an entry (tests and the benchmark count them)
        self.on_entry: Callable[[LiveTable, LiveEntry], Awaitable[None] | None] | None = None
        #: called after a table moved, to drop what waited on its position (``web/hint.py``)
        self.moved: list[Callable[[LiveTable], None]] = []

    # -- loading -----------------------------------------------------------------------
    async def get(self, table_id: str) -> LiveTable | None:
        """The live table ``table_id``, rebuilt from the database if needed; ``None`` if
        there is none, :class:`Unreadable` if its record does not replay."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.unreadable:
            raise Unreadable(table_id, self.unreadable[table_id])
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            table = await self._load(table_id)
            fut.set_result(table)
            return table
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # mark retrieved
            raise
        finally:
            del self._loading[table_id]

    async def _load(self, table_id: str) -> LiveTable | None:
        if len(table_id) > 64:
            return None
        row = await self.store.load_table(table_id)
        if row is None:
            return None
        entries = await self.store.entries_from(table_id, 1)
        table = self._replay(row, await self.store.token_hashes(table_id), entries)
        table.chat = await self.store.chat_from(table_id, 1)
        table.asked = await self.store.asked_from(table_id, 1)
        table.active = await self.store.last_activity(table_id)
        self.tables[table_id] = table
        if table.state.is_terminal() and not row.finished:
            await self.store.mark_finished(table_id, table.outcome_json())
        self.schedule_bot(table)
        return table

    def _replay(self, row: TableRow, hashes: dict[str, int], entries: list[EntryRow]) -> LiveTable:
        """The table ``row`` with its ``entries`` applied, else :class:`Unreadable` (the
        record is left untouched, for its host or an older version to open)."""
        seq = 0
        try:
            table = build_table(row, hashes)
            for entry in entries:
                seq = entry.seq
                table.apply_entry(entry)
        except Exception as exc:  # whatever a stored record holds, one table fails alone
            self.unreadable[row.id] = seq
            log.warning("table %s cannot be opened: entry %d does not replay: %r", row.id, seq, exc)
            raise Unreadable(row.id, seq) from exc
        return table

    async def restore_all(self) -> int:
        """Rebuild every unfinished table (at start-up, so their bots go on); a table whose
        record does not replay is left as it was and the others are rebuilt."""
        restored = 0
        for table_id in await self.store.unfinished_ids():
            try:
                await self.get(table_id)
            except Unreadable:
                continue
            restored += 1
        return restored

    @abstractmethod
    def schedule_bot(self, table: LiveTable) -> None:
        """Start the deciding seat's bot, if a bot decides (:mod:`subtable.web.bots`)."""

    @abstractmethod
    async def _seated(self, table: LiveTable) -> None:
        """A person's seat was claimed: begin the table if it waited for no one else
        (:mod:`subtable.web.waiting`)."""

    @abstractmethod
    async def _arm(self, table: LiveTable) -> None:
        """Store the deadline of the decision that starts now (:mod:`subtable.web.clock`)."""

    # -- entries -----------------------------------------------------------------------
    async def _commit_and_apply(self, table: LiveTable, row: EntryRow) -> LiveEntry:
        """Commit ``row`` then apply and broadcast it (the caller holds the lock)."""
        if table.over:  # a finished game is final, whoever asks
            raise Refused("game_over", "the game is over")
        try:
            await self.store.append(table.id, row)
        except (IntegrityError, sqlite3.IntegrityError):
            # another server process took this sequence number: catch up, then refuse
            await self._catch_up_locked(table)
            raise Refused(
                "stale_seq",
                f"the table moved on (now at {table.seq}); look at the new position and try again",
                seq=table.seq,
            ) from None
        entry = table.apply_entry(row)
        if table.state.is_terminal():
            await self.store.mark_finished(table.id, table.outcome_json())
        await self._arm(table)  # the next decision's deadline goes out with the position
        table.broadcast(entry)
        await self._entered(table, entry)
        return entry

    async def _entered(self, table: LiveTable, entry: LiveEntry) -> None:
        for drop in self.moved:
            drop(table)
        if self.on_entry is not None:
            result = self.on_entry(table, entry)
            if result is not None:
                await result
        self.schedule_bot(table)

    def resolve(self, table: LiveTable, raw: int | str) -> Action:
        """The action a client named by id or notation."""
        space = table.game.action_space
        try:
            action: Action = space.from_id(raw) if isinstance(raw, int) else space.parse(raw)
            return action
        except SubtableError as exc:
            raise Refused(exc.code, exc.message) from None

    def _over(self, table: LiveTable) -> None:
        if table.row.closed is not None:
            raise Refused(
                "table_closed", f"this table was closed ({table.row.closed}): it takes no moves"
            )
        if table.state.is_terminal():
            raise Refused("game_over", "the game is over")

    def _begun(self, table: LiveTable, client: Client) -> None:
        """Refuse (``waiting``) a move at a table that still waits for its people."""
        if table.waiting:
            n = len(table.open_players())
            raise Refused(
                "waiting",
                f"the table waits for its people ({n} seat(s) open): nobody plays yet",
                why=client.tr("web.error.waiting"),
            )

    def _deciding(self, table: LiveTable, client: Client, refusal: str) -> int:
        """The deciding seat, which ``client`` must hold (else ``refusal``, and who decides:
        what everybody knows)."""
        decider = table.state.current_seat()
        assert decider is not None
        if decider not in client.seats:
            raise Refused(
                "not_your_turn", f"{refusal} (seat {decider + 1} decides now)", decider=decider
            )
        return decider

    def check(self, table: LiveTable, client: Client, seq: int, seat: int | None) -> int:
        """Refuse a request made on a stale position or for a seat the client does not hold."""
        if client.player is None:
            raise Refused("spectator", "a spectator cannot act at the table")
        if seat is not None and seat not in client.seats:
            raise Refused(
                "not_your_seat",
                f"seat {seat + 1} is not yours "
                f"(yours: {', '.join(str(s + 1) for s in client.seats)})",
                seat=seat,
            )
        self._over(table)
        self._begun(table, client)
        if seq != table.seq:
            raise Refused(
                "stale_seq",
                f"you sent seq {seq} but the table is at {table.seq}: "
                "the position changed (or this was sent twice)",
                seq=table.seq,
            )
        decider = self._deciding(table, client, "it is not your decision")
        if seat is not None and seat != decider:
            raise Refused(
                "not_your_turn",
                f"seat {seat + 1} does not decide now (seat {decider + 1} does)",
                decider=decider,
            )
        return decider

    async def act(
        self, table: LiveTable, client: Client, seq: int, raw: int | str, seat: int | None = None
    ) -> LiveEntry:
        """A player's action: checked, committed, applied, broadcast."""
        async with table.lock:
            decider = self.check(table, client, seq, seat)
            action = self.resolve(table, raw)
            if action.id not in table.state.legal_action_ids():
                # the decider's own decision: what it explains is the decider's to know
                error = table.state.explain_illegal(action)
                raise Refused(
                    error.code,
                    error.message,
                    action=action.notation(),
                    why=self.why_text(table, error, action, client.tr),
                    params=error.params,
                )
            row = EntryRow(table.seq + 1, "action", decider, action.notation())
            return await self._commit_and_apply(table, row)

    async def undo(self, table: LiveTable, client: Client, seq: int) -> LiveEntry:
        """Take back the client's last decision, if it revealed nothing."""
        async with table.lock:
            if client.player is None:
                raise Refused("spectator", "a spectator cannot act at the table")
            self._over(table)
            self._begun(table, client)
            if seq != table.seq:
                raise Refused(
                    "stale_seq",
                    f"you sent seq {seq} but the table is at {table.seq}",
                    seq=table.seq,
                )
            seat = next((s for s in client.seats if table.ledger.can_undo(s)), None)
            if seat is None:
                decider = table.state.current_seat()
                mine = decider if decider in client.seats else client.seats[0]
                reason = table.ledger.why_not(mine)
                raise Refused(
                    "cannot_undo",
                    f"nothing to undo ({reason})",
                    reason=reason,
                    why=client.tr(f"ui.undo.barrier.{reason}"),
                )
            row = EntryRow(table.seq + 1, "undo", seat, "")
            return await self._commit_and_apply(table, row)

    def why_text(
        self, table: LiveTable, error: IllegalActionError, action: Action, tr: Translator
    ) -> str:
        """The terminal table's explanation, in the client's language."""
        try:
            return table.ui.why(error, action, tr)
        except (KeyError, TypeError, ValueError, IndexError):
            return tr("ui.why.unknown_code", code=error.code, message=error.message)

    def why(self, table: LiveTable, client: Client, raw: int | str) -> WhyFrame:
        """Whether an action is possible now, and why not — only for the asker's own decision.

        The explanation reads the deciding seat's hand ("you hold no blue card"): anyone
        else who asks is refused with what everybody knows (who decides now).
        """
        action = self.resolve(table, raw)
        if client.player is None:
            raise Refused("spectator", "a spectator cannot ask about a decision")
        self._over(table)
        self._begun(table, client)
        self._deciding(table, client, "you may ask only about your own decision")
        if action.id in table.state.legal_action_ids():
            return WhyFrame(
                action=action.notation(),
                legal=True,
                why=client.tr("ui.why.legal", action=action.notation()),
            )
        error = table.state.explain_illegal(action)
        return WhyFrame(
            action=action.notation(),
            legal=False,
            code=error.code,
            message=error.message,
            why=self.why_text(table, error, action, client.tr),
        )

    # -- other processes ---------------------------------------------------------------
    async def catch_up(self, table_id: str) -> None:
        """Apply the entries another process committed (PostgreSQL NOTIFY)."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            await self._catch_up_locked(table)

    async def _catch_up_locked(self, table: LiveTable) -> None:
        for row in await self.store.entries_from(table.id, table.seq + 1):
            entry = table.apply_entry(row)
            await self._arm(table)
            table.broadcast(entry)
            await self._entered(table, entry)
