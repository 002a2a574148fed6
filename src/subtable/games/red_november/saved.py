"""Reading a saved Red November state: every field checked, or a ``ValueError`` naming it.

:func:`read_state` turns :meth:`RedNovemberState.to_json
<subtable.games.red_november.state.RedNovemberState.to_json>` data back into
typed values, checking types, lengths and ranges field by field and then the
fields against each other (the decision under way and who takes it, the cards
— every event card exactly once, every item copy exactly once —, keepers on the
time track, gnomes in a space, the dead off the board…). A state it accepts can
be played on; anything else is refused before a state exists, so no
``IndexError``, ``KeyError`` or ``TypeError`` can surface later.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypedDict

from subtable.games.red_november.components import FIX_KINDS, SEA
from subtable.games.red_november.view import Choice, Phase

if TYPE_CHECKING:
    from subtable.games.red_november.game import RedNovember

#: the automatic stages of the state (``stage``/``resume``)
S_WAIT = 0
S_TURN_START = 1
S_AFTER_ACTION = 2
S_FAINT = 3
S_UPDATES = 4
S_CATCHUP = 5
S_TURN_END = 6
S_PREGAME = 7
S_OVER = 8
STAGES = S_OVER + 1

#: the list fields of the saved form
LISTS = (
    "fire",
    "water",
    "blocked",
    "track",
    "token",
    "keeper",
    "seq",
    "room",
    "alive",
    "abandoned",
    "fainted",
    "intox",
    "red_room",
    "event_deck",
    "event_discard",
    "event_removed",
    "event_aside",
    "item_deck",
    "item_discard",
    "t_bonus",
    "discards",
    "history",
)
#: the scalar fields of the saved form
SCALARS = (
    "seed",
    "seq_next",
    "stash",
    "turn",
    "active",
    "ghost",
    "phase",
    "decider",
    "stage",
    "resume",
    "t_grog",
    "t_fire_ok",
    "t_aqualung",
    "t_lucky",
    "t_crowbar",
    "t_outside",
    "t_entered_fire",
    "t_fresh",
    "partner",
    "choice",
    "choice_room",
    "pend_event",
    "pend_item",
    "pregame_left",
    "result_reason",
    "result_winners",
)
#: every field of the saved form
FIELDS = (*LISTS, *SCALARS, "hands", "rng")
_U64 = 1 << 64
#: a generous bound for small counters (bonuses, hand limits)
_LIMIT = 1000


class _BoardFields(TypedDict):
    seed: int
    rng: int
    fire: list[bool]
    water: list[int]
    blocked: list[bool]
    track: list[int]
    token: list[int]


class _CrewFields(TypedDict):
    keeper: list[int]
    seq: list[int]
    room: list[int]
    alive: list[bool]
    abandoned: list[bool]
    fainted: list[bool]
    intox: list[int]
    red_room: list[int]


class _DeckFields(TypedDict):
    event_deck: list[int]
    event_discard: list[int]
    event_removed: list[int]
    event_aside: list[int]
    item_deck: list[int]
    item_discard: list[int]
    t_bonus: list[int]
    history: list[int]


class _TurnFields(TypedDict):
    seq_next: int
    stash: int
    turn: int
    active: int
    ghost: int
    phase: Phase
    decider: int
    stage: int
    resume: int
    t_grog: int
    t_lucky: int
    t_fire_ok: bool
    t_aqualung: bool
    t_crowbar: bool
    t_outside: bool
    t_entered_fire: bool
    t_fresh: bool
    pend_event: bool
    pend_item: bool
    partner: int
    choice: Choice
    choice_room: int
    pregame_left: int


class _ResultFields(TypedDict):
    result_reason: str
    result_winners: list[int]


class SavedFields(_BoardFields, _CrewFields, _DeckFields, _TurnFields, _ResultFields):
    """A saved state's fields, read and checked (:func:`read_state`): the state's own
    attributes, of the same names."""

    hands: list[list[int]]
    discards: list[tuple[int, int]]


def _bad(message: str) -> ValueError:
    return ValueError(f"invalid Red November state: {message}")


class _Reader:
    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data

    def int_(self, name: str, lo: int, hi: int) -> int:
        value = self.data[name]
        if type(value) is not int:
            raise _bad(f"{name} must be a whole number, not {value!r}")
        if not lo <= value <= hi:
            raise _bad(f"{name} is {value}, outside {lo}..{hi}")
        return value

    def bool_(self, name: str) -> bool:
        value = self.data[name]
        if type(value) is not bool:
            raise _bad(f"{name} must be true or false, not {value!r}")
        return value

    def list_(self, name: str, length: int | None = None) -> list[Any]:
        value = self.data[name]
        if not isinstance(value, list):
            raise _bad(f"{name} must be a list, not {type(value).__name__}")
        if length is not None and len(value) != length:
            raise _bad(f"{name} has {len(value)} entries, expected {length}")
        return value

    def ints(self, name: str, lo: int, hi: int, length: int | None = None) -> list[int]:
        out = self.list_(name, length)
        for i, x in enumerate(out):
            if type(x) is not int:
                raise _bad(f"{name}[{i}] must be a whole number, not {x!r}")
            if not lo <= x <= hi:
                raise _bad(f"{name}[{i}] is {x}, outside {lo}..{hi}")
        return list(out)

    def bools(self, name: str, length: int) -> list[bool]:
        out = self.list_(name, length)
        for i, x in enumerate(out):
            if type(x) is not bool:
                raise _bad(f"{name}[{i}] must be true or false, not {x!r}")
        return list(out)


def read_state(game: RedNovember, data: Mapping[str, Any]) -> SavedFields:
    """The checked, typed fields of a saved state (raises ``ValueError`` naming the problem)."""
    if not isinstance(data, Mapping):
        raise _bad("it must be a JSON object")
    missing = [k for k in FIELDS if k not in data]
    if missing:
        raise _bad(f"it lacks {', '.join(missing)}")
    r = _Reader(data)
    # one field at a time, in this order: the first problem found is the one named
    out: SavedFields = {
        **_read_board(game, r),
        **_read_crew(game, r),
        **_read_decks(game, r),
        "hands": _read_hands(game, r),
        "discards": _read_discards(game, r),
        **_read_turn(game, r),
        **_read_result(game, r),
    }

    grog = game.components.item_index("grog")
    _check_cards(game, out, grog)
    _check_board(out)
    _check_gnomes(game, out)
    _check_decision(game, out)
    return out


def _read_board(game: RedNovember, r: _Reader) -> _BoardFields:
    """The seed and generator, the rooms, the hatches, the tracks and the tokens."""
    c = game.components
    seed = r.data["seed"]
    if type(seed) is not int:
        raise _bad(f"seed must be a whole number, not {seed!r}")
    fields: _BoardFields = {
        "seed": seed,
        "rng": r.int_("rng", 0, _U64 - 1),
        "fire": r.bools("fire", SEA + 1),
        "water": r.ints("water", 0, 2, SEA + 1),
        "blocked": r.bools("blocked", len(c.hatches)),
        "track": r.ints("track", c.track_start, c.track_length, len(c.tracks)),
        "token": r.ints("token", -1, c.time_top, len(c.tokens)),
    }
    if 0 in fields["token"]:
        raise _bad('a Destruction token cannot lie on the "Rescued!" space (0)')
    return fields


def _read_crew(game: RedNovember, r: _Reader) -> _CrewFields:
    """Each seat's Time Keeper, room and condition."""
    n = game.num_seats
    fields: _CrewFields = {
        "keeper": r.ints("keeper", -1, game.components.start_space[n], n),
        "seq": r.ints("seq", 0, _U64, n),
        "room": r.ints("room", 0, SEA, n),
        "alive": r.bools("alive", n),
        "abandoned": r.bools("abandoned", n),
        "fainted": r.bools("fainted", n),
        "intox": r.ints("intox", 0, 4, n),
        "red_room": r.ints("red_room", 0, SEA, n),
    }
    return fields


