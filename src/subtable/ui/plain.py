"""People's text as the terminal shows it: Rich reads a ``str`` as markup, so names and
chat reach it only inside :class:`rich.text.Text`, every character made visible by
:func:`subtable.words.people.shown`."""

from __future__ import annotations

from rich.text import Text

from subtable.words.people import shown


def plain(text: str, style: str = "") -> Text:
    """People's ``text`` as a Rich renderable: never markup, every character visible."""
    return Text(shown(text), style=style)
