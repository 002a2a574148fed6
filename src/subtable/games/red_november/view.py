# STATUS: ready  (field names are final; bots may port onto them)
"""What one seat of Red November may know: :class:`RedNovemberView`.

:meth:`RedNovemberState.observe <subtable.games.red_november.state.RedNovemberState.observe>`
builds one. It holds everything public a player knows — the board, every gnome's
room, Time Keeper and intoxication, the piles that lie face up, the sizes of the
face-down decks, the decision under way and this turn's flags — plus the engine
bookkeeping (:class:`Bookkeeping`) that is public too, being derivable from what
happened at the table, and that :meth:`RedNovember.determinize` needs to rebuild
an exact state. It never holds the seed, the generator, the order of either
deck, another gnome's hand under Crazed Gnomes, or the action history (under
Crazed Gnomes the history would tell what was given in trades).

Indexing conventions (the engine's):

* spaces: ``0`` unused, ``1``–``10`` the rooms, ``11`` the Sea (``SEA``);
* gnomes (seats): ``0`` … ``n-1``;
* hatches: indices into ``Components.hatches``;
* disaster tracks and Destruction tokens: indices into ``Components.tracks`` /
  ``Components.tokens``;
* event cards and item kinds: indices into ``Components.events`` / ``Components.items``;
* fix kinds: indices into ``components.FIX_KINDS``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from subtable.core.view import SeatView, slot_filler
from subtable.games.red_november.components import FIX_KINDS, SEA
from subtable.games.red_november.wire import (
    GnomeJSON,
    PendingJSON,
    RedNovemberViewJSON,
    ThisTurnJSON,
)

if TYPE_CHECKING:
    from subtable.games.red_november.game import RedNovember


class Phase(enum.IntEnum):
    """The decision a position waits for (the state's ``phase``)."""

    #: the active gnome moves, uses items, then takes one action
    MOVE = 0
    #: the extra move out of a burning room after a failed Extinguish Fire
    EXTRA_MOVE = 1
    #: the active gnome gives items to his trade partner
    TRADE_GIVE = 2
    #: the partner gives items back
    TRADE_BACK = 3
    #: Crazed Gnomes: the attacked gnome may play a Crowbar
    DEFEND = 4
    #: after the action: Coffee or a Lucky Charm before the Faint Check
    AFTER_ACTION = 5
    #: an event needs a choice (Fire Spreads, Blocked Hatch, discards)
    EVENT_CHOICE = 6
    #: the game is over
    OVER = 7


#: the wire names of the phases (``view()["pending"]["phase"]``), by :class:`Phase`
PHASE_NAMES: tuple[str, ...] = (
    "movement",
    "extra_move",
    "trade_give",
    "trade_back",
    "defend",
    "after_action",
    "event_choice",
    "over",
)


class Choice(enum.IntEnum):
    """Which choice an event asks for in :attr:`Phase.EVENT_CHOICE`."""

    NONE = 0
    #: Fire Spreads: a room next to a fire
    SPREAD = 1
    #: Blocked Hatch: an open hatch of the rolled room (``choice_room``)
    BLOCK = 2
    #: a hand limit: discard one item
    DISCARD = 3


#: the wire names of the choices (``view()["pending"]["choice"]``)
CHOICE_NAMES: dict[Choice, str] = {
    Choice.SPREAD: "fire_spreads",
    Choice.BLOCK: "blocked_hatch",
    Choice.DISCARD: "discard",
}


#: the phases whose decision names another gnome (:attr:`RedNovemberView.partner`)
PARTNER_PHASES = (Phase.TRADE_GIVE, Phase.TRADE_BACK, Phase.DEFEND)


@dataclass(frozen=True, slots=True)
class ThisTurn:
    """What the active gnome's items (and his start) did for the current turn."""

    #: Grog drunk this turn (any Grog means a Faint Check after the action)
    grog: int
    #: may enter a burning room (Grog or a Fire Extinguisher used)
    fire_ok: bool
    #: may leave the sub (an Aqualung used)
    aqualung: bool
    #: bonus to each fix-it roll, by ``FIX_KINDS`` index (from items used)
    bonus: tuple[int, ...]
    #: events still to ignore (Lucky Charms used)
    lucky: int
    #: a Crowbar was used (Crazed Gnomes: the gnome may attack)
    crowbar: bool
    #: the gnome began the turn in the Sea (he drowns if he ends it there)
    outside: bool
    #: the gnome entered a burning room this turn (heroic sacrifice house rule)
    entered_fire: bool
    #: Less Deadly Dying: the active gnome is a replacement placed this turn
    fresh: bool


@dataclass(frozen=True, slots=True)
class Bookkeeping:
    """Where the engine's automatic machine stands: public, derivable from the history.

    Nothing here is secret: each value follows from the actions taken and the
    events shown. Bots may ignore it; :meth:`RedNovember.determinize` copies it
    so that a sampled state continues exactly like the true one would.
    """

    #: the automatic stage to run (private to the engine; ``0`` while waiting for a decision)
    stage: int
    #: the stage to go back to once an event choice is made
    resume: int
    #: the next stacking number a keeper gets on arrival (see ``RedNovemberView.stack``)
    seq_next: int
    #: the Time Keeper just moved onto an event icon not resolved yet
    pend_event: bool
    #: the Time Keeper just moved onto an item icon not resolved yet
    pend_item: bool
    #: hand limits still to enforce: (gnome, most cards kept), the first one under way
    discards: tuple[tuple[int, int], ...]
    #: Greater Challenge 2: events still to resolve before the first turn
    pregame_left: int
    #: once over, why (``""`` before)
    result_reason: str
    #: once over, the winning gnomes
    result_winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GnomeView:
    """One gnome as a seat sees him (built on demand by :attr:`RedNovemberView.gnomes`)."""

    seat: int
    #: the space he is in (1-10, 11 the Sea; 0 once dead)
    room: int
    alive: bool
    #: swum away (Abandon Comrades)
    abandoned: bool
    fainted: bool
    #: 0 (sober) to 4
    intoxication: int
    #: his Time Keeper's space (``-1`` once gone)
    keeper: int
    #: stacking order on the keeper's space: higher arrived later, so lies on top
    stack: int
    #: the room where he drew items and may not draw again until he acts elsewhere (0: none)
    red_room: int
    #: cards per item index, or ``None`` when hidden from this seat (Crazed Gnomes)
    hand: tuple[int, ...] | None
    #: how many item cards he holds (always public)
    hand_size: int

    @property
    def on_board(self) -> bool:
        """Alive and aboard (not swum away)."""
        return self.alive and not self.abandoned


@dataclass(frozen=True, slots=True)
class RedNovemberView(SeatView):
    """Everything public about a Red November position, for one seat.

    Per-space, per-gnome and per-hatch data are tuples indexed as the module
    docstring says; per-gnome data are parallel tuples (``room[g]``,
    ``keeper[g]``…), and :attr:`gnomes` gives them gnome by gnome.
    """

    #: the seat this view is for (``None``: a spectator)
    seat: int | None
    #: the turn number (0 before the first turn)
    turn: int
    #: the decision waited for
    phase: Phase
    #: the seat that decides now (``-1`` once over)
    decider: int
    #: the gnome whose turn it is (``-1`` before the first turn)
    active: int
    #: the Ghost Time Keeper's space: the active gnome's minutes left this turn
    ghost: int
    #: in :attr:`Phase.EVENT_CHOICE`, what is chosen (else :attr:`Choice.NONE`)
    choice: Choice
    #: for :attr:`Choice.BLOCK`, the rolled room whose hatch is blocked
    choice_room: int
    #: the trade partner or the attacked gnome (``-1`` when none)
    partner: int
    #: per space 0..11: a fire burns there
    fire: tuple[bool, ...]
    #: per space 0..11: 0 dry, 1 low water, 2 high water
    water: tuple[int, ...]
    #: per hatch: a Blocked Hatch token lies on it
    blocked: tuple[bool, ...]
    #: per disaster track: its marker's level
    track: tuple[int, ...]
    #: per Destruction token: its time-track space (``-1``: not placed)
    token: tuple[int, ...]
    #: per gnome: his space (1-10, 11 the Sea; 0 once dead)
    room: tuple[int, ...]
    #: per gnome: his Time Keeper's space (``-1`` once gone)
    keeper: tuple[int, ...]
    #: per gnome: stacking order on his keeper's space (higher lies on top, acts first)
    stack: tuple[int, ...]
    #: per gnome: alive
    alive: tuple[bool, ...]
    #: per gnome: swum away (Abandon Comrades)
    abandoned: tuple[bool, ...]
    #: per gnome: fainted (lying down until his next turn)
    fainted: tuple[bool, ...]
    #: per gnome: intoxication 0..4
    intoxication: tuple[int, ...]
    #: per gnome: the room where he drew items and may not draw again yet (0: none)
    red_room: tuple[int, ...]
    #: per gnome: cards per item index, ``None`` when hidden from this seat (Crazed Gnomes)
    hands: tuple[tuple[int, ...] | None, ...]
    #: per gnome: how many item cards he holds
    hand_size: tuple[int, ...]
    #: Grog cards left in the Captain's Cabin stash
    stash: int
    #: event cards in the face-down deck (their order is secret)
    event_deck_size: int
    #: the event discard pile, bottom first
    event_discard: tuple[int, ...]
    #: event cards out of the game (Greater Challenge: Respites)
    event_removed: tuple[int, ...]
    #: event cards set aside (the Kraken until the first reshuffle)
    event_aside: tuple[int, ...]
    #: item cards in the face-down deck (their order is secret)
    item_deck_size: int
    #: the item discard pile, bottom first
    item_discard: tuple[int, ...]
    #: this turn's item effects
    this_turn: ThisTurn
    #: the engine's public bookkeeping (for exact rebuilding)
    book: Bookkeeping
    #: the legal action ids, for the deciding seat only (empty for anyone else)
    legal: tuple[int, ...]
    #: the game (rules, options, components); not part of the value
    game: RedNovember = field(compare=False, repr=False)

    # -- conveniences ----------------------------------------------------------
    @property
    def num_gnomes(self) -> int:
        """How many gnomes (seats) the game has."""
        return len(self.room)

    def on_board(self, g: int) -> bool:
        """Whether gnome ``g`` is alive and aboard (not swum away)."""
        return self.alive[g] and not self.abandoned[g]

    def aboard_room(self, g: int) -> int | None:
        """Gnome ``g``'s space while he is aboard, else ``None``."""
        return self.room[g] if self.alive[g] and not self.abandoned[g] else None

    def hand_by_kind(self, g: int) -> dict[str, int] | None:
        """Gnome ``g``'s cards counted by item kind, in item order (``None``: hidden)."""
        hand = self.hands[g]
        if hand is None:
            return None
        items = self.game.components.items
        return {items[i].kind: k for i, k in enumerate(hand) if k}

    @property
    def named_partner(self) -> int:
        """The other gnome the decision names: the trade partner or the attacked gnome
        (``-1`` outside a trade or an attack)."""
        return self.partner if self.phase in PARTNER_PHASES else -1

    @property
    def discard_limit(self) -> int | None:
        """The hand limit of the discard under way (``None`` when no discard is)."""
        if self.phase == Phase.EVENT_CHOICE and self.choice == Choice.DISCARD:
            return self.book.discards[0][1] if self.book.discards else None
        return None

    @property
    def gnomes(self) -> tuple[GnomeView, ...]:
        """The per-gnome tuples, gnome by gnome."""
        return tuple(
            GnomeView(
                g,
                self.room[g],
                self.alive[g],
                self.abandoned[g],
                self.fainted[g],
                self.intoxication[g],
                self.keeper[g],
                self.stack[g],
                self.red_room[g],
                self.hands[g],
                self.hand_size[g],
            )
            for g in range(len(self.room))
        )

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase == Phase.OVER

    # -- wire form -------------------------------------------------------------
    @classmethod
    def from_wire(cls, data: Mapping[str, Any], game: RedNovember) -> RedNovemberView:
        """The view of ``game`` whose JSON form (:meth:`to_json`) is ``data``, for a front
        end that received it over the wire; raises ``ValueError`` naming the first field
        that is missing, of the wrong type, out of range or at odds with another.

        Everything the wire carries is read back, so ``from_wire(v.to_json(), game)``
        has the JSON form of ``v``. What it does not carry is left at rest: the space of
        a gnome off the board (the Sea once he swam away, 0 once dead), ``red_room``
        outside the red area (0), ``choice_room`` and ``partner`` outside the decisions
        that name them, ``decider`` once over (-1), the Ghost Time Keeper between turns
        (0), which of two event cards of the same face lies where, and the engine's
        :class:`Bookkeeping` (no stage, nothing pending, no pregame; ``seq_next`` one
        above the highest stacking number) but for what the wire tells: the hand limit
        of a discard under way (owed by the deciding gnome) and the outcome. Such a view
        is read by front ends; it is not one to determinize from. (The reading is
        :func:`~subtable.games.red_november.view_reader.read_view`'s, through the game.)
        """
        return game.view_from_json(data)

    def to_json(self) -> dict[str, Any]:
        """The JSON form the tables render and a server sends (:meth:`wire`'s keys)."""
        return dict(self.wire())

    def wire(self) -> RedNovemberViewJSON:
        """The JSON form, its keys and their types declared."""
        game = self.game
        c = game.components
        book = self.book
        out: RedNovemberViewJSON = {
            "game": "red-november",
            "seat": self.seat,
            "turn": self.turn,
            "active": self.active,
            "ghost": self.ghost if self.active >= 0 else None,
            "pending": self._pending_json(),
            "rooms": [
                {"room": r, "fire": self.fire[r], "water": self.water[r]} for r in range(1, SEA)
            ],
            "blocked": [list(c.hatches[h]) for h, b in enumerate(self.blocked) if b],
            "tracks": dict(zip(c.tracks, self.track, strict=True)),
            "tokens": {
                name: (pos if pos >= 0 else None)
                for name, pos in zip(c.tokens, self.token, strict=True)
            },
            "gnomes": [self._gnome_json(g) for g in range(len(self.room))],
            "event_deck": self.event_deck_size,
            "event_discard": [[c.events[i].kind, c.events[i].faint] for i in self.event_discard],
            "event_removed": [[c.events[i].kind, c.events[i].faint] for i in self.event_removed],
            "kraken_set_aside": bool(self.event_aside),
            "item_deck": self.item_deck_size,
            "item_discard": self._item_discard_json(),
            "grog_stash": self.stash,
            "this_turn": self._this_turn_json(),
            "options": dict(game.options),
            "outcome": (
                {"reason": book.result_reason, "winners": list(book.result_winners)}
                if self.phase == Phase.OVER
                else None
            ),
        }
        if self.legal:
            space = game.action_space
            out["legal"] = [space[i].notation() for i in self.legal]
        return out

    def _gnome_json(self, g: int) -> GnomeJSON:
        """Seat ``g``'s gnome: where he is, his condition, and his hand if this seat sees it."""
        on = self.alive[g] and not self.abandoned[g]
        return {
            "seat": g,
            "room": self.room[g] if on else None,
            "alive": self.alive[g],
            "abandoned": self.abandoned[g],
            "fainted": self.fainted[g],
            "intoxication": self.intoxication[g],
            "keeper": self.keeper[g] if self.keeper[g] >= 0 else None,
            "stack": self.stack[g],
            "red_area": self.red_room[g] == self.room[g] != 0,
            "hand": self.hand_by_kind(g),
            "hand_size": self.hand_size[g],
        }

    def _item_discard_json(self) -> dict[str, int]:
        """The item discard pile, counted by kind."""
        items = self.game.components.items
        item_discard: dict[str, int] = {}
        for i in self.item_discard:
            kind = items[i].kind
            item_discard[kind] = item_discard.get(kind, 0) + 1
        return item_discard

    def _pending_json(self) -> PendingJSON:
        """The decision awaited: the phase, the seat, and what the phase names."""
        pending: PendingJSON = {
            "phase": PHASE_NAMES[self.phase],
            "seat": None if self.phase == Phase.OVER else self.decider,
        }
        if self.phase in PARTNER_PHASES:
            pending["partner"] = self.partner
        if self.phase == Phase.EVENT_CHOICE and self.choice != Choice.NONE:
            pending["choice"] = CHOICE_NAMES[self.choice]
            if self.choice == Choice.BLOCK:
                pending["room"] = self.choice_room
            limit = self.discard_limit
            if limit is not None:
                pending["limit"] = limit
        return pending

    def _this_turn_json(self) -> ThisTurnJSON:
        """What the active gnome has used or done this turn."""
        t = self.this_turn
        return {
            "grog": t.grog,
            "enter_fire": t.fire_ok,
            "aqualung": t.aqualung,
            "lucky": t.lucky,
            "crowbar": t.crowbar,
            "started_outside": t.outside,
            "entered_fire": t.entered_fire,
            "fresh": t.fresh,
            "bonus": dict(zip(FIX_KINDS, t.bonus, strict=True)),
        }


#: ``RedNovemberView(*values)``, ``ThisTurn(*values)`` and ``Bookkeeping(*values)`` in field
#: order, faster (for ``observe``)
make_view = slot_filler(RedNovemberView)
make_this_turn = slot_filler(ThisTurn)
make_bookkeeping = slot_filler(Bookkeeping)
