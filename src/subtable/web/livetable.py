"""One table in memory (:class:`LiveTable`): its state rebuilt entry by entry, its seats, and
what each connection is sent of it; and the game every table of one kind shares."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any, TypedDict

from subtable.bots.advice import can_advise
from subtable.core.events import Event
from subtable.core.game import Game, State
from subtable.core.record import GameRecord
from subtable.core.registry import make_game
from subtable.web import render
from subtable.web.botpool import BotJob
from subtable.web.db import AskedRow, ChatRow, EntryRow, TableRow
from subtable.web.livetypes import HUMAN, LATE, Client, LiveEntry, Rematch
from subtable.web.protocol import (
    ChatFrame,
    ChatLine,
    ClosedFrame,
    Entry,
    PeopleFrame,
    PlayerSeat,
    UpdateFrame,
    WelcomeFrame,
)
from subtable.web.wire import (
    LegalAction,
    Options,
    OutcomeJson,
    PlayerStatus,
    StateJson,
    Status,
    ViewJson,
    Waiting,
)
from subtable.words import GameUI, action_as_seen, game_ui
from subtable.words.advice import advice_allowed
from subtable.words.undo import UndoLedger


class RecordMeta(TypedDict, total=False):
    """What a web table's record keeps beyond the game: why it closed before its end, and
    each time advice was asked (``[actions played before, seat]``)."""

    closed: str
    advice: list[list[int]]


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

    @property
    def waiting(self) -> bool:
        """Whether the table waits for its people: no move is made until every person's
        seat is claimed, or its host starts it (``web/waiting.py``)."""
        return not self.row.started

    def open_players(self) -> list[int]:
        """The people's seats nobody claimed yet (a public table's, taken from the lobby)."""
        held = set(self.token_players.values())
        return [p for p, c in enumerate(self.row.controllers) if c == HUMAN and p not in held]

    def waiting_json(self) -> Waiting | None:
        """While the table waits: the open seats and who may start it now (public)."""
        if not self.waiting:
            return None
        return {"open": self.open_players(), "host": self.row.host}

    def people(self) -> list[str | None]:
        """Each player's display name (``None`` for a bot, or a person not named yet)."""
        return [
            self.row.names.get(p) if c == HUMAN else None
            for p, c in enumerate(self.row.controllers)
        ]

    def chat_line(self, line: ChatRow) -> ChatLine:
        """A line said at the table (public: every connection gets the same)."""
        return ChatLine(
            n=line.n,
            seq=line.seq,
            player=line.player,
            name=self.row.names.get(line.player),
            text=line.text,
            at=line.at,
        )

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

    def bot_job(self, seat: int, spec: str, max_budget: int) -> BotJob:
        """The bot pool's job: ``spec`` chooses for ``seat`` at this position."""
        return BotJob(
            key=self.id,
            game=self.row.game,
            options=self.row.options,
            seed=self.row.seed,
            actions=self.effective_actions(),
            seat=seat,
            spec=spec,
            seq=self.seq,
            max_budget=max_budget,
        )

    def effective_actions(self) -> list[str]:
        """The actions that made the current position (undone ones left out)."""
        space = self.game.action_space
        return [space[i].notation() for i in self.state.history]

    def outcome_json(self) -> OutcomeJson | None:
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
        meta: RecordMeta = {}
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

    def entry_as_seen(self, entry: LiveEntry, client: Client) -> Entry:
        """An entry as ``client`` may see it: events redacted, labels in its language."""
        # a private move (a colour swapped, an item given) shows whole only to the seats
        # that may see it; every other connection reads its public form (``swap``)
        action = self.game.parse_action(entry.action)
        notation, label = action_as_seen(
            self.game, self.ui, action, entry.seat, entry.events, client.seats, client.tr
        )
        events = [e.for_seat(self._redact_seat(client, e)) for e in entry.events]
        seen = Entry(
            seq=entry.seq,
            kind=entry.kind,
            seat=entry.seat,
            action=notation,
            # an undo's label names the action it takes back, as this connection saw it
            # (the page and the terminal say "takes back: …" themselves)
            label=label,
            events=[e.to_json() for e in events],
        )
        if client.html:
            seen.lines = render.narrate(self, events, client.tr)
            if entry.kind == LATE and entry.seat is not None:
                seen.lines.insert(0, render.late_line(self, entry.seat, client.tr))
            seen.stage = render.stage_json(self, events, client.tr)
        return seen

    def state_json(self, client: Client) -> StateJson:
        """The position as ``client`` may see it, and what it may do now."""
        state = self.state
        decider = state.current_seat()
        observed = {s: state.observe(s) for s in client.seats or (None,)}
        views: list[ViewJson] = [{"seat": s, "view": v.to_json()} for s, v in observed.items()]
        yours = decider is not None and decider in client.seats and not self.waiting
        actions = state.legal_actions() if yours else []
        legal: list[LegalAction] = [
            {
                "id": a.id,
                "notation": a.notation(),
                "label": self.ui.action_label(a, client.tr),
                "hint": self.ui.action_hint(a, observed[decider], client.tr),
            }
            for a in actions
        ]
        data: StateJson = {
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
            "waiting": self.waiting_json(),
        }
        if client.html:
            # the deciding seat's view first: its board is the one drawn
            seen = sorted(observed.values(), key=lambda v: v.seat != decider)
            data["html"] = render.state_html(self, client.seats, seen, actions, client.tr, legal)
        return data

    def welcome_frame(self, client: Client) -> WelcomeFrame:
        """What a client learns when it joins: the table, its role, the seats."""
        opening = [e.for_seat(self._redact_seat(client, e)) for e in self.opening]
        frame = WelcomeFrame(
            table=self.id,
            game=self.row.game,
            options=self.row.options,
            lang=client.tr.lang,
            role="spectator" if client.player is None else "player",
            player=client.player,
            seats=list(client.seats),
            owners=list(self.owners),
            players=[
                PlayerSeat(
                    player=p,
                    controller="human" if c == HUMAN else "bot",
                    bot=None if c == HUMAN else c,
                )
                for p, c in enumerate(self.row.controllers)
            ],
            opening=[e.to_json() for e in opening],
            people=self.people(),
            mode=self.row.mode,
            turn_limit=self.row.turn_limit,
            late=self.row.late,
            advice=self.advice_on,
        )
        if client.html:
            frame.names = self.names_html(client)
            frame.role_text = render.role_text(self, client.player, client.seats, client.tr)
            frame.lines = render.narrate(self, opening, client.tr)
        return frame

    def names_html(self, client: Client) -> list[str]:
        """Each seat and who holds it, as a page's log heads read them (``Captain (Ana)``)."""
        return [
            self.ui.seat_name(s, client.tr) + f" ({who})"
            for s, who in sorted(render.who_labels(self, client.seats, client.tr).items())
        ]

    def broadcast(self, entry: LiveEntry) -> None:
        """Tell every client of the table about ``entry`` (after it was committed)."""
        for client in list(self.clients):
            client.send(
                UpdateFrame(entry=self.entry_as_seen(entry, client), state=self.state_json(client))
            )

    def is_human_player(self, player: int) -> bool:
        """Whether a person holds ``player``'s seats."""
        return self.row.controllers[player] == HUMAN

    def people_frame(self, client: Client) -> PeopleFrame:
        """The people's names for ``client`` (with the position drawn anew; a page's log
        heads name the newcomer from now on)."""
        return PeopleFrame(
            people=self.people(),
            state=self.state_json(client),
            names=self.names_html(client) if client.html else None,
        )

    def broadcast_people(self) -> None:
        """Tell everyone the people's names changed."""
        for client in list(self.clients):
            client.send(self.people_frame(client))

    def broadcast_chat(self, line: ChatRow) -> None:
        """Tell everyone, spectators too, what was said."""
        frame = ChatFrame(chat=self.chat_line(line))
        for client in list(self.clients):
            client.send(frame)

    def broadcast_closed(self) -> None:
        """Tell everyone the table closed before its game ended (and why)."""
        for client in list(self.clients):
            client.send(ClosedFrame(reason=self.row.closed, state=self.state_json(client)))

    def status_json(self) -> Status:
        """The public status: game, seats taken, whose turn, finished, outcome."""
        decider = self.state.current_seat()
        taken = {c.player for c in self.clients if c.player is not None}
        players: list[PlayerStatus] = [
            {
                "player": p,
                "controller": "human" if c == HUMAN else "bot",
                "bot": None if c == HUMAN else c,
                "seats": list(self.seats_of(p)),
                "taken": c != HUMAN or p in taken,
            }
            for p, c in enumerate(self.row.controllers)
        ]
        return {
            "id": self.id,
            "game": self.row.game,
            "options": self.row.options,
            "seq": self.seq,
            "players": players,
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
            "waiting": self.waiting_json(),
        }


_GAMES: dict[tuple[str, str], Game[Any]] = {}


def shared_game(name: str, options: Options) -> Game[Any]:
    """One :class:`Game` (rules and action space: about a megabyte) for every table that
    plays ``name`` with ``options``; a game holds no position, so tables can share it."""
    key = (name, json.dumps(options, sort_keys=True))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = make_game(name, None, **options)
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
