"""Fitted leaf-value models, stored as data inside each expert's package.

A model is a logistic regression over an expert's position features: the
weights live in ``weights.json`` beside the expert (read with
:mod:`importlib.resources`, so they ship in the wheel), and are refitted by
``scripts/fit_values.py``, which writes the same file back. An expert may also
ship a small network (``value_net.json``: ReLU hidden layers over standardised
features, a logistic output) for the player counts it was trained on; it is
evaluated in plain Python, so playing needs no numerical library.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Protocol, TypedDict, Unpack

from subtable.core.view import by_fields

#: the file name of a package's model
WEIGHTS_FILE = "weights.json"
#: the format tag written in each file
FORMAT = "subtable-leaf-model/1"
#: the file name of a package's network, and its format tag
NET_FILE = "value_net.json"
NET_FORMAT = "subtable-leaf-net/1"


class WinModel(Protocol):
    """Anything that turns a feature vector into a win probability."""

    def probability(self, features: Sequence[float]) -> float: ...


def _squash(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@dataclass(frozen=True, slots=True)
class LeafModel:
    """Logistic-regression weights over a feature vector."""

    weights: tuple[float, ...]
    #: how the weights were fitted (command, games, seed, losses), for the record
    meta: tuple[tuple[str, Any], ...] = ()

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)

    def probability(self, features: Sequence[float]) -> float:
        """The modelled win chance of a position with these features."""
        return _squash(sum(w * x for w, x in zip(self.weights, features, strict=False)))


Layer = tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]


@dataclass(frozen=True, slots=True)
class LeafNet:
    """A small fully connected network over standardised features."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    #: each layer's weights, one row per unit (the unit's weight on every input), and biases
    layers: tuple[Layer, ...]
    #: the player counts it was trained on (another count uses the logistic model)
    players: frozenset[int]
    meta: tuple[tuple[str, Any], ...] = ()

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)

    def probability(self, features: Sequence[float]) -> float:
        """The modelled win chance of a position with these features."""
        x = [(f - m) / s for f, m, s in zip(features, self.mean, self.scale, strict=True)]
        last = len(self.layers) - 1
        for i, (units, biases) in enumerate(self.layers):
            x = _layer(units, biases, x, i < last)
        return _squash(x[0])


def _layer(
    units: tuple[tuple[float, ...], ...], biases: tuple[float, ...], x: list[float], relu: bool
) -> list[float]:
    """One layer's outputs: each unit's bias plus its weighted inputs, summed in input order.
    Plain loops over plain ``zip`` (the shapes are checked when the model is read), which the
    compiled build turns into machine arithmetic (``hatch_build.py``): six times faster there
    than ``sum(map(mul, ...))``, and no slower from source."""
    out: list[float] = []
    for unit, b in zip(units, biases):  # noqa: B905
        total = 0.0
        for w, v in zip(unit, x):  # noqa: B905
            total += w * v
        total += b
        out.append(total if total > 0.0 or not relu else 0.0)
    return out


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


def _numbers(value: Any, where: str) -> tuple[float, ...]:
    if not isinstance(value, list) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in value
    ):
        raise ValueError(f"{where} must be a list of numbers")
    return tuple(float(v) for v in value)