def _read_decks(game: RedNovember, r: _Reader) -> _DeckFields:
    """The event and item piles, the repair bonuses and the history."""
    c = game.components
    n_events, n_items = len(c.events), len(c.items)
    fields: _DeckFields = {
        "event_deck": r.ints("event_deck", 0, n_events - 1),
        "event_discard": r.ints("event_discard", 0, n_events - 1),
        "event_removed": r.ints("event_removed", 0, n_events - 1),
        "event_aside": r.ints("event_aside", 0, n_events - 1),
        "item_deck": r.ints("item_deck", 0, n_items - 1),
        "item_discard": r.ints("item_discard", 0, n_items - 1),
        "t_bonus": r.ints("t_bonus", 0, _LIMIT, len(FIX_KINDS)),
        "history": r.ints("history", 0, len(game.action_space) - 1),
    }
    return fields


def _read_hands(game: RedNovember, r: _Reader) -> list[list[int]]:
    """Each seat's hand: a count per item card, at most the copies there are."""
    items = game.components.items
    hands = []
    for g, hand in enumerate(r.list_("hands", game.num_seats)):
        if not isinstance(hand, list) or len(hand) != len(items):
            raise _bad(f"hands[{g}] must be a list of {len(items)} card counts")
        for i, k in enumerate(hand):
            if type(k) is not int or not 0 <= k <= items[i].copies:
                raise _bad(f"hands[{g}][{i}] is {k!r}, not a count of {items[i].kind} cards")
        hands.append(list(hand))
    return hands


