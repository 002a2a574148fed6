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
from collections.abc import Iterable, Mapping, Sequence
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
    def from_wire(cls, data: Mapping[str, Any], game: Submarine) -> SubmarineView:
        """The view whose JSON form (:meth:`to_json`) is ``data``, for a front end that got
        it over the wire; its JSON form equals ``data``.

        The wire carries every field (``legal`` for the deciding seat only, as
        :meth:`~subtable.games.submarine.state.SubmarineState.observe` fills it), so nothing
        is left at rest. Raises ``ValueError`` naming the problem when ``data`` is not such
        a view of ``game``: a key missing or of the wrong type, an id out of range, its two
        forms (names and engine) disagreeing, or a hand shown that its seat may not see.
        """
        try:
            view = cls._from_wire(data, game)
            again = view.to_json()
        except KeyError as exc:
            raise ValueError(f"not a Submarine view: no {exc.args[0]!r} in it") from exc
        except (ValueError, IndexError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a Submarine view: {exc}") from exc
        hidden = [s for s, h in enumerate(view.hands) if h is not None and s != view.seat]
        if hidden:
            raise ValueError(f"not a Submarine view: it shows the hand of seat {hidden[0]}")
        wrong = [key for key in (*again, *data) if again.get(key) != data.get(key)]
        if wrong:
            raise ValueError(f"not a Submarine view: its {wrong[0]!r} disagrees with the rest")
        return view

    @classmethod
    def _from_wire(cls, data: Mapping[str, Any], game: Submarine) -> SubmarineView:
        """The view's fields read from ``data`` (checked against it by :meth:`from_wire`)."""
        c = game.components
        if data["game"] != "submarine":
            raise ValueError(f"a view of {data['game']!r}")
        eng, players = data["engine"], data["players"]
        n = len(players)
        if n != game.num_seats:
            raise ValueError(f"{n} players in a {game.num_seats}-seat game")
        seat = None if data["seat"] is None else _int(data["seat"])
        if seat is not None and seat not in range(n):
            raise ValueError(f"no seat {seat!r}")
        tokens = _Ids("token", game.token_names)
        colours = _Ids("colour", c.colours)
        outcome = data["outcome"]
        return cls(
            seat=seat,
            game=game,
            players=n,
            phase=_phase(eng["phase"]),
            active=_int(eng["active"]),
            first=_int(data["first"]),
            turn=_int(data["turn"]),
            to_place=_int(eng["to_place"]),
            cells=tuple(tokens.ids(x) for x in eng["cells"]),
            boats=_ints(eng["boats"]),
            bathyscaphes=tuple(_ints(x) for x in eng["bathyscaphes"]),
            treasures=tuple(_ints(x) for x in eng["treasures"]),
            jokers=tuple(tokens.named(p["jokers"]) for p in players),
            hands=tuple(None if p["hand"] is None else colours.counts(p["hand"]) for p in players),
            hand_sizes=tuple(_int(p["hand_size"]) for p in players),
            pile_sizes=tuple(_int(p["pile_size"]) for p in players),
            discard=colours.counts(data["discard"]),
            boxed_cards=_int(data["box_cards"]),
            boxed_jokers=tokens.named(data["box_jokers"]),
            column=_int(eng["column"]),
            acted=_int(eng["acted"]),
            acting=_int(eng["acting"]),
            moving=_int(eng["moving"]),
            placed=tokens.ids(eng["placed"]),
            owed=_ints(eng["owed"]),
            pending_token=_int(eng["pending_token"]),
            pending_cell=_int(eng["pending_cell"]),
            legal=tuple(game.parse_action(t).id for t in data.get("legal", ())),
            end_reason=None if outcome is None else str(outcome["reason"]),
            winners=() if outcome is None else _ints(outcome["winners"]),
        )


def _int(value: object) -> int:
    """``value``, which the wire gives as a whole number."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{value!r} where a whole number belongs")
    return value


def _phase(value: object) -> Phase:
    """The decision ``value`` numbers."""
    number = _int(value)
    if number not in range(len(Phase)):
        raise ValueError(f"no phase {number}")
    return Phase(number)


def _ints(values: Iterable[object]) -> tuple[int, ...]:
    """``values``, whole numbers."""
    return tuple(_int(x) for x in values)


class _Ids:
    """The ids of one family of names (the tokens, the colours), read from the wire."""

    def __init__(self, family: str, names: Sequence[str]) -> None:
        self.family = family
        self.names = names
        self.by_name = {name: i for i, name in enumerate(names)}

    def ids(self, values: Iterable[object]) -> tuple[int, ...]:
        """Ids given as numbers, each checked in range."""
        out = _ints(values)
        for i in out:
            if i not in range(len(self.names)):
                raise ValueError(f"no {self.family} {i}")
        return out

    def named(self, names: Iterable[object]) -> tuple[int, ...]:
        """Ids given by name, in the order given."""
        out = []
        for name in names:
            i = self.by_name.get(name) if isinstance(name, str) else None
            if i is None:
                raise ValueError(f"no {self.family} {name!r}")
            out.append(i)
        return tuple(out)

    def counts(self, counts: Mapping[str, object]) -> tuple[int, ...]:
        """How many of each id, given by name (``{"red": 2}``)."""
        out = [0] * len(self.names)
        for i, k in zip(self.named(counts), counts.values(), strict=True):
            out[i] = _int(k)
        return tuple(out)


#: ``SubmarineView(*values)`` in field order, faster (for ``observe``)
make_view = slot_filler(SubmarineView)
