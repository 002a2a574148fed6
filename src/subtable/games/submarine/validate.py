"""Checks that saved Submarine data describes a position the rules can reach.

:meth:`SubmarineState.from_json <subtable.games.submarine.state.SubmarineState.from_json>`
runs :func:`parse` (shapes and types) and then :func:`check` (consistency with
the components and the rules), so that bad data fails at once with a
``ValueError`` naming the problem, never later with an ``IndexError``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from subtable.games.submarine.rules import END_REASONS
from subtable.games.submarine.view import LEFT, Phase

if TYPE_CHECKING:
    from subtable.games.submarine.game import Submarine
    from subtable.games.submarine.state import SubmarineState

#: per-seat lists of lists, flat lists, and scalars of a saved state
NESTED = ("cells", "owned", "spare", "hand", "pile", "baths")
FLAT = ("boat", "discard", "box_cards", "box_tokens", "owed", "placed", "result_winners", "history")
SCALARS = (
    "seed",
    "phase",
    "seat",
    "first",
    "turn",
    "to_place",
    "column",
    "acting",
    "moving",
    "acted",
    "pend_token",
    "pend_cell",
    "ender",
    "result_reason",
)


def _int(name: str, x: Any) -> int:
    if type(x) is not int:
        raise ValueError(f"state field {name!r} must hold integers, not {x!r}")
    return x


def _ints(name: str, xs: Any) -> list[int]:
    if not isinstance(xs, list):
        raise ValueError(f"state field {name!r} must be a list")
    return [_int(name, x) for x in xs]


def parse(data: Any) -> dict[str, Any]:
    """The fields of saved data, typed: ints, lists of ints, lists of lists of ints."""
    if not isinstance(data, Mapping):
        raise ValueError("a Submarine state must be a JSON object")
    missing = [k for k in (*NESTED, *FLAT, *SCALARS, "rng") if k not in data]
    if missing:
        raise ValueError(f"state data lacks {', '.join(missing)}")
    out: dict[str, Any] = {}
    for name in SCALARS:
        if name == "result_reason":
            if not isinstance(data[name], str):
                raise ValueError("state field 'result_reason' must be a string")
            out[name] = data[name]
        else:
            out[name] = _int(name, data[name])
    for name in FLAT:
        out[name] = _ints(name, data[name])
    for name in NESTED:
        value = data[name]
        if not isinstance(value, list):
            raise ValueError(f"state field {name!r} must be a list of lists")
        out[name] = [_ints(name, x) for x in value]
    out["rng"] = _int("rng", data["rng"])
    if not 0 <= out["rng"] < 1 << 64:
        raise ValueError("the generator state 'rng' must be a 64-bit unsigned integer")
    return out


def _fail(msg: str) -> NoReturn:
    raise ValueError(f"inconsistent Submarine state: {msg}")


def check(st: SubmarineState) -> None:
    """Raise ``ValueError`` naming the first inconsistency of ``st`` (see the module doc)."""
    _check_shapes(st)
    _check_tokens(st)
    _check_cards(st)
    _check_bathyscaphes(st)
    _check_turn(st)
    _check_end(st)


def _check_shapes(st: SubmarineState) -> None:
    """The lengths of the fields, the phase and the seats."""
    c = st.c
    n = st.n
    ncol = len(c.colours)
    for name in ("owned", "spare", "hand", "pile", "baths", "boat"):
        if len(getattr(st, name)) != n:
            _fail(f"{name!r} has {len(getattr(st, name))} entries, not one per seat ({n})")
    if len(st.cells) != c.cells:
        _fail(f"'cells' has {len(st.cells)} cells, not {c.cells}")
    for name in ("discard", "box_cards"):
        if len(getattr(st, name)) != ncol:
            _fail(f"{name!r} must count the {ncol} colours")
    if not 0 <= st.phase < len(Phase):
        _fail(f"phase {st.phase} is not one of 0..{len(Phase) - 1}")
    st.phase = Phase(st.phase)
    for name in ("seat", "first"):
        if not 0 <= getattr(st, name) < n:
            _fail(f"{name!r} {getattr(st, name)} is not a seat of {n}")


def _check_tokens(st: SubmarineState) -> None:
    """Every token in exactly one place: a cell, a board, the jokers, the box or the toll."""
    c = st.c
    n = st.n
    ncol = len(c.colours)
    jt = c.treasure_tokens
    where: Counter[int] = Counter()
    for i, cell in enumerate(st.cells):
        for t in cell:
            if not 0 <= t < c.tokens:
                _fail(f"cell {i} holds token {t}, not one of 0..{c.tokens - 1}")
        where.update(cell)
    for s in range(n):
        if len(st.owned[s]) != len(c.types):
            _fail(f"seat {s}'s board must have {len(c.types)} places")
        for typ, t in enumerate(st.owned[s]):
            if t != -1 and not (0 <= t < jt and t // ncol == typ):
                _fail(f"seat {s}'s board holds {t} in the place of type {typ}")
            if t >= 0:
                where[t] += 1
        if any(not 0 <= t < c.tokens for t in st.spare[s]):
            _fail(f"seat {s}'s jokers hold a token out of range")
        if st.spare[s] != sorted(st.spare[s]):
            _fail(f"seat {s}'s jokers must be sorted")
        where.update(st.spare[s])
    if any(not jt <= t < c.tokens for t in st.box_tokens):
        _fail("only shells can be in the box")
    where.update(st.box_tokens)
    limbo = st.phase == Phase.GIVE
    if limbo:
        if not 0 <= st.pend_token < c.tokens:
            _fail(f"the toll's pending token {st.pend_token} is out of range")
        where[st.pend_token] += 1
    elif (st.pend_token, st.pend_cell) != (-1, -1):
        _fail("a token is pending outside the toll phase")
    if where != Counter(range(c.tokens)):
        lost = sorted(set(range(c.tokens)) - set(where))
        twice = sorted(t for t, k in where.items() if k > 1)
        _fail(f"every token must be in exactly one place (missing {lost}, repeated {twice})")


def _check_cards(st: SubmarineState) -> None:
    """The cards: the components, each in one place."""
    c = st.c
    n = st.n
    ncol = len(c.colours)
    for s in range(n):
        if any(k < 0 for k in st.hand[s]) or len(st.hand[s]) != ncol:
            _fail(f"seat {s}'s hand must count the {ncol} colours, none negative")
        if sum(st.hand[s]) > c.hand_size:
            _fail(f"seat {s} holds {sum(st.hand[s])} cards, more than {c.hand_size}")
        if any(not 0 <= col < ncol for col in st.pile[s]):
            _fail(f"seat {s}'s pile holds a colour out of range")
    if any(k < 0 for k in (*st.discard, *st.box_cards)):
        _fail("card counts cannot be negative")
    for col in range(ncol):
        total = (
            st.discard[col]
            + st.box_cards[col]
            + sum(st.hand[s][col] + st.pile[s].count(col) for s in range(n))
        )
        if total != c.cards_per_colour:
            _fail(f"there are {total} {c.colours[col]} cards, not {c.cards_per_colour}")


def _check_bathyscaphes(st: SubmarineState) -> None:
    """The bathyscaphes and boats, placed as the setup and the placement order say."""
    c = st.c
    n = st.n
    lv = c.levels
    right = c.columns
    setup = c.setups.get(n)
    if setup is None:
        _fail(f"no setup for {n} players")
    for s in range(n):
        if any(not 0 <= b < c.cells for b in st.baths[s]):
            _fail(f"seat {s} has a bathyscaphe off the board")
        if not LEFT <= st.boat[s] <= right:
            _fail(f"seat {s}'s boat is at {st.boat[s]}, not in {LEFT}..{right}")
    placed = sum(len(b) for b in st.baths)
    if st.phase == Phase.PLACE:
        if st.to_place != n * setup.bathyscaphes - placed or st.to_place <= 0:
            _fail(f"{st.to_place} bathyscaphes to place with {placed} placed")
        for s in range(n):
            due = sum(1 for i in range(placed) if (st.first + i) % n == s)
            if len(st.baths[s]) != due or any(b % lv for b in st.baths[s]):
                _fail(f"seat {s}'s placed bathyscaphes do not follow the placement order")
        if st.seat != (st.first + placed) % n:
            _fail(f"seat {st.seat} cannot be placing now")
        if st.turn != 0 or any(b != LEFT for b in st.boat):
            _fail("no turn is played and no boat moves during placement")
    else:
        if st.to_place != 0:
            _fail("bathyscaphes left to place after placement")
        if any(len(b) != setup.bathyscaphes for b in st.baths):
            _fail(f"every seat must have {setup.bathyscaphes} bathyscaphes")
        if st.turn < 1:
            _fail("the turn count must be at least 1 after placement")


def _check_turn(st: SubmarineState) -> None:
    """The turn under way: the boat, the acting and moving bathyscaphes, the toll."""
    c = st.c
    n = st.n
    lv = c.levels
    right = c.columns
    s = st.seat
    baths = st.baths[s]
    phase = st.phase
    busy = phase in (Phase.ACT, Phase.GIVE, Phase.TO)
    if busy:
        if not 0 <= st.column < right or st.boat[s] != st.column:
            _fail(f"phase {phase.label!r} needs seat {s}'s boat over column {st.column}")
        if not 0 <= st.acted < 1 << len(baths):
            _fail(f"'acted' {st.acted} does not match {len(baths)} bathyscaphes")
    elif phase != Phase.OVER and (st.column, st.acted) != (-1, 0):
        _fail(f"phase {phase.label!r} comes before the boat stops: no column, nothing acted")
    if phase == Phase.BOAT and st.boat[s] == right:
        _fail("a boat off the right edge cannot move: the phase must be the swap")
    if phase == Phase.SWAP and st.boat[s] != right:
        _fail("the swap needs the boat off the right edge")

    def acted_here(i: int, what: str) -> None:
        if not 0 <= i < len(baths) or not st.acted >> i & 1:
            _fail(f"{what} {i} is not one of seat {s}'s bathyscaphes that acted")
        if baths[i] // lv != st.column:
            _fail(f"{what} {i} is not under the boat")

    if phase in (Phase.ACT, Phase.GIVE) and st.acting >= 0:
        acted_here(st.acting, "the collecting bathyscaphe")
    elif st.acting != -1 and phase != Phase.OVER:
        _fail(f"no bathyscaphe can be collecting in phase {phase.label!r}")
    if phase == Phase.GIVE and st.acting < 0:
        _fail("a toll is paid during a collection")
    if phase == Phase.TO:
        acted_here(st.moving, "the moving bathyscaphe")
    elif st.moving != -1 and phase != Phase.OVER:
        _fail(f"no bathyscaphe can be moving in phase {phase.label!r}")
    if (
        st.placed
        and phase != Phase.OVER
        and (st.acting < 0 or any(t not in st.cells[baths[st.acting]] for t in st.placed))
    ):
        _fail("jokers put down by a collection must lie in its cell")
    if phase == Phase.GIVE:
        if not st.owed or any(not 0 <= r < n or r == s for r in st.owed):
            _fail("a toll must be owed to other seats")
        if st.pile[s]:
            _fail("a toll is paid from the hand only once the pile is empty")
        if sum(st.hand[s]) < len(st.owed):
            _fail(f"seat {s} owes {len(st.owed)} cards and holds {sum(st.hand[s])}")
        if st.pend_cell != baths[st.acting]:
            _fail("the pending token must come from the collecting bathyscaphe's cell")
    elif st.owed:
        _fail("a toll is owed outside the toll phase")


def _check_end(st: SubmarineState) -> None:
    """The result, only once the game is over; the history's action ids."""
    n = st.n
    game: Submarine = st.game
    phase = st.phase
    if phase == Phase.OVER:
        if st.result_reason not in END_REASONS:
            _fail(f"unknown end reason {st.result_reason!r}")
        if not st.result_winners or any(not 0 <= w < n for w in st.result_winners):
            _fail("a finished game needs winners among the seats")
        if not 0 <= st.ender < n:
            _fail("a finished game needs the seat that ended it")
    elif st.result_reason or st.result_winners or st.ender != -1:
        _fail("a game under way has no result")
    if any(not 0 <= a < len(game.actions) for a in st.history):
        _fail("the history holds an unknown action id")
