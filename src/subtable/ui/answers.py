"""What the commands both tables share answer (``help``, ``help N``, ``help CARD``,
``log N``): the same lines at ``subtable play`` and ``subtable join``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from subtable.core.actions import Action, ActionSpace
from subtable.core.errors import AmbiguousActionError, InvalidActionError
from subtable.core.view import SeatView
from subtable.i18n import Translator
from subtable.ui.options import Option, describe
from subtable.words import GameUI

#: the commands of ``subtable join`` (a web table's terminal seat: ``say`` speaks at it)
JOIN_COMMANDS = ("help", "why", "hint", "log", "undo", "board", "say", "again", "quit")
#: log lines shown by ``log`` without a number
LOG_LINES = 20
#: commands that take no argument: ``quit now`` is refused, not taken for ``quit``
BARE = ("undo", "board", "quit", "exit")

#: a line to print and its Rich style
Line = tuple[str, str | None]
A = TypeVar("A", bound=Action)


def stray_argument(
    command: str, rest: str, tr: Translator, bare: Sequence[str] = BARE
) -> Line | None:
    """The refusal of an argument given to a command that takes none (``bare``), else
    ``None``."""
    if command in bare and rest:
        return tr("ui.err.no_argument", command=command, text=rest), "red"
    return None


def help_lines(
    ui: GameUI,
    view: SeatView,
    commands: Sequence[str],
    tr: Translator,
    more: Sequence[str] = (),
) -> list[Line]:
    """``help``: the commands (and ``more`` lines about them), then the rules for what
    ``view`` shows now."""
    lines: list[Line] = [(tr("ui.help.title"), "bold")]
    lines += [("  " + tr(f"ui.help.{c}"), None) for c in ("number", "action", *commands)]
    lines += [("  " + line, None) for line in more]
    lines.append((tr("ui.help.rules"), "bold"))
    lines += [("  • " + line, None) for line in ui.reminder(view, tr)]
    return lines


def help_on(ui: GameUI, arg: str, options: Sequence[Option], tr: Translator) -> Line:
    """``help 3`` (option 3 in full) or ``help crowbar`` (a card's rules text)."""
    if arg.isdigit():
        n = int(arg)
        if not 1 <= n <= len(options):
            return tr("ui.err.bad_number", n=n, max=len(options)), "red"
        return describe(options[n - 1]), None
    text = ui.card_text(arg, tr)
    names = getattr(ui, "card_names", None)
    matches: list[str] = [] if text is not None or names is None else names(arg, tr)
    if len(matches) > 1:
        return tr("ui.help.ambiguous", text=arg, cards=tr.join(matches)), "red"
    if text is None:
        return tr("ui.help.no_card", text=arg), "red"
    return text, None


def log_lines(log: Sequence[str], arg: str, tr: Translator) -> list[Line]:
    """``log [N]``: the last N lines of the game's log (:data:`LOG_LINES` by default)."""
    if arg and not (arg.isdigit() and int(arg) > 0):
        return [(tr("ui.log.usage", text=arg), "red")]
    if not log:
        return [(tr("ui.log.empty"), None)]
    count = int(arg) if arg else LOG_LINES
    n = min(count, len(log))
    title = tr.plural("ui.log.title", "ui.log.title.plural", n, n=n)
    return [(title, "bold"), *((line, None) for line in log[-count:])]


def pick(text: str, legal: Sequence[A], space: ActionSpace[A], tr: Translator) -> A | str:
    """What a typed line names: option N, an action's notation (legal or not: the caller
    says why not) or a unique beginning of a legal one; else why not (printed in red)."""
    if text.isdigit():
        n = int(text)
        if not 1 <= n <= len(legal):
            return tr("ui.err.bad_number", n=n, max=len(legal))
        return legal[n - 1]
    try:
        return space.resolve(text, legal)
    except AmbiguousActionError as exc:
        matches = exc.params.get("matches", [])
        return tr("ui.err.ambiguous", text=text, matches=", ".join(matches[:8]))
    except InvalidActionError:
        return tr("ui.err.unknown_input", text=text)
