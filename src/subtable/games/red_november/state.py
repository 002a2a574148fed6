"""Red November: one position, and every rule that moves it on.

The state is a small machine. A *decision* (``phase``) waits for one seat;
everything automatic — the Faint Check, the Updates phase, events, deaths — is
run by :meth:`RedNovemberState._run` until the next decision or the end.

Rulings the rulebook leaves open are marked ``RULING`` and listed, with their
tests, in ``RULINGS.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import compress
from typing import TYPE_CHECKING, Any, Final

from subtable.core.events import Event
from subtable.core.game import Outcome, State, WhyIllegal
from subtable.core.rng import Rng
from subtable.games.red_november import rules
from subtable.games.red_november.actions import FIX_OF_KIND, Kind, RNAction
from subtable.games.red_november.components import FIX_KINDS, SEA
from subtable.games.red_november.saved import (
    LISTS,
    S_AFTER_ACTION,
    S_CATCHUP,
    S_FAINT,
    S_OVER,
    S_PREGAME,
    S_TURN_END,
    S_TURN_START,
    S_UPDATES,
    S_WAIT,
    SCALARS,
    read_state,
)
from subtable.games.red_november.view import (
    PHASE_NAMES,
    Choice,
    Phase,
    RedNovemberView,
    make_bookkeeping,
    make_this_turn,
    make_view,
)

if TYPE_CHECKING:
    from subtable.games.red_november.game import RedNovember

# Automatic stages (``stage``).

_FIX = {kind: FIX_KINDS.index(name) for kind, name in FIX_OF_KIND.items()}
#: ``Event(key, params)`` without the named tuple's Python-level ``__new__`` (a hot path)
_new_event = tuple.__new__

REPAIR_OF_KIND = {
    Kind.FIX_ENGINE: "engine",
    Kind.FIX_PUMPS: "pumps",
    Kind.FIX_REACTOR: "reactor",
    Kind.STOP_MISSILES: "missiles",
    Kind.KILL_KRAKEN: "kraken",
}


def _space_name(room: int) -> str:
    return "the sea" if room == SEA else f"room {room}"


# enum members as module constants: an enum class's attribute lookup is slow on
# Python 3.11 (its metaclass defines __getattr__), and these are read on every decision
_CH_BLOCK: Final = Choice.BLOCK
_CH_DISCARD: Final = Choice.DISCARD
_CH_NONE: Final = Choice.NONE
_CH_SPREAD: Final = Choice.SPREAD
_K_ABANDON: Final = Kind.ABANDON
_K_ATTACK: Final = Kind.ATTACK
_K_BLOCK: Final = Kind.BLOCK
_K_DEFEND: Final = Kind.DEFEND
_K_DISCARD: Final = Kind.DISCARD
_K_DONE: Final = Kind.DONE
_K_DRAW: Final = Kind.DRAW
_K_EXTINGUISH: Final = Kind.EXTINGUISH
_K_GIVE: Final = Kind.GIVE
_K_MOVE: Final = Kind.MOVE
_K_NO_ACTION: Final = Kind.NO_ACTION
_K_OPEN: Final = Kind.OPEN
_K_PUMP: Final = Kind.PUMP
_K_SPREAD: Final = Kind.SPREAD
_K_TRADE: Final = Kind.TRADE
_K_UNBLOCK: Final = Kind.UNBLOCK
_K_USE: Final = Kind.USE
_K_YIELD: Final = Kind.YIELD
_PH_AFTER_ACTION: Final = Phase.AFTER_ACTION
_PH_DEFEND: Final = Phase.DEFEND
_PH_EVENT_CHOICE: Final = Phase.EVENT_CHOICE
_PH_EXTRA_MOVE: Final = Phase.EXTRA_MOVE
_PH_MOVE: Final = Phase.MOVE
_PH_OVER: Final = Phase.OVER
_PH_TRADE_BACK: Final = Phase.TRADE_BACK
_PH_TRADE_GIVE: Final = Phase.TRADE_GIVE
#: the dearest way through a hatch: open it, then a minute to go through
_TOP_COST: Final = rules.OPEN_MINUTES + 1
#: what a phase other than the move phase waits for, in the refusal's words
_WAITING: Final = {
    _PH_EXTRA_MOVE: "the gnome must first move out of the burning room",
    _PH_TRADE_GIVE: "a trade is under way: give items or say done",
    _PH_TRADE_BACK: "a trade is under way: give items back or say done",
    _PH_DEFEND: "the attacked gnome must defend or yield",
    _PH_AFTER_ACTION: "the action is over: use Coffee or a Lucky Charm, or say done",
    _PH_EVENT_CHOICE: "an event needs a choice first",
}
#: the kinds that answer an event or a trade, never taken in the move phase
_ANSWERS: Final = frozenset({_K_GIVE, _K_DISCARD, _K_SPREAD, _K_BLOCK, _K_DEFEND, _K_YIELD})


class RedNovemberState(State[RNAction]):
    """A position of Red November. Build one with :meth:`RedNovember.new_state`."""

    __slots__ = (
        "_ev",
        "_legal",
        "c",
        "game",
        "n",
        "opening_events",
        "rng",
        *LISTS,
        "hands",
        *SCALARS,
    )

    # a Red November state holds a Red November game, set once: the narrowing is safe
    game: RedNovember
    fire: list[bool]
    water: list[int]
    blocked: list[bool]
    track: list[int]
    token: list[int]
    keeper: list[int]
    seq: list[int]
    room: list[int]
    alive: list[bool]
    abandoned: list[bool]
    fainted: list[bool]
    intox: list[int]
    red_room: list[int]
    hands: list[list[int]]
    event_deck: list[int]
    event_discard: list[int]
    event_removed: list[int]
    event_aside: list[int]
    item_deck: list[int]
    item_discard: list[int]
    t_bonus: list[int]
    discards: list[tuple[int, int]]
    result_winners: list[int]
    phase: Phase
    choice: Choice

    # ------------------------------------------------------------------ setup --
    def __init__(self, game: RedNovember, seed: int, *, empty: bool = False) -> None:
        c = game.components
        self.game = game  # pyright: ignore[reportIncompatibleVariableOverride]
        self.c = c
        if empty:  # the fields are the caller's to set (clone, from_json, from_view)
            return
        self.n = n = game.num_seats
        self.seed = seed
        self.rng = Rng(seed)
        self.history = []
        self._ev: list[Event] = []
        self._legal: list[int] | None = None
        #: the events of the setup (and of any events before the first turn)
        self.opening_events: list[Event] = []
        self.fire = [False] * (SEA + 1)
        self.water = [0] * (SEA + 1)
        self.blocked = [False] * len(c.hatches)
        self.track = [c.track_start] * len(c.tracks)
        self.token = [-1] * len(c.tokens)
        start = c.start_space[n]
        self.keeper = [start] * n
        self.seq = [0] * n
        self.seq_next = 0
        self.room = [0] * n
        self.alive = [True] * n
        self.abandoned = [False] * n
        self.fainted = [False] * n
        self.intox = [0] * n
        self.red_room = [0] * n
        self.hands = [[0] * len(c.items) for _ in range(n)]
        self.event_deck = []
        self.event_discard = []
        self.event_removed = []
        self.event_aside = []
        self.item_deck = []
        self.item_discard = []
        self.stash = 0
        self.turn = 0
        self.active = -1
        self.ghost = start
        self.phase = _PH_MOVE
        self.decider = -1
        self.stage = S_TURN_START
        self.resume = S_TURN_START
        self._reset_turn_flags()
        self.partner = -1
        self.choice = _CH_NONE
        self.choice_room = 0
        self.discards = []
        self.pend_event = False
        self.pend_item = False
        self.pregame_left = 0
        self.result_reason = ""
        self.result_winners = []

    def _reset_turn_flags(self) -> None:
        self.t_grog = 0
        self.t_fire_ok = False
        self.t_aqualung = False
        self.t_bonus = [0] * len(FIX_KINDS)
        self.t_lucky = 0
        self.t_crowbar = False
        self.t_outside = False
        self.t_entered_fire = False
        self.t_fresh = False  # Less Deadly Dying: the active gnome was replaced this turn

    def _setup(self) -> None:
        """The rulebook's Game Setup, every random choice from the state's generator."""
        c, rng, n = self.c, self.rng, self.n
        for g in range(n):  # 3a: each gnome in a random room
            self.room[g] = rng.die(10)
        order = list(range(n))  # 3b: keepers stacked in a random order
        rng.shuffle(order)
        for g in order:
            self.seq[g] = self.seq_next
            self.seq_next += 1
        for item in c.items:  # 4: Grog stash, item deck, two items each
            self.stash += item.stash
            self.item_deck.extend([item.index] * (item.copies - item.stash))
        rng.shuffle(self.item_deck)
        for g in range(n):
            for _ in range(2):
                self.hands[g][self.item_deck.pop()] += 1
        for card in c.events:  # 5: Kraken aside, shuffle the rest
            (self.event_aside if card.set_aside else self.event_deck).append(card.index)
        rng.shuffle(self.event_deck)
        self._emit("game_started", gnomes=n, space=self.keeper[0], rooms=list(self.room))
        if int(self.game.options["greater_challenge"]) >= 2:
            # one per player, not per gnome (see RULINGS.md RN-12)
            self.pregame_left = self.game.num_players
            self.stage = S_PREGAME
        self._run()
        self.opening_events, self._ev = self._ev, []

    # --------------------------------------------------------------- helpers --
    def _emit(self, key: str, **params: Any) -> None:
        self._ev.append(_new_event(Event, (key, params, (), ())))  # Event(key, params), faster

    def _event(self, key: str, params: dict[str, Any]) -> None:
        """:meth:`_emit` for the most frequent events (no keyword arguments to pack)."""
        self._ev.append(_new_event(Event, (key, params, (), ())))

    def _emit_secret(
        self, key: str, owners: tuple[int, ...], secret: tuple[str, ...], **params: Any
    ) -> None:
        hidden = self.game.crazed_gnomes
        self._ev.append(_new_event(Event, (key, params, owners, secret if hidden else ())))

    def on_board(self, g: int) -> bool:
        """Whether gnome ``g`` is still in play (alive and not swum away)."""
        return self.alive[g] and not self.abandoned[g]

    def hand_size(self, g: int) -> int:
        """How many item cards gnome ``g`` holds."""
        return sum(self.hands[g])

    def _penalty(self, room: int, kind: Kind = _K_DRAW) -> int:
        """The low-water penalty an action of ``kind`` pays in ``room`` (default: one that pays)."""
        return rules.action_penalty(self.c, kind, self.water, room)

    # ------------------------------------------------------------- decisions --
    def current_seat(self) -> int | None:
        """The seat that decides now."""
        return None if self.phase == _PH_OVER else self.decider

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase == _PH_OVER

    def legal_action_ids(self) -> list[int]:
        """The legal action ids, sorted."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal[:]

    def _compute_legal(self) -> list[int]:
        # Each list is built in ascending id order (the action space's order: moves, opens,
        # item uses, the actions by kind, then the answers), so none needs sorting.
        phase = self.phase
        if phase == _PH_MOVE:
            return self._move_phase_ids()
        if phase == _PH_OVER:
            return []
        game = self.game
        out: list[int]
        if phase == _PH_EVENT_CHOICE:
            if self.choice == _CH_SPREAD:
                spread = game.spread_ids
                out = [spread[r] for r in self._spread_rooms()]
            elif self.choice == _CH_BLOCK:
                block = game.block_ids
                out = [block[h] for h in self._blockable(self.choice_room)]
            else:
                out = list(compress(game.discard_ids, self.hands[self.decider]))
        elif phase in (_PH_TRADE_GIVE, _PH_TRADE_BACK):
            giver = self.active if phase == _PH_TRADE_GIVE else self.partner
            out = [game.done_id]  # Done comes before the gives in the action space
            out.extend(compress(game.give_ids, self.hands[giver]))
        elif phase == _PH_AFTER_ACTION:
            use, hand = game.use_ids, self.hands[self.active]
            out = [use[i] for i in game.after_items if hand[i]]
            out.append(game.done_id)
        elif phase == _PH_EXTRA_MOVE:
            moves, enabling = self._extra_options()
            out = list(moves)
            useful = set(enabling)
            if moves or enabling:
                useful.update(self._usable(self.active, ("coffee", "lucky_charm")))
            use = game.use_ids
            out.extend([use[i] for i in sorted(useful)])
        else:  # DEFEND
            out = list(game.defend_ids)
        return out

    def _move_phase_ids(self) -> list[int]:
        """The Movement phase's choices: the ways out, the items in hand, the actions."""
        game, c = self.game, self.c
        a = self.active
        r = self.room[a]
        t = self.ghost
        out = [*self._way_ids(False), *compress(game.use_ids, self.hands[a])]
        before = len(out)
        inside = r != SEA
        water_r = self.water[r]
        burning = inside and self.fire[r]
        if inside and water_r == 2:
            if t >= 1:
                out.append(game.no_action_id)
        elif burning and not (game.heroic_sacrifice and self.t_entered_fire):
            out.extend(game.extinguish_runs[rules.max_fix_minutes(c, t, 0)])
        else:
            if burning:  # RN-14: the heroic sacrifice, every action but Unblock Hatch
                out.extend(game.extinguish_runs[rules.max_fix_minutes(c, t, 0)])
            # the low-water penalty of the actions that pay it (Draw is one of them)
            pen = rules.action_penalty(c, _K_DRAW, self.water, r)
            if inside and water_r == 1:
                out.extend(game.pump_runs[rules.max_fix_minutes(c, t, 0)])
            self._fix_ids(out, r, t, pen, unblock=not burning)
            if t >= 1 + pen and inside and self.room.count(r) > 1:
                self._social_ids(out, r)  # someone to trade with (or to attack) is here
            if t >= 1:
                out.append(game.no_action_id)
            if game.abandon_allowed and not inside and self.keeper[a] < c.abandon_below:
                out.append(game.abandon_id)
        if len(out) == before:  # RULING: no minute left for any action
            out.append(game.done_id)
        return out

    def _helps_after(self, g: int) -> bool:
        """Whether gnome ``g`` holds an item that still helps after the action."""
        hand = self.hands[g]
        return any(hand[i] for i in self.game.after_items)

    def _usable(self, g: int, kinds: tuple[str, ...]) -> list[int]:
        indices = self.game.item_indices.get(kinds)
        if indices is None:
            indices = self.game.item_indices[kinds] = tuple(self.c.item_index(k) for k in kinds)
        hand = self.hands[g]
        return [i for i in indices if hand[i]]

    def _move_cost(self, src: int, dest: int, hatch: int) -> int | None:
        """Minutes to open the hatch ``src``→``dest`` and go through, or ``None`` if impossible."""
        return rules.move_cost(
            self.water,
            self.fire,
            self.blocked,
            src,
            dest,
            hatch,
            fire_ok=self.t_fire_ok,
            aqualung=self.t_aqualung,
        )

    def _way_ids(self, enter_only: bool) -> tuple[int, ...]:
        """The ids of the moves out of the active gnome's room (and the opens, unless
        ``enter_only``) that his time allows, ascending."""
        ghost = self.ghost
        if ghost < 1:
            return ()
        game = self.game
        src = self.room[self.active]
        waters, fires, blocks = game.way_inputs[src]
        key = (
            src,
            self.t_fire_ok,
            self.t_aqualung,
            waters(self.water),
            fires(self.fire),
            blocks(self.blocked),
        )
        ways = game.ways.get(key)
        if ways is None:
            ways = self._find_ways(src, key)
        return ways[enter_only][ghost if ghost < _TOP_COST else _TOP_COST]

    def _find_ways(
        self, src: int, key: tuple[object, ...]
    ) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """The ways out of ``src`` for :meth:`_way_ids`, kept in the game's table under ``key``."""
        water, fire, blocked = self.water, self.fire, self.blocked
        fire_ok, aqualung = self.t_fire_ok, self.t_aqualung
        ix = self.game.index
        first_move, first_open = ix.first[_K_MOVE], ix.first[_K_OPEN]
        found: list[tuple[int, int, int | None]] = []
        for dest, hatch in self.c.neighbours[src]:
            if not rules.can_open(water, blocked, src, dest, hatch):
                continue  # blocked, or "the room at low water must be pumped before …"
            cost = rules.move_cost(
                water, fire, blocked, src, dest, hatch, fire_ok=fire_ok, aqualung=aqualung
            )
            found.append((first_move + dest - 1, first_open + dest - 1, cost))
        # by enter_only, then by the minutes left (capped at the dearest way's cost; with
        # none left, _way_ids answers before reading the table)
        opens = [o for _, o, _ in found]
        by_ghost: list[tuple[int, ...]] = [()]
        moves_by_ghost: list[tuple[int, ...]] = [()]
        for g in range(1, _TOP_COST + 1):
            moves = [m for m, _, cost in found if cost is not None and cost <= g]
            by_ghost.append(tuple(sorted(moves + opens)))
            moves_by_ghost.append(tuple(sorted(moves)))
        ways = (tuple(by_ghost), tuple(moves_by_ghost))
        table = self.game.ways
        if len(table) > 16384:
            table.clear()
        table[key] = ways
        return ways

    def _fix_ids(self, out: list[int], r: int, t: int, pen: int, unblock: bool = True) -> None:
        """The fix-it actions of room ``r`` but Extinguish Fire and Pump Water, and the
        draws; ``unblock=False`` leaves Unblock Hatch out (a burning room, RN-14)."""
        game, c = self.game, self.c
        top = rules.max_fix_minutes(c, t, pen)
        if top < 1:
            return
        if unblock and r != SEA:
            blocked, runs = self.blocked, game.unblock_runs
            for h in c.room_hatches[r]:
                if blocked[h]:
                    out.extend(runs[h][top])
        out.extend(game.repair_runs[r][top])
        if r == c.stores_room or r == c.cabin_room:
            most = rules.max_draw(
                c,
                r,
                self.red_room[self.active],
                t - pen,
                len(self.item_deck) + len(self.item_discard),
                self.stash,
            )
            out.extend(game.draw_runs[most])

    def _social_ids(self, out: list[int], r: int) -> None:
        """Trades (and, under Crazed Gnomes with a Crowbar used, attacks) in room ``r``."""
        game = self.game
        a = self.active
        # RULINGS: a fainted gnome cannot trade (RN-3), nor anyone in the Sea (RN-23)
        trade = game.trade_ids
        partners = rules.trade_partners(a, self.room, self.alive, self.abandoned, self.fainted)
        out.extend([trade[g] for g in partners])
        if game.crazed_gnomes and self.t_crowbar:
            attack = game.attack_ids
            out.extend(
                [attack[g] for g in rules.attack_targets(a, self.room, self.alive, self.abandoned)]
            )

    def _extra_options(self) -> tuple[tuple[int, ...], list[int]]:
        """Moves out of the room now, and items whose use would open one."""
        moves = self._way_ids(True)
        enabling: list[int] = []
        a = self.active
        saved = (self.t_fire_ok, self.t_aqualung)
        for item in self.c.items:
            if not self.hands[a][item.index] or not (item.enter_fire or item.leave_sub):
                continue
            self.t_fire_ok = saved[0] or item.enter_fire
            self.t_aqualung = saved[1] or item.leave_sub
            trial = self._way_ids(True)
            self.t_fire_ok, self.t_aqualung = saved
            if len(trial) > len(moves):
                enabling.append(item.index)
        return moves, enabling

    def _spread_rooms(self) -> list[int]:
        return rules.spread_rooms(self.c, self.fire, self.water)

    def _blockable(self, room: int) -> list[int]:
        return [h for h in self.c.room_hatches[room] if not self.blocked[h]]

    # ------------------------------------------------------------- applying --
    def apply_unchecked(self, action_id: int) -> list[Event]:
        """Apply a legal action (unchecked) and run the game on to the next decision."""
        events: list[Event] = []
        self._ev = events  # what the rules emit from here on (a fresh list at each apply)
        self._legal = None
        self.history.append(action_id)
        self._decide(self.game.actions[action_id])
        self._run()
        return events

    def _decide(self, action: RNAction) -> None:
        kind = action.kind
        phase = self.phase
        if kind == _K_USE:
            self._use_item(action.target)
            if phase == _PH_AFTER_ACTION and not self._helps_after(self.active):
                self.stage = S_FAINT
            return
        if phase == _PH_MOVE:
            if kind in (_K_MOVE, _K_OPEN):
                self._movement(action.target, kind == _K_MOVE)
            elif kind == _K_DONE:
                self._emit("no_time_for_action", gnome=self.active)
                self.stage = S_AFTER_ACTION
            else:
                self._action(action)
        elif phase == _PH_EXTRA_MOVE:
            self._movement(action.target, True)
            self.stage = S_AFTER_ACTION
        elif phase in (_PH_TRADE_GIVE, _PH_TRADE_BACK):
            giver, taker = (
                (self.active, self.partner)
                if phase == _PH_TRADE_GIVE
                else (self.partner, self.active)
            )
            if kind == _K_GIVE:
                self.hands[giver][action.target] -= 1
                self.hands[taker][action.target] += 1
                self._emit_secret(
                    "item_given",
                    (giver, taker),
                    ("item",),
                    gnome=giver,
                    to=taker,
                    item=self.c.items[action.target].kind,
                )
            elif phase == _PH_TRADE_GIVE:
                self.phase = _PH_TRADE_BACK
                self.decider = self.partner
            else:
                self._emit("trade_finished", gnome=self.active, partner=self.partner)
                self.stage = S_AFTER_ACTION
                self._heroic_death()
        elif phase == _PH_DEFEND:
            self.stage = S_AFTER_ACTION
            self._fight(kind == _K_DEFEND)
            self._heroic_death()
        elif phase == _PH_AFTER_ACTION:
            self.stage = S_FAINT
        elif phase == _PH_EVENT_CHOICE:
            self._choose(action)

    # movement ------------------------------------------------------------------
    def _movement(self, dest: int, enter: bool) -> None:
        a = self.active
        src = self.room[a]
        hatch = self.game.hatch_of[src][dest]
        assert hatch is not None
        self.ghost -= rules.OPEN_MINUTES
        self._event("hatch_opened", {"gnome": a, "room": src, "to": dest})
        if hatch >= 0:
            water = self.water
            if rules.reflows(water[src], water[dest]):
                water[src] = water[dest] = 1
                self._emit("water_reflowed", rooms=sorted((src, dest)))
                for r in (src, dest):
                    if self.fire[r]:
                        self.fire[r] = False
                        self._emit("fire_out", room=r)
        if not enter:
            return
        cost = rules.passage_minutes(self.water[dest], hatch < 0)
        self.ghost -= cost
        if dest != SEA and self.fire[dest]:
            self.t_entered_fire = True
        self.room[a] = dest
        self._event(
            "gnome_moved",
            {"gnome": a, "room": src, "to": dest, "minutes": rules.OPEN_MINUTES + cost},
        )

    # items ---------------------------------------------------------------------
    def _use_item(self, index: int) -> None:
        a = self.active
        item = self.c.items[index]
        self.hands[a][index] -= 1
        self.item_discard.append(index)
        self._emit("item_used", gnome=a, item=item.kind)
        bonus = self.t_bonus
        for i, b in enumerate(item.bonus):
            bonus[i] += b
        if item.enter_fire:
            self.t_fire_ok = True
        if item.leave_sub:
            self.t_aqualung = True
        if item.kind == "crowbar":
            self.t_crowbar = True
        if item.intoxicates:
            self.t_grog += 1
            self._drink(a)
        if item.ignore_events:
            self.t_lucky += item.ignore_events
        if item.sober:
            before = self.intox[a]
            self.intox[a] = max(0, before - item.sober)
            self._emit("intoxication_changed", gnome=a, level=self.intox[a], before=before)

    def _drink(self, g: int) -> None:
        before = self.intox[g]
        self.intox[g] = min(4, before + 1)
        self._emit("intoxication_changed", gnome=g, level=self.intox[g], before=before)

    # actions -------------------------------------------------------------------
    def _action(self, action: RNAction) -> None:
        a = self.active
        r = self.room[a]
        kind = action.kind
        pen = self._penalty(r, kind)
        self.stage = S_AFTER_ACTION
        if kind == _K_ABANDON:
            self._abandon(a)
            return
        if kind == _K_NO_ACTION:
            self.ghost -= 1
            self._emit("no_action", gnome=a)
        elif kind in _FIX:
            self.ghost -= action.minutes + pen
            self._fix(action, r, pen)
        elif kind == _K_DRAW:
            self.ghost -= action.minutes + pen
            self._draw_items(a, r, action.minutes)
        elif kind == _K_TRADE:
            self.ghost -= 1 + pen
            self.partner = action.target
            self._emit("trade_started", gnome=a, partner=action.target, minutes=1 + pen)
            self.phase = _PH_TRADE_GIVE
            self.stage = S_WAIT
        elif kind == _K_ATTACK:
            self.ghost -= 1 + pen
            self._attack(action.target, pen)
        if self.red_room[a] and self.red_room[a] != r:
            self.red_room[a] = 0  # an action in another room ends the red-area restriction
        if kind != _K_EXTINGUISH and self.stage == S_AFTER_ACTION:
            self._heroic_death()  # a trade or a defended attack ends later (see _decide)

    def _heroic_death(self) -> None:
        """RN-14 (house rule ``heroic_sacrifice``): the active gnome, who entered the burning
        room this turn and took an action there other than Extinguish Fire, dies in the flames
        now that the action is over (successful or not)."""
        a = self.active
        r = self.room[a]
        if (
            self.game.heroic_sacrifice
            and self.t_entered_fire  # reset when a replacement (Less Deadly Dying) takes over
            and r != SEA
            and self.fire[r]
            and self.on_board(a)
            and self.stage != S_OVER
        ):
            self._kill(a, "heroic_sacrifice")

    def _fix(self, action: RNAction, r: int, pen: int) -> None:
        c = self.c
        a = self.active
        kind = action.kind
        fix = _FIX[kind]
        bonus = self.t_bonus[fix]
        target = rules.fix_target(action.minutes, bonus)
        name = FIX_KINDS[fix]
        repair = c.repairs.get(name)
        params: dict[str, Any] = {
            "gnome": a,
            "fix": name,
            "minutes": action.minutes,
            "penalty": pen,
            "bonus": bonus,
            "target": min(10, target),
        }
        if kind == _K_UNBLOCK:
            params["hatch"] = list(c.hatches[action.target])
        if repair is not None and repair.token >= 0:
            pos = self.token[repair.token]
            if rules.too_late(pos, self.ghost):
                params["roll"] = None
                params["success"] = False
                params["auto_fail"] = c.tokens[repair.token]
                self._event("fix_attempted", params)
                return
        roll = self.rng.die(rules.DIE)
        success = rules.fix_succeeds(roll, action.minutes, bonus)
        params["roll"] = roll
        params["success"] = success
        params["auto_fail"] = None
        self._event("fix_attempted", params)
        if kind == _K_EXTINGUISH:
            if success:
                self.fire[r] = False
                self._emit("fire_out", room=r)
            else:
                self._extra_move_or_die(a)
        elif not success:
            return
        elif kind == _K_PUMP:
            self.water[r] = 0
            self._emit("water_pumped", room=r)
        elif kind == _K_UNBLOCK:
            self.blocked[action.target] = False
            self._emit("hatch_unblocked", hatch=list(c.hatches[action.target]))
        else:
            assert repair is not None
            if repair.track >= 0:
                self._reset_track(repair.track)
            if repair.token >= 0 and self.token[repair.token] >= 0:
                self.token[repair.token] = -1
                self._emit("destruction_averted", token=c.tokens[repair.token])

    def _reset_track(self, t: int) -> None:
        before = self.track[t]
        self.track[t] = rules.track_after_repair(self.c, before)
        self._emit("track_reset", track=self.c.tracks[t], level=self.track[t], before=before)

    def _extra_move_or_die(self, a: int) -> None:
        moves, enabling = self._extra_options()
        if moves or enabling:
            self.phase = _PH_EXTRA_MOVE
            self.stage = S_WAIT
            self._emit("must_leave_room", gnome=a, room=self.room[a])
        else:
            self._kill(a, "fire")

    def _draw_items(self, a: int, r: int, count: int) -> None:
        c = self.c
        if r == c.cabin_room:
            grog = c.item_index("grog")
            self.stash -= count
            self.hands[a][grog] += count
            self._emit_secret(
                "items_drawn",
                (a,),
                ("items",),
                gnome=a,
                source="grog_stash",
                count=count,
                items=["grog"] * count,
            )
        else:
            got = []
            for _ in range(count):
                card = self._draw_item_card()
                if card is None:
                    break
                self.hands[a][card] += 1
                got.append(c.items[card].kind)
            self._emit_secret(
                "items_drawn",
                (a,),
                ("items",),
                gnome=a,
                source="item_deck",
                count=len(got),
                items=got,
            )
        self.red_room[a] = r

    def _attack(self, target: int, pen: int) -> None:
        a = self.active
        self.partner = target
        self._emit("gnome_attacked", gnome=a, target=target, minutes=1 + pen)
        crowbar = self.c.item_index("crowbar")
        # RULING: a fainted gnome cannot defend himself; a defender without a Crowbar has no choice.
        if self.hands[target][crowbar] and not self.fainted[target]:
            self.phase = _PH_DEFEND
            self.decider = target
            self.stage = S_WAIT
        else:
            self._fight(False)

    def _fight(self, defended: bool) -> None:
        a, d = self.active, self.partner
        if defended:
            crowbar = self.c.item_index("crowbar")
            self.hands[d][crowbar] -= 1
            self.item_discard.append(crowbar)
            ra, rd = self.rng.die(rules.DIE), self.rng.die(rules.DIE)
            sa, sd = ra - self.intox[a], rd - self.intox[d]
            won = rules.attacker_wins(ra, self.intox[a], rd, self.intox[d])
            winner, loser = (a, d) if won else (d, a)
            self._emit(
                "fight",
                gnome=a,
                target=d,
                roll=ra,
                target_roll=rd,
                score=sa,
                target_score=sd,
                winner=winner,
            )
        else:
            winner, loser = a, d
            self._emit("attack_undefended", gnome=a, target=d)
        taken = self.hands[loser]
        if any(taken):
            for i, k in enumerate(taken):
                self.hands[winner][i] += k
            self._emit_secret(
                "items_taken",
                (winner, loser),
                ("items",),
                gnome=winner,
                source=loser,
                count=sum(taken),
                items=[self.c.items[i].kind for i, k in enumerate(taken) for _ in range(k)],
            )
            self.hands[loser] = [0] * len(taken)
        self._kill(loser, "slain")

    def _abandon(self, a: int) -> None:
        self.abandoned[a] = True
        self.keeper[a] = -1
        self._emit("comrades_abandoned", gnome=a)
        self.stage = S_TURN_END
        self._check_crew_and_tokens()

    # event choices ---------------------------------------------------------------
    def _choose(self, action: RNAction) -> None:
        kind = action.kind
        if kind == _K_SPREAD:
            self._emit("fire_spread", room=action.target, chooser=self.decider)
            self._start_fire(action.target)
            self._end_choice()
        elif kind == _K_BLOCK:
            self._block(action.target)
            self._end_choice()
        else:
            g = self.decider
            self.hands[g][action.target] -= 1
            self.item_discard.append(action.target)
            self._emit("item_discarded", gnome=g, item=self.c.items[action.target].kind)
            self._next_discard()

    def _end_choice(self) -> None:
        self.choice = _CH_NONE
        if self.stage == S_WAIT:
            self.stage = self.resume

    def _ask_choice(self, choice: Choice, decider: int) -> None:
        self.choice = choice
        self.phase = _PH_EVENT_CHOICE
        self.decider = decider
        self.resume = self.stage
        self.stage = S_WAIT

    def _next_discard(self) -> None:
        while self.discards:
            g, limit = self.discards[0]
            if self.on_board(g) and self.hand_size(g) > limit:
                if self.stage != S_WAIT:
                    self._ask_choice(_CH_DISCARD, g)
                else:
                    self.decider = g
                return
            self.discards.pop(0)
        self._end_choice()

    # ------------------------------------------------------------- the flow --
    def _run(self) -> None:
        """Run automatic steps until a decision is needed or the game ends."""
        while True:
            st = self.stage
            if st == S_WAIT:
                if self.phase == _PH_EVENT_CHOICE:
                    legal = self._compute_legal()
                    if len(legal) == 1:  # a forced choice resolves itself
                        self._choose(self.game.actions[legal[0]])
                        continue
                    self._legal = legal
                elif self.phase not in (_PH_TRADE_BACK, _PH_DEFEND):
                    self.decider = self.active
                return
            if st == S_OVER:
                return
            if st == S_TURN_START:
                self._begin_turn()
            elif st == S_AFTER_ACTION:
                a = self.active
                if self.on_board(a) and self._helps_after(a):
                    self.phase = _PH_AFTER_ACTION
                    self.stage = S_WAIT
                else:
                    self.stage = S_FAINT
            elif st == S_FAINT:
                self._faint_check()
            elif st == S_UPDATES:
                self._updates_begin()
            elif st == S_CATCHUP:
                self._catch_up()
            elif st == S_TURN_END:
                self._end_turn()
            elif st == S_PREGAME:
                self._pregame()

    def _next_active(self) -> int:
        return rules.next_active(self.keeper, self.seq, self.alive, self.abandoned)

    def _begin_turn(self) -> None:
        a = self._next_active()
        if a < 0:
            self._finish("rescued")
            return
        self.turn += 1
        self.active = self.decider = a
        self.ghost = self.keeper[a]
        self._reset_turn_flags()
        self.t_outside = self.room[a] == SEA
        self._event("turn_started", {"gnome": a, "space": self.ghost, "turn": self.turn})
        if self.fainted[a]:
            self.fainted[a] = False
            self._emit("gnome_stood_up", gnome=a)
        self.phase = _PH_MOVE
        self.stage = S_WAIT

    def _faint_check(self) -> None:
        a = self.active
        self.stage = S_UPDATES
        if not self.t_grog or not self.on_board(a):
            return
        card = self.c.events[self._draw_event_card()]
        level = self.intox[a]
        fainted = rules.faints(card.faint, level)
        self._emit(
            "faint_check", gnome=a, number=card.faint, level=level, fainted=fainted, card=card.kind
        )
        if not fainted:
            return
        self.fainted[a] = True
        before = self.ghost
        self.ghost = max(0, self.ghost - self.c.faint_minutes)
        self._emit("gnome_fainted", gnome=a, minutes=before - self.ghost)
        if self.room[a] == SEA:
            self._kill(a, "fainted_outside")

    def _updates_begin(self) -> None:
        a = self.active
        self.stage = S_CATCHUP
        if self.alive[a] and not self.abandoned[a] and not self.t_fresh:
            # RULING: a replacement gnome (Less Deadly Dying) has had no chance to move out
            r = self.room[a]
            cause = rules.deadly(self.fire, self.water, r)
            if r == SEA:
                if self.t_outside:
                    self._kill(a, "out_of_air")
            elif cause == "fire":
                self._kill(a, "fire")
            elif cause == "drowned":
                self._kill(a, "drowned")
        if self.stage == S_OVER:
            return
        if True in self.fainted:  # only fainted gnomes die of a room's hazard
            for r in range(1, 11):
                self._hazard(r)
        if self.stage == S_OVER:
            return
        if not self.alive[a]:  # the active gnome died: no events this turn
            self.stage = S_TURN_END
            return
        self.pend_event = self.pend_item = False

    def _catch_up(self) -> None:
        c = self.c
        a = self.active
        keeper, token = self.keeper, self.token
        icon_below = self.game.icon_below
        while True:
            if not self.alive[a]:  # the active gnome died: no more events this turn
                self.stage = S_TURN_END
                return
            if self.pend_event:
                self.pend_event = False
                if self.t_lucky > 0:
                    self.t_lucky -= 1
                    self._emit("event_ignored", gnome=a, space=keeper[a])
                else:
                    self._resolve_event(self._draw_event_card(), keeper[a])
                    if self.stage != S_CATCHUP:
                        return
                    continue
            if self.pend_item:
                self.pend_item = False
                card = self._draw_item_card()
                if card is not None:
                    self.hands[a][card] += 1
                    self._emit_secret(
                        "items_drawn",
                        (a,),
                        ("items",),
                        gnome=a,
                        source="time_track",
                        count=1,
                        items=[c.items[card].kind],
                    )
            k, ghost = keeper[a], self.ghost
            if k <= ghost:
                break
            # step down to the next space where something happens: an icon, the ghost, or
            # the first space behind a Destruction token (none can be passed before it)
            s = icon_below[k - 1]
            if s < ghost:
                s = ghost
            top = max(token)
            if s < top - 1:
                s = min(k, top) - 1
            keeper[a] = s
            if s < top:
                self._check_tokens()
                if self.stage == S_OVER:
                    return
            self.pend_event = c.event_icon[s]
            self.pend_item = c.item_icon[s]
        self.stage = S_TURN_END

    def _end_turn(self) -> None:
        a = self.active
        if self.on_board(a):
            self.seq[a] = self.seq_next
            self.seq_next += 1
            self._event("turn_ended", {"gnome": a, "space": self.keeper[a]})
        else:
            self._event("turn_ended", {"gnome": a, "space": None})
        self.stage = S_TURN_START

    def _pregame(self) -> None:
        if self.active < 0:
            self.active = self._next_active()
        while self.pregame_left > 0:
            self.pregame_left -= 1
            self._resolve_event(self._draw_event_card(), self.keeper[self.active])
            if self.stage != S_PREGAME:
                return
        self.active = -1
        self.stage = S_TURN_START

    # ------------------------------------------------------------------ decks --
    def _draw_event_card(self) -> int:
        if not self.event_deck:
            if self.event_aside:
                self.event_discard.extend(self.event_aside)
                self.event_aside = []
                self._emit("kraken_shuffled_in")
            self.event_deck, self.event_discard = self.event_discard, []
            self.rng.shuffle(self.event_deck)
            self._emit("event_deck_reshuffled", size=len(self.event_deck))
        card = self.event_deck.pop()
        if self.game.respites_leave and self.c.events[card].kind == "respite":
            self.event_removed.append(card)
        else:
            self.event_discard.append(card)
        return card

    def _draw_item_card(self) -> int | None:
        if not self.item_deck:
            if not self.item_discard:
                self._emit("item_deck_empty")
                return None
            self.item_deck, self.item_discard = self.item_discard, []
            self.rng.shuffle(self.item_deck)
            self._emit("item_deck_reshuffled", size=len(self.item_deck))
        return self.item_deck.pop()

    # ----------------------------------------------------------------- events --
    def _resolve_event(self, index: int, space: int) -> None:
        c = self.c
        card = c.events[index]
        kind = card.kind
        self._event("event_drawn", {"card": kind, "space": space, "number": card.faint})
        if kind == "fire":
            self._fire_event()
        elif kind == "fire_spreads":
            rooms = self._spread_rooms()
            if rooms:
                self._ask_choice(_CH_SPREAD, self.active)
            else:
                self._emit("no_effect", card=kind)
        elif kind == "leak":
            self._leak(self.rng.die(10))
        elif kind == "underwater_current":
            rooms = [r for r in range(1, 11) if self.water[r] == 1]
            for r in rooms:
                self.water[r] = 2
            self._emit("rooms_flooded", rooms=rooms)
            for r in rooms:
                self._hazard(r)
        elif kind == "blocked_hatch":
            room = self.rng.die(10)
            self._emit("room_rolled", room=room)
            if self._blockable(room):
                self.choice_room = room
                self._ask_choice(_CH_BLOCK, self.active)
            else:
                self._emit("no_effect", card=kind)
        elif card.track:
            self._advance_track(c.tracks.index(card.track), card.amount)
        elif card.token:
            self._place_token(c.tokens.index(card.token), space - card.ahead)
        elif kind == "overheated":
            grog = c.item_index("grog")
            for g in range(self.n):
                if self.on_board(g) and self.hands[g][grog]:
                    self.hands[g][grog] -= 1
                    self.item_discard.append(grog)
                    self._emit("grog_drunk", gnome=g)
                    self._drink(g)
        elif kind == "respite":
            self._emit("respite")
        elif kind == "friendly_fire":
            self._fire_event()
            if self.stage == S_OVER:
                return
            self._leak(self.rng.die(10))
            if self.stage == S_OVER:
                return
        if card.hand_limit and self.stage != S_OVER:
            if kind == "stumble":
                seats = [self.active]
            else:
                seats = [(self.active + i) % self.n for i in range(self.n)]
            self.discards = [(g, card.hand_limit) for g in seats]
            self._emit(
                "hand_limit", limit=card.hand_limit, gnomes=[g for g in seats if self.on_board(g)]
            )
            self._next_discard()

    def _fire_event(self) -> None:
        room = self.rng.die(10)
        self._emit("room_rolled", room=room)
        if rules.fire_prevented(self.water, room):
            self._emit("fire_prevented", room=room)
            return
        self._start_fire(room)

    def _start_fire(self, room: int) -> None:
        self._advance_track(self.c.tracks.index("asphyxiation"), 1)
        if self.stage == S_OVER:
            return
        if not self.fire[room]:
            self.fire[room] = True
            self._emit("fire_started", room=room)
            self._hazard(room)

    def _leak(self, room: int) -> None:
        self.water[room] = 2
        self._emit("room_flooded", room=room, level=2)
        if self.fire[room]:
            self.fire[room] = False
            self._emit("fire_out", room=room)
        self._hazard(room)

    def _block(self, hatch: int) -> None:
        self.blocked[hatch] = True
        self._emit("hatch_blocked", hatch=list(self.c.hatches[hatch]), chooser=self.decider)

    def _advance_track(self, t: int, amount: int) -> None:
        c = self.c
        before = self.track[t]
        self.track[t] = min(c.track_length, before + amount)
        self._event(
            "track_advanced", {"track": c.tracks[t], "level": self.track[t], "before": before}
        )
        if self.track[t] >= c.track_length:
            self._finish(c.tracks[t])

    def _place_token(self, t: int, pos: int) -> None:
        name = self.c.tokens[t]
        if pos <= 0:  # RULING: on or after "Rescued!" it can never be passed
            self._emit("destruction_avoided", token=name)
        elif self.token[t] >= 0:
            self._emit("no_effect", card=name)
        else:
            self.token[t] = pos
            self._emit("destruction_placed", token=name, space=pos)

    # ----------------------------------------------------------- death & end --
    def _hazard(self, room: int) -> None:
        """Fainted gnomes in a burning or high-water room die (any Updates phase)."""
        cause = rules.deadly(self.fire, self.water, room)
        if cause is None:
            return
        for g in range(self.n):
            if self.fainted[g] and self.room[g] == room and self.on_board(g):
                self._kill(g, "fire" if cause == "fire" else "drowned")
                if self.stage == S_OVER:
                    return

    def _kill(self, g: int, cause: str) -> None:
        self._emit("gnome_killed", gnome=g, cause=cause, room=self.room[g])
        hand = self.hands[g]
        for i, k in enumerate(hand):
            self.item_discard.extend([i] * k)
        self.hands[g] = [0] * len(hand)
        self.fainted[g] = False
        self.red_room[g] = 0
        if self.game.less_deadly_dying:
            self.intox[g] = 0
            self.room[g] = self.rng.die(10)
            self._emit("gnome_replaced", gnome=g, room=self.room[g])
            if g == self.active:
                lucky = self.t_lucky  # the player's charm outlives his gnome
                self._reset_turn_flags()
                self.t_lucky = lucky
                self.t_fresh = True
            return
        self.alive[g] = False
        self.room[g] = 0
        self.keeper[g] = -1
        self._check_crew_and_tokens()

    def _check_crew_and_tokens(self) -> None:
        if not any(self.on_board(g) for g in range(self.n)):
            self._finish("crew_lost")
        else:
            self._check_tokens()

    def _check_tokens(self) -> None:
        """Every remaining keeper has passed a Destruction token: the sub is lost."""
        top = max(self.token)
        if top < 0:  # no token on the track (the usual case): nothing to pass
            return
        front = -1  # the foremost keeper still in play
        keeper, alive, abandoned = self.keeper, self.alive, self.abandoned
        for g in range(self.n):
            if alive[g] and not abandoned[g] and keeper[g] > front:
                front = keeper[g]
        if front >= top:  # no token lies beyond it
            return
        for t, pos in enumerate(self.token):
            if pos >= 0 and front < pos:
                self._finish(self.c.tokens[t])
                return

    def _finish(self, reason: str) -> None:
        if self.stage == S_OVER:
            return
        won = reason == "rescued"
        self.result_reason = reason
        self.result_winners = [g for g in range(self.n) if self.abandoned[g] != won]
        self.phase = _PH_OVER
        self.stage = S_OVER
        self.decider = -1
        self._emit(
            "game_won" if won else "game_lost", reason=reason, winners=list(self.result_winners)
        )

    def outcome(self) -> Outcome | None:
        """How the game ended: ``rescued`` or the loss cause."""
        if self.phase != _PH_OVER:
            return None
        return Outcome(
            self.result_reason,
            tuple(self.result_winners),
            {"turns": self.turn, "tracks": dict(zip(self.c.tracks, self.track, strict=True))},
        )

    # ------------------------------------------------------ illegal, explained --
    def why_illegal(self, action: RNAction) -> WhyIllegal:
        """Why ``action`` is not legal now: the phase first, then the room the active gnome
        stands in, what the action needs there, and last the time it costs."""
        a = self.active
        r = self.room[a] if a >= 0 else 0
        return (
            self._why_phase(action)
            or self._why_move_phase(action)
            or self._why_room_forbids(action, r)
            or self._why_place(action, r)
            or self._why_partner(action, r)
            or self._why_abandon(action, r)
            or self._why_time(action, r)
        )

    def _why_phase(self, action: RNAction) -> WhyIllegal | None:
        """Why ``action`` does not fit the phase (an event's choice, a trade, after the
        action, the extra move), or ``None`` when it does."""
        c = self.c
        kind = action.kind
        phase = self.phase
        a = self.active
        if phase == _PH_EVENT_CHOICE:
            expected = {_CH_SPREAD: _K_SPREAD, _CH_BLOCK: _K_BLOCK, _CH_DISCARD: _K_DISCARD}
            if kind == expected.get(self.choice):
                return self._why_choice(action)
        if phase in (_PH_TRADE_GIVE, _PH_TRADE_BACK) and kind == _K_GIVE:
            giver = a if phase == _PH_TRADE_GIVE else self.partner
            return (
                "no_item",
                f"gnome {giver + 1} holds no {c.items[action.target].slug}",
                {"gnome": giver, "item": c.items[action.target].kind},
            )
        if phase == _PH_AFTER_ACTION and kind == _K_USE and self.hands[a][action.target]:
            return (
                "item_too_late",
                ("after the action only Coffee and a Lucky Charm can still help"),
                {"item": c.items[action.target].kind},
            )
        if phase != _PH_MOVE and not (
            phase == _PH_EXTRA_MOVE and kind in (_K_MOVE, _K_OPEN, _K_USE)
        ):
            if kind in (_K_GIVE,) and phase not in (_PH_TRADE_GIVE, _PH_TRADE_BACK):
                return "not_trading", "items can be given only during a trade", {}
            return (
                "wrong_phase",
                f"{action.notation()!r} is not possible now: {_WAITING.get(phase, '')}",
                {"phase": PHASE_NAMES[phase]},
            )
        if phase == _PH_MOVE and kind in _ANSWERS:
            return (
                "wrong_phase",
                (f"{action.notation()!r} answers an event or a trade; nothing asks for it now"),
                {"phase": PHASE_NAMES[phase]},
            )
        return None

    def _why_move_phase(self, action: RNAction) -> WhyIllegal | None:
        """Why an item, a move or ``done`` is refused in the move phase or the extra move."""
        kind = action.kind
        a = self.active
        if kind == _K_USE:
            if not self.hands[a][action.target]:
                return (
                    "no_item",
                    f"gnome {a + 1} holds no {self.c.items[action.target].slug}",
                    {"item": self.c.items[action.target].kind},
                )
            return "item_useless", "that item cannot help in the extra move", {}
        if kind in (_K_MOVE, _K_OPEN):
            return self._why_move(action.target, kind == _K_MOVE)
        if kind == _K_DONE:
            return "must_act", "the gnome still has time for an action: choose one", {}
        return None

    def _why_room_forbids(self, action: RNAction, r: int) -> WhyIllegal | None:
        """Why room ``r`` (on fire, at high water) allows no such action."""
        kind = action.kind
        burning = r != SEA and self.fire[r]
        if kind == _K_UNBLOCK and (burning or (r != SEA and self.water[r] == 2)):
            # FAQ: "Unblocking a hatch, on the other hand, is an action, so it is not possible."
            where = "on fire" if burning else "at high water"
            return (
                "unblock_in_fire" if burning else "unblock_in_high_water",
                (
                    f"no hatch can be unblocked from room {r}: it is {where}, and Unblock "
                    "Hatch is an action (opening an unblocked hatch is movement: that stays "
                    "possible)"
                ),
                {"room": r},
            )
        if r != SEA and self.water[r] == 2 and kind != _K_NO_ACTION:
            return (
                "in_high_water",
                (f"room {r} is at high water: the only action there is No Action"),
                {"room": r},
            )
        heroic = self.game.heroic_sacrifice
        if burning and kind != _K_EXTINGUISH and not (heroic and self.t_entered_fire):
            if heroic:
                return (
                    "in_fire_not_entered",
                    (
                        f"room {r} is on fire: the only action there is Extinguish Fire (the "
                        "heroic sacrifice is for a gnome who entered the burning room this turn)"
                    ),
                    {"room": r},
                )
            return (
                "in_fire",
                (f"room {r} is on fire: the only action there is Extinguish Fire"),
                {"room": r},
            )
        return None

    def _why_place(self, action: RNAction, r: int) -> WhyIllegal | None:
        """Why room ``r`` is not where ``action`` is taken, or holds nothing for it."""
        c = self.c
        kind = action.kind
        if kind == _K_EXTINGUISH and not (r != SEA and self.fire[r]):
            return "no_fire", f"there is no fire in {_space_name(r)}", {"room": r}
        if kind == _K_PUMP and not (r != SEA and self.water[r] == 1):
            where = _space_name(r).capitalize()
            return "no_low_water", f"{where} has no low-water token to pump", {"room": r}
        if kind == _K_UNBLOCK:
            hatch = c.hatches[action.target]
            if r not in hatch:
                return (
                    "wrong_room",
                    (f"the hatch {hatch[0]}-{hatch[1]} is not in {_space_name(r)}"),
                    {"room": r},
                )
            if not self.blocked[action.target]:
                return "not_blocked", f"the hatch {hatch[0]}-{hatch[1]} is not blocked", {}
        if kind in REPAIR_OF_KIND:
            repair = c.repairs[REPAIR_OF_KIND[kind]]
            if repair.room != r:
                return (
                    "wrong_room",
                    (
                        f"{action.notation().split()[0]} is taken in "
                        f"{_space_name(repair.room)}, not {_space_name(r)}"
                    ),
                    {"room": repair.room},
                )
        if kind == _K_DRAW:
            return self._why_draw(action, r)
        return None

    def _why_draw(self, action: RNAction, r: int) -> WhyIllegal | None:
        """Why the active gnome cannot draw ``action.minutes`` items in room ``r``."""
        c = self.c
        if r not in (c.stores_room, c.cabin_room):
            return (
                "wrong_room",
                ("items are drawn in the Equipment Stores (8) or the Captain's Cabin (10)"),
                {"room": r},
            )
        if self.red_room[self.active] == r:
            return (
                "red_area",
                ("the gnome already drew items here: he must act in another room first"),
                {"room": r},
            )
        most = c.cabin_max_draw if r == c.cabin_room else c.stores_max_draw
        if action.minutes > most:
            return "too_many", f"at most {most} cards can be drawn here", {"most": most}
        left = self.stash if r == c.cabin_room else len(self.item_deck) + len(self.item_discard)
        if action.minutes > left:
            return "not_enough_cards", f"only {left} cards are left to draw", {"left": left}
        return None

    def _why_partner(self, action: RNAction, r: int) -> WhyIllegal | None:
        """Why the active gnome cannot trade with or attack ``action.target``."""
        kind = action.kind
        if kind not in (_K_TRADE, _K_ATTACK):
            return None
        g = action.target
        if kind == _K_ATTACK and not self.game.options["crazed_gnomes"]:
            return "option_off", "Attack Gnome is only played with the Crazed Gnomes rule", {}
        if kind == _K_ATTACK and not self.t_crowbar:
            return "needs_crowbar", "attacking needs a Crowbar used this turn", {}
        if kind == _K_TRADE and r == SEA:  # RULING RN-23
            return (
                "trade_in_sea",
                (
                    "gnomes trade only in the same room, and the Sea is not "
                    "a room: nobody trades outside the sub"
                ),
                {"room": r},
            )
        if kind == _K_ATTACK and r == SEA:  # RULING RN-23
            return (
                "attack_in_sea",
                (
                    "a gnome attacks only in the same room, and the Sea is "
                    "not a room: nobody attacks outside the sub"
                ),
                {"room": r},
            )
        if g >= self.n or g == self.active or not self.on_board(g) or self.room[g] != r:
            return "no_partner", f"gnome {g + 1} is not here", {"gnome": g}
        if kind == _K_TRADE and self.fainted[g]:
            return (
                "partner_fainted",
                f"gnome {g + 1} has fainted and cannot trade",
                {"gnome": g},
            )
        return None

    def _why_abandon(self, action: RNAction, r: int) -> WhyIllegal | None:
        """Why the active gnome cannot abandon his comrades now."""
        if action.kind != _K_ABANDON:
            return None
        if not self.game.abandon_allowed:
            return "no_abandon", ("Abandon Comrades is not played with one or two players"), {}
        if r != SEA:
            return "must_be_outside", "the gnome must be outside the sub to abandon it", {}
        return (
            "too_early",
            (f"only once his Time Keeper has passed the {self.c.abandon_below} space"),
            {"space": self.keeper[self.active]},
        )

    def _why_time(self, action: RNAction, r: int) -> WhyIllegal:
        """The last reasons: too few minutes left, else simply not available."""
        kind = action.kind
        pen = self._penalty(r, kind)
        cost = action.minutes if kind in _FIX or kind == _K_DRAW else 1
        if cost + pen > self.ghost:
            return (
                "no_time",
                (f"that needs {cost + pen} minutes and only {self.ghost} are left"),
                {"needed": cost + pen, "left": self.ghost},
            )
        return "not_available", f"{action.notation()!r} is not available now", {}

    def _why_choice(self, action: RNAction) -> WhyIllegal:
        c = self.c
        if action.kind == _K_SPREAD:
            r = action.target
            rooms = ", ".join(str(x) for x in self._spread_rooms())
            return (
                "bad_room",
                (
                    f"the fire cannot spread to room {r}: it must be next to a fire, "
                    f"not burning and not flooded (choose among {rooms})"
                ),
                {"room": r, "choices": self._spread_rooms()},
            )
        if action.kind == _K_BLOCK:
            h = c.hatches[action.target]
            return (
                "bad_hatch",
                (
                    f"the hatch {h[0]}-{h[1]} cannot be blocked: choose an open "
                    f"hatch of room {self.choice_room}"
                ),
                {"room": self.choice_room},
            )
        return (
            "no_item",
            (f"gnome {self.decider + 1} holds no {c.items[action.target].slug}"),
            {"gnome": self.decider, "item": c.items[action.target].kind},
        )

    def _why_move(self, dest: int, enter: bool) -> WhyIllegal:
        a = self.active
        src = self.room[a]
        hatch = self.c.hatch_between(src, dest)
        where = {"room": src, "to": dest}
        if hatch is None:
            return (
                "no_hatch",
                (f"there is no hatch between {_space_name(src)} and {_space_name(dest)}"),
                where,
            )
        if hatch >= 0 and self.blocked[hatch]:
            return (
                "hatch_blocked",
                (f"the hatch between {_space_name(src)} and {_space_name(dest)} is blocked"),
                where,
            )
        if hatch >= 0 and self.water[src] == 1 and self.water[dest] == 2:
            return (
                "pump_first",
                (
                    f"room {dest} is at high water: {_space_name(src)} must be "
                    "pumped before that hatch can be opened"
                ),
                where,
            )
        if self.ghost < 1:
            return "no_time", "no minutes are left", {"needed": 1, "left": 0}
        if self.phase == _PH_EXTRA_MOVE and not enter:
            return "must_leave", "after a failed Extinguish Fire the gnome must leave the room", {}
        if dest == SEA and not self.t_aqualung:
            return "needs_aqualung", "leaving the sub needs an Aqualung used this turn", where
        if dest != SEA:
            ws, wd = (0 if src == SEA else self.water[src]), self.water[dest]
            flows = hatch >= 0 and rules.reflows(ws, wd)
            if wd == 2 and not flows:
                return "high_water", f"room {dest} is at high water", where
            if self.fire[dest] and not flows and not self.t_fire_ok:
                return (
                    "on_fire",
                    (f"room {dest} is on fire: use Grog or a Fire Extinguisher to enter"),
                    where,
                )
        cost = self._move_cost(src, dest, hatch)
        if cost is not None and cost > self.ghost:
            return (
                "no_time",
                f"that needs {cost} minutes and only {self.ghost} are left",
                {"needed": cost, "left": self.ghost},
            )
        return "not_available", "that move is not available now", where

    # ------------------------------------------------------------ copies etc. --
    def clone(self) -> RedNovemberState:
        """An independent copy."""
        new = RedNovemberState(self.game, 0, empty=True)
        new.n = self.n
        new.rng = self.rng.clone()
        new._ev = []
        new._legal = self._legal
        new.opening_events = self.opening_events
        for name in LISTS:
            setattr(new, name, getattr(self, name)[:])
        new.hands = [h[:] for h in self.hands]
        for name in SCALARS:
            setattr(new, name, getattr(self, name))
        return new

    def to_json(self) -> dict[str, Any]:
        """The whole state, secrets and generator included."""
        data: dict[str, Any] = {name: getattr(self, name) for name in SCALARS}
        data["phase"] = int(self.phase)
        data["choice"] = int(self.choice)
        for name in LISTS:
            value = getattr(self, name)
            data[name] = [list(x) for x in value] if name == "discards" else list(value)
        data["hands"] = [list(h) for h in self.hands]
        data["rng"] = self.rng.state
        data["result_winners"] = list(self.result_winners)
        return data

    @classmethod
    def from_json(cls, game: RedNovember, data: Mapping[str, Any]) -> RedNovemberState:
        """Rebuild a state from :meth:`to_json` output.

        Every field is checked, alone and against the others
        (:func:`~subtable.games.red_november.saved.read_state`); an inconsistent
        state raises ``ValueError`` naming the problem.
        """
        fields = read_state(game, data)
        state = cls(game, 0, empty=True)
        state.n = game.num_seats
        state._ev = []
        state._legal = None
        state.opening_events = []
        for name, value in fields.items():
            if name != "rng":
                setattr(state, name, value)
        state.rng = Rng(fields["rng"])
        if not state.is_terminal() and not state.legal_action_ids():
            raise ValueError("invalid Red November state: the game goes on but no action is legal")
        return state

    @classmethod
    def from_view(
        cls,
        game: RedNovember,
        view: RedNovemberView,
        event_deck: list[int],
        item_deck: list[int],
        hands: list[list[int]],
        seed: int,
        rng: Rng,
    ) -> RedNovemberState:
        """A state showing ``view``, with the hidden parts given (for ``determinize``).

        The caller deals ``event_deck`` and ``item_deck`` (bottom first), the
        hidden ``hands`` and a fresh ``seed`` and generator; the history is empty.
        """
        state = cls(game, 0, empty=True)
        state.n = len(view.room)
        state.seed = seed
        state.rng = rng
        state.history = []
        state._ev = []
        state._legal = None
        state.opening_events = []
        state.fire = list(view.fire)
        state.water = list(view.water)
        state.blocked = list(view.blocked)
        state.track = list(view.track)
        state.token = list(view.token)
        state.keeper = list(view.keeper)
        state.seq = list(view.stack)
        state.room = list(view.room)
        state.alive = list(view.alive)
        state.abandoned = list(view.abandoned)
        state.fainted = list(view.fainted)
        state.intox = list(view.intoxication)
        state.red_room = list(view.red_room)
        state.hands = hands
        state.event_deck = event_deck
        state.event_discard = list(view.event_discard)
        state.event_removed = list(view.event_removed)
        state.event_aside = list(view.event_aside)
        state.item_deck = item_deck
        state.item_discard = list(view.item_discard)
        state.stash = view.stash
        state.turn = view.turn
        state.active = view.active
        state.ghost = view.ghost
        state.phase = view.phase
        state.decider = view.decider
        state.partner = view.partner
        state.choice = view.choice
        state.choice_room = view.choice_room
        t = view.this_turn
        state.t_grog = t.grog
        state.t_fire_ok = t.fire_ok
        state.t_aqualung = t.aqualung
        state.t_bonus = list(t.bonus)
        state.t_lucky = t.lucky
        state.t_crowbar = t.crowbar
        state.t_outside = t.outside
        state.t_entered_fire = t.entered_fire
        state.t_fresh = t.fresh
        b = view.book
        state.stage = b.stage
        state.resume = b.resume
        state.seq_next = b.seq_next
        state.pend_event = b.pend_event
        state.pend_item = b.pend_item
        state.discards = list(b.discards)
        state.pregame_left = b.pregame_left
        state.result_reason = b.result_reason
        state.result_winners = list(b.result_winners)
        return state

    def chance_fingerprint(self) -> str:
        """A digest of the generator's position (see :meth:`State.chance_fingerprint`)."""
        return self.rng.fingerprint()

    # ------------------------------------------------------------------ views --
    def observe(self, seat: int | None) -> RedNovemberView:
        """What ``seat`` may see (``None``: a spectator), as a typed value.

        Deck orders, the seed and the generator are never in it; under Crazed
        Gnomes neither are the other gnomes' hands; nor is the action history.
        The legal actions are included only for the seat that decides now.
        """
        if seat is not None and not 0 <= seat < self.n:
            raise ValueError(f"seat {seat} is not a seat of this game (0-{self.n - 1})")
        hands = self.hands
        if self.game.options["crazed_gnomes"]:
            shown = tuple(tuple(h) if g == seat else None for g, h in enumerate(hands))
        else:
            shown = tuple(map(tuple, hands))
        over = self.phase == _PH_OVER
        legal = (
            tuple(self.legal_action_ids())
            if seat is not None and not over and seat == self.decider
            else ()
        )
        return make_view(
            seat,
            self.turn,
            self.phase,
            self.decider,
            self.active,
            self.ghost,
            self.choice,
            self.choice_room,
            self.partner,
            tuple(self.fire),
            tuple(self.water),
            tuple(self.blocked),
            tuple(self.track),
            tuple(self.token),
            tuple(self.room),
            tuple(self.keeper),
            tuple(self.seq),
            tuple(self.alive),
            tuple(self.abandoned),
            tuple(self.fainted),
            tuple(self.intox),
            tuple(self.red_room),
            shown,
            tuple(map(sum, hands)),
            self.stash,
            len(self.event_deck),
            tuple(self.event_discard),
            tuple(self.event_removed),
            tuple(self.event_aside),
            len(self.item_deck),
            tuple(self.item_discard),
            make_this_turn(
                self.t_grog,
                self.t_fire_ok,
                self.t_aqualung,
                tuple(self.t_bonus),
                self.t_lucky,
                self.t_crowbar,
                self.t_outside,
                self.t_entered_fire,
                self.t_fresh,
            ),
            make_bookkeeping(
                self.stage,
                self.resume,
                self.seq_next,
                self.pend_event,
                self.pend_item,
                tuple(self.discards),
                self.pregame_left,
                self.result_reason,
                tuple(self.result_winners),
            ),
            legal,
            self.game,
        )
