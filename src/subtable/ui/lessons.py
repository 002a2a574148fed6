"""The lessons at the terminal: the board as ``subtable play`` draws it, the scene's text, and
a prompt that takes moves and a few commands.

:class:`LessonScreen` drives a :class:`~subtable.learn.run.LessonRun`: each scene shows its
title, the learner's view of the board (compact below 100×40: a Red November scene fits
80×24 whole), then its text and what to try right above the prompt; each move tried is
answered (played and narrated, or explained).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from subtable.i18n import Translator
from subtable.learn import Lesson, LessonRun, Outcome, Played
from subtable.learn.run import text_of
from subtable.ui.games import game_ui
from subtable.ui.options import columns
from subtable.ui.table import Quit, options_of
from subtable.ui.terminal import is_compact
from subtable.words.common import bot_words
from subtable.words.rules import find_sections, rule_book

#: the lesson prompt's commands, each with its ``learn.ui.help.<command>`` line
COMMANDS = ("options", "hint", "board", "rules", "again", "skip", "help", "quit")
#: narrowest width text is wrapped to
_MIN_WIDTH = 20


class LessonScreen:
    """One learner at the terminal, going through lessons."""

    def __init__(
        self,
        game: str,
        tr: Translator,
        console: Console,
        *,
        input_fn: Callable[[str], str] | None = None,
    ) -> None:
        self.game = game
        self.tr = tr
        self.console = console
        self._input = input_fn
        #: the lesson under way (``None`` between lessons)
        self.lesson_run: LessonRun | None = None

    # -- output ----------------------------------------------------------------------------
    def say(self, text: str, style: str = "") -> None:
        """Print plain text (never read as markup), wrapped to the console."""
        width = max(_MIN_WIDTH, self.console.width - 1)
        for line in textwrap.wrap(text, width, break_on_hyphens=False) or [""]:
            self.console.print(Text(line, style=style))

    def _read(self, prompt: str) -> str:
        try:
            if self._input is not None:
                return self._input(prompt)
            return self.console.input(escape(prompt))
        except EOFError:
            self.console.print()
            raise Quit(0) from None

    # -- choosing ---------------------------------------------------------------------------
    def choose(self, lessons: tuple[Lesson, ...]) -> Lesson | None:
        """List the lessons and read the learner's choice (``None``: quit)."""
        tr = self.tr
        self.say(tr("learn.ui.lessons", game=game_ui(self.game).title(tr)), "bold")
        for n, lesson in enumerate(lessons, start=1):
            title, summary = text_of(lesson.title, tr), text_of(lesson.summary, tr)
            self.say(tr("learn.ui.lesson_item", n=n, title=title, summary=summary))
        while True:
            answer = self._read(tr("learn.ui.choose") + " ").strip().lower()
            if answer in ("q", "quit", "exit"):
                return None
            if not answer:
                return lessons[0]
            if answer.isdigit() and 1 <= int(answer) <= len(lessons):
                return lessons[int(answer) - 1]
            self.say(tr("learn.ui.bad_choice", text=answer, max=len(lessons)), "red")

    # -- a lesson ---------------------------------------------------------------------------
    def run(self, lesson: Lesson) -> int:
        """Go through ``lesson``; the exit code (0, also after ``quit``)."""
        run = self.lesson_run = LessonRun(lesson, self.tr)
        self.say(run.prompt().lesson.upper(), "bold")
        try:
            while True:
                self._scene(run)
                if run.finished or not run.next_scene():
                    break
            self.say(self.tr("learn.ui.lesson_done", title=run.prompt().lesson), "bold green")
            return 0
        except Quit as q:
            self.say(self.tr("ui.quit"))
            return q.code

    def _scene(self, run: LessonRun) -> None:
        self._show(run, intro=True)
        self._played(run, run.opening)
        while not run.scene_done:
            line = self._read(self._prompt(run)).strip()
            if not line:
                continue
            if not self._command(run, line):
                self._answer(run, run.try_move(line))
        if not run.finished:
            self._read(self.tr("learn.ui.continue") + " ")

    def _prompt(self, run: LessonRun) -> str:
        seat = run.ui.seat_name(run.scene.seat, self.tr)
        return self.tr("ui.prompt", seat=seat) + " "

    def _show(self, run: LessonRun, *, intro: bool) -> None:
        tr = self.tr
        p = run.prompt()
        head = tr("learn.ui.scene", n=p.number, total=p.scenes, title=p.title)
        self.console.rule(Text(head, style="bold"))
        who = {s: bot_words(run.scene.bot, tr) for s in range(run.state.game.num_seats)}
        who[run.scene.seat] = tr("ui.who.you")
        board = game_ui(run.state.game).render(p.view, tr, who, compact=is_compact(self.console))
        self.console.print(board)
        # the text under the board: on a short terminal the board's top scrolls away first
        if intro:
            self.say(p.intro, "italic")
        self.say(p.task, "bold")

    def _answer(self, run: LessonRun, outcome: Outcome) -> None:
        self._played(run, outcome.played)
        if not outcome.message:
            if not run.scene_done:
                self.say(run.prompt().task, "bold")
            return
        style = "green" if outcome.accepted else ("yellow" if outcome.kind == "wrong" else "red")
        self.say(outcome.message, style)

    def _played(self, run: LessonRun, played: tuple[Played, ...]) -> None:
        tr = self.tr
        for move in played:
            seat = run.ui.seat_name(move.seat, tr)
            self.say(tr("ui.played", who=seat, action=move.notation, label=move.label), "bold")
            for line in move.lines:
                self.say("  " + line)

    # -- commands ---------------------------------------------------------------------------
    def _command(self, run: LessonRun, line: str) -> bool:
        """Run ``line`` if it is a command; whether it was."""
        tr = self.tr
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command not in (*COMMANDS, "?", "exit"):
            return False
        if command in ("help", "?"):
            self.say(tr("learn.ui.help.title"), "bold")
            for name in ("number", "action", *COMMANDS):
                self.say("  " + tr(f"learn.ui.help.{name}"))
        elif command == "options":
            self._options(run)
        elif command == "hint":
            expected = run.prompt().expected
            if expected:
                self.say(tr("learn.ui.expected", moves=", ".join(expected)), "cyan")
            else:
                self.say(tr("learn.ui.no_hint"), "cyan")
        elif command == "board":
            self._show(run, intro=False)
        elif command == "rules":
            self._rules(run, rest.strip())
        elif command == "again":
            run.restart()
            self._show(run, intro=True)
        elif command == "skip":
            run.skip()
        else:
            raise Quit(0)
        return True

    def _options(self, run: LessonRun) -> None:
        options = options_of(run.ui, run.state.legal_actions(), run.view(), self.tr)
        self.say(self.tr("ui.options", n=len(options)), "bold")
        self.console.print(columns(options, self.tr))

    def _rules(self, run: LessonRun, arg: str) -> None:
        tr = self.tr
        book = rule_book(run.state.game, tr)
        sections = (
            find_sections(book, arg) if arg else [s for s in book if s.key in run.scene.rules]
        )
        if not sections:
            keys = ", ".join(s.key for s in book)
            self.say(tr("ui.help.no_section", text=arg, sections=keys), "red")
            return
        for section in sections:
            self.say(section.title, "bold")
            for entry in section.entries:
                head = tr("ui.help.entry_title", title=entry.title) if entry.title else ""
                self.say("  " + head + entry.text)
