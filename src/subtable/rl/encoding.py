"""The shared machinery of the observation encoders: named slices of one flat vector.

An encoder turns one seat's typed view (:meth:`State.observe <subtable.core.game.State.observe>`)
into a flat ``float32`` vector whose every entry lies in ``[0, 1]``. The vector is cut into
named :class:`Field` slices (documented field by field in ``docs/rl.md``); :meth:`Encoder.views`
gives the same slices as named, reshaped numpy views for readers and for OpenSpiel's observer.

Encoders read the view only — never the state — so that the encoding cannot carry what the
seat may not see (the tests re-sample the hidden part of a state and compare encodings).
Only numpy is needed here: the encoders work without the ``rl`` extra's other libraries.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from subtable.core.game import Game
from subtable.core.options import OptionValue
from subtable.core.registry import registration, resolve_game
from subtable.core.view import SeatView

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Field:
    """One named slice of the encoding."""

    name: str
    #: the slice's shape (its size is the product)
    shape: tuple[int, ...]
    #: what the entries mean (the text of docs/rl.md's tables)
    doc: str
    #: offset of the slice's first entry in the flat vector (filled by :class:`Layout`)
    start: int = 0

    @property
    def size(self) -> int:
        """How many entries the slice holds."""
        out = 1
        for dim in self.shape:
            out *= dim
        return out

    @property
    def stop(self) -> int:
        """One past the slice's last entry."""
        return self.start + self.size


class Layout:
    """Fields laid end to end in declaration order."""

    def __init__(self, fields: list[tuple[str, tuple[int, ...], str]]) -> None:
        out: list[Field] = []
        pos = 0
        for name, shape, doc in fields:
            f = Field(name, shape, doc, pos)
            out.append(f)
            pos = f.stop
        self.fields: tuple[Field, ...] = tuple(out)
        self.size = pos
        self.by_name: dict[str, Field] = {f.name: f for f in out}

    def __getitem__(self, name: str) -> int:
        """The offset of field ``name``."""
        return self.by_name[name].start


class Encoder(ABC):
    """Encodes one game's seat views into flat float32 vectors."""

    layout: Layout

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    @property
    def size(self) -> int:
        """The length of the vector."""
        return self.layout.size

    @property
    def fields(self) -> tuple[Field, ...]:
        """The named slices, in order."""
        return self.layout.fields

    def encode(self, view: SeatView) -> Vector:
        """A fresh vector for ``view`` (the caller may keep it)."""
        out: Vector = np.zeros(self.layout.size, dtype=np.float32)
        ones, idx, vals = self._entries(view)
        out[ones] = 1.0
        out[idx] = vals
        return out

    def encode_into(self, view: SeatView, out: Vector) -> Vector:
        """Write the encoding of ``view`` into ``out`` (all of it) and return ``out``."""
        out.fill(0.0)
        ones, idx, vals = self._entries(view)
        out[ones] = 1.0
        out[idx] = vals
        return out

    def encode_list(self, view: SeatView) -> list[float]:
        """The encoding as a Python list of float32 values (OpenSpiel's tensor form), built
        from the non-zero entries without a numpy round trip."""
        out = [0.0] * self.layout.size
        ones, idx, vals = self._entries(view)
        for i in ones:
            out[i] = 1.0
        if idx:
            for i, v in zip(idx, np.asarray(vals, dtype=np.float32).tolist(), strict=True):
                out[i] = v
        return out

    @abstractmethod
    def _entries(self, view: SeatView) -> tuple[list[int], list[int], list[float]]:
        """The indices set to 1, and the indices and values of the other non-zero entries."""

    def views(self, vector: Vector) -> dict[str, Vector]:
        """The fields of ``vector`` as named, reshaped numpy views (no copy)."""
        return {f.name: vector[f.start : f.stop].reshape(f.shape) for f in self.fields}

    def describe(self) -> list[tuple[str, int, int, tuple[int, ...], str]]:
        """``(name, start, stop, shape, doc)`` per field (the tables of docs/rl.md)."""
        return [(f.name, f.start, f.stop, f.shape, f.doc) for f in self.fields]


def frac(value: float, scale: float) -> float:
    """``value / scale`` clipped to ``[0, 1]``."""
    if value <= 0:
        return 0.0
    x = value / scale
    return 1.0 if x > 1.0 else float(x)


def make_encoder(game: Game[Any] | str, **options: OptionValue | None) -> Encoder:
    """The encoder of ``game`` (the ``encoder`` part of its registration): a game object, or
    a registered name with the game's options (``make_encoder(name, players=3)``)."""
    built = resolve_game(game, options)
    encoder: Encoder = registration(built).load("encoder")(built)
    return encoder
