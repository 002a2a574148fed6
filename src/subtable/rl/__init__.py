"""Research adapters (the optional ``rl`` extra): Gymnasium, PettingZoo and OpenSpiel.

* :func:`gym_env` — one seat learns against subtable bots (Gymnasium); ``import subtable.rl``
  also registers ``subtable/RedNovember-v0`` and ``subtable/Submarine-v0``;
* :func:`aec_env`, :func:`parallel_env` — every seat an agent (PettingZoo);
* ``import subtable.rl.openspiel`` registers ``python_red_november`` and ``python_submarine``;
* :func:`make_encoder` — the observation encodings alone (numpy only);
* :mod:`subtable.rl.actions` — the action ids as kind x argument;
* :mod:`subtable.rl.train` — a masked-PPO baseline (the ``train`` extra), exported to numpy
  (:mod:`subtable.rl.policy`) for the ``agent`` bot.

Nothing else in subtable imports this package, but the ``agent`` bot when it plays; see
``docs/rl.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    "make_encoder",
    "parallel_env",
    "register_gym_envs",
]

#: the Gymnasium ids and the game each one plays
GYM_IDS: dict[str, str] = {
    "subtable/RedNovember-v0": "red-november",
    "subtable/Submarine-v0": "submarine",
}


def gym_env(
    game: str = "red-november", seat: int = 0, opponents: Any = "heuristic", **options: Any
) -> SubtableEnv:
    """A Gymnasium environment: ``seat`` learns, ``opponents`` (bot specs) play the others."""
    from subtable.rl.gymnasium_env import SubtableEnv

    return SubtableEnv(game, seat=seat, opponents=opponents, **options)


def aec_env(game: str = "red-november", **options: Any) -> SubtableAEC:
    """A PettingZoo AEC environment (every seat an agent)."""
    from subtable.rl.pettingzoo_env import aec_env as make

    return make(game, **options)


def parallel_env(game: str = "red-november", **options: Any) -> SubtableParallel:
    """A PettingZoo parallel environment (every seat an agent; those not to act pass)."""
    from subtable.rl.pettingzoo_env import parallel_env as make

    return make(game, **options)


def register_gym_envs() -> bool:
    """Register the Gymnasium ids (done on import when Gymnasium is installed)."""
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:
        return False
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
