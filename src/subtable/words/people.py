"""People's text as any front end shows it: every character seen, none obeyed.

Names and chat come from other people (through a server, or a record's file). A terminal
obeys control characters (``ESC`` starts an escape sequence) and bidirectional overrides
reorder a line, so :func:`shown` writes those as escapes (``\\x1b``, ``\\u202e``) that the
reader sees instead.
"""

from __future__ import annotations

import unicodedata


def hidden(ch: str) -> bool:
    """Whether ``ch`` acts instead of showing: a control, format (bidi, zero width),
    surrogate, private-use or unassigned character (Unicode category ``C*``)."""
    return unicodedata.category(ch).startswith("C")


def shown(text: str) -> str:
    """``text`` with each :func:`hidden` character written as its escape
    (``\\x1b``, ``\\u202e``): what a person typed, visible, and nothing the terminal
    would obey."""
    if not any(hidden(ch) for ch in text):
        return text
    return "".join(ascii(ch)[1:-1] if hidden(ch) else ch for ch in text)
