"""Reading a Red November view back from its JSON form (:meth:`RedNovemberView.wire`).

A front end that receives views over the wire (the remote terminal) reads them as typed
values like every other front end: :func:`read_view` checks the data field by field and
rebuilds the :class:`~subtable.games.red_november.view.RedNovemberView` whose JSON form it
is, or raises a ``ValueError`` naming the first field that is wrong. The wire does not
carry the engine's bookkeeping; it is left at rest but for what the wire tells (the hand
limit of a discard under way, the outcome).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from subtable.core.errors import InvalidActionError
from subtable.games.red_november.components import FIX_KINDS, SEA, Components
from subtable.games.red_november.view import (
    CHOICE_NAMES,
    PARTNER_PHASES,
    PHASE_NAMES,
    Bookkeeping,
    Choice,
    Phase,
    RedNovemberView,
    ThisTurn,
    make_view,
)
from subtable.games.red_november.wire import (
    GnomeJSON,
    OutcomeJSON,
    PendingJSON,
    RedNovemberViewJSON,
    RoomJSON,
    ThisTurnJSON,
)

if TYPE_CHECKING:
    from subtable.games.red_november.game import RedNovember

#: a bound on counts the wire may carry (cards, stacking numbers, turns)
_MOST = 1 << 62


def _bad(message: str) -> ValueError:
    return ValueError(f"invalid Red November view: {message}")


class _Object:
    """One JSON object of the view, read key by key; ``path`` names it in errors. Its keys
    are ``shape``'s (a TypedDict of :mod:`~subtable.games.red_november.wire`, whose
    ``NotRequired`` keys may be left out), or the set given."""

    def __init__(self, data: object, path: str, shape: type | frozenset[str]) -> None:
        where = path or "the view"  # ``path`` is empty for the view itself
        if not isinstance(data, Mapping):
            raise _bad(f"{where} must be a JSON object, not {type(data).__name__}")
        keys, optional = (shape, frozenset[str]()) if isinstance(shape, frozenset) else _keys(shape)
        missing = sorted(keys - data.keys())
        if missing:
            raise _bad(f"{where} lacks {', '.join(missing)}")
        unknown = sorted(str(k) for k in data.keys() - keys - optional)
        if unknown:
            raise _bad(f"{where} has unknown keys {', '.join(unknown)}")
        self.data: Mapping[str, object] = data
        self.path = path

    def name(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def int_(self, key: str, lo: int, hi: int) -> int:
        return _int(self.data[key], self.name(key), lo, hi)

    def opt_int(self, key: str, lo: int, hi: int) -> int | None:
        value = self.data[key]
        return None if value is None else _int(value, self.name(key), lo, hi)

    def bool_(self, key: str) -> bool:
        value = self.data[key]
        if type(value) is not bool:
            raise _bad(f"{self.name(key)} must be true or false, not {value!r}")
        return value

    def list_(self, key: str) -> list[object]:
        value = self.data[key]
        if not isinstance(value, list):
            raise _bad(f"{self.name(key)} must be a list, not {type(value).__name__}")
        return value

    def object_(self, key: str) -> Mapping[str, object]:
        value = self.data[key]
        if not isinstance(value, Mapping):
            raise _bad(f"{self.name(key)} must be a JSON object, not {type(value).__name__}")
        return value


def _keys(shape: Any) -> tuple[frozenset[str], frozenset[str]]:
    """A TypedDict's keys: those it requires, those it may leave out."""
    return shape.__required_keys__, shape.__optional_keys__


def _int(value: object, name: str, lo: int, hi: int) -> int:
    if type(value) is not int:
        raise _bad(f"{name} must be a whole number, not {value!r}")
    if not lo <= value <= hi:
        bounds = f"outside {lo}..{hi}" if hi < _MOST else f"not a count from {lo}"
        raise _bad(f"{name} is {value}, {bounds}")
    return value


def _counts(
    value: Mapping[str, object], name: str, kinds: Sequence[str], lo: int, most: Sequence[int]
) -> tuple[int, ...]:
    """A ``{kind: count}`` object as counts by the index of ``kinds`` (each at least ``lo``
    where named, 0 where not)."""
    out = [0] * len(kinds)
    for kind, count in value.items():
        if kind not in kinds:
            raise _bad(f"{name} names {kind!r}, which is none of {', '.join(kinds)}")
        i = kinds.index(kind)
        out[i] = _int(count, f"{name}.{kind}", lo, most[i])
    return tuple(out)


