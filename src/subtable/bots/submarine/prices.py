"""What tokens, cards and the game's end are worth to a seat (in treasure points).

A treasure type the seat lacks is worth much, a duplicate or a shell only a
joker; a search card is worth its colour's demand (the wanted treasures of that
colour still on the board), cheaper as cards outnumber the needs and as the
game drags on; each toll card is lost and handed to an opponent. Ending the game
is priced too: good for the leader only.
"""

from __future__ import annotations

from collections.abc import Sequence

from subtable.bots.submarine.board import SubBoard
from subtable.bots.submarine.params import SubParams
from subtable.games.submarine import rules
from subtable.games.submarine.components import Components


class Prices:
    """The seat's prices on a board."""

    def __init__(self, c: Components, p: SubParams) -> None:
        self.c = c
        self.p = p
        self.lv = c.levels
        self.ncol = len(c.colours)
        self.jt = c.treasure_tokens
        lv = self.lv
        #: by cell, the cells whose takings owe a toll to a bathyscaphe there: it and those below
        self._below = [list(range(x, x - x % lv + lv)) for x in range(c.cells)]
        #: by a seat's board (``owned``), each token's colour if it wants the token, else -1
        self._wanted: dict[tuple[int, ...], list[int]] = {}

    def token_value(self, b: SubBoard, s: int, t: int) -> float:
        """A token to seat ``s``: a new treasure type, or a joker."""
        if rules.stores_on_board(b.owned[s], t, self.jt, self.ncol):
            return self.p.new_value
        return self.p.joker_value

    def colour_values(self, b: SubBoard, s: int) -> list[float]:
        """Each colour's card worth: more when needed treasures of that colour remain."""
        demand = [0.0] * self.ncol
        owned = b.owned[s]
        wanted = self.wanted(owned)
        weights = [0.2] * len(b.cells)  # more in the seat's own cells
        for x in b.baths[s]:
            weights[x] = 1.0
        for cell, w in zip(b.cells, weights, strict=True):
            for t in cell:
                colour = wanted[t]
                if colour >= 0:
                    demand[colour] += w
        top = max(demand) or 1.0
        need = sum(1 for t in owned if t < 0)
        held = b.hand_size[s] + b.pile_size[s]
        # cards are worth what they can still buy: cheap when they outnumber the needs;
        # and ever cheaper in a long game, so that a table of cautious bots cannot stall
        patience = min(1.0, max(0.1, 1.5 - b.turn / (40 * b.n)))
        base = self.p.card_value * min(1.5, max(0.25, need / max(1, held))) * patience
        return [base * (0.5 + d / top) for d in demand]

    def wanted(self, owned: Sequence[int]) -> list[int]:
        """Each token's colour if a seat with board ``owned`` would store it
        (:func:`rules.stores_on_board <subtable.games.submarine.rules.stores_on_board>`),
        else -1."""
        key = tuple(owned)
        table = self._wanted.get(key)
        if table is None:
            if len(self._wanted) >= 256:
                self._wanted.clear()
            jt, ncol = self.jt, self.ncol
            table = self._wanted[key] = [
                t % ncol if rules.stores_on_board(owned, t, jt, ncol) else -1
                for t in range(self.c.tokens)
            ]
        return table

    def tolls(self, b: SubBoard, s: int, cell: int) -> int:
        """Toll cards ``s`` pays to take a token from ``cell`` with a card."""
        return rules.toll_count(b.baths, s, cell, self.lv)

    def scores(self, b: SubBoard) -> list[tuple[int, int, int]]:
        """Every seat's ranking key (treasures, jokers, cards)."""
        return [
            rules.score(b.owned[s], len(b.spare[s]), b.hand_size[s] + b.pile_size[s])
            for s in range(b.n)
        ]

    def end_value(self, b: SubBoard, s: int, t: int, cell: int, pay: int) -> float:
        """The worth of the game ending because ``s`` takes ``t`` from ``cell`` paying a card
        (``pay`` -1) or joker ``pay``: 0 if it does not end (the engine's end rule,
        :func:`~subtable.games.submarine.rules.end_after_collection`)."""
        jt = self.jt
        owned = b.owned[s]
        stored = rules.stores_on_board(owned, t, jt, self.ncol)
        card = pay < 0
        treasure = t < jt
        # the token leaves the column; a joker paid stays in its place (a treasure if it is
        # a duplicate); toll cards change hands, only the card paid leaves play
        left = (
            (
                rules.column_treasures(b.cells, cell // self.lv, self.lv, jt)
                - 1
                + (1 if not card and pay < jt else 0)
            )
            if treasure
            else -1
        )
        held = sum(b.hand_size) + sum(b.pile_size) - 1 if card else -1
        reason = rules.end_after_collection(
            board_full=stored and sum(1 for x in owned if x >= 0) + 1 == len(self.c.types),
            treasure_taken=treasure,
            column_left=left,
            paid_with_card=card,
            cards_left=held,
        )
        if reason is None:
            return 0.0
        # the ranking keys once it is taken
        scores = self.scores(b)
        mine = list(scores[s])
        if stored:
            mine[0] += 1
        else:
            mine[1] += 1
        if card:
            mine[2] -= 1 + self.tolls(b, s, cell)
        best_other = max(sc for r, sc in enumerate(scores) if r != s)
        key = tuple(mine)
        if key > best_other:
            return self.p.end_weight
        if key == best_other:
            return self.p.end_weight * 0.3
        return -self.p.end_weight

    def collect_gain(
        self, b: SubBoard, s: int, t: int, cell: int, pay: int, colours: list[float]
    ) -> float:
        """Taking token ``t`` from ``cell``, paying a card (``pay`` -1) or joker ``pay``."""
        gain = self.token_value(b, s, t)
        if pay < 0:
            cost = colours[t % self.ncol]
            toll = self.tolls(b, s, cell)
            cost += toll * (sum(colours) / len(colours)) * self.p.toll_weight
        else:
            if gain <= self.p.joker_value:  # a joker for a joker: pointless
                return -1.0
            cost = self.p.joker_value
        return gain - cost + self.end_value(b, s, t, cell, pay)

    def toll_table(self, b: SubBoard, s: int) -> list[int]:
        """``tolls(b, s, cell)`` for every cell at once."""
        below = self._below
        out = [0] * len(b.cells)
        for r, baths in enumerate(b.baths):
            if r != s:
                for x in baths:
                    for cell in below[x]:
                        out[cell] += 1
        return out

    def cell_value(
        self,
        b: SubBoard,
        s: int,
        cell: int,
        colours: list[float],
        tolls: Sequence[int] | None = None,
    ) -> float:
        """What one bathyscaphe could gain in ``cell`` (card payments, no jokers); ``tolls``
        may give :meth:`toll_table`."""
        tokens = b.cells[cell]
        if not tokens:
            return 0.0
        count = tolls[cell] if tolls is not None else self.tolls(b, s, cell)
        toll = count * (sum(colours) / len(colours)) * self.p.toll_weight
        return self.tokens_value(tokens, toll, colours, b.hand[s], self.wanted(b.owned[s]))

    def tokens_value(
        self,
        tokens: Sequence[int],
        toll: float,
        colours: list[float],
        hand: Sequence[int] | None,
        wanted: Sequence[int],
        ordered: bool = False,
    ) -> float:
        """:meth:`cell_value` of a cell holding ``tokens`` (in any order) whose toll costs
        ``toll``, for the seat with ``hand`` (``None``: unknown) who wants tokens as
        :meth:`wanted` says."""
        p = self.p
        ncol = self.ncol
        new_value, joker = p.new_value, p.joker_value
        gains = []
        seen = 0  # the wanted types met in the cell, as bits
        for t in tokens:
            colour = wanted[t]
            if colour >= 0:
                bit = 1 << t // ncol
                if not seen & bit:
                    seen |= bit
                    v = new_value
                elif ordered:
                    v = joker  # the type is already counted
                else:  # two of one wanted type: the first by id is the new one
                    return self.tokens_value(sorted(tokens), toll, colours, hand, wanted, True)
            else:
                colour = t % ncol
                v = joker
            g = v - colours[colour] - toll
            if hand is not None and not hand[colour]:
                g *= 0.35  # that colour must be drawn first
            if g > 0:
                gains.append(g)
        gains.sort(reverse=True)
        return sum(gains[:3])
