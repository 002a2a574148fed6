"""What the table asks of the terminal itself: wiping it for a hand-off, dropping type-ahead."""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console

#: cursor home, erase the screen, then erase the scroll-back (``E3``, xterm and tmux)
WIPE = "\x1b[H\x1b[2J\x1b[3J"
#: terminals narrower or shorter than this get the compact boards
COMPACT_WIDTH = 100
COMPACT_HEIGHT = 40


def wipe(console: Console) -> bool:
    """Erase the screen *and* the scroll-back, so the next person cannot scroll up.

    Returns whether anything was erased: nothing is written to a pipe or a file,
    nor to a terminal that declares it understands no escape codes (``TERM=dumb``).
    """
    if not console.is_terminal or console.is_dumb_terminal:
        return False
    console.file.write(WIPE)
    console.file.flush()
    return True


def discard_typeahead(stream: TextIO | None = None) -> None:
    """Drop keys typed before the prompt (while bots played), so none plays a move.

    Only a terminal has such a buffer; a pipe's input is meant to be read.
    """
    stream = sys.stdin if stream is None else stream
    if stream is None:  # no standard input at all (a detached process)
        return
    try:
        import termios
    except ImportError:  # not POSIX: nothing to flush
        return
    try:
        if stream.isatty():
            termios.tcflush(stream.fileno(), termios.TCIFLUSH)
    except (OSError, ValueError, termios.error):
        return


def is_compact(console: Console) -> bool:
    """Whether the boards must be laid out for a small terminal (80×24)."""
    width, height = console.size
    return width < COMPACT_WIDTH or height < COMPACT_HEIGHT
