"""The game loop of the terminal table: prompts, commands, bots, the narrated log."""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.text import Text

from subtable.bots.advice import advice_seed, advise, can_advise
from subtable.bots.base import observe
from subtable.core.actions import Action
from subtable.core.errors import InvalidActionError
from subtable.core.events import Event
from subtable.core.game import State
from subtable.core.record import GameRecord
from subtable.core.view import SeatView
from subtable.i18n import Translator
from subtable.ui.answers import BARE, help_lines, help_on, log_lines, pick, stray_argument
from subtable.ui.games import game_ui
from subtable.ui.options import Option, fit
from subtable.ui.terminal import discard_typeahead, is_compact, wipe
from subtable.words import GameUI as GameWords
from subtable.words import action_as_seen, result_words
from subtable.words.advice import advice_allowed, advice_lines
from subtable.words.rules import RuleSection, find_sections, rule_book
from subtable.words.seat_words import bot_who
from subtable.words.seats import Seat, build_seats
from subtable.words.undo import UndoLedger

#: seconds a bot waits before it plays (none with ``--fast``)
BOT_PAUSE = 0.5
#: seconds a bot waits when it takes its seat
SEAT_PAUSE = 0.3
COMMANDS = ("help", "why", "hint", "log", "undo", "save", "board", "quit")
#: commands that take no argument here: the shared ones and ``hint``
_BARE = (*BARE, "hint")
#: ``help rules [SECTION]``: the rule book
RULES_WORD = "rules"
#: columns a rule book's entries are indented by, and the narrowest text it wraps to
RULES_INDENT = 2
RULES_MIN_WIDTH = 20


class Quit(Exception):
    """Leave the table with an exit code."""

    def __init__(self, code: int = 0) -> None:
        super().__init__(code)
        self.code = code


