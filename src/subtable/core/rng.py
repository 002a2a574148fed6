"""The seeded generator every game carries in its state.

Why not :class:`random.Random`? Two reasons. Game records must replay bit for
bit on any Python version, and only ``random()`` itself is guaranteed stable
across versions (``randrange``/``shuffle`` are not). And search bots clone
states thousands of times a second: this generator's whole state is one
integer, so a clone is free and the state serialises as a number.

The algorithm is SplitMix64 (Steele, Lea & Flood, 2014), with unbiased bounded
integers by rejection.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import MutableSequence
from functools import cache
from typing import TypeVar

_SPAN = 1 << 64
_MASK = _SPAN - 1
_GOLDEN = 0x9E3779B97F4A7C15
T = TypeVar("T")
#: keys :meth:`Rng.fingerprint` for this process, so that a fingerprint cannot be
#: searched back to a (small) seed
_FINGERPRINT_KEY = secrets.token_bytes(32)


#: the lengths of the sequences :meth:`Rng.shuffle` draws for all at once (a deck's)
_PACKED_LEAST, _PACKED_MOST = 8, 128
_LANE = 128  # bits per output in _next_outputs: a 64-bit value times a 64-bit constant fits


@cache
def _lanes(count: int) -> tuple[int, int, int, struct.Struct, tuple[int, ...]]:
    """The constants of :func:`_next_outputs` for ``count`` outputs, and the thresholds of
    the bounds a shuffle of ``count + 1`` items draws below in turn."""
    ones = sum(1 << (_LANE * k) for k in range(count))
    steps = sum((k + 1) << (_LANE * k) for k in range(count)) * _GOLDEN
    thresholds = tuple(_SPAN % n for n in range(count + 1, 1, -1))
    return ones, steps, _MASK * ones, struct.Struct(f"<{2 * count}Q"), thresholds


def _next_outputs(state: int, count: int) -> tuple[int, ...]:
    """The next ``count`` outputs of a generator at ``state``.

    SplitMix64's state only advances by a constant, so the next states are known
    at once: each goes into its own 128-bit lane of one integer, and the mixing
    runs on all the lanes together (a product of 64-bit numbers cannot overflow
    its lane; shifts are masked so no bit crosses into the next one).
    """
    ones, steps, mask, layout, _ = _lanes(count)
    s = (state * ones + steps) & mask
    s = ((s ^ ((s >> 30) & mask)) * 0xBF58476D1CE4E5B9) & mask
    s = ((s ^ ((s >> 27) & mask)) * 0x94D049BB133111EB) & mask
    s ^= (s >> 31) & mask
    return layout.unpack(s.to_bytes(16 * count, "little"))[::2]


class Rng:
    """A small, deterministic, cloneable pseudo-random generator."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """Return the next 64-bit output."""
        self.state = s = (self.state + _GOLDEN) & _MASK
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        threshold = _SPAN % n  # = (2**64 - n) % n: outputs below it would bias the result
        while True:  # next64(), inline (a hot path)
            self.state = r = (self.state + _GOLDEN) & _MASK
            r = ((r ^ (r >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            r = ((r ^ (r >> 27)) * 0x94D049BB133111EB) & _MASK
            r ^= r >> 31
            if r >= threshold:
                return r % n

    def die(self, sides: int = 10) -> int:
        """Roll a die numbered ``1..sides``."""
        return self.below(sides) + 1

    def choice(self, seq: list[T] | tuple[T, ...]) -> T:
        """Return a uniformly chosen element of a non-empty sequence."""
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Shuffle ``seq`` in place (Fisher–Yates: ``j = below(i + 1)`` for ``i`` down to 1)."""
        size = len(seq)
        if not _PACKED_LEAST <= size <= _PACKED_MOST:
            self._shuffle_from(seq, size - 1)
            return
        # a deck's draws at once: the same numbers, in about half the time of one by one
        outputs = _next_outputs(self.state, size - 1)
        thresholds = _lanes(size - 1)[4]
        for d, i in enumerate(range(size - 1, 0, -1)):
            r = outputs[d]
            if r < thresholds[d]:  # below() would reject it: go on one draw at a time
                self.state = (self.state + d * _GOLDEN) & _MASK
                self._shuffle_from(seq, i)
                return
            j = r % (i + 1)
            seq[i], seq[j] = seq[j], seq[i]
        self.state = (self.state + (size - 1) * _GOLDEN) & _MASK

    def _shuffle_from(self, seq: MutableSequence[T], top: int) -> None:
        for i in range(top, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def spawn(self) -> Rng:
        """Return an independent generator seeded from this one."""
        return Rng(self.next64())

    def clone(self) -> Rng:
        """Return a copy that will produce the same stream."""
        return Rng(self.state)

    def fingerprint(self) -> str:
        """An opaque digest of the position: equal iff the positions are (in this process)."""
        return hmac.new(
            _FINGERPRINT_KEY, self.state.to_bytes(8, "little"), hashlib.sha256
        ).hexdigest()[:32]

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#x})"
