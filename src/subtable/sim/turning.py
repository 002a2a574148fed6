"""Where the game turned: the estimated chance of winning after every move of a record.

:func:`turning_points` replays a :class:`~subtable.core.record.GameRecord` and, after every
move, estimates each seat's chance of winning from that seat's view only: ``worlds`` states
are sampled from the view (:meth:`Game.determinize <subtable.core.game.Game.determinize>`)
and the game's expert plays each to the end (:class:`Estimator`). The fitted leaf-value
models the search bots use were measured against such playouts and found too far off for a
chart (docs/lab.md: Red November 0.07 where the playouts give 0.86, with a “Crushed!”
token on the track), so the chart plays out: its values are unbiased for the expert's
play, with a standard error each. Seats whose views carry the same information share one
estimate (Red November's gnomes, unless Crazed Gnomes hides their hands). A cooperative
game's curve is the team's: the mean of its members' estimates.

A change is a *moment* only when it is significant: world ``j`` is drawn with the same
generator before and after each move (common random numbers), so each move gives ``worlds``
paired changes, and McNemar's exact (sign) test of how many worlds rose against how many
fell must reject "no change", with the share of false moments among a curve's moments held
at :data:`ALPHA` (Benjamini and Hochberg's procedure over its moves). Of the significant
changes, the three largest drops and
rises of each curve are its moments, with the move's index (the replay's position after it)
and events; a curve may have none. :func:`moment_text` says what happened there in the
reader's language ("Gnome 3 chooses Reactor Room (4): the fire spreads there: −14 points").
Every draw comes from generators seeded with ``seed``: the same record gives the same curves.

The worlds are independent of one another: :func:`sample_worlds` plays any share of them
(a worker process each) and :func:`assemble` joins the shares into the curves.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from subtable.bots.heuristic import SearchHooks, search_hooks
from subtable.core.errors import RecordError, SubtableError
from subtable.core.events import Event
from subtable.core.game import Game, State, Utility
from subtable.core.record import GameRecord
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.i18n import Translator
from subtable.sim.stats import mcnemar_exact_p, wilson_interval

#: sampled worlds behind each estimate when not told
TURNING_WORLDS = 16
#: moments marked per curve, each way
MOMENTS = 3
#: the expected share of a curve's moments that are noise alone, at most (its false
#: discovery rate)
ALPHA = 0.05
#: the fields of a view that say whose it is rather than what it shows (the deciding
#: seat's view lists its legal actions, which anyone could derive)
_WHOSE = ("seat", "legal")
_SALT = 0x7E41_2C0F_D15E_A5E5
_STRIDE = 0x9E37_79B9_7F4A_7C15
_PLAY = 0x51A7_0B1E


@dataclass(frozen=True, slots=True)
class Move:
    """One move of the record: who played it, its notation, what it caused (as a
    spectator reads it)."""

    index: int
    seat: int | None
    action: str
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Moment:
    """A large change of one curve: the move that caused it and the values around it."""

    #: the curve's seat, ``None`` for the team's
    seat: int | None
    #: the move's index (1-based: the replay's position after it)
    move: int
    before: float
    after: float
    #: the paired test's p-value: how likely a change this clear is from the worlds alone
    p: float = 0.0

    @property
    def delta(self) -> float:
        """The change, in chance of winning (``-0.14``: 14 points lost)."""
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class Turning:
    """Every seat's curve over a game, its team's curve, and the moments that mattered."""

    game: str
    #: the curves are a team's (a cooperative game)
    team: bool
    #: per seat: the estimate before the first move, then after each move
    series: tuple[tuple[float, ...], ...]
    #: per seat: each estimate's 95% interval (Wilson's, over the sampled worlds)
    lows: tuple[tuple[float, ...], ...]
    highs: tuple[tuple[float, ...], ...]
    #: the team's curve (a cooperative game), else ``None``
    team_series: tuple[float, ...] | None
    moves: tuple[Move, ...]
    #: the significant moments of every curve drawn (the team's, or each seat's) and, in
    #: a cooperative game, of each seat's own curve too (see :meth:`moments_of`)
    moments: tuple[Moment, ...]
    worlds: int
    seed: int

    def curves(self) -> list[tuple[int | None, tuple[float, ...]]]:
        """The curves to draw: the team's, or each seat's."""
        if self.team_series is not None:
            return [(None, self.team_series)]
        return list(enumerate(self.series))

    def moments_of(self, seat: int | None) -> list[Moment]:
        """The moments of one curve (``None``: the team's)."""
        return [m for m in self.moments if m.seat == seat]

    def shown_moments(self) -> list[Moment]:
        """The moments of the curves drawn (:meth:`curves`)."""
        return [m for seat, _values in self.curves() for m in self.moments_of(seat)]

    def band(self, seat: int | None) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """A curve's 95% intervals, low and high (the team's: its members' means)."""
        if seat is not None:
            return self.lows[seat], self.highs[seat]
        return _mean(self.lows), _mean(self.highs)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (what the web table sends): the curves and the moments."""
        return {
            "game": self.game,
            "team": self.team,
            "worlds": self.worlds,
            "seed": self.seed,
            "series": [list(s) for s in self.series],
            "lows": [list(s) for s in self.lows],
            "highs": [list(s) for s in self.highs],
            "team_series": None if self.team_series is None else list(self.team_series),
            "moves": [{"index": m.index, "seat": m.seat, "action": m.action} for m in self.moves],
            "moments": [
                {"seat": m.seat, "move": m.move, "before": m.before, "after": m.after, "p": m.p}
                for m in self.moments
            ],
        }


@dataclass(frozen=True, slots=True)
class Estimate:
    """A chance of winning, its 95% interval and each sampled world's result."""

    mean: float
    low: float
    high: float
    #: each world's result, in the order of the worlds
    draws: tuple[float, ...] = ()


#: per seat, per position (before the first move, then after each), per world: the result
Draws = tuple[tuple[tuple[float, ...], ...], ...]


@dataclass(slots=True)
class _Playout:
    """One sampled world of a seat's view and the expert's playout from it."""

    world: State[Any]
    #: the playout's actions, still to come from ``world``
    path: list[int]
    returns: list[float]


class Stopped(Exception):
    """The work was stopped before its end (see :func:`turning_points`)."""


class Estimator:
    """Each seat's chance of winning at a position, from its own view: the expert's playouts
    to the end from ``worlds`` states sampled from the view.

    World ``j`` is always drawn with the generator seeded ``(seed, j)``, so consecutive
    positions share their luck (common random numbers). When a move reveals nothing, the
    world drawn after it is the previous one with that move played; if the move is also
    the one the playout began with, the playout's outcome carries over without being
    played again (games played by the expert are estimated about three times faster).
    """

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
        #: playouts played (not carried over), for the measurements
        self.playouts = 0

    def estimate(self, state: State[Any], last: int | None = None) -> list[Estimate]:
        """Each seat's estimate at ``state``, from its own view; ``last`` is the move just
        played (its id). Seats whose views differ only by whose they are share one."""
        seats = self.game.num_seats
        if state.is_terminal():
            return [Estimate(r, r, r, (r,) * len(self.share)) for r in state.returns()]
        known: dict[str, list[Estimate]] = {}
        out = []
        for seat in range(seats):
            data = state.view(seat)
            for mine in _WHOSE:
                data.pop(mine, None)
            key = json.dumps(data, sort_keys=True, separators=(",", ":"))
            found = known.get(key)
            if found is None:
                found = known[key] = self._estimate(state, seat, last)
            out.append(found[seat])
        return out

    def _estimate(self, state: State[Any], seat: int, last: int | None) -> list[Estimate]:
        view = state.observe(seat)
        before = self._carried.get(seat)
        now = []
        for k, j in enumerate(self.share):
            world = self.game.determinize(view, Rng(self.seed ^ _SALT ^ (j * _STRIDE)))
            old = before[k] if before is not None else None
            if old is not None and last is not None and old.path[:1] == [last]:
                moved = old.world.clone()
                moved.apply_unchecked(last)
                if _same(moved, world):
                    now.append(_Playout(world, old.path[1:], old.returns))
                    continue
            if self.stop is not None and self.stop():
                raise Stopped("the estimate was stopped")
            now.append(self._play(world, j))
        self._carried[seat] = now
        return [summary(tuple(p.returns[s] for p in now)) for s in range(self.game.num_seats)]

    def _play(self, world: State[Any], j: int) -> _Playout:
        """Play the expert on from a copy of ``world`` to the end."""
        self.playouts += 1
        hooks = self.hooks
        rng = Rng(self.seed ^ _SALT ^ (j * _STRIDE) ^ _PLAY)
        state = world.clone()
        path: list[int] = []
        for _ in range(self.game.info.max_game_length):
            if state.is_terminal():
                return _Playout(world, path, state.returns())
            ids = state.legal_action_ids()
            action = ids[0] if len(ids) == 1 else hooks.act(state, ids, rng)
            path.append(action)
            state.apply_unchecked(action)
        raise RuntimeError("a playout did not end")


def summary(draws: tuple[float, ...]) -> Estimate:
    """The mean of the worlds' results and its 95% interval (Wilson's)."""
    n = len(draws)
    mean = sum(draws) / n
    low, high = wilson_interval(round(mean * n), n)
    return Estimate(mean, min(low, mean), max(high, mean), draws)


def _same(a: State[Any], b: State[Any]) -> bool:
    """Whether two states are the same position (their histories aside)."""
    da, db = a.to_json(), b.to_json()
    da.pop("history", None)
    db.pop("history", None)
    return da == db


def _game_of(record: GameRecord) -> Game[Any]:
    try:
        return make_game(record.game, record.variant or None, **record.options)
    except SubtableError as exc:
        raise RecordError(f"the record's game or options are invalid: {exc.message}") from None


def _positions(
    game: Game[Any], record: GameRecord
) -> Iterator[tuple[State[Any], int | None, Move | None]]:
    """The record's positions: the start, then after each move (with its id and what it
    caused). Raises :class:`RecordError` for a move that cannot be played."""
    state: State[Any] = game.new_state(record.seed)
    yield state, None, None
    for index, text in enumerate(record.actions, start=1):
        seat = state.current_seat()
        try:
            action = game.parse_action(text)
            events = state.apply(action)
        except SubtableError as exc:
            raise RecordError(
                f"action {index} ({text!r}) cannot be played: {exc.message}",
                params={"index": index, "action": text},
            ) from None
        yield state, action.id, Move(index, seat, text, tuple(e.for_seat(None) for e in events))


def sample_worlds(
    record: GameRecord,
    share: Sequence[int],
    *,
    worlds: int = TURNING_WORLDS,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> Draws:
    """Each seat's result in each world of ``share`` (indices below ``worlds``) at every
    position of ``record``: the expensive part of :func:`turning_points`, any share of
    the worlds at a time."""
    game = _game_of(record)
    estimator = Estimator(game, worlds, seed, stop, share)
    rows = [estimator.estimate(state, last) for state, last, _move in _positions(game, record)]
    return tuple(tuple(row[s].draws for row in rows) for s in range(game.num_seats))


def join_shares(shares: Sequence[Draws]) -> Draws:
    """The draws of several shares of the worlds as one (in the order given)."""
    return tuple(
        tuple(sum((share[s][i] for share in shares), ()) for i in range(len(shares[0][s])))
        for s in range(len(shares[0]))
    )


def assemble(record: GameRecord, draws: Draws, *, worlds: int, seed: int = 0) -> Turning:
    """The curves and their significant moments from every world's results."""
    game = _game_of(record)
    positions = list(_positions(game, record))
    state = positions[-1][0]
    moves = [move for _state, _last, move in positions if move is not None]
    estimates = [[summary(point) for point in seat] for seat in draws]
    per_seat = tuple(tuple(e.mean for e in row) for row in estimates)
    lows = tuple(tuple(e.low for e in row) for row in estimates)
    highs = tuple(tuple(e.high for e in row) for row in estimates)
    team = game.info.utility == Utility.COOPERATIVE
    curves: list[tuple[int | None, Sequence[tuple[float, ...]]]] = list(enumerate(draws))
    team_series = None
    if team:
        members = _members(game, state)
        team_draws = tuple(
            tuple(sum(w) / len(members) for w in zip(*(draws[s][i] for s in members), strict=True))
            for i in range(len(draws[0]))
        )
        team_series = tuple(summary(point).mean for point in team_draws)
        curves.insert(0, (None, team_draws))
    moments = tuple(m for seat, points in curves for m in significant_changes(points, seat))
    return Turning(
        record.game, team, per_seat, lows, highs, team_series, tuple(moves), moments, worlds, seed
    )


def turning_points(
    record: GameRecord,
    *,
    worlds: int = TURNING_WORLDS,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> Turning:
    """The curves and moments of ``record`` (see the module's doc). Raises
    :class:`RecordError` for a record that does not replay, and :class:`Stopped` once
    ``stop()`` is true (it is asked before each playout: a server closing)."""
    worlds = max(1, int(worlds))
    draws = sample_worlds(record, range(worlds), worlds=worlds, seed=seed, stop=stop)
    return assemble(record, draws, worlds=worlds, seed=seed)


def _members(game: Game[Any], state: State[Any]) -> list[int]:
    """The team's members: every seat, unless the game is over and some seat's result
    differs from the team's (a gnome who abandoned his comrades)."""
    members = list(range(game.num_seats))
    outcome = state.outcome()
    if outcome is not None and game.info.win_reason is not None:
        won = 1.0 if outcome.reason == game.info.win_reason else 0.0
        returns = state.returns()
        members = [s for s in members if returns[s] == won] or members
    return members


def _mean(rows: Sequence[Sequence[float]]) -> tuple[float, ...]:
    return tuple(sum(r[i] for r in rows) / len(rows) for i in range(len(rows[0])))


def change_p(before: Sequence[float], after: Sequence[float]) -> float:
    """The paired test of one move: McNemar's exact (sign) test of the worlds whose result
    fell against those whose result rose (unchanged worlds say nothing either way)."""
    fell = sum(1 for b, a in zip(before, after, strict=True) if a < b)
    rose = sum(1 for b, a in zip(before, after, strict=True) if a > b)
    return mcnemar_exact_p(fell, rose)


def discoveries(p_values: Sequence[float], rate: float = ALPHA) -> int:
    """How many of the smallest p-values the Benjamini–Hochberg procedure keeps at false
    discovery ``rate``: the largest ``k`` whose ``k``-th smallest is at most ``k * rate /
    m`` (Benjamini and Hochberg 1995, *J. R. Stat. Soc. B* 57:289-300)."""
    m = len(p_values)
    kept = 0
    for k, p in enumerate(sorted(p_values), start=1):
        if p <= k * rate / m:
            kept = k
    return kept


def significant_changes(
    points: Sequence[Sequence[float]], seat: int | None, count: int = MOMENTS
) -> list[Moment]:
    """A curve's moments, from each world's result at every position (``points``): the
    ``count`` largest drops and rises among the changes the paired test finds significant
    (:func:`change_p`, the false discovery rate held at :data:`ALPHA` over the curve's
    moves: :func:`discoveries`), the earliest first among equal changes."""
    steps = []
    for i in range(1, len(points)):
        before, after = points[i - 1], points[i]
        mean_before, mean_after = sum(before) / len(before), sum(after) / len(after)
        steps.append(Moment(seat, i, mean_before, mean_after, change_p(before, after)))
    kept = sorted(steps, key=lambda m: (m.p, m.move))[: discoveries([m.p for m in steps])]
    drops = sorted((m for m in kept if m.delta < 0), key=lambda m: (m.delta, m.move))
    rises = sorted((m for m in kept if m.delta > 0), key=lambda m: (-m.delta, m.move))
    return sorted(drops[:count] + rises[:count], key=lambda m: m.move)


def moment_text(
    turning: Turning, moment: Moment, tr: Translator, game: Game[Any], number: int | None = None
) -> str:
    """What happened at ``moment`` and what it cost or gained, in ``tr``'s language;
    ``number``: the move's number where it is told (the live log's), else its index."""
    from subtable.words import game_ui

    ui = game_ui(game)
    move = turning.moves[moment.move - 1]
    what = ui.headline(list(move.events), tr)
    if what is None:
        who = ui.seat_name(move.seat, tr) if move.seat is not None else ""
        label = ui.action_label(game.parse_action(move.action), tr)
        what = tr("lab.turning.played", who=who, action=move.action, label=label)
    what = what.rstrip(" .!")  # a narrated sentence, followed here by its cost
    points = round(abs(moment.delta) * 100)
    change = tr.plural(
        "lab.turning.points",
        "lab.turning.points.plural",
        points,
        sign="−" if moment.delta < 0 else "+",
    )
    shown = moment.move if number is None else number
    return tr("lab.turning.moment", move=shown, what=what, change=change)
