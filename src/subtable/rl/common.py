"""What the Gymnasium, PettingZoo and OpenSpiel adapters share: games by name, masks, seeds,
shaped rewards, strict action ids and cheap deep copies.

Everything in ``subtable.rl`` that depends on *which* game it is asks the game's
registration (:mod:`subtable.core.registry`): :func:`resolve_game` (a name or a
:class:`Game` to a game, the one way in), the ``encoder`` part (:func:`make_encoder
<subtable.rl.encoding.make_encoder>`) and the ``rl`` part, an :class:`RLSupport` (agent
names, the shaped reward's potential, the training preset, OpenSpiel's declaration),
declared beside the game's encoder in ``subtable/rl/encode_<game>.py``. A game without an
``rl`` part gets :data:`DEFAULT_SUPPORT`.
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

import numpy as np
import numpy.typing as npt

from subtable.core.game import Game, State, Utility
from subtable.core.options import OptionValue
from subtable.core.registry import registration
from subtable.core.registry import resolve_game as resolve_game
from subtable.core.view import SeatView

Mask = npt.NDArray[np.int8]
#: one agent's observation, as the Gymnasium and PettingZoo ``Dict`` spaces hold it: the
#: encoding (``observation``), the legal mask (``action_mask``) and, factored, the
#: ``kind_mask`` and ``arg_mask``
Obs = dict[str, npt.NDArray[Any]]


class TrainPreset(TypedDict, total=False):
    """What a game trains by default (:class:`subtable.rl.train.TrainConfig`'s fields)."""

    options: dict[str, OptionValue]
    seat: int
    #: the other seats' bots
    opponents: str
    reward: str
    max_steps: int | None
    total_steps: int
    num_envs: int
    rollout: int
    epochs: int
    minibatch: int
    lr: float
    gamma: float
    lam: float
    clip: float
    ent_coef: float
    vf_coef: float
    max_grad_norm: float
    hidden: tuple[int, ...]
    #: episodes of the heuristic's play imitated before PPO, and the passes over them
    imitate: int
    imitate_epochs: int


@dataclass(frozen=True, slots=True)
class RLSupport:
    """What the adapters know of one game beyond its encoder: the ``rl`` part of its
    registration (every field has a default: a game may declare none)."""

    #: the agents' name prefix (``gnome_0``, ``captain_0``)
    agent_prefix: str = "player"
    #: the shaped reward's potential of a seat's view (see ``docs/rl.md``); ``None``: the
    #: game offers only ``reward="outcome"``
    potential: Callable[[SeatView], float] | None = None
    #: what the potential measures, for the docs and ``info``
    potential_doc: str = ""
    #: the training baseline's preset (:mod:`subtable.rl.train`): options, seat, opponents,
    #: ``max_steps``, imitation and learning rates
    train: TrainPreset = field(default_factory=TrainPreset)
    #: OpenSpiel's utility for a game with its options (``None``: from ``info.utility``)
    utility: Callable[[Game[Any]], Utility] | None = None


#: the extras of a game that declares none
DEFAULT_SUPPORT = RLSupport()


def support(game: str | Game[Any]) -> RLSupport:
    """The adapters' knowledge of ``game`` (a game or a registered name)."""
    plugin = registration(game)
    if not plugin.has("rl"):
        return DEFAULT_SUPPORT
    extras: RLSupport = plugin.load("rl")
    return extras


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
    """The agent-name prefix the game declares for its seats, else ``player``."""
    return support(game).agent_prefix


def check_shaped(game: Game[Any]) -> None:
    """``ValueError`` unless ``game`` declares a potential (``reward="shaped"`` needs one)."""
    if support(game).potential is None:
        raise ValueError(f"{game.info.name} has no shaped reward: use reward='outcome'")


def potential(state: State[Any], seat: int) -> float:
    """The shaped reward's potential of ``seat`` at ``state`` (0 once the game is over), read
    from the seat's view."""
    if state.is_terminal():
        return 0.0
    measure = support(state.game).potential
    if measure is None:
        raise ValueError(f"{state.game.info.name} has no shaped reward")
    return measure(state.observe(seat))


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
