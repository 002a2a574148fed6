"""Live tables: the engine's state in memory, rebuilt from the database's log, and its seats.

A table is its game, options, seed and ordered entries. :class:`LiveTable`
replays them through the same code path whether they come from a player, a
bot, the database at start-up, or another server process (PostgreSQL NOTIFY).
Every accepted entry is committed to the database *before* it is applied in
memory and broadcast, under the table's lock, so no acknowledged move can be
lost and every seat sees the entries in sequence order.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError

from subtable.bots.advice import can_advise
from subtable.core.actions import Action
from subtable.core.errors import IllegalActionError, SubtableError
from subtable.core.events import Event
from subtable.core.game import Game, State
from subtable.core.record import GameRecord
from subtable.core.registry import make_game
from subtable.i18n import Translator
from subtable.ui.advice import advice_allowed
from subtable.ui.games import GameUI, game_ui
from subtable.ui.games.common import action_as_seen
from subtable.ui.seats import best_bot
from subtable.ui.undo import UndoLedger
from subtable.web import PROTOCOL_VERSION, render
from subtable.web.botpool import BotJob, BotPool
from subtable.web.db import AskedRow, ChatRow, EntryRow, Store, TableRow
from subtable.web.limits import Buckets, Limits
from subtable.web.names import hidden_character, mimicked, namesake, shown_for_others

log = logging.getLogger("subtable.web")

HUMAN = "human"
#: the kind of an entry a bot played for a person whose time ran out (turn-based tables),
#: and the reason a table closes when its late policy is to abandon it
LATE = "late"
TURN_BASED = "turn-based"


@dataclass(frozen=True, slots=True)
class TablePeople:
    """Who may sit at a new table and how it is played: the names of the people seated
    at creation, ``public`` or ``private``, ``live`` or ``turn-based`` (``turn_limit``
    seconds a decision, then ``late``: ``bot`` plays it, or ``abandon`` closes the table)."""

    names: dict[int, str] = field(default_factory=lambda: dict[int, str]())
    visibility: str = "private"
    mode: str = "live"
    turn_limit: float | None = None
    late: str | None = None


def token_hash(token: str) -> str:
    """The SHA-256 (hex) stored instead of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A long random secret (32 bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


class Client(Protocol):
    """A connection at a table: a player's seats, or a spectator (no seats)."""

    player: int | None
    seats: tuple[int, ...]
    tr: Translator
    #: the page asked for rendered boards and narrated log lines (``render: "html"``)
    html: bool

    def push(self, message: dict[str, Any]) -> None:
        """Queue a message to send (never blocks)."""
        ...


class Refused(Exception):
    """A client's request refused: a reason code, a message, and what else to tell."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


@dataclass(slots=True)
class LiveEntry:
    """One applied entry and the events it caused (unredacted: redact per seat)."""

    seq: int
    kind: str
    seat: int | None
    action: str
    events: list[Event]
    #: the actions that make the position after it (undone ones left out)
    moves: int = 0


@dataclass(frozen=True, slots=True)
class Rematch:
    """The table a finished one continues at ("play again"): its id and the raw tokens of
    its seats, kept in memory only, to hand each person their own."""

    table: str
    #: each human player's token at the new table
    tokens: dict[int, str]
    spectator: str

    def link(self, player: int | None) -> str:
        """The new table's link for ``player`` (``None``: the spectators')."""
        token = self.spectator if player is None else self.tokens[player]
        return f"/t/{self.table}#{token}"

    def frame(self, player: int | None) -> dict[str, Any]:
        """The ``rematch`` message for a connection of ``player``: its own link only."""
        return {"v": PROTOCOL_VERSION, "type": "rematch", "table": self.table,
                "url": self.link(player)}  # fmt: skip


@dataclass(eq=False)
class LiveTable:
    """One table in memory."""

    row: TableRow
    game: Game[Any]
    state: State[Any]
    ui: GameUI
    token_players: dict[str, int]
    owners: tuple[int, ...]
    ledger: UndoLedger
    entries: list[LiveEntry] = field(default_factory=lambda: list[LiveEntry]())
    clients: set[Client] = field(default_factory=lambda: set[Client]())
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    #: the setup's events
    opening: list[Event] = field(default_factory=lambda: list[Event]())
    #: when the table last moved or was sat at (wall clock, for the sweep of abandoned tables)
    active: float = field(default_factory=time.time)
    #: what people said here, in order
    chat: list[ChatRow] = field(default_factory=lambda: list[ChatRow]())
    #: the new table "play again" opened (in memory: a restarted server opens another)
    rematch: Rematch | None = None
    #: each time a player asked the expert for advice, in order (``web/hint.py``)
    asked: list[AskedRow] = field(default_factory=lambda: list[AskedRow]())

    @property
    def advice_on(self) -> bool:
        """Whether players may ask the expert for advice here (the creator allowed it and
        the game has an expert)."""
        return bool(self.row.advice) and can_advise(self.game)

    @property
    def id(self) -> str:
        """The table id."""
        return self.row.id

    @property
    def seq(self) -> int:
        """The sequence number of the last entry (0 before any)."""
        return len(self.entries)

    @property
    def over(self) -> bool:
        """Whether the table takes no more entries: its game ended, or it was closed."""
        return self.row.closed is not None or self.state.is_terminal()

    def people(self) -> list[str | None]:
        """Each player's display name (``None`` for a bot, or a person not named yet)."""
        return [
            self.row.names.get(p) if c == HUMAN else None
            for p, c in enumerate(self.row.controllers)
        ]

    def chat_json(self, line: ChatRow) -> dict[str, Any]:
        """A line said at the table (public: every connection gets the same)."""
        return {
            "n": line.n,
            "seq": line.seq,
            "player": line.player,
            "name": self.row.names.get(line.player),
            "text": line.text,
            "at": line.at,
        }

    def controller(self, seat: int) -> str:
        """``human`` or the bot spec of the player holding ``seat``."""
        return self.row.controllers[self.owners[seat]]

    def is_human(self, seat: int) -> bool:
        """Whether a person holds ``seat``."""
        return self.controller(seat) == HUMAN

    def seats_of(self, player: int) -> tuple[int, ...]:
        """The seats ``player`` holds."""
        return tuple(s for s, p in enumerate(self.owners) if p == player)

    # -- the one way an entry changes the state ---------------------------------------
    def apply_entry(self, row: EntryRow) -> LiveEntry:
        """Apply a committed entry (raises only if the log is corrupt)."""
        if row.seq != self.seq + 1:
            raise RuntimeError(f"table {self.id}: entry {row.seq} after {self.seq}")
        events: list[Event]
        action = row.action
        if row.kind in ("action", LATE):
            assert row.seat is not None
            before = self.ledger.before(self.state)
            events = self.state.apply(row.action, seat=row.seat)
            self.ledger.after(
                before,
                self.state,
                events,
                seat=row.seat,
                action=row.action,
                # a late person's decision, played by a bot, is not theirs to take back
                undoable=row.kind == "action" and self.is_human(row.seat),
                log_size=0,
            )
        elif row.kind == "undo":
            assert row.seat is not None
            if self.state.is_terminal():
                raise RuntimeError(f"table {self.id}: an undo after the end (entry {row.seq})")
            snap = self.ledger.undo(row.seat)
            self.state = snap.state
            action = snap.action
            events = []
        else:
            raise RuntimeError(f"table {self.id}: unknown entry kind {row.kind!r}")
        if self.state.is_terminal():
            self.ledger.seal()  # a finished game is final
        entry = LiveEntry(row.seq, row.kind, row.seat, action, events, len(self.state.history))
        self.entries.append(entry)
        self.active = time.time()
        return entry

    def effective_actions(self) -> list[str]:
        """The actions that made the current position (undone ones left out)."""
        space = self.game.action_space
        return [space[i].notation() for i in self.state.history]

    def outcome_json(self) -> dict[str, Any] | None:
        """The outcome, once the game is over."""
        outcome = self.state.outcome()
        if outcome is None:
            return None
        return {
            "reason": outcome.reason,
            "winners": list(outcome.winners),
            "returns": self.state.returns(),
        }

    def record(self) -> GameRecord:
        """The game's record (with its seed: only once the game is over)."""
        meta: dict[str, Any] = {}
        if self.row.closed is not None:
            meta["closed"] = self.row.closed
        if self.asked:  # as the terminal keeps it: [actions played before, seat] each time
            meta["advice"] = [list(x) for x in self.asked_moves()]
        return GameRecord.of(
            self.row.game,
            self.state,
            seats=list(self.row.controllers),
            lang=self.row.lang,
            table=self.id,
            **meta,
        )

    def asked_moves(self) -> list[tuple[int, int]]:
        """Each time advice was asked: (the actions played before it, undone ones left out;
        the seat), as the terminal's records keep it."""
        moves = {e.seq: e.moves for e in self.entries}
        return [(moves.get(a.seq, 0), a.seat) for a in self.asked]

    # -- what each client is sent ------------------------------------------------------
    def _redact_seat(self, client: Client, event: Event) -> int | None:
        if event.secret:
            for seat in client.seats:
                if seat in event.owners:
                    return seat
        return client.seats[0] if client.seats else None

    def entry_json(self, entry: LiveEntry, client: Client) -> dict[str, Any]:
        """An entry as ``client`` may see it: events redacted, labels in its language."""
        # a private move (a colour swapped, an item given) shows whole only to the seats
        # that may see it; every other connection reads its public form (``swap``)
        action = self.game.parse_action(entry.action)
        notation, label = action_as_seen(
            self.game, self.ui, action, entry.seat, entry.events, client.seats, client.tr
        )
        data: dict[str, Any] = {
            "seq": entry.seq,
            "kind": entry.kind,
            "seat": entry.seat,
            "action": notation,
        }
        # an undo's label names the action it takes back, as this connection saw it (the
        # page and the terminal say "takes back: …" themselves)
        data["label"] = label
        events = [e.for_seat(self._redact_seat(client, e)) for e in entry.events]
        data["events"] = [e.to_json() for e in events]
        if client.html:
            data["lines"] = render.narrate(self, events, client.tr)
            if entry.kind == LATE and entry.seat is not None:
                data["lines"].insert(0, render.late_line(self, entry.seat, client.tr))
            data["stage"] = render.stage_json(self, events, client.tr)
        return data

    def state_json(self, client: Client) -> dict[str, Any]:
        """The position as ``client`` may see it, and what it may do now."""
        state = self.state
        decider = state.current_seat()
        views: list[dict[str, Any]]
        if client.seats:
            views = [{"seat": s, "view": state.view(s)} for s in client.seats]
        else:
            views = [{"seat": None, "view": state.view(None)}]
        yours = decider is not None and decider in client.seats
        actions = state.legal_actions() if yours else []
        hint_view: dict[str, Any] = next((v["view"] for v in views if v["seat"] == decider), {})
        legal = [
            {
                "id": a.id,
                "notation": a.notation(),
                "label": self.ui.action_label(a, client.tr),
                "hint": self.ui.action_hint(a, hint_view, client.tr),
            }
            for a in actions
        ]
        data: dict[str, Any] = {
            "seq": self.seq,
            "decider": decider,
            "your_turn": yours,
            "views": views,
            "legal": legal,
            "can_undo": any(self.ledger.can_undo(s) for s in client.seats),
            # a turn-based table: when the person deciding now runs out of time
            "deadline": self.row.deadline,
            "finished": state.is_terminal(),
            "outcome": self.outcome_json(),
        }
        if client.html:
            # the deciding seat's view first: its board is the one drawn
            ordered = sorted(views, key=lambda v: v["seat"] != decider)
            data["html"] = render.state_html(
                self, client.seats, [v["view"] for v in ordered], actions, client.tr, legal
            )
        return data

    def welcome_json(self, client: Client) -> dict[str, Any]:
        """What a client learns when it joins: the table, its role, the seats."""
        data: dict[str, Any] = {
            "v": PROTOCOL_VERSION,
            "type": "welcome",
            "table": self.id,
            "game": self.row.game,
            "options": self.row.options,
            "lang": client.tr.lang,
            "role": "spectator" if client.player is None else "player",
            "player": client.player,
            "seats": list(client.seats),
            "owners": list(self.owners),
            "players": [
                {
                    "player": p,
                    "controller": "human" if c == HUMAN else "bot",
                    "bot": None if c == HUMAN else c,
                }
                for p, c in enumerate(self.row.controllers)
            ],
            "opening": [e.for_seat(self._redact_seat(client, e)).to_json() for e in self.opening],
            "people": self.people(),
            "mode": self.row.mode,
            "turn_limit": self.row.turn_limit,
            "late": self.row.late,
            "advice": self.advice_on,
        }
        if client.html:
            data["names"] = self.names_html(client)
            data["role_text"] = render.role_text(self, client.player, client.seats, client.tr)
            data["lines"] = render.narrate(
                self, [e.for_seat(self._redact_seat(client, e)) for e in self.opening], client.tr
            )
        return data

    def names_html(self, client: Client) -> list[str]:
        """Each seat and who holds it, as a page's log heads read them (``Captain (Ana)``)."""
        return [
            self.ui.seat_name(s, client.tr) + f" ({who})"
            for s, who in sorted(render.who_labels(self, client.seats, client.tr).items())
        ]

    def broadcast(self, entry: LiveEntry) -> None:
        """Tell every client of the table about ``entry`` (after it was committed)."""
        for client in list(self.clients):
            client.push(
                {
                    "v": PROTOCOL_VERSION,
                    "type": "update",
                    "entry": self.entry_json(entry, client),
                    "state": self.state_json(client),
                }
            )

    def is_human_player(self, player: int) -> bool:
        """Whether a person holds ``player``'s seats."""
        return self.row.controllers[player] == HUMAN

    def people_json(self, client: Client) -> dict[str, Any]:
        """The people's names for ``client`` (with the position drawn anew)."""
        message = {
            "v": PROTOCOL_VERSION,
            "type": "people",
            "people": self.people(),
            "state": self.state_json(client),
        }
        if client.html:  # a page's log heads name the newcomer from now on
            message["names"] = self.names_html(client)
        return message

    def broadcast_people(self) -> None:
        """Tell everyone the people's names changed."""
        for client in list(self.clients):
            client.push(self.people_json(client))

    def broadcast_chat(self, line: ChatRow) -> None:
        """Tell everyone, spectators too, what was said."""
        message = {"v": PROTOCOL_VERSION, "type": "chat", "chat": self.chat_json(line)}
        for client in list(self.clients):
            client.push(message)

    def broadcast_closed(self) -> None:
        """Tell everyone the table closed before its game ended (and why)."""
        for client in list(self.clients):
            client.push(
                {
                    "v": PROTOCOL_VERSION,
                    "type": "closed",
                    "reason": self.row.closed,
                    "state": self.state_json(client),
                }
            )

    def status_json(self) -> dict[str, Any]:
        """The public status: game, seats taken, whose turn, finished, outcome."""
        decider = self.state.current_seat()
        taken = {c.player for c in self.clients if c.player is not None}
        return {
            "id": self.id,
            "game": self.row.game,
            "options": self.row.options,
            "seq": self.seq,
            "players": [
                {
                    "player": p,
                    "controller": "human" if c == HUMAN else "bot",
                    "bot": None if c == HUMAN else c,
                    "seats": list(self.seats_of(p)),
                    "taken": c != HUMAN or p in taken,
                }
                for p, c in enumerate(self.row.controllers)
            ],
            "spectators": sum(1 for c in self.clients if c.player is None),
            "decider": decider,
            "deciding_player": None if decider is None else self.owners[decider],
            "finished": self.state.is_terminal(),
            "outcome": self.outcome_json(),
            "closed": self.row.closed,
            "people": self.people(),
            "visibility": self.row.visibility,
            "mode": self.row.mode,
            "turn_limit": self.row.turn_limit,
            "late": self.row.late,
            "deadline": self.row.deadline,
            "advice": self.advice_on,
        }


