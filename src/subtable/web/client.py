"""``subtable join``: a terminal seat at a web table, with the screen, commands and languages
of ``subtable play`` (the same per-game drawing, labels and narration), over the protocol of
``docs/protocol.md``. It proves the protocol: it knows nothing the server does not send."""

from __future__ import annotations

import json
import queue
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from typing import Any, TextIO
from urllib.parse import urljoin, urlsplit

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.text import Text

from subtable.core.actions import Action
from subtable.core.events import Event
from subtable.core.game import Game
from subtable.core.registry import make_game
from subtable.i18n import Translator, detect_language, normalize, translator
from subtable.ui.answers import (
    BARE,
    JOIN_COMMANDS,
    help_lines,
    help_on,
    log_lines,
    pick,
    stray_argument,
)
from subtable.ui.games import GameUI, game_ui
from subtable.ui.options import Option, fit
from subtable.ui.prompt import LivePrompt, Posted
from subtable.words.people import shown

COMMANDS = JOIN_COMMANDS
_BARE = (*BARE, "again")
#: the last decisions shown to a seat that sits down after some were made
LATE_MOVES = 5
#: seconds of quiet before the seat says who it waits for
QUIET = 0.3
#: seconds a request waits for its answer before the keyboard is read again
REPLY_TIMEOUT = 30.0


class JoinError(Exception):
    """A link or a connection that does not lead to a seat."""


def parse_link(url: str) -> tuple[str, str, str]:
    """``http://host:port/t/ID#TOKEN`` → (WebSocket URL, table id, token)."""
    parts = urlsplit(url.strip())
    segments = [s for s in parts.path.split("/") if s]
    if (
        parts.scheme not in ("http", "https", "ws", "wss")
        or len(segments) < 2
        or segments[-2] != "t"
        or not parts.fragment
    ):
        raise JoinError(f"not an invite link: {url!r} (expected http://HOST/t/TABLE#TOKEN)")
    return "ws" + http_base(url).removeprefix("http") + "/ws", segments[-1], parts.fragment


def http_base(url: str) -> str:
    """``http://host:port`` (or ``https://``) of an invite link: where the server answers
    requests; its WebSocket is the same with ``ws``/``wss``."""
    parts = urlsplit(url.strip())
    scheme = "https" if parts.scheme in ("https", "wss") else "http"
    return f"{scheme}://{parts.netloc}"


