"""The problems on board as tasks, each worth the risk of losing that it removes.

A repair is worth the drop in its disaster track's risk over the horizon (plus a
long-run term) or, against a Destruction token, the whole game; a fire is worth
what it threatens (its room's repairs, the asphyxiation track, spreading); low
water on a repair room, a blocked hatch on the key walks and fresh items are
tasks too. Values are minutes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from subtable.bots.red_november.board import Board
from subtable.bots.red_november.items import ItemValues
from subtable.bots.red_november.params import Params
from subtable.bots.red_november.paths import Hazards, Obstacle, Paths, Routes
from subtable.bots.red_november.risk import DeckOdds, track_risk
from subtable.games.red_november import rules
from subtable.games.red_november.actions import ActionIndex, Kind
from subtable.games.red_november.components import FIX_KINDS, SEA, Components

#: each fix kind's index (``FIX_KINDS``)
FIX = {name: i for i, name in enumerate(FIX_KINDS)}
#: a task's ``fix`` for drawing from the item deck, and from the Grog stash
DRAW_DECK, DRAW_STASH = -1, -2
#: the action kind of each repair
REPAIR_KIND = {
    "engine": Kind.FIX_ENGINE,
    "pumps": Kind.FIX_PUMPS,
    "reactor": Kind.FIX_REACTOR,
    "missiles": Kind.STOP_MISSILES,
    "kraken": Kind.KILL_KRAKEN,
}


@dataclass(slots=True)
class Task:
    """Something worth doing in a room."""

    room: int
    fix: int  # FIX_KINDS index; DRAW_DECK, DRAW_STASH
    first: int  # action id of the 1-minute (1-card) version
    value: float
    deadline: int  # a Destruction token's space, or -1
    draw: int = 0
    #: a fire on a room whose repair has a deadline: that deadline, and the repair
    reserve: int = -1
    follow: int = -1
    #: spend the minutes for a sure success (no short tries)
    sure: bool = False


@dataclass(slots=True)
class Turn:
    """The active gnome's situation while his turn is planned."""

    b: Board
    #: the active gnome, his space, his minutes left and his cards
    a: int
    r: int
    t: int
    hand: Sequence[int]
    #: walks as he stands, through fire (an item burnt), out to sea (an Aqualung used)
    plain: Paths
    bold: Paths | None
    sea: Paths | None
    #: the items in hand that let him enter a burning room
    fire_items: list[int]
    #: the other gnomes who could help: (gnome, keeper, distances), filled on demand
    others: list[tuple[int, int, dict[int, int]]] | None = None
    #: walks that may clear obstacles, filled on demand
    relaxed: dict[int, tuple[int, Obstacle | None]] | None = None
    #: per fix kind, the most bonus a roll could have (this turn's and every card in hand),
    #: filled on demand
    bonus_most: tuple[int, ...] | None = None


def situation(b: Board, routes: Routes, items: ItemValues) -> Turn:
    """The active gnome's situation: hand, minutes, and the walks open to him."""
    a = b.active
    r = b.room[a]
    it = items.item
    hand = items.held(b, a)
    fire_items = [i for i in (it["fire_extinguisher"], it["grog"]) if hand[i]]
    can_fire = b.this_turn.fire_ok or bool(fire_items)
    can_sea = b.this_turn.aqualung or bool(hand[it["aqualung"]])
    paths = routes.paths
    fire_ok, aqualung = b.this_turn.fire_ok, b.this_turn.aqualung
    plain = paths(b, r, fire_ok, aqualung)
    bold = paths(b, r, True, aqualung) if can_fire and not fire_ok else None
    sea = paths(b, r, fire_ok, True) if can_sea and not aqualung else None
    return Turn(b, a, r, b.ghost, hand, plain, bold, sea, fire_items)


class _Odds(NamedTuple):
    """What the event deck holds for a turn's tasks: its counts by kind and their total,
    each track's rates (one step, two steps per event), the events left, and the horizon
    the risks are measured over."""

    counts: dict[str, int]
    total: int
    rates: list[tuple[float, float]]
    remaining: int
    horizon: int


