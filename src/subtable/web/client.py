"""``subtable join``: a terminal seat at a web table, with the screen, commands and languages
of ``subtable play`` (the same per-game drawing, labels and narration), over the protocol of
``docs/protocol.md``. It proves the protocol: it knows nothing the server does not send."""

from __future__ import annotations

import json
import queue
import threading
from typing import Any
from urllib.parse import urlsplit

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from subtable.core.events import Event
from subtable.core.registry import make_game
from subtable.i18n import Translator, detect_language, normalize, translator
from subtable.ui.games import game_ui

COMMANDS = ("help", "why", "log", "undo", "board", "quit")


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
    scheme = "wss" if parts.scheme in ("https", "wss") else "ws"
    return f"{scheme}://{parts.netloc}/ws", segments[-1], parts.fragment


class Remote:
    """The terminal side of one seat."""

    def __init__(self, ws: Any, console: Console, lang: str | None) -> None:
        self.ws = ws
        self.console = console
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.tr: Translator = translator(lang or "en")
        self.welcome: dict[str, Any] = {}
        self.state: dict[str, Any] = {}
        self.log: list[str] = []
        self.ui: Any = None
        self.game: Any = None
        self.shown_seq = -1

    # -- the socket ---------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps({"v": 1, **message}))

    def _reader(self) -> None:
        try:
            for text in self.ws:
                self.inbox.put(json.loads(text))
        except Exception:
            pass
        self.inbox.put(None)

    def start(self) -> None:
        threading.Thread(target=self._reader, daemon=True).start()

    def next(self, timeout: float | None = None) -> dict[str, Any]:
        msg = self.inbox.get(timeout=timeout)
        if msg is None:
            raise JoinError(self.tr("ui.quit"))
        return msg

    # -- drawing ------------------------------------------------------------------------
    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(Text(text, style=style or ""), soft_wrap=True)

    def who(self, seat: int) -> str:
        owners = self.welcome["owners"]
        player = self.welcome["players"][owners[seat]]
        if player["controller"] == "bot":
            return self.tr("ui.who.bot", bot=player["bot"])
        if owners[seat] == self.welcome["player"]:
            return self.tr("ui.who.you")
        return self.tr("ui.who.player", n=owners[seat] + 1)

    def seat_label(self, seat: int) -> str:
        return self.tr("ui.seat_label", seat=self.ui.seat_name(seat, self.tr), who=self.who(seat))

    def narrate(self, events: list[dict[str, Any]]) -> None:
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
                self.say("  " + line)

    def entry(self, entry: dict[str, Any]) -> None:
        if entry["kind"] == "undo":
            line = self.tr("ui.undo.done", action=entry["action"])
        else:
            line = self.tr(
                "ui.played",
                who=self.seat_label(entry["seat"]),
                action=entry["action"],
                label=entry.get("label", ""),
            )
        self.log.append(line)
        self.say(line, "bold" if entry["seat"] in self.welcome["seats"] else None)
        self.narrate(entry["events"])

    def view(self) -> dict[str, Any]:
        views = self.state["views"]
        decider = self.state["decider"]
        for item in views:
            if item["seat"] == decider:
                return dict(item["view"])
        return dict(views[0]["view"])

    def show(self) -> None:
        who = {s: self.who(s) for s in range(len(self.welcome["owners"]))}
        self.console.print()
        self.console.print(self.ui.render(self.view(), self.tr, who))
        legal = self.state["legal"]
        if legal:
            self.say(self.tr("ui.options", n=len(legal)), "bold")
            width = max(len(a["notation"]) for a in legal)
            items = [
                Text(f"{i:>2}. {a['notation']:<{width}}  ", style="bold").append(a["label"])
                for i, a in enumerate(legal, start=1)
            ]
            self.console.print(Columns(items, column_first=True, padding=(0, 3)))
        self.shown_seq = self.state["seq"]

    # -- messages -----------------------------------------------------------------------
    def handle(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        """Apply one server message; return it if it answers a request."""
        kind = msg["type"]
        if kind == "update":
            self.entry(msg["entry"])
            self.state = msg["state"]
        elif kind == "sync":
            for entry in msg["entries"]:
                self.entry(entry)
            self.state = msg["state"]
        elif kind in ("error", "why", "pong"):
            return msg
        return None

    def wait_reply(self) -> dict[str, Any]:
        while True:
            reply = self.handle(self.next(timeout=30))
            if reply is not None:
                return reply

    # -- the loop -----------------------------------------------------------------------
    def run(self, table: str, token: str, lang: str | None, read: Any) -> int:
        hello: dict[str, Any] = {"type": "hello", "table": table, "token": token}
        if lang is not None:
            hello["lang"] = lang
        self.send(hello)
        self.start()
        first = self.next(timeout=30)
        if first["type"] == "error":
            raise JoinError(first["message"])
        self.welcome = first
        self.tr = translator(first["lang"])
        self.game = make_game(first["game"], **first["options"])
        self.ui = game_ui(first["game"], self.game)
        self.console.rule(Text(self.tr(f"game.{first['game']}"), style="bold"))
        self.narrate(first["opening"])
        self.handle(self.next(timeout=30))
        self.say(self.tr("ui.intro.hint"), "dim")
        while True:
            while not self.inbox.empty():
                self.handle(self.next())
            if self.state["finished"]:
                self.show()
                outcome = self.state["outcome"]
                self.say(self.tr("ui.result", text=self.ui.result(outcome, self.tr)), "bold")
                return 0
            if not self.state["your_turn"]:
                self.handle(self.next())
                continue
            if self.shown_seq != self.state["seq"]:
                self.show()
            seat = self.state["decider"]
            try:
                line = read(self.tr("ui.prompt", seat=self.ui.seat_name(seat, self.tr)) + " ")
            except EOFError:
                self.say(self.tr("ui.quit"))
                return 0
            if self.command(line.strip()):
                self.say(self.tr("ui.quit"))
                return 0

    def command(self, text: str) -> bool:
        """Handle one line; True to leave."""
        tr = self.tr
        if not text:
            return False
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in ("quit", "exit"):
            return True
        if word in ("help", "?"):
            self.say(tr("ui.help.title"), "bold")
            for command in ("number", "action", *COMMANDS):
                self.say("  " + tr(f"ui.help.{command}"))
            self.say(tr("ui.help.rules"), "bold")
            for line in self.ui.reminder(self.view(), tr):
                self.say("  • " + line)
        elif word == "board":
            self.show()
        elif word == "log":
            count = int(rest) if rest.strip().isdigit() and int(rest) > 0 else 20
            if not self.log:
                self.say(tr("ui.log.empty"))
            for line in self.log[-count:]:
                self.say(line)
        elif word == "undo":
            self.send({"type": "undo", "seq": self.state["seq"]})
            reply = self.wait_reply_or_update()
            if reply is not None:
                self.say(reply.get("why") or reply["message"], "red")
        elif word == "why":
            if not rest.strip():
                self.say(tr("ui.why.usage"), "red")
                return False
            target = self.pick(rest.strip(), quiet=True) or rest.strip()
            self.send({"type": "why", "action": target})
            reply = self.wait_reply()
            if reply["type"] == "error":
                self.say(reply.get("why") or tr("ui.why.unknown", text=rest.strip()), "red")
            elif reply["legal"]:
                self.say(tr("ui.why.legal", action=reply["action"]))
            else:
                self.say(tr("ui.why.because", action=reply["action"], reason=reply["why"]))
        else:
            action = self.pick(text)
            if action is None:
                return False
            self.send({"type": "action", "seq": self.state["seq"], "action": action})
            reply = self.wait_reply_or_update()
            if reply is not None:
                if "why" in reply:
                    self.say(
                        tr("ui.err.illegal", action=reply.get("action", text), reason=reply["why"]),
                        "red",
                    )
                    self.say(tr("ui.err.illegal_hint"), "dim")
                else:
                    self.say(reply["message"], "red")
        return False

    def wait_reply_or_update(self) -> dict[str, Any] | None:
        """After a request: the error it got, or ``None`` once the table moved."""
        seq = self.state["seq"]
        while True:
            reply = self.handle(self.next(timeout=60))
            if reply is not None and reply["type"] == "error":
                return reply
            if self.state["seq"] != seq:
                return None

    def pick(self, text: str, *, quiet: bool = False) -> str | None:
        """A number, a notation or a unique beginning of one → the notation to send."""
        legal = self.state["legal"]
        tr = self.tr
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(legal):
                return str(legal[n - 1]["notation"])
            if not quiet:
                self.say(tr("ui.err.bad_number", n=n, max=len(legal)), "red")
            return None
        key = " ".join(text.lower().split())
        try:
            return str(self.game.action_space.parse(key).notation())
        except ValueError:
            pass
        matches = [a["notation"] for a in legal if a["notation"].startswith(key)]
        if len(matches) == 1:
            return str(matches[0])
        if not quiet:
            if matches:
                self.say(tr("ui.err.ambiguous", text=text, matches=", ".join(matches[:8])), "red")
            else:
                self.say(tr("ui.err.unknown_input", text=text), "red")
        return None


def run_join(url: str, lang: str | None, console: Console | None = None) -> int:
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
    try:
        ws_url, table, token = parse_link(url)
        with connect(ws_url, open_timeout=15, max_size=2**22) as ws:
            remote = Remote(ws, console, normalize(lang))
            remote.tr = env_tr

            def read(prompt: str) -> str:
                return console.input(escape(prompt))

            return remote.run(table, token, normalize(lang), read)
    except (JoinError, OSError) as exc:
        console.print(Text(env_tr("ui.error", message=str(exc)), style="bold red"))
        return 2
    except KeyboardInterrupt:
        return 130
