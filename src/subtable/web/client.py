"""``subtable join``: a terminal seat at a web table, with the screen, commands and languages
of ``subtable play`` (the same per-game drawing, labels and narration), over the protocol of
``docs/protocol.md``. It proves the protocol: it knows nothing the server does not send.

This module holds the connection: the server's frames and the keys typed, read in turn; the
screen is :mod:`subtable.web.clientscreen`, the links :mod:`subtable.web.clientlink`."""

from __future__ import annotations

import json
import queue
import sys
import threading
import time
from collections import deque
from typing import Any, TextIO
from urllib.parse import urljoin

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from subtable.core.registry import make_game
from subtable.i18n import detect_language, normalize, translator
from subtable.ui.answers import (
    BARE,
    JOIN_COMMANDS,
    help_lines,
    help_on,
    log_lines,
    pick,
    stray_argument,
)
from subtable.ui.games import game_ui
from subtable.ui.prompt import LivePrompt, Posted
from subtable.web.clientlink import REPLY_TIMEOUT, JoinError, http_base, open_again, parse_link
from subtable.web.clientscreen import LATE_MOVES, SeatScreen
from subtable.web.protocol import (
    ActionMsg,
    AnyMessage,
    ChatLine,
    ChatMsg,
    Entry,
    Hello,
    HintMsg,
    NameMsg,
    UndoMsg,
    WelcomeFrame,
    WhyMsg,
)

__all__ = ["COMMANDS", "LATE_MOVES", "JoinError", "Remote", "http_base", "parse_link", "run_join"]

COMMANDS = JOIN_COMMANDS
_BARE = (*BARE, "again")
#: seconds of quiet before the seat says who it waits for
QUIET = 0.3


