"""What a training run reports (``report.json``): the held-out evaluation of the agent
beside a random player and the heuristic, the learning curve and the run's figures."""

from __future__ import annotations

from typing import Any, TypedDict


class PlayerFigures(TypedDict):
    """One player in the learning seat over the held-out deals."""

    wins: int
    games: int
    rate: float
    #: Wilson's 95% interval of ``rate``
    wilson95: list[float]
    #: the mean end score, and its normal 95% interval
    score: float
    score95: list[float]


class PairedFigures(TypedDict):
    """The agent against another player on the same deals (agent minus other)."""

    difference: float
    #: the Agresti-Min 95% interval of ``difference``
    agresti_min95: list[float]
    #: deals won by the agent only, by the other only
    agent_only: int
    other_only: int
    #: McNemar's exact test
    mcnemar_p: float
    #: the mean paired difference of the end scores, and its normal 95% interval
    score_difference: float
    score95: list[float]


class Evaluation(TypedDict):
    """The players compared on held-out deals (:func:`subtable.rl.train.compare`)."""

    #: which deals
    deals: str
    #: ``agent`` (greedy), ``agent_sampled``, ``random``, ``heuristic``
    players: dict[str, PlayerFigures]
    agent_minus_random: PairedFigures
    agent_minus_heuristic: PairedFigures
    agent_sampled_minus_random: PairedFigures
    agent_sampled_minus_heuristic: PairedFigures


def paired(evaluation: Evaluation) -> list[tuple[str, PairedFigures]]:
    """The evaluation's paired comparisons, each with its key, in the report's order."""
    e = evaluation
    return [
        ("agent_minus_random", e["agent_minus_random"]),
        ("agent_minus_heuristic", e["agent_minus_heuristic"]),
        ("agent_sampled_minus_random", e["agent_sampled_minus_random"]),
        ("agent_sampled_minus_heuristic", e["agent_sampled_minus_heuristic"]),
    ]


class TrainReport(TypedDict):
    """A training run (:func:`subtable.rl.train.train`), as ``report.json`` gives it."""

    #: the :class:`~subtable.rl.train.TrainConfig`, field by field
    config: dict[str, Any]
    steps: int
    episodes: int
    cpu_seconds: float
    wall_seconds: float
    device: str
    torch: str
    #: the imitation phase's figures (``{}``: none)
    imitation: dict[str, float]
    #: the learning curve's points (:class:`~subtable.rl.train.CurvePoint`, field by field)
    curve: list[dict[str, str | int | float]]
    evaluation: Evaluation
