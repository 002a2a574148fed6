"""Fitted leaf-value models, stored as data inside each expert's package.

A model is a logistic regression over an expert's position features: the
weights live in ``weights.json`` beside the expert (read with
:mod:`importlib.resources`, so they ship in the wheel), and are refitted by
``scripts/fit_values.py``, which writes the same file back.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

#: the file name of a package's model
WEIGHTS_FILE = "weights.json"
#: the format tag written in each file
FORMAT = "subtable-leaf-model/1"


@dataclass(frozen=True, slots=True)
class LeafModel:
    """Logistic-regression weights over a feature vector."""

    weights: tuple[float, ...]
    #: how the weights were fitted (command, games, seed, losses), for the record
    meta: tuple[tuple[str, Any], ...] = ()

    def probability(self, features: Sequence[float]) -> float:
        """The modelled win chance of a position with these features."""
        z = sum(w * x for w, x in zip(self.weights, features, strict=False))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def parse_model(data: Any, source: str = "weights") -> LeafModel:
    """A model from the JSON form (raises ``ValueError`` when it is malformed)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{source}: not a {FORMAT} file")
    weights = data.get("weights")
    count = data.get("features")
    if not isinstance(weights, list) or not all(
        isinstance(w, int | float) and not isinstance(w, bool) for w in weights
    ):
        raise ValueError(f"{source}: 'weights' must be a list of numbers")
    if count != len(weights):
        raise ValueError(f"{source}: {len(weights)} weights for {count} features")
    meta = tuple(
        sorted((k, v) for k, v in data.items() if k not in ("format", "weights", "features"))
    )
    return LeafModel(tuple(float(w) for w in weights), meta)


@cache
def load_model(package: str) -> LeafModel:
    """The model packaged with ``package`` (e.g. ``"subtable.bots.red_november"``)."""
    text = resources.files(package).joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return parse_model(json.loads(text), f"{package}/{WEIGHTS_FILE}")


def model_json(weights: Sequence[float], **meta: Any) -> str:
    """The file text of a model (what :func:`load_model` reads)."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "features": len(weights),
        **meta,
        "weights": [float(w) for w in weights],
    }
    return json.dumps(data, indent=2) + "\n"
