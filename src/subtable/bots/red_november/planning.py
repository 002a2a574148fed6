"""The active gnome's turn: the best task per minute, and its first step.

Each movement decision re-plans the whole turn. Every task is priced by its
value per minute — counting the walk (fires, floods and blocked hatches
included), the low-water penalty, the items it burns and the chance of success
— and the gnome takes one step of the best: a move, an item, or the action.
Tasks another gnome can do clearly cheaper are left to him, so the crew spreads
over the problems. With nothing worth doing he trades, drifts to a hub or waits.
"""

from __future__ import annotations

from collections.abc import Collection

from subtable.bots.red_november.board import Board
from subtable.bots.red_november.bounds import RateBounds, fix_odds
from subtable.bots.red_november.items import ItemValues
from subtable.bots.red_november.params import Params
from subtable.bots.red_november.paths import Routes
from subtable.bots.red_november.survival import escape, go_inside
from subtable.bots.red_november.task_plans import Choice, Plan, Reach, Roll, reach_room
from subtable.bots.red_november.tasks import FIX, Task, Tasks, Turn, situation
from subtable.games.red_november import rules
from subtable.games.red_november.actions import ActionIndex, Kind
from subtable.games.red_november.components import SEA, Components


class Planner:
    """Plans the active gnome's turn."""

    def __init__(
        self,
        c: Components,
        ix: ActionIndex,
        p: Params,
        routes: Routes,
        items: ItemValues,
        tasks: Tasks,
    ) -> None:
        self.c = c
        self.ix = ix
        self.p = p
        self.routes = routes
        self.items = items
        self.tasks = tasks
        self.item = items.item
        self.n_items = items.n_items
        self.bounds = RateBounds(c, p)

    def plan(
        self, b: Board, alternatives: bool = False, legal: Collection[int] | None = None
    ) -> list[int]:
        """Preferred action ids for the active gnome, best first.

        With ``alternatives``, the first steps of every worthwhile task follow the
        best one (for a search bot's candidate moves). With ``legal`` (and no
        alternatives), the list may stop at its first legal step: the caller plays it.
        """
        return self.plan_walk(b, alternatives, legal)[0]

    def plan_walk(
        self, b: Board, alternatives: bool = False, legal: Collection[int] | None = None
    ) -> tuple[list[int], Task | None]:
        """:meth:`plan`, and the best task when its first step is a move towards it (the
        task a search may :meth:`follow` at the walk's next step), else ``None``."""
        a, r = b.active, b.room[b.active]
        out: list[int] = []
        if b.ghost <= 0:
            return [self.ix.id(Kind.DONE)], None
        # Survival first: a gnome outside since the start of the turn must get back in.
        if r == SEA and b.this_turn.outside:
            return go_inside(self.c, self.ix, self.routes.hubs, self.items, b, a), None
        turn, choices = self._choices(b) if alternatives else self._best(b)
        in_hazard = r != SEA and (b.fire[r] or b.water[r] == 2)
        walk = None
        if choices and (choices[0].rate >= self.p.idle_rate or in_hazard):
            out.extend(choices[0].steps)
            if choices[0].task.room != r and self.ix.kind(out[0]) == Kind.MOVE:
                walk = choices[0].task
        if in_hazard:
            out.extend(escape(turn, self.c, self.ix, self.routes.hubs))
        if legal is not None and not alternatives and any(i in legal for i in out):
            return out, walk  # the idle moves below would never be read
        out.extend(self._idle(turn))
        if alternatives:
            out.extend(ch.steps[0] for ch in choices[1:])
        return out, walk

    def follow(self, b: Board, task: Task, legal: Collection[int]) -> int | None:
        """The next step of a walk to ``task``, which the plan at this turn's previous decision
        chose when only that move has been played since (no die rolled, no card drawn: the
        position is the one it foresaw): the task alone is priced again, not every task.
        ``None`` where that no longer holds (a hazard here, the task out of reach or not
        worth it): plan the turn instead. The step is nearly always the whole plan's, for a
        fraction of its CPU."""
        r = b.room[b.active]
        if b.ghost <= 0 or r == SEA or b.fire[r] or b.water[r] == 2:
            return None
        choice = self._evaluate(situation(b, self.routes, self.items), task)
        if choice is None or choice.rate < self.p.idle_rate:
            return None
        return next((step for step in choice.steps if step in legal), None)

    def goals(self, b: Board) -> dict[int, Task]:
        """The task each worthwhile first step of the active gnome's turn serves (the best
        task's when several begin alike): what a step is *for*, to explain it."""
        if b.ghost <= 0 or (b.room[b.active] == SEA and b.this_turn.outside):
            return {}
        # in reverse, so that of the tasks beginning alike the best one stays
        return {ch.steps[0]: ch.task for ch in reversed(self._choices(b)[1])}

    def _choices(self, b: Board) -> tuple[Turn, list[Choice]]:
        """The turn's situation and every worthwhile task's plan, best rate first."""
        turn = situation(b, self.routes, self.items)
        choices: list[Choice] = []
        for task in self.tasks.find(turn):
            choice = self._priced(turn, task)
            if choice is not None:
                choices.append(choice)
        choices.sort(key=lambda ch: -ch.rate)
        return turn, choices

    def _best(self, b: Board) -> tuple[Turn, list[Choice]]:
        """:meth:`_choices`' first choice alone (an empty list where there is none), the same
        one, for fewer evaluations: tasks are priced in the order of an upper bound on their
        rate, and those whose bound is below the best rate found are never priced."""
        turn = situation(b, self.routes, self.items)
        tasks = self.tasks.find(turn)
        bounds = [self.bounds.rate(turn, task) for task in tasks]
        best: Choice | None = None
        best_i = -1
        for i in sorted(range(len(tasks)), key=lambda i: -bounds[i]):
            if best is not None and bounds[i] < best.rate:
                break  # the bounds are in falling order: no task left can beat it
            choice = self._priced(turn, tasks[i])
            # ties go to the task found first, as the stable sort of ``_choices`` does
            if choice is not None and (
                best is None or choice.rate > best.rate or (choice.rate == best.rate and i < best_i)
            ):
                best, best_i = choice, i
        return turn, [] if best is None else [best]

    def _priced(self, turn: Turn, task: Task) -> Choice | None:
        """A task's plan, or the plan that clears its way first, or ``None``."""
        choice = self._evaluate(turn, task)
        if choice is None and task.room not in turn.plain[0] and task.value >= 5.0:
            sub = self.tasks.obstacle(turn, task)
            if sub is not None:
                choice = self._evaluate(turn, sub)
        return choice

    # -------------------------------------------------------------- one task --
    def _evaluate(self, turn: Turn, task: Task) -> Choice | None:
        """A task's rate (its value won per minute spent, items priced in minutes) and the
        first step towards it, or ``None`` when it cannot be done this turn."""
        route = self._route(turn, task.room)
        reach = None if route is None else reach_room(self.c, turn, task, route)
        if reach is None:
            return None
        if task.draw:
            plan = self._draw_plan(turn, task, reach)
        else:
            plan = self._fix_plan(turn, task, reach)
        if plan is None:
            return None
        spend = reach.walk + reach.pen + plan.minutes + plan.item_cost
        rate = plan.prob * plan.value / max(spend, 1.0)
        if task.room == turn.r:
            steps = [self.ix.id(Kind.USE, i) for i in plan.uses] + [plan.action]
        else:
            steps = [self._first_step(turn, task.room, reach.first, reach.route_items)]
        return Choice(rate, steps, task)

    def _draw_plan(self, turn: Turn, task: Task, reach: Reach) -> Plan | None:
        """Drawing items in the task's room: as many as time and the room allow."""
        b, a = turn.b, turn.a
        c = self.c
        if task.room == c.cabin_room:
            count = min(task.draw, reach.left, c.cabin_max_draw)
            value = count * (1.2 if b.intoxication[a] == 0 else 0.6)
            if sum(turn.hand) >= 4:
                value *= 0.5
        else:
            count = min(task.draw, reach.left)
            value = self.items.draw_value(b, a, count)
        if count < 1:
            return None
        return Plan(count, 1.0, value, task.first + count - 1, [], reach.route_cost)

    def _fix_plan(self, turn: Turn, task: Task, reach: Reach) -> Plan | None:
        """A fix-it roll: the items that raise its bonus, the minutes rolled for, its odds."""
        c = self.c
        held = list(turn.hand)
        for i in reach.route_items:
            held[i] -= 1
        plan = self._fix_items(turn, task, reach, held)
        prob = fix_odds(plan.minutes, plan.bonus)
        value = task.value * self._keep(turn, task)
        run = plan.minutes
        if task.reserve >= 0:  # a fire guarding a repair against a deadline
            slack = turn.t - reach.walk - task.reserve
            follow = sum(
                c.items[i].bonus[task.follow] * held[i]
                for i in range(self.n_items)
                if not c.items[i].intoxicates
            )
            best = (-1.0, run)
            for m1 in range(1, plan.minutes + 1):
                p2 = min(1.0, max(0.0, (slack - m1 + follow) / rules.DIE))
                best = max(best, (fix_odds(m1, plan.bonus) * p2, m1))
            prob, run = best
            if prob <= 0:
                return None
        elif (
            plan.bonus == 0
            and reach.pen == 0
            and task.deadline < 0
            and not task.sure
            and task.fix != FIX["extinguish"]
        ):
            run = min(run, self.p.plain_minutes)
        return Plan(plan.minutes, prob, value, task.first + run - 1, plan.uses, plan.item_cost)

    def _fix_items(self, turn: Turn, task: Task, reach: Reach, held: list[int]) -> Roll:
        """The items ``held`` that raise a fix-it roll's bonus (the strongest first, none
        that intoxicates), then a Grog when it gains more than it costs."""
        b, a = turn.b, turn.a
        c = self.c
        die = rules.DIE
        bonus = b.this_turn.bonus[task.fix] if task.room == turn.r else 0
        uses: list[int] = []
        item_cost = reach.route_cost
        values = self.items.values(b, a)
        special = sorted(
            (
                i
                for i in range(self.n_items)
                if held[i] and c.items[i].bonus[task.fix] > 0 and not c.items[i].intoxicates
            ),
            key=lambda i: -c.items[i].bonus[task.fix],
        )
        for i in special:
            for _ in range(held[i]):
                if bonus >= die - 1:  # one minute is a sure success
                    break
                bonus += c.items[i].bonus[task.fix]
                uses.append(i)
                item_cost += values[i] * 0.6
        minutes = max(1, min(die - bonus, reach.left, c.max_fix_minutes))
        grog = self.item["grog"]
        # what a Grog drunk adds to this fix-it roll (the engine adds the item's bonus)
        extra = c.items[grog].bonus[task.fix]
        if held[grog] and extra > 0 and bonus < die - 1 and b.intoxication[a] <= 3:
            gain_time = min(extra, minutes - 1) if minutes + bonus >= die else 0
            gain_prob = min(extra / die, max(0.0, (die - minutes - bonus) / die))
            gain = gain_time + gain_prob * task.value * self._keep(turn, task)
            cost = self.items.grog_cost(b, a)
            if gain > cost:
                bonus += extra
                uses.append(grog)
                item_cost += cost
                minutes = max(1, min(die - bonus, reach.left, c.max_fix_minutes))
        return Roll(minutes, bonus, uses, item_cost)

    def _keep(self, turn: Turn, task: Task) -> float:
        """How much of a task's value stays with the active gnome (others may be closer)."""
        b, a = turn.b, turn.a
        if task.room == turn.r:
            return 1.0
        mine = turn.plain[0].get(task.room)
        if mine is None:
            mine = 12
        if turn.others is None:
            turn.others = [
                (g, b.keeper[g], self.routes.distances(b.room[g], b))
                for g in range(len(b.room))
                if g != a and b.on_board(g) and b.keeper[g] > 0 and b.room[g] not in (0, SEA)
            ]
        for _g, keeper, dists in turn.others:
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

    def _route(self, turn: Turn, room: int) -> tuple[int, dict[int, int], list[int], float] | None:
        """(minutes, first steps, items burnt on the way, their cost) to reach ``room``."""
        b = turn.b
        it = self.item
        if room == turn.r:
            return 0, {}, [], 0.0
        options: list[tuple[float, int, dict[int, int], list[int], float]] = []
        dist, first = turn.plain
        if room in dist and not (room == SEA and not b.this_turn.aqualung):
            options.append((dist[room], dist[room], first, [], 0.0))
        if turn.bold is not None and room in turn.bold[0]:
            item = turn.fire_items[0]
            cost = (
                self.items.values(b, turn.a)[item]
                if item != it["grog"]
                else self.items.grog_cost(b, turn.a)
            )
            d = turn.bold[0][room]
            options.append((d + cost, d, turn.bold[1], [item], cost))
        if room == SEA and turn.sea is not None and SEA in turn.sea[0]:
            d = turn.sea[0][SEA]
            cost = self.items.values(b, turn.a)[it["aqualung"]] * 0.3
            options.append((d + cost, d, turn.sea[1], [it["aqualung"]], cost))
        if not options:
            return None
        _, walk, first_map, items, cost = min(options, key=lambda o: o[0])
        return walk, first_map, items, cost

    def _first_step(
        self, turn: Turn, room: int, first: dict[int, int], route_items: list[int]
    ) -> int:
        """The next decision on the way to ``room``: an enabling item, or a move."""
        b = turn.b
        step = first[room]
        if step == SEA and not b.this_turn.aqualung:
            return self.ix.id(Kind.USE, self.item["aqualung"])
        if step != SEA and b.fire[step] and not b.this_turn.fire_ok and route_items:
            return self.ix.id(Kind.USE, route_items[0])
        return self.ix.id(Kind.MOVE, step)

    # ---------------------------------------------------------- other moves --
    def _idle(self, turn: Turn) -> list[int]:
        """Nothing worth doing: trade, drift to a free hub, else wait a minute."""
        b, a = turn.b, turn.a
        ix = self.ix
        partner = self._trade_partner(turn)
        if partner is not None:
            return [ix.id(Kind.TRADE, partner)]
        taken = {b.room[g] for g in range(len(b.room)) if g != a and b.on_board(g)}
        dist, first = turn.plain
        if turn.t > 3:
            for hub in self.routes.hubs[:4]:
                if hub in taken or hub not in dist:
                    continue
                if hub == turn.r:
                    break
                if dist[hub] <= 3 and not b.fire[hub]:
                    return [ix.id(Kind.MOVE, first[hub])]
                break
        return [ix.id(Kind.NO_ACTION)]

    def _trade_partner(self, turn: Turn) -> int | None:
        """A gnome here with whom a trade clearly pays (cards visible both ways)."""
        b, a = turn.b, turn.a
        if b.hands[a] is None or turn.t < 1 + rules.action_penalty(
            self.c, Kind.TRADE, b.water, turn.r
        ):
            return None
        best, partner = 1.5, None
        gain = self.items.transfer_gain
        for g in rules.trade_partners(a, b.room, b.alive, b.abandoned, b.fainted):
            if b.hands[g] is None:
                continue
            worth = max(max(gain(b, a, g, i), gain(b, g, a, i)) for i in range(self.n_items))
            if worth > best:
                best, partner = worth, g
        return partner
