"""How far back ``undo`` may go.

A seat may take back its own decisions as long as taking them back hides
nothing it has learned and changes nothing anyone else did. After every
applied action the ledger compares the state before and after through the
public API only:

* **chance** — the state's :meth:`~subtable.core.game.State.chance_fingerprint`
  changed: a die was rolled or a deck shuffled;
* **hidden information** — a count of hidden things changed (the game says
  which, from a view: Red November's event and item decks, Submarine's draw
  piles), or an event carried a secret for some seats only (a card drawn into
  a hand, an item given where hands are hidden);
* **another seat** — a different seat (a bot, another person, or another
  seat of the same person) made a decision.

Any of these is a *barrier*: every snapshot before it is dropped. Otherwise
the state before the action is kept (a clone), so ``undo`` restores it
exactly, generator included. Undo only ever pops the deciding seat's own
snapshots.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from subtable.core.events import Event
from subtable.core.game import State
from subtable.core.view import SeatView

#: A game's public counts of hidden things, computed from a spectator's view.
HiddenCounts = Callable[[SeatView], Hashable]

# Why nothing can be undone (message keys ``ui.undo.barrier.<reason>``).
START = "start"
CHANCE = "chance"
HIDDEN = "hidden"
OTHER_SEAT = "other_seat"
OVER = "over"


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A state a seat may return to, and what it did from there."""

    seat: int
    state: State[Any]
    action: str
    log_size: int


@dataclass(frozen=True, slots=True)
class Before:
    """What :meth:`UndoLedger.before` remembers about the state before an action."""

    state: State[Any]
    chance: Hashable
    hidden: Hashable


class UndoLedger:
    """The snapshots the deciding seat may go back to."""

    def __init__(self, hidden_counts: HiddenCounts) -> None:
        self._hidden = hidden_counts
        self._stack: list[Snapshot] = []
        self.barrier = START
        #: the seats that have made a decision of their own at this table
        self._decided: set[int] = set()

    def before(self, state: State[Any]) -> Before:
        """Remember ``state`` just before an action is applied to it."""
        return Before(state.clone(), state.chance_fingerprint(), self._hidden(state.observe(None)))

    def after(
        self,
        before: Before,
        state: State[Any],
        events: Sequence[Event],
        *,
        seat: int,
        action: str,
        undoable: bool,
        log_size: int,
    ) -> None:
        """Record an applied action; ``undoable`` is false for bots."""
        if undoable:
            self._decided.add(seat)
        if state.chance_fingerprint() != before.chance:
            self._drop(CHANCE)
        elif self._hidden(state.observe(None)) != before.hidden or any(e.secret for e in events):
            self._drop(HIDDEN)
        elif not undoable:
            self._drop(OTHER_SEAT)
        else:
            if self._stack and self._stack[-1].seat != seat:
                self._drop(OTHER_SEAT)
            self._stack.append(Snapshot(seat, before.state, action, log_size))

    def seal(self) -> None:
        """The game is over: nothing can be taken back any more."""
        self._drop(OVER)

    def _drop(self, reason: str) -> None:
        self._stack.clear()
        self.barrier = reason

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` has a decision of its own to take back."""
        return bool(self._stack) and self._stack[-1].seat == seat

    def why_not(self, seat: int) -> str:
        """The reason ``seat`` cannot undo (a barrier name): :data:`START` until it decides."""
        if self.barrier == OVER:
            return OVER
        if seat not in self._decided:
            return START
        if self._stack and self._stack[-1].seat != seat:
            return OTHER_SEAT
        return self.barrier

    def undo(self, seat: int) -> Snapshot:
        """Pop ``seat``'s last snapshot (check :meth:`can_undo` first)."""
        if not self.can_undo(seat):
            raise LookupError("nothing to undo")
        return self._stack.pop()

    def __len__(self) -> int:
        return len(self._stack)