class Remote:
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
        self.ws = ws
        self.console = console
        self.events: queue.Queue[Posted] = queue.Queue()
        # the keyboard of an earlier table (``again``) is read on, into this table's queue
        self.prompt = prompt if prompt is not None else LivePrompt(console, self.events, stdin)
        self.prompt.posts = self.events
        self.deferred: deque[Posted] = deque()  # keys typed while a request was answered
        self.tr: Translator = translator(lang or "en")
        self.welcome: dict[str, Any] = {}
        self.state: dict[str, Any] = {}
        self.log: list[str] = []
        self.ui: GameUI  # and the game: from the welcome
        self.game: Game[Any]
        self.shown_seq = -1
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
    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps({"v": 1, **message}))

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

    # -- drawing ------------------------------------------------------------------------
    def say(self, text: str, style: str | None = None) -> None:
        """Print plain text (never read as markup) above the prompt, wrapped at words."""
        self.prompt.print(Text(text, style=style or ""))

    def who(self, seat: int) -> str:
        owners = self.welcome["owners"]
        player = self.welcome["players"][owners[seat]]
        if player["controller"] == "bot":
            return self.tr("ui.who.bot", bot=shown(str(player["bot"])))
        if owners[seat] == self.welcome["player"]:
            return self.tr("ui.who.you")
        people = self.welcome.get("people") or []
        name = people[owners[seat]] if owners[seat] < len(people) else None
        # a name as typed: every character seen (``say`` and the board never read markup)
        return shown(str(name)) if name else self.tr("ui.who.player", n=owners[seat] + 1)

    def said(self, line: dict[str, Any]) -> None:
        """A line of the table's chat (its author's name, else player N), as typed."""
        name = line.get("name")
        who = shown(str(name)) if name else self.tr("ui.who.player", n=int(line["player"]) + 1)
        self.say(self.tr("ui.chat.line", name=who, text=shown(str(line["text"]))))

    def seat_label(self, seat: int) -> str:
        return self.tr("ui.seat_label", seat=self.ui.seat_name(seat, self.tr), who=self.who(seat))

    def narrate(self, events: list[dict[str, Any]], *, quiet: bool = False) -> None:
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

    def entry(self, entry: dict[str, Any], *, quiet: bool = False) -> None:
        """Log an entry (and print it unless ``quiet``)."""
        who = self.seat_label(entry["seat"])
        if entry["kind"] == "undo":
            line = self.tr("ui.undo.entry", who=who, label=self.label(entry))
        else:
            line = self.tr("ui.played", who=who, action=entry["action"], label=self.label(entry))
        self.log.append(line)
        if not quiet:
            self.say(line, "bold" if entry["seat"] in self.welcome["seats"] else None)
        self.narrate(entry["events"], quiet=quiet)

    def label(self, entry: dict[str, Any]) -> str:
        """An entry's description: the server's, else the action's or its public form's
        (an undo names the action taken back, maybe only in its public form: ``swap``)."""
        if entry.get("label"):
            return str(entry["label"])
        try:
            action = self.game.parse_action(entry["action"])
        except ValueError:
            return str(self.ui.public_label(entry["action"], self.tr))
        return str(self.ui.action_label(action, self.tr))

    def catch_up(self, entries: list[dict[str, Any]]) -> None:
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

    def view(self) -> dict[str, Any]:
        views = self.state["views"]
        decider = self.state["decider"]
        for item in views:
            if item["seat"] == decider:
                return dict(item["view"])
        return dict(views[0]["view"])

    def legal(self) -> list[Action]:
        """The legal actions the server listed (none when another seat decides)."""
        return [self.game.parse_action(a["notation"]) for a in self.state["legal"]]

    def options(self) -> list[Option]:
        """The options as the screen lists them: the server's labels and hints, and the
        odds of each from the deciding seat's view."""
        view = self.view()
        return [
            Option(a["notation"], a["label"], a.get("hint"), self.ui.odds(action, view))
            for a, action in zip(self.state["legal"], self.legal(), strict=True)
        ]

    def show(self) -> None:
        """The board (and the options, on this seat's turn), laid out to fit."""
        who = {s: self.who(s) for s in range(len(self.welcome["owners"]))}
        view = self.view()

        def board(compact: bool) -> RenderableType:
            return self.ui.render(view, self.tr, who, compact=compact)

        for part in fit(self.console, board, self.options(), self.tr):
            self.prompt.print(part)
        self.shown_seq = self.state["seq"]

    def prompt_text(self) -> str:
        """``Gnome 1 > ``: the deciding seat on this seat's turn, else its own."""
        if not self.welcome["seats"]:
            return self.tr("ui.prompt", seat=self.tr("web.role.spectator")) + " "
        seat = self.state["decider"] if self.state["your_turn"] else self.welcome["seats"][0]
        return self.tr("ui.prompt", seat=self.ui.seat_name(seat, self.tr)) + " "

    def not_yours(self) -> None:
        """The answer to a move, ``why`` or ``undo`` while another seat decides."""
        if not self.welcome["seats"]:
            self.say(self.tr("web.error.spectator"), "red")
            return
        decider = self.state["decider"]
        current = "?" if decider is None else self.seat_label(decider)
        self.say(self.tr("ui.why.not_your_turn", current=current), "red")

    # -- messages -----------------------------------------------------------------------
    def handle(self, msg: dict[str, Any]) -> None:
        """Apply one server message."""
        kind = msg["type"]
        if kind == "update":
            self.entry(msg["entry"])
            self.state = msg["state"]
        elif kind == "chat":
            self.said(msg["chat"])
        elif kind == "people":
            self.welcome["people"] = msg["people"]
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

    def request(self, kind: str, text: str, message: dict[str, Any]) -> None:
        """Send a request and print what comes until it is answered (or the table moved):
        keys typed meanwhile wait their turn."""
        seq = self.state["seq"]
        self.asked = (kind, text)
        self.send({"type": kind, **message})
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
        hello: dict[str, Any] = {"type": "hello", "table": table, "token": token, "last_seq": 0}
        if lang is not None:
            hello["lang"] = lang
        if name is not None:
            hello["name"] = name
        self.send(hello)
        self.start()
        first = self.message()
        if first["type"] == "error":
            raise JoinError(first["message"])
        self.welcome = first
        self.tr = translator(first["lang"])
        self.game = make_game(first["game"], **first["options"])  # the name, resolved once
        self.ui = game_ui(self.game)
        self.console.rule(Text(self.ui.title(self.tr), style="bold"))
        self.narrate(first["opening"])
        sync = self.message()
        self.state = sync["state"]
        self.catch_up(sync["entries"])
        for line in sync.get("chat", [])[-5:]:
            self.said(line)
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
        player = self.welcome.get("player")
        people = self.welcome.get("people") or []
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
            self.send({"type": "name", "name": answer})

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
            self.say(self.tr("ui.waiting", who=self.seat_label(decider)), "dim")
            return None

    def finish(self) -> None:
        self.show()
        outcome = self.state["outcome"]
        self.say(self.tr("ui.result", text=self.ui.result(outcome, self.tr)), "bold")
        self.say(self.tr("ui.join.end"), "dim")

    def again(self) -> bool:
        """``again``: take this seat at the next table (opened now if nobody has yet); True
        to leave for it."""
        if not self.state["finished"]:
            self.say(self.tr("ui.join.not_over"), "red")
            return False
        if self.rematch is None:
            request = urllib.request.Request(
                f"{self.base}/api/tables/{self.table}/again",
                data=json.dumps({"token": self.token}).encode(),
                headers={"Content-Type": "application/json"},
                method="POST",
            )
            try:
                with urllib.request.urlopen(request, timeout=REPLY_TIMEOUT) as answer:
                    url = str(json.loads(answer.read())["url"])
                self.rematch = urljoin(self.base + "/", url)  # the server's link is relative
            except urllib.error.HTTPError as exc:
                try:
                    reason = str(json.loads(exc.read())["message"])
                except (ValueError, KeyError, TypeError):
                    reason = f"HTTP {exc.code}"
                self.say(self.tr("ui.join.again_failed", reason=reason), "red")
                return False
            except (OSError, ValueError, KeyError, TypeError) as exc:
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
                self.send({"type": "chat", "text": rest})
        elif word == "log":
            for line in log_lines(self.log, rest, tr):
                self.say(*line)
        elif word == "undo":
            # an undo takes back this seat's own last decision, often on another's turn
            if mine or self.state["can_undo"]:
                self.request("undo", text, {"seq": self.state["seq"]})
            else:
                self.not_yours()
        elif word == "hint":
            if rest:
                self.say(tr("ui.err.no_argument", command=word, text=rest), "red")
            elif not mine:
                self.not_yours()
            else:
                self.request("hint", text, {})
        elif word == "why":
            if not rest:
                self.say(tr("ui.why.usage"), "red")
            elif not mine:
                self.not_yours()
            else:
                picked = pick(rest, self.legal(), self.game.action_space, tr)
                target = rest if isinstance(picked, str) else picked.notation()
                self.request("why", rest, {"action": target})
        elif not mine:
            self.not_yours()
        else:
            picked = pick(text, self.legal(), self.game.action_space, tr)
            if isinstance(picked, str):
                self.say(picked, "red")
            else:
                message = {"seq": self.state["seq"], "action": picked.notation()}
                self.request("action", text, message)
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
