"""Red November's rules as pure functions: one source for the engine, ``why_illegal`` and bots.

Each function reads only public data — the board's tuples or lists (indexed
as in :mod:`subtable.games.red_november.view`), this turn's flags, the static
:class:`~subtable.games.red_november.components.Components` — so a bot can call
it on a :class:`~subtable.games.red_november.view.RedNovemberView` exactly as
the engine calls it on its state. Nothing here draws a random number: where
the engine rolls, a function gives the odds (:func:`fix_success_chance`) or
decides the outcome of given rolls (:func:`fix_succeeds`, :func:`attacker_wins`).

Rulings (``RULINGS.md``) are marked where they apply.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from subtable.games.red_november.actions import Kind
from subtable.games.red_november.components import SEA, Components

#: minutes to open a hatch
OPEN_MINUTES = 1
#: faces of the die rolled for a fix-it action and a fight
DIE = 10
#: action kinds that pay no low-water penalty: Pump Water ("except for Pump Water"), No
#: Action, and Extinguish Fire (a burning room holds no water)
_NO_PENALTY = frozenset({Kind.PUMP, Kind.NO_ACTION, Kind.EXTINGUISH})


# -- water and movement -----------------------------------------------------------------
def reflows(water_src: int, water_dest: int) -> bool:
    """Whether opening an inner hatch levels the water: high on one side, dry on the other.

    Both rooms then hold low water, and any fire in either goes out.
    """
    return (water_src == 2 and water_dest == 0) or (water_src == 0 and water_dest == 2)


def can_open(
    water: Sequence[int], blocked: Sequence[bool], src: int, dest: int, hatch: int
) -> bool:
    """Whether the hatch between ``src`` and ``dest`` can be opened at all.

    An exterior hatch (``hatch < 0``) always can. An inner one cannot when a
    Blocked Hatch token lies on it, nor from a low-water room into a high-water
    one ("the room at low water must be pumped before … open the hatch").
    """
    if hatch < 0:
        return True
    return not blocked[hatch] and not (water[src] == 1 and water[dest] == 2)


def passage_minutes(water_dest: int, exterior: bool) -> int:
    """Minutes to go through an open hatch into a room at ``water_dest`` (after any reflow).

    RULING RN-1: through an exterior hatch always one minute, whatever the water.
    """
    return 1 if exterior or water_dest == 1 else 0


def move_cost(
    water: Sequence[int],
    fire: Sequence[bool],
    blocked: Sequence[bool],
    src: int,
    dest: int,
    hatch: int,
    *,
    fire_ok: bool,
    aqualung: bool,
) -> int | None:
    """Minutes to open the hatch ``src``→``dest`` and go through, ``None`` if he cannot.

    ``hatch`` is the hatch's index (negative for an exterior hatch, see
    ``Components.neighbours``); ``fire_ok`` and ``aqualung`` are this turn's
    flags (Grog or a Fire Extinguisher used; an Aqualung used).
    """
    if hatch < 0:  # exterior hatch
        if dest == SEA:
            if not aqualung:
                return None
        elif water[dest] == 2 or (fire[dest] and not fire_ok):
            return None
        return OPEN_MINUTES + passage_minutes(water[dest], True)
    if not can_open(water, blocked, src, dest, hatch):
        return None
    wd = water[dest]
    flow = reflows(water[src], wd)
    if flow:
        wd = 1
    if wd == 2:
        return None
    if fire[dest] and not flow and not fire_ok:  # a reflow puts the fire out
        return None
    return OPEN_MINUTES + passage_minutes(wd, False)


# -- actions ----------------------------------------------------------------------------
def action_penalty(c: Components, kind: Kind, water: Sequence[int], room: int) -> int:
    """Extra minutes an action of ``kind`` costs in ``room`` (the low-water penalty)."""
    if kind in _NO_PENALTY or room == SEA or water[room] != 1:
        return 0
    return c.low_water_penalty


def room_allows(
    fire: Sequence[bool], water: Sequence[int], room: int, kind: Kind, *, heroic: bool = False
) -> bool:
    """Whether an action of ``kind`` may be taken in ``room`` at all (ignoring time).

    At high water the only action is No Action; in a burning room, Extinguish Fire, or,
    for a gnome who entered it this turn under the heroic sacrifice house rule
    (``heroic``, RN-14), any action but Unblock Hatch.
    """
    if room != SEA and water[room] == 2:
        return kind == Kind.NO_ACTION
    if room != SEA and fire[room]:
        return kind == Kind.EXTINGUISH or (heroic and kind != Kind.UNBLOCK)
    return True


def fix_target(minutes: int, bonus: int) -> int:
    """The highest roll that succeeds: minutes spent plus the items' bonus."""
    return minutes + bonus


