"""A cooperative expert policy for Red November.

The policy reads only public information: a :class:`Board` built from a seat's
view (``view["public"]``) or — inside a search bot's own sampled world — from a
determinized state, through the same field names (deck orders are never read).

Each movement decision re-plans the whole turn. Every problem on board becomes
a *task* in a room (a repair, a fire, a low-water room, a blocked hatch, fresh
items); a task is worth the risk of losing that it removes (Destruction tokens
and disaster tracks, measured against the cards still in the event deck) plus
a long-run term, converted to minutes. The gnome picks the task with the best
value per minute — counting the walk (fires, floods and blocked hatches
included), the low-water penalty, the items it burns and the chance of success
— and takes one step of it: a move, an item, or the action. Tasks another gnome
can do clearly cheaper are left to him, so the crew spreads over the problems.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from subtable.core.game import Game
from subtable.core.rng import Rng
from subtable.games.red_november.actions import Kind
from subtable.games.red_november.components import FIX_KINDS, SEA, Components

# Decision phases (mirrors of the engine's public ``phase`` numbers).
P_MOVE, P_EXTRA, P_TRADE_GIVE, P_TRADE_BACK, P_DEFEND, P_AFTER, P_CHOICE = range(7)
C_SPREAD, C_BLOCK, C_DISCARD = 1, 2, 3

_FIELDS = ("fire", "water", "blocked", "track", "token", "keeper", "room", "alive",
           "abandoned", "fainted", "intox", "red_room", "hands", "stash", "active", "ghost",
           "phase", "decider", "choice", "choice_room", "partner", "t_grog", "t_fire_ok",
           "t_aqualung", "t_bonus", "t_lucky", "t_outside", "event_discard", "event_removed",
           "event_aside", "item_discard")


class Board:
    """The public fields of a position, by attribute (the engine's ``to_json`` names)."""

    __slots__ = (*_FIELDS, "event_deck_size", "item_deck_size")

    fire: list[bool]
    water: list[int]
    blocked: list[bool]
    track: list[int]
    token: list[int]
    keeper: list[int]
    room: list[int]
    alive: list[bool]
    abandoned: list[bool]
    fainted: list[bool]
    intox: list[int]
    red_room: list[int]
    hands: list[list[int] | None]
    stash: int
    active: int
    ghost: int
    phase: int
    decider: int
    choice: int
    choice_room: int
    partner: int
    t_grog: int
    t_fire_ok: bool
    t_aqualung: bool
    t_bonus: list[int]
    t_lucky: int
    t_outside: bool
    event_discard: list[int]
    event_removed: list[int]
    event_aside: list[int]
    item_discard: list[int]
    event_deck_size: int
    item_deck_size: int

    @classmethod
    def from_public(cls, public: Mapping[str, Any]) -> Board:
        """From ``view["public"]`` (a state's JSON with its secrets set to ``None``)."""
        b = cls()
        for name in _FIELDS:
            setattr(b, name, public[name])
        b.event_deck_size = int(public["event_deck_size"])
        b.item_deck_size = int(public["item_deck_size"])
        return b

    @classmethod
    def from_state(cls, state: Any) -> Board:
        """From a state object with the same fields (a search bot's sampled world)."""
        b = cls()
        for name in _FIELDS:
            setattr(b, name, getattr(state, name))
        b.event_deck_size = len(state.event_deck)
        b.item_deck_size = len(state.item_deck)
        return b

    def on_board(self, g: int) -> bool:
        """Alive and aboard (not swum away)."""
        return bool(self.alive[g] and not self.abandoned[g])


@dataclass(slots=True)
class Params:
    """Tunable weights of the policy (minutes are the currency)."""

    #: minutes one percentage point of "losing within the horizon" is worth
    minutes_per_risk: float = 100.0
    #: events ahead that the risk of a disaster track is measured over (short is best:
    #: measured over 3-15, 4-5 won most; far risks are left to the long-run term)
    horizon: int = 5
    #: long-run minutes per disaster-track level removed
    level_minutes: float = 3.0
    #: a task is left to a gnome whose cost is lower by this many minutes
    defer_margin: float = 3.0
    #: value kept for a task left to a better-placed gnome
    defer_keep: float = 0.35
    #: below this value per minute the gnome idles (moves to a hub, waits)
    idle_rate: float = 0.25
    #: minutes spent on an unaided repair with no deadline (short tries keep the crew together)
    plain_minutes: int = 4
    #: minutes a fire is worth, and more on a hub room
    fire_base: float = 2.0
    fire_hub: float = 2.0
    #: share of a repair's risk that a fire in its room adds
    fire_block: float = 0.2


@lru_cache(maxsize=65536)
def track_risk(level: int, events: int, q1: float, q2: float, end: int = 10) -> float:
    """P(a track at ``level`` reaches ``end`` within ``events`` draws of +1 (q1) / +2 (q2))."""
    if level >= end:
        return 1.0
    dist = [0.0] * end
    dist[level] = 1.0
    lost = 0.0
    q0 = 1.0 - q1 - q2
    for _ in range(events):
        new = [0.0] * end
        for lv in range(end):
            p = dist[lv]
            if not p:
                continue
            new[lv] += p * q0
            for step, q in ((1, q1), (2, q2)):
                if lv + step >= end:
                    lost += p * q
                else:
                    new[lv + step] += p * q
        dist = new
    return lost


class RNExpert:
    """The Red November heuristic: a pure function of the public board."""

    def __init__(self, game: Game[Any], params: Params | None = None) -> None:
        self.game = game
        c: Components = game.components  # type: ignore[attr-defined]
        self.c = c
        self.ix = game.index  # type: ignore[attr-defined]
        self.p = params or Params()
        self.n = game.num_seats
        self.item = {it.kind: it.index for it in c.items}
        self.n_items = len(c.items)
        self.fix_index = {name: i for i, name in enumerate(FIX_KINDS)}
        self.event_kinds = [e.kind for e in c.events]
        self.event_faint = [e.faint for e in c.events]
        self.all_events = [e.index for e in c.events]
        copies = [0] * len(c.items)
        for it in c.items:
            copies[it.index] = it.copies
        self.item_copies = copies
        self.repair_of_room: dict[int, list[str]] = {}
        for name, rep in c.repairs.items():
            self.repair_of_room.setdefault(rep.room, []).append(name)
        #: per disaster track: the event kinds that advance it, with their amounts
        self.track_kinds = {name: sorted({(e.kind, e.amount) for e in c.events
                                          if e.track == name}) for name in c.tracks}
        self.kind_of_repair = {"engine": Kind.FIX_ENGINE, "pumps": Kind.FIX_PUMPS,
                               "reactor": Kind.FIX_REACTOR, "missiles": Kind.STOP_MISSILES,
                               "kraken": Kind.KILL_KRAKEN}
        self.critical = sorted({rep.room for rep in c.repairs.values() if rep.room != SEA})
        self.hubs = self._hubs()
        self._walk_cache: dict[tuple[bool, ...], int] = {}

    # ------------------------------------------------------------- geography --
    def _hubs(self) -> list[int]:
        """Rooms ordered by their summed distance to the critical rooms (a calm board)."""
        def dist_sum(r: int) -> int:
            d = self._bfs(r, None)
            return sum(d.get(x, 99) for x in self.critical)
        return sorted(range(1, 11), key=dist_sum)

    def _bfs(self, src: int, b: Board | _NoHazard | None) -> dict[int, int]:
        """Static hatch distances (minutes ≈ hatches) from ``src``; ``b`` adds hazards."""
        dist = {src: 0}
        frontier = [src]
        while frontier:
            nxt = []
            for r in frontier:
                for dest, h in self.c.neighbours[r]:
                    if dest == SEA or dest in dist:
                        continue
                    if b is not None and (b.blocked[h] if h >= 0 else False):
                        continue
                    if b is not None and (b.fire[dest] or b.water[dest] == 2):
                        continue
                    extra = 1 if b is not None and b.water[dest] == 1 else 0
                    dist[dest] = dist[r] + 1 + extra
                    nxt.append(dest)
            frontier = nxt
        return dist

    def _step_cost(self, b: Board, src: int, dest: int, hatch: int, fire_ok: bool,
                   aqualung: bool) -> int | None:
        """The engine's movement cost rule, read off the board."""
        water = b.water
        if hatch < 0:
            if dest == SEA:
                return 2 if aqualung else None
            if water[dest] == 2 or (b.fire[dest] and not fire_ok):
                return None
            return 2
        if b.blocked[hatch]:
            return None
        ws = 0 if src == SEA else water[src]
        wd = water[dest]
        reflow = (ws == 2 and wd == 0) or (ws == 0 and wd == 2)
        if reflow:
            wd = 1
        if wd == 2:
            return None
        if b.fire[dest] and not reflow and not fire_ok:
            return None
        return 2 if wd == 1 else 1

    def _paths(self, b: Board, src: int, fire_ok: bool,
               aqualung: bool) -> tuple[dict[int, int], dict[int, int]]:
        """Dijkstra from ``src``: minutes to each space and the first step towards it."""
        dist = {src: 0}
        first: dict[int, int] = {}
        heap = [(0, src, 0)]
        while heap:
            d, r, f = heapq.heappop(heap)
            if d > dist.get(r, 1 << 30):
                continue
            for dest, h in self.c.neighbours[r]:
                cost = self._step_cost(b, r, dest, h, fire_ok, aqualung)
                if cost is None:
                    continue
                nd = d + cost
                if nd < dist.get(dest, 1 << 30):
                    dist[dest] = nd
                    first[dest] = dest if r == src else f
                    heapq.heappush(heap, (nd, dest, first[dest]))
        return dist, first

    # ------------------------------------------------------------ the future --
    def _remaining_events(self, b: Board) -> int:
        icons = 0
        for g in range(self.n):
            if b.on_board(g) and b.keeper[g] > 0:
                k = min(b.keeper[g], 57)
                icons += k // 3
        return icons

    def _deck_counts(self, b: Board) -> tuple[dict[str, int], int]:
        """Kinds of the event cards still in the deck (all unseen cards are in it)."""
        seen = set(b.event_discard) | set(b.event_removed) | set(b.event_aside)
        counts: dict[str, int] = {}
        total = 0
        for i in self.all_events:
            if i not in seen:
                counts[self.event_kinds[i]] = counts.get(self.event_kinds[i], 0) + 1
                total += 1
        if total == 0:  # the deck will be the reshuffled discards
            for i in self.all_events:
                if i not in b.event_aside and i not in b.event_removed:
                    counts[self.event_kinds[i]] = counts.get(self.event_kinds[i], 0) + 1
                    total += 1
        return counts, max(total, 1)

    def _track_rates(self, b: Board, counts: dict[str, int],
                     total: int) -> list[tuple[float, float]]:
        """Per event drawn: chance of +1 and of +2 on each disaster track."""
        c = self.c
        rates: list[tuple[float, float]] = []
        dry = sum(1 for r in range(1, 11) if b.water[r] == 0) / 10
        spread = 1.0 if any(b.fire[1:11]) else 0.0
        for name in c.tracks:
            q1 = q2 = 0.0
            if name == "asphyxiation":
                q1 = (dry * (counts.get("fire", 0) + counts.get("friendly_fire", 0))
                      + spread * counts.get("fire_spreads", 0)) / total
            for kind, amount in self.track_kinds[name]:
                if amount == 1:
                    q1 += counts.get(kind, 0) / total
                else:
                    q2 += counts.get(kind, 0) / total
            rates.append((round(q1, 3), round(q2, 3)))
        return rates

    def _faint_chance(self, b: Board, level: int) -> float:
        """P(the next Faint Check card makes a gnome at ``level`` faint)."""
        if level <= 0:
            return 0.0
        seen = set(b.event_discard) | set(b.event_removed) | set(b.event_aside)
        pool = [i for i in self.all_events if i not in seen] or self.all_events
        hits = sum(1 for i in pool if 0 < self.event_faint[i] <= level)
        return hits / len(pool)

    # ----------------------------------------------------------------- items --
    def _held(self, b: Board, g: int) -> list[int]:
        hand = b.hands[g]
        return hand if hand is not None else [0] * self.n_items

    def _item_values(self, b: Board, g: int) -> list[float]:
        """What one more card of each item kind is worth to gnome ``g`` (minutes)."""
        it = self.item
        v = [0.0] * self.n_items
        intox = b.intox[g]
        kraken = b.token[self.c.tokens.index("kraken")] >= 0
        lungs = sum(self._held(b, x)[it["aqualung"]] for x in range(self.n) if b.on_board(x))
        v[it["grog"]] = 1.5 if intox == 0 else (0.8 if intox == 1 else 0.3)
        v[it["fire_extinguisher"]] = 3.0 + (1.0 if any(b.fire[1:11]) else 0.0)
        v[it["water_pump"]] = 1.0
        v[it["crowbar"]] = 1.0 + 0.5 * sum(b.blocked)
        v[it["toolbox"]] = 3.0
        v[it["aqualung"]] = (25.0 if kraken and lungs == 0 else 1.5)
        v[it["engine_manual"]] = 2.5
        v[it["pump_manual"]] = 2.5
        v[it["reactor_manual"]] = 3.0
        v[it["deactivation_code"]] = 2.5
        v[it["harpoon"]] = 6.0 if kraken else 1.5
        v[it["lucky_charm"]] = 3.0
        v[it["coffee"]] = 0.5 + intox
        return v

    def _draw_value(self, b: Board, g: int, count: int) -> float:
        """Expected worth of ``count`` cards from the item deck."""
        values = self._item_values(b, g)
        pool = list(self.item_copies)
        pool[self.item["grog"]] -= sum(it.stash for it in self.c.items)
        for x in range(self.n):
            hand = b.hands[x]
            if hand is not None:
                for i, k in enumerate(hand):
                    pool[i] -= k
        if b.item_deck_size > 0:  # the discards are not in the deck until it runs out
            for i in b.item_discard:
                pool[i] -= 1
        total = sum(max(0, k) for k in pool)
        if total <= 0:
            return 0.0
        mean = sum(values[i] * max(0, k) for i, k in enumerate(pool)) / total
        size = sum(self._held(b, g))
        worth = 0.0
        for j in range(count):
            worth += mean * (1.0 if size + j < 4 else 0.5)
        return worth

    def _grog_cost(self, b: Board, g: int) -> float:
        """Minutes lost, in expectation, by drinking one Grog now."""
        level = b.intox[g]
        already = b.t_grog > 0
        after = min(4, level + 1)
        p_now = self._faint_chance(b, level) if already else 0.0
        p_after = self._faint_chance(b, after)
        return (p_after - p_now) * 14.0 + 1.0 + 0.8 * after

    # ------------------------------------------------------------- planning --
    def choose(self, b: Board, seat: int, legal: Sequence[int], rng: Rng) -> int:
        """The action id to play (one of ``legal``)."""
        if len(legal) == 1:
            return legal[0]
        phase = b.phase
        if phase == P_MOVE:
            return self._movement(b, seat, legal)
        if phase == P_EXTRA:
            return self._extra(b, seat, legal)
        if phase == P_AFTER:
            return self._after(b, seat, legal)
        if phase == P_CHOICE:
            return self._event_choice(b, seat, legal)
        if phase == P_DEFEND:
            defend = self.ix.id(Kind.DEFEND)
            return defend if defend in legal else legal[0]
        if phase in (P_TRADE_GIVE, P_TRADE_BACK):
            return self._trade(b, seat, legal)
        return legal[0]

    def candidates(self, b: Board, seat: int, legal: Sequence[int], width: int,
                   rng: Rng) -> list[int]:
        """Up to ``width`` distinct legal actions, the expert's choice first."""
        legal_set = set(legal)
        if b.phase == P_MOVE and self.at_turn_start(b) and len(legal) > 1:
            ranked = self.plan(b, alternatives=True)
            out = [next((i for i in ranked if i in legal_set), legal[0])]
        else:
            out = [self.choose(b, seat, legal, rng)]
            if b.phase != P_CHOICE:  # mid-turn: the plan chosen at its start goes on
                return out
            ranked = list(legal)
        for i in ranked:
            if len(out) >= width:
                break
            if i in legal_set and i not in out:
                out.append(i)
        return out

    # ------------------------------------------------------------ evaluation --
    def features(self, b: Board) -> list[float]:
        """Team-level features of a position (for the fitted win-probability model)."""
        c = self.c
        on = [g for g in range(self.n) if b.on_board(g) and b.keeper[g] >= 0]
        keepers = [b.keeper[g] for g in on] or [0]
        counts, total = self._deck_counts(b)
        rates = self._track_rates(b, counts, total)
        remaining = self._remaining_events(b)
        f = [1.0, max(keepers) / 60, min(keepers) / 60, len(on) / self.n]
        for t in range(len(c.tracks)):
            f.append(b.track[t] / 10)
        # a fixed 15 events, not Params.horizon: the fitted weights (rn_value) assume it
        for horizon in (remaining, min(remaining, 15)):
            for t in range(len(c.tracks)):
                q1, q2 = rates[t]
                f.append(track_risk(b.track[t], horizon, q1, q2))
        active = [t for t, pos in enumerate(b.token) if pos >= 0]
        danger = 0.0
        lungs = sum(self._held(b, g)[self.item["aqualung"]] for g in on)
        for t in active:
            name = next(n for n, rep in c.repairs.items() if rep.token == t)
            room = c.repairs[name].room
            best = -99
            for g in on:
                if b.room[g] in (0, SEA):
                    d = 0 if room == SEA else 3
                else:
                    dists = self._bfs(b.room[g], b)
                    if room == SEA:
                        d = min((dists[r] + 2 for r in c.exterior if r in dists), default=30)
                        d += 0 if lungs else 10
                    else:
                        d = dists.get(room, 30)
                best = max(best, b.keeper[g] - d - b.token[t])
            danger += max(0.0, min(1.0, (10 - best) / 10))
        f += [len(active) / 2, danger]
        fires = [r for r in range(1, 11) if b.fire[r]]
        f += [len(fires) / 10, sum(1 for r in fires if r in self.critical) / 4]
        f += [sum(1 for r in range(1, 11) if b.water[r] == 2) / 10,
              sum(1 for r in range(1, 11) if b.water[r] == 1) / 10,
              sum(1 for r in self.critical if b.water[r] == 2) / 4]
        f += [sum(b.blocked) / 15,
              (self._walks(tuple(b.blocked)) - self._walks((False,) * len(b.blocked))) / 20]
        held = [0] * self.n_items
        for g in on:
            for i, k in enumerate(self._held(b, g)):
                held[i] += k
        it = self.item
        f += [sum(held) / max(1, len(on)) / 5,
              (held[it["fire_extinguisher"]] + held[it["grog"]]) / 5,
              sum(held[it[k]] for k in ("toolbox", "engine_manual", "pump_manual",
                                        "reactor_manual", "deactivation_code")) / 5]
        f += [sum(b.intox[g] for g in on) / max(1, len(on)) / 4,
              sum(1 for g in on if b.fainted[g]) / 2, remaining / 76]
        return f

    def at_turn_start(self, b: Board) -> bool:
        """Whether ``b`` is the first decision of a turn (where the value model was fitted)."""
        a = b.active
        return (b.phase == P_MOVE and a >= 0 and b.ghost == b.keeper[a] and not b.t_grog
                and not b.t_fire_ok and not b.t_aqualung and not any(b.t_bonus)
                and not b.t_lucky)

    def evaluate(self, b: Board) -> list[float] | None:
        """Each seat's estimated return — the fitted chance that the crew is rescued — at a
        turn start (``None`` elsewhere: play on)."""
        from subtable.bots.rn_value import WEIGHTS

        if not self.at_turn_start(b):
            return None

        f = self.features(b)
        z = sum(w * x for w, x in zip(WEIGHTS, f, strict=False))
        p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
        return [0.0 if b.abandoned[g] else p for g in range(self.n)]

    # after the action: Coffee and the Lucky Charm ------------------------------
    def _icons_ahead(self, b: Board, g: int, until: int) -> int:
        ev = self.c.event_icon
        return sum(1 for s in range(until, b.keeper[g]) if ev[s])

    def _after(self, b: Board, seat: int, legal: Sequence[int]) -> int:
        a = b.active
        coffee = self.ix.id(Kind.USE, self.item["coffee"])
        lucky = self.ix.id(Kind.USE, self.item["lucky_charm"])
        if coffee in legal and b.t_grog > 0 and b.intox[a] >= 1:
            return coffee
        if lucky in legal and b.t_lucky == 0:
            icons = self._icons_ahead(b, a, max(b.ghost, 0))
            late = b.keeper[a] <= 15
            if icons >= 3 or (icons >= 2 and late) or (icons >= 1 and b.keeper[a] <= 6):
                return lucky
        return self.ix.id(Kind.DONE)

    # event choices --------------------------------------------------------------
    def _event_choice(self, b: Board, seat: int, legal: Sequence[int]) -> int:
        space = self.game.action_space
        if b.choice == C_SPREAD:
            return min(legal, key=lambda i: self._spread_harm(b, space[i].target))
        if b.choice == C_BLOCK:
            return min(legal, key=lambda i: self._block_harm(b, space[i].target))
        values = self._item_values(b, seat)
        return min(legal, key=lambda i: values[space[i].target])

    def _spread_harm(self, b: Board, room: int) -> float:
        harm = 0.0
        for g in range(self.n):
            if b.on_board(g) and b.room[g] == room:
                harm += 50.0 if b.fainted[g] else 2.0
        if room in self.critical:
            harm += 6.0
        if room in self.hubs[:3]:
            harm += 2.0
        harm += sum(1 for d in self.c.adjacent[room] if not b.fire[d] and b.water[d] == 0) * 0.3
        return harm

    def _block_harm(self, b: Board, hatch: int) -> float:
        saved = b.blocked[hatch]
        b.blocked = list(b.blocked)
        b.blocked[hatch] = True
        total = 0
        for src in {*self.hubs[:2], *(b.room[g] for g in range(self.n)
                                       if b.on_board(g) and b.room[g] not in (0, SEA))}:
            d = self._bfs(src, _NoHazard(b))
            total += sum(d.get(r, 12) for r in (*self.critical, self.c.stores_room))
        b.blocked[hatch] = saved
        return total

    # trades -----------------------------------------------------------------------
    def _trade(self, b: Board, seat: int, legal: Sequence[int]) -> int:
        """Give the card the other gnome needs most (while it helps), then stop."""
        done = self.ix.id(Kind.DONE)
        giver = seat
        taker = b.partner if b.phase == P_TRADE_GIVE else b.active
        space = self.game.action_space
        gives = [i for i in legal if space[i].kind == Kind.GIVE]
        if gives and b.hands[taker] is not None:
            best = max(gives, key=lambda i: self._transfer_gain(b, giver, taker,
                                                                space[i].target))
            if self._transfer_gain(b, giver, taker, space[best].target) > 0.5:
                return best
        return done if done in legal else legal[0]

    def _transfer_gain(self, b: Board, giver: int, taker: int, item: int) -> float:
        """Minutes gained by the crew when ``giver`` hands one ``item`` to ``taker``."""
        mine, theirs = self._held(b, giver), self._held(b, taker)
        if not mine[item]:
            return -1.0
        keep = self._item_values(b, giver)[item] * 0.6 ** (mine[item] - 1)
        gain = self._item_values(b, taker)[item] * 0.6 ** theirs[item]
        return gain - keep

    def _trade_partner(self, ctx: _Ctx) -> int | None:
        """A gnome here with whom a trade clearly pays (cards visible both ways)."""
        b, a = ctx.b, ctx.a
        if ctx.r == SEA or b.hands[a] is None or ctx.t < 1 + self._penalty(b, ctx.r):
            return None
        best, partner = 1.5, None
        for g in range(self.n):
            if (g == a or not b.on_board(g) or b.room[g] != ctx.r or b.fainted[g]
                    or b.hands[g] is None):
                continue
            gain = max(max(self._transfer_gain(b, a, g, i), self._transfer_gain(b, g, a, i))
                       for i in range(self.n_items))
            if gain > best:
                best, partner = gain, g
        return partner

    def _penalty(self, b: Board, room: int) -> int:
        return self.c.low_water_penalty if room != SEA and b.water[room] == 1 else 0

    # the extra move out of a burning room -----------------------------------------
    def _extra(self, b: Board, seat: int, legal: Sequence[int]) -> int:
        space = self.game.action_space
        moves = [i for i in legal if space[i].kind == Kind.MOVE]
        if moves:
            def badness(i: int) -> float:
                r = space[i].target
                if r == SEA:
                    return 100.0
                return b.water[r] * 2.0 + (0.0 if r in self.hubs[:4] else 0.5)
            return min(moves, key=badness)
        uses = [i for i in legal if space[i].kind == Kind.USE]
        values = self._item_values(b, seat)
        return min(uses, key=lambda i: values[space[i].target]) if uses else legal[0]

    # the main decision: movement, items and the action ----------------------------
    def _movement(self, b: Board, seat: int, legal: Sequence[int]) -> int:
        plan = self.plan(b)
        legal_set = set(legal)
        for step in plan:
            if step in legal_set:
                return step
        no_action = self.ix.id(Kind.NO_ACTION)
        if no_action in legal_set:
            return no_action
        done = self.ix.id(Kind.DONE)
        if done in legal_set:
            return done
        return legal[0]

    def plan(self, b: Board, alternatives: bool = False) -> list[int]:
        """Preferred action ids for the active gnome, best first.

        With ``alternatives``, the first steps of every worthwhile task follow the
        best one (for a search bot's candidate moves).
        """
        a = b.active
        r = b.room[a]
        ix = self.ix
        it = self.item
        hand = self._held(b, a)
        t = b.ghost
        out: list[int] = []
        if t <= 0:
            return [ix.id(Kind.DONE)]
        # Survival first: a gnome outside since the start of the turn must get back in.
        if r == SEA and b.t_outside:
            return self._go_inside(b, a)
        fire_items = [i for i in (it["fire_extinguisher"], it["grog"]) if hand[i]]
        can_fire = b.t_fire_ok or bool(fire_items)
        can_sea = b.t_aqualung or bool(hand[it["aqualung"]])
        plain = self._paths(b, r, b.t_fire_ok, b.t_aqualung)
        bold = self._paths(b, r, True, b.t_aqualung) if can_fire and not b.t_fire_ok else None
        sea = self._paths(b, r, b.t_fire_ok, True) if can_sea and not b.t_aqualung else None
        ctx = _Ctx(b, a, r, t, hand, plain, bold, sea, fire_items)
        choices: list[_Choice] = []
        for task in self._tasks(ctx):
            choice = self._evaluate(ctx, task)
            if choice is None and task.room not in plain[0] and task.value >= 5.0:
                sub = self._obstacle_task(ctx, task)
                if sub is not None:
                    choice = self._evaluate(ctx, sub)
            if choice is not None:
                choices.append(choice)
        choices.sort(key=lambda ch: -ch.rate)
        in_hazard = r != SEA and (b.fire[r] or b.water[r] == 2)
        if choices and (choices[0].rate >= self.p.idle_rate or in_hazard):
            out.extend(choices[0].steps)
        if in_hazard:
            out.extend(self._escape(ctx))
        out.extend(self._idle(ctx))
        if alternatives:
            out.extend(ch.steps[0] for ch in choices[1:])
        return out

    def _go_inside(self, b: Board, a: int) -> list[int]:
        """Back aboard: a safe room first, else a burning one (an item, then put it out)."""
        ix = self.ix
        safe: list[tuple[int, int]] = []
        burning: list[tuple[int, int]] = []
        for dest, _h in self.c.neighbours[SEA]:
            if b.water[dest] == 2:
                continue
            (burning if b.fire[dest] else safe).append(
                (self.hubs.index(dest), ix.id(Kind.MOVE, dest)))
        out = [i for _, i in sorted(safe)]
        if burning:
            out += [i for _, i in sorted(burning)]
            hand = self._held(b, a)
            out += [ix.id(Kind.USE, self.item[k]) for k in ("fire_extinguisher", "grog")
                    if hand[self.item[k]]]
        return out

    def _escape(self, ctx: _Ctx) -> list[int]:
        """Moves out of a deadly room (best first), then the items that allow one."""
        b = ctx.b
        ix = self.ix
        out = []
        dests = sorted(ctx.plain[0], key=lambda d: (ctx.plain[0][d], self.hubs.index(d)
                                                    if d != SEA else 99))
        for d in dests:
            if (d != ctx.r and d != SEA and ctx.plain[1].get(d) == d
                    and not b.fire[d]):
                out.append(ix.id(Kind.MOVE, d))
        for i in ctx.fire_items:
            out.append(ix.id(Kind.USE, i))
        # opening a hatch to a dry room drains high water (both rooms go low)
        if b.water[ctx.r] == 2:
            for dest, h in self.c.neighbours[ctx.r]:
                if h >= 0 and not b.blocked[h] and b.water[dest] == 0:
                    out.append(ix.id(Kind.OPEN, dest))
        return out

    def _idle(self, ctx: _Ctx) -> list[int]:
        """Nothing worth doing: drift to a free hub, else wait a minute."""
        b, a = ctx.b, ctx.a
        ix = self.ix
        partner = self._trade_partner(ctx)
        if partner is not None:
            return [ix.id(Kind.TRADE, partner)]
        taken = {b.room[g] for g in range(self.n) if g != a and b.on_board(g)}
        dist, first = ctx.plain
        if ctx.t > 3:
            for hub in self.hubs[:4]:
                if hub in taken or hub not in dist:
                    continue
                if hub == ctx.r:
                    break
                if dist[hub] <= 3 and not b.fire[hub]:
                    return [ix.id(Kind.MOVE, first[hub])]
                break
        return [ix.id(Kind.NO_ACTION)]

    # tasks --------------------------------------------------------------------------
    def _tasks(self, ctx: _Ctx) -> list[_Task]:
        b = ctx.b
        c = self.c
        p = self.p
        counts, total = self._deck_counts(b)
        rates = self._track_rates(b, counts, total)
        remaining = self._remaining_events(b)
        horizon = min(remaining, p.horizon)
        per_risk = p.minutes_per_risk * 100.0
        tasks: list[_Task] = []
        room_value: dict[int, float] = {}
        for name, rep in c.repairs.items():
            value = 0.0
            deadline = -1
            if rep.track >= 0:
                level = b.track[rep.track]
                after = max([x for x in c.reset_points if x < level], default=level)
                q1, q2 = rates[rep.track]
                risk = track_risk(level, horizon, q1, q2) - track_risk(after, horizon, q1, q2)
                rate = q1 + 2 * q2
                future = level + rate * remaining
                need = min(1.0, max(0.0, (future - (c.track_length - 1)) / 3.0))
                value += risk * per_risk + (level - after) * p.level_minutes * need
            if rep.token >= 0 and b.token[rep.token] >= 0:
                value += per_risk
                deadline = b.token[rep.token]
            if value <= 0.0:
                continue
            fix = self.fix_index[name]
            tasks.append(_Task(rep.room, fix, self.ix.first[self.kind_of_repair[name]], value,
                               deadline))
            room_value[rep.room] = room_value.get(rep.room, 0.0) + value
        fires = [r for r in range(1, 11) if b.fire[r]]
        if fires:
            spread_card = counts.get("fire_spreads", 0) / total
            p_spread = 1.0 - (1.0 - spread_card) ** max(horizon, 1)
            q1, q2 = rates[c.tracks.index("asphyxiation")]
            lv = b.track[c.tracks.index("asphyxiation")]
            bump = (track_risk(lv + 1, horizon, q1, q2) - track_risk(lv, horizon, q1, q2))
            for fr in fires:
                value = p.fire_base + room_value.get(fr, 0.0) * 0.9
                value += self._exposure(b, fr, counts, total, horizon, rates) * per_risk
                value += p_spread * (bump * per_risk + 3.0) / len(fires)
                if fr in self.hubs[:3]:
                    value += p.fire_hub
                guard = [t for t in tasks if t.room == fr and t.deadline >= 0]
                task = _Task(fr, self.fix_index["extinguish"], self.ix.first[Kind.EXTINGUISH],
                             value, -1)
                if guard:
                    task.reserve, task.follow = guard[0].deadline, guard[0].fix
                tasks.append(task)
        for fl in range(1, 11):
            if b.water[fl] == 1 and fl in room_value:
                tasks.append(_Task(fl, self.fix_index["pump"], self.ix.first[Kind.PUMP],
                                   min(6.0, 2.0 + room_value[fl] * 0.05), -1))
        for h, blocked in enumerate(b.blocked):
            if blocked:
                value = self._unblock_value(b, h)
                if value > 0.5:
                    x, y = c.hatches[h]
                    for end in (x, y):
                        tasks.append(_Task(end, self.fix_index["unblock"],
                                           self.ix.id(Kind.UNBLOCK, h, 1), value, -1))
        if b.red_room[ctx.a] != c.stores_room:
            avail = min(c.stores_max_draw, b.item_deck_size + len(b.item_discard))
            if avail > 0:
                tasks.append(_Task(c.stores_room, -1, self.ix.first[Kind.DRAW], 0.0, -1,
                                   draw=avail))
        if b.red_room[ctx.a] != c.cabin_room and b.stash > 0 and b.intox[ctx.a] <= 1:
            tasks.append(_Task(c.cabin_room, -2, self.ix.first[Kind.DRAW], 0.0, -1,
                               draw=min(c.cabin_max_draw, b.stash)))
        return tasks

    def _exposure(self, b: Board, room: int, counts: dict[str, int], total: int,
                  horizon: int, rates: list[tuple[float, float]]) -> float:
        """Risk that a fire in ``room`` bars a repair needed within the horizon."""
        c = self.c
        risk = 0.0
        for name in self.repair_of_room.get(room, ()):
            rep = c.repairs[name]
            if rep.token >= 0 and b.token[rep.token] < 0:
                token = c.tokens[rep.token]
                cards = sum(k for kind, k in counts.items()
                            if any(e.kind == kind and e.token == token for e in c.events))
                risk += (1.0 - (1.0 - cards / total) ** horizon) * self.p.fire_block
            if rep.track >= 0:
                q1, q2 = rates[rep.track]
                risk += track_risk(b.track[rep.track], horizon, q1, q2) * self.p.fire_block
        return risk

    def _obstacle_task(self, ctx: _Ctx, task: _Task) -> _Task | None:
        """For a room out of reach: the first obstacle to clear, as a task of its own."""
        if ctx.relaxed is None:
            ctx.relaxed = self._relaxed(ctx)
        found = ctx.relaxed.get(task.room)
        if found is None or found[1] is None:
            return None
        total, obstacle = found
        if obstacle is None:
            return None
        kind, room, hatch = obstacle
        if task.deadline >= 0 and ctx.t - total - task.deadline < 1:
            return None
        value = task.value * 0.7
        sure = task.deadline >= 0
        if kind == "unblock":
            return _Task(room, self.fix_index["unblock"], self.ix.id(Kind.UNBLOCK, hatch, 1),
                         value, -1, sure=sure)
        return _Task(room, self.fix_index["pump"], self.ix.first[Kind.PUMP], value, -1,
                     sure=sure)

    def _relaxed(self, ctx: _Ctx) -> dict[int, tuple[int, tuple[str, int, int] | None]]:
        """Dijkstra that may clear obstacles (unblock a hatch, pump a room to reflow)."""
        b = ctx.b
        saved = b.blocked
        b.blocked = list(saved)  # toggled while searching; the caller's list stays intact
        fire_ok = b.t_fire_ok or bool(ctx.fire_items)
        aqua = b.t_aqualung or bool(ctx.hand[self.item["aqualung"]])
        best: dict[int, tuple[int, tuple[str, int, int] | None]] = {ctx.r: (0, None)}
        heap: list[tuple[int, int]] = [(0, ctx.r)]
        clear_cost = 9
        while heap:
            d, u = heapq.heappop(heap)
            if d > best[u][0]:
                continue
            obstacle = best[u][1]
            can_act = u != SEA and not b.fire[u] and b.water[u] != 2
            for dest, h in self.c.neighbours[u]:
                cost = self._step_cost(b, u, dest, h, fire_ok, aqua)
                step_obstacle = obstacle
                if cost is None and h >= 0 and can_act:
                    if b.blocked[h]:
                        b.blocked[h] = False
                        cost = self._step_cost(b, u, dest, h, fire_ok, aqua)
                        b.blocked[h] = True
                        if cost is not None:
                            cost += clear_cost
                            step_obstacle = obstacle or ("unblock", u, h)
                    elif b.water[u] == 1 and b.water[dest] == 2:
                        cost = clear_cost + 2
                        step_obstacle = obstacle or ("pump", u, -1)
                if cost is None:
                    continue
                nd = d + cost
                if dest not in best or nd < best[dest][0]:
                    best[dest] = (nd, step_obstacle)
                    heapq.heappush(heap, (nd, dest))
        b.blocked = saved
        return best

    def _unblock_value(self, b: Board, h: int) -> float:
        """Minutes an unblocked hatch ``h`` saves on the walks between key rooms."""
        held = tuple(b.blocked)
        free = list(held)
        free[h] = False
        return (self._walks(held) - self._walks(tuple(free))) * 0.4

    def _walks(self, blocked: tuple[bool, ...]) -> int:
        """Summed hub-to-key-room walks with these hatches blocked (cached)."""
        cached = self._walk_cache.get(blocked)
        if cached is None:
            board = _NoHazard.of(blocked)
            cached = sum(self._bfs(src, board).get(r, 12)
                         for src in self.hubs[:2] for r in (*self.critical, self.c.stores_room))
            if len(self._walk_cache) > 4096:
                self._walk_cache.clear()
            self._walk_cache[blocked] = cached
        return cached

    def _evaluate(self, ctx: _Ctx, task: _Task) -> _Choice | None:
        b, a = ctx.b, ctx.a
        c = self.c
        ix = self.ix
        room = task.room
        # the route: plain, through fire (burning an item), or out to sea
        route = self._route(ctx, room)
        if route is None:
            return None
        walk, first, route_items, route_cost = route
        if room != SEA and room != ctx.r and b.water[room] == 2:
            arrive_water = 1
        else:
            arrive_water = 0 if room == SEA else b.water[room]
        if room != SEA and b.fire[room] and task.fix != self.fix_index["extinguish"]:
            return None
        if room == ctx.r and room != SEA and b.water[room] == 2:
            return None
        pumps = task.fix == self.fix_index["pump"]
        fire_fix = task.fix == self.fix_index["extinguish"]
        pen = c.low_water_penalty if (arrive_water == 1 and not pumps and not fire_fix) else 0
        left = ctx.t - walk - pen
        if task.deadline >= 0:
            left = min(left, ctx.t - walk - pen - task.deadline)
        if left < 1:
            return None
        steps: list[int] = []
        item_cost = route_cost
        if task.draw:
            if room == c.cabin_room:
                count = min(task.draw, left, 2)
                value = count * (1.2 if b.intox[a] == 0 else 0.6)
                if sum(ctx.hand) >= 4:
                    value *= 0.5
            else:
                count = min(task.draw, left)
                value = self._draw_value(b, a, count)
            if count < 1:
                return None
            minutes = count
            prob = 1.0
            action = task.first + count - 1
            uses: list[int] = []
        else:
            bonus = b.t_bonus[task.fix] if room == ctx.r else 0
            held = list(ctx.hand)
            for i in route_items:
                held[i] -= 1
            uses = []
            values = self._item_values(b, a)
            special = sorted((i for i in range(self.n_items)
                              if held[i] and c.items[i].bonus[task.fix] > 0
                              and not c.items[i].intoxicates),
                             key=lambda i: -c.items[i].bonus[task.fix])
            for i in special:
                for _ in range(held[i]):
                    if bonus >= 9:
                        break
                    bonus += c.items[i].bonus[task.fix]
                    uses.append(i)
                    item_cost += values[i] * 0.6
            minutes = max(1, min(10 - bonus, left, c.max_fix_minutes))
            grog = self.item["grog"]
            if held[grog] and bonus < 9 and b.intox[a] <= 3:
                gain_time = min(3, minutes - 1) if minutes + bonus >= 10 else 0
                gain_prob = min(0.3, max(0.0, (10 - minutes - bonus) / 10))
                gain = gain_time + gain_prob * task.value * self._keep(ctx, task)
                cost = self._grog_cost(b, a)
                if gain > cost:
                    bonus += 3
                    uses.append(grog)
                    item_cost += cost
                    minutes = max(1, min(10 - bonus, left, c.max_fix_minutes))
            prob = min(1.0, (minutes + bonus) / 10)
            value = task.value * self._keep(ctx, task)
            run = minutes
            if task.reserve >= 0:  # a fire guarding a repair against a deadline
                slack = ctx.t - walk - task.reserve
                follow = sum(c.items[i].bonus[task.follow] * held[i] for i in range(self.n_items)
                             if not c.items[i].intoxicates)
                best = (-1.0, run)
                for m1 in range(1, minutes + 1):
                    p2 = min(1.0, max(0.0, (slack - m1 + follow) / 10))
                    best = max(best, (min(1.0, (m1 + bonus) / 10) * p2, m1))
                prob, run = best
                if prob <= 0:
                    return None
            elif bonus == 0 and pen == 0 and task.deadline < 0 and not task.sure and not fire_fix:
                run = min(run, self.p.plain_minutes)
            action = task.first + run - 1
        spend = walk + pen + minutes + item_cost
        rate = prob * value / max(spend, 1.0)
        if room == ctx.r:
            steps = [ix.id(Kind.USE, i) for i in uses] + [action]
        else:
            steps = [self._first_step(ctx, room, first, route_items)]
        return _Choice(rate, steps)

    def _keep(self, ctx: _Ctx, task: _Task) -> float:
        """How much of a task's value stays with the active gnome (others may be closer)."""
        b, a = ctx.b, ctx.a
        if task.room == ctx.r:
            return 1.0
        mine = ctx.plain[0].get(task.room)
        if mine is None:
            mine = 12
        if ctx.others is None:
            ctx.others = [(g, b.keeper[g], self._bfs(b.room[g], b)) for g in range(self.n)
                          if g != a and b.on_board(g) and b.keeper[g] > 0
                          and b.room[g] not in (0, SEA)]
        for _g, keeper, dists in ctx.others:
            d = dists.get(task.room)
            if d is None:
                continue
            if task.deadline >= 0 and keeper - d - task.deadline < 8:
                continue
            if keeper - d < 8:
                continue
            if d + self.p.defer_margin < mine:
                return self.p.defer_keep
        return 1.0

    def _route(self, ctx: _Ctx, room: int) -> tuple[int, dict[int, int], list[int], float] | None:
        """(minutes, first steps, items burnt on the way, their cost) to reach ``room``."""
        b = ctx.b
        it = self.item
        if room == ctx.r:
            return 0, {}, [], 0.0
        options: list[tuple[float, int, dict[int, int], list[int], float]] = []
        dist, first = ctx.plain
        if room in dist and not (room == SEA and not b.t_aqualung):
            options.append((dist[room], dist[room], first, [], 0.0))
        if ctx.bold is not None and room in ctx.bold[0]:
            item = ctx.fire_items[0]
            cost = (self._item_values(b, ctx.a)[item] if item != it["grog"]
                    else self._grog_cost(b, ctx.a))
            d = ctx.bold[0][room]
            options.append((d + cost, d, ctx.bold[1], [item], cost))
        if room == SEA and ctx.sea is not None and SEA in ctx.sea[0]:
            d = ctx.sea[0][SEA]
            cost = self._item_values(b, ctx.a)[it["aqualung"]] * 0.3
            options.append((d + cost, d, ctx.sea[1], [it["aqualung"]], cost))
        if not options:
            return None
        _, walk, first_map, items, cost = min(options, key=lambda o: o[0])
        return walk, first_map, items, cost

    def _first_step(self, ctx: _Ctx, room: int, first: dict[int, int],
                    route_items: list[int]) -> int:
        """The next decision on the way to ``room``: an enabling item, or a move."""
        b = ctx.b
        step = first[room]
        if step == SEA and not b.t_aqualung:
            return self.ix.id(Kind.USE, self.item["aqualung"])
        if step != SEA and b.fire[step] and not b.t_fire_ok and route_items:
            return self.ix.id(Kind.USE, route_items[0])
        return self.ix.id(Kind.MOVE, step)


class _NoHazard:
    """A board seen for routing only through blocked hatches (no fire or water)."""

    __slots__ = ("blocked", "fire", "water")

    def __init__(self, b: Board) -> None:
        self.blocked = b.blocked
        self.fire = [False] * (SEA + 1)
        self.water = [0] * (SEA + 1)

    @classmethod
    def of(cls, blocked: tuple[bool, ...]) -> _NoHazard:
        """A hazard-free board with these hatches blocked."""
        new = cls.__new__(cls)
        new.blocked = list(blocked)
        new.fire = [False] * (SEA + 1)
        new.water = [0] * (SEA + 1)
        return new


@dataclass(slots=True)
class _Task:
    room: int
    fix: int  # FIX_KINDS index; -1 item deck, -2 grog stash
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
class _Choice:
    rate: float
    steps: list[int]


@dataclass(slots=True)
class _Ctx:
    b: Board
    a: int
    r: int
    t: int
    hand: list[int]
    plain: tuple[dict[int, int], dict[int, int]]
    bold: tuple[dict[int, int], dict[int, int]] | None
    sea: tuple[dict[int, int], dict[int, int]] | None
    fire_items: list[int]
    others: list[tuple[int, int, dict[int, int]]] | None = None
    relaxed: dict[int, tuple[int, tuple[str, int, int] | None]] | None = None
