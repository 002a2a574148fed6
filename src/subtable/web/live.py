"""Live tables: the engine's state in memory, rebuilt from the database's log, and its seats.

A table is its game, options, seed and ordered entries. :class:`LiveTable`
replays them through the same code path whether they come from a player, a
bot, the database at start-up, or another server process (PostgreSQL NOTIFY).
Every accepted entry is committed to the database *before* it is applied in
memory and broadcast, under the table's lock, so no acknowledged move can be
lost and every seat sees the entries in sequence order.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from subtable.core.game import Game
from subtable.web.db import TableRow
from subtable.web.livetable import LiveTable, build_table, shared_game
from subtable.web.livetypes import (
    HUMAN,
    LATE,
    TURN_BASED,
    Client,
    LiveEntry,
    Refused,
    Rematch,
    TablePeople,
    Unreadable,
    new_token,
    token_hash,
)
from subtable.web.waiting import Waiting
from subtable.web.wire import LobbySeat, LobbyTable
from subtable.words.advice import advice_allowed

__all__ = [
    "HUMAN",
    "LATE",
    "TURN_BASED",
    "Client",
    "LiveEntry",
    "LiveTable",
    "Manager",
    "Refused",
    "Rematch",
    "TablePeople",
    "Unreadable",
    "build_table",
    "new_token",
    "shared_game",
    "token_hash",
]


class Manager(Waiting):
    """Every live table of this process, the database, and the bot pool: the table service
    (:mod:`~subtable.web.tables`), its people (:mod:`~subtable.web.people`), its clock
    (:mod:`~subtable.web.clock`), bots (:mod:`~subtable.web.bots`) and the wait for its
    people (:mod:`~subtable.web.waiting`), and here the opening of tables, the lobby and
    play again."""

    # -- creating ----------------------------------------------------------------------
    async def create(
        self,
        game: Game[Any],
        name: str,
        controllers: list[str],
        lang: str,
        creator: str | None = None,
        *,
        people: TablePeople | None = None,
        advice: bool | None = None,
    ) -> tuple[LiveTable, dict[int, str], str]:
        """A new table: its id, each seated person's token, the spectator token.

        A private table gives every person's seat a token (its invitation). A public one
        gives tokens only to the seats named at creation (``people.names``); the others
        stay open for whoever claims them from the lobby (:meth:`claim`), and the table
        waits for them (:mod:`~subtable.web.waiting`).

        ``advice``: whether players may ask the expert (``None``: at a cooperative game or
        where one person plays, :func:`~subtable.words.advice.advice_allowed`).

        Refused (``too_many_tables``) when the server or ``creator`` (a digest of the
        client's address) already has as many unfinished tables as the limits allow.
        """
        people = people or TablePeople()
        limits = self.limits
        if await self.store.count_unfinished() >= limits.max_tables:
            raise Refused(
                "too_many_tables",
                f"this server has {limits.max_tables} unfinished tables, its most: "
                "try again when some have ended",
            )
        if (
            creator is not None
            and await self.store.count_unfinished(creator) >= limits.max_tables_per_client
        ):
            raise Refused(
                "too_many_tables",
                f"you have opened {limits.max_tables_per_client} tables whose games go on, "
                "the most one client may: finish or leave some first",
            )
        humans = [p for p, c in enumerate(controllers) if c == HUMAN]
        public = people.visibility == "public"
        seated = [p for p in humans if not public or p in people.names]
        tokens = {p: new_token() for p in seated}
        spectator = new_token()
        row = TableRow(
            id=secrets.token_urlsafe(12),
            game=name,
            options=dict(game.options),
            seed=secrets.randbits(63),
            controllers=controllers,
            lang=lang,
            spectator_hash=token_hash(spectator),
            finished=False,
            creator=creator,
            names={p: n for p, n in people.names.items() if p in humans},
            visibility=people.visibility,
            mode=people.mode,
            turn_limit=people.turn_limit,
            late=people.late,
            created_at=self.clock(),
            advice=advice_allowed(game, len(humans)) if advice is None else advice,
            # a public table with people's seats open waits for them; the first person
            # named at creation opened it and may start it sooner
            started=len(seated) == len(humans),
            host=min(seated) if public and seated else None,
        )
        hashes = {p: token_hash(t) for p, t in tokens.items()}
        table = build_table(row, {h: p for p, h in hashes.items()})
        for player, person in row.names.items():
            self.check_name(table, player, person)
        row.deadline = self._deadline(table)
        await self.store.create_table(row, hashes)
        self.tables[row.id] = table
        self.schedule_bot(table)
        return table, tokens, spectator

    async def lobby(self) -> list[LobbyTable]:
        """The public tables whose game goes on and that have a person's seat open."""
        out: list[LobbyTable] = []
        for row, held in await self.store.lobby_rows(self.limits.lobby_size):
            if row.closed is not None:
                continue
            seats: list[LobbySeat] = [
                {
                    "player": p,
                    "controller": "human" if c == HUMAN else "bot",
                    "bot": None if c == HUMAN else c,
                    "name": row.names.get(p),
                    "open": c == HUMAN and p not in held,
                }
                for p, c in enumerate(row.controllers)
            ]
            if not any(s["open"] for s in seats):
                continue
            out.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "options": row.options,
                    "lang": row.lang,
                    "mode": row.mode,
                    "turn_limit": row.turn_limit,
                    "late": row.late,
                    "seats": seats,
                    "started": row.started,
                    "created": row.created_at,
                }
            )
        return out

    async def again(
        self, table: LiveTable, creator: str | None, may_open: Callable[[], bool]
    ) -> Rematch:
        """Play again: a new table with the finished one's game, options, language, pace,
        names and seats (bots keep their specs) and a new seed — opened once; later calls
        get the same. Every connection at the finished table is sent its own link to it
        (``rematch``)."""
        async with table.lock:
            if table.rematch is not None:
                return table.rematch
            if not table.state.is_terminal():
                raise Refused("not_over", "the game goes on: play again once it is over")
            if not may_open():
                raise Refused("rate_limited", "too many tables opened from here: wait a minute")
            row = table.row
            # the same people again: each is sent a link, so the new table is private; a name
            # kept from before today's rules is left out (the new table would refuse it)
            names = {p: n for p, n in row.names.items() if self._name_fits(table, p, n)}
            people = TablePeople(names, "private", row.mode, row.turn_limit, row.late)
            new, tokens, spectator = await self.create(
                table.game,
                row.game,
                list(row.controllers),
                row.lang,
                creator,
                people=people,
                advice=row.advice,
            )
            table.rematch = Rematch(new.id, tokens, spectator)
            for client in list(table.clients):
                client.send(table.rematch.frame(client.player))
            return table.rematch