def parse_net(data: Any, source: str = "network") -> LeafNet:
    """A network from its JSON form (raises ``ValueError`` when it is malformed)."""
    if not isinstance(data, dict) or data.get("format") != NET_FORMAT:
        raise ValueError(f"{source}: not a {NET_FORMAT} file")
    mean = _numbers(data.get("mean"), f"{source}: 'mean'")
    scale = _numbers(data.get("scale"), f"{source}: 'scale'")
    if len(mean) != data.get("features") or len(scale) != len(mean) or 0.0 in scale:
        raise ValueError(f"{source}: 'mean' and 'scale' must give every feature (scale not 0)")
    raw = data.get("layers")
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"{source}: 'layers' must be a non-empty list")
    layers: list[Layer] = []
    width = len(mean)
    for n, layer in enumerate(raw):
        where = f"{source}: layer {n}"
        if not isinstance(layer, dict) or not isinstance(layer.get("units"), list):
            raise ValueError(f"{where} must have 'units' and 'biases'")
        units = tuple(_numbers(u, f"{where} unit") for u in layer["units"])
        biases = _numbers(layer.get("biases"), f"{where}: 'biases'")
        if not units or len(biases) != len(units) or any(len(u) != width for u in units):
            raise ValueError(f"{where}: {len(units)} units of {width} inputs each, one bias each")
        layers.append((units, biases))
        width = len(units)
    if width != 1:
        raise ValueError(f"{source}: the last layer must have one unit")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, int) for p in players):
        raise ValueError(f"{source}: 'players' must list the player counts it was trained on")
    meta = tuple(
        sorted(
            (k, v)
            for k, v in data.items()
            if k not in ("format", "features", "mean", "scale", "layers", "players")
        )
    )
    return LeafNet(mean, scale, tuple(layers), frozenset(players), meta)


@cache
def load_net(package: str) -> LeafNet | None:
    """The network packaged with ``package``, if it ships one."""
    path = resources.files(package).joinpath(NET_FILE)
    if not path.is_file():
        return None
    return parse_net(json.loads(path.read_text(encoding="utf-8")), f"{package}/{NET_FILE}")


def leaf_model(package: str, players: int) -> WinModel:
    """The leaf model of ``package`` for a game of ``players``: its network where it was
    trained on that count, else the logistic model."""
    net = load_net(package)
    return net if net is not None and players in net.players else load_model(package)


@cache
def load_model(package: str) -> LeafModel:
    """The model packaged with ``package`` (e.g. ``"subtable.bots.red_november"``)."""
    text = resources.files(package).joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return parse_model(json.loads(text), f"{package}/{WEIGHTS_FILE}")


class FitNotes(TypedDict, total=False):
    """What a fitted file says of its fitting: the model, the positions it was fitted on,
    the command that fits it again and its log losses."""

    model: str
    positions: str
    refit: str
    log_loss: float
    prior_log_loss: float
    held_out_log_loss: float


class ModelJSON(FitNotes):
    """A model's file (:func:`model_json`): one weight per feature."""

    format: str
    features: int
    weights: list[float]


class LayerJSON(TypedDict):
    """One layer of a network: each unit's weights (one per input) and the biases."""

    units: list[list[float]]
    biases: list[float]


class NetJSON(FitNotes):
    """A network's file (:func:`net_json`): the player counts it serves, the features'
    scaling and the layers."""

    format: str
    features: int
    players: list[int]
    mean: list[float]
    scale: list[float]
    layers: list[LayerJSON]


def model_json(weights: Sequence[float], **meta: Unpack[FitNotes]) -> str:
    """The file text of a model (what :func:`load_model` reads)."""
    data: ModelJSON = {
        "format": FORMAT,
        "features": len(weights),
        **meta,
        "weights": [float(w) for w in weights],
    }
    return json.dumps(data, indent=2) + "\n"


def net_json(
    mean: Sequence[float],
    scale: Sequence[float],
    layers: Sequence[tuple[Sequence[Sequence[float]], Sequence[float]]],
    players: Sequence[int],
    **meta: Unpack[FitNotes],
) -> str:
    """The file text of a network (what :func:`load_net` reads); ``layers`` give each
    layer's units (one weight per input) and biases."""
    data: NetJSON = {
        "format": NET_FORMAT,
        "features": len(mean),
        "players": sorted(players),
        **meta,
        "mean": [float(v) for v in mean],
        "scale": [float(v) for v in scale],
        "layers": [
            {"units": [[float(w) for w in u] for u in units], "biases": [float(b) for b in biases]}
            for units, biases in layers
        ],
    }
    return json.dumps(data) + "\n"
