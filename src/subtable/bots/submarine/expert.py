"""A collector policy for Submarine: :class:`SubExpert`.

It reads only what its seat may see — a :class:`~.board.SubBoard` built from
the seat's typed view (:class:`~subtable.games.submarine.view.SubmarineView`),
at the table and inside a search bot's sampled worlds — and ranks every legal
action by the seat's prices (:mod:`.prices`): a collection by the token's worth
against the payment and the end it may bring; the boat's stop by what its
bathyscaphes can do this sweep, without skipping much; an idle bathyscaphe's
move by the richest cells ahead with few opponents above; the swap sends back
the least wanted colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from subtable.bots.submarine.board import SubBoard
from subtable.bots.submarine.params import SubParams
from subtable.bots.submarine.prices import Prices
from subtable.bots.submarine.value import SeatValue
from subtable.core.rng import Rng
from subtable.core.view import SeatView
from subtable.games.submarine import rules
from subtable.games.submarine.actions import Kind
from subtable.games.submarine.game import Submarine
from subtable.games.submarine.view import SubmarineView


class SubExpert:
    """The Submarine collector: a pure function of the seat's view."""

    #: the tunable weights (``HeuristicBot`` passes the ones it is given)
    params_class: ClassVar[type[SubParams]] = SubParams
    #: how many decisions a search bot's rollout plays before it trusts the leaf model (at
    #: the next turn start): shorter rollouts measured clearly weaker here (docs/performance.md)
    rollout_depth: ClassVar[int] = 10

    def __init__(self, game: Submarine, params: SubParams | None = None) -> None:
        self.game = game
        c = game.components
        self.c = c
        self.acts = game.actions
        self.p = params or SubParams()
        self.lv = c.levels
        self.columns = c.columns
        self.prices = Prices(c, self.p)
        self.value = SeatValue(c, self.prices)
        cells = self.columns * self.lv
        #: each cell's destinations (a pure function of the cell)
        self._dest_cells = [rules.destinations(src, cells, self.lv) for src in range(cells)]
        #: within one ranking (one board, seat and colour prices): cell values, best moves
        self._cells: dict[int, float] = {}
        self._moves: dict[int, float] = {}
        self._tolls: list[int] | None = None

    def board(self, view: SeatView) -> SubBoard:
        """The expert's record of a seat's view."""
        if not isinstance(view, SubmarineView):
            raise TypeError(f"SubExpert reads a SubmarineView, not {type(view).__name__}")
        return SubBoard.of(view)

    # ------------------------------------------------------------- deciding --
    def choose(self, b: SubBoard, seat: int, legal: Sequence[int], rng: Rng) -> int:
        """The action id to play (one of ``legal``)."""
        if len(legal) == 1:
            return legal[0]
        return self.ranked(b, seat, legal)[0]

    def candidates(
        self, b: SubBoard, seat: int, legal: Sequence[int], width: int, rng: Rng
    ) -> list[int]:
        """The expert's ``width`` favourite actions, best first."""
        return self.ranked(b, seat, legal)[:width]

    def ranked(self, b: SubBoard, s: int, legal: Sequence[int]) -> list[int]:
        """Every legal action, best first."""
        colours = self.prices.colour_values(b, s)
        self._cells = {}
        self._moves = {}
        self._tolls = None
        score = {a: self._score(b, s, a, colours) for a in legal}
        return sorted(legal, key=lambda a: (-score[a], a))

    def seat_features(self, b: SubBoard, s: int) -> list[float]:
        """Seat ``s``'s features for the leaf-value model."""
        return self.value.features(b, s)

    def evaluate(self, b: SubBoard) -> list[float] | None:
        """Each seat's win chance at a turn's start (``None`` elsewhere: play on)."""
        return self.value.evaluate(b)

    # -------------------------------------------------------------- scoring --
    def _score(self, b: SubBoard, s: int, a: int, colours: list[float]) -> float:
        act = self.acts[a]
        kind = act.kind
        lv = self.lv
        prices = self.prices
        if kind == Kind.COLLECT:
            cell = self._cell_of(b, act.token)
            return prices.collect_gain(b, s, act.token, cell, act.pay, colours)
        if kind == Kind.DONE:
            return 0.0
        if kind == Kind.MOVE:
            src = b.column * lv + act.level
            here = self._cell_value(b, s, src, colours)
            return self._best_move(b, s, src, colours) - here * self.p.route_weight - 1.0
        if kind == Kind.TO:
            return self._dest_value(b, s, act.column * lv + act.level, colours)
        if kind == Kind.BOAT or kind == Kind.BOAT_OFF:
            target = act.column if kind == Kind.BOAT else self.columns
            return self._boat_value(b, s, target, colours)
        if kind == Kind.PLACE:
            cell = act.column * lv
            mine = sum(1 for x in b.baths[s] if x // lv == act.column)
            return (
                self._cell_value(b, s, cell, colours)
                + 0.5 * self._cell_value(b, s, cell + 1, colours)
                - 3.0 * mine
            )
        if kind == Kind.GIVE:
            return -colours[act.colour]
        if kind == Kind.SWAP:
            mean = sum(colours) / len(colours)
            return mean - colours[act.colour] + 0.1
        return 0.0  # NO_SWAP

    def _cell_of(self, b: SubBoard, token: int) -> int:
        cell = rules.cell_of(b.cells, b.column, self.lv, token)
        return cell if cell >= 0 else b.column * self.lv

    def _dests(self, src: int) -> list[int]:
        return self._dest_cells[src]

    def _cell_value(self, b: SubBoard, s: int, cell: int, colours: list[float]) -> float:
        """``Prices.cell_value``, remembered for the ranking under way."""
        v = self._cells.get(cell)
        if v is None:
            tolls = self._tolls
            if tolls is None:
                tolls = self._tolls = self.prices.toll_table(b, s)
            v = self._cells[cell] = self.prices.cell_value(b, s, cell, colours, tolls)
        return v

    def _best_move(self, b: SubBoard, s: int, src: int, colours: list[float]) -> float:
        """The best destination's value from ``src`` (0 if none), remembered likewise."""
        v = self._moves.get(src)
        if v is None:
            v = self._moves[src] = max(
                (self._dest_value(b, s, d, colours) for d in self._dest_cells[src]), default=0.0
            )
        return v

    def _dest_value(self, b: SubBoard, s: int, cell: int, colours: list[float]) -> float:
        col = cell // self.lv
        boat = b.column if b.column >= 0 else b.boat[s]
        reach = 1.0 if col > boat else self.p.route_weight
        crowd = 0.5 * sum(1 for x in b.baths[s] if x // self.lv == col)
        return self._cell_value(b, s, cell, colours) * reach - crowd

    def _bath_value(self, b: SubBoard, s: int, cell: int, colours: list[float]) -> float:
        here = self._cell_value(b, s, cell, colours)
        move = self._best_move(b, s, cell, colours) - 1.0
        return max(here, move, 0.0)

    def _boat_value(self, b: SubBoard, s: int, target: int, colours: list[float]) -> float:
        lv = self.lv
        pos = b.boat[s]
        value = 0.0
        for x in b.baths[s]:
            col = x // lv
            if col <= pos:
                continue
            v = self._bath_value(b, s, x, colours)
            if col == target:
                value += v
            elif col < target:
                value -= v * (1.0 - self.p.route_weight)  # skipped until the next sweep
        if target >= self.columns:
            value += 0.5
        return value - 0.05 * (target - pos)