def _read_discards(game: RedNovember, r: _Reader) -> list[tuple[int, int]]:
    """The discards still owed: (seat, hand limit) pairs."""
    discards = []
    for i, pair in enumerate(r.list_("discards")):
        if (
            not isinstance(pair, list | tuple)
            or len(pair) != 2
            or any(type(x) is not int for x in pair)
            or not 0 <= pair[0] < game.num_seats
            or not 0 <= pair[1] <= _LIMIT
        ):
            raise _bad(f"discards[{i}] must be [gnome, hand limit], not {pair!r}")
        discards.append((pair[0], pair[1]))
    return discards


def _read_turn(game: RedNovember, r: _Reader) -> _TurnFields:
    """The turn under way: who acts, the phase and stage, this turn's flags, a choice."""
    c = game.components
    n = game.num_seats
    fields: _TurnFields = {
        "seq_next": r.int_("seq_next", 0, _U64),
        "stash": r.int_("stash", 0, sum(item.stash for item in c.items)),
        "turn": r.int_("turn", 0, _U64),
        "active": r.int_("active", -1, n - 1),
        "ghost": r.int_("ghost", 0, c.time_top),
        "phase": Phase(r.int_("phase", 0, len(Phase) - 1)),
        "decider": r.int_("decider", -1, n - 1),
        "stage": r.int_("stage", 0, STAGES - 1),
        "resume": r.int_("resume", 0, STAGES - 1),
        "t_grog": r.int_("t_grog", 0, _U64),
        "t_lucky": r.int_("t_lucky", 0, _U64),
        "t_fire_ok": r.bool_("t_fire_ok"),
        "t_aqualung": r.bool_("t_aqualung"),
        "t_crowbar": r.bool_("t_crowbar"),
        "t_outside": r.bool_("t_outside"),
        "t_entered_fire": r.bool_("t_entered_fire"),
        "t_fresh": r.bool_("t_fresh"),
        "pend_event": r.bool_("pend_event"),
        "pend_item": r.bool_("pend_item"),
        "partner": r.int_("partner", -1, n - 1),
        "choice": Choice(r.int_("choice", 0, len(Choice) - 1)),
        "choice_room": r.int_("choice_room", 0, SEA - 1),
        "pregame_left": r.int_("pregame_left", 0, game.num_players),
    }
    return fields


def _read_result(game: RedNovember, r: _Reader) -> _ResultFields:
    """How the game ended, if it has."""
    reason = r.data["result_reason"]
    if not isinstance(reason, str) or (reason and reason not in game.info.end_reasons):
        raise _bad(f"result_reason {reason!r} is not a way the game ends")
    fields: _ResultFields = {
        "result_reason": reason,
        "result_winners": r.ints("result_winners", 0, game.num_seats - 1),
    }
    if len(set(fields["result_winners"])) != len(fields["result_winners"]):
        raise _bad("result_winners names a gnome twice")
    return fields


def _check_cards(game: RedNovember, s: SavedFields, grog: int) -> None:
    c = game.components
    cards = s["event_deck"] + s["event_discard"] + s["event_removed"] + s["event_aside"]
    if sorted(cards) != list(range(len(c.events))):
        raise _bad(
            f"the event cards (deck, discard, removed, set aside) must hold each of the "
            f"{len(c.events)} cards exactly once"
        )
    for i in s["event_aside"]:
        if not c.events[i].set_aside:
            raise _bad(f"event card {i} ({c.events[i].kind}) cannot be set aside")
    for i in s["event_removed"]:
        if c.events[i].kind != "respite" or int(game.options["greater_challenge"]) < 1:
            raise _bad(f"event card {i} ({c.events[i].kind}) cannot be out of the game")
    count = [0] * len(c.items)
    for i in s["item_deck"] + s["item_discard"]:
        count[i] += 1
    for hand in s["hands"]:
        for i, k in enumerate(hand):
            count[i] += k
    count[grog] += s["stash"]
    for item in c.items:
        if count[item.index] != item.copies:
            raise _bad(
                f"there are {count[item.index]} {item.kind} cards in play, the game "
                f"has {item.copies}"
            )


def _check_board(s: SavedFields) -> None:
    fire, water = s["fire"], s["water"]
    for space in (0, SEA):
        if fire[space] or water[space]:
            raise _bad(f"space {space} cannot burn or hold water")
    for room in range(1, SEA):
        if fire[room] and water[room]:
            raise _bad(f"room {room} both burns and holds water")


