"""Where the game turned: the estimated chance of winning after every move of a record.

:func:`turning_points` replays a :class:`~subtable.core.record.GameRecord` and, after every
move, estimates each seat's chance of winning from that seat's view only: ``worlds`` states
are sampled from the view (:meth:`Game.determinize <subtable.core.game.Game.determinize>`)
and the game's expert plays each to the end (:class:`Estimator`). The fitted leaf-value
models the search bots use were measured against such playouts and found too far off for a
chart (docs/lab.md: Red November 0.07 where the playouts give 0.86, with a “Crushed!”
token on the track), so the chart plays out: its values are unbiased for the expert's
play, with a 95% interval each. Seats whose views carry the same information share one
estimate (a cooperative team's seats, unless a variant hides their hands). A cooperative
game's curve is the team's: the mean of its members' estimates.

A change is a *moment* only when it is significant, in two stages. The curves' worlds are
coupled from one position to the next (:mod:`subtable.sim.turning_worlds`), and each curve's
:data:`CANDIDATES` largest changes are its candidates (:func:`candidate_moves`). Each
candidate is then measured again on :data:`CONFIRM_WORLDS` fresh worlds, drawn before the
move and, world by world, after it (:func:`sample_pairs`): McNemar's exact (sign) test of
how many of them rose against how many fell must reject "no change", with the share of
false moments among a curve's moments held at :data:`ALPHA` (Benjamini and Hochberg's
procedure over its candidates). The fresh worlds make the test independent of the choice
of candidates, and testing a few candidates rather than every move keeps its power. Of the
significant changes, the three largest drops and rises of each curve are its moments, with
the change and its paired 95% interval measured on the fresh worlds, the move's index (the
replay's position after it) and events; a curve may have none. :func:`moment_text` says
what happened there in the reader's language ("Player 3 moves to the Reactor Room (4): the fire
spreads there: −14 points"). Every draw comes from generators seeded with ``seed``: the
same record gives the same curves.

The worlds are independent of one another: :func:`sample_worlds` and :func:`sample_pairs`
play any share of them (a worker process each) and :func:`assemble` joins the shares.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from subtable.core.errors import RecordError, SubtableError
from subtable.core.events import Event
from subtable.core.game import Game, State, Utility
from subtable.core.record import GameRecord
from subtable.core.registry import make_game
from subtable.i18n import Translator
from subtable.sim.stats import mcnemar_exact_p
from subtable.sim.turning_worlds import (
    TURNING_WORLDS,
    Estimate,
    Estimator,
    Played,
    Stopped,
    summary,
)

__all__ = [
    "TURNING_WORLDS",
    "Estimate",
    "Estimator",
    "Moment",
    "Move",
    "Played",
    "Stopped",
    "Turning",
    "assemble",
    "summary",
    "turning_points",
]

#: moments marked per curve, each way
MOMENTS = 3
#: the expected share of a curve's moments that are noise alone, at most (its false
#: discovery rate)
ALPHA = 0.05


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
    #: the change's paired 95% interval (``low <= delta <= high``)
    low: float = 0.0
    high: float = 0.0

    @property
    def delta(self) -> float:
        """The change, in chance of winning (``-0.14``: 14 points lost)."""
        return self.after - self.before


class MoveJSON(TypedDict):
    """A move of the chart's JSON form: its index, who played it, its notation."""

    index: int
    seat: int | None
    action: str


class MomentJSON(TypedDict):
    """A moment of the chart's JSON form (:class:`Moment`'s fields)."""

    seat: int | None
    move: int
    before: float
    after: float
    p: float
    #: its interval (a chart kept by an older method may lack it)
    low: NotRequired[float]
    high: NotRequired[float]