class Remote(SeatScreen):
    """The terminal side of one seat.

    Two threads read, one writes: the socket's messages and the keyboard's keys arrive
    in one queue, in the order they came, and this thread prints each message above the
    prompt and answers each line typed, whoever's turn it is.
    """

    def __init__(
        self,
        ws: Any,
        console: Console,
        lang: str | None,
        stdin: TextIO | None = None,
        prompt: LivePrompt | None = None,
    ) -> None:
        self.events: queue.Queue[Posted] = queue.Queue()
        # the keyboard of an earlier table (``again``) is read on, into this table's queue
        prompt = prompt if prompt is not None else LivePrompt(console, self.events, stdin)
        prompt.posts = self.events
        super().__init__(console, prompt, lang)
        self.ws = ws
        self.deferred: deque[Posted] = deque()  # keys typed while a request was answered
        self.announced: int | None = None  # the decider last said to be awaited
        self.asked: tuple[str, str] | None = None  # the request out: its kind, what was typed
        #: where the server answers requests (``http://host:port``), the table and the token
        self.base = ""
        self.table = ""
        self.token = ""
        self.ended = False  # the result has been shown
        #: this seat's link to the next table (``again``): sent by the server, or asked for
        self.rematch: str | None = None
        #: the link to follow on leaving (``again``)
        self.next_url: str | None = None

    # -- the socket ---------------------------------------------------------------------
    def send(self, message: AnyMessage) -> None:
        """Send one of the protocol's messages (built unchecked: what the server refuses,
        it answers, and the answer is shown)."""
        self.ws.send(json.dumps(message.model_dump(exclude_none=True)))

    def _reader(self) -> None:
        try:
            for text in self.ws:
                self.events.put(("msg", json.loads(text)))
        except Exception:
            pass
        self.events.put(("closed", None))

    def start(self) -> None:
        threading.Thread(target=self._reader, daemon=True).start()

    def message(self, timeout: float = 30) -> dict[str, Any]:
        """The next message of the server (before the keyboard is read)."""
        try:
            kind, payload = self.events.get(timeout=timeout)
        except queue.Empty:
            raise JoinError(f"no answer from the server in {timeout:.0f} s") from None
        if kind != "msg":
            raise JoinError(self.tr("ui.quit"))
        return dict(payload)

    # -- messages -----------------------------------------------------------------------
    def handle(self, msg: dict[str, Any]) -> None:
        """Apply one server message."""
        kind = msg["type"]
        if kind == "update":
            self.entry(Entry.model_validate(msg["entry"]))
            self.state = msg["state"]
        elif kind == "chat":
            self.said(ChatLine.model_validate(msg["chat"]))
        elif kind == "people":
            self.welcome.people = list(msg["people"])
            self.state = msg["state"]
        elif kind == "closed":
            self.state = msg["state"]
            self.say(self.tr("ui.table.closed", reason=msg.get("reason") or "?"), "bold")
        elif kind == "error":
            self.refused(msg)
        elif kind == "advice_asked":
            self.say(msg["line"], "dim")
        elif kind == "advice":
            self.asked = None
            for line in msg["lines"]:
                self.say(line)
        elif kind == "rematch":  # the next table is open: this seat's own link to it
            self.rematch = urljoin(self.base + "/", str(msg["url"]))
            self.say(self.tr("ui.join.rematch"), "bold")
        elif kind == "why":
            self.asked = None
            if msg["legal"]:
                self.say(self.tr("ui.why.legal", action=msg["action"]))
            else:
                self.say(self.tr("ui.why.because", action=msg["action"], reason=msg["why"]))

    def refused(self, msg: dict[str, Any]) -> None:
        tr = self.tr
        kind, text = self.asked or ("", "")
        self.asked = None
        if kind == "action" and "why" in msg:
            reason = msg["why"]
            self.say(tr("ui.err.illegal", action=msg.get("action", text), reason=reason), "red")
            self.say(tr("ui.err.illegal_hint"), "dim")
        elif kind == "why":
            self.say(msg.get("why") or tr("ui.why.unknown", text=text), "red")
        else:
            self.say(msg.get("why") or msg["message"], "red")

    def request(self, text: str, message: AnyMessage) -> None:
        """Send a request and print what comes until it is answered (or the table moved):
        keys typed meanwhile wait their turn."""
        seq = self.state["seq"]
        self.asked = (message.type, text)
        self.send(message)
        deadline = time.monotonic() + REPLY_TIMEOUT
        while self.asked is not None and self.state["seq"] == seq:
            try:
                event = self.events.get(timeout=max(deadline - time.monotonic(), 0))
            except queue.Empty:
                break
            if event[0] == "msg":
                self.handle(event[1])
            elif event[0] == "closed":
                self.events.put(event)
                break
            else:
                self.deferred.append(event)
        self.asked = None

    # -- the loop -----------------------------------------------------------------------
    def run(self, table: str, token: str, lang: str | None, name: str | None = None) -> int:
        self.table, self.token = table, token
        # every entry from the first: a seat that sits down late is told what happened
        self.send(
            Hello.model_construct(
                type="hello", table=table, token=token, last_seq=0, lang=lang, name=name
            )
        )
        self.start()
        first = self.message()
        if first["type"] == "error":
            raise JoinError(first["message"])
        welcome = self.welcome = WelcomeFrame.model_validate(first)
        self.tr = translator(welcome.lang)
        self.game = make_game(welcome.game, None, **welcome.options)  # the name, resolved once
        self.ui = game_ui(self.game)
        self.console.rule(Text(self.ui.title(self.tr), style="bold"))
        self.narrate(welcome.opening)
        sync = self.message()
        self.state = sync["state"]
        self.catch_up([Entry.model_validate(e) for e in sync["entries"]])
        for line in sync.get("chat", [])[-5:]:
            self.said(ChatLine.model_validate(line))
        self.ask_name()
        self.say(self.tr("ui.intro.hint"), "dim")
        self.prompt.start()
        try:
            return self.loop()
        finally:
            self.prompt.close()

    def ask_name(self) -> None:
        """A person's seat without a name asks for one (at a terminal; Enter skips) — not
        at a finished table."""
        player = self.welcome.player
        people = self.welcome.people
        if player is None or player >= len(people) or people[player] or self.state["finished"]:
            return
        if not sys.stdin.isatty():
            return
        question = self.tr("ui.join.name") + " "
        if self.prompt.running:  # at the next table (``again``): through the prompt
            answer = self.read_line(question).strip()
        else:
            answer = self.console.input(escape(question)).strip()
        if answer:
            self.send(NameMsg.model_construct(type="name", name=answer))

    def read_line(self, question: str) -> str:
        """The next line typed, asked as ``question`` at the prompt (messages that come
        meanwhile wait their turn; the keyboard closed: an empty line)."""
        self.prompt.set(question)
        self.prompt.show()
        while True:
            kind, payload = self.events.get()
            if kind in ("msg", "closed"):
                self.deferred.append((kind, payload))
                continue
            for line in self.prompt.take(kind, payload):
                return line or ""

    def loop(self) -> int:
        """Print what arrives and answer what is typed until the end or ``quit``."""
        while True:
            if self.state["finished"] and not self.ended:
                self.ended = True
                self.finish()
            self.refresh()
            event = self.next_event()
            if event is None:
                continue
            kind, payload = event
            if kind == "msg":
                self.handle(payload)
            elif kind == "closed":
                raise JoinError(self.tr("ui.quit"))
            else:
                for line in self.prompt.take(kind, payload):
                    if line is None or self.command(line.strip()):
                        if self.next_url is None:
                            self.say(self.tr("ui.quit"))
                        return 0

    def refresh(self) -> None:
        """The board when this seat's turn begins; the prompt once all news is printed."""
        if self.state["your_turn"]:
            self.announced = None
            if self.shown_seq != self.state["seq"]:
                self.show()
        self.prompt.set(self.prompt_text())
        if self.events.empty() and not self.deferred:
            self.prompt.show()

    def next_event(self) -> Posted | None:
        """The next message or keys; ``None`` after saying who is awaited, once the table
        has been quiet a moment (a run of bot moves is not interrupted)."""
        if self.deferred:
            return self.deferred.popleft()
        decider: int | None = self.state["decider"]
        due = not self.state["your_turn"] and decider != self.announced
        try:
            return self.events.get(timeout=QUIET if due and decider is not None else None)
        except queue.Empty:
            assert decider is not None
            self.announced = decider
            self.say(self.awaited(decider), "dim")
            return None

    def awaited(self, decider: int) -> str:
        """Who the table waits for: the people of its open seats, else the deciding seat."""
        gathering = self.state.get("waiting")
        if gathering is None:
            return self.tr("ui.waiting", who=self.seat_label(decider))
        n = len(gathering["open"])
        people = self.tr.plural("web.waiting.people", "web.waiting.people.plural", n, n=n)
        return f"{people}. {self.tr('web.waiting.how')}"

    def again(self) -> bool:
        """``again``: take this seat at the next table (opened now if nobody has yet); True
        to leave for it."""
        if not self.state["finished"]:
            self.say(self.tr("ui.join.not_over"), "red")
            return False
        if self.rematch is None:
            try:
                self.rematch = open_again(self.base, self.table, self.token)
            except JoinError as exc:
                self.say(self.tr("ui.join.again_failed", reason=str(exc)), "red")
                return False
        self.next_url = self.rematch
        return True

    def command(self, text: str) -> bool:
        """Answer one line; True to leave."""
        tr = self.tr
        if not text:
            return False
        word, _, rest = text.partition(" ")
        word, rest = word.lower(), rest.strip()
        mine = bool(self.state["your_turn"])
        stray = stray_argument(word, rest, tr, bare=_BARE)
        if stray is not None:
            self.say(*stray)
        elif word in ("quit", "exit"):
            return True
        elif word == "again":
            return self.again()
        elif word in ("help", "?"):
            if not rest:
                lines = help_lines(self.ui, self.view(), COMMANDS, tr)
            elif rest.isdigit() and not mine:
                self.not_yours()
                return False
            else:
                lines = [help_on(self.ui, rest, self.options(), tr)]
            for line in lines:
                self.say(*line)
        elif word == "board":
            self.show()
        elif word == "say":
            if not rest:
                self.say(tr("ui.say.usage"), "red")
            else:
                self.send(ChatMsg.model_construct(type="chat", text=rest))
        elif word == "log":
            for line in log_lines(self.log, rest, tr):
                self.say(*line)
        elif word == "undo":
            # an undo takes back this seat's own last decision, often on another's turn
            if mine or self.state["can_undo"]:
                self.request(text, UndoMsg.model_construct(type="undo", seq=self.state["seq"]))
            else:
                self.not_yours()
        elif word == "hint":
            if rest:
                self.say(tr("ui.err.no_argument", command=word, text=rest), "red")
            elif not mine:
                self.not_yours()
            else:
                self.request(text, HintMsg.model_construct(type="hint"))
        elif word == "why":
            if not rest:
                self.say(tr("ui.why.usage"), "red")
            elif not mine:
                self.not_yours()
            else:
                picked = pick(rest, self.legal(), self.game.action_space, tr)
                target = rest if isinstance(picked, str) else picked.notation()
                self.request(rest, WhyMsg.model_construct(type="why", action=target))
        elif not mine:
            self.not_yours()
        else:
            picked = pick(text, self.legal(), self.game.action_space, tr)
            if isinstance(picked, str):
                self.say(picked, "red")
            else:
                seq = self.state["seq"]
                action = picked.notation()
                self.request(text, ActionMsg.model_construct(type="action", seq=seq, action=action))
        return False