def _check_gnomes(game: RedNovember, s: SavedFields) -> None:
    c = game.components
    n = game.num_seats
    seq = s["seq"]
    if len(set(seq)) != n or max(seq) >= s["seq_next"]:
        raise _bad("the keepers' stacking order (seq) must be distinct numbers below seq_next")
    for g in range(n):
        name = f"gnome {g + 1}"
        if s["abandoned"][g] and not s["alive"][g]:
            raise _bad(f"{name} is both dead and swum away")
        if s["alive"][g] and not s["abandoned"][g]:
            if not 1 <= s["room"][g] <= SEA:
                raise _bad(f"{name} is aboard but in space {s['room'][g]}")
            if s["keeper"][g] < 0:
                raise _bad(f"{name} is aboard but his Time Keeper is gone")
        else:
            if s["keeper"][g] != -1:
                raise _bad(f"{name} is gone but his Time Keeper is on {s['keeper'][g]}")
            if s["fainted"][g]:
                raise _bad(f"{name} is gone but lies fainted")
        if not s["alive"][g] and (s["room"][g] != 0 or any(s["hands"][g])):
            raise _bad(f"{name} is dead but still has a room or cards")
        if s["red_room"][g] not in (0, c.stores_room, c.cabin_room):
            raise _bad(f"{name}'s red area is room {s['red_room'][g]}, where nothing is drawn")


def _check_decision(game: RedNovember, s: SavedFields) -> None:
    n = game.num_seats
    phase, a, decider = s["phase"], s["active"], s["decider"]
    over = phase == Phase.OVER

    def aboard(g: int) -> bool:
        return bool(0 <= g < n and s["alive"][g] and not s["abandoned"][g])

    if over != (s["stage"] == S_OVER) or over != (decider == -1):
        raise _bad(
            "the game is over exactly when phase, stage and decider say so "
            f"(phase {phase.name}, stage {s['stage']}, decider {decider})"
        )
    if over != bool(s["result_reason"]):
        raise _bad("a finished game needs its result_reason, and only a finished one")
    if over:
        return
    c = game.components
    for t, level in enumerate(s["track"]):
        if level >= c.track_length:
            raise _bad(f"the {c.tracks[t]} track is at its end but the game goes on")
    front = max((s["keeper"][g] for g in range(n) if aboard(g)), default=-1)
    for t, pos in enumerate(s["token"]):
        if pos >= 0 and front < pos:
            raise _bad(f"every Time Keeper has passed the {c.tokens[t]} token but the game goes on")
    if s["stage"] != S_WAIT:
        raise _bad(f"a game waiting for a decision must be at stage 0, not {s['stage']}")
    if a < 0 or not aboard(decider):
        raise _bad(
            f"phase {phase.name} needs an active gnome and a deciding gnome aboard "
            f"(active {a}, decider {decider})"
        )
    if (phase == Phase.EVENT_CHOICE) != (s["choice"] != Choice.NONE):
        raise _bad(f"phase {phase.name} and choice {s['choice'].name} disagree")
    if phase == Phase.EVENT_CHOICE:
        if s["resume"] not in (S_CATCHUP, S_PREGAME):
            raise _bad(
                f"an event choice must resume the catch-up or the pregame, not stage {s['resume']}"
            )
        if s["choice"] == Choice.BLOCK and not 1 <= s["choice_room"] < SEA:
            raise _bad(f"Blocked Hatch needs the rolled room, not {s['choice_room']}")
        if s["choice"] == Choice.DISCARD and (not s["discards"] or s["discards"][0][0] != decider):
            raise _bad("a discard choice must be the first pending discard's gnome's")
        if s["choice"] != Choice.DISCARD and decider != a:
            raise _bad("Fire Spreads and Blocked Hatch are chosen by the active gnome")
        return
    if not aboard(a):
        raise _bad(f"phase {phase.name} needs the active gnome {a + 1} aboard")
    if phase in (Phase.TRADE_GIVE, Phase.TRADE_BACK, Phase.DEFEND):
        p = s["partner"]
        if not aboard(p) or p == a or s["room"][p] != s["room"][a]:
            raise _bad(
                f"phase {phase.name} needs a partner aboard in the active gnome's room, not {p}"
            )
        expected = a if phase == Phase.TRADE_GIVE else p
    else:
        expected = a
    if decider != expected:
        raise _bad(f"in phase {phase.name} gnome {expected + 1} decides, not gnome {decider + 1}")
    if s["ghost"] > s["keeper"][a]:
        raise _bad(
            f"the Ghost Time Keeper ({s['ghost']}) is ahead of the active gnome's "
            f"Time Keeper ({s['keeper'][a]})"
        )