class TurningJSON(TypedDict):
    """A chart's JSON form (:meth:`Turning.to_json`, what the web table sends and keeps)."""

    game: str
    team: bool
    worlds: int
    seed: int
    #: the fresh worlds behind each moment (a chart kept by an older method may lack it)
    confirm: NotRequired[int]
    series: list[list[float]]
    lows: list[list[float]]
    highs: list[list[float]]
    team_series: list[float] | None
    moves: list[MoveJSON]
    moments: list[MomentJSON]


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
    #: fresh worlds behind each moment's change and its interval
    confirm: int = 0

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

    def to_json(self) -> TurningJSON:
        """JSON-ready data (what the web table sends): the curves and the moments."""
        return {
            "game": self.game,
            "team": self.team,
            "worlds": self.worlds,
            "seed": self.seed,
            "confirm": self.confirm,
            "series": [list(s) for s in self.series],
            "lows": [list(s) for s in self.lows],
            "highs": [list(s) for s in self.highs],
            "team_series": None if self.team_series is None else list(self.team_series),
            "moves": [{"index": m.index, "seat": m.seat, "action": m.action} for m in self.moves],
            "moments": [
                {
                    "seat": m.seat,
                    "move": m.move,
                    "before": m.before,
                    "after": m.after,
                    "p": m.p,
                    "low": m.low,
                    "high": m.high,
                }
                for m in self.moments
            ],
        }


#: per seat, per position (before the first move, then after each), per world: the result
Draws = tuple[tuple[tuple[float, ...], ...], ...]
#: the moves to confirm, each with the seats whose curves need it
Candidates = tuple[tuple[int, tuple[int, ...]], ...]
#: per candidate, per seat of it: each fresh world's result before the move and after it
Pairs = tuple[tuple[tuple[tuple[float, ...], tuple[float, ...]], ...], ...]
#: a competitive game's curves' worlds per position, all seats together, when not told
#: (no fewer than 4 a seat): each seat's curve samples from its own view
CURVE_PLAYOUTS = 18
#: fresh worlds behind each candidate's confirmation
CONFIRM_WORLDS = 48
#: candidates confirmed per curve
CANDIDATES = 3
#: the confirmation's worlds are drawn apart from the curves' (another key)
_CONFIRM = 0xC0F1_12E5_0A1B_D00D