class Tasks:
    """Finds and values the tasks of a turn."""

    def __init__(
        self,
        c: Components,
        ix: ActionIndex,
        p: Params,
        routes: Routes,
        odds: DeckOdds,
        aqualung: int,
    ) -> None:
        self.c = c
        self.ix = ix
        self.p = p
        self.routes = routes
        self.odds = odds
        self.aqualung = aqualung
        self.repair_of_room: dict[int, list[str]] = {}
        for name, rep in c.repairs.items():
            self.repair_of_room.setdefault(rep.room, []).append(name)
        self.asphyxiation = c.tracks.index("asphyxiation")
        #: per Destruction token: the event kinds that place it
        self._token_kinds = [
            frozenset(e.kind for e in c.events if e.token == token) for token in c.tokens
        ]
        #: :meth:`find`'s answers, by what they are read from
        self._found: dict[tuple[object, ...], list[Task]] = {}
        #: how often :meth:`find` was asked: a turn planned whole (the tests count plans)
        self.asked = 0

    def find(self, turn: Turn) -> list[Task]:
        """Every task worth considering this turn. Shared: read the list and its tasks, never
        change them (the same tasks serve every step of a walk and every sampled world that
        shows the same board: cached by what they are read from)."""
        self.asked += 1
        b, a = turn.b, turn.a
        key = (
            a,
            b.track,
            b.token,
            b.fire,
            b.water,
            b.blocked,
            b.keeper,
            b.alive,
            b.abandoned,
            b.event_discard,
            b.event_removed,
            b.event_aside,
            b.red_room[a],
            b.intoxication[a],
            b.item_deck_size + len(b.item_discard),
            b.stash,
        )
        tasks = self._found.get(key)
        if tasks is None:
            if len(self._found) > 4096:
                self._found.clear()
            tasks = self._found[key] = self._find(turn)
        return tasks

    def _find(self, turn: Turn) -> list[Task]:
        """:meth:`find`, computed: it reads only the board's fields in :meth:`find`'s key."""
        b = turn.b
        counts, total = self.odds.deck_counts(b)
        rates = self.odds.track_rates(b, counts, total)
        remaining = self.odds.remaining_events(b)
        odds = _Odds(counts, total, rates, remaining, min(remaining, self.p.horizon))
        tasks: list[Task] = []
        room_value: dict[int, float] = {}
        self._repair_tasks(b, odds, tasks, room_value)
        self._fire_tasks(b, odds, tasks, room_value)
        for fl in range(1, SEA):
            if b.water[fl] == 1 and fl in room_value:
                value = min(6.0, 2.0 + room_value[fl] * 0.05)
                tasks.append(Task(fl, FIX["pump"], self.ix.first[Kind.PUMP], value, -1))
        self._unblock_tasks(b, tasks)
        self._draw_tasks(turn, tasks)
        return tasks

    def _repair_tasks(
        self, b: Board, odds: _Odds, tasks: list[Task], room_value: dict[int, float]
    ) -> None:
        """The repairs worth doing (the risk they take off their track, a Destruction token
        pushed back), added to ``tasks``; ``room_value`` sums their values by room."""
        c = self.c
        p = self.p
        per_risk = p.minutes_per_risk * 100.0
        for name, rep in c.repairs.items():
            value = 0.0
            deadline = -1
            if rep.track >= 0:
                level = b.track[rep.track]
                after = rules.track_after_repair(c, level)
                q1, q2 = odds.rates[rep.track]
                end = c.track_length
                risk = track_risk(level, odds.horizon, q1, q2, end) - track_risk(
                    after, odds.horizon, q1, q2, end
                )
                rate = q1 + 2 * q2
                future = level + rate * odds.remaining
                need = min(1.0, max(0.0, (future - (c.track_length - 1)) / 3.0))
                value += risk * per_risk + (level - after) * p.level_minutes * need
            if rep.token >= 0 and b.token[rep.token] >= 0:
                value += per_risk
                deadline = b.token[rep.token]
            if value <= 0.0:
                continue
            tasks.append(
                Task(rep.room, FIX[name], self.ix.first[REPAIR_KIND[name]], value, deadline)
            )
            room_value[rep.room] = room_value.get(rep.room, 0.0) + value

    def _fire_tasks(
        self, b: Board, odds: _Odds, tasks: list[Task], room_value: dict[int, float]
    ) -> None:
        """A task per fire: its base value, the repairs in its room, the risk of spreading
        and suffocating; a fire guarding a repair with a deadline keeps time for it."""
        fires = [r for r in range(1, SEA) if b.fire[r]]
        if not fires:
            return
        c = self.c
        p = self.p
        per_risk = p.minutes_per_risk * 100.0
        horizon = odds.horizon
        spread_card = odds.counts.get("fire_spreads", 0) / odds.total
        p_spread = 1.0 - (1.0 - spread_card) ** max(horizon, 1)
        q1, q2 = odds.rates[self.asphyxiation]
        lv = b.track[self.asphyxiation]
        bump = track_risk(lv + 1, horizon, q1, q2, c.track_length) - track_risk(
            lv, horizon, q1, q2, c.track_length
        )
        for fr in fires:
            value = p.fire_base + room_value.get(fr, 0.0) * 0.9
            exposure = self._exposure(b, fr, odds.counts, odds.total, horizon, odds.rates)
            value += exposure * per_risk
            value += p_spread * (bump * per_risk + 3.0) / len(fires)
            if fr in self.routes.hubs[:3]:
                value += p.fire_hub
            guard = [t for t in tasks if t.room == fr and t.deadline >= 0]
            task = Task(fr, FIX["extinguish"], self.ix.first[Kind.EXTINGUISH], value, -1)
            if guard:
                task.reserve, task.follow = guard[0].deadline, guard[0].fix
            tasks.append(task)

    def _unblock_tasks(self, b: Board, tasks: list[Task]) -> None:
        """Unblocking each blocked hatch worth it, from either of its rooms."""
        for h, blocked in enumerate(b.blocked):
            if blocked:
                value = self.routes.unblock_value(b, h)
                if value > 0.5:
                    x, y = self.c.hatches[h]
                    for end in (x, y):
                        tasks.append(
                            Task(end, FIX["unblock"], self.ix.id(Kind.UNBLOCK, h, 1), value, -1)
                        )

    def _draw_tasks(self, turn: Turn, tasks: list[Task]) -> None:
        """Drawing items in the Equipment Stores, and in the Captain's Cabin when sober
        enough; their time is counted when the task is evaluated."""
        b, a = turn.b, turn.a
        c = self.c
        cards = b.item_deck_size + len(b.item_discard)
        avail = rules.max_draw(c, c.stores_room, b.red_room[a], c.stores_max_draw, cards, b.stash)
        if avail > 0:
            tasks.append(
                Task(c.stores_room, DRAW_DECK, self.ix.first[Kind.DRAW], 0.0, -1, draw=avail)
            )
        if b.intoxication[a] <= 1:
            avail = rules.max_draw(c, c.cabin_room, b.red_room[a], c.cabin_max_draw, cards, b.stash)
            if avail > 0:
                tasks.append(
                    Task(c.cabin_room, DRAW_STASH, self.ix.first[Kind.DRAW], 0.0, -1, draw=avail)
                )

    def _exposure(
        self,
        b: Board,
        room: int,
        counts: dict[str, int],
        total: int,
        horizon: int,
        rates: list[tuple[float, float]],
    ) -> float:
        """Risk that a fire in ``room`` bars a repair needed within the horizon."""
        c = self.c
        risk = 0.0
        for name in self.repair_of_room.get(room, ()):
            rep = c.repairs[name]
            if rep.token >= 0 and b.token[rep.token] < 0:
                kinds = self._token_kinds[rep.token]
                cards = sum(k for kind, k in counts.items() if kind in kinds)
                risk += (1.0 - (1.0 - cards / total) ** horizon) * self.p.fire_block
            if rep.track >= 0:
                q1, q2 = rates[rep.track]
                risk += (
                    track_risk(b.track[rep.track], horizon, q1, q2, c.track_length)
                    * self.p.fire_block
                )
        return risk

    def obstacle(self, turn: Turn, task: Task) -> Task | None:
        """For a room out of reach: the first obstacle to clear, as a task of its own."""
        if turn.relaxed is None:
            b = turn.b
            fire_ok = b.this_turn.fire_ok or bool(turn.fire_items)
            aqua = b.this_turn.aqualung or bool(turn.hand[self.aqualung])
            turn.relaxed = self.routes.relaxed(b, turn.r, fire_ok, aqua)
        found = turn.relaxed.get(task.room)
        if found is None:
            return None
        total, obstacle = found
        if obstacle is None:
            return None
        kind, room, hatch = obstacle
        late = task.deadline >= 0 and turn.t - total - task.deadline < 1
        if late and not self._crew_finishes(turn, task, obstacle):
            return None
        value = task.value * 0.7
        sure = task.deadline >= 0
        if kind == "unblock":
            return Task(
                room, FIX["unblock"], self.ix.id(Kind.UNBLOCK, hatch, 1), value, -1, sure=sure
            )
        return Task(room, FIX["pump"], self.ix.first[Kind.PUMP], value, -1, sure=sure)

    def _crew_finishes(self, turn: Turn, task: Task, obstacle: Obstacle) -> bool:
        """Whether the active gnome can clear ``obstacle`` (a sure try) before ``task``'s
        deadline and another gnome can then reach ``task`` with time for a try: a way cut off
        on the way to a Destruction token is worth opening for the crew, not only for oneself."""
        assert turn.relaxed is not None
        kind, room, hatch = obstacle
        b = turn.b
        reach = turn.relaxed.get(room)
        if reach is None or reach[1] is not None:
            return False
        fix = FIX["unblock"] if kind == "unblock" else FIX["pump"]
        bonus = max((self.c.items[i].bonus[fix] for i, k in enumerate(turn.hand) if k), default=0)
        cleared_at = turn.t - reach[0] - max(1, rules.DIE - bonus)
        if kind == "unblock" and b.water[room] == 1:
            cleared_at -= self.c.low_water_penalty
        if cleared_at <= task.deadline:
            return False
        if kind == "unblock":
            blocked = list(b.blocked)
            blocked[hatch] = False
            hz = Hazards(b.water, b.fire, tuple(blocked))
        else:
            water = list(b.water)
            water[room] = 0
            hz = Hazards(tuple(water), b.fire, b.blocked)
        pen = self.c.low_water_penalty if b.water[task.room] == 1 else 0
        for g in range(len(b.room)):
            if g == turn.a or not b.on_board(g) or b.room[g] in (0, SEA) or b.fainted[g]:
                continue
            walk = self.routes.paths_through(hz, b.room[g], False, False)[0].get(task.room)
            if walk is not None and b.keeper[g] - walk - pen - task.deadline >= 2:
                return True
        return False
