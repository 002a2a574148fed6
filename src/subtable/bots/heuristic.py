"""The ``heuristic`` bot: one name, each game's expert (:mod:`subtable.bots.experts`).

:class:`SearchHooks` lends the same expert to a search bot: it plays the
rollouts, narrows a node to its favourite actions and judges leaf positions,
each time reading the sampled world through the deciding seat's view.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from subtable.bots.base import Observation
from subtable.bots.experts import (
    Expert,
    expert_param_model,
    expert_params,
    has_expert,
    make_expert,
)
from subtable.core.actions import Action
from subtable.core.game import Game, State
from subtable.core.rng import Rng
from subtable.core.view import SeatView

#: a search bot's iterations per decision when neither the seat nor the expert says
DEFAULT_SEARCH_BUDGET = 100
#: how many of the expert's favourites a mistake picks among (its first choice excluded)
_MISTAKE_WIDTH = 3
#: how many sets of candidates a search's hooks remember before forgetting them all (a
#: decision asks about 130 times on average; each key holds a view of about 3 KB)
_GIVEN_MOST = 1024


#: the heuristic bot's own parameter, beside its expert's weights
MISTAKES = "mistakes"


class _ExpertParams:
    """The class attribute ``HeuristicBot.params``: every expert's weights, looked up
    (and the experts imported) only when asked, and ``mistakes``."""

    def __get__(self, obj: object, owner: type | None = None) -> frozenset[str]:
        return expert_params() | {MISTAKES}


class HeuristicBot:
    """Plays the expert registered for the game (``OptionError`` if there is none)."""

    name = "heuristic"
    #: the tuning weights of the experts (``red_november.Params``, ``submarine.SubParams``…)
    params = _ExpertParams()

    def __init__(self, game: Game[Any], seat: int, rng: Rng, **params: Any) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng
        #: the share of decisions with alternatives where it plays one of the expert's
        #: other favourites instead of its first choice (0: never; a weaker bot, ``easy``)
        self.mistakes = float(params.pop(MISTAKES, 0.0))
        self._expert: Expert[Any] = make_expert(game, **params)

    @staticmethod
    def param_model(game: Game[Any]) -> type[BaseModel]:
        """The weights of ``game``'s expert, typed as its parameters' dataclass says
        (another game's weights are ignored), and ``mistakes`` (0 to 1)."""
        return expert_param_model(game, mistakes=(float, Field(0.0, ge=0.0, le=1.0)))

    def _action(self, action_id: int) -> Action:
        action: Action = self.game.action_space[action_id]
        return action

    def choose(self, obs: Observation) -> Action:
        """The expert's action for this observation."""
        ids = obs.legal_ids
        if len(ids) == 1:
            return self._action(ids[0])
        expert = self._expert
        board = expert.board(obs.view)
        if self.mistakes and self.rng.below(1_000_000) < self.mistakes * 1_000_000:
            favourites = expert.candidates(board, obs.seat, ids, _MISTAKE_WIDTH, self.rng)
            if len(favourites) > 1:
                return self._action(favourites[1 + self.rng.below(len(favourites) - 1)])
        chosen = expert.choose(board, obs.seat, ids, self.rng)
        return self._action(chosen)


class SearchHooks:
    """What a search bot borrows from a game's expert, working on a sampled state.

    The expert sees a sampled world as the deciding seat would: through
    ``state.observe(seat)``.
    """

    def __init__(
        self, game: Game[Any], expert: Expert[Any] | None = None, *, walk: bool | None = None
    ) -> None:
        self.game = game
        self._expert: Expert[Any] = expert if expert is not None else make_expert(game)
        if walk is None:  # the expert's advice (its ``search_walk``; on without one)
            walk = bool(getattr(self._expert, "search_walk", True))
        #: the last board read: (state, its history length, seat, board) — a rollout asks
        #: for the leaf value and then the move at the same position
        self._last: tuple[State[Any], int, int, Any] | None = None
        #: what the expert carries to the next decision of a world: (state, its history
        #: length then, the action it goes with, the note) — the state is held, so its id
        #: is not reused
        self._carried: tuple[State[Any], int, int, Any] | None = None
        #: the expert's optional ``walk`` (see :meth:`_walking`) and ``judges`` (see
        #: :meth:`judges`), looked up once: rollouts ask at every decision
        self._walk: Any = getattr(self._expert, "walk", None) if walk else None
        self._judges: Any = getattr(self._expert, "judges", None)
        #: the candidates already given, by what they are a function of (see :meth:`candidates`),
        #: where the expert advises it (its ``search_memo``: positions repeat across worlds)
        self._given: dict[tuple[Any, ...], list[int]] = {}
        self._memo = self._walk is None and bool(getattr(self._expert, "search_memo", False))

    @property
    def rollout_depth(self) -> int:
        """The expert's advice on rollout depth (its ``rollout_depth``; 10 without one)."""
        return int(getattr(self._expert, "rollout_depth", 10))

    @property
    def search_budget(self) -> int:
        """The expert's advice on a search's iterations per decision (100 without one)."""
        return int(getattr(self._expert, "search_budget", DEFAULT_SEARCH_BUDGET))

    @property
    def search_widen(self) -> float:
        """The expert's advice on a search's progressive widening (0, none, without one)."""
        return float(getattr(self._expert, "search_widen", 0.0))

    @property
    def search_extend(self) -> float:
        """The expert's advice on how far past its budget a search plays on while its
        choice is open (its ``search_extend``, a multiple of the budget; 1, never, without one)."""
        return float(getattr(self._expert, "search_extend", 1.0))

    def effort(self, view: SeatView, start: float | None = None) -> float:
        """The expert's advice on how many times its budget a search should spend at the
        position ``view`` shows (its ``search_effort``: more where the game is in the
        balance; 1 without one). Read from the deciding seat's view alone. ``start``, where
        given, is what a search asks at a turn's first decision instead of the expert's own
        figure (an expert that tells turn starts apart takes it)."""
        advise = getattr(self._expert, "search_effort", None)
        if advise is None:
            return 1.0
        board = self._expert.board(view)
        return max(1.0, float(advise(board) if start is None else advise(board, start)))

    def _board(self, state: State[Any], seat: int) -> Any:
        last = self._last
        moves = len(state.history)
        if last is not None and last[0] is state and last[1] == moves and last[2] == seat:
            return last[3]  # the same position (the state is held, so its id is not reused)
        board = self._expert.board(state.observe(seat))
        self._last = (state, moves, seat, board)
        return board

    def _walking(
        self, state: State[Any], board: Any, ids: list[int], width: int
    ) -> list[int] | None:
        """The expert's ``width`` favourite actions where it follows a walk (its optional
        ``walk``), handed what it carried from the previous decision of this same world when
        only the first of that decision's actions has been played since; ``None`` where it
        does not walk."""
        walk = self._walk
        if walk is None:
            return None
        history = state.history
        carried = self._carried
        note = None
        if carried is not None and carried[0] is state and carried[1] == len(history):
            note = carried[3] if history[-1] == carried[2] else None
        walked = walk(board, ids, width, note)
        if walked is None:
            self._carried = None
            return None
        actions, note = walked
        self._carried = None if note is None else (state, len(history) + 1, actions[0], note)
        return [int(a) for a in actions]

    def act(self, state: State[Any], ids: list[int], rng: Rng) -> int:
        """The expert's action in a (sampled) state."""
        seat = _decider(state)
        board = self._board(state, seat)
        walked = self._walking(state, board, ids, 1)
        if walked is not None:
            return walked[0]
        return int(self._expert.choose(board, seat, ids, rng))

    def candidates(self, state: State[Any], ids: list[int], width: int) -> list[int]:
        """The expert's ``width`` favourite actions (its choice first).

        Without walks they are a function of the seat's board, the legal actions, the width
        and the history's length (the expert's generator). Where the expert advises it
        (``search_memo``), they are remembered by those: a search's worlds differ in what the
        seat cannot see, and the deciding seat's position may repeat from world to world."""
        seat = _decider(state)
        board = self._board(state, seat)
        if self._memo:
            moves = len(state.history)
            key = (board, seat, tuple(ids), width, moves)
            given = self._given.get(key)
            if given is None:
                if len(self._given) >= _GIVEN_MOST:
                    self._given.clear()
                given = self._given[key] = self._expert.candidates(
                    board, seat, ids, width, Rng(moves)
                )
            return list(given)
        walked = self._walking(state, board, ids, width)
        if walked is not None:
            return walked
        return self._expert.candidates(board, seat, ids, width, Rng(len(state.history)))

    def evaluate(self, state: State[Any]) -> list[float] | None:
        """An estimate of each seat's return, or ``None`` to play on."""
        return self._expert.evaluate(self._board(state, _decider(state)))

    def judges(self, state: State[Any]) -> bool:
        """Whether :meth:`evaluate` gives an estimate at ``state`` (the expert's optional
        ``judges``; else it is asked for one)."""
        board = self._board(state, _decider(state))
        if self._judges is None:
            return self._expert.evaluate(board) is not None
        return bool(self._judges(board))


def _decider(state: State[Any]) -> int:
    seat = state.current_seat()
    if seat is None:
        raise ValueError("the game is over: nobody decides")
    return seat


def search_hooks(game: Game[Any], *, walk: bool | None = None) -> SearchHooks | None:
    """The expert's hooks for ``game`` (``None`` when it has no expert); ``walk``: whether
    rollouts follow the expert's walks (``None``: as the expert advises)."""
    return SearchHooks(game, walk=walk) if has_expert(game.info.name) else None