_GAMES: dict[tuple[str, str], Game[Any]] = {}


def shared_game(name: str, options: dict[str, Any]) -> Game[Any]:
    """One :class:`Game` (rules and action space: about a megabyte) for every table that
    plays ``name`` with ``options``; a game holds no position, so tables can share it."""
    key = (name, json.dumps(options, sort_keys=True))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = make_game(name, **options)
    return game


def build_table(row: TableRow, token_players: dict[str, int]) -> LiveTable:
    """A live table at its start (no entries applied): the row's game name is resolved
    here, once, into the game the table holds."""
    game = shared_game(row.game, row.options)
    state = game.new_state(row.seed)
    ui = game_ui(game)
    if row.advice is None:  # a table older than the choice: the default for its people
        row.advice = advice_allowed(game, sum(c == HUMAN for c in row.controllers))
    table = LiveTable(
        row=row,
        game=game,
        state=state,
        ui=ui,
        token_players=token_players,
        owners=game.seat_owners(),
        ledger=UndoLedger(ui.hidden_counts),
    )
    table.opening = list(state.opening_events)
    return table


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


class Manager:
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
        self.closed = False
        #: called after a table got an entry (tests and the benchmark count them)
        self.on_entry: Callable[[LiveTable, LiveEntry], Awaitable[None] | None] | None = None
        #: called after a table moved, to drop what waited on its position (``web/hint.py``)
        self.moved: list[Callable[[LiveTable], None]] = []

    # -- loading -----------------------------------------------------------------------
    async def get(self, table_id: str) -> LiveTable | None:
        """The live table ``table_id``, rebuilt from the database if needed."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
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
        table = build_table(row, await self.store.token_hashes(table_id))
        for entry in await self.store.entries_from(table_id, 1):
            table.apply_entry(entry)
        table.chat = await self.store.chat_from(table_id, 1)
        table.asked = await self.store.asked_from(table_id, 1)
        table.active = await self.store.last_activity(table_id)
        self.tables[table_id] = table
        if table.state.is_terminal() and not row.finished:
            await self.store.mark_finished(table_id, table.outcome_json())
        self.schedule_bot(table)
        return table

    async def restore_all(self) -> int:
        """Rebuild every unfinished table (at start-up, so their bots go on)."""
        ids = await self.store.unfinished_ids()
        for table_id in ids:
            await self.get(table_id)
        return len(ids)

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
        stay open for whoever claims them from the lobby (:meth:`claim`).

        ``advice``: whether players may ask the expert (``None``: at a cooperative game or
        where one person plays, :func:`~subtable.ui.advice.advice_allowed`).

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

    # -- people --------------------------------------------------------------------------
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
                client.push(table.people_json(client))
                return
            await self.store.set_name(table.id, client.player, name)
            table.row.names[client.player] = name
            table.broadcast_people()

    async def claim(self, table: LiveTable, player: int, raw: str) -> str:
        """Sit a person down at an open seat of a public table: its new token.

        Refused when the table is not public (``not_public``), over (``game_over``), the
        player is not a person's seat (``not_a_seat``), the seat is taken (``seat_taken``,
        also when another claim won a moment before) or the name is refused
        (:meth:`check_name`).
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
            self.check_name(table, player, name)
            if not await self.store.claim_seat(table.id, player, digest, name):
                raise Refused("seat_taken", f"player {player + 1}'s seat is taken")
            table.token_players[digest] = player
            table.row.names[player] = name
            table.broadcast_people()
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

    async def lobby(self) -> list[dict[str, Any]]:
        """The public tables whose game goes on and that have a person's seat open."""
        out = []
        for row, held in await self.store.lobby_rows(self.limits.lobby_size):
            if row.closed is not None:
                continue
            seats = [
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
                    "created": row.created_at,
                }
            )
        return out

    # -- turn-based tables ---------------------------------------------------------------
    def _deadline(self, table: LiveTable) -> float | None:
        """When the person deciding now runs out of time (``None``: a live table, a bot's
        decision, or the end)."""
        row = table.row
        if row.mode != TURN_BASED or row.turn_limit is None or table.over:
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
        job = BotJob(
            key=table.id,
            game=table.row.game,
            options=table.row.options,
            seed=table.row.seed,
            actions=table.effective_actions(),
            seat=seat,
            spec=best_bot(table.game),
            seq=seq,
            max_budget=self.limits.max_budget,
        )
        try:
            notation = await self.pool.choose(job)
        except RuntimeError:
            notation = table.state.legal_actions()[0].notation()
        async with table.lock:
            if table.seq == seq and not table.over:
                with contextlib.suppress(Refused):
                    await self._commit_and_apply(table, EntryRow(seq + 1, LATE, seat, notation))

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
                client.push(table.rematch.frame(client.player))
            return table.rematch

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

    def why(self, table: LiveTable, client: Client, raw: int | str) -> dict[str, Any]:
        """Whether an action is possible now, and why not — only for the asker's own decision.

        The explanation reads the deciding seat's hand ("you hold no blue card"): anyone
        else who asks is refused with what everybody knows (who decides now).
        """
        action = self.resolve(table, raw)
        if client.player is None:
            raise Refused("spectator", "a spectator cannot ask about a decision")
        self._over(table)
        self._deciding(table, client, "you may ask only about your own decision")
        if action.id in table.state.legal_action_ids():
            return {
                "action": action.notation(),
                "legal": True,
                "why": client.tr("ui.why.legal", action=action.notation()),
            }
        error = table.state.explain_illegal(action)
        return {
            "action": action.notation(),
            "legal": False,
            "code": error.code,
            "message": error.message,
            "why": self.why_text(table, error, action, client.tr),
        }

    # -- bots --------------------------------------------------------------------------
    def schedule_bot(self, table: LiveTable) -> None:
        """Start the bot of the deciding seat thinking, if a bot decides and none thinks."""
        if self.closed or table.over:
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
        job = BotJob(
            key=table.id,
            game=table.row.game,
            options=table.row.options,
            seed=table.row.seed,
            actions=table.effective_actions(),
            seat=seat,
            spec=table.controller(seat),
            seq=seq,
            max_budget=self.limits.max_budget,
        )
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

    async def close(self) -> None:
        """Stop scheduling bots and wait for the ones thinking."""
        self.closed = True
        tasks = [
            t.bot_task
            for t in self.tables.values()
            if t.bot_task is not None and not t.bot_task.done()
        ]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self.pool.close()
