"""Ask the expert: the best few options of a decision, each with its chance of winning.

:func:`advise` reads one seat's view and nothing else. The game's expert
(:mod:`subtable.bots.experts`) names the options worth comparing; the ``ismcts`` search
(:meth:`ISMCTSBot.compare <subtable.bots.ismcts.ISMCTSBot.compare>`) plays each of them on
the same worlds sampled from the view (common random numbers), its rollouts and leaf values
those of the expert, and each option's chance is its mean return over those worlds — the
team's in a cooperative game, the seat's own otherwise — with a 95% interval. The work is an
iteration budget, never the clock, and every draw comes from a generator seeded with
``seed``: the same view, legal set, seed and budget give the same advice, byte for byte.

Each option carries one reason (a key and parameters) from the expert's ``reason`` method,
which the table translates (``<game>.advice.<key>``, see each game's ``bots/<game>/advice.py``).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from subtable.bots.base import finish
from subtable.bots.experts import has_expert, make_expert
from subtable.bots.ismcts import ISMCTSBot
from subtable.core.errors import OptionError
from subtable.core.game import Game, Utility
from subtable.core.rng import Rng
from subtable.core.view import SeatView

#: how many options advice lists when not told
ADVICE_TOP = 3
#: iterations of search behind one piece of advice when not told (split among the options)
ADVICE_BUDGET = 400
#: the two-sided 95% normal quantile
_Z95 = 1.959964
#: options compared beyond those listed, so that a strong fourth can overtake the third
_SPARE = 1


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an option is worth playing: a key the table translates and its parameters."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AdviceOption:
    """One option of the advice."""

    action: int
    notation: str
    #: the estimated chance of winning after it (the team's in a cooperative game)
    chance: float
    #: its standard error and 95% interval over the sampled worlds
    se: float
    low: float
    high: float
    #: the sampled worlds it was played in
    worlds: int
    #: whether it is the expert's own first choice
    expert: bool
    reason: Reason

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "action": self.action,
            "notation": self.notation,
            "chance": self.chance,
            "se": self.se,
            "low": self.low,
            "high": self.high,
            "worlds": self.worlds,
            "expert": self.expert,
            "reason": {"key": self.reason.key, "params": self.reason.params},
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """The expert's best options for one seat's decision, best first."""

    game: str
    seat: int
    #: the chances are the team's (a cooperative game) rather than the seat's own
    team: bool
    options: tuple[AdviceOption, ...]
    #: the search's iterations (``budget``) and the generator's seed
    budget: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (what the web table sends)."""
        return {
            "game": self.game,
            "seat": self.seat,
            "team": self.team,
            "budget": self.budget,
            "seed": self.seed,
            "options": [o.to_json() for o in self.options],
        }


def can_advise(game: Game[Any]) -> bool:
    """Whether :func:`advise` works for ``game`` (an expert and sampled worlds)."""
    return has_expert(game.info.name) and game.can_determinize


def advise(
    game: Game[Any],
    view: SeatView,
    legal_ids: Sequence[int],
    *,
    seed: int,
    budget: int = ADVICE_BUDGET,
    top: int = ADVICE_TOP,
) -> Advice:
    """The ``top`` best of ``legal_ids`` for the seat of ``view``, by estimated chance of
    winning (see the module's doc). Raises :class:`OptionError` for a game without an
    expert or sampled worlds, ``ValueError`` for a spectator's view or no legal action."""
    return finish(advising(game, view, legal_ids, seed=seed, budget=budget, top=top))


def advising(
    game: Game[Any],
    view: SeatView,
    legal_ids: Sequence[int],
    *,
    seed: int,
    budget: int = ADVICE_BUDGET,
    top: int = ADVICE_TOP,
) -> Generator[int, None, Advice]:
    """:func:`advise` as a search that can be paused: it yields the playouts run so far
    and returns the advice, the same however it is sliced (the web table thinks a slice at
    a time, in turn with other tables' bots)."""
    if not can_advise(game):
        raise OptionError(
            f"no advice for {game.info.title}",
            code="no_advice",
            params={"game": game.info.name},
        )
    seat = view.seat
    if seat is None:
        raise ValueError("advice is for a seat, not a spectator")
    legal = sorted(set(legal_ids))
    if not legal:
        raise ValueError("there is no decision to advise on")
    budget = max(1, int(budget))
    expert = make_expert(game)
    board = expert.board(view)
    width = max(1, top) + _SPARE
    pick = getattr(expert, "advice_candidates", None)
    if pick is not None:
        options = list(pick(board, seat, legal, width))
    else:
        options = expert.candidates(board, seat, legal, width, Rng(seed))
    options = [a for a in dict.fromkeys(options) if a in set(legal)] or legal[:1]
    favourite = options[0]
    search = ISMCTSBot(game, seat, Rng(seed), race=0.0)
    worlds = -(-budget // len(options))
    returns = yield from search.comparing(view, seat, options, worlds)
    explain = getattr(expert, "reason", None)
    space = game.action_space
    ranked: list[AdviceOption] = []
    for action in options:
        values = returns[action]
        n = len(values)
        mean = sum(values) / n
        var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        se = math.sqrt(var / n)
        key, params = explain(board, seat, action) if explain is not None else ("expert", {})
        ranked.append(
            AdviceOption(
                action=action,
                notation=space[action].notation(),
                chance=mean,
                se=se,
                low=max(0.0, mean - _Z95 * se),
                high=min(1.0, mean + _Z95 * se),
                worlds=n,
                expert=action == favourite,
                reason=Reason(key, dict(params)),
            )
        )
    # best first; among equal chances the expert's order (a stable sort keeps it)
    ranked.sort(key=lambda o: -o.chance)
    return Advice(
        game=game.info.name,
        seat=seat,
        team=game.info.utility == Utility.COOPERATIVE,
        options=tuple(ranked[: max(1, top)]),
        budget=budget,
        seed=seed,
    )


def advice_seed(view: SeatView) -> int:
    """A seed that depends on the view alone (the same position gives the same advice)."""
    text = json.dumps(view.to_json(), sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
