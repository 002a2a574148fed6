"""Submarine's observation encoding: one seat's :class:`SubmarineView` as a flat vector.

Seats are indexed absolutely (seat ``s`` is captain ``s``); the ``seat`` field says who is
looking. Tokens are the engine's ids (``type * 5 + colour``, the shell jokers 60-64), cells
``column * levels + level``. Every entry lies in ``[0, 1]``. ``docs/rl.md`` lists the fields.
"""

from __future__ import annotations

from typing import Any

from subtable.core.game import Game
from subtable.core.view import SeatView
from subtable.games.submarine.view import LEFT, Phase, SubmarineView
from subtable.rl.common import RLSupport
from subtable.rl.encoding import Encoder, Layout, frac


class SubmarineEncoder(Encoder):
    """Encodes :class:`SubmarineView` values of one game (its player count fixes the size)."""

    def __init__(self, game: Game[Any]) -> None:
        c = game.components  # type: ignore[attr-defined]
        self.c = c
        p = self.p = game.num_seats
        self.cols = cols = c.columns
        self.levels = c.levels
        cells = self.cells = c.cells
        tokens = self.tokens = c.tokens
        ncol = self.ncol = len(c.colours)
        treasures = c.treasure_tokens
        self.max_baths = max(s.bathyscaphes for s in c.setups.values())
        self.max_cards = max(s.cards for s in c.setups.values())
        self.layout = Layout(
            [
                ("seat", (p,), "one-hot: the captain (seat) this observation is for"),
                ("active", (p,), "one-hot: the turn player (who takes every decision)"),
                ("to_act", (1,), "1 when this seat decides now"),
                ("first", (p,), "one-hot: the captain who played first"),
                ("phase", (len(Phase),), "one-hot: the decision waited for (Phase)"),
                ("turn", (1,), "turns started / 200 (clipped)"),
                ("to_place", (1,), "bathyscaphes still to place / (players x bathyscaphes)"),
                ("cells", (cells, tokens), "per cell (column x levels + level), per token: there"),
                (
                    "boats",
                    (p, cols + 2),
                    "per captain: boat off the left edge, over column "
                    "1..6, off the right edge (one-hot)",
                ),
                ("bathyscaphes", (p, cells), "per captain, per cell: bathyscaphes there / 5"),
                ("acted", (cells,), "per cell: the turn player's bathyscaphes there that acted"),
                ("acting", (cells,), "one-hot: the cell of the collecting bathyscaphe"),
                ("moving", (cells,), "one-hot: the cell of the bathyscaphe being moved"),
                ("column", (cols,), "one-hot: the column the boat stopped over this turn"),
                ("treasures", (p, treasures), "per captain, per treasure token: on his board"),
                ("jokers", (p, tokens), "per captain, per token: beside his board (a joker)"),
                ("hand", (ncol,), "this seat's hand: cards per colour / 3 (clipped)"),
                ("hand_sizes", (p,), "per captain: cards in hand / 3 (clipped)"),
                ("pile_sizes", (p,), "per captain: cards in his draw pile / 15 (clipped)"),
                ("discard", (ncol,), "discarded search cards per colour / 12"),
                ("boxed_cards", (1,), "search cards boxed at setup / 75"),
                ("boxed_jokers", (ncol,), "per shell colour: the shell was boxed at setup"),
                ("placed", (tokens,), "per token: put down by the current collection"),
                ("owed", (p,), "per captain: toll cards still owed to him / players"),
                ("owed_next", (p,), "one-hot: the captain the next toll card goes to"),
                ("pending_token", (tokens,), "one-hot: the token waiting for its toll"),
                ("pending_cell", (cells,), "one-hot: the cell that token came from"),
            ]
        )
        super().__init__(game)
        self._per_colour = c.cards_per_colour
        self._boxed_scale = c.cards_per_colour * ncol

    def _entries(self, view: SeatView) -> tuple[list[int], list[int], list[float]]:
        if not isinstance(view, SubmarineView):
            raise TypeError(f"not a Submarine view: {type(view).__name__}")
        ones: list[int] = []
        vi: list[int] = []
        vv: list[float] = []
        self._decision(view, ones, vi, vv)
        self._board(view, ones, vi, vv)
        self._turn(view, ones, vi, vv)
        self._holdings(view, ones, vi, vv)
        self._cards(view, ones, vi, vv)
        self._collection(view, ones, vi, vv)
        return ones, vi, vv

    def _decision(
        self, view: SubmarineView, ones: list[int], vi: list[int], vv: list[float]
    ) -> None:
        """Who looks, whose turn it is, who began, the phase, the turn."""
        lay = self.layout
        p = self.p
        seat = view.seat
        over = view.phase == Phase.OVER
        if seat is not None:
            ones.append(lay["seat"] + seat)
        ones.append(lay["active"] + view.active)
        if not over and seat == view.active:
            ones.append(lay["to_act"])
        ones.append(lay["first"] + view.first)
        ones.append(lay["phase"] + int(view.phase))
        vi.append(lay["turn"])
        vv.append(frac(view.turn, 200))
        vi.append(lay["to_place"])
        vv.append(frac(view.to_place, p * self.max_baths))

    def _board(self, view: SubmarineView, ones: list[int], vi: list[int], vv: list[float]) -> None:
        """The tokens in the cells, the boats, the bathyscaphes."""
        lay = self.layout
        cells, tokens = self.cells, self.tokens
        base = lay["cells"]
        for cell, toks in enumerate(view.cells):
            o = base + cell * tokens
            ones.extend(o + t for t in toks)
        base = lay["boats"]
        w = self.cols + 2
        for s, pos in enumerate(view.boats):
            ones.append(base + s * w + (0 if pos == LEFT else pos + 1))
        base = lay["bathyscaphes"]
        for s, baths in enumerate(view.bathyscaphes):
            counts: dict[int, int] = {}
            for cell in baths:
                counts[cell] = counts.get(cell, 0) + 1
            o = base + s * cells
            for cell, k in counts.items():
                vi.append(o + cell)
                vv.append(k / self.max_baths)

    def _turn(self, view: SubmarineView, ones: list[int], vi: list[int], vv: list[float]) -> None:
        """This turn's column and its acted, collecting and moving bathyscaphes."""
        lay = self.layout
        mine = view.bathyscaphes[view.active]
        if view.acted:
            acted: dict[int, int] = {}
            for i, cell in enumerate(mine):
                if view.acted >> i & 1:
                    acted[cell] = acted.get(cell, 0) + 1
            o = lay["acted"]
            for cell, k in acted.items():
                vi.append(o + cell)
                vv.append(k / self.max_baths)
        if view.acting >= 0:
            ones.append(lay["acting"] + mine[view.acting])
        if view.moving >= 0:
            ones.append(lay["moving"] + mine[view.moving])
        if view.column >= 0:
            ones.append(lay["column"] + view.column)

    def _holdings(
        self, view: SubmarineView, ones: list[int], vi: list[int], vv: list[float]
    ) -> None:
        """Every seat's treasures and jokers."""
        lay = self.layout
        tokens = self.tokens
        base = lay["treasures"]
        nt = self.c.treasure_tokens
        for s, board in enumerate(view.treasures):
            o = base + s * nt
            ones.extend(o + t for t in board if t >= 0)
        base = lay["jokers"]
        for s, spare in enumerate(view.jokers):
            o = base + s * tokens
            ones.extend(o + t for t in spare)

    def _cards(self, view: SubmarineView, ones: list[int], vi: list[int], vv: list[float]) -> None:
        """This seat's hand, every seat's card counts, the discard and the box."""
        lay = self.layout
        p = self.p
        seat = view.seat
        if seat is not None:
            hand = view.hands[seat]
            if hand is not None:
                o = lay["hand"]
                for col, k in enumerate(hand):
                    if k:
                        vi.append(o + col)
                        vv.append(frac(k, 3))
        o, q = lay["hand_sizes"], lay["pile_sizes"]
        for s in range(p):
            if view.hand_sizes[s]:
                vi.append(o + s)
                vv.append(frac(view.hand_sizes[s], 3))
            if view.pile_sizes[s]:
                vi.append(q + s)
                vv.append(frac(view.pile_sizes[s], 15))
        o = lay["discard"]
        for col, k in enumerate(view.discard):
            if k:
                vi.append(o + col)
                vv.append(frac(k, self._per_colour))
        vi.append(lay["boxed_cards"])
        vv.append(frac(view.boxed_cards, self._boxed_scale))
        o = lay["boxed_jokers"]
        jt = self.c.treasure_tokens
        ones.extend(o + t - jt for t in view.boxed_jokers)

    def _collection(
        self, view: SubmarineView, ones: list[int], vi: list[int], vv: list[float]
    ) -> None:
        """A collection under way: the jokers put down, the toll owed, the pending token."""
        lay = self.layout
        p = self.p
        o = lay["placed"]
        ones.extend(o + t for t in view.placed)
        if view.owed:
            owed = [0] * p
            for s in view.owed:
                owed[s] += 1
            o = lay["owed"]
            for s, k in enumerate(owed):
                if k:
                    vi.append(o + s)
                    vv.append(frac(k, p))
            ones.append(lay["owed_next"] + view.owed[0])
        if view.pending_token >= 0:
            ones.append(lay["pending_token"] + view.pending_token)
        if view.pending_cell >= 0:
            ones.append(lay["pending_cell"] + view.pending_cell)


def _potential(view: SeatView) -> float:
    """The treasure lead: the seat's treasures on its board minus the best other seat's,
    over the board's size (12), in [-1, 1]."""
    seat = view.seat
    assert seat is not None
    boards = view.treasures  # type: ignore[attr-defined]
    counts = [sum(1 for t in board if t >= 0) for board in boards]
    best_other = max(c for s, c in enumerate(counts) if s != seat)
    return (counts[seat] - best_other) / len(boards[seat])


#: the ``rl`` part of Submarine's registration
RL = RLSupport(
    agent_prefix="captain",
    potential=_potential,
    potential_doc="treasure lead: (own treasures - best other seat's) / 12",
    train={
        "options": {"players": 3},
        "seat": 0,
        "opponents": "heuristic",
        "max_steps": 400,
        "imitate": 2000,
        "lr": 1e-4,
        "ent_coef": 0.003,
    },
)
