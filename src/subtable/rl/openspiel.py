"""OpenSpiel: ``import subtable.rl.openspiel`` registers ``python_<game>`` for each registered
game with an encoder (``python_red_november``, ``python_submarine``; :func:`short_name`).

* Sequential, imperfect information, **sampled stochastic**: chance is the engine's own seeded
  generator, carried in the state (a state's seed is drawn from the game's ``seed`` parameter
  and a counter, so a game object deals a reproducible series of deals). The series advances
  only for the initial states a caller asks for: OpenSpiel also makes initial states inside
  ``clone()``, ``deserialize_state`` and the tensor-size queries; those give their ticket back
  (see :class:`_Series`), and the tensors and sizes are answered in Python without a deal.
* Players are seats; actions are the game's action ids.
* Parameters: the game's options, each with its default (an option the rules derive from
  others when it is not given, such as a seat count derived from the players, takes 0 for
  "not given"), and OpenSpiel's own ``seed``, ``explicit_chance`` and ``deals``.
* Utilities: 1 for a win, 0 otherwise. The game type's utility is the game's own
  (``info.utility``), or what its ``rl`` part says of a game with its options: Red November is
  ``IDENTICAL`` with 1–2 players (the whole crew wins or loses); from 3 players a seat that
  abandons the others wins exactly when they lose, so the game is then declared
  ``GENERAL_SUM``. Submarine is ``GENERAL_SUM`` (several captains may share a win).
* The observer: the observation tensor is the game's encoding (the ``encoder`` part of its
  registration; its ``dict`` holds the named fields); the observation
  string is the seat's view as canonical JSON. With ``perfect_recall`` (the information state)
  the string is prefixed with the seat's own past actions (what it knows it did beyond the
  view: a card given face down, say); the tensor is the same encoding (it does not grow with
  the history). A public-only observer (``private_info=NONE``) encodes the spectator's view.
* ``state.resample_from_infostate(player, sampler)`` samples a world from ``player``'s view with
  the game's own :meth:`~subtable.core.game.Game.determinize`; OpenSpiel's IS-MCTS uses it. The
  draw comes from a generator the game carries (seeded by ``seed``), not from ``sampler``
  (OpenSpiel's IS-MCTS passes an unseeded one), so a seeded search replays exactly.
* Serialisation: the state pickles as the engine's JSON form (secrets and generator included).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from subtable.core.game import Game, OptionSpec, State, Utility
from subtable.core.options import OptionValue
from subtable.core.registry import game_class, make_game, registrations
from subtable.core.rng import Rng
from subtable.rl.common import support
from subtable.rl.encoding import make_encoder

__all__ = [
    "SubtableGame",
    "SubtableState",
    "load",
    "register",
    "short_name",
]

_GOLDEN = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1
#: salts the game's resampling generator (apart from its series of deals)
_RESAMPLE_SALT = 0x5EED5A3B1E
#: explicit chance: the default number of deals the root chance node chooses among
DEALS = 1 << 16


@cache
def _engine_game(name: str, options: tuple[tuple[str, Any], ...]) -> Game[Any]:
    return make_game(name, **dict(options))


class _Series:
    """A game object's series of deals: the ``n``-th initial state asked for deals
    :meth:`seed` ``(n)`` (the ``n``-th output of a SplitMix64 generator seeded with ``seed``).

    OpenSpiel makes initial states of its own: ``clone()`` and ``deserialize_state`` make one
    and overwrite its attributes at once. Such a state hands its ticket back (see
    :meth:`SubtableState.__setattr__`), so the deals a caller sees do not depend on what it
    cloned, serialised or resampled.
    """

    __slots__ = ("base", "next")

    def __init__(self, base: int) -> None:
        self.base = base & _MASK
        self.next = 0

    def seed(self, n: int) -> int:
        """The engine seed of the ``n``-th deal."""
        return Rng((self.base + n * _GOLDEN) & _MASK).next64() >> 1

    def issue(self) -> int:
        """The next ticket."""
        n = self.next
        self.next = n + 1
        return n


class _Engine:
    """Holds one engine state: built lazily, copied by ``clone``, pickled as JSON.

    OpenSpiel clones a Python state by making a new initial state and deep-copying the
    attributes, and serialises it by pickling them: this holder makes both cheap and exact.
    A holder made by ``new_initial_state`` keeps its ticket in the game's :class:`_Series`
    until the state is dealt (read) or copied.
    """

    __slots__ = ("_state", "key", "seed", "series", "ticket")

    def __init__(
        self,
        key: tuple[str, tuple[tuple[str, Any], ...]],
        seed: int,
        state: Any = None,
        series: _Series | None = None,
        ticket: int = -1,
    ) -> None:
        self.key = key
        self.seed = seed
        self._state: State[Any] | None = state
        self.series = series
        self.ticket = ticket

    def give_back(self) -> None:
        """An unread holder being replaced: return its ticket if it is the last issued."""
        series = self.series
        if series is not None and self._state is None and series.next == self.ticket + 1:
            series.next = self.ticket
        self.series = None

    @property
    def game(self) -> Game[Any]:
        return _engine_game(*self.key)

    @property
    def state(self) -> State[Any]:
        if self._state is None:
            self._state = self.game.new_state(self.seed)
        return self._state

    @state.setter
    def state(self, value: State[Any]) -> None:
        self._state = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        self.series = None  # copied: the deal is someone's now, its ticket stays spent
        return _Engine(self.key, self.seed, None if self._state is None else self._state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        self.series = None
        data = None if self._state is None else json.dumps(self._state.to_json())
        return (_rebuild_engine, (self.key, self.seed, data))


def _rebuild_engine(
    key: tuple[str, tuple[tuple[str, Any], ...]], seed: int, data: str | None
) -> _Engine:
    state = None if data is None else _engine_game(*key).state_from_json(json.loads(data))
    return _Engine(key, seed, state)


class _Own(list):  # type: ignore[type-arg]
    """Per player, the actions it took; deep-copied cheaply (they are ints)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Own:
        return _Own(list(x) for x in self)


