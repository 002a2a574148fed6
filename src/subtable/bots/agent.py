"""The ``agent`` bot: a trained policy (``python -m subtable.rl.train``) at the table.

``--seats human,agent:path=runs/rn/agent.npz`` or ``subtable simulate red-november --players 1
--bots agent:path=…,heuristic,heuristic``. Without ``path``, the agent shipped with subtable
for that game and seat count is used, if there is one. It reads only its observation — the
seat's typed view, encoded as in :mod:`subtable.rl.encoding`, and the legal ids — and plays
the legal action its policy scores highest (``sample=1``: draws from the policy's masked
softmax with the bot's own generator instead). Inference needs numpy only (the ``rl`` extra);
training needs the ``train`` extra.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from subtable.bots.base import Observation
from subtable.core.actions import Action
from subtable.core.errors import OptionError
from subtable.core.game import Game
from subtable.core.registry import registration
from subtable.core.rng import Rng

#: the package directory of the shipped agents (``<game>-<seats>.npz``)
SHIPPED = "subtable.rl.agents"


def shipped_agent(game: Game[Any]) -> Path | None:
    """The agent shipped for ``game``'s name and seat count, if any."""
    name = f"{game.info.name}-{game.num_seats}.npz"
    try:
        path = resources.files(SHIPPED).joinpath(name)
    except ModuleNotFoundError:
        return None
    return Path(str(path)) if path.is_file() else None


@cache
def _load(path: str) -> Any:
    from subtable.bots.policy import NumpyPolicy

    return NumpyPolicy.load(path)


class AgentBot:
    """Plays a trained policy exported as ``.npz`` (see :mod:`subtable.bots.policy`)."""

    name = "agent"
    params: frozenset[str] = frozenset({"path", "sample"})

    def __init__(
        self, game: Game[Any], seat: int, rng: Rng, path: str | None = None, sample: int = 0
    ) -> None:
        try:
            import numpy as np  # noqa: F401  (the rl extra)
        except ImportError as exc:  # pragma: no cover - numpy missing
            raise OptionError(
                "the agent bot needs numpy: pip install 'subtable[rl]'", code="bad_bot_param"
            ) from exc
        self.game = game
        self.seat = seat
        self.rng = rng
        self.sample = bool(sample)
        where = Path(path) if path else shipped_agent(game)
        if where is None:
            raise OptionError(
                f"no agent ships for {game.info.name} with {game.num_seats} seats: "
                "give agent:path=FILE.npz (python -m subtable.rl.train)",
                code="bad_bot_param",
                params={"bot": "agent"},
            )
        try:
            self.policy = _load(str(where.resolve()))
            self.policy.check_game(game)
        except (OSError, ValueError) as exc:
            raise OptionError(
                f"agent {where}: {exc}", code="bad_bot_param", params={"bot": "agent"}
            ) from exc
        #: the game's observation encoder (the ``encoder`` part of its registration)
        self.encoder = registration(game).load("encoder")(game)

    def choose(self, obs: Observation) -> Action:
        """The policy's action for this observation."""
        import numpy as np

        ids = obs.legal_ids
        if len(ids) == 1:
            chosen = ids[0]
        else:
            x = self.encoder.encode(obs.view)
            legal = np.asarray(ids)
            if self.sample:
                chosen = self.policy.sample(x, legal, self.rng.next64() / 2.0**64)
            else:
                chosen = self.policy.act(x, legal)
        action: Action = self.game.action_space[chosen]
        return action
