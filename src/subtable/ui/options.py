"""A seat's numbered options, laid out with the board to fit the terminal: the same screen
at ``subtable play`` (from the engine's actions) and ``subtable join`` (from the server's)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.text import Text

from subtable.i18n import Translator
from subtable.ui.terminal import COMPACT_WIDTH

#: how a hint that warns begins (the short option list keeps only those)
WARNING = "⚠"
#: how much of each option is listed: label and hint; notation, odds and warnings;
#: notation, odds and a warning's sign
FULL, SHORT, TERSE = 0, 1, 2


class Option(NamedTuple):
    """One numbered option as the screen shows it."""

    notation: str
    label: str
    #: the game's short note (``70% to succeed (roll ≤ 7)``), or ``None``
    hint: str | None = None
    #: its chance of success, 0 to 1, when the game knows one (the short list keeps it)
    odds: float | None = None


def fit(
    console: Console,
    board: Callable[[bool], RenderableType],
    options: Sequence[Option],
    tr: Translator,
) -> list[RenderableType]:
    """The board (``board(compact)``) and the options, laid out to fit the terminal with
    the prompt below.

    The first layout that fits wins: the full board with labelled options, then with
    the options' notations only, then the compact board (always when narrow) with each,
    and last with the warnings cut to their sign (``help N`` tells them whole).
    """
    width, height = console.size
    layouts = [(False, FULL), (False, SHORT), (True, FULL), (True, SHORT), (True, TERSE)]
    if width < COMPACT_WIDTH:
        layouts = layouts[2:]
    if not options:
        layouts = [(compact, FULL) for compact, level in layouts if level == FULL]
    parts: list[RenderableType] = []
    for compact, level in layouts:
        parts = [board(compact)]
        if options:
            title = tr("ui.options", n=len(options))
            if level != FULL:
                title += " " + tr("ui.options.short")
            parts += [Text(title, style="bold"), columns(options, tr, level=level)]
        if sum(_height(console, part) for part in parts) + 1 <= height:  # and the prompt
            break  # else the last layout, the smallest, stays
    return parts


def _height(console: Console, renderable: RenderableType) -> int:
    return len(console.render_lines(renderable, pad=False))


def columns(options: Sequence[Option], tr: Translator, *, level: int = FULL) -> Columns:
    """The numbered options with their hints. Shorter levels drop the labels, put a run
    of options differing only in a last number in one entry (``6–15. unblock 8-9 1–10``)
    and keep of the hints only the odds and the warnings (:data:`TERSE`: their sign)."""
    short = level != FULL
    width = max((len(o.notation) for o in options), default=0)
    items = []
    spans = runs([o.notation for o in options]) if short else [(i, i) for i in range(len(options))]
    for first, last in spans:
        if last > first:
            head, _, low = options[first].notation.rpartition(" ")
            high = options[last].notation.rpartition(" ")[2]
            item = Text(f"{first + 1}–{last + 1}. {head} {low}–{high}", style="bold")
            odds = [o.odds for o in options[first : last + 1] if o.odds is not None]
            if odds:
                item.append(" · " + _odds(min(odds), max(odds), tr), style="italic")
            items.append(item)
            continue
        option = options[first]
        item = Text(f"{first + 1:>2}. {option.notation:<{0 if short else width}}", style="bold")
        if not short:
            item.append("  " + option.label)
            if option.hint:
                item.append(f" · {option.hint}", style="italic")
        else:
            if option.odds is not None:
                item.append(" · " + _odds(option.odds, option.odds, tr), style="italic")
            if option.hint and option.hint.startswith(WARNING):
                warning = WARNING if level == TERSE else option.hint
                item.append(f" · {warning}", style="italic")
        items.append(item)
    return Columns(items, column_first=True, padding=(0, 2 if short else 3))


def _odds(low: float, high: float, tr: Translator) -> str:
    """``70%`` or ``10–100%`` (a chance of a d10 is a whole percent)."""
    a, b = round(low * 100), round(high * 100)
    if a == b:
        return tr("ui.options.odds", percent=a)
    return tr("ui.options.odds.range", low=a, high=b)


def describe(option: Option) -> str:
    """One option in full (``help 3``): notation, label and hint."""
    line = f"{option.notation} — {option.label}"
    return line + (f" · {option.hint}" if option.hint else "")


def runs(notations: Sequence[str]) -> list[tuple[int, int]]:
    """Index ranges of options that differ only in a last number counting up by one."""
    found: list[tuple[int, int]] = []
    previous: tuple[str, int] | None = None
    for i, notation in enumerate(notations):
        head, _, tail = notation.rpartition(" ")
        key = (head, int(tail)) if head and tail.isdigit() else None
        if key is not None and previous is not None and key == (previous[0], previous[1] + 1):
            found[-1] = (found[-1][0], i)
            previous = key
            continue
        found.append((i, i))
        previous = key
    return found
