"""Small statistics helpers for the lab."""

from __future__ import annotations

import math


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score 95% interval of a proportion (``(0, 0)`` with no trials)."""
    if trials == 0:
        return (0.0, 0.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


#: the two-sided 95% normal quantile
Z95 = 1.959964


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal ``Z``."""
    return float(math.erfc(abs(z) / math.sqrt(2)))


def mcnemar_exact_p(b: int, c: int) -> float:
    """McNemar's exact test of ``b`` against ``c`` discordant pairs (two-sided).

    Under the null hypothesis (the two conditions win equally often) each discordant
    pair is a fair coin, so ``min(b, c)`` is Binomial(b + c, 1/2); the p-value doubles
    its lower tail (McNemar 1947, *Psychometrika* 12:153-157, in its exact binomial
    form: Agresti, *Categorical Data Analysis*, 3rd ed., section 11.1).
    """
    m = b + c
    if m == 0:
        return 1.0
    k = min(b, c)
    tail = sum(math.comb(m, i) for i in range(k + 1))
    return min(1.0, 2 * tail / (1 << m))


def paired_difference_interval(
    b: int, c: int, n: int, z: float = Z95
) -> tuple[float, float, float]:
    """The difference of two matched proportions, ``(c - b) / n``, with its 95% interval.

    ``n`` pairs, of which ``b`` succeed under the first condition only and ``c`` under the
    second only. The interval is Agresti and Min's adjusted Wald interval: the Wald
    interval of the difference of matched proportions after adding 1/2 to each cell of
    the 2x2 table (A. Agresti and Y. Min, "Simple improved confidence intervals for
    comparing matched proportions", *Statistics in Medicine* 24 (2005) 729-740):
    ``d = (c - b)/(n + 2)``, ``var = ((b + c + 1)/(n + 2) - d**2)/(n + 2)``.
    Returns ``(difference, lo, hi)``, clipped to [-1, 1].
    """
    if n == 0:
        return (0.0, -1.0, 1.0)
    m = n + 2
    d = (c - b) / m
    var = max(0.0, ((b + c + 1) / m - d * d) / m)
    half = z * math.sqrt(var)
    return ((c - b) / n, max(-1.0, d - half), min(1.0, d + half))


def newcombe_interval(
    s1: int, n1: int, s2: int, n2: int, z: float = Z95
) -> tuple[float, float, float]:
    """The difference ``s2/n2 - s1/n1`` of two independent proportions, with its 95%
    interval: Newcombe's hybrid score interval from the two Wilson intervals (R. G.
    Newcombe, "Interval estimation for the difference between independent proportions",
    *Statistics in Medicine* 17 (1998) 873-890, method 10)."""
    if n1 == 0 or n2 == 0:
        return (0.0, -1.0, 1.0)
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson_interval(s1, n1, z)
    l2, u2 = wilson_interval(s2, n2, z)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return (d, max(-1.0, lo), min(1.0, hi))


def games_for_half_width(variance: float, half_width: float, z: float = Z95) -> int:
    """How many games (pairs, or games per arm) bring a 95% interval to ``±half_width``,
    for a per-game variance ``variance`` of the estimated difference: ``(z·sd/h)²``."""
    if half_width <= 0:
        raise ValueError("the precision must be a positive half-width")
    return max(1, math.ceil(variance * (z / half_width) ** 2))
