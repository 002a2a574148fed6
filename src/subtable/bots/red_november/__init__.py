"""The Red November expert (the ``heuristic`` bot's policy and the search bots' helper).

Modules by concern: :mod:`.board` (the record read from a seat's view),
:mod:`.paths` (walking, distances, hubs), :mod:`.risk` (track risk, deck odds),
:mod:`.items` (what cards are worth), :mod:`.tasks` (the problems on board and
their value), :mod:`.planning` (the active gnome's turn), :mod:`.value` (leaf
values, weights in ``weights.json``) and :mod:`.expert` (:class:`RNExpert`).
"""

from subtable.bots.red_november.board import Board
from subtable.bots.red_november.expert import RNExpert
from subtable.bots.red_november.params import Params

__all__ = ["Board", "Params", "RNExpert"]
