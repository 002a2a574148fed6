"""The Submarine expert (the ``heuristic`` bot's policy and the search bots' helper).

Modules by concern: :mod:`.board` (the record read from a seat's view),
:mod:`.prices` (what tokens, cards and the end are worth), :mod:`.value` (leaf
values, weights in ``weights.json``) and :mod:`.expert` (:class:`SubExpert`,
which ranks the legal actions).
"""

from subtable.bots.submarine.board import SubBoard
from subtable.bots.submarine.expert import SubExpert
from subtable.bots.submarine.params import SubParams

__all__ = ["SubBoard", "SubExpert", "SubParams"]
