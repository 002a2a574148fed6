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
from typing import Any, ClassVar

from subtable.bots.submarine.advice import reason as advice_reason
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

# the action kinds as module globals (the Kind members themselves, as in the engine's
# state module): compared for every action ranked
_PLACE, _BOAT, _BOAT_OFF, _MOVE, _TO, _COLLECT, _GIVE, _SWAP, _NO_SWAP, _DONE = Kind


class SubExpert:
    """The Submarine collector: a pure function of the seat's view."""

    #: the tunable weights (``HeuristicBot`` passes the ones it is given)
    params_class: ClassVar[type[SubParams]] = SubParams
    #: how many decisions a search bot's rollout plays before it trusts the leaf model (at
    #: the next turn start): 10, since shorter rollouts play clearly weaker here
    rollout_depth: ClassVar[int] = 10
    #: a search bot's iterations per decision when none is asked for: 200, since 100 plays
    #: weaker here, and racing keeps 200 cheap (docs/strength/history.md)
    search_budget: ClassVar[int] = 200
    #: the bot levels people choose (``bots/levels.py``), measured in docs/strength.md
    levels: ClassVar[dict[str, str]] = {
        "easy": "heuristic:mistakes=0.5",
        "normal": "ismcts",
        "strong": "ismcts:budget=800",
    }
    #: each level's measured win rate, shown beside it to people (``words/seat_words.py``): the
    #: share of 3-player games it wins against two heuristic bots (docs/strength.md)
    level_rates: ClassVar[dict[str, float]] = {"easy": 0.0, "normal": 0.70, "strong": 0.90}

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
        self.dest_cells = [rules.destinations(src, cells, self.lv) for src in range(cells)]
        #: the last ranking's prices, reused while their inputs stay the same (a bathyscaphe
        #: chosen to move, then its destination: the same cells, colours and tolls)
        self._prices: _SeatPrices | None = None

    def board(self, view: SeatView) -> SubBoard:
        """The expert's record of a seat's view."""
        if not isinstance(view, SubmarineView):
            raise TypeError(f"SubExpert reads a SubmarineView, not {type(view).__name__}")
        return SubBoard.of(view)

    # ------------------------------------------------------------- deciding --
    def choose(self, b: SubBoard, seat: int, legal: Sequence[int], rng: Rng) -> int:
        """The action id to play (one of ``legal``): ``ranked(...)[0]``, without the sort."""
        if len(legal) == 1:
            return legal[0]
        scores = self.scores(b, seat, legal)
        best, top = legal[0], scores[0]
        for a, x in zip(legal, scores, strict=True):
            if x > top or (x == top and a < best):
                best, top = a, x
        return best

    def candidates(
        self, b: SubBoard, seat: int, legal: Sequence[int], width: int, rng: Rng
    ) -> list[int]:
        """The expert's ``width`` favourite actions, best first."""
        return self.ranked(b, seat, legal)[:width]

    def ranked(self, b: SubBoard, s: int, legal: Sequence[int]) -> list[int]:
        """Every legal action, best first (the lowest id first among equals)."""
        score = dict(zip(legal, self.scores(b, s, legal), strict=True))
        return sorted(legal, key=lambda a: (-score[a], a))

    def scores(self, b: SubBoard, s: int, legal: Sequence[int]) -> list[float]:
        """Each legal action's score for seat ``s`` (higher is better), in ``legal``'s order."""
        key = _SeatPrices.inputs(b, s)
        prices = self._prices
        if prices is None or prices.key != key:
            prices = self._prices = _SeatPrices(self, b, s, key)
        score = prices.score
        return [score(b, a) for a in legal]

    def reason(self, b: SubBoard, seat: int, action_id: int) -> tuple[str, dict[str, Any]]:
        """Why ``action_id`` would be played: a reason key and its parameters
        (:mod:`.advice`)."""
        return advice_reason(self.c, self.acts, b, seat, action_id)

    def seat_features(self, b: SubBoard, s: int) -> list[float]:
        """Seat ``s``'s features for the leaf-value model."""
        return self.value.features(b, s)

    def evaluate(self, b: SubBoard) -> list[float] | None:
        """Each seat's win chance at a turn's start (``None`` elsewhere: play on)."""
        return self.value.evaluate(b)


