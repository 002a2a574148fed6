"""The sampled worlds behind the chart of a game, coupled from one position to the next.

A move's effect on a seat's chance of winning is the difference of two estimates, each
the mean over sampled worlds of an expert playout's result. Drawn independently, the two
estimates' noise swamps all but the largest changes. :class:`Estimator` draws world ``j``
of one position and world ``j`` of the next as alike as the seat's views allow (common
random numbers), so most of the noise cancels in each world's paired difference:

* **The move played in the world.** World ``j`` after a move is world ``j`` before it with
  the move played, whenever the seat saw the move whole and the world then shows the seat
  exactly what the real game shows it (the same die, the same card drawn). Such a world is
  drawn from the seat's view after the move exactly as a fresh one would be (the move's
  outcome observed, Bayes' rule), and its playout goes on where the earlier one did.
* **Hidden cards sorted by fixed keys.** Otherwise the world is drawn afresh from the view
  with :class:`KeyedRng`: each shuffle orders its cards by keys fixed per world and card, a
  uniform shuffle that keeps the order of the cards still unseen when one is revealed.
  Its dice generator is the one the world had after the move (the same rolls to come).
* **The expert's choices keyed by the move's number.** The playout's ``k``-th decision
  after move ``i`` draws from a generator seeded with ``(j, i + k)``, so the playouts
  before and after a move draw alike at the same moves of the game.

A seat's worlds use only what it could see at each position: its view, and a move played
in the world only where the seat saw that move whole (:meth:`Game.action_for_seat`).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from subtable.bots.heuristic import SearchHooks, search_hooks
from subtable.core.errors import SubtableError
from subtable.core.events import Event
from subtable.core.game import Game, State
from subtable.core.rng import Rng
from subtable.sim.stats import wilson_interval

T = TypeVar("T")

#: sampled worlds behind each estimate when not told
TURNING_WORLDS = 16
#: the fields of a view that say whose it is rather than what it shows (the deciding
#: seat's view lists its legal actions, which anyone could derive)
_WHOSE = ("seat", "legal")
_MASK = (1 << 64) - 1
_SALT = 0x7E41_2C0F_D15E_A5E5
_STRIDE = 0x9E37_79B9_7F4A_7C15
_PLAY = 0x51A7_0B1E
_CARD = 0xC2B2_AE3D_27D4_EB4F
_COPY = 0x1656_67B1_9E37_79F9
_CALL = 0x27D4_EB2F_1656_67C5


def _mix(value: int) -> int:
    """SplitMix64's finaliser: a 64-bit hash of ``value``."""
    z = value & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class KeyedRng(Rng):
    """A generator whose shuffles sort by keys fixed per card: the ``c``-th shuffle orders
    its items by a hash of ``(key, c, item, copy)`` (``copy``: how many equal items came
    before it in the list). That is a uniform shuffle, and the same one for a list with a
    card fewer, less that card. Other draws come from the stream of ``Rng(key)``."""

    __slots__ = ("calls", "key")

    def __init__(self, key: int) -> None:
        super().__init__(key)
        self.key = key & _MASK
        self.calls = 0

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Order ``seq`` by its items' keys (items are hashable: cards, colours)."""
        salt = _mix(self.key ^ (self.calls * _CALL))
        self.calls += 1
        seen: dict[Any, int] = {}
        keyed = []
        for item in list(seq):
            copy = seen.get(item, 0)
            seen[item] = copy + 1
            card = item if isinstance(item, int) else zlib.crc32(repr(item).encode())
            keyed.append((_mix(salt ^ _mix(card * _CARD) ^ (copy * _COPY)), copy, item))
        keyed.sort(key=lambda k: (k[0], k[1]))
        seq[:] = [item for _key, _copy, item in keyed]


@dataclass(frozen=True, slots=True)
class Estimate:
    """A chance of winning, its 95% interval and each sampled world's result."""

    mean: float
    low: float
    high: float
    #: each world's result, in the order of the worlds
    draws: tuple[float, ...] = ()


def summary(draws: tuple[float, ...]) -> Estimate:
    """The mean of the worlds' results and its 95% interval (Wilson's)."""
    n = len(draws)
    mean = sum(draws) / n
    low, high = wilson_interval(round(mean * n), n)
    return Estimate(mean, min(low, mean), max(high, mean), draws)


@dataclass(slots=True)
class _Playout:
    """One sampled world of a seat's view and the expert's playout from it."""

    world: State[Any]
    #: the playout's actions, still to come from ``world``
    path: list[int]
    returns: list[float]


@dataclass(frozen=True, slots=True)
class Played:
    """The move that led to a position: its id, who played it and what it caused."""

    action: int
    actor: int | None
    events: tuple[Event, ...]


class Stopped(Exception):
    """The work was stopped before its end (see :func:`turning_points`)."""


def view_key(state: State[Any], seat: int) -> str:
    """What ``seat`` sees at ``state``, whoever's view it is: seats whose keys are equal
    know the same and share one estimate."""
    data = state.view(seat)
    for mine in _WHOSE:
        data.pop(mine, None)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