class SubtableState(pyspiel.State):  # type: ignore[misc]
    """One position of a subtable game, for OpenSpiel."""

    def __init__(self, game: SubtableGame, seed: int | None, ticket: int = -1) -> None:
        super().__init__(game)
        #: the engine state; ``None`` before the deal (``explicit_chance`` games only)
        self._eng: _Engine | None = (
            None
            if seed is None
            else _Engine(game.engine_key, seed, None, game.series if ticket >= 0 else None, ticket)
        )
        self._deals = game.deals
        #: per player: the actions it took (part of its information state)
        self._own: list[list[int]] = _Own([] for _ in range(game.num_players()))

    def __setattr__(self, name: str, value: Any) -> None:
        # OpenSpiel's clone() and deserialize_state() make a new initial state and set its
        # attributes: its unread deal goes back to the game's series (see _Series)
        if name == "_eng":
            old = self.__dict__.get("_eng")
            if old is not None and old is not value:
                old.give_back()
        object.__setattr__(self, name, value)

    # -- tensors, answered here: OpenSpiel's own path sizes each tensor from a new initial
    # state (a deal, and a ticket of the series) on every call
    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation encoding of ``player`` (default: the current player)."""
        return self._tensor(player, perfect_recall=False)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The information-state tensor (the same encoding: it does not grow with history)."""
        return self._tensor(player, perfect_recall=True)

    def _tensor(self, player: int | None, *, perfect_recall: bool) -> list[float]:
        game: SubtableGame = self.get_game()
        n = game.num_players()
        if player is None:
            player = self.current_player()
        if not 0 <= player < n:
            raise ValueError(f"player {player} is not one of the game's {n} players")
        return game.tensor_observer(perfect_recall).list_from(self, player)

    @property
    def engine(self) -> State[Any]:
        """The subtable state (the whole truth: do not show it to a player)."""
        if self._eng is None:
            raise ValueError("the deal is not made yet (a chance node)")
        return self._eng.state

    def current_player(self) -> int:
        """The seat to decide, ``CHANCE`` before an explicit deal, or ``TERMINAL``."""
        if self._eng is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self._eng.state.current_seat()
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``explicit_chance``: the deal's seed, uniform over ``deals`` values."""
        if self._eng is not None:
            return []
        p = 1.0 / self._deals
        return [(i, p) for i in range(self._deals)]

    def _legal_actions(self, player: int) -> list[int]:
        if self._eng is None:
            return []
        state = self._eng.state
        if state.is_terminal() or state.current_seat() != player:
            return []
        return state.legal_action_ids()

    def _apply_action(self, action: int) -> None:
        if self._eng is None:
            game = self.get_game()
            self._eng = _Engine(game.engine_key, int(action))
            return
        state = self._eng.state
        seat = state.current_seat()
        assert seat is not None, "the game is over"
        state.apply(int(action))
        self._own[seat].append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {int(action)}"
        game = _engine_game(*self.get_game().engine_key)
        return str(game.action_space[int(action)].notation())

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._eng is not None and bool(self._eng.state.is_terminal())

    def returns(self) -> list[float]:
        """1 for each winning seat, 0 otherwise (0 for all before the end)."""
        if self._eng is None:
            return [0.0] * self.get_game().num_players()
        return [float(x) for x in self._eng.state.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SubtableState:
        """A state drawn among those ``player_id`` cannot tell from this one.

        Built by the game's own ``determinize`` from the seat's view; the draw comes from the
        game's resampling generator (seeded by the ``seed`` parameter), not from
        ``probability_sampler``: OpenSpiel's IS-MCTS passes an unseeded
        ``pyspiel.UniformProbabilitySampler``, which would make every search differ. The sample
        keeps
        ``player_id``'s own past actions; the other seats' are not known to it and start empty.
        """
        if self._eng is None:
            return self.clone()  # type: ignore[no-any-return]
        game = self.get_game()
        rng = Rng(game.resample_rng.next64())
        view = self._eng.state.observe(player_id)
        sample = SubtableState(game, None)
        sample._eng = _Engine(game.engine_key, 0, self._eng.game.determinize(view, rng))
        sample._own = [list(acts) if p == player_id else [] for p, acts in enumerate(self._own)]
        return sample

    def __str__(self) -> str:
        if self._eng is None:
            return "(before the deal)"
        state = self._eng.state
        return json.dumps(state.view(None), sort_keys=True, separators=(",", ":"))


class SubtableObserver:
    """OpenSpiel's Python observer: the encoding as a tensor, the view as a string."""

    def __init__(self, game: SubtableGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.encoder = make_encoder(game.engine_game)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = self.encoder.views(self.tensor)
        private = getattr(iig_obs_type, "private_info", pyspiel.PrivateInfoType.SINGLE_PLAYER)
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))

    def _seat(self, player: int) -> int | None:
        return None if self.public_only else player

    def set_from(self, state: SubtableState, player: int) -> None:
        """Write ``player``'s encoding of ``state`` into :attr:`tensor` (zeros before a deal)."""
        if state._eng is None:
            self.tensor.fill(0.0)
            return
        self.encoder.encode_into(state._eng.state.observe(self._seat(player)), self.tensor)

    def list_from(self, state: SubtableState, player: int) -> list[float]:
        """:meth:`set_from`'s values as a fresh list (what ``state.observation_tensor`` gives)."""
        if state._eng is None:
            return [0.0] * self.encoder.size
        return self.encoder.encode_list(state._eng.state.observe(self._seat(player)))

    def string_from(self, state: SubtableState, player: int) -> str:
        """``player``'s view as canonical JSON (prefixed with its own actions for infostates)."""
        if state._eng is None:
            return "(before the deal)"
        view = state._eng.state.view(self._seat(player))
        text = json.dumps(view, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall and not self.public_only:
            mine = ",".join(map(str, state._own[player]))
            return f"own=[{mine}] {text}"
        return text


class SubtableGame(pyspiel.Game):  # type: ignore[misc]
    """A subtable game for OpenSpiel (see the module docstring)."""

    engine_name: str = ""
    short_name: str = ""

    def __init__(self, params: Mapping[str, OptionValue] | None = None) -> None:
        params = dict(params or {})
        options = self._engine_options(params)
        self.engine_key = (self.engine_name, tuple(sorted(options.items())))
        engine = _engine_game(*self.engine_key)
        self.engine_game = engine
        self.explicit = bool(params.get("explicit_chance", False))
        #: explicit chance: how many deals (seeds) the root chance node chooses among
        self.deals = int(params.get("deals", 0)) or DEALS
        if self.deals < 1:
            raise ValueError("deals must be positive")
        seats = engine.num_seats
        game_type = self._game_type(engine)
        if self.explicit:
            game_type = _with_chance(game_type, pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(engine.action_space),
            max_chance_outcomes=self.deals if self.explicit else 0,
            num_players=seats,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=engine.info.max_game_length,
        )
        super().__init__(game_type, info, params)
        seed = int(params.get("seed", 0))
        #: the series of deals ``new_initial_state`` makes
        self.series = _Series(seed)
        #: where ``resample_from_infostate`` draws its worlds from
        self.resample_rng = Rng(seed ^ _RESAMPLE_SALT)
        self._observers: dict[bool, SubtableObserver] = {}
        #: the length of the observation (and information-state) tensor
        self.tensor_size = make_encoder(engine).size

    # -- per game: from the game's option specs and its rl part -----------------------------
    def _engine_options(self, params: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        out: dict[str, OptionValue] = {}
        for name, spec in game_class(self.engine_name).option_specs.items():
            value = params.get(name, _param_default(spec))
            if spec.default is None and value == _param_default(spec):
                continue  # "not given": the rules' default
            out[name] = spec.type(value)
        return out

    def _game_type(self, engine: Game[Any]) -> Any:
        hook = support(engine).utility
        utility = engine.info.utility if hook is None else hook(engine)
        return _type_of(self.engine_name, _UTILITIES[utility])

    # -- the pyspiel API ----------------------------------------------------------------------
    def new_initial_state(self) -> SubtableState:
        """A new deal; its seed is the next of the game's series (a chance node if explicit)."""
        if self.explicit:
            return SubtableState(self, None)
        ticket = self.series.issue()
        return SubtableState(self, self.series.seed(ticket), ticket)

    def new_initial_state_from_seed(self, seed: int) -> SubtableState:
        """The deal of engine seed ``seed`` (as ``subtable play --seed`` deals it)."""
        return SubtableState(self, seed)

    def tensor_observer(self, perfect_recall: bool) -> SubtableObserver:
        """The observer that fills ``observation_tensor`` (or the information-state tensor)."""
        observer = self._observers.get(perfect_recall)
        if observer is None:
            obs_type = pyspiel.IIGObservationType(perfect_recall=perfect_recall)
            observer = self._observers[perfect_recall] = SubtableObserver(self, obs_type, None)
        return observer

    # the tensor sizes, without OpenSpiel's deal of a new initial state to measure them
    def observation_tensor_shape(self) -> list[int]:
        """``[size]``: the encoding's length."""
        return [self.tensor_size]

    def observation_tensor_size(self) -> int:
        """The encoding's length."""
        return self.tensor_size

    information_state_tensor_shape = observation_tensor_shape
    information_state_tensor_size = observation_tensor_size

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SubtableObserver:
        """The observer for ``iig_obs_type`` (default: the seat's observation)."""
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return SubtableObserver(self, iig_obs_type, params)


def _with_chance(t: Any, mode: Any) -> Any:
    return pyspiel.GameType(
        short_name=t.short_name,
        long_name=t.long_name,
        dynamics=t.dynamics,
        chance_mode=mode,
        information=t.information,
        utility=t.utility,
        reward_model=t.reward_model,
        max_num_players=t.max_num_players,
        min_num_players=t.min_num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=t.parameter_specification,
    )


def _game_type(
    short: str, long: str, utility: Any, lo: int, hi: int, spec: Mapping[str, OptionValue]
) -> Any:
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


_U = pyspiel.GameType.Utility
_UTILITIES = {
    Utility.COOPERATIVE: _U.IDENTICAL,
    Utility.ZERO_SUM: _U.ZERO_SUM,
    Utility.GENERAL_SUM: _U.GENERAL_SUM,
}
#: the parameters that are OpenSpiel's, not the game's options
_OS_PARAMS: dict[str, OptionValue] = {"seed": 0, "explicit_chance": False, "deals": 0}


def short_name(name: str) -> str:
    """The OpenSpiel name of the game registered as ``name`` (``python_`` and the name)."""
    return "python_" + name.replace("-", "_")


def _param_default(spec: OptionSpec) -> Any:
    """An option's default as an OpenSpiel parameter (the type's zero for "not given")."""
    return spec.type() if spec.default is None else spec.default


def _type_of(name: str, utility: Any) -> Any:
    """The OpenSpiel game type of the game registered as ``name``."""
    cls = game_class(name)
    params = {k: _param_default(spec) for k, spec in cls.option_specs.items()}
    info = cls.info
    return _game_type(
        short_name(name),
        f"{info.title} (subtable)",
        utility,
        info.min_seats,
        info.max_seats,
        {**params, **_OS_PARAMS},
    )


def register(name: str) -> type[SubtableGame]:
    """Register the game ``name`` with OpenSpiel (once) and return its class (a game that
    declares a utility for its options is registered as general-sum)."""
    short = short_name(name)
    known = _CLASSES.get(short)
    if known is not None:
        return known
    title = game_class(name).info.title
    cls = type(
        "".join(w.capitalize() for w in short.split("_")[1:]) + "Game",
        (SubtableGame,),
        {"engine_name": name, "short_name": short, "__doc__": f"{title} for OpenSpiel."},
    )
    if support(name).utility is None:
        utility = _UTILITIES[game_class(name).info.utility]
    else:
        utility = _U.GENERAL_SUM
    if short not in pyspiel.registered_names():
        pyspiel.register_game(_type_of(name, utility), cls)
    _CLASSES[short] = cls
    return cls


def load(name: str, **params: Any) -> Any:
    """``pyspiel.load_game`` for a registered game's name (or its OpenSpiel name)."""
    short = name if name.startswith("python_") else short_name(name)
    return pyspiel.load_game(short, params)


_CLASSES: dict[str, type[SubtableGame]] = {}
for _plugin in registrations():
    if _plugin.has("encoder"):
        register(_plugin.name)
