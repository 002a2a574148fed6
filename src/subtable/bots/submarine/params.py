"""The Submarine expert's tunable weights (in "treasure points")."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class SubParams:
    """Tunable weights (in "treasure points")."""

    #: a treasure type the seat lacks
    new_value: float = 10.0
    #: a joker (a shell, or a duplicate treasure)
    joker_value: float = 3.0
    #: a search card, before its colour's demand
    card_value: float = 3.0
    #: each toll card: lost, and given to an opponent (extra weight)
    toll_weight: float = 1.5
    #: how much a cell reachable only next sweep is worth, relative to this sweep
    route_weight: float = 0.6
    #: the value of ending the game as the winner (and minus it as a loser)
    end_weight: float = 60.0
