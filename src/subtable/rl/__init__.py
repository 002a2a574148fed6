"""Research adapters (the optional ``rl`` extra): Gymnasium, PettingZoo and OpenSpiel.

* :func:`gym_env` — one seat learns against subtable bots (Gymnasium); ``import subtable.rl``
  also registers ``subtable/<Game>-v0`` for each game with an encoder (:func:`gym_id`:
  ``subtable/RedNovember-v0``, ``subtable/Submarine-v0``);
* :func:`aec_env`, :func:`parallel_env` — every seat an agent (PettingZoo);
* ``import subtable.rl.openspiel`` registers ``python_<game>`` for each such game
  (``python_red_november``, ``python_submarine``);
* :func:`make_encoder` — the observation encodings alone (numpy only);
* :mod:`subtable.rl.actions` — the action ids as kind x argument;
* :mod:`subtable.rl.train` — a masked-PPO baseline (the ``train`` extra), exported to numpy
  (:mod:`subtable.rl.policy`) for the ``agent`` bot.

Nothing else in subtable imports this package, but the ``agent`` bot when it plays; see
``docs/rl.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from subtable.core.game import Game
from subtable.core.registry import registrations
from subtable.rl.encoding import Encoder, Field, make_encoder

if TYPE_CHECKING:
    from subtable.rl.gymnasium_env import SubtableEnv
    from subtable.rl.pettingzoo_env import SubtableAEC, SubtableParallel

__all__ = [
    "GYM_IDS",
    "Encoder",
    "Field",
    "aec_env",
    "gym_env",
    "gym_id",
    "gym_ids",
    "make_encoder",
    "parallel_env",
    "register_gym_envs",
]


def gym_id(name: str) -> str:
    """The Gymnasium id of the game registered as ``name``: ``subtable/`` and the name's
    words capitalised and joined (``my-game`` → ``subtable/MyGame-v0``)."""
    return "subtable/" + "".join(w.capitalize() for w in name.replace("_", "-").split("-")) + "-v0"


def gym_ids() -> dict[str, str]:
    """The Gymnasium ids of the registered games with an encoder, and the game of each."""
    return {gym_id(p.name): p.name for p in registrations() if p.has("encoder")}


#: the Gymnasium ids registered on import, and the game each one plays
GYM_IDS: dict[str, str] = gym_ids()


def gym_env(
    game: str | Game[Any], seat: int = 0, opponents: Any = "heuristic", **options: Any
) -> SubtableEnv:
    """A Gymnasium environment: ``seat`` learns, ``opponents`` (bot specs) play the others."""
    from subtable.rl.gymnasium_env import SubtableEnv

    return SubtableEnv(game, seat=seat, opponents=opponents, **options)


def aec_env(game: str | Game[Any], **options: Any) -> SubtableAEC:
    """A PettingZoo AEC environment (every seat an agent)."""
    from subtable.rl.pettingzoo_env import aec_env as make

    return make(game, **options)


def parallel_env(game: str | Game[Any], **options: Any) -> SubtableParallel:
    """A PettingZoo parallel environment (every seat an agent; those not to act pass)."""
    from subtable.rl.pettingzoo_env import parallel_env as make

    return make(game, **options)


def register_gym_envs() -> bool:
    """Register the Gymnasium ids of the registered games (done on import when Gymnasium is
    installed; again for a game registered later)."""
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:
        return False
    GYM_IDS.update(gym_ids())
    for env_id, name in GYM_IDS.items():
        if env_id not in registry:
            register(
                id=env_id,
                entry_point="subtable.rl.gymnasium_env:SubtableEnv",
                kwargs={"game": name},
                disable_env_checker=False,
            )
    return True


register_gym_envs()