def read_view(game: RedNovember, data: Mapping[str, Any]) -> RedNovemberView:
    """The :class:`RedNovemberView` whose JSON form is ``data`` (raises ``ValueError``)."""
    view = _Object(data, "", RedNovemberViewJSON)
    if view.data["game"] != game.info.name:
        raise _bad(f"it is a view of {view.data['game']!r}, not of {game.info.name!r}")
    if view.data["options"] != dict(game.options):
        raise _bad(f"its options {view.data['options']!r} are not this game's")
    c = game.components
    n = game.num_seats
    seat = view.data["seat"]
    if seat is not None:
        seat = _int(seat, "seat", 0, n - 1)
    active = view.int_("active", -1, n - 1)
    ghost = view.opt_int("ghost", 0, c.time_top)
    if (ghost is None) != (active < 0):
        raise _bad("ghost must be given exactly when a gnome is active")
    pending = _read_pending(view, n)
    phase, decider, choice, choice_room, partner, limit = pending
    fire, water = _read_rooms(view)
    crew = _read_gnomes(view, c, n)
    outcome = _read_outcome(game, view, phase)
    deck_sizes = (
        view.int_("event_deck", 0, len(c.events)),
        view.int_("item_deck", 0, _MOST),
    )
    events = _read_events(view, c)
    return make_view(
        seat,
        view.int_("turn", 0, _MOST),
        phase,
        decider,
        active,
        0 if ghost is None else ghost,
        choice,
        choice_room,
        partner,
        fire,
        water,
        _read_blocked(view, c),
        _read_named(view, "tracks", c.tracks, c.track_length, none=False),
        _read_named(view, "tokens", c.tokens, c.time_top, none=True),
        *crew,
        view.int_("grog_stash", 0, _MOST),
        deck_sizes[0],
        *events,
        deck_sizes[1],
        _read_item_discard(view, c),
        _read_this_turn(view),
        Bookkeeping(
            stage=0,
            resume=0,
            seq_next=max(crew[2], default=0) + 1,
            pend_event=False,
            pend_item=False,
            discards=() if limit is None else ((decider, limit),),
            pregame_left=0,
            result_reason=outcome[0],
            result_winners=outcome[1],
        ),
        _read_legal(game, view, seat, decider, phase),
        game,
    )


def _read_pending(view: _Object, n: int) -> tuple[Phase, int, Choice, int, int, int | None]:
    """``pending``: the phase, the deciding seat, the event's choice, its room, the partner
    and a discard's hand limit."""
    pend = _Object(view.data["pending"], "pending", PendingJSON)
    name = pend.data["phase"]
    if name not in PHASE_NAMES:
        raise _bad(f"pending.phase {name!r} is none of {', '.join(PHASE_NAMES)}")
    phase = Phase(PHASE_NAMES.index(str(name)))
    over = phase == Phase.OVER
    decider = -1 if over else _int(pend.data["seat"], "pending.seat", 0, n - 1)
    if over and pend.data["seat"] is not None:
        raise _bad("pending.seat must be null once the game is over")
    partner = -1
    if phase in PARTNER_PHASES:
        if "partner" not in pend.data:
            raise _bad(f"pending lacks the partner of a {name} phase")
        partner = pend.int_("partner", 0, n - 1)
    elif "partner" in pend.data:
        raise _bad(f"pending names a partner in a {name} phase")
    choice, room, limit = _read_choice(pend, phase)
    return phase, decider, choice, room, partner, limit