def fix_succeeds(roll: int, minutes: int, bonus: int) -> bool:
    """Whether a fix-it roll succeeds: "equal to or less than" the target."""
    return roll <= fix_target(minutes, bonus)


def too_late(token: int, ghost_after: int) -> bool:
    """A fix against a Destruction token fails outright once time is past it.

    ``token`` is the token's space (``-1``: not placed); ``ghost_after`` the
    Ghost Time Keeper's space after paying for the action.
    """
    return token >= 0 and ghost_after < token


def fix_success_chance(
    minutes: int, bonus: int, *, token: int = -1, ghost_after: int | None = None
) -> Fraction:
    """The exact chance that a fix-it action succeeds, as the engine resolves it.

    One ten-sided die: success on a roll ≤ ``minutes + bonus``. With a
    Destruction token on ``token`` and ``ghost_after`` given, a fix made after
    the token's space fails outright (:func:`too_late`). ``float()`` it for speed.
    """
    if ghost_after is not None and too_late(token, ghost_after):
        return Fraction(0)
    return Fraction(max(0, min(DIE, fix_target(minutes, bonus))), DIE)


def max_fix_minutes(c: Components, ghost: int, penalty: int) -> int:
    """The most minutes a fix-it action can take now (0: none is affordable)."""
    top = ghost - penalty
    if top > c.max_fix_minutes:
        return c.max_fix_minutes
    return top if top > 0 else 0


def max_draw(
    c: Components, room: int, red_room: int, minutes: int, item_cards: int, stash: int
) -> int:
    """How many item cards a gnome may draw in ``room`` now (0: none).

    ``minutes`` is what he can spend (his time left minus any penalty);
    ``item_cards`` the item deck plus its discard pile (reshuffled when the deck
    runs out); ``stash`` the Grog left in the Captain's Cabin. He cannot draw
    again in the room he last drew in (``red_room``) until he acts elsewhere.
    """
    if red_room == room:
        return 0
    if room == c.stores_room:
        return max(0, min(c.stores_max_draw, minutes, item_cards))
    if room == c.cabin_room:
        return max(0, min(c.cabin_max_draw, minutes, stash))
    return 0


def trade_partners(
    active: int,
    room: Sequence[int],
    alive: Sequence[bool],
    abandoned: Sequence[bool],
    fainted: Sequence[bool],
) -> list[int]:
    """The gnomes the active gnome may trade with (time aside).

    Another gnome aboard, "in the same room" — the Sea is not a room, so nobody
    trades there (RN-23) — and not fainted (RULING RN-3).
    """
    r = room[active]
    if r == SEA or r == 0:
        return []
    return [
        g
        for g in range(len(room))
        if g != active and alive[g] and not abandoned[g] and room[g] == r and not fainted[g]
    ]


def attack_targets(
    active: int, room: Sequence[int], alive: Sequence[bool], abandoned: Sequence[bool]
) -> list[int]:
    """The gnomes the active gnome may attack (Crazed Gnomes, a Crowbar used).

    Another gnome aboard, "in the same room" — as for trades, not in the Sea (RN-23).
    """
    r = room[active]
    if r == SEA or r == 0:
        return []
    return [
        g
        for g in range(len(room))
        if g != active and alive[g] and not abandoned[g] and room[g] == r
    ]


