"""What the Gymnasium, PettingZoo and OpenSpiel adapters share: games by name, masks, seeds."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from subtable.core.game import Game, State
from subtable.core.registry import make_game

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
    key = game.strip().lower().replace(" ", "-")
    if key not in _ALIASES:
        raise ValueError(f"unknown game {game!r} (known: red-november, submarine)")
    return make_game(_ALIASES[key], **options)


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` if the adapters support it (None or ``"ansi"``), else a ValueError."""
    if render_mode is not None and render_mode != "ansi":
        raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
    return render_mode


def seat_prefix(game: Game[Any]) -> str:
    """The agent-name prefix: ``gnome`` (Red November) or ``captain`` (Submarine)."""
    return "gnome" if game.info.name == "red-november" else "captain"


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