class _SeatPrices:
    """Seat ``s``'s prices on board ``b``, which score the actions: each cell's value, its
    worth as a destination and the best move onward from it, computed once, when first
    asked.

    They depend on a few fields of the board only (:meth:`inputs`, the ``key``): they also
    score the actions on any board with the same ones.
    """

    __slots__ = (
        "b",
        "boat",
        "colours",
        "dests",
        "expert",
        "key",
        "mean",
        "mine",
        "moves",
        "s",
        "tolls",
        "values",
        "wanted",
    )

    @staticmethod
    def inputs(b: SubBoard, s: int) -> tuple[object, ...]:
        """What the prices read: the fields behind the colours' worth
        (``Prices.colour_values``), the cells' values and the boat's position."""
        return (
            s,
            b.n,
            b.turn,
            b.column,
            b.boat[s],
            b.hand[s],
            b.owned[s],
            b.hand_size[s],
            b.pile_size[s],
            b.cells,
            b.baths,
        )

    def __init__(self, expert: SubExpert, b: SubBoard, s: int, key: tuple[object, ...]) -> None:
        self.expert = expert
        self.b = b
        self.s = s
        self.key = key
        colours = expert.prices.colour_values(b, s)
        self.colours = colours
        self.wanted = expert.prices.wanted(b.owned[s])
        #: the mean card worth (each toll card costs that much)
        self.mean = sum(colours) / len(colours)
        cells = len(b.cells)
        self.values: list[float | None] = [None] * cells
        self.dests: list[float | None] = [None] * cells
        self.moves: list[float | None] = [None] * cells
        #: the toll each cell costs (``Prices.toll_table``), when first needed
        self.tolls: list[int] | None = None
        lv = expert.lv
        #: the seat's bathyscaphes in each column
        self.mine = mine = [0] * expert.columns
        for x in b.baths[s]:
            mine[x // lv] += 1
        #: the boat's column (this turn's stop, or where it waits)
        self.boat = b.column if b.column >= 0 else b.boat[s]

    def score(self, b: SubBoard, a: int) -> float:
        """Action ``a``'s score on board ``b`` (whose :meth:`inputs` are the key)."""
        expert = self.expert
        act = expert.acts[a]
        kind = act.kind
        if kind == _TO:
            return self.dest(act.column * expert.lv + act.level)
        if kind == _COLLECT:
            cell = rules.cell_of(b.cells, b.column, expert.lv, act.token)
            if cell < 0:
                cell = b.column * expert.lv
            return expert.prices.collect_gain(b, self.s, act.token, cell, act.pay, self.colours)
        if kind == _MOVE:
            src = b.column * expert.lv + act.level
            here = self.value(src)
            return self.best_move(src) - here * expert.p.route_weight - 1.0
        if kind in (_BOAT, _BOAT_OFF):
            return self.boat_value(act.column if kind == _BOAT else expert.columns)
        if kind == _PLACE:
            cell = act.column * expert.lv
            return self.value(cell) + 0.5 * self.value(cell + 1) - 3.0 * self.mine[act.column]
        if kind == _GIVE:
            return -self.colours[act.colour]
        if kind == _SWAP:
            return self.mean - self.colours[act.colour] + 0.1
        return 0.0  # DONE, NO_SWAP

    def value(self, cell: int) -> float:
        """``Prices.cell_value`` of ``cell``."""
        v = self.values[cell]
        if v is None:
            b, prices = self.b, self.expert.prices
            tokens = b.cells[cell]
            if tokens:
                tolls = self.tolls
                if tolls is None:
                    tolls = self.tolls = prices.toll_table(b, self.s)
                toll = tolls[cell] * self.mean * prices.p.toll_weight
                v = prices.tokens_value(tokens, toll, self.colours, b.hand[self.s], self.wanted)
            else:
                v = 0.0
            self.values[cell] = v
        return v

    def dest(self, cell: int) -> float:
        """What moving a bathyscaphe to ``cell`` is worth: less behind the boat, and less
        where the seat already has bathyscaphes."""
        v = self.dests[cell]
        if v is None:
            expert = self.expert
            col = cell // expert.lv
            reach = 1.0 if col > self.boat else expert.p.route_weight
            crowd = 0.5 * self.mine[col]
            v = self.dests[cell] = self.value(cell) * reach - crowd
        return v

    def best_move(self, src: int) -> float:
        """The best destination's worth from ``src`` (0 if none)."""
        v = self.moves[src]
        if v is None:
            dests = self.dests
            best: float | None = None
            for d in self.expert.dest_cells[src]:
                x = dests[d]
                if x is None:
                    x = self.dest(d)
                if best is None or x > best:  # max(): the first of equal values
                    best = x
            v = self.moves[src] = 0.0 if best is None else best
        return v

    def bath_value(self, cell: int) -> float:
        """What a bathyscaphe in ``cell`` can do: collect there, or move on."""
        return max(self.value(cell), self.best_move(cell) - 1.0, 0.0)

    def boat_value(self, target: int) -> float:
        """Stopping the boat over column ``target`` (``columns``: off the right edge)."""
        expert = self.expert
        lv = expert.lv
        b = self.b
        pos = b.boat[self.s]
        skipped = 1.0 - expert.p.route_weight  # until the next sweep
        value = 0.0
        for x in b.baths[self.s]:
            col = x // lv
            if col <= pos:
                continue
            if col == target:
                value += self.bath_value(x)
            elif col < target:
                value -= self.bath_value(x) * skipped
        if target >= expert.columns:
            value += 0.5
        return value - 0.05 * (target - pos)
