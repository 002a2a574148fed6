"""What one Submarine seat may know: :class:`SubmarineView`, and the decisions (:class:`Phase`).

Everything on the table is public: the sea, the boats, the bathyscaphes, each
captain's treasures and jokers, the discard, how many cards each hand and each
draw pile holds, how many cards went back to the box, and the bookkeeping of
the turn under way (which bathyscaphes acted, which is collecting or moving,
the jokers just put down, the toll still owed and to whom). A seat also sees
its own hand. Nobody sees the seed, the generator, the contents or order of
any draw pile (one's own included: toll cards arrive face down), the colours
of the boxed cards, another seat's hand, or the history.

Ids are the engine's: tokens ``type * colours + colour`` (shells last), cells
``column * levels + level`` (0-based), boats ``-1`` (:data:`LEFT`) off the left
edge, a column, or ``columns`` off the right edge. Bathyscaphes are listed per
seat in the engine's order, so that ``acted``, ``acting`` and ``moving`` can
index them.
"""

# STATUS: ready

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from subtable.core.view import SeatView, slot_filler
from subtable.games.submarine.wire import EngineJSON, PendingJSON, PlayerJSON, SubmarineViewJSON

if TYPE_CHECKING:
    from subtable.games.submarine.game import Submarine

#: a boat off the left edge of the board (besides the columns ``0..columns-1``
#: and ``columns``, off the right edge)
LEFT = -1


class Phase(enum.IntEnum):
    """The decision a position waits for (the numbers are those of saved states)."""

    #: setup: place one bathyscaphe on level 1
    PLACE = 0
    #: move the boat (or take it off the right edge)
    BOAT = 1
    #: the bathyscaphes under the boat act: move, collect or done
    ACT = 2
    #: pay the rest of a toll from the hand
    GIVE = 3
    #: the boat is off the right edge: swap a card or not
    SWAP = 4
    #: the destination of the bathyscaphe being moved
    TO = 5
    #: the game is over
    OVER = 6

    @property
    def label(self) -> str:
        """The phase's name in views and messages (``"bathyscaphes"`` for :attr:`ACT`)."""
        return PHASE_NAMES[self]


#: each phase's name, by number
PHASE_NAMES: tuple[str, ...] = (
    "placement",
    "boat",
    "bathyscaphes",
    "toll",
    "swap",
    "destination",
    "over",
)


