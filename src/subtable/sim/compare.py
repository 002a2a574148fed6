"""Paired comparisons: a baseline and a variant played on the same seeds.

Game ``i`` of both runs has the same seed, so both set up and draw alike wherever
the variant leaves a draw unchanged (common random numbers): the noise the two
runs share cancels in the difference, and the paired interval of a difference in
win rate is narrower than that of two independent runs of the same size. Every
figure compared is a yes/no per game (the team won, seat 2 won, the game ended
because the sub sank...), so each comparison is a 2x2 table of matched pairs:
``b`` games only the baseline had, ``c`` games only the variant had.

The difference comes with Agresti–Min's paired interval and McNemar's exact test
(:mod:`subtable.sim.stats`), the interval two independent runs would give
(Newcombe's), and how many games a wanted precision would need either way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from subtable.core.game import Game, Utility
from subtable.sim.runner import GameResult
from subtable.sim.stats import (
    Z95,
    games_for_half_width,
    mcnemar_exact_p,
    newcombe_interval,
    normal_two_sided_p,
    paired_difference_interval,
)

#: the default precision asked of a comparison: a 95% interval of ±2 points
DEFAULT_PRECISION = 0.02


class PairedStatJSON(TypedDict):
    """A :class:`PairedStat` as JSON (its intervals as lists)."""

    what: str
    games: int
    base_rate: float
    variant_rate: float
    diff: float
    ci95: list[float]
    unpaired_ci95: list[float]
    base_only: int
    variant_only: int
    p_value: float
    games_needed: int
    games_needed_unpaired: int


class Comparison(TypedDict):
    """Two runs compared figure by figure (:func:`compare_results`)."""

    paired: bool
    games: int
    precision: float
    confidence: float
    z: float
    figures: list[PairedStatJSON]


@dataclass(frozen=True, slots=True)
class PairedStat:
    """One yes/no figure compared between the baseline and the variant."""

    #: what is compared: ``win``, ``seat.2``, ``reason.sunk``
    what: str
    games: int
    base_rate: float
    variant_rate: float
    #: variant minus baseline
    diff: float
    #: the 95% interval of ``diff`` (paired when the seeds match, else Newcombe's)
    ci95: tuple[float, float]
    #: the 95% interval two independent runs of this size would give (Newcombe's)
    unpaired_ci95: tuple[float, float]
    #: games won (had) by the baseline only, by the variant only
    base_only: int
    variant_only: int
    #: McNemar's exact test when paired, else the two-proportion z test
    p_value: float
    #: games per run for a 95% interval of ±precision: paired, and two independent runs
    games_needed: int
    games_needed_unpaired: int

    def to_json(self) -> PairedStatJSON:
        """JSON-ready data."""
        return {
            "what": self.what,
            "games": self.games,
            "base_rate": self.base_rate,
            "variant_rate": self.variant_rate,
            "diff": self.diff,
            "ci95": list(self.ci95),
            "unpaired_ci95": list(self.unpaired_ci95),
            "base_only": self.base_only,
            "variant_only": self.variant_only,
            "p_value": self.p_value,
            "games_needed": self.games_needed,
            "games_needed_unpaired": self.games_needed_unpaired,
        }

    @classmethod
    def from_json(cls, data: PairedStatJSON) -> PairedStat:
        """The stat of its JSON form (:meth:`to_json`)."""
        lo, hi = data["ci95"]
        ulo, uhi = data["unpaired_ci95"]
        return cls(
            data["what"],
            data["games"],
            data["base_rate"],
            data["variant_rate"],
            data["diff"],
            (lo, hi),
            (ulo, uhi),
            data["base_only"],
            data["variant_only"],
            data["p_value"],
            data["games_needed"],
            data["games_needed_unpaired"],
        )

    @property
    def width(self) -> float:
        """The width of :attr:`ci95`."""
        return self.ci95[1] - self.ci95[0]

    @property
    def unpaired_width(self) -> float:
        """The width of :attr:`unpaired_ci95`."""
        return self.unpaired_ci95[1] - self.unpaired_ci95[0]


def compare_binary(
    what: str,
    base: Sequence[bool],
    variant: Sequence[bool],
    *,
    paired: bool = True,
    precision: float = DEFAULT_PRECISION,
) -> PairedStat:
    """Compare one yes/no figure: ``base[i]`` and ``variant[i]`` are game ``i`` of each run.

    ``paired`` says the runs share their seeds game by game; otherwise (or when their
    lengths differ) they are compared as independent samples.
    """
    n1, n2 = len(base), len(variant)
    s1, s2 = sum(base), sum(variant)
    p1 = s1 / n1 if n1 else 0.0
    p2 = s2 / n2 if n2 else 0.0
    d_un, lo_un, hi_un = newcombe_interval(s1, n1, s2, n2)
    need_un = games_for_half_width(p1 * (1 - p1) + p2 * (1 - p2), precision)
    paired = paired and n1 == n2
    b = sum(1 for x, y in zip(base, variant, strict=False) if x and not y) if paired else 0
    c = sum(1 for x, y in zip(base, variant, strict=False) if y and not x) if paired else 0
    if paired:
        diff, lo, hi = paired_difference_interval(b, c, n1)
        p_value = mcnemar_exact_p(b, c)
        var = (b + c) / n1 - diff * diff if n1 else 0.0
        # no discordant game yet: the independent variance is the conservative bound
        need = games_for_half_width(var if var > 0 else p1 * (1 - p1) + p2 * (1 - p2), precision)
    else:
        diff, lo, hi = d_un, lo_un, hi_un
        pooled = (s1 + s2) / (n1 + n2) if n1 + n2 else 0.0
        se = math.sqrt(pooled * (1 - pooled) * (1 / max(n1, 1) + 1 / max(n2, 1)))
        p_value = normal_two_sided_p(diff / se) if se > 0 else 1.0
        need = need_un
    return PairedStat(
        what,
        min(n1, n2),
        p1,
        p2,
        diff,
        (lo, hi),
        (lo_un, hi_un),
        b,
        c,
        p_value,
        need,
        need_un,
    )


def _won_by(seat: int) -> Callable[[GameResult], bool]:
    return lambda r: seat in r.winners


def _ended_by(reason: str) -> Callable[[GameResult], bool]:
    return lambda r: r.reason == reason


def _figures(game: Game[Any]) -> list[tuple[str, Callable[[GameResult], bool]]]:
    """The yes/no figures of a game: the team's win (or each seat's), then each end reason."""
    figures: list[tuple[str, Callable[[GameResult], bool]]] = []
    win = game.info.win_reason
    if game.info.utility is Utility.COOPERATIVE and win is not None:
        figures.append(("win", lambda r: r.reason == win))
    else:
        for seat in range(game.num_seats):
            figures.append((f"seat.{seat + 1}", _won_by(seat)))
    for reason in game.info.end_reasons:
        if reason == win and figures[0][0] == "win":
            continue  # the team's win already
        figures.append((f"reason.{reason}", _ended_by(reason)))
    return figures


def compare_results(
    game: Game[Any],
    base: Sequence[GameResult],
    variant: Sequence[GameResult],
    *,
    precision: float = DEFAULT_PRECISION,
) -> Comparison:
    """Every figure of ``game`` compared between two runs, as JSON-ready data."""
    paired = len(base) == len(variant) and all(
        a.seed == b.seed for a, b in zip(base, variant, strict=True)
    )
    stats = [
        compare_binary(
            what,
            [f(r) for r in base],
            [f(r) for r in variant],
            paired=paired,
            precision=precision,
        )
        for what, f in _figures(game)
    ]
    return {
        "paired": paired,
        "games": min(len(base), len(variant)),
        "precision": precision,
        "confidence": 0.95,
        "z": Z95,
        "figures": [s.to_json() for s in stats],
    }


def stats_of(comparison: Comparison) -> list[PairedStat]:
    """The :class:`PairedStat` of a :func:`compare_results` answer."""
    return [PairedStat.from_json(f) for f in comparison["figures"]]