def default_worlds(record: GameRecord) -> int:
    """The curves' worlds per point for ``record``'s game: :data:`TURNING_WORLDS` for a
    cooperative game (its team's curve), else :data:`CURVE_PLAYOUTS` split among the seats'
    curves."""
    game = _game_of(record)
    if game.info.utility == Utility.COOPERATIVE:
        return TURNING_WORLDS
    return max(4, CURVE_PLAYOUTS // game.num_seats)


def confirm_worlds(worlds: int | None) -> int:
    """The fresh worlds behind each candidate: :data:`CONFIRM_WORLDS`, or three times the
    curves' ``worlds`` where they are told."""
    return CONFIRM_WORLDS if worlds is None else 3 * max(1, int(worlds))


def _game_of(record: GameRecord) -> Game[Any]:
    try:
        return make_game(record.game, record.variant or None, **record.options)
    except SubtableError as exc:
        raise RecordError(f"the record's game or options are invalid: {exc.message}") from None


def _positions(
    game: Game[Any], record: GameRecord
) -> Iterator[tuple[State[Any], Played | None, Move | None]]:
    """The record's positions: the start, then after each move (with what led there and
    what it caused). Raises :class:`RecordError` for a move that cannot be played."""
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
        move = Move(index, seat, text, tuple(e.for_seat(None) for e in events))
        yield state, Played(action.id, seat, tuple(events)), move


def sample_worlds(
    record: GameRecord,
    share: Sequence[int],
    *,
    worlds: int = TURNING_WORLDS,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> Draws:
    """Each seat's result in each world of ``share`` (indices below ``worlds``) at every
    position of ``record``: the curves' part of :func:`turning_points`, any share of the
    worlds at a time."""
    game = _game_of(record)
    estimator = Estimator(game, worlds, seed, stop, share)
    rows = [estimator.estimate(state, played) for state, played, _move in _positions(game, record)]
    return tuple(tuple(row[s].draws for row in rows) for s in range(game.num_seats))


def join_shares(shares: Sequence[Draws]) -> Draws:
    """The draws of several shares of the worlds as one (in the order given)."""
    return tuple(
        tuple(sum((share[s][i] for share in shares), ()) for i in range(len(shares[0][s])))
        for s in range(len(shares[0]))
    )


def _curve_draws(
    game: Game[Any], record: GameRecord, draws: Draws
) -> list[tuple[int | None, Sequence[tuple[float, ...]]]]:
    """Every curve's draws: each seat's and, in a cooperative game, the team's (first)."""
    curves: list[tuple[int | None, Sequence[tuple[float, ...]]]] = list(enumerate(draws))
    if game.info.utility == Utility.COOPERATIVE:
        members = _members(game, _final(game, record))
        curves.insert(0, (None, tuple(_team(w, members) for w in zip(*draws, strict=True))))
    return curves


def _team(points: Sequence[Sequence[float]], members: Sequence[int]) -> tuple[float, ...]:
    """The team's result in each world: the mean of its members' (``points``: per seat)."""
    return tuple(sum(w) / len(members) for w in zip(*(points[s] for s in members), strict=True))


def _final(game: Game[Any], record: GameRecord) -> State[Any]:
    state = game.new_state(record.seed)
    for text in record.actions:
        state.apply(text)
    return state


def candidate_moves(record: GameRecord, draws: Draws, count: int = CANDIDATES) -> Candidates:
    """The moves to confirm: each curve's ``count`` largest changes (the earliest first
    among equal ones), with the seats each needs (a team's curve: every seat)."""
    game = _game_of(record)
    needs: dict[int, set[int]] = {}
    for seat, points in _curve_draws(game, record, draws):
        means = [sum(p) / len(p) for p in points]
        changes = [(-abs(means[i] - means[i - 1]), i) for i in range(1, len(means))]
        for change, move in sorted(changes)[:count]:
            if change < 0:
                needed = range(game.num_seats) if seat is None else (seat,)
                needs.setdefault(move, set()).update(needed)
    return tuple((move, tuple(sorted(needs[move]))) for move in sorted(needs))


def sample_pairs(
    record: GameRecord,
    candidates: Candidates,
    share: Sequence[int],
    *,
    worlds: int = CONFIRM_WORLDS,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> Pairs:
    """Each candidate's fresh worlds of ``share`` (indices below ``worlds``): every seat
    of it, its result before the move and after it, world by world."""
    game = _game_of(record)
    estimator = Estimator(game, worlds, seed ^ _CONFIRM, stop, share)
    wanted = dict(candidates)
    out = []
    before: State[Any] | None = None
    for state, played, move in _positions(game, record):
        if move is not None and played is not None and move.index in wanted:
            assert before is not None
            seats = wanted[move.index]
            found = estimator.pair(before, state, played, move.index, seats)
            out.append(tuple(found[s] for s in seats))
        before = state.clone() if (0 if move is None else move.index) + 1 in wanted else None
    return tuple(out)


def join_pairs(shares: Sequence[Pairs]) -> Pairs:
    """The pairs of several shares of the fresh worlds as one (in the order given)."""
    return tuple(
        tuple(
            (
                sum((share[c][k][0] for share in shares), ()),
                sum((share[c][k][1] for share in shares), ()),
            )
            for k in range(len(shares[0][c]))
        )
        for c in range(len(shares[0]))
    )


def assemble(
    record: GameRecord,
    draws: Draws,
    *,
    worlds: int,
    seed: int = 0,
    candidates: Candidates = (),
    pairs: Pairs = (),
) -> Turning:
    """The curves from every world's results, and the moments the candidates' fresh worlds
    (``pairs``) find significant."""
    game = _game_of(record)
    positions = list(_positions(game, record))
    moves = [move for _state, _played, move in positions if move is not None]
    estimates = [[summary(point) for point in seat] for seat in draws]
    per_seat = tuple(tuple(e.mean for e in row) for row in estimates)
    lows = tuple(tuple(e.low for e in row) for row in estimates)
    highs = tuple(tuple(e.high for e in row) for row in estimates)
    curves = _curve_draws(game, record, draws)
    team = game.info.utility == Utility.COOPERATIVE
    team_series = tuple(summary(p).mean for p in curves[0][1]) if team else None
    members = _members(game, positions[-1][0])
    moments = []
    for seat, _points in curves:
        steps = []
        for (move, seats), found in zip(candidates, pairs, strict=True):
            by_seat = dict(zip(seats, found, strict=True))
            if seat is None and len(by_seat) == game.num_seats:
                before = _team([by_seat[s][0] for s in range(game.num_seats)], members)
                after = _team([by_seat[s][1] for s in range(game.num_seats)], members)
                steps.append((move, before, after))
            elif seat in by_seat:
                steps.append((move, *by_seat[seat]))
        moments += significant_changes(steps, seat)
    return Turning(
        record.game,
        team,
        per_seat,
        lows,
        highs,
        team_series,
        tuple(moves),
        tuple(moments),
        worlds,
        seed,
        len(pairs[0][0][0]) if pairs else 0,
    )


def turning_points(
    record: GameRecord,
    *,
    worlds: int | None = None,
    confirm: int | None = None,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> Turning:
    """The curves and moments of ``record`` (see the module's doc): ``worlds`` per point of
    the curves (by default :func:`default_worlds`), ``confirm`` per candidate (by default
    :data:`CONFIRM_WORLDS`, or three times ``worlds`` where that is told). Raises
    :class:`RecordError` for a record that does not replay, and :class:`Stopped` once
    ``stop()`` is true (it is asked before each playout: a server closing)."""
    confirm = max(1, int(confirm or confirm_worlds(worlds)))
    worlds = max(1, int(worlds or default_worlds(record)))
    draws = sample_worlds(record, range(worlds), worlds=worlds, seed=seed, stop=stop)
    candidates = candidate_moves(record, draws)
    pairs = sample_pairs(record, candidates, range(confirm), worlds=confirm, seed=seed, stop=stop)
    return assemble(record, draws, worlds=worlds, seed=seed, candidates=candidates, pairs=pairs)


def _members(game: Game[Any], state: State[Any]) -> list[int]:
    """The team's members: every seat, unless the game is over and some seat's result
    differs from the team's (a seat that abandoned its comrades)."""
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


def paired_interval(before: Sequence[float], after: Sequence[float]) -> tuple[float, float]:
    """The 95% interval of the mean change, world by world (the normal approximation)."""
    diffs = [a - b for b, a in zip(before, after, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    spread = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    margin = 1.96 * math.sqrt(spread / n)
    return max(-1.0, mean - margin), min(1.0, mean + margin)


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
    steps: Sequence[tuple[int, Sequence[float], Sequence[float]]],
    seat: int | None,
    count: int = MOMENTS,
) -> list[Moment]:
    """A curve's moments from its tested moves (``steps``: each move with every world's
    result before and after it): the ``count`` largest drops and rises among the changes
    the paired test finds significant (:func:`change_p`, the false discovery rate held at
    :data:`ALPHA` over the moves tested: :func:`discoveries`) and whose paired 95% interval
    excludes no change (what the reader is shown), the earliest first among equal changes."""
    tested = []
    for move, before, after in steps:
        mean_before, mean_after = sum(before) / len(before), sum(after) / len(after)
        low, high = paired_interval(before, after)
        p = change_p(before, after)
        tested.append(Moment(seat, move, mean_before, mean_after, p, low, high))
    kept = sorted(tested, key=lambda m: (m.p, m.move))[: discoveries([m.p for m in tested])]
    kept = [m for m in kept if m.low > 0 or m.high < 0]  # its interval excludes no change
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
    if moment.high > moment.low:  # the change's paired 95% interval, as ± its half-width
        change += f" (±{round((moment.high - moment.low) * 50)})"
    shown = moment.move if number is None else number
    return tr("lab.turning.moment", move=shown, what=what, change=change)
