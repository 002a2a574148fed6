"""A tmux pane running ``python -m subtable …``, for the tests that look at a real terminal.

tmux keeps a scroll-back and draws exactly what a terminal of its size would show, so
these tests see what a person sees: ``capture-pane`` of the screen, or of the whole
history with ``-S -``.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
import uuid

PROMPTS = ("Gnome 1 > ", "Gnome 2 > ", "Player 1 > ", "Player 2 > ")


class Pane:
    """One tmux session running one command, at a fixed size."""

    def __init__(self, args: list[str], width: int, height: int) -> None:
        self.name = f"subtable-{uuid.uuid4().hex[:8]}"
        self.tmux = ["tmux", "-L", self.name]  # a server of its own: no test waits for another
        env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
        env.update({"LANG": "en_US.UTF-8", "NO_COLOR": "1"})
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "subtable", *args])
        subprocess.run(
            [
                *self.tmux,
                *("new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height)),
                f"{command}; sleep 30",
            ],
            check=True,
            env=env,
        )
        subprocess.run([*self.tmux, "set-option", "-t", self.name, "history-limit", "5000"])

    def screen(self, *, history: bool = False) -> str:
        """What the pane shows (with ``history``: the scroll-back too)."""
        extra = ["-S", "-"] if history else []
        done = subprocess.run(
            [*self.tmux, "capture-pane", "-p", "-J", "-t", self.name, *extra],
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    def wait_for(self, text: str, timeout: float = 30) -> str:
        """Wait until ``text`` is on the screen; the screen."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen:\n{self.screen()}")

    def wait_for_prompt(self, timeout: float = 30) -> str:
        """Wait until the last line of the screen is a prompt; the screen."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.screen()
            last = screen.rstrip("\n").splitlines()[-1] if screen.strip() else ""
            if any(last.startswith(p.rstrip()) for p in PROMPTS) or "press Enter" in last:
                time.sleep(0.2)  # let the rest of the output land
                return self.screen()
            time.sleep(0.1)
        raise AssertionError(f"no prompt; the screen:\n{self.screen()}")

    def send(self, *keys: str) -> None:
        """Type ``keys`` (tmux key names: ``Enter``)."""
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *keys], check=True)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)
