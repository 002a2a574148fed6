"""What the Gymnasium, PettingZoo and OpenSpiel adapters share: games by name, masks, seeds,
shaped rewards, strict action ids and cheap deep copies.

Everything in ``subtable.rl`` that depends on *which* game it is goes through
:func:`resolve_game` (a name or a :class:`Game` to a game) and :func:`support` (a game or a
name to its :class:`GameSupport`: agent names, encoder, reward potential), so that a game
plugs in here in one place.
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from subtable.core.game import Game, State
from subtable.core.registry import make_game
from subtable.core.view import SeatView

#: accepted spellings of the two games
_ALIASES = {
    "red-november": "red-november",
    "red_november": "red-november",
    "rednovember": "red-november",
    "submarine": "submarine",
}

Mask = npt.NDArray[np.int8]


def resolve_game(game: str | Game[Any], options: dict[str, Any]) -> Game[Any]:
    """A game object from a name (``"red-november"``, ``"submarine"``) and options."""
    if isinstance(game, Game):
        if options:
            raise ValueError("pass options with a game name, not with a game object")
        return game
    return make_game(_canonical(game), **options)


def _red_november_potential(view: SeatView) -> float:
    """The disaster-track margin: 1 minus the highest track's level over its length."""
    length: int = view.game.components.track_length  # type: ignore[attr-defined]
    track: tuple[int, ...] = view.track  # type: ignore[attr-defined]
    return 1.0 - max(track) / length


def _submarine_potential(view: SeatView) -> float:
    """The treasure lead: the seat's treasures on its board minus the best other seat's,
    over the board's size (12), in [-1, 1]."""
    seat = view.seat
    assert seat is not None
    boards = view.treasures  # type: ignore[attr-defined]
    counts = [sum(1 for t in board if t >= 0) for board in boards]
    best_other = max(c for s, c in enumerate(counts) if s != seat)
    return (counts[seat] - best_other) / len(boards[seat])


@dataclass(frozen=True, slots=True)
class GameSupport:
    """What the adapters need to know of one game."""

    #: the engine name (``game.info.name``)
    name: str
    #: the agents' name prefix (``gnome_0``, ``captain_0``)
    agent_prefix: str
    #: ``module:Class`` of the observation encoder
    encoder: str
    #: the shaped reward's potential of a seat's view (see ``docs/rl.md``)
    potential: Callable[[SeatView], float]
    #: what the potential measures, for the docs and ``info``
    potential_doc: str


_SUPPORT = {
    "red-november": GameSupport(
        "red-november",
        "gnome",
        "subtable.rl.encode_red_november:RedNovemberEncoder",
        _red_november_potential,
        "disaster-track margin: 1 - (highest disaster track level / track length)",
    ),
    "submarine": GameSupport(
        "submarine",
        "captain",
        "subtable.rl.encode_submarine:SubmarineEncoder",
        _submarine_potential,
        "treasure lead: (own treasures - best other seat's) / 12",
    ),
}


def support(game: str | Game[Any]) -> GameSupport:
    """The adapters' knowledge of ``game`` (a game or any accepted spelling of its name)."""
    name = game.info.name if isinstance(game, Game) else _canonical(game)
    try:
        return _SUPPORT[name]
    except KeyError:
        raise ValueError(f"no research adapters for {name}") from None


def _canonical(name: str) -> str:
    key = name.strip().lower().replace(" ", "-")
    if key not in _ALIASES:
        raise ValueError(f"unknown game {name!r} (known: red-november, submarine)")
    return _ALIASES[key]


def action_id(action: Any, size: int) -> int:
    """``action`` as an action id: an integer (Python, numpy, or a 0-d integer array) in
    ``[0, size)``; anything else (``0.7``, ``True``, ``"3"``) raises ``TypeError`` or
    ``ValueError`` instead of being truncated."""
    if isinstance(action, bool | np.bool_ | float | np.floating):
        raise TypeError(f"an action is an integer id, not {action!r}")
    try:
        a = operator.index(action)
    except TypeError:
        raise TypeError(f"an action is an integer id, not {action!r}") from None
    if not 0 <= a < size:
        raise ValueError(f"action {a} is not an id of this game (0..{size - 1})")
    return a


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` if the adapters support it (None or ``"ansi"``), else a ValueError."""
    if render_mode is not None and render_mode != "ansi":
        raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
    return render_mode


def seat_prefix(game: Game[Any]) -> str:
    """The agent-name prefix: ``gnome`` (Red November) or ``captain`` (Submarine)."""
    return support(game).agent_prefix


def potential(state: State[Any], seat: int) -> float:
    """The shaped reward's potential of ``seat`` at ``state`` (0 once the game is over), read
    from the seat's view."""
    if state.is_terminal():
        return 0.0
    return support(state.game).potential(state.observe(seat))


def legal_mask(state: State[Any], size: int, out: Mask | None = None) -> Mask:
    """A 0/1 ``int8`` mask of the legal actions of ``state`` (all zero once it is over)."""
    mask = np.zeros(size, dtype=np.int8) if out is None else out
    if out is not None:
        mask.fill(0)
    if not state.is_terminal():
        mask[state.legal_action_ids()] = 1
    return mask


def seed_from(rng: np.random.Generator) -> int:
    """A 63-bit game seed drawn from a numpy generator."""
    return int(rng.integers(0, 2**63 - 1))


class SharesGameTables:
    """Deep copies that share the immutable game (its action space and lookup tables) and
    the encoder, and copy engine states with their own fast ``clone()``: a copy costs well
    under a millisecond instead of deep-copying every table (``benchmarks/bench_rl.py``)."""

    game: Game[Any]
    encoder: Any

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        cls = type(self)
        new = cls.__new__(cls)
        memo[id(self)] = new
        # the game, its tables (bots keep references to them) and the encoder are shared
        for shared in (self.game, *vars(self.game).values(), self.encoder):
            memo[id(shared)] = shared
        for value in self.__dict__.values():
            if isinstance(value, State):
                memo[id(value)] = value.clone()
        for key, value in self.__dict__.items():
            new.__dict__[key] = copy.deepcopy(value, memo)
        return new
