"""What a terminal seat at a web table shows (``subtable join``): the frames it received,
drawn with the screen, labels and narration of ``subtable play``, above the prompt."""

from __future__ import annotations

from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text

from subtable.core.actions import Action
from subtable.core.events import Event
from subtable.core.game import Game
from subtable.core.view import SeatView
from subtable.i18n import Translator, translator
from subtable.ui.games import GameUI
from subtable.ui.options import Option, fit
from subtable.ui.prompt import LivePrompt
from subtable.web.protocol import ChatLine, Entry, WelcomeFrame
from subtable.web.wire import GameJson, StateJson
from subtable.words.people import shown

#: the last decisions shown to a seat that sits down after some were made
LATE_MOVES = 5


class SeatScreen:
    """The screen of one seat: the table as the server's frames describe it (``welcome``,
    the last ``state``), the log, and what is printed of them."""

    def __init__(self, console: Console, prompt: LivePrompt, lang: str | None) -> None:
        self.console = console
        self.prompt = prompt
        self.tr: Translator = translator(lang or "en")
        self.welcome: WelcomeFrame  # the table: from the welcome
        self.state: StateJson  # the position: from the sync, then each update
        self.log: list[str] = []
        self.ui: GameUI  # and the game: from the welcome
        self.game: Game[Any]
        self.shown_seq = -1

    def say(self, text: str, style: str | None = None) -> None:
        """Print plain text (never read as markup) above the prompt, wrapped at words."""
        self.prompt.print(Text(text, style=style or ""))

    def who(self, seat: int) -> str:
        owners = self.welcome.owners
        player = self.welcome.players[owners[seat]]
        if player.controller == "bot":
            return self.tr("ui.who.bot", bot=shown(str(player.bot)))
        if owners[seat] == self.welcome.player:
            return self.tr("ui.who.you")
        people = self.welcome.people or []
        name = people[owners[seat]] if owners[seat] < len(people) else None
        # a name as typed: every character seen (``say`` and the board never read markup)
        return shown(str(name)) if name else self.tr("ui.who.player", n=owners[seat] + 1)

    def said(self, line: ChatLine) -> None:
        """A line of the table's chat (its author's name, else player N), as typed."""
        name = line.name
        who = shown(name) if name else self.tr("ui.who.player", n=line.player + 1)
        self.say(self.tr("ui.chat.line", name=who, text=shown(line.text)))

    def seat_label(self, seat: int) -> str:
        return self.tr("ui.seat_label", seat=self.ui.seat_name(seat, self.tr), who=self.who(seat))

    def narrate(self, events: list[GameJson], *, quiet: bool = False) -> None:
        for data in events:
            event = Event(
                data["key"],
                data["params"],
                tuple(data.get("owners", ())),
                tuple(data.get("secret", ())),
            )
            try:
                line = self.ui.narrate(event, self.tr)
            except (KeyError, TypeError, ValueError, IndexError):
                line = self.tr("ui.event.unknown", key=event.key)
            if line:
                self.log.append("  " + line)
                if not quiet:
                    self.say("  " + line)

    def entry(self, entry: Entry, *, quiet: bool = False) -> None:
        """Log an entry (and print it unless ``quiet``)."""
        seat = entry.seat
        assert seat is not None, "an action or an undo is a seat's"
        who = self.seat_label(seat)
        if entry.kind == "undo":
            line = self.tr("ui.undo.entry", who=who, label=self.label(entry))
        else:
            line = self.tr("ui.played", who=who, action=entry.action, label=self.label(entry))
        self.log.append(line)
        if not quiet:
            self.say(line, "bold" if seat in self.welcome.seats else None)
        self.narrate(entry.events, quiet=quiet)

    def label(self, entry: Entry) -> str:
        """An entry's description: the server's, else the action's or its public form's
        (an undo names the action taken back, maybe only in its public form: ``swap``)."""
        if entry.label:
            return entry.label
        try:
            action = self.game.parse_action(entry.action)
        except ValueError:
            return str(self.ui.public_label(entry.action, self.tr))
        return str(self.ui.action_label(action, self.tr))

    def catch_up(self, entries: list[Entry]) -> None:
        """The decisions made before this seat sat down: how many, the last few, and
        ``log`` for the rest (with what they caused)."""
        moves = []
        for entry in entries:
            moves.append(len(self.log))  # where its line goes
            self.entry(entry, quiet=True)
        if not entries:
            return
        tr = self.tr
        n = len(entries)
        self.say(tr.plural("ui.join.before", "ui.join.before.plural", n, n=n), "bold")
        for at in moves[-LATE_MOVES:]:
            self.say(self.log[at])
        self.say(tr("ui.join.log"), "dim")

    def view(self) -> SeatView:
        """The view on screen, typed: the deciding seat's if this connection holds it,
        else its first."""
        views = self.state["views"]
        decider = self.state["decider"]
        on_screen = next((item for item in views if item["seat"] == decider), views[0])
        return self.game.view_from_json(on_screen["view"])

    def legal(self) -> list[Action]:
        """The legal actions the server listed (none when another seat decides)."""
        return [self.game.parse_action(a["notation"]) for a in self.state["legal"]]

    def options(self) -> list[Option]:
        """The options as the screen lists them: the server's labels and hints, and the
        odds of each from the deciding seat's view."""
        view = self.view()
        return [
            Option(a["notation"], a["label"], a["hint"], self.ui.odds(action, view))
            for a, action in zip(self.state["legal"], self.legal(), strict=True)
        ]

    def show(self) -> None:
        """The board (and the options, on this seat's turn), laid out to fit."""
        who = {s: self.who(s) for s in range(len(self.welcome.owners))}
        view = self.view()

        def board(compact: bool) -> RenderableType:
            return self.ui.render(view, self.tr, who, compact=compact)

        for part in fit(self.console, board, self.options(), self.tr):
            self.prompt.print(part)
        self.shown_seq = self.state["seq"]

    def prompt_text(self) -> str:
        """``Player 1 > ``: the deciding seat on this seat's turn, else its own."""
        if not self.welcome.seats:
            return self.tr("ui.prompt", seat=self.tr("web.role.spectator")) + " "
        decider = self.state["decider"]
        seat = decider if self.state["your_turn"] and decider is not None else self.welcome.seats[0]
        return self.tr("ui.prompt", seat=self.ui.seat_name(seat, self.tr)) + " "

    def not_yours(self) -> None:
        """The answer to a move, ``why`` or ``undo`` while another seat decides."""
        if not self.welcome.seats:
            self.say(self.tr("web.error.spectator"), "red")
            return
        decider = self.state["decider"]
        current = "?" if decider is None else self.seat_label(decider)
        self.say(self.tr("ui.why.not_your_turn", current=current), "red")

    def finish(self) -> None:
        self.show()
        outcome = self.state["outcome"]
        text = self.ui.result(dict(outcome) if outcome is not None else {}, self.tr)
        self.say(self.tr("ui.result", text=text), "bold")
        self.say(self.tr("ui.join.end"), "dim")
