"""Submarine: one position, and every rule that moves it on.

The state waits for one decision at a time (``phase``) from the turn player
(``seat``). A decision with a single legal action is not a decision: it is
played automatically (its events are reported, it is not added to
``history``) — going off the right edge when no column ahead holds one of
your bathyscaphes, passing a waiting turn when no swap is possible, ending the
turn's actions when nothing is left to do, giving a toll card when the hand
holds a single colour.

Rulings the rulebook leaves open are marked ``RULING`` and listed, with their
tests, in the Submarine part of ``RULINGS.md``. The rules themselves are
pure functions in :mod:`~subtable.games.submarine.rules`, shared with the bots.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from subtable.core.events import Event
from subtable.core.game import Outcome, State, WhyIllegal
from subtable.core.rng import Rng
from subtable.games.submarine import rules, validate
from subtable.games.submarine.actions import Kind, SubAction
from subtable.games.submarine.view import LEFT, PHASE_NAMES, Phase, SubmarineView, make_view

if TYPE_CHECKING:
    from subtable.games.submarine.game import Submarine

__all__ = ["LEFT", "PHASE_NAMES", "Phase", "SubmarineState"]

# The decisions (``phase``), as module globals: a global is cheaper to read than an
# enum attribute on the hot paths. They are the Phase members themselves.
P_PLACE, P_BOAT, P_ACT, P_GIVE, P_SWAP, P_TO, P_OVER = Phase
#: what each phase waits for, in the words of a refusal
_WAITING = {
    P_PLACE: "every bathyscaphe must first be placed ('place N')",
    P_BOAT: "the boat must move first ('boat N' or 'boat off')",
    P_ACT: "the bathyscaphes under the boat act now (move, collect or done)",
    P_GIVE: "the toll must be paid from the hand first ('give colour')",
    P_SWAP: "the boat is off the right edge: 'swap colour' or 'no-swap'",
    P_TO: "the moving bathyscaphe needs its destination ('to cN lN')",
}
#: the phases in which each kind of action can be taken
_WANTED = {
    Kind.PLACE: (P_PLACE,),
    Kind.BOAT: (P_BOAT,),
    Kind.BOAT_OFF: (P_BOAT,),
    Kind.MOVE: (P_ACT,),
    Kind.TO: (P_TO,),
    Kind.COLLECT: (P_ACT,),
    Kind.DONE: (P_ACT,),
    Kind.GIVE: (P_GIVE,),
    Kind.SWAP: (P_SWAP,),
    Kind.NO_SWAP: (P_SWAP,),
}

# The action kinds, as module globals too. They are the Kind members themselves: an
# action's ``kind`` is one, and two members compare faster than a member and a plain int.
_PLACE, _BOAT, _BOAT_OFF, _MOVE, _TO, _COLLECT, _GIVE, _SWAP, _NO_SWAP, _DONE = Kind

_NESTED, _FLAT, _SCALARS = validate.NESTED, validate.FLAT, validate.SCALARS

#: ``_new_event(Event, (key, params, owners, secret))`` is ``Event(key, params, owners,
#: secret)`` without the named tuple's Python-level ``__new__`` (as in Red November's
#: engine): events are made on every decision
_new_event = tuple.__new__


class SubmarineState(State[SubAction]):
    """A position of Submarine. Build one with :meth:`Submarine.new_state`.

    Public fields (tests may set them to build scenarios, then call
    :meth:`refresh`):

    * ``cells[cell]``: tokens in each cell; ``baths[seat]``: each bathyscaphe's cell;
    * ``boat[seat]``: ``-1`` off the left edge, a column, or ``columns`` off the right;
    * ``owned[seat][type]``: the token on the individual board (or -1);
    * ``spare[seat]``: tokens beside the board, usable as jokers (sorted);
    * ``hand[seat][colour]``: card counts; ``pile[seat]``: colours, top last;
    * ``discard``/``box_cards``: card counts by colour; ``box_tokens``: unused jokers.
    """

    __slots__ = (
        "_ev",
        "_legal",
        "acts",
        "c",
        "game",
        "hs",
        "ix",
        "jt",
        "lv",
        "n",
        "names",
        "ncol",
        "opening_events",
        "right",
        "rng",
        *_NESTED,
        *_FLAT,
        *_SCALARS,
    )

    # a Submarine state holds a Submarine game, set once: the narrowing is safe
    game: Submarine

    # ------------------------------------------------------------------ setup --
    def __init__(self, game: Submarine, seed: int) -> None:
        c = game.components
        n = game.num_seats
        self.game = game  # pyright: ignore[reportIncompatibleVariableOverride]
        self.c = c
        self.n = n
        self.ix = game.index
        self.right = c.columns
        self.lv = c.levels
        self.hs = c.hand_size
        self.ncol = len(c.colours)
        self.jt = c.treasure_tokens  # tokens from here on are shell jokers
        self.acts = game.actions
        self.names = game.token_names
        self.seed = seed
        self.rng = Rng(seed)
        self.history = []
        self._ev: list[Event] = []
        self._legal: list[int] | None = None
        #: the events of the setup
        self.opening_events: list[Event] = []
        ncol = len(c.colours)
        self.cells: list[list[int]] = [[] for _ in range(c.cells)]
        self.owned: list[list[int]] = [[-1] * len(c.types) for _ in range(n)]
        self.spare: list[list[int]] = [[] for _ in range(n)]
        self.hand: list[list[int]] = [[0] * ncol for _ in range(n)]
        self.pile: list[list[int]] = [[] for _ in range(n)]
        self.baths: list[list[int]] = [[] for _ in range(n)]
        self.boat: list[int] = [LEFT] * n
        self.discard: list[int] = [0] * ncol
        self.box_cards: list[int] = [0] * ncol
        self.box_tokens: list[int] = []
        #: the seats still owed a toll card from the hand (``P_GIVE``)
        self.owed: list[int] = []
        #: jokers put down by the current collection (RULING SUB-15: not to be taken back by
        #: it with a joker)
        self.placed: list[int] = []
        self.result_winners: list[int] = []
        self.phase: Phase = P_PLACE
        self.seat = 0
        self.first = 0
        self.turn = 0
        self.to_place = 0
        self.column = -1
        self.acting = -1
        self.moving = -1
        self.acted = 0
        self.pend_token = -1
        self.pend_cell = -1
        self.ender = -1
        self.result_reason = ""

    def _setup(self) -> None:
        """The rulebook's "Préparation", every random choice from the state's generator."""
        c, rng, n = self.c, self.rng, self.n
        ncol = len(c.colours)
        setup = c.setups[n]
        # "retirez du tas un nombre égal de cartes de chaque couleur": keep ceil(needed/5)
        needed = n * setup.cards
        keep = -(-needed // ncol)
        deck = [col for col in range(ncol) for _ in range(keep)]
        rng.shuffle(deck)
        self.box_cards = [c.cards_per_colour - keep] * ncol
        for s in range(n):
            self.pile[s] = deck[s * setup.cards : (s + 1) * setup.cards]
        for col in deck[needed:]:
            self.box_cards[col] += 1
        tokens = list(range(c.treasure_tokens))
        rng.shuffle(tokens)
        for col in range(c.columns):
            for lv, count in enumerate(c.treasures_per_level):
                self.cells[col * c.levels + lv] = [tokens.pop() for _ in range(count)]
        jokers = list(range(c.treasure_tokens, c.tokens))
        rng.shuffle(jokers)  # RULING SUB-2: a random colour each
        for s in range(n):
            self.spare[s] = [jokers[s]]
        self.box_tokens = sorted(jokers[n:])
        self.first = self.seat = rng.below(n)
        self.to_place = n * setup.bathyscaphes
        self._emit(
            "game_started",
            players=n,
            first=self.first,
            bathyscaphes=setup.bathyscaphes,
            cards=setup.cards,
            cells=[[c.token_name(t) for t in cell] for cell in self.cells],
            jokers=[c.token_name(self.spare[s][0]) for s in range(n)],
        )
        for s in range(n):
            self._refill(s)
        self._run()
        self.opening_events, self._ev = self._ev, []

    # --------------------------------------------------------------- helpers --
    def _emit(self, key: str, **params: Any) -> None:
        self._ev.append(_new_event(Event, (key, params, (), ())))

    def refresh(self) -> None:
        """Recompute cached legal actions (and play forced ones) after editing fields."""
        self._legal = None
        self._ev = []
        self._run()

    def cards_held(self, seat: int) -> int:
        """Search cards in ``seat``'s hand and pile."""
        return sum(self.hand[seat]) + len(self.pile[seat])

    def treasure_count(self, seat: int) -> int:
        """Different treasures on ``seat``'s individual board."""
        return sum(1 for t in self.owned[seat] if t >= 0)

    def toll_seats(self, seat: int, cell: int) -> list[int]:
        """Who receives a toll card when ``seat`` takes a token from ``cell`` with a card.

        See :func:`rules.toll_seats <subtable.games.submarine.rules.toll_seats>`.
        """
        return rules.toll_seats(self.baths, seat, cell, self.lv)

    def _cell_name(self, cell: int) -> dict[str, int]:
        col, lv = divmod(cell, self.lv)
        return {"column": col + 1, "level": lv + 1}

    def _draw(self, seat: int, count: int) -> None:
        pile, hand = self.pile[seat], self.hand[seat]
        got = []
        while count > 0 and pile:
            colour = pile.pop()
            hand[colour] += 1
            got.append(self.c.colours[colour])
            count -= 1
        if got:
            self._ev.append(
                _new_event(
                    Event,
                    (
                        "cards_drawn",
                        {"seat": seat, "count": len(got), "cards": got},
                        (seat,),
                        ("cards",),
                    ),
                )
            )

    def _refill(self, seat: int) -> None:
        short = self.hs - sum(self.hand[seat])
        if short > 0:
            self._draw(seat, short)

    # ------------------------------------------------------------- decisions --
    def current_seat(self) -> int | None:
        """The seat that decides now (always the turn player)."""
        return None if self.phase == P_OVER else self.seat

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase == P_OVER

    def legal_action_ids(self) -> list[int]:
        """The legal action ids, sorted."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal[:]

    def _compute_legal(self) -> list[int]:
        phase = self.phase
        ix = self.ix
        s = self.seat
        if phase == P_ACT:
            out: list[int] = []
            baths = self.baths[s]
            lv = self.lv
            lo = self.column * lv
            hi = lo + lv
            acted = self.acted
            collect = moves = 0  # cells already listed, as bit sets
            if self.acting >= 0:  # it may go on collecting in its cell
                b = baths[self.acting]
                collect = 1 << b
                # RULING SUB-15: not its own jokers back with a joker; another idle
                # bathyscaphe in the cell may, by beginning its own collection
                idle_here = False
                for i, x in enumerate(baths):
                    if x == b and not acted >> i & 1:
                        idle_here = True
                        break
                self._collect_ids(out, s, b, () if idle_here else self.placed)
            for i, b in enumerate(baths):
                if lo <= b < hi and not acted >> i & 1:
                    bit = 1 << b
                    if not moves & bit:
                        moves |= bit
                        out.append(ix.move + b % lv)
                    if not collect & bit:
                        collect |= bit
                        self._collect_ids(out, s, b, ())
            out.append(ix.done)
            out.sort()
            return out
        if phase == P_BOAT:
            lv = self.lv
            mask = 0
            for b in self.baths[s]:
                mask |= 1 << (b // lv)
            return ix.boat_legal[self.boat[s] + 1][mask]
        if phase == P_TO:
            return ix.to_from[self.baths[s][self.moving]]
        if phase == P_SWAP:
            out = []
            if self.pile[s]:  # RULING SUB-18: a swap needs a pile
                out = [ix.swap + col for col, k in enumerate(self.hand[s]) if k]
            out.append(ix.no_swap)
            return out
        if phase == P_PLACE:
            return list(range(ix.place, ix.place + self.c.columns))
        if phase == P_GIVE:
            return [ix.give + col for col, k in enumerate(self.hand[s]) if k]
        return []

    def _collect_ids(self, out: list[int], s: int, cell: int, placed: Sequence[int]) -> None:
        """The collections in ``cell``; ``placed``: tokens not to be taken with a joker."""
        tokens = self.cells[cell]
        if not tokens:
            return
        ix = self.ix
        stride = ix.stride
        hand = self.hand[s]
        spare = self.spare[s]
        pay_card = None  # computed on first need
        ncol = self.ncol
        base = ix.collect
        for t in tokens:
            b = base + t * stride
            colour = t % ncol
            if hand[colour]:
                if pay_card is None:  # RULING SUB-10 (the colour itself is in hand)
                    pay_card = rules.can_pay_card(
                        hand,
                        colour,
                        len(self.pile[s]),
                        rules.toll_count(self.baths, s, cell, self.lv),
                    )
                if pay_card:
                    out.append(b)
            if t in placed:  # RULING SUB-15: its own joker, not back with a joker
                continue
            b += 1
            for j in spare:
                out.append(b + j)

    # ------------------------------------------------------------- applying --
    def apply_unchecked(self, action_id: int) -> list[Event]:
        """Apply a legal action (unchecked) and play on to the next real decision."""
        events: list[Event] = []
        self._ev = events
        self.history.append(action_id)
        acts = self.acts
        self._decide(acts[action_id])
        while self.phase != P_OVER:  # as _run, inlined: this is the hot path
            legal = self._compute_legal()
            if len(legal) != 1:
                self._legal = legal
                return events
            self._decide(acts[legal[0]])
        self._legal = []
        return events

    def _run(self) -> None:
        """Play forced decisions (a single legal action) until a real one or the end.

        RULING SUB-4: a decision with one legal action is no decision.
        """
        acts = self.acts
        while self.phase != P_OVER:
            legal = self._compute_legal()
            if len(legal) != 1:
                self._legal = legal
                return
            self._decide(acts[legal[0]])
        self._legal = []

    def _decide(self, a: SubAction) -> None:
        kind = a.kind
        # the kinds by how often they are played in random games (a boat move first)
        if kind == _BOAT:
            self.boat[self.seat] = self.column = a.column
            self.phase = P_ACT
            self._ev.append(
                _new_event(
                    Event, ("boat_moved", {"seat": self.seat, "column": a.column + 1}, (), ())
                )
            )
        elif kind == _BOAT_OFF:
            self.boat[self.seat] = self.right
            self.phase = P_SWAP  # "se trouve ou atteint": the swap is open this turn already
            self._ev.append(_new_event(Event, ("boat_left_board", {"seat": self.seat}, (), ())))
        elif kind == _NO_SWAP:
            self._ev.append(_new_event(Event, ("no_swap", {"seat": self.seat}, (), ())))
            self._end_turn()
        elif kind == _DONE:
            self._ev.append(_new_event(Event, ("actions_ended", {"seat": self.seat}, (), ())))
            self._end_turn()
        elif kind == _SWAP:
            self._swap(a.colour)
        elif kind == _MOVE:
            self.acting = -1  # RULING SUB-8: another bathyscaphe acting ends a collection
            self.placed = []
            self.moving = self._idle_bathyscaphe(self.column * self.lv + a.level)
            self.acted |= 1 << self.moving
            self.phase = P_TO
            self._ev.append(
                _new_event(
                    Event,
                    (
                        "bathyscaphe_chosen",
                        {"seat": self.seat, "column": self.column + 1, "level": a.level + 1},
                        (),
                        (),
                    ),
                )
            )
        elif kind == _TO:
            self._move(a.column * self.lv + a.level)
        elif kind == _COLLECT:
            self._collect(a.token, a.pay)
        elif kind == _GIVE:
            self._give_from_hand(a.colour)
        elif kind == _PLACE:
            self._place(a.column)

    def _swap(self, colour: int) -> None:
        s = self.seat
        self.hand[s][colour] -= 1
        self.pile[s].insert(0, colour)  # under the pile ...
        drawn = self.pile[s].pop()  # ... then the top card
        self.hand[s][drawn] += 1
        colours = self.c.colours
        self._ev.append(
            _new_event(
                Event,
                (
                    "card_swapped",
                    {"seat": s, "card": colours[colour], "drawn": colours[drawn]},
                    (s,),
                    ("card", "drawn"),
                ),
            )
        )
        self._end_turn()

    def _place(self, column: int) -> None:
        s = self.seat
        cell = column * self.c.levels
        self.baths[s].append(cell)
        self._emit("bathyscaphe_placed", seat=s, column=column + 1, level=1)
        self.to_place -= 1
        if self.to_place:
            self.seat = (s + 1) % self.n
        else:
            self.seat = self.first  # RULING SUB-3: placer 1 plays first
            self._start_turn()

    def _start_turn(self) -> None:
        self.turn += 1
        self.column = -1
        self.acting = -1
        self.placed = []
        self.acted = 0
        s = self.seat
        self.phase = P_SWAP if self.boat[s] == self.right else P_BOAT
        self._ev.append(Event("turn_started", {"seat": s, "turn": self.turn}))

    def _end_turn(self) -> None:
        s = self.seat
        short = self.hs - sum(self.hand[s])
        if short > 0 and self.pile[s]:
            self._draw(s, short)
        n = self.n
        right = self.right
        if self.boat.count(right) == n:  # RULING SUB-19: after the last one's turn
            self.boat = [LEFT] * n
            self._emit("boats_returned")
        # _start_turn, inlined: this runs every turn
        self.seat = s = (s + 1) % n
        self.turn = turn = self.turn + 1
        self.column = self.acting = -1
        self.placed = []
        self.acted = 0
        self.phase = P_SWAP if self.boat[s] == right else P_BOAT
        self._ev.append(_new_event(Event, ("turn_started", {"seat": s, "turn": turn}, (), ())))

    def _first_idle(self) -> int:
        """A bathyscaphe under the boat that has not acted this turn, or -1."""
        lv = self.lv
        lo = self.column * lv
        acted = self.acted
        hi = lo + lv
        for i, b in enumerate(self.baths[self.seat]):
            if lo <= b < hi and not acted >> i & 1:
                return i
        return -1

    def _idle_bathyscaphe(self, cell: int) -> int:
        acted = self.acted
        for i, b in enumerate(self.baths[self.seat]):
            if b == cell and not acted >> i & 1:
                return i
        return -1

    def _move(self, dest: int) -> None:
        s = self.seat
        lv = self.lv
        baths = self.baths[s]
        src = baths[self.moving]
        baths[self.moving] = dest
        self.moving = -1
        self.phase = P_ACT
        self._ev.append(
            _new_event(
                Event,
                (
                    "bathyscaphe_moved",
                    {
                        "seat": s,
                        "column": src // lv + 1,
                        "level": src % lv + 1,
                        "to_column": dest // lv + 1,
                        "to_level": dest % lv + 1,
                    },
                    (),
                    (),
                ),
            )
        )
        if self._first_idle() < 0:
            self._end_turn()

    def _collect(self, token: int, pay: int) -> None:
        s = self.seat
        c = self.c
        if (
            self.acting >= 0
            and token in self.cells[self.baths[s][self.acting]]
            and not rules.retakes_own_joker(token, pay, self.placed)
        ):
            cell = self.baths[s][self.acting]
            if token in self.placed:  # its own joker, back with a card: no longer lying there
                self.placed.remove(token)
        else:  # a new bathyscaphe acts (ending any other's collection; RULING SUB-15)
            cell = self.column * self.lv
            while token not in self.cells[cell]:
                cell += 1
            self.acting = self._idle_bathyscaphe(cell)
            self.acted |= 1 << self.acting
            self.placed = []
        tokens = self.cells[cell]
        tokens.remove(token)
        if pay >= 0:
            self.spare[s].remove(pay)
            # the joker stays on the board in the treasure's place, as what it is and
            # without toll (RULING SUB-13)
            tokens.append(pay)
            self.placed.append(pay)
            self._store(token, cell, self.names[pay], 0)
            return
        colour = token % self.ncol
        self.hand[s][colour] -= 1
        self.discard[colour] += 1
        self._ev.append(
            _new_event(Event, ("card_paid", {"seat": s, "card": c.colours[colour]}, (), ()))
        )
        owed = self.toll_seats(s, cell)  # RULING SUB-9: clockwise, pile first, then hand
        pile = self.pile[s]
        toll = len(owed)
        while owed and pile:
            self._receive(s, owed.pop(0), pile.pop(), "pile")
        if owed:
            self.owed = owed
            self.pend_token = token
            self.pend_cell = cell
            self.phase = P_GIVE
            return
        self._store(token, cell, "card", toll)

    def _give_from_hand(self, colour: int) -> None:
        s = self.seat
        self.hand[s][colour] -= 1
        self._receive(s, self.owed.pop(0), colour, "hand")
        if not self.owed:
            token, cell = self.pend_token, self.pend_cell
            self.pend_token = self.pend_cell = -1
            self.phase = P_ACT
            self._store(token, cell, "card", len(self.toll_seats(s, cell)))

    def _receive(self, giver: int, seat: int, colour: int, source: str) -> None:
        """``seat`` puts a toll card on top of its pile, then refills a short hand at once."""
        self.pile[seat].append(colour)
        # a card from the giver's pile is seen by nobody; one from the hand by the giver
        owners = (giver,) if source == "hand" else ()
        self._ev.append(
            _new_event(
                Event,
                (
                    "card_given",
                    {"seat": giver, "to": seat, "source": source, "card": self.c.colours[colour]},
                    owners,
                    ("card",),
                ),
            )
        )
        self._refill(seat)

    def _store(self, token: int, cell: int, paid: str, toll: int) -> None:
        s = self.seat
        c = self.c
        t = token // self.ncol
        lv = self.lv
        owned = self.owned[s]
        if rules.stores_on_board(owned, token, self.jt, self.ncol):
            owned[t] = token
            place = "board"
        else:
            insort(self.spare[s], token)
            place = "jokers"
        card = paid == "card"
        self._ev.append(
            _new_event(
                Event,
                (
                    "treasure_collected",
                    {
                        "seat": s,
                        "treasure": c.type_name(token),
                        "colour": c.colours[token % self.ncol],
                        "column": cell // lv + 1,
                        "level": cell % lv + 1,
                        "paid": "card" if card else "joker",
                        "joker": None if card else paid,
                        "toll": toll,
                        "stored": place,
                    },
                    (),
                    (),
                ),
            )
        )
        # RULING SUB-20/21/22: the game ends at once, mid-turn if need be
        treasure = token < self.jt
        reason = rules.end_after_collection(
            board_full=place == "board" and -1 not in owned,
            treasure_taken=treasure,
            column_left=(
                rules.column_treasures(self.cells, cell // lv, lv, self.jt) if treasure else -1
            ),
            paid_with_card=card,
            cards_left=sum(self.cards_held(r) for r in range(self.n)) if card else -1,
        )
        if reason == rules.COLUMN_EMPTIED:
            self._finish(reason, column=cell // lv + 1)
        elif reason is not None:
            self._finish(reason)

    # ------------------------------------------------------------------- end --
    def _scores(self) -> list[tuple[int, int, int]]:
        return [
            rules.score(self.owned[s], len(self.spare[s]), self.cards_held(s))
            for s in range(self.n)
        ]

    def _finish(self, reason: str, **params: Any) -> None:
        scores = self._scores()
        best = max(scores)
        self.result_reason = reason
        self.result_winners = [s for s in range(self.n) if scores[s] == best]
        self.ender = self.seat
        self.phase = P_OVER
        self._legal = []
        self._emit(
            "game_over",
            reason=reason,
            seat=self.seat,
            winners=list(self.result_winners),
            scores=[list(x) for x in scores],
            **params,
        )

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        if self.phase != P_OVER:
            return None
        scores = self._scores()
        return Outcome(
            self.result_reason,
            tuple(self.result_winners),
            {
                "ender": self.ender,
                "turns": self.turn,
                "scores": [
                    {"seat": s, "treasures": a, "jokers": b, "cards": k}
                    for s, (a, b, k) in enumerate(scores)
                ],
            },
        )

    # ------------------------------------------------------ illegal, explained --
    def why_illegal(self, action: SubAction) -> WhyIllegal:
        """Why ``action`` is not legal now: the phase first, then what its kind needs."""
        kind = action.kind
        phase = self.phase
        if phase not in _WANTED[kind]:
            return (
                "wrong_phase",
                f"{action.notation()!r} is not possible now: {_WAITING.get(phase, '')}",
                {"phase": PHASE_NAMES[phase]},
            )
        if kind == Kind.BOAT:
            return self._why_boat(action)
        if kind in (Kind.SWAP, Kind.GIVE):
            return self._why_card(action)
        if kind == Kind.MOVE:
            return self._why_move(action)
        if kind == Kind.TO:
            return self._why_to(action)
        if kind == Kind.DONE:
            return "not_available", "'done' is not available now", {}
        return self._why_collect(action)

    def _why_boat(self, a: SubAction) -> WhyIllegal:
        """Why the boat cannot stop over ``a.column``."""
        pos = self.boat[self.seat]
        if a.column <= pos:
            return (
                "boat_backwards",
                (f"the boat is over column {pos + 1} and only moves right"),
                {"boat": pos + 1, "column": a.column + 1},
            )
        return (
            "no_bathyscaphe",
            (
                f"the boat can stop over column {a.column + 1} only if "
                "one of your bathyscaphes is in it"
            ),
            {"column": a.column + 1},
        )

    def _why_card(self, a: SubAction) -> WhyIllegal:
        """Why the card of ``a.colour`` cannot be swapped or given."""
        colour = self.c.colours[a.colour]
        if a.kind == Kind.GIVE:
            return "no_card", f"you hold no {colour} card to give", {"colour": colour}
        if not self.hand[self.seat][a.colour]:
            return "no_card", f"you hold no {colour} card to swap", {"colour": colour}
        return "empty_pile", "your draw pile is empty: there is nothing to swap with", {}

    def _why_move(self, a: SubAction) -> WhyIllegal:
        """Why the bathyscaphe at ``a.level`` under the boat cannot move."""
        src = self.column * self.c.levels + a.level
        where = {"column": self.column + 1, "level": a.level + 1}
        if src not in self.baths[self.seat]:
            return (
                "no_bathyscaphe",
                (f"you have no bathyscaphe at level {a.level + 1} of column {self.column + 1}"),
                where,
            )
        if self._idle_bathyscaphe(src) < 0:
            return (
                "already_acted",
                (
                    f"your bathyscaphe at level {a.level + 1} of column "
                    f"{self.column + 1} has already acted this turn"
                ),
                where,
            )
        return "not_available", f"{a.notation()!r} is not available now", where

    def _why_to(self, a: SubAction) -> WhyIllegal:
        """Why the moving bathyscaphe cannot reach ``a``'s cell."""
        lv = self.c.levels
        src = self.baths[self.seat][self.moving]
        where = {"column": src // lv + 1, "level": src % lv + 1}
        if a.column * lv + a.level == src:
            return "same_cell", "a move must leave the bathyscaphe's cell", where
        return (
            "too_deep",
            (
                f"from level {src % lv + 1} a bathyscaphe can only reach levels "
                f"{max(1, src % lv)} to {min(lv, src % lv + 2)}"
            ),
            where,
        )

    def _why_collect(self, a: SubAction) -> WhyIllegal:
        """Why ``a.token`` cannot be collected: where it lies, then the payment."""
        c = self.c
        s = self.seat
        lv = c.levels
        token = a.token
        tname = c.token_name(token)
        cell = rules.cell_of(self.cells, self.column, lv, token) if self.column >= 0 else -1
        retake = False
        if self.acting >= 0 and cell == self.baths[s][self.acting]:
            # the collecting bathyscaphe may go on, not taking back its jokers with a joker
            # (RULING SUB-15) unless another idle bathyscaphe in the cell begins a collection
            retake = (
                rules.retakes_own_joker(token, a.pay, self.placed)
                and self._idle_bathyscaphe(cell) < 0
            )
        else:
            where = self._why_not_collecting_at(cell, tname)
            if where is not None:
                return where
        if a.pay >= 0:
            jname = c.token_name(a.pay)
            if retake and a.pay in self.spare[s]:
                return (
                    "just_put_down",
                    (
                        f"the {tname} was put down by this very collection: "
                        "it may be taken back with a card, not with a joker"
                    ),
                    {"token": tname},
                )
            return (
                "no_joker",
                f"you have no {jname} beside your board to pay with",
                {"joker": jname},
            )
        colour = c.colours[c.token_colour(token)]
        if not self.hand[s][c.token_colour(token)]:
            return (
                "no_card",
                (f"you hold no {colour} card to pay for the {colour} {c.type_name(token)}"),
                {"colour": colour, "token": tname},
            )
        toll = rules.toll_count(self.baths, s, cell, lv)
        have = self.cards_held(s) - 1
        return (
            "toll_unpayable",
            (
                f"taking the {tname} also costs {toll} toll card(s) and you "
                f"have only {have} other card(s) in pile and hand"
            ),
            {"toll": toll, "have": have},
        )

    def _why_not_collecting_at(self, cell: int, tname: str) -> WhyIllegal | None:
        """Why no bathyscaphe of the seat can begin a collection in ``cell`` (``-1``: the
        token is not under the boat), or ``None`` when one can."""
        if cell < 0:
            return (
                "not_here",
                (f"there is no {tname} under your boat (column {self.column + 1})"),
                {"token": tname},
            )
        if cell not in self.baths[self.seat]:
            return (
                "no_bathyscaphe",
                (f"you have no bathyscaphe in the cell holding {tname}"),
                {"token": tname, **self._cell_name(cell)},
            )
        if self._idle_bathyscaphe(cell) < 0:
            return (
                "already_acted",
                (f"your bathyscaphe beside {tname} has already acted this turn"),
                {"token": tname},
            )
        return None

    # ------------------------------------------------------------ copies etc. --
    def clone(self) -> SubmarineState:
        """An independent copy."""
        new = object.__new__(SubmarineState)
        new.game = self.game
        new.c = self.c
        new.n = self.n
        new.ix = self.ix
        new.right = self.right
        new.lv = self.lv
        new.hs = self.hs
        new.ncol = self.ncol
        new.jt = self.jt
        new.acts = self.acts
        new.names = self.names
        new.rng = self.rng.clone()
        new._ev = []
        new._legal = self._legal
        new.opening_events = self.opening_events
        for name in _NESTED:
            setattr(new, name, [x[:] for x in getattr(self, name)])
        for name in _FLAT:
            setattr(new, name, getattr(self, name)[:])
        for name in _SCALARS:
            setattr(new, name, getattr(self, name))
        return new

    def to_json(self) -> dict[str, Any]:
        """The whole state, secrets and generator included."""
        data: dict[str, Any] = {name: getattr(self, name) for name in _SCALARS}
        data["phase"] = int(self.phase)  # a plain number, as :meth:`from_json` reads it
        for name in _NESTED:
            data[name] = [list(x) for x in getattr(self, name)]
        for name in _FLAT:
            data[name] = list(getattr(self, name))
        data["rng"] = self.rng.state
        return data

    @classmethod
    def from_json(cls, game: Submarine, data: Mapping[str, Any]) -> SubmarineState:
        """Rebuild a state from :meth:`to_json` output.

        Raises ``ValueError`` naming the problem when the data is malformed or
        describes no reachable position (see :mod:`~subtable.games.submarine.validate`).
        """
        fields = validate.parse(data)
        state = cls(game, fields["seed"])
        for name in (*_SCALARS, *_NESTED, *_FLAT):
            setattr(state, name, fields[name])
        state.rng = Rng(fields["rng"])
        validate.check(state)
        state._legal = None
        return state

    # ------------------------------------------------------------------ views --
    def chance_fingerprint(self) -> str:
        """A digest of the generator's position (see :meth:`State.chance_fingerprint`)."""
        return self.rng.fingerprint()

    def observe(self, seat: int | None) -> SubmarineView:
        """What ``seat`` may know (``None``: a spectator); see :class:`SubmarineView`.

        Everything on the table is public; a seat sees its own hand; nobody sees
        the contents or order of any draw pile, nor the boxed cards' colours.
        """
        over = self.phase == P_OVER
        deciding = seat is not None and seat == self.seat and not over
        if self._legal is None and deciding:
            self._legal = self._compute_legal()
        return make_view(
            seat,
            self.game,
            self.n,
            self.phase,
            self.seat,
            self.first,
            self.turn,
            self.to_place,
            tuple(map(tuple, self.cells)),
            tuple(self.boat),
            tuple(map(tuple, self.baths)),
            tuple(map(tuple, self.owned)),
            tuple(map(tuple, self.spare)),
            tuple(tuple(h) if s == seat else None for s, h in enumerate(self.hand)),
            tuple(map(sum, self.hand)),
            tuple(map(len, self.pile)),
            tuple(self.discard),
            sum(self.box_cards),
            tuple(self.box_tokens),
            self.column,
            self.acted,
            self.acting,
            self.moving,
            tuple(self.placed),
            tuple(self.owed),
            self.pend_token,
            self.pend_cell,
            tuple(self._legal) if deciding and self._legal is not None else (),
            self.result_reason if over else None,
            tuple(self.result_winners) if over else (),
        )
