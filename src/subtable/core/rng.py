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
from collections.abc import MutableSequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
T = TypeVar("T")
#: keys :meth:`Rng.fingerprint` for this process, so that a fingerprint cannot be
#: searched back to a (small) seed
_FINGERPRINT_KEY = secrets.token_bytes(32)


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
        threshold = ((1 << 64) - n) % n
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
        """Shuffle ``seq`` in place (Fisher–Yates)."""
        for i in range(len(seq) - 1, 0, -1):
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
