"""Submarine's actions: one typed value per distinct decision.

Notation (canonical, lower case; columns and levels are printed 1-based):

===============================  ==================================================
``place 3``                      setup: put a bathyscaphe on column 3, level 1
``boat 4``                       move your boat right and stop over column 4
``boat off``                     move your boat off the right edge
``move l2``                      the (not yet used) bathyscaphe at level 2 of the
                                 boat's column will move ...
``to c4 l3``                     ... to column 4, level 3 (the next decision)
``collect crown-red with card``  take the red crown from a cell under your boat
                                 where you have an idle bathyscaphe (or the one
                                 now collecting); pay a red card and the toll
``collect crown-red with X``     ... paying with the joker token ``X`` beside your
                                 board (``joker-blue``, or a duplicate such as
                                 ``amphora-green``), which stays in the cell
``give red``                     pay a toll card from your hand (your pile is empty)
``swap red``                     boat off the right edge: put a red card from your
                                 hand under your pile and draw the top card
``no-swap``                      ... decline the swap
``done``                         end the turn's bathyscaphe actions (the others
                                 stay idle); a collection also ends when another
                                 bathyscaphe acts
===============================  ==================================================

Ids depend only on the components, never on the player count.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from subtable.core.actions import ActionSpace
from subtable.games.submarine import rules
from subtable.games.submarine.components import Components


class Kind(enum.IntEnum):
    """What an action does."""

    PLACE = 0
    BOAT = 1
    BOAT_OFF = 2
    MOVE = 3
    TO = 4
    COLLECT = 5
    GIVE = 6
    SWAP = 7
    NO_SWAP = 8
    DONE = 9


@dataclass(frozen=True, slots=True)
class SubAction:
    """One Submarine action. Build them through :func:`build_action_space`."""

    id: int
    kind: Kind
    #: target column (``PLACE``, ``BOAT``, ``TO``), 0-based
    column: int = -1
    #: ``MOVE``: the level the bathyscaphe starts from; ``TO``: the level it goes to (0-based)
    level: int = -1
    #: ``COLLECT``: the token taken
    token: int = -1
    #: ``COLLECT``: the joker token paid with, or -1 for a search card
    pay: int = -1
    #: ``GIVE``/``SWAP``: the card colour
    colour: int = -1
    text: str = ""

    def notation(self) -> str:
        """Canonical text."""
        return self.text

    def __str__(self) -> str:
        return self.text


class ActionIndex:
    """Id arithmetic for the hot paths (legal-move generation)."""

    def __init__(self, space: ActionSpace[SubAction], c: Components) -> None:
        first: dict[Kind, int] = {}
        for a in space:
            first.setdefault(a.kind, a.id)
        self.place = first[Kind.PLACE]
        self.boat = first[Kind.BOAT]
        self.boat_off = first[Kind.BOAT_OFF]
        self.move = first[Kind.MOVE]
        self.to = first[Kind.TO]
        self.collect = first[Kind.COLLECT]
        self.give = first[Kind.GIVE]
        self.swap = first[Kind.SWAP]
        self.no_swap = first[Kind.NO_SWAP]
        self.done = first[Kind.DONE]
        #: per collect target, the stride between targets (card + one per token)
        self.stride = c.tokens + 1
        levels = c.levels
        #: ``boat_legal[position + 1][columns]``: the boat's options from ``position`` (-1 off
        #: the left edge) when the player's bathyscaphes occupy the ``columns`` bit set
        self.boat_legal: list[list[list[int]]] = [
            [
                [
                    self.boat + col
                    for col in rules.boat_stops(
                        pos, {x for x in range(c.columns) if mask >> x & 1}, c.columns
                    )
                ]
                + [self.boat_off]
                for mask in range(1 << c.columns)
            ]
            for pos in range(-1, c.columns)
        ]
        #: ``to_from[cell]``: the ids of every destination open from ``cell`` (sorted);
        #: never ``cell`` itself (RULING SUB-7)
        self.to_from: list[list[int]] = [
            [self.to + dest for dest in rules.destinations(cell, c.cells, levels)]
            for cell in range(c.cells)
        ]

    def collect_id(self, token: int, pay: int) -> int:
        """The id of ``collect token with pay`` (``pay`` -1 is a card)."""
        return self.collect + token * self.stride + pay + 1


def build_action_space(c: Components) -> ActionSpace[SubAction]:
    """Enumerate every distinct action, in a fixed order (the ids)."""
    out: list[SubAction] = []

    def add(kind: Kind, text: str, **fields: int) -> None:
        out.append(SubAction(len(out), kind, text=text, **fields))

    for col in range(c.columns):
        add(Kind.PLACE, f"place {col + 1}", column=col)
    for col in range(c.columns):
        add(Kind.BOAT, f"boat {col + 1}", column=col)
    add(Kind.BOAT_OFF, "boat off")
    for lv in range(c.levels):
        add(Kind.MOVE, f"move l{lv + 1}", level=lv)
    for col in range(c.columns):
        for lv in range(c.levels):  # id = first + cell
            add(Kind.TO, f"to c{col + 1} l{lv + 1}", column=col, level=lv)
    for token in range(c.tokens):
        name = c.token_name(token)
        add(Kind.COLLECT, f"collect {name} with card", token=token)
        for pay in range(c.tokens):
            add(Kind.COLLECT, f"collect {name} with {c.token_name(pay)}", token=token, pay=pay)
    for colour, cname in enumerate(c.colours):
        add(Kind.GIVE, f"give {cname}", colour=colour)
    for colour, cname in enumerate(c.colours):
        add(Kind.SWAP, f"swap {cname}", colour=colour)
    add(Kind.NO_SWAP, "no-swap")
    add(Kind.DONE, "done")
    return ActionSpace(out)
