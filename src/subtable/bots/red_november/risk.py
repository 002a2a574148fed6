"""The future the expert fears: disaster-track risk and the odds of the event deck.

Every unseen event card is in the deck (its order is secret); the expert counts
them by kind to estimate, per event drawn, how likely each disaster track is to
rise by one or two, and measures a track's risk as the chance of reaching its
end within a number of draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from subtable.bots.red_november.board import Board
from subtable.core.view import by_fields
from subtable.games.red_november import rules
from subtable.games.red_november.components import ROOMS, SEA, Components


@lru_cache(maxsize=65536)
def track_risk(level: int, events: int, q1: float, q2: float, end: int) -> float:
    """P(a track at ``level`` reaches ``end`` within ``events`` draws of +1 (q1) / +2 (q2))."""
    if level >= end:
        return 1.0
    return _run(level, q1, q2, end).lost(events)


class _Run:
    """A track's chain of draws from ``level`` on: the chance it has reached its end after
    each number of draws, extended as far as it is asked (one run serves every horizon).

    Shared by every expert of the process: an extension is computed aside and published in
    one assignment, so a thread reading it meanwhile sees the old run or the new, never half.
    """

    __slots__ = ("end", "level", "q0", "q1", "q2", "state")

    def __init__(self, level: int, q1: float, q2: float, end: int) -> None:
        self.level, self.q1, self.q2, self.end = level, q1, q2, end
        self.q0 = 1.0 - q1 - q2
        dist = [0.0] * end
        dist[level] = 1.0
        #: the chain's distribution after the draws run so far, and the chance of having
        #: reached the end after 0, 1, 2, … of them
        self.state: tuple[list[float], list[float]] = (dist, [0.0])

    def lost(self, events: int) -> float:
        dist, reached = self.state
        if events < len(reached):
            return reached[max(events, 0)]
        q0, q1, q2, end = self.q0, self.q1, self.q2, self.end
        last, low = end - 1, end - 2
        reached = list(reached)
        lost = reached[-1]
        for _ in range(events - len(reached) + 1):
            new = [0.0] * end
            for lv in range(max(self.level, 0), end):  # nothing lies below the start
                p = dist[lv]
                if not p:
                    continue
                new[lv] += p * q0
                if lv >= last:  # +1 and +2 both reach the end (same sums, same order as a loop)
                    lost += p * q1
                    lost += p * q2
                elif lv >= low:
                    new[lv + 1] += p * q1
                    lost += p * q2
                else:
                    new[lv + 1] += p * q1
                    new[lv + 2] += p * q2
            dist = new
            reached.append(lost)
        self.state = (dist, reached)
        return lost


_runs: dict[tuple[int, float, float, int], _Run] = {}


def _run(level: int, q1: float, q2: float, end: int) -> _Run:
    key = (level, q1, q2, end)
    run = _runs.get(key)
    if run is None:
        if len(_runs) > 8192:
            _runs.clear()
        run = _runs[key] = _Run(level, q1, q2, end)
    return run


class DeckOdds:
    """What the unseen event cards promise (counts by kind, rates per track)."""

    def __init__(self, c: Components, gnomes: int) -> None:
        self.c = c
        self.n = gnomes
        self.event_kinds = [e.kind for e in c.events]
        self.event_faint = [e.faint for e in c.events]
        self.all_events = [e.index for e in c.events]
        #: per disaster track: the event kinds that advance it, with their amounts
        self.track_kinds = {
            name: sorted({(e.kind, e.amount) for e in c.events if e.track == name})
            for name in c.tracks
        }
        #: per Time Track space ``k``: the Draw Event icons on spaces 1..k (the engine's
        #: count of the icons a keeper passes from ``k + 1`` to the end), and on the track
        self._icons_to = tuple(
            rules.icons_passed(c.event_icon, k + 1, 1) for k in range(c.time_top + 1)
        )
        self.track_icons = self._icons_to[-1]
        #: per set of face-up event cards: the deck's counts and the Faint Check odds
        self._cache: dict[tuple[tuple[int, ...], ...], _Deck] = {}
        #: per deck counts (by identity), total, dry rooms and fire: the track rates (shared)
        self._rates: dict[
            tuple[int, int, int, float], tuple[object, list[tuple[float, float]]]
        ] = {}

    def _deck(self, b: Board) -> _Deck:
        key = (b.event_discard, b.event_removed, b.event_aside)
        deck = self._cache.get(key)
        if deck is None:
            unseen = rules.unseen_events(self.c, b.event_discard, b.event_removed, b.event_aside)
            deck = _Deck(self._counts(b, unseen), self._faint_odds(unseen or self.all_events))
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[key] = deck
        return deck

    def remaining_events(self, b: Board) -> int:
        """A rough count of the events still to come: the Draw Event icons of the Time
        Track ahead of each keeper (his own space counted)."""
        icons = 0
        upto, top = self._icons_to, self.c.time_top
        for g in range(self.n):
            if b.on_board(g) and b.keeper[g] > 0:
                icons += upto[min(b.keeper[g], top)]
        return icons

    def deck_counts(self, b: Board) -> tuple[dict[str, int], int]:
        """Kinds of the event cards still in the deck (all unseen cards are in it), and how
        many (at least 1). The dict is shared: read it, do not change it."""
        return self._deck(b).counts

    def _counts(self, b: Board, unseen: list[int]) -> tuple[dict[str, int], int]:
        kinds = self.event_kinds
        counts: dict[str, int] = {}
        total = 0
        for i in unseen:
            counts[kinds[i]] = counts.get(kinds[i], 0) + 1
            total += 1
        if total == 0:  # the deck will be the reshuffled discards
            for i in self.all_events:
                if i not in b.event_aside and i not in b.event_removed:
                    counts[kinds[i]] = counts.get(kinds[i], 0) + 1
                    total += 1
        return counts, max(total, 1)

    def track_rates(
        self, b: Board, counts: dict[str, int], total: int
    ) -> list[tuple[float, float]]:
        """Per event drawn: chance of +1 and of +2 on each disaster track."""
        dry_rooms = sum(1 for r in range(1, SEA) if b.water[r] == 0)
        spread = 1.0 if any(b.fire[1:SEA]) else 0.0
        key = (id(counts), total, dry_rooms, spread)
        cached = self._rates.get(key)
        if cached is not None and cached[0] is counts:
            return cached[1]
        dry = dry_rooms / len(ROOMS)  # a fire lands on a room drawn at random
        rates: list[tuple[float, float]] = []
        for name in self.c.tracks:
            q1 = q2 = 0.0
            if name == "asphyxiation":
                q1 = (
                    dry * (counts.get("fire", 0) + counts.get("friendly_fire", 0))
                    + spread * counts.get("fire_spreads", 0)
                ) / total
            for kind, amount in self.track_kinds[name]:
                if amount == 1:
                    q1 += counts.get(kind, 0) / total
                else:
                    q2 += counts.get(kind, 0) / total
            rates.append((round(q1, 3), round(q2, 3)))
        if len(self._rates) > 8192:
            self._rates.clear()
        self._rates[key] = (counts, rates)  # holding ``counts`` keeps its id unique
        return rates

    def faint_chance(self, b: Board, level: int) -> float:
        """P(the next Faint Check card makes a gnome at ``level`` faint)."""
        if level <= 0:
            return 0.0
        odds = self._deck(b).faint
        return odds[min(level, len(odds) - 1)]

    def _faint_odds(self, pool: list[int]) -> tuple[float, ...]:
        """P(faint) for a card drawn from ``pool``, at each level up to the highest number
        printed (any higher level faints on the same cards)."""
        faint = self.event_faint
        return tuple(
            sum(1 for i in pool if rules.faints(faint[i], level)) / len(pool)
            for level in range(max(faint) + 1)
        )


@dataclass(frozen=True, slots=True)
class _Deck:
    """What the unseen event cards promise, for one set of face-up cards."""

    counts: tuple[dict[str, int], int]
    faint: tuple[float, ...]

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)
