"""Red November's observation encoding: one seat's :class:`RedNovemberView` as a flat vector.

Gnomes are indexed absolutely (gnome ``g`` is seat ``g``, as in the action ids ``trade g2``);
the ``seat`` field says which gnome is looking. Every entry lies in ``[0, 1]``: one-hots,
flags, and counts divided by a bound (and clipped). ``docs/rl.md`` lists the fields.
"""

from __future__ import annotations

from typing import Any

from subtable.core.game import Game, Utility
from subtable.core.view import SeatView
from subtable.games.red_november.components import FIX_KINDS, ROOMS, SEA
from subtable.games.red_november.view import Choice, Phase, RedNovemberView
from subtable.rl.common import RLSupport
from subtable.rl.encoding import Encoder, Layout, frac

#: features per gnome in the ``gnomes`` field, in order (``docs/rl.md``)
GNOME_FEATURES_DOC = (
    "room one-hot (11: rooms 1-10, the Sea; all zero once dead)",
    "alive",
    "abandoned (swum away)",
    "fainted",
    "intoxication / 4",
    "Time Keeper's space / time-track top (0 once gone)",
    "Time Keeper gone",
    "stacking rank among the gnomes / (gnomes - 1) (higher lies on top)",
    "red-area room one-hot (10: rooms 1-10; all zero for none)",
    "standing in his red area",
    "hand known to this seat",
    "hand: cards per item kind / 4 (zero when hidden)",
    "hand size / 10",
)


