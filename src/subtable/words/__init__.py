"""A game's words, apart from any front end: what the terminal table, the web pages, the
lessons and the lab need from each game beyond the engine API (the ``ui`` part of its
registration, :class:`GameUI`), how to find it, and an action as a reader may know it.

It sits below the front ends and the lessons, so that each reads a game's words without
importing another's package; none of its modules draws (no Rich, no markup):

* :mod:`subtable.words.red_november`, :mod:`subtable.words.submarine` — each game's names,
  action labels, reasons why not, narration, reminders and results;
* :mod:`subtable.words.rules` and each game's rule book (``<game>_rules``);
* :mod:`subtable.words.seats`, :mod:`subtable.words.seat_words` — who controls which seat;
* :mod:`subtable.words.undo` — how far back ``undo`` may go, and why;
* :mod:`subtable.words.advice` — the expert's advice, in words;
* :mod:`subtable.words.game_options`, :mod:`subtable.words.messages` — a game built from
  options, and the errors of options and seats in words;
* :mod:`subtable.words.people` — people's text, every character seen.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from subtable.core.actions import Action
from subtable.core.errors import IllegalActionError
from subtable.core.events import Event
from subtable.core.game import Game, Outcome
from subtable.core.registry import registration
from subtable.core.view import SeatView
from subtable.i18n import Translator


class GameUI(Protocol):
    """One game's names, narration, reasons and rule reminders, in any language: what every
    front end reads (the terminal's board is :class:`subtable.ui.games.GameUI`)."""

    #: the registered name (``game.info.name``)
    name: str

    def title(self, tr: Translator) -> str:
        """The game's name, in ``tr``'s language."""
        ...

    def seat_name(self, seat: int, tr: Translator) -> str:
        """``Player 2``, or the game's own word for a seat."""
        ...

    def action_label(self, action: Action, tr: Translator) -> str:
        """A translated description of an action, shown beside its notation."""
        ...

    def public_label(self, form: str, tr: Translator) -> str:
        """A translated description of an action's public form (``swap``: a card swapped),
        shown to the seats that may not see the whole move (``Game.public_form``)."""
        ...

    def action_hint(self, action: Action, view: SeatView, tr: Translator, /) -> str | None:
        """A short hint shown beside an option, from the deciding seat's ``view``: a fix-it
        action's chance of success, a warning (it begins with ``⚠``) that an item would give
        nothing now; ``None`` when there is nothing to say."""
        ...

    def odds(self, action: Action, view: SeatView, /) -> float | None:
        """The chance, 0 to 1, that ``action`` succeeds (a fix-it action's roll), from the
        deciding seat's ``view``; ``None`` when it rolls nothing."""
        ...

    def card_text(self, word: str, tr: Translator) -> str | None:
        """``Name: rules text`` of the card ``word`` names (``help crowbar``), or ``None``."""
        ...

    def narrate(self, event: Event, tr: Translator) -> str | None:
        """One log line for an event (already redacted for the reader), or ``None``."""
        ...

    def advice_reason(self, key: str, params: dict[str, Any], tr: Translator) -> str:
        """One line of why the expert advises an option, from the reason key and
        parameters its game's expert gives (``bots/<game>/advice.py``)."""
        ...

    def headline(self, events: Sequence[Event], tr: Translator) -> str | None:
        """The narration of what mattered most among one move's events, or ``None`` when
        none of them says more than the move itself."""
        ...

    def why(self, error: IllegalActionError, action: Action, tr: Translator) -> str:
        """Why ``action`` is illegal, from the error's code and params."""
        ...

    def reminder(self, view: SeatView, tr: Translator, /) -> list[str]:
        """Short rule reminders for what is on screen now."""
        ...

    def result(self, outcome: dict[str, Any], tr: Translator) -> str:
        """The result line of a finished game (``outcome`` from the view)."""
        ...

    def end_reason(self, reason: str, tr: Translator) -> str:
        """Why a game ended (an ``Outcome.reason``), in words: the lab's tables and report."""
        ...

    def hidden_counts(self, view: SeatView, /) -> Hashable:
        """Public counts of hidden things (deck and pile sizes), for undo."""
        ...

    def msgids(self) -> set[str]:
        """Every id of the shared catalogues that this game's families (``rn.item.{}``)
        may ask for: enumerated from its components and its engine's vocabulary (see
        the terminal's :mod:`subtable.ui.msgids`); empty for a game that brings its own texts."""
        ...


def game_ui(game: Game[Any] | str) -> GameUI:
    """The :class:`GameUI` of ``game`` (with its components: a variant's), or of the game
    registered under a name (with the packaged components)."""
    components = None if isinstance(game, str) else getattr(game, "components", None)
    ui: GameUI = registration(game).load("ui")(components)
    return ui


def result_words(ui: GameUI, outcome: Outcome, tr: Translator) -> str:
    """:meth:`GameUI.result` of a finished game's ``outcome``."""
    return ui.result({"reason": outcome.reason, "winners": list(outcome.winners)}, tr)


def action_as_seen(
    game: Game[Any],
    ui: GameUI,
    action: Action,
    actor: int | None,
    events: Sequence[Event],
    readers: Sequence[int],
    tr: Translator,
) -> tuple[str, str]:
    """The notation and label of ``action`` as a person holding ``readers`` may know it
    (no seats: a spectator, or the shared screen of a hot-seat table).

    The whole move when one of the readers sees it whole (:meth:`Game.action_for_seat`),
    else its public form: never a colour swapped or an item given out of sight.
    """
    full = action.notation()
    shown = full
    for seat in readers or (None,):
        shown = game.action_for_seat(action, actor, events, seat)
        if shown == full:
            return full, ui.action_label(action, tr)
    return shown, ui.public_label(shown, tr)
