"""Dice Race's parts beyond the engine: its texts (a small catalogue of its own), its
terminal UI, its browser board and its observation encoder."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from html import escape
from typing import Any

from rich.text import Text

from plugin_game.engine import RaceView
from subtable.core.actions import Action
from subtable.core.errors import IllegalActionError
from subtable.core.events import Event
from subtable.core.game import Game
from subtable.core.view import SeatView
from subtable.i18n import Translator
from subtable.rl.encoding import Encoder, Layout

#: the game's own catalogue (English, and French to show that it follows the reader)
TEXTS = {
    "en": {
        "title": "Dice Race",
        "seat": "Runner {n}",
        "roll": "roll the die",
        "card": "play your card",
        "rolled": "{seat} rolls {value}.",
        "card_played": "{seat} plays a {value}.",
        "won": "{seat} crosses the finish line!",
        "dealt": "{seat} is dealt a card.",
        "finish": "a runner crossed the finish line",
        "result": "{seat} wins the race.",
        "why": "Your card is played already.",
    },
    "fr": {"title": "Course de dés", "seat": "Coureur {n}", "roll": "lancer le dé"},
}


def say(tr: Translator, key: str, **params: Any) -> str:
    """A text of the game's catalogue in ``tr``'s language (English where it has none)."""
    text = TEXTS.get(tr.lang, {}).get(key) or TEXTS["en"][key]
    return text.format(**params)


class RaceUI:
    """The :class:`~subtable.ui.games.GameUI` of Dice Race."""

    name = "dice-race"

    def __init__(self, components: Any = None) -> None:
        self.components = components

    def title(self, tr: Translator) -> str:
        return say(tr, "title")

    def seat_name(self, seat: int, tr: Translator) -> str:
        return say(tr, "seat", n=seat + 1)

    def action_label(self, action: Action, tr: Translator) -> str:
        return say(tr, action.notation())

    def public_label(self, form: str, tr: Translator) -> str:
        return form

    def action_hint(self, action: Action, view: SeatView, tr: Translator) -> str | None:
        return None

    def odds(self, action: Action, view: SeatView) -> float | None:
        return None

    def card_text(self, word: str, tr: Translator) -> str | None:
        return None

    def narrate(self, event: Event, tr: Translator) -> str | None:
        p = event.params
        return say(tr, event.key, seat=self.seat_name(p["seat"], tr), value=p.get("value", "?"))

    def why(self, error: IllegalActionError, action: Action, tr: Translator) -> str:
        return say(tr, "why")

    def render(
        self, view: SeatView, tr: Translator, who: dict[int, str], *, compact: bool = False
    ) -> Text:
        assert isinstance(view, RaceView)
        lines = [f"{self.seat_name(s, tr)}: {p}/{view.goal}" for s, p in enumerate(view.positions)]
        return Text("\n".join([self.title(tr), *lines]))

    def reminder(self, view: SeatView, tr: Translator) -> list[str]:
        return []

    def result(self, outcome: dict[str, Any], tr: Translator) -> str:
        return say(tr, "result", seat=self.seat_name(outcome["winners"][0], tr))

    def end_reason(self, reason: str, tr: Translator) -> str:
        return say(tr, reason)

    def hidden_counts(self, view: SeatView) -> Hashable:
        return ()

    def msgids(self) -> set[str]:
        return set()  # its texts are its own: nothing in the shared catalogues


class RaceBoard:
    """The :class:`~subtable.web.boards.BoardRenderer` of Dice Race."""

    name = "dice-race"

    def __init__(self, components: Any = None) -> None:
        self.ui = RaceUI(components)

    def board(self, view: RaceView, tr: Translator, legal: Sequence[Action]) -> str:
        runners = "".join(
            f'<text x="4" y="{14 * (s + 1)}">{escape(self.ui.seat_name(s, tr))}: {p}</text>'
            for s, p in enumerate(view.positions)
        )
        title = escape(self.ui.title(tr))
        return f'<svg class="race" role="group" aria-label="{title}">{runners}</svg>'

    def panels(
        self, view: RaceView, tr: Translator, legal: Sequence[Action], who: dict[int, str]
    ) -> str:
        buttons = "".join(
            f'<button data-actions="{a.id}">{escape(self.ui.action_label(a, tr))}</button>'
            for a in legal
        )
        return f'<div class="race-panels">{buttons}</div>'


class RaceEncoder(Encoder):
    """Positions, the seat, its card, the cards played and who is to move (4 runners' room)."""

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        self.layout = Layout(
            [
                ("positions", (4,), "each runner's position / goal"),
                ("seat", (4,), "the seat looking, one-hot"),
                ("card", (3,), "the seat's own card, one-hot (zero once played)"),
                ("played", (4,), "each runner's card played"),
                ("current", (4,), "the runner to move, one-hot"),
            ]
        )

    def _entries(self, view: SeatView) -> tuple[list[int], list[int], list[float]]:
        v: Any = view
        at = self.layout
        ones = [at["played"] + s for s, done in enumerate(v.played) if done]
        if v.seat is not None:
            ones.append(at["seat"] + v.seat)
        if v.card is not None:
            ones.append(at["card"] + v.card - 1)
        if v.current is not None:
            ones.append(at["current"] + v.current)
        idx = [at["positions"] + s for s, p in enumerate(v.positions) if p]
        vals = [p / v.goal for p in v.positions if p]
        return ones, idx, vals
