"""Scenario builders for the Red November rules-conformance suite.

A scenario is a normal engine state (``RedNovember.new_state``) whose public
fields are overwritten to describe one position of the rulebook: who is
active, where every gnome stands, which rooms burn or flood, the hands, the
tops of the decks and the dice. Nothing here changes a rule; it only places
the pieces.

Dice: the engine reads every random number from ``state.rng``. Two ways to
control it are provided:

* :class:`ScriptedRng` – a stand-in generator that returns a scripted list of
  die results (and fails the test loudly when the engine rolls a die nobody
  scripted, so an unexpected roll cannot pass unnoticed);
* :func:`rng_with_dice` – finds a *real* :class:`~subtable.core.rng.Rng`
  state whose first ``die(10)`` results are the wanted ones (seed search).

Events: :func:`stack_events` puts chosen cards on top of the event deck (the
top of the deck is the last element of ``state.event_deck``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

try:  # run from a checkout without `pip install -e`: use the src layout directly
    import subtable  # noqa: F401
except ImportError:  # pragma: no cover
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from subtable.core.events import Event
from subtable.core.rng import Rng
from subtable.games.red_november import RedNovember, RedNovemberState
from subtable.games.red_november import state as st
from subtable.games.red_november.components import SEA, default_components
from subtable.games.red_november.view import Phase

C = default_components()
ITEM = {item.kind: item.index for item in C.items}
TRACK = {name: i for i, name in enumerate(C.tracks)}  # asphyxiation, heat, pressure
TOKEN = {name: i for i, name in enumerate(C.tokens)}  # kraken, crushed, missiles, asphyxiated
ROOM_OF = {
    "engine": 1,
    "pumps": 2,
    "reactor": 4,
    "missiles": 7,
    "stores": 8,
    "cabin": 10,
    "sea": SEA,
}


def hatch(a: int, b: int) -> int:
    """The index of the interior hatch between rooms ``a`` and ``b``."""
    for i, (x, y) in enumerate(C.hatches):
        if {x, y} == {a, b}:
            return i
    raise KeyError((a, b))


def card(kind: str, faint: int | None = None, nth: int = 0) -> int:
    """The index of an event card of ``kind`` (with Faint Check number ``faint``)."""
    found = [e.index for e in C.events if e.kind == kind and (faint is None or e.faint == faint)]
    if not found:
        raise KeyError((kind, faint))
    return found[nth]


def cards(kind: str) -> list[int]:
    """Every copy of an event card kind."""
    return [e.index for e in C.events if e.kind == kind]


#: event cards that change nothing on the board (for filling a catch-up walk)
RESPITES = cards("respite")


class UnscriptedRoll(AssertionError):
    """The engine rolled a die that the scenario did not script."""


class ScriptedRng:
    """A generator whose die results are scripted.

    ``die`` returns the next scripted result; shuffles use a real generator so
    that reshuffles stay possible. With ``strict`` (the default) an unscripted
    roll raises :class:`UnscriptedRoll`.
    """

    def __init__(self, rolls: Iterable[int] = (), *, strict: bool = True, seed: int = 0) -> None:
        self.rolls = list(rolls)
        self.used: list[int] = []
        self.strict = strict
        self._real = Rng(seed)

    def die(self, sides: int = 10) -> int:
        if self.rolls:
            r = self.rolls.pop(0)
            if not 1 <= r <= sides:
                raise ValueError(f"scripted roll {r} is not on a d{sides}")
            self.used.append(r)
            return r
        if self.strict:
            raise UnscriptedRoll(f"unscripted d{sides} roll (already used {self.used})")
        r = self._real.die(sides)
        self.used.append(r)
        return r

    def below(self, n: int) -> int:
        return self._real.below(n)

    def shuffle(self, seq: Any) -> None:
        self._real.shuffle(seq)

    def choice(self, seq: Sequence[Any]) -> Any:
        return self._real.choice(seq)

    def clone(self) -> ScriptedRng:
        new = ScriptedRng(self.rolls, strict=self.strict)
        new.used = list(self.used)
        new._real = self._real.clone()
        return new

    @property
    def state(self) -> int:
        return self._real.state


def dice(state: RedNovemberState, *rolls: int, strict: bool = True) -> ScriptedRng:
    """Script the next die results of ``state`` (returns the scripted generator)."""
    rng = ScriptedRng(rolls, strict=strict)
    state.rng = rng  # type: ignore[assignment]
    return rng


def rng_with_dice(rolls: Sequence[int], sides: int = 10, limit: int = 2_000_000) -> Rng:
    """A real :class:`Rng` whose first ``die(sides)`` results are ``rolls`` (seed search)."""
    for seed in range(limit):
        r = Rng(seed)
        if all(r.die(sides) == want for want in rolls):
            return Rng(seed)
    raise LookupError(f"no seed below {limit} rolls {list(rolls)}")


def stack_events(state: RedNovemberState, *indices: int) -> None:
    """Put event cards on top of the deck, the first given drawn first.

    The cards are taken out of wherever they are (deck, discard, removed,
    set aside), so the 56 cards stay 56 cards.
    """
    for pile in (state.event_deck, state.event_discard, state.event_removed, state.event_aside):
        for i in indices:
            while i in pile:
                pile.remove(i)
    state.event_deck.extend(reversed(indices))
    state._legal = None


def stack_items(state: RedNovemberState, *kinds: str) -> None:
    """Put item cards on top of the item deck, the first given drawn first."""
    for kind in kinds:
        idx = ITEM[kind]
        if idx in state.item_deck:
            state.item_deck.remove(idx)
    state.item_deck.extend(ITEM[k] for k in reversed(kinds))
    state._legal = None


def give(state: RedNovemberState, g: int, *kinds: str) -> None:
    """Put items in gnome ``g``'s hand (taken from the item deck when there)."""
    for kind in kinds:
        idx = ITEM[kind]
        if idx in state.item_deck:
            state.item_deck.remove(idx)
        state.hands[g][idx] += 1
    state._legal = None


