"""The Submarine expert's record of a position, built from a seat's typed view only."""

from __future__ import annotations

from collections.abc import Sequence

from subtable.games.submarine.view import Phase, SubmarineView


class SubBoard:
    """The public fields of a position and the seat's own hand (token ids, 0-based cells).

    Read-only. A seat's bathyscaphes are sorted, whatever order the engine keeps them
    in, so that the expert's choice depends on the position alone; a cell's tokens are
    the view's, in the engine's order: the expert reads each cell as a set (as a player
    reads the table).
    """

    __slots__ = (
        "baths",
        "boat",
        "cells",
        "column",
        "hand",
        "hand_size",
        "n",
        "owned",
        "phase",
        "pile_size",
        "seat",
        "spare",
        "turn",
    )

    n: int
    #: the tokens in each cell
    cells: Sequence[Sequence[int]]
    #: each seat's bathyscaphes (cells)
    baths: Sequence[Sequence[int]]
    #: each seat's boat position (-1 off the left edge, a column, or ``columns``)
    boat: Sequence[int]
    #: each seat's board: by treasure type, the token stored there or -1
    owned: Sequence[Sequence[int]]
    #: each seat's jokers
    spare: Sequence[Sequence[int]]
    #: each seat's hand by colour, ``None`` where hidden from the seat
    hand: Sequence[Sequence[int] | None]
    hand_size: Sequence[int]
    pile_size: Sequence[int]
    phase: Phase
    #: the turn player
    seat: int
    #: the column the boat stopped over this turn, or -1
    column: int
    turn: int

    @classmethod
    def of(cls, view: SubmarineView) -> SubBoard:
        """The board of a seat's view."""
        b = cls()
        b.n = view.players
        b.cells = view.cells
        b.baths = [sorted(baths) for baths in view.bathyscaphes]
        b.boat = view.boats
        b.owned = view.treasures
        b.spare = view.jokers
        b.hand = view.hands
        b.hand_size = view.hand_sizes
        b.pile_size = view.pile_sizes
        b.phase = view.phase
        b.seat = view.active
        b.column = view.column
        b.turn = view.turn
        return b
