"""A trained policy in numpy: load an exported ``.npz``, score a seat's observation, act.

``python -m subtable.rl.train`` (the ``train`` extra: PyTorch) trains a masked policy and
exports its actor here as plain arrays, so that an agent plays anywhere numpy does: at the
terminal table (``--seats human,agent:path=agent.npz``), in the lab (``subtable simulate
--bots agent:path=…``) and in the evaluations. The file holds:

* ``w0, b0, w1, b1, …``: the actor's linear layers (``x @ w + b``), ``tanh`` between them;
  the last layer's outputs are the logits of the game's flat action ids;
* ``meta``: JSON text — ``format`` (:data:`FORMAT`), ``game`` (the engine name),
  ``options`` (the game's options it was trained with), ``obs_size``, ``num_actions``,
  ``seat`` and how it was trained (command, steps, seeds).

Only numpy is needed; the observation is the seat's encoding (:mod:`subtable.rl.encoding`),
built from the typed view only. It lives with the bots, below :mod:`subtable.rl`, because the
``agent`` bot plays it; :mod:`subtable.rl.policy` names the same classes for training.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NotRequired, TypedDict

import numpy as np
import numpy.typing as npt

from subtable.core.game import Game
from subtable.core.options import OptionValue
from subtable.core.registry import registration

#: the format tag in an exported policy's ``meta``
FORMAT = "subtable-policy/1"


class Training(TypedDict, total=False):
    """How a policy was trained: the command, the seeds of its deals, what it took."""

    command: str
    seed: int
    train_deals: str
    steps: int
    episodes: int
    cpu_seconds: float


class TrainedFor(TypedDict):
    """What a policy was trained for (the game, its options, the seat and the opponents),
    the sizes of its input and output, how it was trained and how its weights are saved."""

    game: str
    options: dict[str, OptionValue]
    seat: int
    opponents: str
    obs_size: int
    num_actions: int
    hidden: list[int]
    trained: Training
    #: the weights are saved as float16
    float16: NotRequired[bool]


class PolicyMeta(TrainedFor):
    """A policy file's ``meta``: its format and what it was trained for."""

    format: str


Array = npt.NDArray[np.float32]


@dataclass
class NumpyPolicy:
    """An MLP actor: tanh hidden layers, one logit per action id."""

    layers: list[tuple[Array, Array]]
    meta: PolicyMeta

    @classmethod
    def load(cls, path: str | Path) -> NumpyPolicy:
        """Read an exported policy (``ValueError`` for a file that is not one)."""
        with np.load(Path(path), allow_pickle=False) as data:
            if "meta" not in data.files:
                raise ValueError(f"{path}: not a subtable policy (no meta)")
            meta: PolicyMeta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT:
                raise ValueError(f"{path}: not a {FORMAT} file")
            layers = []
            i = 0
            while f"w{i}" in data.files:
                w = np.asarray(data[f"w{i}"], dtype=np.float32)
                b = np.asarray(data[f"b{i}"], dtype=np.float32)
                layers.append((w, b))
                i += 1
        if not layers:
            raise ValueError(f"{path}: no layers")
        return cls(layers, meta)

    def save(self, path: str | Path) -> None:
        """Write the policy (float16 weights when ``meta["float16"]``, else float32)."""
        dtype = np.float16 if self.meta.get("float16") else np.float32
        # Any: numpy's stubs would read a key as its ``allow_pickle`` flag
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(self.meta, sort_keys=True))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = w.astype(dtype)
            arrays[f"b{i}"] = b.astype(dtype)
        with Path(path).open("wb") as fh:
            np.savez_compressed(fh, **arrays)

    @property
    def obs_size(self) -> int:
        """The length of the observation it reads."""
        return int(self.layers[0][0].shape[0])

    @property
    def num_actions(self) -> int:
        """How many action ids it scores."""
        return int(self.layers[-1][0].shape[1])

    def logits(self, x: npt.NDArray[Any]) -> Array:
        """The logits of observations ``x`` (``(size,)`` or ``(batch, size)``)."""
        h = np.asarray(x, dtype=np.float32)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                h = np.tanh(h)
        return h

    def act(self, x: npt.NDArray[Any], legal: npt.NDArray[Any]) -> int:
        """The legal action with the highest logit (``legal``: the legal ids)."""
        scores = self.logits(x)[legal]
        return int(legal[int(np.argmax(scores))])

    def sample(self, x: npt.NDArray[Any], legal: npt.NDArray[Any], u: float) -> int:
        """A legal action drawn from the policy's softmax over ``legal``, by the uniform
        number ``u`` in [0, 1) (inverse transform: the caller's generator decides)."""
        logits = self.logits(x)[legal].astype(np.float64)
        p = np.exp(logits - logits.max())
        cum = np.cumsum(p / p.sum())
        return int(legal[min(int(np.searchsorted(cum, u, side="right")), len(legal) - 1)])

    def check_game(self, game: Game[Any]) -> None:
        """``ValueError`` unless the policy was trained for this game and seat count."""
        name = self.meta.get("game")
        if name != game.info.name:
            raise ValueError(f"this agent plays {name}, not {game.info.name}")
        size = registration(game).load("encoder")(game).size
        if size != self.obs_size or len(game.action_space) != self.num_actions:
            trained = ", ".join(f"{k}={v}" for k, v in self.meta.get("options", {}).items())
            raise ValueError(
                f"this agent was trained for {name} with {trained} "
                f"(observations of {self.obs_size}, not {size})"
            )
