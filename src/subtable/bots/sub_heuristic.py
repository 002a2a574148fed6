"""A collector policy for Submarine.

It reads only public information plus its own hand: a board built from the
seat's view (:func:`~subtable.games.submarine.determinize.public_fields`) or,
inside a search bot's sampled world, from the state's fields.

Every token is priced for the seat — a treasure type it lacks is worth much,
a duplicate or a shell only a joker — and every payment costs: a search card,
weighted by how much its colour is still wanted, plus each toll card (lost,
and handed to an opponent). The end conditions are priced too: reaching twelve
treasures wins; emptying a column ends the game, which is good only for the
leader. The boat stops where its bathyscaphes can do the most this sweep,
without skipping much; idle bathyscaphes move to the richest cells ahead with
few opponents above them; the swap sends back the least wanted colour.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from subtable.core.game import Game
from subtable.core.rng import Rng
from subtable.games.submarine.actions import Kind
from subtable.games.submarine.determinize import public_fields

P_PLACE, P_BOAT, P_ACT, P_GIVE, P_SWAP, P_TO, P_OVER = range(7)


@dataclass(slots=True)
class SubParams:
    """Tunable weights (in "treasure points")."""

    #: a treasure type the seat lacks
    new_value: float = 10.0
    #: a joker (a shell, or a duplicate treasure)
    joker_value: float = 3.0
    #: a search card, before its colour's demand
    card_value: float = 3.0
    #: each toll card: lost, and given to an opponent (extra weight)
    toll_weight: float = 1.5
    #: how much a cell reachable only next sweep is worth, relative to this sweep
    route_weight: float = 0.6
    #: the value of ending the game as the winner (and minus it as a loser)
    end_weight: float = 60.0


class SubBoard:
    """Public fields by attribute (token ids, 0-based cells and columns)."""

    __slots__ = ("baths", "boat", "cells", "column", "discard", "hand", "hand_size", "idle",
                 "moving", "n", "owned", "phase", "pile_size", "seat", "spare", "turn")

    n: int
    cells: list[list[int]]
    baths: list[list[int]]
    boat: list[int]
    owned: list[list[int]]
    spare: list[list[int]]
    hand: list[list[int] | None]
    hand_size: list[int]
    pile_size: list[int]
    discard: list[int]
    phase: int
    seat: int
    column: int
    idle: list[int]  # levels (0-based) of the idle bathyscaphes under the boat
    moving: int  # the cell of the bathyscaphe being moved, or -1
    turn: int

    @classmethod
    def from_fields(cls, f: Mapping[str, Any]) -> SubBoard:
        """From :func:`public_fields` output."""
        b = cls()
        for name in ("n", "cells", "baths", "boat", "owned", "spare", "hand", "hand_size",
                     "pile_size", "discard", "phase", "seat", "column", "turn"):
            setattr(b, name, f[name])
        b.idle = [x - 1 for x in f["idle"]]
        b.moving = -1
        return b


class SubExpert:
    """The Submarine collector: a pure function of the public board and its own hand."""

    def __init__(self, game: Game[Any], params: SubParams | None = None) -> None:
        self.game = game
        c = game.components  # type: ignore[attr-defined]
        self.c = c
        self.ix = game.index  # type: ignore[attr-defined]
        self.acts = game.action_space
        self.p = params or SubParams()
        self.lv = c.levels
        self.ncol = len(c.colours)
        self.jt = c.treasure_tokens
        self.columns = c.columns

    # ----------------------------------------------------------------- boards --
    def board_from_view(self, view: Mapping[str, Any]) -> SubBoard:
        """The board of a seat's view."""
        f = public_fields(self.game, view)  # type: ignore[arg-type]
        b = SubBoard.from_fields(f)
        if f["moving"] is not None:
            b.moving = (f["moving"][0] - 1) * self.lv + f["moving"][1] - 1
        return b

    def board_from_state(self, state: Any) -> SubBoard:
        """The board of a (sampled) state; only the deciding seat's hand is kept."""
        b = SubBoard()
        lv = self.lv
        b.n = state.n
        b.cells = state.cells
        b.baths = state.baths
        b.boat = state.boat
        b.owned = state.owned
        b.spare = state.spare
        s = state.seat
        b.hand = [h if i == s else None for i, h in enumerate(state.hand)]
        b.hand_size = [sum(h) for h in state.hand]
        b.pile_size = [len(p) for p in state.pile]
        b.discard = state.discard
        b.phase = state.phase
        b.seat = s
        b.column = state.column
        b.turn = state.turn
        baths = state.baths[s]
        b.idle = [x % lv for i, x in enumerate(baths)
                  if x // lv == state.column and not state.acted >> i & 1]
        b.moving = baths[state.moving] if state.moving >= 0 else -1
        return b

    # ----------------------------------------------------------------- prices --
    def _token_value(self, b: SubBoard, s: int, t: int) -> float:
        if t >= self.jt:
            return self.p.joker_value
        if b.owned[s][t // self.ncol] < 0:
            return self.p.new_value
        return self.p.joker_value

    def _colour_values(self, b: SubBoard, s: int) -> list[float]:
        """Each colour's card worth: more when needed treasures of that colour remain."""
        demand = [0.0] * self.ncol
        owned = b.owned[s]
        mine = set(b.baths[s])
        for i, cell in enumerate(b.cells):
            w = 1.0 if i in mine else 0.2
            for t in cell:
                if t < self.jt and owned[t // self.ncol] < 0:
                    demand[t % self.ncol] += w
        top = max(demand) or 1.0
        need = sum(1 for t in owned if t < 0)
        held = b.hand_size[s] + b.pile_size[s]
        # cards are worth what they can still buy: cheap when they outnumber the needs;
        # and ever cheaper in a long game, so that a table of cautious bots cannot stall
        patience = min(1.0, max(0.1, 1.5 - b.turn / (40 * b.n)))
        base = self.p.card_value * min(1.5, max(0.25, need / max(1, held))) * patience
        return [base * (0.5 + d / top) for d in demand]

    def _tolls(self, b: SubBoard, s: int, cell: int) -> int:
        lo = cell - cell % self.lv
        return sum(1 for r in range(b.n) if r != s for x in b.baths[r] if lo <= x <= cell)

    def _scores(self, b: SubBoard) -> list[tuple[int, int, int]]:
        return [(sum(1 for t in b.owned[s] if t >= 0), len(b.spare[s]),
                 b.hand_size[s] + b.pile_size[s]) for s in range(b.n)]

    def _end_value(self, b: SubBoard, s: int, t: int, cell: int, pay_card: bool) -> float:
        """The worth of the game ending because ``s`` takes ``t`` (0 if it does not end)."""
        c_new = t < self.jt and b.owned[s][t // self.ncol] < 0
        scores = self._scores(b)
        mine = list(scores[s])
        if c_new:
            mine[0] += 1
        else:
            mine[1] += 1
        if pay_card:
            mine[2] -= 1 + self._tolls(b, s, cell)
        ends = mine[0] == len(self.c.types)
        if not ends and t < self.jt:
            col = cell // self.lv
            left = sum(1 for x in range(col * self.lv, col * self.lv + self.lv)
                       for u in b.cells[x] if u < self.jt)
            ends = left == 1
        if not ends:
            return 0.0
        best_other = max(sc for r, sc in enumerate(scores) if r != s)
        key = tuple(mine)
        if key > best_other:
            return self.p.end_weight
        if key == best_other:
            return self.p.end_weight * 0.3
        return -self.p.end_weight

    def _collect_gain(self, b: SubBoard, s: int, t: int, cell: int, pay: int,
                      colours: list[float]) -> float:
        gain = self._token_value(b, s, t)
        if pay < 0:
            cost = colours[t % self.ncol]
            toll = self._tolls(b, s, cell)
            cost += toll * (sum(colours) / len(colours)) * self.p.toll_weight
        else:
            if gain <= self.p.joker_value:  # a joker for a joker: pointless
                return -1.0
            cost = self.p.joker_value
        return gain - cost + self._end_value(b, s, t, cell, pay < 0)

    def _cell_value(self, b: SubBoard, s: int, cell: int, colours: list[float]) -> float:
        """What one bathyscaphe could gain in ``cell`` (card payments, no jokers)."""
        toll = self._tolls(b, s, cell) * (sum(colours) / len(colours)) * self.p.toll_weight
        hand = b.hand[s]
        gains = []
        seen_types = set()
        for t in b.cells[cell]:
            v = self._token_value(b, s, t)
            if t < self.jt and b.owned[s][t // self.ncol] < 0:
                if t // self.ncol in seen_types:
                    v = self.p.joker_value
                seen_types.add(t // self.ncol)
            g = v - colours[t % self.ncol] - toll
            if hand is not None and not hand[t % self.ncol]:
                g *= 0.35  # that colour must be drawn first
            if g > 0:
                gains.append(g)
        gains.sort(reverse=True)
        return sum(gains[:3])

    # --------------------------------------------------------------- choosing --
    def choose(self, b: SubBoard, seat: int, legal: Sequence[int], rng: Rng) -> int:
        """The action id to play (one of ``legal``)."""
        if len(legal) == 1:
            return legal[0]
        return self.ranked(b, seat, legal)[0]

    def candidates(self, b: SubBoard, seat: int, legal: Sequence[int], width: int,
                   rng: Rng) -> list[int]:
        """The expert's ``width`` favourite actions, best first."""
        return self.ranked(b, seat, legal)[:width]

    def ranked(self, b: SubBoard, s: int, legal: Sequence[int]) -> list[int]:
        """Every legal action, best first."""
        colours = self._colour_values(b, s)
        score = {a: self._score(b, s, a, colours) for a in legal}
        return sorted(legal, key=lambda a: (-score[a], a))

    def _score(self, b: SubBoard, s: int, a: int, colours: list[float]) -> float:
        act = self.acts[a]
        kind = act.kind
        lv = self.lv
        p = self.p
        if kind == Kind.COLLECT:
            cell = self._cell_of(b, s, act.token)
            return self._collect_gain(b, s, act.token, cell, act.pay, colours)
        if kind == Kind.DONE:
            return 0.0
        if kind == Kind.MOVE:
            src = b.column * lv + act.level
            here = self._cell_value(b, s, src, colours)
            best = max((self._dest_value(b, s, d, colours) for d in self._dests(src)),
                       default=0.0)
            return best - here * p.route_weight - 1.0
        if kind == Kind.TO:
            return self._dest_value(b, s, act.column * lv + act.level, colours)
        if kind == Kind.BOAT or kind == Kind.BOAT_OFF:
            target = act.column if kind == Kind.BOAT else self.columns
            return self._boat_value(b, s, target, colours)
        if kind == Kind.PLACE:
            cell = act.column * lv
            mine = sum(1 for x in b.baths[s] if x // lv == act.column)
            return (self._cell_value(b, s, cell, colours)
                    + 0.5 * self._cell_value(b, s, cell + 1, colours) - 3.0 * mine)
        if kind == Kind.GIVE:
            return -colours[act.colour]
        if kind == Kind.SWAP:
            mean = sum(colours) / len(colours)
            return mean - colours[act.colour] + 0.1
        return 0.0  # NO_SWAP

    def _cell_of(self, b: SubBoard, s: int, token: int) -> int:
        lo = b.column * self.lv
        for cell in range(lo, lo + self.lv):
            if token in b.cells[cell]:
                return cell
        return lo

    def _dests(self, src: int) -> list[int]:
        lv = self.lv
        return [d for d in range(self.columns * lv)
                if d != src and abs(d % lv - src % lv) <= 1]

    def _dest_value(self, b: SubBoard, s: int, cell: int, colours: list[float]) -> float:
        col = cell // self.lv
        boat = b.column if b.column >= 0 else b.boat[s]
        reach = 1.0 if col > boat else self.p.route_weight
        crowd = 0.5 * sum(1 for x in b.baths[s] if x // self.lv == col)
        return self._cell_value(b, s, cell, colours) * reach - crowd

    def _bath_value(self, b: SubBoard, s: int, cell: int, colours: list[float]) -> float:
        here = self._cell_value(b, s, cell, colours)
        move = max((self._dest_value(b, s, d, colours) for d in self._dests(cell)),
                   default=0.0) - 1.0
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

    # ------------------------------------------------------------- evaluation --
    def seat_features(self, b: SubBoard, s: int) -> list[float]:
        """Features of seat ``s``'s prospects (for the fitted win-probability model)."""
        scores = self._scores(b)
        d, j, k = scores[s]
        others = [scores[r] for r in range(b.n) if r != s]
        od = max(o[0] for o in others)
        oj = max(o[1] for o in others)
        ok = max(o[2] for o in others)
        ncol = self.ncol
        owned = b.owned[s]
        present = {t // ncol for cell in b.cells for t in cell if t < self.jt}
        missing = [t for t in range(len(owned)) if owned[t] < 0]
        avail = sum(1 for t in missing if t in present)
        near = sum(1 for cell in set(b.baths[s]) for t in b.cells[cell]
                   if t < self.jt and owned[t // ncol] < 0)
        left = sum(1 for cell in b.cells for t in cell if t < self.jt)
        types = len(owned)
        return [1.0, d / types, od / types, (d - od) / types, j / 5, (j - oj) / 5, k / 15,
                (k - ok) / 15, avail / types, (len(missing) - avail) / types, near / 5,
                left / self.jt, 1.0 if b.seat == s else 0.0]

    def evaluate(self, b: SubBoard) -> list[float] | None:
        """Each seat's win chance from the fitted model (at a turn's start only)."""
        from subtable.bots.sub_value import WEIGHTS

        if b.phase not in (P_BOAT, P_SWAP):
            return None
        raw = []
        for s in range(b.n):
            z = sum(w * x for w, x in zip(WEIGHTS, self.seat_features(b, s), strict=False))
            raw.append(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))))
        total = sum(raw) or 1.0
        return [x / total for x in raw]
