"""The leaf value of a search: each seat's fitted win chance at a turn's start.

:meth:`SeatValue.features` describes one seat's prospects (treasures, jokers
and cards against the best opponent, the missing types still on the board and
near its bathyscaphes); the logistic weights in ``weights.json`` beside this
module give a win probability per seat, normalised over the table. Refit with
``python scripts/fit_values.py --game submarine --games 3000``.
"""

from __future__ import annotations

from subtable.bots.submarine.board import SubBoard
from subtable.bots.submarine.prices import Prices
from subtable.bots.weights import LeafModel, load_model
from subtable.games.submarine.components import Components
from subtable.games.submarine.view import Phase


class SeatValue:
    """Seat features and the fitted model over them."""

    def __init__(self, c: Components, prices: Prices, model: LeafModel | None = None) -> None:
        self.c = c
        self.prices = prices
        self.ncol = len(c.colours)
        self.jt = c.treasure_tokens
        # the features' scales, from the components (the packaged ones: 5, 15 and 5)
        #: the shell jokers: one per colour
        self.shells = len(c.colours)
        #: the most search cards a captain receives, and the most bathyscaphes he places
        self.most_cards = max(s.cards for s in c.setups.values())
        self.most_baths = max(s.bathyscaphes for s in c.setups.values())
        self.model = model or load_model(__package__ or "subtable.bots.submarine")

    @staticmethod
    def at_turn_start(b: SubBoard) -> bool:
        """Whether ``b`` is a turn's first decision (where the model was fitted)."""
        return b.phase in (Phase.BOAT, Phase.SWAP)

    def features(self, b: SubBoard, s: int) -> list[float]:
        """Features of seat ``s``'s prospects (for the fitted win-probability model)."""
        return self._features(b, s, self._table(b))

    def _table(self, b: SubBoard) -> tuple[list[tuple[int, int, int]], set[int], int]:
        """What every seat's features share: the scores, the treasure types still in the
        sea and how many treasures are left there."""
        ncol, jt = self.ncol, self.jt
        present = {t // ncol for cell in b.cells for t in cell if t < jt}
        left = sum(1 for cell in b.cells for t in cell if t < jt)
        return self.prices.scores(b), present, left

    def _features(
        self, b: SubBoard, s: int, table: tuple[list[tuple[int, int, int]], set[int], int]
    ) -> list[float]:
        scores, present, left = table
        d, j, k = scores[s]
        others = [scores[r] for r in range(b.n) if r != s]
        od = max(o[0] for o in others)
        oj = max(o[1] for o in others)
        ok = max(o[2] for o in others)
        ncol = self.ncol
        jt = self.jt
        owned = b.owned[s]
        missing = [t for t in range(len(owned)) if owned[t] < 0]
        avail = sum(1 for t in missing if t in present)
        near = sum(
            1 for cell in set(b.baths[s]) for t in b.cells[cell] if t < jt and owned[t // ncol] < 0
        )
        types = len(owned)
        return [
            1.0,
            d / types,
            od / types,
            (d - od) / types,
            j / self.shells,
            (j - oj) / self.shells,
            k / self.most_cards,
            (k - ok) / self.most_cards,
            avail / types,
            (len(missing) - avail) / types,
            near / self.most_baths,
            left / jt,
            1.0 if b.seat == s else 0.0,
        ]

    def evaluate(self, b: SubBoard) -> list[float] | None:
        """Each seat's win chance from the fitted model (at a turn's start only)."""
        if not self.at_turn_start(b):
            return None
        table = self._table(b)
        raw = [self.model.probability(self._features(b, s, table)) for s in range(b.n)]
        total = sum(raw) or 1.0
        return [x / total for x in raw]