def run_join(
    url: str, lang: str | None, console: Console | None = None, name: str | None = None
) -> int:
    """Play the seat of an invite link (or watch with a spectator link) until the end."""
    from websockets.sync.client import connect

    console = console or Console(highlight=False)
    env_tr = translator(normalize(lang) or detect_language())
    if lang is not None and normalize(lang) is None:
        console.print(
            Text(
                env_tr(
                    "ui.error", message=env_tr("ui.err.lang", lang=lang, known="en, fr, it, pt")
                ),
                style="bold red",
            )
        )
        return 2
    prompt: LivePrompt | None = None  # one keyboard for every table
    try:
        while True:  # ``again`` leaves for the next table's link
            ws_url, table, token = parse_link(url)
            with connect(ws_url, open_timeout=15, max_size=2**22) as ws:
                remote = Remote(ws, console, normalize(lang), prompt=prompt)
                prompt = remote.prompt
                remote.tr = env_tr
                remote.base = http_base(url)
                code = remote.run(table, token, normalize(lang), name)
            if remote.next_url is None:
                return code
            url = remote.next_url
            console.print(Text(url, style="dim"))
    except (JoinError, OSError) as exc:
        console.print(Text(env_tr("ui.error", message=str(exc)), style="bold red"))
        return 2
    except KeyboardInterrupt:
        return 130