def _read_choice(pend: _Object, phase: Phase) -> tuple[Choice, int, int | None]:
    """An event's choice in ``pending``: what is chosen, the blocked room, the hand limit."""
    names = {v: k for k, v in CHOICE_NAMES.items()}
    choice = Choice.NONE
    if "choice" in pend.data:
        word = pend.data["choice"]
        if phase != Phase.EVENT_CHOICE or not isinstance(word, str) or word not in names:
            raise _bad(f"pending.choice {word!r} is not a choice of this phase")
        choice = names[word]
    room, limit = 0, None
    if choice == Choice.BLOCK:
        room = pend.int_("room", 1, SEA - 1) if "room" in pend.data else -1
        if room < 0:
            raise _bad("pending lacks the room of a blocked_hatch choice")
    elif "room" in pend.data:
        raise _bad("pending names a room for a choice that has none")
    if "limit" in pend.data:
        if choice != Choice.DISCARD:
            raise _bad("pending names a hand limit for a choice that has none")
        limit = pend.int_("limit", 0, _MOST)
    return choice, room, limit


def _read_rooms(view: _Object) -> tuple[tuple[bool, ...], tuple[int, ...]]:
    """``rooms``: fire and water per space (none in space 0 nor in the Sea)."""
    rows = view.list_("rooms")
    if len(rows) != SEA - 1:
        raise _bad(f"rooms has {len(rows)} entries, expected {SEA - 1}")
    fire, water = [False] * (SEA + 1), [0] * (SEA + 1)
    for r, data in enumerate(rows, start=1):
        row = _Object(data, f"rooms[{r - 1}]", RoomJSON)
        row.int_("room", r, r)
        fire[r] = row.bool_("fire")
        water[r] = row.int_("water", 0, 2)
    return tuple(fire), tuple(water)


def _read_blocked(view: _Object, c: Components) -> tuple[bool, ...]:
    """``blocked``: the hatches' pairs of spaces, in hatch order, as a flag per hatch."""
    blocked = [False] * len(c.hatches)
    last = -1
    for i, pair in enumerate(view.list_("blocked")):
        h = next((h for h, spaces in enumerate(c.hatches) if list(spaces) == pair), -1)
        if h < 0:
            raise _bad(f"blocked[{i}] is {pair!r}, not a hatch")
        if h <= last:
            raise _bad(f"blocked[{i}] is out of the hatches' order")
        blocked[h], last = True, h
    return tuple(blocked)


def _read_named(
    view: _Object, key: str, names: Sequence[str], most: int, *, none: bool
) -> tuple[int, ...]:
    """``tracks`` (each level) or ``tokens`` (each space, ``null`` off the board: ``-1``)."""
    data = _Object(view.data[key], key, frozenset(names))
    if none:
        return tuple(-1 if (p := data.opt_int(name, 1, most)) is None else p for name in names)
    return tuple(data.int_(name, 0, most) for name in names)


def _read_gnomes(view: _Object, c: Components, n: int) -> tuple[tuple[Any, ...], ...]:
    """``gnomes``: the per-gnome tuples, in the view's field order (``room`` … ``hand_size``)."""
    rows = view.list_("gnomes")
    if len(rows) != n:
        raise _bad(f"gnomes has {len(rows)} entries, the game has {n}")
    kinds = [item.kind for item in c.items]
    copies = [item.copies for item in c.items]
    columns: list[list[Any]] = [[] for _ in range(10)]
    for g, data in enumerate(rows):
        row = _Object(data, f"gnomes[{g}]", GnomeJSON)
        row.int_("seat", g, g)
        alive, abandoned = row.bool_("alive"), row.bool_("abandoned")
        room = row.opt_int("room", 1, SEA)
        if (room is None) == (alive and not abandoned):
            raise _bad(f"gnomes[{g}].room must be given exactly when he is aboard")
        red = row.bool_("red_area")
        if red and room is None:
            raise _bad(f"gnomes[{g}].red_area is true but he is not aboard")
        space = room if room is not None else (SEA if alive else 0)
        keeper = row.opt_int("keeper", 0, c.time_top)
        size = row.int_("hand_size", 0, sum(copies))
        hand = None
        if row.data["hand"] is not None:
            hand = _counts(row.object_("hand"), f"gnomes[{g}].hand", kinds, 1, copies)
            if sum(hand) != size:
                raise _bad(f"gnomes[{g}] holds {sum(hand)} cards but hand_size says {size}")
        values = (space, -1 if keeper is None else keeper, row.int_("stack", 0, _MOST), alive,
                  abandoned, row.bool_("fainted"), row.int_("intoxication", 0, 4),
                  space if red else 0, hand, size)  # fmt: skip
        for column, value in zip(columns, values, strict=True):
            column.append(value)
    return tuple(tuple(column) for column in columns)


