"""A factored view of a game's flat action ids: *kind* × *argument*.

Red November has 331 action ids and Submarine 4,343, of which a position allows a handful
(over 99% are masked). Each id is one *kind* of action (``move``, ``extinguish``,
``collect``…) with an *argument* (the room, the minutes, the token and what pays for it): the
argument is the id's rank among the ids of its kind. A policy may pick a kind first, then an
argument among that kind's legal ones; the flat ids stay the environments' actions::

    fa = FactoredActions(game)          # or factored_actions("submarine")
    kind, arg = fa.split(action_id)     # and fa.flat(kind, arg) == action_id
    kinds, args = fa.masks(mask)        # (K,) and (K, A) 0/1 masks from a flat mask

:class:`FactoredActionWrapper` turns a :mod:`subtable.rl.gymnasium_env` environment into one
whose action is ``MultiDiscrete([K, A])`` (kind, argument) and whose observation adds both
masks. Numpy only (the wrapper needs Gymnasium).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from subtable.core.game import Game
from subtable.core.options import OptionValue
from subtable.core.registry import resolve_game

IntArray = npt.NDArray[np.int64]
Mask = npt.NDArray[np.int8]


def _kind_name(action: Any) -> str:
    kind = getattr(action, "kind", None)
    if kind is not None:
        return str(getattr(kind, "name", kind)).lower()
    return str(action.notation()).split(" ")[0]


class FactoredActions:
    """The kind × argument view of ``game.action_space`` (see the module docstring)."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        kinds: list[str] = []
        index: dict[str, int] = {}
        kind_of: list[int] = []
        arg_of: list[int] = []
        counts: list[int] = []
        for action in game.action_space:
            name = _kind_name(action)
            if name not in index:
                index[name] = len(kinds)
                kinds.append(name)
                counts.append(0)
            k = index[name]
            kind_of.append(k)
            arg_of.append(counts[k])
            counts[k] += 1
        #: the kinds' names, in order of their first id
        self.kinds: tuple[str, ...] = tuple(kinds)
        #: per flat id: its kind and its argument
        self.kind_of: IntArray = np.asarray(kind_of, dtype=np.int64)
        self.arg_of: IntArray = np.asarray(arg_of, dtype=np.int64)
        #: per kind: how many arguments it takes
        self.sizes: IntArray = np.asarray(counts, dtype=np.int64)
        #: the widest kind's argument count (the second dimension of :meth:`masks`)
        self.max_args = int(self.sizes.max())
        #: ``table[kind, arg]``: the flat id (-1 where the kind has fewer arguments)
        self.table: IntArray = np.full((len(kinds), self.max_args), -1, dtype=np.int64)
        self.table[self.kind_of, self.arg_of] = np.arange(len(kind_of))

    @property
    def num_kinds(self) -> int:
        """How many kinds of action the game has."""
        return len(self.kinds)

    def split(self, action_id: int) -> tuple[int, int]:
        """``(kind, argument)`` of a flat id."""
        return int(self.kind_of[action_id]), int(self.arg_of[action_id])

    def flat(self, kind: int, arg: int) -> int:
        """The flat id of ``(kind, argument)`` (``ValueError`` if there is none)."""
        if not (0 <= kind < self.num_kinds and 0 <= arg < self.sizes[kind]):
            raise ValueError(f"no action of kind {kind} with argument {arg}")
        return int(self.table[kind, arg])

    def describe(self, action_id: int) -> tuple[str, str]:
        """The kind's name and the argument's text (``("collect", "crown-red with card")``)."""
        text = str(self.game.action_space[action_id].notation())
        _, _, rest = text.partition(" ")
        return self.kinds[int(self.kind_of[action_id])], rest

    def kind_mask(self, mask: npt.NDArray[Any]) -> Mask:
        """Per kind, 1 if some legal id (``mask`` over the flat ids) is of that kind."""
        out = np.zeros(self.num_kinds, dtype=np.int8)
        out[self.kind_of[np.flatnonzero(mask)]] = 1
        return out

    def masks(self, mask: npt.NDArray[Any]) -> tuple[Mask, Mask]:
        """The kind mask ``(K,)`` and the argument mask ``(K, A)`` of a flat mask."""
        legal = np.flatnonzero(mask)
        kinds = np.zeros(self.num_kinds, dtype=np.int8)
        args = np.zeros((self.num_kinds, self.max_args), dtype=np.int8)
        kinds[self.kind_of[legal]] = 1
        args[self.kind_of[legal], self.arg_of[legal]] = 1
        return kinds, args


def factored_actions(game: Game[Any] | str, **options: OptionValue | None) -> FactoredActions:
    """The factored view of a game, or of a game by name and options."""
    return FactoredActions(resolve_game(game, options))
