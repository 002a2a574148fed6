"""Root options compared on the same sampled worlds (common random numbers).

A paired search plays every root option on its own copy of each sampled world, so two options
differ only by what they do. These functions read the returns such a search gathered, one
list per option, in world order: the expert's choice is the first option.
"""

from __future__ import annotations

import math


def paired(option: list[float], base: list[float]) -> tuple[float, float]:
    """Mean and standard error of ``option - base`` over the worlds both were played in."""
    diffs = [x - y for x, y in zip(option, base[: len(option)], strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def race(active: list[int], returns: dict[int, list[float]], k: float) -> list[int]:
    """The options still in the race: the expert's choice (``active[0]``) and every
    alternative not yet ``k`` standard errors below it on the same worlds."""
    favourite = active[0]
    base = returns[favourite]
    kept = [favourite]
    for option in active[1:]:
        mean, se = paired(returns[option], base)
        if mean + k * se >= 0.0:
            kept.append(option)
    return kept


def overrule(options: list[int], returns: dict[int, list[float]], z: float) -> int:
    """The expert's choice (``options[0]``), unless another option beats it on the same
    worlds by more than ``z`` standard errors (then the surest such option). An option
    dropped from the race is judged on the worlds it was played in."""
    favourite = options[0]
    base = returns[favourite]
    best, best_score = favourite, 0.0
    for option in options[1:]:
        mean, se = paired(returns[option], base)
        score = mean - z * se
        if score > best_score:
            best, best_score = option, score
    return best


def undecided(active: list[int], returns: dict[int, list[float]], z: float) -> bool:
    """Whether more worlds could change :func:`overrule`'s answer: no alternative in
    ``active`` beats the expert's choice (``active[0]``) by ``z`` standard errors yet, and one
    is ahead of it on the same worlds."""
    favourite = active[0]
    if overrule(active, returns, z) != favourite:
        return False
    base = returns[favourite]
    return any(paired(returns[option], base)[0] > 0.0 for option in active[1:])
