"""The people at a table: their names checked and changed, open seats claimed, and chat."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from sqlalchemy.exc import IntegrityError

from subtable.i18n import Translator
from subtable.web.db import ChatRow
from subtable.web.livetable import LiveTable
from subtable.web.livetypes import Client, Refused, new_token, token_hash
from subtable.web.names import hidden_character, mimicked, namesake, shown_for_others
from subtable.web.tables import Tables


def _shows_all(code: str, what: str, text: str) -> None:
    """Refuse (``code``) people's ``text`` holding a character that acts instead of showing:
    a control, a bidi override, a zero-width mark, a private or unassigned one."""
    if (hidden := hidden_character(text)) is not None:
        raise Refused(
            code, f"{what} cannot hold control, format or unassigned characters ({hidden})"
        )


def _why(said: Callable[[Translator], str], tr: Translator | None) -> dict[str, str]:
    """A refusal's reason in the asker's language (``why``), where it is known."""
    return {} if tr is None else {"why": said(tr)}


class People(Tables):
    """Names, claims and chat of the live tables."""

    def clean_name(self, raw: str) -> str:
        """A display name: trimmed, one to ``limits.name_length`` characters, no control
        characters; else :class:`Refused` (``bad_name``) saying what is wrong."""
        name = " ".join(raw.split())
        if not name:
            raise Refused("bad_name", "a name cannot be empty")
        if len(name) > self.limits.name_length:
            raise Refused("bad_name", f"a name has at most {self.limits.name_length} characters")
        _shows_all("bad_name", "a name", name)
        return name

    def check_name(
        self, table: LiveTable, player: int, name: str, tr: Translator | None = None
    ) -> None:
        """Refuse ``name`` (clean) for ``player`` at ``table`` when another player has it
        already (``name_taken``) or it reads as what the table shows for someone else
        (``bad_name``): ``you``, a bot, another seat's ``player N``, in any language. With
        ``tr``, the refusal also says why in the asker's language."""
        other = namesake(name, table.row.names, player)
        if other is not None:
            theirs = table.row.names[other]
            raise Refused(
                "name_taken",
                f"player {other + 1} is called {theirs!r} already: choose another name",
                **_why(lambda tr: tr("web.error.name_taken", player=other + 1, name=theirs), tr),
            )
        row = table.row
        labels = shown_for_others(row.game, table.ui, row.controllers, table.owners, player)
        if (label := mimicked(name, labels)) is not None:
            raise Refused(
                "bad_name",
                f"{name!r} reads as {label!r}, which this table shows for someone else: "
                "choose another name",
                **_why(lambda tr: tr("web.error.name_mimics", name=name, label=label), tr),
            )

    def _name_fits(self, table: LiveTable, player: int, name: str) -> bool:
        try:
            self.check_name(table, player, self.clean_name(name))
        except Refused:
            return False
        return True

    def rename(
        self, table: LiveTable, player: int, raw: str, tr: Translator | None = None
    ) -> str | None:
        """``player``'s new name at ``table`` from ``raw``, checked; ``None`` when it is the
        name they have. Refused once the game is over (names are closed: the record and the
        replay keep the names it ended with), for a name :meth:`check_name` refuses, and
        for renames faster than the limits allow (``rate_limited``)."""
        self._over(table)
        name = self.clean_name(raw)
        if table.row.names.get(player) == name:
            return None
        self.check_name(table, player, name, tr)
        if not self._renamed.allow(f"{table.id}:{player}"):
            limits = self.limits
            raise Refused(
                "rate_limited",
                f"too many new names: at most {limits.names_per_minute:g} a minute "
                f"(bursts of {limits.names_burst:g})",
            )
        return name

    def hello_name(self, table: LiveTable, player: int, raw: str) -> str | None:
        """The name a seat says hello with, as :meth:`rename` takes it; once the game is over
        the seat keeps the name it ended with (``None``), and may still watch the end."""
        if table.row.closed is not None or table.state.is_terminal():
            return None
        return self.rename(table, player, raw)

    async def set_name(self, table: LiveTable, client: Client, raw: str) -> None:
        """The display name of ``client``'s player (public: everyone at the table is told)."""
        if client.player is None:
            raise Refused("spectator", "a spectator has no name at the table")
        async with table.lock:
            name = self.rename(table, client.player, raw, client.tr)
            if name is None:  # the name it has: only the asker is answered
                client.send(table.people_frame(client))
                return
            await self.store.set_name(table.id, client.player, name)
            table.row.names[client.player] = name
            table.broadcast_people()

    async def claim(
        self, table: LiveTable, player: int, raw: str, tr: Translator | None = None
    ) -> str:
        """Sit a person down at an open seat of a public table: its new token.

        Refused when the table is not public (``not_public``), over (``game_over``), the
        player is not a person's seat (``not_a_seat``), the seat is taken (``seat_taken``,
        also when another claim won a moment before) or the name is refused
        (:meth:`check_name`; with ``tr``, why in the asker's language). The last open seat
        claimed begins a waiting table.
        """
        name = self.clean_name(raw)
        if table.row.visibility != "public":
            raise Refused("not_public", "this table is not in the lobby: ask for an invitation")
        self._over(table)
        if not 0 <= player < len(table.row.controllers) or not table.is_human_player(player):
            raise Refused("not_a_seat", f"player {player + 1} is not a person's seat here")
        token = new_token()
        digest = token_hash(token)
        async with table.lock:
            if player in table.token_players.values():
                raise Refused("seat_taken", f"player {player + 1}'s seat is taken")
            self.check_name(table, player, name, tr)
            if not await self.store.claim_seat(table.id, player, digest, name):
                raise Refused("seat_taken", f"player {player + 1}'s seat is taken")
            table.token_players[digest] = player
            table.row.names[player] = name
            table.broadcast_people()
            await self._seated(table)
        return token

    def clean_chat(self, raw: str) -> str:
        """A line of chat: trimmed, one to ``limits.chat_length`` characters, none that a
        name may not hold either; else :class:`Refused` (``bad_chat``)."""
        text = " ".join(raw.split())
        limits = self.limits
        if not text:
            raise Refused("bad_chat", "say something: the line is empty")
        if len(text) > limits.chat_length:
            raise Refused("bad_chat", f"a line has at most {limits.chat_length} characters")
        _shows_all("bad_chat", "a line", text)
        return text

    async def say(self, table: LiveTable, client: Client, raw: str) -> None:
        """A line said at the table by a seated person while the game goes on: kept, then
        sent to everyone."""
        if client.player is None:
            raise Refused("spectator", "spectators read the chat but do not write in it")
        self._over(table)
        text = self.clean_chat(raw)
        limits = self.limits
        if not self._said.allow(f"{table.id}:{client.player}"):
            raise Refused(
                "rate_limited",
                f"too many lines: at most {limits.chat_per_minute:g} a minute "
                f"(bursts of {limits.chat_burst:g})",
            )
        async with table.lock:
            self._over(table)
            if len(table.chat) >= limits.chat_lines:
                raise Refused("chat_full", f"this table's chat holds {limits.chat_lines} lines")
            line = ChatRow(len(table.chat) + 1, table.seq, client.player, text, self.clock())
            try:
                await self.store.add_chat(table.id, line)
            except (IntegrityError, sqlite3.IntegrityError):
                table.chat = await self.store.chat_from(table.id, 1)  # another process spoke
                raise Refused("stale_chat", "someone spoke at the same moment: try again") from None
            table.chat.append(line)
            table.broadcast_chat(line)