class RedNovemberEncoder(Encoder):
    """Encodes :class:`RedNovemberView` values of one game (its gnome count fixes the size)."""

    def __init__(self, game: Game[Any]) -> None:
        c = game.components  # type: ignore[attr-defined]
        self.c = c
        n = self.n = game.num_seats
        self.k = k = len(c.items)
        self.h = len(c.hatches)
        self.e = e = len(c.events)
        self.event_kinds = tuple(sorted({ev.kind for ev in c.events}))
        self._kind_of = [self.event_kinds.index(ev.kind) for ev in c.events]
        self.total_items = sum(i.copies for i in c.items)
        self.max_stash = max(1, sum(i.stash for i in c.items))
        # per-gnome feature offsets
        self.g_room = 0
        self.g_alive = 11
        self.g_abandoned = 12
        self.g_fainted = 13
        self.g_intox = 14
        self.g_keeper = 15
        self.g_gone = 16
        self.g_stack = 17
        self.g_red = 18
        self.g_in_red = 28
        self.g_known = 29
        self.g_hand = 30
        self.g_size = 30 + k
        self.g_width = gw = 31 + k
        self.layout = Layout(
            [
                ("seat", (n,), "one-hot: the gnome (seat) this observation is for"),
                ("decider", (n,), "one-hot: the gnome who decides now (all zero once over)"),
                ("to_act", (1,), "1 when this seat decides now"),
                ("active", (n,), "one-hot: the gnome whose turn it is"),
                ("phase", (len(Phase),), "one-hot: the decision waited for (Phase)"),
                (
                    "choice",
                    (len(Choice),),
                    "one-hot: the event choice (none, spread, block, discard)",
                ),
                ("choice_room", (len(ROOMS),), "one-hot: Blocked Hatch's rolled room (1-10)"),
                ("partner", (n,), "one-hot: the trade partner or attacked gnome"),
                ("turn", (1,), "turn number / 100 (clipped)"),
                ("ghost", (1,), "the Ghost Time Keeper's space / time-track top"),
                ("fire", (len(ROOMS),), "per room 1-10: on fire"),
                ("water_low", (len(ROOMS),), "per room 1-10: some water (low or high)"),
                ("water_high", (len(ROOMS),), "per room 1-10: high water"),
                ("blocked", (self.h,), "per interior hatch: blocked"),
                ("track", (len(c.tracks),), "per disaster track: level / track length"),
                ("token_placed", (len(c.tokens),), "per Destruction token: on the time track"),
                ("token_pos", (len(c.tokens),), "per Destruction token: space / time-track top"),
                ("gnomes", (n, gw), "per gnome: the features listed below"),
                ("stash", (1,), "Grog left in the Captain's Cabin stash / stash size"),
                ("event_deck", (1,), "event cards in the deck / event cards"),
                ("item_deck", (1,), "item cards in the deck / item cards"),
                ("event_discard", (e,), "per event card: in the discard pile"),
                ("event_removed", (e,), "per event card: out of the game (Respites)"),
                ("event_aside", (e,), "per event card: set aside (the Kraken)"),
                ("last_event", (len(self.event_kinds),), "one-hot: kind of the top discard"),
                ("item_discard", (k,), "per item kind: copies in the discard pile / copies"),
                ("grog", (1,), "this turn: Grog drunk / 4"),
                (
                    "turn_flags",
                    (7,),
                    "this turn: fire_ok, aqualung, crowbar, outside, "
                    "entered_fire, fresh, lucky (Lucky Charms left, clipped at 1)",
                ),
                ("bonus", (len(FIX_KINDS),), "this turn: fix-it bonus per fix kind / 3"),
                ("pending", (3,), "event pending, item draw pending, events before turn 1 / 8"),
                ("discard_gnome", (n,), "one-hot: the gnome who must discard now"),
                ("discard_limit", (1,), "the hand limit being enforced / 10"),
            ]
        )
        super().__init__(game)
        self._copies = [max(1, i.copies) for i in c.items]

    def _entries(self, view: SeatView) -> tuple[list[int], list[int], list[float]]:
        if not isinstance(view, RedNovemberView):
            raise TypeError(f"not a Red November view: {type(view).__name__}")
        ones: list[int] = []
        vi: list[int] = []
        vv: list[float] = []
        self._decision(view, ones, vi, vv)
        self._board(view, ones, vi, vv)
        self._gnomes(view, ones, vi, vv)
        self._decks(view, ones, vi, vv)
        self._this_turn(view, ones, vi, vv)
        self._book(view, ones, vi, vv)
        return ones, vi, vv

    def _decision(
        self, view: RedNovemberView, ones: list[int], vi: list[int], vv: list[float]
    ) -> None:
        """Who looks, who decides, the phase and its choice, the turn."""
        lay = self.layout
        top = self.c.time_top
        seat = view.seat
        if seat is not None:
            ones.append(lay["seat"] + seat)
        over = view.phase == Phase.OVER
        if not over and view.decider >= 0:
            ones.append(lay["decider"] + view.decider)
            if view.decider == seat:
                ones.append(lay["to_act"])
        if view.active >= 0:
            ones.append(lay["active"] + view.active)
            vi.append(lay["ghost"])
            vv.append(frac(view.ghost, top))
        ones.append(lay["phase"] + int(view.phase))
        ones.append(lay["choice"] + int(view.choice))
        if view.choice == Choice.BLOCK and 1 <= view.choice_room <= 10:
            ones.append(lay["choice_room"] + view.choice_room - 1)
        if view.partner >= 0:
            ones.append(lay["partner"] + view.partner)
        vi.append(lay["turn"])
        vv.append(frac(view.turn, 100))

    def _board(
        self, view: RedNovemberView, ones: list[int], vi: list[int], vv: list[float]
    ) -> None:
        """The rooms' fire and water, the hatches, the tracks and the tokens."""
        lay = self.layout
        c = self.c
        top = c.time_top
        fire, wl, wh = lay["fire"], lay["water_low"], lay["water_high"]
        for r in ROOMS:
            if view.fire[r]:
                ones.append(fire + r - 1)
            w = view.water[r]
            if w:
                ones.append(wl + r - 1)
                if w >= 2:
                    ones.append(wh + r - 1)
        b = lay["blocked"]
        ones.extend(b + i for i, x in enumerate(view.blocked) if x)
        t = lay["track"]
        for i, level in enumerate(view.track):
            vi.append(t + i)
            vv.append(frac(level, c.track_length))
        tp, tpos = lay["token_placed"], lay["token_pos"]
        for i, pos in enumerate(view.token):
            if pos >= 0:
                ones.append(tp + i)
                vi.append(tpos + i)
                vv.append(frac(pos, top))

    def _gnomes(
        self, view: RedNovemberView, ones: list[int], vi: list[int], vv: list[float]
    ) -> None:
        """Every gnome's features (``GNOME_FEATURES_DOC``)."""
        lay = self.layout
        n = self.n
        top = self.c.time_top
        order = sorted(range(n), key=view.stack.__getitem__)
        rank_scale = max(1, n - 1)
        base = lay["gnomes"]
        gw = self.g_width
        for g in range(n):
            o = base + g * gw
            room = view.room[g]
            alive = view.alive[g]
            if alive and 1 <= room <= SEA:
                ones.append(o + self.g_room + room - 1)
            if alive:
                ones.append(o + self.g_alive)
            if view.abandoned[g]:
                ones.append(o + self.g_abandoned)
            if view.fainted[g]:
                ones.append(o + self.g_fainted)
            if view.intoxication[g]:
                vi.append(o + self.g_intox)
                vv.append(frac(view.intoxication[g], 4))
            keeper = view.keeper[g]
            if keeper >= 0:
                vi.append(o + self.g_keeper)
                vv.append(frac(keeper, top))
            else:
                ones.append(o + self.g_gone)
            rank = order.index(g)
            if rank:
                vi.append(o + self.g_stack)
                vv.append(rank / rank_scale)
            red = view.red_room[g]
            if 1 <= red <= 10:
                ones.append(o + self.g_red + red - 1)
                if red == room:
                    ones.append(o + self.g_in_red)
            hand = view.hands[g]
            if hand is not None:
                ones.append(o + self.g_known)
                h0 = o + self.g_hand
                for i, cnt in enumerate(hand):
                    if cnt:
                        vi.append(h0 + i)
                        vv.append(frac(cnt, 4))
            if view.hand_size[g]:
                vi.append(o + self.g_size)
                vv.append(frac(view.hand_size[g], 10))

    def _decks(
        self, view: RedNovemberView, ones: list[int], vi: list[int], vv: list[float]
    ) -> None:
        """The stash and the decks, the discard piles, the cards set aside."""
        lay = self.layout
        vi.append(lay["stash"])
        vv.append(frac(view.stash, self.max_stash))
        vi.append(lay["event_deck"])
        vv.append(frac(view.event_deck_size, self.e))
        vi.append(lay["item_deck"])
        vv.append(frac(view.item_deck_size, self.total_items))
        ed = lay["event_discard"]
        ones.extend(ed + i for i in view.event_discard)
        er = lay["event_removed"]
        ones.extend(er + i for i in view.event_removed)
        ea = lay["event_aside"]
        ones.extend(ea + i for i in view.event_aside)
        if view.event_discard:
            ones.append(lay["last_event"] + self._kind_of[view.event_discard[-1]])
        if view.item_discard:
            counts = [0] * self.k
            for i in view.item_discard:
                counts[i] += 1
            idc = lay["item_discard"]
            for i, cnt in enumerate(counts):
                if cnt:
                    vi.append(idc + i)
                    vv.append(frac(cnt, self._copies[i]))

    def _this_turn(
        self, view: RedNovemberView, ones: list[int], vi: list[int], vv: list[float]
    ) -> None:
        """What the active gnome has used or done this turn."""
        lay = self.layout
        tt = view.this_turn
        if tt.grog:
            vi.append(lay["grog"])
            vv.append(frac(tt.grog, 4))
        f = lay["turn_flags"]
        for i, on in enumerate(
            (tt.fire_ok, tt.aqualung, tt.crowbar, tt.outside, tt.entered_fire, tt.fresh, tt.lucky)
        ):
            if on:
                ones.append(f + i)
        bo = lay["bonus"]
        for i, x in enumerate(tt.bonus):
            if x:
                vi.append(bo + i)
                vv.append(frac(x, 3))

    def _book(self, view: RedNovemberView, ones: list[int], vi: list[int], vv: list[float]) -> None:
        """Pending draws, the events before the first turn, a discard owed."""
        lay = self.layout
        over = view.phase == Phase.OVER
        book = view.book
        p = lay["pending"]
        if book.pend_event:
            ones.append(p)
        if book.pend_item:
            ones.append(p + 1)
        if book.pregame_left:
            vi.append(p + 2)
            vv.append(frac(book.pregame_left, 8))
        if book.discards and not over:
            g, limit = book.discards[0]
            ones.append(lay["discard_gnome"] + g)
            vi.append(lay["discard_limit"])
            vv.append(frac(limit, 10))


def _potential(view: SeatView) -> float:
    """The disaster-track margin: 1 minus the highest track's level over its length."""
    length: int = view.game.components.track_length  # type: ignore[attr-defined]
    track: tuple[int, ...] = view.track  # type: ignore[attr-defined]
    return 1.0 - max(track) / length


def _utility(game: Game[Any]) -> Utility:
    """From 3 players a gnome who abandoned his comrades wins exactly when the others lose:
    general-sum; with 1-2 players the whole crew wins or loses (identical utilities)."""
    abandon = bool(getattr(game, "abandon_allowed", True))
    return Utility.GENERAL_SUM if abandon else Utility.COOPERATIVE


#: the ``rl`` part of Red November's registration
RL = RLSupport(
    agent_prefix="gnome",
    potential=_potential,
    potential_doc="disaster-track margin: 1 - (highest disaster track level / track length)",
    train={
        "options": {"players": 1},
        "seat": 0,
        "opponents": "heuristic",
        "max_steps": 400,
        "imitate": 4000,
        "lr": 1e-4,
        "ent_coef": 0.003,
    },
    utility=_utility,
)
