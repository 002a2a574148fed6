"""Walking the submarine: distances, the best first step, hub rooms, the cost of a hatch.

Step costs are the engine's own rule (:func:`subtable.games.red_november.rules.move_cost`);
the rough hatch counts (:meth:`Routes.distances`) are the expert's estimate of how far a
gnome is, used to share the work out and to price a blocked hatch.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import NamedTuple

from subtable.bots.red_november.board import Board
from subtable.games.red_november import rules
from subtable.games.red_november.components import SEA, Components

#: minutes and first steps of a shortest-path search: ``(dist, first)``
Paths = tuple[dict[int, int], dict[int, int]]
#: what blocks a way: ``(kind, room, hatch)`` with kind ``"unblock"`` or ``"pump"``
Obstacle = tuple[str, int, int]
#: per space, the ``(destination, minutes)`` of every passable hatch, in ``neighbours`` order
Edges = tuple[tuple[tuple[int, int], ...], ...]

_FAR = 1 << 30


class Hazards(NamedTuple):
    """What a walk goes around: per space the water and fire, per hatch a block."""

    water: tuple[int, ...]
    fire: tuple[bool, ...]
    blocked: tuple[bool, ...]


def _lowered(water: tuple[int, ...], room: int) -> tuple[int, ...]:
    """``water`` with ``room`` at low water."""
    low = list(water)
    low[room] = 1
    return tuple(low)


class Routes:
    """The board's geography, read from the components (static) and a board (hazards)."""

    def __init__(self, c: Components) -> None:
        self.c = c
        #: the rooms a repair is made in (the Sea aside)
        self.critical = sorted({rep.room for rep in c.repairs.values() if rep.room != SEA})
        self.open_hatches: tuple[bool, ...] = (False,) * len(c.hatches)
        self._dry = (0,) * (SEA + 1)
        self._calm = (False,) * (SEA + 1)
        #: the rooms by their summed distance to the critical rooms on a calm board
        self.hubs = self._hubs()
        self._walk_cache: dict[tuple[bool, ...], int] = {}
        self._edge_cache: dict[tuple[object, ...], Edges] = {}
        self._dist_cache: dict[tuple[object, ...], dict[int, int]] = {}
        self._path_cache: dict[tuple[object, ...], Paths] = {}
        self._calm_cache: dict[tuple[int, tuple[bool, ...]], dict[int, int]] = {}

    def _hubs(self) -> list[int]:
        def dist_sum(r: int) -> int:
            d = self._bfs(r, None, None, None)
            return sum(d.get(x, 99) for x in self.critical)

        return sorted(range(1, SEA), key=dist_sum)

    # ---------------------------------------------------------- rough distances --
    def _bfs(
        self,
        src: int,
        blocked: Sequence[bool] | None,
        fire: Sequence[bool] | None,
        water: Sequence[int] | None,
    ) -> dict[int, int]:
        dist = {src: 0}
        frontier = [src]
        neighbours = self.c.neighbours
        while frontier:
            nxt = []
            for r in frontier:
                for dest, h in neighbours[r]:
                    if dest == SEA or dest in dist:
                        continue
                    if blocked is not None and (blocked[h] if h >= 0 else False):
                        continue
                    if fire is not None and water is not None:
                        if fire[dest] or water[dest] == 2:
                            continue
                        extra = 1 if water[dest] == 1 else 0
                    else:
                        extra = 0
                    dist[dest] = dist[r] + 1 + extra
                    nxt.append(dest)
            frontier = nxt
        return dist

    def distances(self, src: int, b: Board) -> dict[int, int]:
        """Hatch counts (minutes, roughly) from ``src`` to each room, around the hazards.

        Cached by ``src`` and the hazards: the dict is shared, read it only.
        """
        key = (src, b.blocked, b.fire, b.water)
        dist = self._dist_cache.get(key)
        if dist is None:
            dist = self._bfs(src, b.blocked, b.fire, b.water)
            if len(self._dist_cache) > 8192:
                self._dist_cache.clear()
            self._dist_cache[key] = dist
        return dist

    def calm_distances(self, src: int, blocked: Sequence[bool]) -> dict[int, int]:
        """Hatch counts from ``src`` with these hatches blocked and no fire or water.

        Cached: the dict is shared, read it only.
        """
        key = (src, tuple(blocked))
        dist = self._calm_cache.get(key)
        if dist is None:
            dist = self._bfs(src, blocked, self._calm, self._dry)
            if len(self._calm_cache) > 8192:
                self._calm_cache.clear()
            self._calm_cache[key] = dist
        return dist

    # ------------------------------------------------------------ exact walks --
    def edges(self, b: Board, fire_ok: bool, aqualung: bool, drained: bool = False) -> Edges:
        """Every passable hatch with its minutes (the engine's ``move_cost``), per space.

        ``drained``: leaving a room at high water as a gnome who walked in finds it: at
        low water, since a high-water room is entered only by reflowing it (RULINGS.md
        RN-20), so a walk cannot reflow the same flood twice. Cached by the hazards (fire,
        water, blocked hatches) and the turn's flags, which change far more slowly than
        the positions a search visits.
        """
        return self._edges(Hazards(b.water, b.fire, b.blocked), fire_ok, aqualung, drained)

    def _edges(self, hz: Hazards, fire_ok: bool, aqualung: bool, drained: bool) -> Edges:
        key = (hz, fire_ok, aqualung, drained)
        edges = self._edge_cache.get(key)
        if edges is None:
            water, fire, blocked = hz
            move_cost = rules.move_cost
            out = []
            for r, ways in enumerate(self.c.neighbours):
                here = water
                if drained and water[r] == 2:
                    here = _lowered(water, r)
                row = []
                for dest, h in ways:
                    cost = move_cost(
                        here, fire, blocked, r, dest, h, fire_ok=fire_ok, aqualung=aqualung
                    )
                    if cost is not None:
                        row.append((dest, cost))
                out.append(tuple(row))
            edges = tuple(out)
            if len(self._edge_cache) > 4096:
                self._edge_cache.clear()
            self._edge_cache[key] = edges
        return edges

    def paths(self, b: Board, src: int, fire_ok: bool, aqualung: bool) -> Paths:
        """Dijkstra from ``src``: minutes to each space and the first step towards it.

        Cached by ``src``, the hazards and the flags: the dicts are shared, read them only.
        """
        return self.paths_through(Hazards(b.water, b.fire, b.blocked), src, fire_ok, aqualung)

    def paths_through(self, hz: Hazards, src: int, fire_ok: bool, aqualung: bool) -> Paths:
        """:meth:`paths` over given hazards (what-ifs: a hatch cleared, a room pumped)."""
        key = (src, hz, fire_ok, aqualung)
        found = self._path_cache.get(key)
        if found is None:
            found = self._dijkstra(hz, src, fire_ok, aqualung)
            if len(self._path_cache) > 16384:
                self._path_cache.clear()
            self._path_cache[key] = found
        return found

    def _dijkstra(self, hz: Hazards, src: int, fire_ok: bool, aqualung: bool) -> Paths:
        dist = {src: 0}
        first: dict[int, int] = {}
        heap = [(0, src, 0)]
        edges = self._edges(hz, fire_ok, aqualung, False)
        onward = self._edges(hz, fire_ok, aqualung, True)
        while heap:
            d, r, f = heapq.heappop(heap)
            if d > dist.get(r, _FAR):
                continue
            for dest, cost in (edges if r == src else onward)[r]:
                nd = d + cost
                if nd < dist.get(dest, _FAR):
                    dist[dest] = nd
                    first[dest] = dest if r == src else f
                    heapq.heappush(heap, (nd, dest, first[dest]))
        return dist, first

    def relaxed(
        self, b: Board, src: int, fire_ok: bool, aqualung: bool
    ) -> dict[int, tuple[int, Obstacle | None]]:
        """Dijkstra that may clear obstacles (unblock a hatch, pump a room to reflow):
        per space, the minutes and the first obstacle on the way."""
        water, fire, blocked = b.water, b.fire, b.blocked
        move_cost = rules.move_cost
        best: dict[int, tuple[int, Obstacle | None]] = {src: (0, None)}
        heap: list[tuple[int, int]] = [(0, src)]
        clear_cost = 9
        while heap:
            d, u = heapq.heappop(heap)
            if d > best[u][0]:
                continue
            obstacle = best[u][1]
            here = water
            if u != src and water[u] == 2:  # walked in by reflowing it: low water now
                here = _lowered(water, u)
            can_act = u != SEA and not fire[u] and here[u] != 2
            for dest, h in self.c.neighbours[u]:
                cost = move_cost(
                    here, fire, blocked, u, dest, h, fire_ok=fire_ok, aqualung=aqualung
                )
                step_obstacle = obstacle
                if cost is None and h >= 0 and can_act:
                    if blocked[h]:
                        cost = move_cost(
                            here,
                            fire,
                            self.open_hatches,
                            u,
                            dest,
                            h,
                            fire_ok=fire_ok,
                            aqualung=aqualung,
                        )
                        if cost is not None:
                            cost += clear_cost
                            step_obstacle = obstacle or ("unblock", u, h)
                    elif here[u] == 1 and water[dest] == 2:
                        cost = clear_cost + 2
                        step_obstacle = obstacle or ("pump", u, -1)
                if cost is None:
                    continue
                nd = d + cost
                if dest not in best or nd < best[dest][0]:
                    best[dest] = (nd, step_obstacle)
                    heapq.heappush(heap, (nd, dest))
        return best

    # --------------------------------------------------------- blocked hatches --
    def walks(self, blocked: tuple[bool, ...]) -> int:
        """Summed hub-to-key-room walks with these hatches blocked (cached)."""
        cached = self._walk_cache.get(blocked)
        if cached is None:
            cached = sum(
                self.calm_distances(src, blocked).get(r, 12)
                for src in self.hubs[:2]
                for r in (*self.critical, self.c.stores_room)
            )
            if len(self._walk_cache) > 4096:
                self._walk_cache.clear()
            self._walk_cache[blocked] = cached
        return cached

    def unblock_value(self, b: Board, h: int) -> float:
        """Minutes an unblocked hatch ``h`` saves on the walks between key rooms."""
        held = tuple(b.blocked)
        free = list(held)
        free[h] = False
        return (self.walks(held) - self.walks(tuple(free))) * 0.4

    def block_harm(self, b: Board, hatch: int) -> int:
        """Summed walks from the hubs and the gnomes' rooms to the key rooms if ``hatch``
        were blocked."""
        blocked = list(b.blocked)
        blocked[hatch] = True
        total = 0
        n = len(b.room)
        for src in {
            *self.hubs[:2],
            *(b.room[g] for g in range(n) if b.on_board(g) and b.room[g] not in (0, SEA)),
        }:
            d = self.calm_distances(src, blocked)
            total += sum(d.get(r, 12) for r in (*self.critical, self.c.stores_room))
        return total
