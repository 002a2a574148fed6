"""A prompt that stays on the last line while other lines are printed above it.

One thread only reads the keyboard and posts what it read to the caller's queue; the
caller's thread does all the writing: it edits the line, prints above it and draws it
again. With one writer, nothing typed is lost or garbled when a message arrives.

On a terminal that understands escape codes the keyboard is read key by key (no echo,
no line discipline) and the line is drawn by the prompt itself; elsewhere (a pipe, a
``TERM=dumb`` terminal) whole lines are read and the prompt is printed again after the
lines that interrupted it.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import queue
import sys
import threading
from typing import Any, TextIO

from rich.cells import cell_len
from rich.console import Console, RenderableType

#: what the keyboard thread posts: ``("keys", text)``, ``("line", text)``, ``("eof", None)``
Posted = tuple[str, Any]

#: clear the whole current line, the cursor back to its start
_CLEAR = "\r\x1b[2K"
_ENTER = ("\r", "\n")
_ERASE = ("\x7f", "\x08")
_EOF = "\x04"  # Ctrl-D
_KILL = "\x15"  # Ctrl-U
_WORD = "\x17"  # Ctrl-W


class LivePrompt:
    """The input line at the bottom of the screen."""

    def __init__(
        self, console: Console, posts: queue.Queue[Any], stdin: TextIO | None = None
    ) -> None:
        self.console = console
        self.posts = posts
        self.stdin = stdin if stdin is not None else sys.stdin
        self.text = ""  # the prompt itself (``Captain 1 > ``)
        self.buffer = ""  # what has been typed after it
        self.shown = False
        self._escape = ""  # an escape sequence being read (arrow keys): dropped
        self._saved: list[Any] | None = None
        self.live = self._is_terminal()
        self.running = False  # the keyboard is being read (:meth:`start`)

    def _is_terminal(self) -> bool:
        try:
            import termios  # noqa: F401
        except ImportError:  # not POSIX
            return False
        try:
            tty = self.stdin.isatty()
        except (AttributeError, ValueError):
            return False
        return tty and self.console.is_terminal and not self.console.is_dumb_terminal

    # -- the keyboard ---------------------------------------------------------------
    def start(self) -> None:
        """Read the keyboard from now on (key by key on a terminal, else by lines); once
        (``posts`` may be changed later: the keys go where it then points)."""
        if self.live and self._saved is None:  # keys one by one, not echoed
            import termios

            fd = self.stdin.fileno()
            self._saved = termios.tcgetattr(fd)
            mode = termios.tcgetattr(fd)
            mode[3] &= ~(termios.ICANON | termios.ECHO)  # Ctrl-C still interrupts
            mode[6][termios.VMIN] = 1
            mode[6][termios.VTIME] = 0
            termios.tcsetattr(fd, termios.TCSANOW, mode)
        if not self.running:
            self.running = True
            reader = self._keys if self.live else self._lines
            threading.Thread(target=reader, daemon=True).start()

    def close(self) -> None:
        """Give the terminal back as it was (and end the prompt's line)."""
        self.hide()
        if self._saved is not None:
            import termios

            with contextlib.suppress(OSError, ValueError, termios.error):
                termios.tcsetattr(self.stdin.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None

    def _keys(self) -> None:
        decode = codecs.getincrementaldecoder("utf-8")(errors="replace")
        fd = self.stdin.fileno()
        while True:
            try:
                data = os.read(fd, 1024)
            except OSError:
                data = b""
            if not data:
                self.posts.put(("eof", None))
                return
            self.posts.put(("keys", decode.decode(data)))

    def _lines(self) -> None:
        try:
            for line in self.stdin:
                self.posts.put(("line", line.rstrip("\r\n")))
        except (OSError, ValueError):
            pass
        self.posts.put(("eof", None))

    def take(self, kind: str, payload: Any) -> list[str | None]:
        """What the keyboard thread posted → the lines completed (``None``: leave)."""
        if kind == "eof":
            return [None]
        if kind == "line":
            self.shown = False  # the terminal echoed the line and its Enter
            return [str(payload)]
        return self.feed(str(payload))

    def feed(self, keys: str) -> list[str | None]:
        """Edit the line with ``keys``; the lines completed (``None``: Ctrl-D, leave)."""
        done: list[str | None] = []
        for key in keys:
            if self._escape or key == "\x1b":
                self._escape += key
                # ESC [ … final byte, ESC O x, or ESC x: the whole sequence is ignored
                final = len(self._escape) > 2 and "\x40" <= key <= "\x7e"
                if final or (len(self._escape) == 2 and self._escape[1] not in "[O"):
                    self._escape = ""
                continue
            if key in _ENTER:
                self.draw()  # the line as it is sent stays on the screen
                self.console.file.write("\n")
                self.shown = False
                done.append(self.buffer)
                self.buffer = ""
            elif key in _ERASE:
                self.buffer = self.buffer[:-1]
            elif key == _KILL:
                self.buffer = ""
            elif key == _WORD:
                self.buffer = self.buffer.rstrip().rpartition(" ")[0]
                self.buffer += " " if self.buffer else ""
            elif key == _EOF:
                if not self.buffer:
                    done.append(None)
            elif key.isprintable():
                self.buffer += key
        if not done:
            self.draw()
        return done

    # -- the screen -----------------------------------------------------------------
    def set(self, text: str) -> None:
        """Change the prompt (drawn again by :meth:`show`)."""
        if text != self.text:
            self.hide()
            self.text = text

    def hide(self) -> None:
        """Take the prompt off the screen before printing."""
        if not self.shown:
            return
        self.console.file.write(_CLEAR if self.live else "\n")
        self.console.file.flush()
        self.shown = False

    def show(self) -> None:
        """Draw the prompt (and what is typed) on the last line, if it is not there."""
        if not self.shown:
            self.draw()

    def draw(self) -> None:
        """Draw the prompt and the typed line's end, within one line of the terminal."""
        out = self.console.file
        if self.live:
            room = max(self.console.width - cell_len(self.text) - 1, 1)
            typed = self.buffer
            while cell_len(typed) > room:
                typed = typed[1:]
            out.write(_CLEAR + self.text + typed)
        elif not self.shown:
            out.write(self.text)
        out.flush()
        self.shown = True

    def print(self, *parts: RenderableType, **options: Any) -> None:
        """Print above the prompt (shown again by :meth:`show`)."""
        self.hide()
        self.console.print(*parts, **options)
