"""The parameters of :mod:`subtable.bots.ismcts`, their types and ranges.

Parameters (``make_bot("ismcts", game, seat, rng, **params)`` or ``--bot ismcts:key=value``):
``budget`` iterations per decision (the expert's ``search_budget``: 200 for Red November and
Submarine; 100 without an expert), or ``ms`` milliseconds per decision; ``rollout`` ``"heuristic"``
(default) or ``"random"`` (no expert: every legal action, random playouts to the end); ``c`` the
UCB constant (0.7); ``width`` (4; 0 for every legal action); ``depth`` (the expert's
``rollout_depth``: 2 for Red November, 10 for Submarine; 10 without an expert; 0 plays to the end);
``bias`` a progressive-bias bonus ``bias / (1 + visits)`` for the expert's favourite (0);
``paired`` (true); ``z`` (1.0) how sure a paired search must be to overrule the expert: another
root option is played only if its mean advantage over the expert's choice, over the same sampled
worlds, exceeds ``z`` standard errors (picking the best of several noisy means otherwise overrules
the expert on noise); ``race`` (2.0; 0 turns it off): with paired sampling, from the 8th world on
(then every 4th), an option more than ``race`` standard errors below the expert's choice on the
same worlds is dropped, and the search stops when none is left — the budget then counts worlds,
``ceil(budget / options)``; ``effort`` (true) multiplies the budget by the expert's
``search_effort`` for the position (Red November: 4 while a Destruction token is on the Time
Track, else the expert's ``start_effort`` at a calm turn's first decision), read from the view;
``start`` (the expert's ``start_effort``) that turn-start multiplier instead; ``expand`` (true)
grows the tree below the root options — false (with paired sampling) plays each root option out
with the expert and judges it by the leaf value alone:
a flat Monte Carlo over the root options; ``turns`` (1) how many positions the leaf could judge a
rollout passes before it asks (2: the next player's turn played out by the expert first); ``widen``
(the expert's ``search_widen``: 0, off, for both games and without an expert; 1 measured in Red
November) progressive widening below the root: a node visited ``n`` times holds at most ``1 + widen
* sqrt(n)`` children, added along the expert's ranking; at a full node the tree chooses among the
children legal in the world without asking the expert for its favourites, and where none is legal
the rollout plays on from there; ``walk`` (the expert's ``search_walk``: off for Red November) a
rollout's seat walks on to its turn's task, pricing that task alone at each step; ``extend`` (the
expert's ``search_extend``; 1, off, without one) with racing, a search whose budget is spent while
the choice is open — an alternative ahead of the expert's choice on the same worlds, none surely —
plays on, up to ``extend`` times its budget; ``stratify`` (false) draws the worlds in cycles that
take each value of what the game's ``strata`` counts once (Red November: the event deck's top
card), instead of independently.
docs/strength.md says how the search plays, and docs/strength/history.md why the defaults.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class ISMCTSParams(BaseModel):
    """The parameters' types and ranges (``--bot ismcts:budget=300``)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    budget: int | None = Field(None, ge=1)
    ms: float | None = Field(None, gt=0)
    c: float = Field(0.7, ge=0)
    rollout: Literal["heuristic", "random"] = "heuristic"
    width: int = Field(4, ge=0)
    depth: int | None = Field(None, ge=0)
    bias: float = 0.0
    paired: bool = True
    z: float = 1.0
    race: float = Field(2.0, ge=0)
    effort: bool = True
    start: float | None = Field(None, ge=1)
    expand: bool = True
    turns: int = Field(1, ge=1)
    widen: float | None = Field(None, ge=0)
    walk: bool | None = None
    stratify: bool = False
    extend: float | None = Field(None, ge=1)
