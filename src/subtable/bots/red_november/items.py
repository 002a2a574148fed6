"""What item cards are worth to a gnome, in minutes (the expert's currency)."""

from __future__ import annotations

from collections.abc import Sequence

from subtable.bots.red_november.board import Board
from subtable.bots.red_november.risk import DeckOdds
from subtable.games.red_november.components import SEA, Components


class ItemValues:
    """Prices of item cards: one more card, a draw from the deck, a Grog drunk, a gift."""

    def __init__(self, c: Components, gnomes: int, odds: DeckOdds) -> None:
        self.c = c
        self.n = gnomes
        self.odds = odds
        self.item = {it.kind: it.index for it in c.items}
        self.n_items = len(c.items)
        #: per item index: the copies dealt into the item deck (each kind's stash aside)
        copies = [0] * len(c.items)
        for it in c.items:
            copies[it.index] = it.copies - it.stash
        self.deck_copies = copies
        self._none = (0,) * self.n_items
        self._kraken = c.tokens.index("kraken")
        #: :meth:`values` of the last board asked about, by gnome (a board never changes)
        self._board: Board | None = None
        self._values: dict[int, tuple[float, ...]] = {}

    def held(self, b: Board, g: int) -> Sequence[int]:
        """Gnome ``g``'s cards per item index (none where his hand is hidden)."""
        hand = b.hands[g]
        return hand if hand is not None else self._none

    def values(self, b: Board, g: int) -> tuple[float, ...]:
        """What one more card of each item kind is worth to gnome ``g`` (minutes)."""
        if b is not self._board:
            self._board = b
            self._values = {}
        known = self._values.get(g)
        if known is None:
            known = self._values[g] = self._price(b, g)
        return known

    def _price(self, b: Board, g: int) -> tuple[float, ...]:
        it = self.item
        v = [0.0] * self.n_items
        intox = b.intoxication[g]
        kraken = b.token[self._kraken] >= 0
        lungs = sum(self.held(b, x)[it["aqualung"]] for x in range(self.n) if b.on_board(x))
        v[it["grog"]] = 1.5 if intox == 0 else (0.8 if intox == 1 else 0.3)
        v[it["fire_extinguisher"]] = 3.0 + (1.0 if any(b.fire[1:SEA]) else 0.0)
        v[it["water_pump"]] = 1.0
        v[it["crowbar"]] = 1.0 + 0.5 * sum(b.blocked)
        v[it["toolbox"]] = 3.0
        v[it["aqualung"]] = 25.0 if kraken and lungs == 0 else 1.5
        v[it["engine_manual"]] = 2.5
        v[it["pump_manual"]] = 2.5
        v[it["reactor_manual"]] = 3.0
        v[it["deactivation_code"]] = 2.5
        v[it["harpoon"]] = 6.0 if kraken else 1.5
        v[it["lucky_charm"]] = 3.0
        v[it["coffee"]] = 0.5 + intox
        return tuple(v)

    def deck_pool(self, b: Board) -> list[int]:
        """Per item index, the cards that may be in the item deck: the copies dealt into it,
        less the cards in sight (hands shown to this seat, discards while the deck lasts).
        A count can go below 0; read it as 0."""
        pool = list(self.deck_copies)
        for x in range(self.n):
            hand = b.hands[x]
            if hand is not None:
                for i, k in enumerate(hand):
                    pool[i] -= k
        if b.item_deck_size > 0:  # the discards are not in the deck until it runs out
            for i in b.item_discard:
                pool[i] -= 1
        return pool

    def draw_value(self, b: Board, g: int, count: int) -> float:
        """Expected worth of ``count`` cards from the item deck."""
        values = self.values(b, g)
        pool = self.deck_pool(b)
        total = sum(max(0, k) for k in pool)
        if total <= 0:
            return 0.0
        mean = sum(values[i] * max(0, k) for i, k in enumerate(pool)) / total
        size = sum(self.held(b, g))
        worth = 0.0
        for j in range(count):
            worth += mean * (1.0 if size + j < 4 else 0.5)
        return worth

    def grog_cost(self, b: Board, g: int) -> float:
        """Minutes lost, in expectation, by drinking one Grog now."""
        level = b.intoxication[g]
        already = b.this_turn.grog > 0
        after = min(4, level + 1)
        p_now = self.odds.faint_chance(b, level) if already else 0.0
        p_after = self.odds.faint_chance(b, after)
        return (p_after - p_now) * 14.0 + 1.0 + 0.8 * after

    def transfer_gain(self, b: Board, giver: int, taker: int, item: int) -> float:
        """Minutes gained by the crew when ``giver`` hands one ``item`` to ``taker``."""
        mine, theirs = self.held(b, giver), self.held(b, taker)
        if not mine[item]:
            return -1.0
        keep = self.values(b, giver)[item] * 0.6 ** (mine[item] - 1)
        gain = self.values(b, taker)[item] * 0.6 ** theirs[item]
        return gain - keep