class GameTable:
    """People and bots around one game, at one terminal."""

    def __init__(
        self,
        state: State[Any],
        controllers: list[str],
        tr: Translator,
        console: Console,
        *,
        fast: bool = False,
        input_fn: Callable[[str], str] | None = None,
        advice: bool | None = None,
    ) -> None:
        self.state = state
        self.game = state.game
        self.name = self.game.info.name
        self.controllers = controllers
        self.tr = tr
        self.console = console
        self.fast = fast
        self._input = input_fn
        self.ui = game_ui(self.game)
        self.seats: list[Seat] = build_seats(
            self.game, controllers, state.seed, salt=len(state.history)
        )
        self.humans = sorted({s.player for s in self.seats if s.human})
        # a single person's seats read the log unredacted for their own secrets
        self.reader = (
            frozenset(s.seat for s in self.seats if s.human)
            if len(self.humans) == 1
            else frozenset()
        )
        #: whether players may ask for advice (``hint``); by default at a cooperative game
        #: or where one person plays (:func:`advice_allowed`)
        self.advice = advice_allowed(self.game, len(self.humans)) if advice is None else advice
        #: (moves played, seat) each time advice was asked: public, kept in saved records
        self.advice_asked: list[tuple[int, int]] = []
        self.log: list[str] = []
        self.ledger = UndoLedger(self.ui.hidden_counts)
        self.dirty = True
        self.saved_at: int | None = None
        self.loaded = False
        self._last_player: int | None = None

    # -- labels --------------------------------------------------------------------
    def who(self, seat: int) -> str:
        """Who controls ``seat``: ``you``, ``player 2`` or ``bot random``."""
        s = self.seats[seat]
        if not s.human:
            return bot_who(self.game.info.name, s.controller, self.tr)
        if len(self.humans) == 1:
            return self.tr("ui.who.you")
        return self.tr("ui.who.player", n=s.player + 1)

    def seat_label(self, seat: int) -> str:
        """``Player 2 (you)``."""
        return self.tr("ui.seat_label", seat=self.ui.seat_name(seat, self.tr), who=self.who(seat))

    def say(self, text: str, style: str | None = None) -> None:
        """Print plain text (never read as markup)."""
        self.console.print(Text(text, style=style or ""), soft_wrap=True)

    # -- the loop ------------------------------------------------------------------
    def run(self, *, intro: list[Event] | None = None, loaded: Path | None = None) -> int:
        """Play until the end or ``quit``; the exit code."""
        if loaded is not None:
            self.saved_at = len(self.state.history)  # nothing is unsaved yet
        try:
            self._intro(intro, loaded)
            while not self.state.is_terminal():
                seat = self.state.current_seat()
                assert seat is not None
                s = self.seats[seat]
                if s.human:
                    self._human(s)
                else:
                    self._bot(s)
            self._finish()
            return 0
        except Quit as q:
            if q.code == 0:
                self.say(self.tr("ui.quit"))
                if self.saved_at != len(self.state.history):
                    self.say(self.tr("ui.quit.unsaved"), "dim")
            return q.code
        except KeyboardInterrupt:
            self.say("\n" + self.tr("ui.interrupted"))
            return 130

    def _intro(self, intro: list[Event] | None, loaded: Path | None) -> None:
        tr = self.tr
        self.console.rule(Text(self.ui.title(tr), style="bold"))
        by_player: dict[int, list[int]] = {}
        for s in self.seats:
            by_player.setdefault(s.player, []).append(s.seat)
        for player, seats in sorted(by_player.items()):
            names = tr.join([self.ui.seat_name(x, tr) for x in seats])
            self.say(tr("ui.intro.player", n=player + 1, who=self.who(seats[0]), seats=names))
            if not self.seats[seats[0]].human:
                self._pause(SEAT_PAUSE)
        if loaded is not None:
            n = len(self.state.history)
            self.say(tr.plural("ui.loaded", "ui.loaded.plural", n, path=str(loaded), n=n))
        if intro:
            self._events(intro)
        if self.humans:
            self.say(tr("ui.intro.hint"), "dim")

    def _finish(self) -> None:
        tr = self.tr
        view = self.state.observe(None)
        outcome = self.state.outcome()
        assert outcome is not None
        if self.humans:
            board = self.ui.render(view, tr, self._who_map(), compact=is_compact(self.console))
            self.console.print(board)
        scores = getattr(self.ui, "scores", None)
        if scores is not None:
            self.say(scores(view, tr))
        self.say(tr("ui.result", text=result_words(self.ui, outcome, tr)), "bold")
        # only now: the seed and the actions rebuild every deck, so it is a secret until the end
        self.say(tr("ui.end.seed", seed=self.state.seed))

    def _pause(self, seconds: float) -> None:
        if not self.fast:
            time.sleep(seconds)

    def _who_map(self) -> dict[int, str]:
        return {s.seat: self.who(s.seat) for s in self.seats}

    # -- events --------------------------------------------------------------------
    def _redact(self, event: Event) -> Event:
        if not event.secret:
            return event
        seat = next((s for s in self.reader if s in event.owners), None)
        return event.for_seat(seat)

    def _events(self, events: list[Event]) -> None:
        for event in events:
            try:
                line = self.ui.narrate(self._redact(event), self.tr)
            except (KeyError, TypeError, ValueError, IndexError):
                # an engine event of an unexpected shape must not stop the game
                line = self.tr("ui.event.unknown", key=event.key)
            if line:
                self.log.append("  " + line)
                self.say("  " + line)

    # -- bots ----------------------------------------------------------------------
    def _bot(self, seat: Seat) -> None:
        assert seat.bot is not None
        self._pause(BOT_PAUSE)
        legal = self.state.legal_actions()
        try:
            action = seat.bot.choose(observe(self.state, seat.seat))
        except Exception as exc:  # a failing bot must not end the game for the people at it
            self.say(
                self.tr("ui.bot.failed", who=self.seat_label(seat.seat), error=type(exc).__name__),
                "red",
            )
            action = legal[0]
        if action.id not in {a.id for a in legal}:
            self.say(
                self.tr("ui.bot.illegal", who=self.seat_label(seat.seat), action=action.notation()),
                "red",
            )
            action = legal[0]
        self._apply(seat, action, human=False)

    def _apply(self, seat: Seat, action: Action, *, human: bool) -> None:
        before = self.ledger.before(self.state)
        log_size = len(self.log)
        events = self.state.apply(action, seat=seat.seat)
        # the shared screen shows another seat's private move only in its public form
        notation, label = action_as_seen(
            self.game, self.ui, action, seat.seat, events, sorted(self.reader), self.tr
        )
        line = self.tr("ui.played", who=self.seat_label(seat.seat), action=notation, label=label)
        self.log.append(line)
        self.say(line, "bold" if human else None)
        self._events(events)
        self.ledger.after(
            before,
            self.state,
            events,
            seat=seat.seat,
            action=action.notation(),
            undoable=human,
            log_size=log_size,
        )
        self.dirty = True

    # -- people --------------------------------------------------------------------
    def _human(self, seat: Seat) -> None:
        if len(self.humans) > 1 and seat.player != self._last_player:
            # the screen and the scroll-back: the next person must not scroll up to a hand
            wipe(self.console)
            self._read(self.tr("ui.handover", n=seat.player + 1) + " ")
            wipe(self.console)
            self.dirty = True
        self._last_player = seat.player
        if self.dirty:
            self._show(seat.seat)
            self.dirty = False
        line = self._read(self.tr("ui.prompt", seat=self.ui.seat_name(seat.seat, self.tr)) + " ")
        self._handle(line, seat)

    def _read(self, prompt: str) -> str:
        try:
            if self._input is not None:
                return self._input(prompt)
            discard_typeahead()  # keys typed while the bots played are not answers
            return self.console.input(escape(prompt))
        except EOFError:
            self.console.print()
            raise Quit(0) from None

    def _show(self, seat: int) -> None:
        """The board and the options, laid out to fit the terminal with the prompt below."""
        tr = self.tr
        view = self.state.observe(seat)
        who = self._who_map()
        options = self._options(view)

        def board(compact: bool) -> RenderableType:
            return self.ui.render(view, tr, who, compact=compact)

        for part in fit(self.console, board, options, tr):
            self.console.print(part)

    def _options(self, view: SeatView) -> list[Option]:
        """The legal actions as the options on screen, hints and odds from ``view``."""
        return options_of(self.ui, self.state.legal_actions(), view, self.tr)

    def _handle(self, line: str, seat: Seat) -> None:
        text = line.strip()
        if not text:
            return
        word, _, rest = text.partition(" ")
        command = word.lower()
        stray = stray_argument(command, rest.strip(), self.tr, bare=_BARE)
        if stray is not None:
            self.say(*stray)
            return
        if command in ("help", "?"):
            self._help(seat.seat, rest.strip())
        elif command == "why":
            self._why(rest.strip())
        elif command == "hint":
            self._hint(seat.seat)
        elif command == "log":
            self._log(rest.strip())
        elif command == "undo":
            self._undo(seat.seat)
        elif command == "save":
            self._save(rest.strip())
        elif command in ("quit", "exit"):
            raise Quit(0)
        elif command == "board":
            self._show(seat.seat)
        else:
            self._act(text, seat)

    def _act(self, text: str, seat: Seat) -> None:
        tr = self.tr
        legal = self.state.legal_actions()
        action = pick(text, legal, self.game.action_space, tr)
        if isinstance(action, str):
            self.say(action, "red")
            return
        if action.id not in {a.id for a in legal}:
            reason = self._reason(action)
            self.say(tr("ui.err.illegal", action=action.notation(), reason=reason), "red")
            self.say(tr("ui.err.illegal_hint"), "dim")
            return
        self._apply(seat, action, human=True)

    # -- commands ------------------------------------------------------------------
    def _help(self, seat: int, arg: str = "") -> None:
        view = self.state.observe(seat)
        word, _, rest = arg.partition(" ")
        if word.lower() == RULES_WORD:
            self._rules(rest.strip())
            return
        if arg:
            self.say(*help_on(self.ui, arg, self._options(view), self.tr))
            return
        book = self.tr("ui.help.book", sections=", ".join(s.key for s in self._book()))
        for line in help_lines(self.ui, view, COMMANDS, self.tr, more=[book]):
            self.say(*line)

    def _book(self) -> list[RuleSection]:
        return rule_book(self.game, self.tr)

    def _rules(self, arg: str) -> None:
        """The rule book, or the sections ``arg`` names, wrapped to the console's width."""
        tr = self.tr
        book = self._book()
        sections = find_sections(book, arg) if arg else book
        if not sections:
            keys = ", ".join(s.key for s in book)
            self.console.print(Text(tr("ui.help.no_section", text=arg, sections=keys), "red"))
            return
        width = max(RULES_MIN_WIDTH, self.console.width - RULES_INDENT)
        for section in sections:
            self.say(section.title, "bold")
            for entry in section.entries:
                head = tr("ui.help.entry_title", title=entry.title) if entry.title else ""
                for line in _wrap(head, entry.text, width):
                    self.console.print(Text(" " * RULES_INDENT).append_text(line))
        if not arg:
            keys = ", ".join(s.key for s in book)
            self.console.print(Text(tr("ui.help.sections", sections=keys), "dim"))

    def _why(self, text: str) -> None:
        tr = self.tr
        if not text:
            self.say(tr("ui.why.usage"), "red")
            return
        legal = self.state.legal_actions()
        space = self.game.action_space
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(legal):
                self.say(tr("ui.why.legal", action=legal[n - 1].notation()))
            else:
                self.say(tr("ui.err.bad_number", n=n, max=len(legal)), "red")
            return
        try:
            action = space.parse(text)
        except InvalidActionError:
            key = " ".join(text.lower().split())
            candidates = [a for a in space if a.notation().startswith(key)]
            if not candidates:
                self.say(tr("ui.why.unknown", text=text), "red")
                return
            legal_ids = {a.id for a in legal}
            action = next((a for a in candidates if a.id in legal_ids), candidates[0])
            self.say(tr("ui.why.taking", action=action.notation()), "dim")
        if action.id in {a.id for a in legal}:
            self.say(tr("ui.why.legal", action=action.notation()))
            return
        self.say(tr("ui.why.because", action=action.notation(), reason=self._reason(action)))

    def _hint(self, seat: int) -> None:
        """The expert's advice for ``seat``'s decision, from its view only; the log says,
        for everyone, that it was asked."""
        tr = self.tr
        if not self.advice or not can_advise(self.game):
            self.say(tr("advice.off"), "red")
            return
        view = self.state.observe(seat)
        line = tr("advice.asked", who=self.seat_label(seat))
        self.log.append(line)
        self.say(line, "dim")
        self.advice_asked.append((len(self.state.history), seat))
        found = advise(self.game, view, self.state.legal_action_ids(), seed=advice_seed(view))
        for text in advice_lines(found, self.game, self.ui, tr):
            self.say(text)

    def _reason(self, action: Action) -> str:
        """Why ``action`` is illegal now, translated from the engine's code and params."""
        error = self.state.explain_illegal(action)
        try:
            return self.ui.why(error, action, self.tr)
        except (KeyError, TypeError, ValueError, IndexError):
            # a reason of an unexpected shape: the engine's own words beat a crash
            return self.tr("ui.why.unknown_code", code=error.code, message=error.message)

    def _log(self, arg: str) -> None:
        for line in log_lines(self.log, arg, self.tr):
            self.say(*line)

    def _undo(self, seat: int) -> None:
        tr = self.tr
        if not self.ledger.can_undo(seat):
            self.say(tr(f"ui.undo.barrier.{self.ledger.why_not(seat)}"), "red")
            return
        snap = self.ledger.undo(seat)
        self.state = snap.state
        del self.log[snap.log_size :]
        self.say(tr("ui.undo.done", action=snap.action))
        self.dirty = True

    def _save(self, arg: str) -> None:
        tr = self.tr
        if not arg:
            self.say(tr("ui.save.usage"), "red")
            return
        path = Path(arg).expanduser()
        meta: dict[str, Any] = {"seats": list(self.controllers), "lang": tr.lang}
        if self.advice_asked:
            meta["advice"] = [list(x) for x in self.advice_asked]
        record = GameRecord.of(self.name, self.state, **meta)
        try:
            record.save(path)
        except OSError as exc:
            self.say(tr("ui.save.failed", path=str(path), error=exc.strerror or str(exc)), "red")
            return
        self.saved_at = len(self.state.history)
        self.say(tr("ui.save.done", path=str(path)))


def options_of(
    ui: GameWords, legal: Sequence[Action], view: SeatView, tr: Translator
) -> list[Option]:
    """``legal`` as the options on screen, their hints and odds from ``view`` (the play
    table's and a lesson's)."""
    return [
        Option(a.notation(), ui.action_label(a, tr), ui.action_hint(a, view, tr), ui.odds(a, view))
        for a in legal
    ]


def _wrap(head: str, text: str, width: int) -> list[Text]:
    """``head`` (bold) and ``text`` wrapped to ``width`` columns.

    :mod:`textwrap` breaks only at ASCII white space, so the no-break spaces of French
    typography (``carte\u00a0:``) keep a colon off the start of a line, as Rich would not.
    """
    lines = textwrap.wrap(head + text, width, break_on_hyphens=False) or [""]
    out: list[Text] = []
    bold = len(head.rstrip())
    for line in lines:
        out.append(Text(line))
        if bold > 0:
            out[-1].stylize("bold", 0, min(bold, len(line)))
            bold -= len(line) + 1  # the space the wrap dropped
    return out
