"""Information-Set Monte Carlo Tree Search for any game of the core.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, 2012): every iteration samples one world
consistent with the bot's view (the game's :meth:`~subtable.core.game.Game.determinize`, which
reads only the typed view), descends one shared tree of action ids using UCB1 with *availability
counts* (a child's exploration term counts the iterations in which it was legal, not its
parent's visits), expands one node, plays the world out with a rollout policy and backs up
``state.returns()``, a vector with one reward per seat: each node keeps the total of the seat
that chose the action leading to it, so the same code serves cooperative teams of 3-8 seats and
competitive tables.

Chance lives in the world's generator, which every sample reseeds, so the tree is an open-loop
tree over action sequences; availability counts absorb the legal sets that chance changes.

Enhancements (each optional): the game's expert (:mod:`subtable.bots.experts`) plays the
rollouts and narrows each node to its ``width`` favourite actions — for Red November only at a
turn's first decision (the first steps of its best tasks) and at event choices, so the tree
branches where a plan is chosen; a rollout stops ``depth`` decisions in, at the first position
the game's fitted value model can judge, whose estimate replaces the returns; and root options
are *paired*: each sampled world is copied once per root option (common random numbers: the same
deck order and dice for every option), which makes the comparison between options far less
noisy.

Parameters: :mod:`subtable.bots.ismcts_params`; docs/strength.md says how the search plays.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator
from typing import Any

from pydantic import BaseModel

from subtable.bots.base import Observation, finish, flag
from subtable.bots.heuristic import DEFAULT_SEARCH_BUDGET, search_hooks
from subtable.bots.ismcts_params import ISMCTSParams
from subtable.bots.paired import overrule, race, undecided
from subtable.core.actions import Action
from subtable.core.errors import OptionError
from subtable.core.game import Game, State
from subtable.core.rng import Rng
from subtable.core.view import SeatView

#: racing: the first check after this many worlds, then one every so many
_RACE_START, _RACE_EVERY = 8, 4


class _Node:
    __slots__ = ("avail", "children", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat that chose the action leading here
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


class ISMCTSBot:
    """Single-observer ISMCTS with availability counts."""

    name = "ismcts"
    params = frozenset(ISMCTSParams.model_fields)

    @staticmethod
    def param_model(game: Game[Any]) -> type[BaseModel]:
        """The parameters' types and ranges (the same at every game)."""
        return ISMCTSParams

    def __init__(
        self,
        game: Game[Any],
        seat: int,
        rng: Rng,
        *,
        budget: int | None = None,
        ms: float | None = None,
        c: float = 0.7,
        rollout: str = "heuristic",
        width: int = 4,
        depth: int | None = None,
        bias: float = 0.0,
        paired: bool = True,
        z: float = 1.0,
        race: float = 2.0,
        effort: bool = True,
        start: float | None = None,
        expand: bool = True,
        turns: int = 1,
        widen: float | None = None,
        walk: bool | None = None,
        extend: float | None = None,
        stratify: bool = False,
    ) -> None:
        if rollout not in ("heuristic", "random"):
            raise OptionError(
                f"ismcts rollout must be heuristic or random, not {rollout!r}",
                code="bad_bot_param",
                params={"rollout": rollout},
            )
        self.game = game
        self.seat = seat
        self.rng = rng
        self.ms = ms
        self.c = float(c)
        self.width = int(width)
        walking = None if walk is None else flag(walk)
        self.hooks = search_hooks(game, walk=walking) if rollout == "heuristic" else None
        if budget is None:  # the expert's advice, or 100
            budget = self.hooks.search_budget if self.hooks is not None else DEFAULT_SEARCH_BUDGET
        self.budget = max(1, int(budget))
        if depth is None:  # the expert's advice, or 10
            depth = self.hooks.rollout_depth if self.hooks is not None else 10
        self.depth = int(depth)
        self.bias = float(bias)
        self.paired = flag(paired)
        self.z = float(z)
        self.race = float(race)
        self.effort = flag(effort)
        #: the effort at a turn's first decision (``None``: the expert's own)
        self.start = None if start is None else float(start)
        self.expand = flag(expand)
        self.turns = max(1, int(turns))
        if widen is None:  # the expert's advice, or none
            widen = self.hooks.search_widen if self.hooks is not None else 0.0
        self.widen = float(widen)
        if extend is None:  # the expert's advice, or none
            extend = self.hooks.search_extend if self.hooks is not None else 1.0
        self.extend = max(1.0, float(extend))
        self.stratify = flag(stratify)
        if not game.can_determinize:
            raise OptionError(
                f"{game.info.title} cannot sample states from a view: ismcts cannot play it",
                code="unknown_bot",
                params={"bot": "ismcts", "game": game.info.name},
            )
        #: iterations run by the last decision (for benchmarks)
        self.last_iterations = 0
        #: the most iterations a decision may take, effort included (a server's ceiling)
        self.ceiling: int | None = None

    # ---------------------------------------------------------------- policy --
    def _rollout_action(self, state: State[Any], ids: list[int]) -> int:
        if self.hooks is not None:
            return self.hooks.act(state, ids, self.rng)
        return ids[self.rng.below(len(ids))]

    def _options(self, state: State[Any], ids: list[int]) -> list[int]:
        """The actions the tree considers here: the expert's favourites (its choice
        first), or every legal action."""
        if self.hooks is None or self.width <= 0:
            return ids
        return self.hooks.candidates(state, ids, self.width)

    # ---------------------------------------------------------------- search --
    def _action(self, action_id: int) -> Action:
        action: Action = self.game.action_space[action_id]
        return action

    def choose(self, obs: Observation) -> Action:
        """After the search: with the expert and paired sampling, its choice unless the search
        is sure of a better one (``z``); otherwise the most visited legal action."""
        return finish(self.think(obs))

    def think(self, obs: Observation) -> Generator[int, None, Action]:
        """:meth:`choose` as a search that can be paused: it yields the iterations run so far
        after every iteration and returns the chosen action. However it is sliced, it
        draws the same numbers and chooses the same action (the web table's bots think a
        slice at a time, in turn with other tables')."""
        legal = obs.legal_actions
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        view = obs.view
        root = _Node(-1)
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000
        iterations = 0
        sample = self._sampler(view)
        first = sample()
        # the sampled world must offer the seat its own legal set; keep to it regardless
        legal_set = set(obs.legal_ids)
        root_options = [a for a in self._options(first, first.legal_action_ids()) if a in legal_set]
        if len(root_options) <= 1:
            self.last_iterations = 0
            return self._action(root_options[0]) if root_options else legal[0]
        world = first
        seat = obs.seat
        paired_returns: dict[int, list[float]] = {a: [] for a in root_options}
        racing = self.race > 0 and self.paired and self.hooks is not None and self.width > 0
        budget = self.budget
        if self.effort and self.hooks is not None:
            budget = round(budget * self.hooks.effort(view, self.start))
        budget = budget if self.ceiling is None else min(budget, self.ceiling)
        # with racing, the budget is counted in worlds (each option's share of it), and
        # while the choice is open, it runs on to ``extend`` times that (within the ceiling)
        worlds_budget = -(-budget // len(root_options))
        worlds_most = math.ceil(worlds_budget * self.extend)
        if self.ceiling is not None:
            worlds_most = min(worlds_most, max(worlds_budget, self.ceiling // len(root_options)))
        active = list(root_options)
        worlds = 0
        while True:
            if self.paired:  # every root option on a copy of the same world
                for _ in self.play_world(root, world, active, seat, paired_returns):
                    iterations += 1
                    yield iterations
                worlds += 1
                if racing and worlds >= _RACE_START and worlds % _RACE_EVERY == 0:
                    active = race(active, paired_returns, self.race)
                    if len(active) == 1:  # every alternative is surely worse: done
                        break
            else:
                self._iterate(root, world)
                iterations += 1
                yield iterations
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif not racing:
                if iterations >= budget:
                    break
            elif worlds >= worlds_most or (
                worlds >= worlds_budget and not undecided(active, paired_returns, self.z)
            ):
                break
            world = sample()
        self.last_iterations = iterations
        if self.paired and self.hooks is not None and self.width > 0:
            return self._action(overrule(root_options, paired_returns, self.z))
        best = max(
            (a for a in root.children if a in legal_set),
            key=lambda a: (root.children[a].visits, root.children[a].reward),
            default=None,
        )
        if best is None:
            return legal[0]
        return self._action(best)

    def _sampler(self, view: SeatView) -> Callable[[], State[Any]]:
        """Worlds drawn from ``view`` one after another: with ``stratify``, each cycle of
        :meth:`~subtable.core.game.Game.strata` worlds takes every stratum once, in an
        order drawn from the bot's generator."""
        strata = self.game.strata(view) if self.stratify else 0
        order: list[int] = []

        def sample() -> State[Any]:
            if strata < 2:
                return self.game.determinize(view, self.rng)
            if not order:
                order.extend(range(strata))
                self.rng.shuffle(order)
            return self.game.determinize(view, self.rng, order.pop())

        return sample

    def play_world(
        self,
        root: _Node,
        world: State[Any],
        options: list[int],
        seat: int,
        returns: dict[int, list[float]],
    ) -> Generator[None, None, None]:
        """Play each root option once on its own copy of ``world`` (common random numbers:
        the same deck order and dice for every option), adding ``seat``'s return of each to
        ``returns``; yields after each option."""
        for option in options:
            returns[option].append(self._iterate(root, world.clone(), option)[seat])
            yield

    def compare(
        self, view: SeatView, seat: int, options: list[int], worlds: int
    ) -> dict[int, list[float]]:
        """Each of ``options`` (legal root actions of ``seat``) played on the same ``worlds``
        sampled from ``view`` (the first drawn now, each later one after the last is
        played): ``seat``'s return in every world, by option. Reads nothing but the view."""
        return finish(self.comparing(view, seat, options, worlds))

    def comparing(
        self, view: SeatView, seat: int, options: list[int], worlds: int
    ) -> Generator[int, None, dict[int, list[float]]]:
        """:meth:`compare` as a search that can be paused: it yields the playouts run so far
        after each one (the web table's advice thinks a slice at a time, in turn with the
        bots of other tables); however it is sliced, it draws the same numbers."""
        root = _Node(-1)
        returns: dict[int, list[float]] = {a: [] for a in options}
        played = 0
        for _ in range(worlds):
            world = self.game.determinize(view, self.rng)
            for _ in self.play_world(root, world, options, seat, returns):
                played += 1
                yield played
        return returns

    def _iterate(self, root: _Node, state: State[Any], first: int = -1) -> list[float]:
        """One iteration; returns the vector backed up."""
        node = root
        path = [root]
        c = self.c
        if first >= 0:  # the root option is given (paired sampling: one per world each)
            given = root.children.get(first)
            if given is None:
                seat = state.current_seat()
                given = root.children[first] = _Node(0 if seat is None else seat)
            given.avail += 1
            state.apply_unchecked(first)
            path.append(given)
            node = given
            if given.visits == 0 or not self.expand:
                return self._back_up(path, state)
        while not state.is_terminal():
            seat = state.current_seat()
            assert seat is not None
            ids = state.legal_action_ids()
            children = node.children
            options: list[int] = []  # progressive widening: at a full node, its children legal here
            full = self.widen > 0 and len(children) >= 1 + self.widen * math.sqrt(node.visits)
            if full and len(ids) > 1:
                options = [a for a in children if a in ids]
                if not options:  # none is legal in this world: the rollout plays on from here
                    break
            ranked = not options  # the expert's favourites, its choice first
            if ranked:
                options = self._options(state, ids) if len(ids) > 1 else ids
                if len(options) == 1:  # forced (or the expert's only idea): no tree node
                    state.apply_unchecked(options[0])
                    continue
            untried = [a for a in options if a not in children]
            for a in options:
                known = children.get(a)
                if known is not None:
                    known.avail += 1
            if untried:  # the expert's choice first, then at random (widening: by rank)
                if (
                    self.hooks is not None
                    and self.width > 0
                    and (self.widen or untried[0] == options[0])
                ):
                    action = untried[0]
                else:
                    action = untried[self.rng.below(len(untried))]
                child = _Node(seat)
                child.avail = 1
                children[action] = child
                state.apply_unchecked(action)
                path.append(child)
                break
            best_score = -math.inf
            action = options[0]
            favourite = options[0] if ranked and self.hooks is not None and self.width > 0 else -1
            for a in options:
                ch = children[a]
                score = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if a == favourite:  # progressive bias towards the expert's choice
                    score += self.bias / (1 + ch.visits)
                if score > best_score:
                    best_score, action = score, a
            node = children[action]
            state.apply_unchecked(action)
            path.append(node)
        return self._back_up(path, state)

    def _back_up(self, path: list[_Node], state: State[Any]) -> list[float]:
        """Play ``state`` out and add its returns to every node of ``path``."""
        returns = self._playout(state)
        for n in path:
            n.visits += 1
            if n.seat >= 0:
                n.reward += returns[n.seat]
        return returns

    def _playout(self, state: State[Any]) -> list[float]:
        steps = 0
        limit = self.depth
        passed = 0  # the positions the leaf could judge, passed by (``turns``)
        while not state.is_terminal():
            if limit and steps >= limit and self.hooks is not None:
                if passed + 1 < self.turns:
                    if self.hooks.judges(state):
                        passed += 1
                else:
                    value = self.hooks.evaluate(state)
                    if value is not None:
                        return value
            ids = state.legal_action_ids()
            state.apply_unchecked(ids[0] if len(ids) == 1 else self._rollout_action(state, ids))
            steps += 1
        return state.returns()