class Estimator:
    """Each seat's chance of winning at the positions of one game, in turn, from its own
    view: the expert's playouts to the end from ``worlds`` sampled worlds, coupled from one
    position to the next (see the module's doc)."""

    def __init__(
        self,
        game: Game[Any],
        worlds: int = TURNING_WORLDS,
        seed: int = 0,
        stop: Callable[[], bool] | None = None,
        share: Sequence[int] | None = None,
    ) -> None:
        hooks = search_hooks(game, walk=True)  # its playouts: the expert's walks, for less CPU
        if hooks is None or not game.can_determinize:
            raise SubtableError(
                f"{game.info.title} has no expert to estimate chances with",
                code="no_expert",
                params={"game": game.info.name},
            )
        self.game = game
        self.hooks: SearchHooks = hooks
        self.worlds = max(1, int(worlds))
        #: the worlds played here (all of them, unless the work is shared out)
        self.share = tuple(range(self.worlds)) if share is None else tuple(share)
        self.seed = seed
        #: asked before each playout: true ends the work (:class:`Stopped`)
        self.stop = stop
        #: per seat, the playouts of the last position estimated from its view
        self._carried: dict[int, list[_Playout]] = {}
        #: the positions estimated so far (the game's move number of the next)
        self._moves = 0
        #: playouts played (not carried over), for the measurements
        self.playouts = 0

    def estimate(self, state: State[Any], played: Played | None = None) -> list[Estimate]:
        """Each seat's estimate at ``state``; ``played``: the move that led there from the
        position estimated last (``None``: a position of its own). Seats whose views differ
        only by whose they are share one."""
        found = self.estimates(state, played, range(self.game.num_seats))
        return [found[s] for s in range(self.game.num_seats)]

    def estimates(
        self, state: State[Any], played: Played | None, seats: Sequence[int]
    ) -> dict[int, Estimate]:
        """:meth:`estimate` for ``seats`` alone."""
        if played is None:
            self._carried.clear()
        else:
            self._moves += 1
        if state.is_terminal():
            self._carried.clear()
            returns = state.returns()
            return {
                s: Estimate(returns[s], returns[s], returns[s], (returns[s],) * len(self.share))
                for s in seats
            }
        known: dict[str, tuple[list[_Playout], list[Estimate]]] = {}
        out = {}
        now: dict[int, list[_Playout]] = {}
        for seat in seats:
            key = view_key(state, seat)
            if key not in known:
                playouts = self._worlds(state, seat, played)
                known[key] = (playouts, self._summaries(playouts))
            now[seat], estimates = known[key]
            out[seat] = estimates[seat]
        self._carried = now
        return out

    def pair(
        self, before: State[Any], after: State[Any], played: Played, move: int, seats: Sequence[int]
    ) -> dict[int, tuple[tuple[float, ...], tuple[float, ...]]]:
        """Each of ``seats``' results in the worlds drawn at ``before`` and, world by world,
        at ``after``, the position after ``played`` (the record's ``move``-th move)."""
        self._moves = move - 1
        first = self.estimates(before, None, seats)
        second = self.estimates(after, played, seats)
        return {s: (first[s].draws, second[s].draws) for s in seats}

    def _summaries(self, playouts: list[_Playout]) -> list[Estimate]:
        return [summary(tuple(p.returns[s] for p in playouts)) for s in range(self.game.num_seats)]

    def _worlds(self, state: State[Any], seat: int, played: Played | None) -> list[_Playout]:
        """The playouts of ``seat``'s worlds at ``state``."""
        view = state.observe(seat)
        before = self._carried.get(seat) if played is not None else None
        seen = played is not None and self._sees(played, seat)
        now = []
        for k, j in enumerate(self.share):
            old = before[k] if before is not None else None
            moved = self._moved(old.world, played) if old is not None and seen else None
            if moved is not None and moved.observe(seat) == view:
                assert played is not None and old is not None
                if old.path[:1] == [played.action]:  # the playout went this way: it goes on
                    now.append(_Playout(moved, old.path[1:], old.returns))
                    continue
                world = moved
            else:
                world = self.game.determinize(view, KeyedRng(self._key(j)))
                if moved is not None:
                    world.rng = moved.rng.clone()  # type: ignore[attr-defined]
            if self.stop is not None and self.stop():
                raise Stopped("the estimate was stopped")
            now.append(self._play(world, j))
        return now

    def _sees(self, played: Played, seat: int) -> bool:
        """Whether ``seat`` saw the move whole (so its worlds may play it)."""
        action = self.game.action_space.from_id(played.action)
        shown = self.game.action_for_seat(action, played.actor, played.events, seat)
        return bool(shown == action.notation())

    def _moved(self, world: State[Any], played: Played | None) -> State[Any] | None:
        """``world`` after the move, or ``None`` where the world cannot play it or keeps
        no generator of its own to carry on."""
        if played is None or not isinstance(getattr(world, "rng", None), Rng):
            return None
        moved = world.clone()
        try:
            moved.apply(played.action)
        except (SubtableError, ValueError):
            return None
        return moved

    def _key(self, j: int) -> int:
        return (self.seed ^ _SALT ^ (j * _STRIDE)) & _MASK

    def _play(self, world: State[Any], j: int) -> _Playout:
        """Play the expert on from a copy of ``world`` to the end; the ``k``-th decision
        draws from a generator keyed by the world and the game's move number."""
        self.playouts += 1
        hooks = self.hooks
        base = self._key(j) ^ _PLAY
        state = world.clone()
        path: list[int] = []
        for k in range(self.game.info.max_game_length):
            if state.is_terminal():
                return _Playout(world, path, state.returns())
            ids = state.legal_action_ids()
            if len(ids) == 1:
                action = ids[0]
            else:
                action = hooks.act(state, ids, Rng(_mix(base ^ ((self._moves + k) * _STRIDE))))
            path.append(action)
            state.apply_unchecked(action)
        raise RuntimeError("a playout did not end")