def _read_events(view: _Object, c: Components) -> tuple[tuple[int, ...], ...]:
    """``event_discard``, ``event_removed`` and ``kraken_set_aside`` as event card indices:
    each ``[kind, faint]`` is the first card of that face not counted yet."""
    used: set[int] = set()
    aside = tuple(card.index for card in c.events if card.set_aside)
    set_aside = view.bool_("kraken_set_aside")
    if set_aside:
        used.update(aside)
    piles = []
    for key in ("event_discard", "event_removed"):
        pile = []
        for i, face in enumerate(view.list_(key)):
            found = next(
                (
                    card.index
                    for card in c.events
                    if [card.kind, card.faint] == face and card.index not in used
                ),
                None,
            )
            if found is None:
                raise _bad(f"{key}[{i}] is {face!r}: no such event card is left")
            used.add(found)
            pile.append(found)
        piles.append(tuple(pile))
    return piles[0], piles[1], aside if set_aside else ()


def _read_item_discard(view: _Object, c: Components) -> tuple[int, ...]:
    """``item_discard`` (counts by kind) as a pile of item indices, kind after kind."""
    kinds = [item.kind for item in c.items]
    counts = _counts(view.object_("item_discard"), "item_discard", kinds, 1, [_MOST] * len(kinds))
    order = [kinds.index(k) for k in view.object_("item_discard")]
    return tuple(i for i in order for _ in range(counts[i]))


def _read_this_turn(view: _Object) -> ThisTurn:
    """``this_turn``: the active gnome's item effects."""
    t = _Object(view.data["this_turn"], "this_turn", ThisTurnJSON)
    bonus = t.object_("bonus")
    if set(bonus) != set(FIX_KINDS):
        raise _bad(f"this_turn.bonus must name each of {', '.join(FIX_KINDS)}")
    return ThisTurn(
        grog=t.int_("grog", 0, _MOST),
        fire_ok=t.bool_("enter_fire"),
        aqualung=t.bool_("aqualung"),
        bonus=_counts(bonus, "this_turn.bonus", FIX_KINDS, 0, [_MOST] * len(FIX_KINDS)),
        lucky=t.int_("lucky", 0, _MOST),
        crowbar=t.bool_("crowbar"),
        outside=t.bool_("started_outside"),
        entered_fire=t.bool_("entered_fire"),
        fresh=t.bool_("fresh"),
    )


def _read_outcome(game: RedNovember, view: _Object, phase: Phase) -> tuple[str, tuple[int, ...]]:
    """``outcome``: why the game ended and its winners (``""`` and none before the end)."""
    data = view.data["outcome"]
    if (data is None) != (phase != Phase.OVER):
        raise _bad("outcome must be given exactly when the game is over")
    if data is None:
        return "", ()
    out = _Object(data, "outcome", OutcomeJSON)
    reason = out.data["reason"]
    if reason not in game.info.end_reasons:
        raise _bad(f"outcome.reason {reason!r} is not a way Red November ends")
    winners = tuple(
        _int(w, f"outcome.winners[{i}]", 0, game.num_seats - 1)
        for i, w in enumerate(out.list_("winners"))
    )
    return str(reason), winners


def _read_legal(
    game: RedNovember, view: _Object, seat: int | None, decider: int, phase: Phase
) -> tuple[int, ...]:
    """``legal``: the deciding seat's actions, by id (present only for that seat)."""
    if "legal" not in view.data:
        return ()
    if seat is None or seat != decider or phase == Phase.OVER:
        raise _bad("legal is sent only to the seat that decides")
    ids = []
    for i, text in enumerate(view.list_("legal")):
        if not isinstance(text, str):
            raise _bad(f"legal[{i}] must be an action's notation, not {text!r}")
        try:
            ids.append(game.action_space.parse(text).id)
        except InvalidActionError as e:
            raise _bad(f"legal[{i}]: {e}") from None
    if not ids:
        raise _bad("legal, when sent, lists at least one action")
    return tuple(ids)