def attacker_wins(roll: int, intoxication: int, target_roll: int, target_intoxication: int) -> bool:
    """A defended attack: each rolls and subtracts his intoxication; ties go to the attacker."""
    return roll - intoxication >= target_roll - target_intoxication


# -- events, time and the Updates phase ---------------------------------------------------
def spread_rooms(c: Components, fire: Sequence[bool], water: Sequence[int]) -> list[int]:
    """Rooms Fire Spreads may choose: next to a fire, not burning, and dry."""
    out: set[int] = set()
    for r in range(1, SEA):
        if fire[r]:
            for d in c.adjacent[r]:
                if not fire[d] and water[d] == 0:
                    out.add(d)
    return sorted(out)


def fire_prevented(water: Sequence[int], room: int) -> bool:
    """A Fire event rolled on a room holding water starts no fire."""
    return water[room] != 0


def faints(number: int, intoxication: int) -> bool:
    """The Faint Check: he faints if the card's number is at most his intoxication (dash: 0)."""
    return number != 0 and number <= intoxication


def deadly(fire: Sequence[bool], water: Sequence[int], room: int) -> str | None:
    """Why a gnome ending his turn in ``room`` (or lying fainted there) dies, if he does.

    ``"fire"`` or ``"drowned"``; ``None`` when the room is safe (and for the
    Sea, where what matters is whether he began the turn outside).
    """
    if room == SEA or room == 0:
        return None
    if fire[room]:
        return "fire"
    if water[room] == 2:
        return "drowned"
    return None


def track_after_repair(c: Components, level: int) -> int:
    """A disaster track's level after a successful repair: the next reset point below."""
    lower = [p for p in c.reset_points if p < level]
    return max(lower) if lower else level


def icons_passed(icons: Sequence[bool], keeper: int, ghost: int) -> int:
    """Icons the Time Keeper passes catching up from ``keeper`` to ``ghost``.

    ``icons`` is ``Components.event_icon`` or ``item_icon``; the keeper resolves
    the icon of every space he lands on, ``keeper - 1`` down to ``ghost``.
    """
    return sum(1 for s in range(max(ghost, 0), keeper) if icons[s])


def next_active(
    keeper: Sequence[int], stack: Sequence[int], alive: Sequence[bool], abandoned: Sequence[bool]
) -> int:
    """Whose turn is next: the keeper furthest back in time, the top of a stack first.

    ``-1`` when no keeper remains on the track (everyone reached "Rescued!").
    """
    best, best_keeper, best_stack = -1, -1, -1
    for g in range(len(keeper)):
        k = keeper[g]
        if (
            k > 0
            and alive[g]
            and not abandoned[g]
            and (k > best_keeper or (k == best_keeper and stack[g] > best_stack))
        ):
            best, best_keeper, best_stack = g, k, stack[g]
    return best


# -- card accounting ------------------------------------------------------------------------
def unseen_events(
    c: Components, discard: Sequence[int], removed: Sequence[int], aside: Sequence[int]
) -> list[int]:
    """The event cards no seat can locate: those in the deck (order unknown), ascending."""
    seen = {*discard, *removed, *aside}
    return [card.index for card in c.events if card.index not in seen]


def unseen_item_counts(
    c: Components, stash: int, hands: Sequence[Sequence[int] | None], discard: Sequence[int]
) -> list[int]:
    """Per item index, the cards a seat cannot locate (the deck plus hidden hands).

    Raises ``ValueError`` when the visible cards outnumber the game's.
    """
    count = [item.copies for item in c.items]
    count[c.item_index("grog")] -= stash
    for hand in hands:
        if hand is not None:
            for i, k in enumerate(hand):
                count[i] -= k
    for i in discard:
        count[i] -= 1
    if any(k < 0 for k in count):
        raise ValueError("the view shows more item cards than the game has")
    return count