def hand(state: RedNovemberState, g: int) -> dict[str, int]:
    """Gnome ``g``'s hand as ``{kind: count}``."""
    return {C.items[i].kind: k for i, k in enumerate(state.hands[g]) if k}


DEFAULT_ROOMS = (5, 8, 9, 10, 6, 3, 4, 7)


def build(
    *,
    players: int = 4,
    gnomes: int | None = None,
    seed: int = 0,
    active: int = 0,
    rooms: Sequence[int] | None = None,
    keepers: Sequence[int] | None = None,
    fire: Iterable[int] = (),
    low: Iterable[int] = (),
    high: Iterable[int] = (),
    blocked: Iterable[tuple[int, int]] = (),
    hands: dict[int, Sequence[str]] | None = None,
    intox: dict[int, int] | None = None,
    fainted: Iterable[int] = (),
    track: Sequence[int] | None = None,
    tokens: dict[str, int] | None = None,
    events: Sequence[int] = (),
    rolls: Sequence[int] | None = None,
    **options: Any,
) -> RedNovemberState:
    """A state at the start of gnome ``active``'s Movement phase.

    Defaults: an empty, calm sub (no fire, water or blocked hatch; tracks on 1;
    no Destruction token; empty hands; everyone sober and standing); the
    active gnome's Time Keeper on 40 and on top, everybody else's on 30; the
    six Respites on top of the event deck (unless ``events`` is given, which
    is stacked above them).
    """
    game = RedNovember(players=players, gnomes=gnomes, **options)
    s = game.new_state(seed)
    n = s.n
    s.opening_events = []
    s.fire = [False] * (SEA + 1)
    s.water = [0] * (SEA + 1)
    s.blocked = [False] * len(C.hatches)
    for a, b in blocked:
        s.blocked[hatch(a, b)] = True
    for r in fire:
        s.fire[r] = True
    for r in low:
        s.water[r] = 1
    for r in high:
        s.water[r] = 2
    s.track = list(track) if track is not None else [C.track_start] * len(C.tracks)
    s.token = [-1] * len(C.tokens)
    for name, pos in (tokens or {}).items():
        s.token[TOKEN[name]] = pos
    # hands back to the item deck, then deal what the scenario asks for
    for g in range(n):
        for i, k in enumerate(s.hands[g]):
            s.item_deck.extend([i] * k)
    s.hands = [[0] * len(C.items) for _ in range(n)]
    for g, kinds in (hands or {}).items():
        give(s, g, *kinds)
    s.intox = [0] * n
    for g, level in (intox or {}).items():
        s.intox[g] = level
    s.fainted = [False] * n
    for g in fainted:
        s.fainted[g] = True
    s.alive = [True] * n
    s.abandoned = [False] * n
    s.red_room = [0] * n
    s.room = list(rooms) if rooms is not None else list(DEFAULT_ROOMS[:n])
    if keepers is None:
        keepers = [40 if g == active else 30 for g in range(n)]
    s.keeper = list(keepers)
    s.seq = list(range(n))
    s.seq[active] = n  # on top of any stack
    s.seq_next = n + 1
    stack_events(s, *RESPITES)
    if events:
        stack_events(s, *events)
    s.turn = 1
    s.active = s.decider = active
    s.ghost = s.keeper[active]
    s.phase = Phase.MOVE
    s.stage = st.S_WAIT
    s.resume = st.S_TURN_START
    s._reset_turn_flags()
    s.t_outside = s.room[active] == SEA
    s.partner = -1
    s.choice = 0
    s.discards = []
    s.pend_event = s.pend_item = False
    s.pregame_left = 0
    if rolls is not None:
        dice(s, *rolls)
    s._legal = None
    return s


def legal(state: RedNovemberState) -> list[str]:
    """The legal actions' notations."""
    return [a.notation() for a in state.legal_actions()]


def play(state: RedNovemberState, *actions: str) -> list[Event]:
    """Apply the actions in order (checked) and return all their events."""
    out: list[Event] = []
    for a in actions:
        out.extend(state.apply(a))
    return out


def keys(events: Iterable[Event]) -> list[str]:
    """The event keys, in order."""
    return [e.key for e in events]


def find(events: Iterable[Event], key: str) -> list[Event]:
    """Every event with ``key``."""
    return [e for e in events if e.key == key]


def one(events: Iterable[Event], key: str) -> Event:
    """The single event with ``key`` (fails otherwise)."""
    found = find(events, key)
    assert len(found) == 1, f"expected one {key!r}, got {len(found)}: {[str(e) for e in events]}"
    return found[0]


def finish_turn(state: RedNovemberState, limit: int = 50) -> list[Event]:
    """Say ``done`` to Coffee/Lucky-Charm offers until another decision is needed."""
    out: list[Event] = []
    for _ in range(limit):
        if state.phase == Phase.AFTER_ACTION:
            out.extend(state.apply("done"))
        else:
            break
    return out


def illegal_code(state: RedNovemberState, action: str) -> str:
    """Apply an action that must be refused and return the refusal code.

    Also checks that the refusal left the state unchanged.
    """
    from subtable.core.errors import IllegalActionError

    before = state.to_json()
    try:
        state.apply(action)
    except IllegalActionError as err:
        assert state.to_json() == before, "a refused action changed the state"
        return err.code
    raise AssertionError(f"{action!r} was accepted")
