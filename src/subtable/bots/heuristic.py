"""The ``heuristic`` bot: one name, a hand-written expert for each game."""

from __future__ import annotations

from typing import Any

from subtable.bots.base import Observation
from subtable.bots.rn_heuristic import Board, Params, RNExpert
from subtable.bots.sub_heuristic import SubExpert, SubParams
from subtable.core.actions import Action
from subtable.core.errors import OptionError
from subtable.core.game import Game, State
from subtable.core.rng import Rng


class HeuristicBot:
    """Dispatches on ``game.info.name`` to that game's expert policy."""

    name = "heuristic"
    #: the tuning weights of the experts (``rn_heuristic.Params``, ``sub_heuristic.SubParams``)
    params = frozenset({*Params.__dataclass_fields__, *SubParams.__dataclass_fields__})

    def __init__(self, game: Game[Any], seat: int, rng: Rng, **params: Any) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng
        name = game.info.name
        if name == "red-november":
            known = set(Params.__dataclass_fields__)
            self._policy: Any = RNExpert(game, Params(**{k: v for k, v in params.items()
                                                          if k in known}))
            self._board: Any = lambda view: Board.from_public(view["public"])
        elif name == "submarine":
            known = set(SubParams.__dataclass_fields__)
            self._policy = SubExpert(game, SubParams(**{k: v for k, v in params.items()
                                                         if k in known}))
            self._board = self._policy.board_from_view
        else:
            raise OptionError(f"no heuristic bot for {name}", code="unknown_bot",
                              params={"bot": "heuristic", "game": name})

    def choose(self, obs: Observation) -> Action:
        """The expert's action for this observation."""
        ids = obs.legal_ids
        if len(ids) == 1:
            return self.game.action_space[ids[0]]
        board = self._board(obs.view)
        chosen = self._policy.choose(board, obs.seat, ids, self.rng)
        return self.game.action_space[chosen]


class SearchHooks:
    """What a search bot borrows from a game's expert, working on a sampled state."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        if game.info.name == "red-november":
            self._expert: Any = RNExpert(game)
            self._board: Any = Board.from_state
        else:
            self._expert = SubExpert(game)
            self._board = self._expert.board_from_state

    def act(self, state: State[Any], ids: list[int], rng: Rng) -> int:
        """The expert's action in a (sampled) state."""
        seat = state.current_seat()
        return int(self._expert.choose(self._board(state), seat, ids, rng))

    def candidates(self, state: State[Any], ids: list[int], width: int) -> list[int]:
        """The expert's ``width`` favourite actions (its choice first)."""
        seat = state.current_seat()
        out: list[int] = self._expert.candidates(self._board(state), seat, ids, width,
                                                 Rng(len(state.history)))
        return out

    def evaluate(self, state: State[Any]) -> list[float] | None:
        """An estimate of each seat's return, or ``None`` to play on."""
        fn = getattr(self._expert, "evaluate", None)
        return None if fn is None else fn(self._board(state))


def search_hooks(game: Game[Any]) -> SearchHooks | None:
    """The expert's hooks for ``game`` (``None`` when it has no expert)."""
    if game.info.name not in ("red-november", "submarine"):
        return None
    return SearchHooks(game)
