"""A table that waits for its people: a public table opened with people's seats still open
makes no move (no bot plays, nobody acts) until the last of them is claimed from the lobby,
or the person who opened it starts it now, bots taking the open seats."""

from __future__ import annotations

import logging

from subtable.bots.levels import declared_levels
from subtable.web.bots import Bots
from subtable.web.livetable import LiveTable
from subtable.web.livetypes import Client, Refused
from subtable.words.seats import best_bot

log = logging.getLogger("subtable.web")

#: the bot level that takes an open seat when the table is started without its person
STAND_IN_LEVEL = "normal"


def stand_in(table: LiveTable) -> str:
    """The bot that takes a seat nobody claimed: the table's default level (the one the
    creation form offers), else the game's best bot."""
    return declared_levels(table.row.game).get(STAND_IN_LEVEL) or best_bot(table.game)


class Waiting(Bots):
    """Tables waiting for their people: started when full, or by their host."""

    async def _seated(self, table: LiveTable) -> None:
        """A person's seat was claimed (the caller holds the lock): the table begins once
        no person's seat is open."""
        if table.waiting and not table.open_players():
            await self._begin(table, list(table.row.controllers))

    async def start_now(self, table: LiveTable, client: Client) -> None:
        """Start a waiting table before its seats are filled: bots take the open seats.

        Only its host (the person who opened it) may; refused for anyone else
        (``not_host``), a table already begun (``started``) or over.
        """
        async with table.lock:
            self._over(table)
            if not table.waiting:
                raise Refused(
                    "started",
                    "the game has begun already",
                    why=client.tr("web.error.started"),
                )
            host = table.row.host
            if client.player is None or client.player != host:
                who = "nobody" if host is None else f"player {host + 1}"
                raise Refused(
                    "not_host",
                    f"only the person who opened this table ({who}) may start it "
                    "before its seats are filled",
                    why=client.tr("web.error.not_host"),
                )
            bot = stand_in(table)
            open_seats = set(table.open_players())
            controllers = [
                bot if p in open_seats else c for p, c in enumerate(table.row.controllers)
            ]
            await self._begin(table, controllers)
        log.info("table %s started by its host: %d seat(s) to bots", table.id, len(open_seats))

    async def _begin(self, table: LiveTable, controllers: list[str]) -> None:
        """The game begins (the caller holds the lock): kept, told to everyone, and the
        first decision's clock and bot started."""
        await self.store.start(table.id, controllers, table.seq)
        table.row.controllers = controllers
        table.row.started = True
        await self._arm(table)
        table.broadcast_people()  # the seats (bots now) and the position, now playable
        self.schedule_bot(table)

    async def _catch_up_locked(self, table: LiveTable) -> None:
        """Another server process's entries; and, for a table waiting here, whether it began
        there (a claim or a start made on that process)."""
        if table.waiting:
            row = await self.store.load_table(table.id)
            if row is not None and row.started:
                table.token_players = await self.store.token_hashes(table.id)
                table.row.names = row.names
                table.row.controllers = row.controllers
                table.row.deadline = row.deadline
                table.row.started = True
                table.broadcast_people()
                self.schedule_bot(table)
        await super()._catch_up_locked(table)