@dataclass(frozen=True, slots=True)
class SubmarineView(SeatView):
    """One seat's knowledge of a Submarine position (see the module docstring).

    Per-seat tuples are indexed by seat. Build it with
    :meth:`SubmarineState.observe <subtable.games.submarine.state.SubmarineState.observe>`.
    """

    #: the seat looking (``None``: a spectator)
    seat: int | None
    #: the game (its components, action table and options); not part of equality
    game: Submarine = field(compare=False, repr=False)
    #: how many captains play
    players: int
    #: the decision waited for
    phase: Phase
    #: the turn player, who takes every decision; once the game is over, the seat
    #: whose action ended it (see :attr:`current_seat`)
    active: int
    #: the player who placed first and played the first turn
    first: int
    #: turns started so far (0 during placement)
    turn: int
    #: bathyscaphes still to place (``Phase.PLACE``)
    to_place: int
    #: the tokens in each cell, by cell
    cells: tuple[tuple[int, ...], ...]
    #: each seat's boat position (:data:`LEFT`, a column, or ``columns``)
    boats: tuple[int, ...]
    #: each seat's bathyscaphes, as cells, in the engine's order
    bathyscaphes: tuple[tuple[int, ...], ...]
    #: each seat's individual board: by treasure type, the token stored there or -1
    treasures: tuple[tuple[int, ...], ...]
    #: each seat's tokens beside its board, usable as jokers (sorted)
    jokers: tuple[tuple[int, ...], ...]
    #: each seat's hand as card counts by colour; ``None`` where hidden from this seat
    hands: tuple[tuple[int, ...] | None, ...]
    #: how many cards each seat holds in hand
    hand_sizes: tuple[int, ...]
    #: how many cards each seat's draw pile holds
    pile_sizes: tuple[int, ...]
    #: the discarded search cards, counts by colour
    discard: tuple[int, ...]
    #: how many search cards went back to the box at setup (their colours are hidden)
    boxed_cards: int
    #: the shell jokers nobody received at setup (sorted)
    boxed_jokers: tuple[int, ...]
    #: the column the boat stopped over this turn, or -1
    column: int
    #: bit ``i`` set: the turn player's bathyscaphe ``i`` has acted this turn
    acted: int
    #: the turn player's bathyscaphe (index) whose collection goes on, or -1
    acting: int
    #: the turn player's bathyscaphe (index) awaiting its destination (``Phase.TO``), or -1
    moving: int
    #: the jokers the current collection put down in its cell (RULING SUB-15)
    placed: tuple[int, ...]
    #: the seats still owed a toll card from the hand, in paying order (``Phase.GIVE``)
    owed: tuple[int, ...]
    #: the token whose collection waits for the toll (``Phase.GIVE``), or -1
    pending_token: int
    #: the cell that token came from (``Phase.GIVE``), or -1
    pending_cell: int
    #: the legal action ids, for the deciding seat only (else empty)
    legal: tuple[int, ...]
    #: why the game ended (an end reason), or ``None`` while it goes on
    end_reason: str | None
    #: the winning seats once the game is over (else empty)
    winners: tuple[int, ...]

    # ------------------------------------------------------------- helpers --
    @property
    def current_seat(self) -> int | None:
        """The seat that decides now (``None`` once the game is over)."""
        return None if self.phase == Phase.OVER else self.active

    def idle(self) -> tuple[int, ...]:
        """Indices of the turn player's bathyscaphes under the boat that have not acted."""
        if self.column < 0:
            return ()
        lv = self.game.components.levels
        acted = self.acted
        return tuple(
            i
            for i, b in enumerate(self.bathyscaphes[self.active])
            if b // lv == self.column and not acted >> i & 1
        )

    def acting_cell(self) -> int:
        """The cell of the collecting bathyscaphe, or -1."""
        return self.bathyscaphes[self.active][self.acting] if self.acting >= 0 else -1

    def moving_cell(self) -> int:
        """The cell of the bathyscaphe being moved, or -1."""
        return self.bathyscaphes[self.active][self.moving] if self.moving >= 0 else -1

    def cards_held(self, seat: int) -> int:
        """Search cards in ``seat``'s hand and pile (public counts)."""
        return self.hand_sizes[seat] + self.pile_sizes[seat]

    # ---------------------------------------------------------------- wire --
    def to_json(self) -> dict[str, Any]:
        """The view as the tables render it (:meth:`wire`'s keys)."""
        return dict(self.wire())

    def wire(self) -> SubmarineViewJSON:
        """The view as the tables render it (names, 1-based columns and levels).

        ``legal`` (notations) is present for the deciding seat only; the
        ``engine`` key repeats the view's fields in engine form (ids, 0-based).
        """
        game = self.game
        c = game.components
        lv = c.levels
        names = game.token_names
        colours = c.colours
        view: SubmarineViewJSON = {
            "game": "submarine",
            "seat": self.seat,
            "turn": self.turn,
            "first": self.first,
            "pending": self._pending_json(),
            "cells": [
                [[names[t] for t in sorted(self.cells[col * lv + x])] for x in range(lv)]
                for col in range(c.columns)
            ],
            "players": [self._player_json(s) for s in range(self.players)],
            "discard": {colours[col]: k for col, k in enumerate(self.discard) if k},
            "box_cards": self.boxed_cards,
            "box_jokers": [names[t] for t in self.boxed_jokers],
            "options": dict(game.options),
            "outcome": (
                None
                if self.end_reason is None
                else {"reason": self.end_reason, "winners": list(self.winners)}
            ),
            "engine": self._engine_json(),
        }
        if self.legal and self.seat is not None and self.seat == self.current_seat:
            acts = game.actions
            view["legal"] = [acts[a].notation() for a in self.legal]
        return view

    def _player_json(self, s: int) -> PlayerJSON:
        """Seat ``s``'s captain: boat, bathyscaphes, treasures, jokers, cards."""
        c = self.game.components
        lv = c.levels
        names = self.game.token_names
        pos = self.boats[s]
        hand = self.hands[s]
        return {
            "seat": s,
            "boat": "left" if pos == LEFT else "right" if pos == c.columns else pos + 1,
            "bathyscaphes": sorted([b // lv + 1, b % lv + 1] for b in self.bathyscaphes[s]),
            "treasures": [names[t] for t in self.treasures[s] if t >= 0],
            "jokers": [names[t] for t in self.jokers[s]],
            "hand": (
                None if hand is None else {c.colours[col]: k for col, k in enumerate(hand) if k}
            ),
            "hand_size": self.hand_sizes[s],
            "pile_size": self.pile_sizes[s],
        }

    def _pending_json(self) -> PendingJSON:
        """The decision awaited: the phase, the seat, and the turn's column, bathyscaphes
        and toll."""
        lv = self.game.components.levels
        names = self.game.token_names
        phase = self.phase
        pending: PendingJSON = {"phase": phase.label, "seat": self.current_seat}
        if phase in (Phase.ACT, Phase.GIVE, Phase.TO):
            pending["column"] = self.column + 1
            mine = self.bathyscaphes[self.active]
            pending["idle"] = sorted(mine[i] % lv + 1 for i in self.idle())
            if self.acting >= 0:
                pending["collecting_level"] = mine[self.acting] % lv + 1
                pending["placed"] = [names[t] for t in self.placed]
            if self.moving >= 0:
                pending["moving"] = [mine[self.moving] // lv + 1, mine[self.moving] % lv + 1]
        if phase == Phase.GIVE:
            pending["toll_left"] = len(self.owed)
            pending["owed"] = list(self.owed)
            pending["treasure"] = names[self.pending_token]
        return pending

    def _engine_json(self) -> EngineJSON:
        """The view's fields in engine form (ids, 0-based)."""
        return {
            "phase": int(self.phase),
            "active": self.active,
            "to_place": self.to_place,
            "cells": [list(x) for x in self.cells],
            "boats": list(self.boats),
            "bathyscaphes": [list(x) for x in self.bathyscaphes],
            "treasures": [list(x) for x in self.treasures],
            "column": self.column,
            "acted": self.acted,
            "acting": self.acting,
            "moving": self.moving,
            "placed": list(self.placed),
            "owed": list(self.owed),
            "pending_token": self.pending_token,
            "pending_cell": self.pending_cell,
        }

    @classmethod
    def from_json(cls, game: Submarine, data: Mapping[str, Any]) -> SubmarineView:
        """The view back from :meth:`to_json` output (raises ``ValueError`` on bad data)."""
        try:
            return cls._from_json(game, data)
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a Submarine view: {exc!r}") from exc

    @classmethod
    def _from_json(cls, game: Submarine, data: Mapping[str, Any]) -> SubmarineView:
        c = game.components
        ids = {name: i for i, name in enumerate(game.token_names)}
        colour = {name: i for i, name in enumerate(c.colours)}
        eng = data["engine"]
        players = data["players"]
        n = len(players)

        def counts(m: Mapping[str, int]) -> tuple[int, ...]:
            out = [0] * len(c.colours)
            for name, k in m.items():
                out[colour[name]] = int(k)
            return tuple(out)

        def ints(xs: Any) -> tuple[int, ...]:
            return tuple(int(x) for x in xs)

        outcome = data["outcome"]
        legal = tuple(game.parse_action(t).id for t in data.get("legal", ()))
        return cls(
            seat=data["seat"],
            game=game,
            players=n,
            phase=Phase(int(eng["phase"])),
            active=int(eng["active"]),
            first=int(data["first"]),
            turn=int(data["turn"]),
            to_place=int(eng["to_place"]),
            cells=tuple(ints(x) for x in eng["cells"]),
            boats=ints(eng["boats"]),
            bathyscaphes=tuple(ints(x) for x in eng["bathyscaphes"]),
            treasures=tuple(ints(x) for x in eng["treasures"]),
            jokers=tuple(tuple(sorted(ids[t] for t in p["jokers"])) for p in players),
            hands=tuple(None if p["hand"] is None else counts(p["hand"]) for p in players),
            hand_sizes=tuple(int(p["hand_size"]) for p in players),
            pile_sizes=tuple(int(p["pile_size"]) for p in players),
            discard=counts(data["discard"]),
            boxed_cards=int(data["box_cards"]),
            boxed_jokers=tuple(sorted(ids[t] for t in data["box_jokers"])),
            column=int(eng["column"]),
            acted=int(eng["acted"]),
            acting=int(eng["acting"]),
            moving=int(eng["moving"]),
            placed=ints(eng["placed"]),
            owed=ints(eng["owed"]),
            pending_token=int(eng["pending_token"]),
            pending_cell=int(eng["pending_cell"]),
            legal=legal,
            end_reason=None if outcome is None else str(outcome["reason"]),
            winners=() if outcome is None else ints(outcome["winners"]),
        )


#: ``SubmarineView(*values)`` in field order, faster (for ``observe``)
make_view = slot_filler(SubmarineView)
