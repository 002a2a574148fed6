"""Red November's lessons: the turn and the Time Track, moving, water, fire, fix-its and the
die, items, events and the Disaster Tracks, Destruction tokens, fainting, dying and the end.

Every position is a three-gnome game set up from a seed and edited as saved data
(:func:`_position`), then loaded and checked by the engine. The rulebook's worked examples
are here with their numbers: Geoff's turn (40 → 19, seven events and two items), Howard's
Crowbar (4 minutes + 3, six spaces with the low water), Bethany's repair (Heat 8 → 5), the
Toolbox and the Engine Manual (+7) and Oxygen Pumps Down drawn on 45 (the token on 35). Where
a die must land on a number, the position carries a generator state that rolls it
(``scripts/lesson_dice.py``); the event deck's top cards are put in the order the scene
needs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from subtable.core.game import Game
from subtable.core.options import OptionValue
from subtable.core.view import SeatView
from subtable.games.red_november.components import SEA, Components
from subtable.games.red_november.game import RedNovember
from subtable.games.red_november.state import RedNovemberState
from subtable.games.red_november.view import RedNovemberView
from subtable.learn.lesson import Lesson, Msg, Scene, Step, Wrong, edited

GAME = "red-november"
#: the lessons' table: three gnomes, one player each (the learner is Gnome 1)
OPTIONS: Mapping[str, OptionValue] = {"players": 3}
#: the seed every position is dealt from before it is edited
SEED = 2024
#: generator states whose next action die rolls 1, 2, 5 or 10 (``scripts/lesson_dice.py``)
ROLLS_1, ROLLS_2, ROLLS_5, ROLLS_10 = 2, 15, 20, 17


#: a position as the engine loads it: a state's saved form (``RedNovemberState.to_json``),
#: checked field by field when the scene starts
Position = Mapping[str, Any]


class _Edits(TypedDict, total=False):
    """The fields of the saved form a position sets (the state's attributes, same names)."""

    room: list[int]
    keeper: list[int]
    seq: list[int]
    seq_next: int
    active: int
    decider: int
    ghost: int
    turn: int
    fire: list[bool]
    water: list[int]
    blocked: list[bool]
    track: list[int]
    token: list[int]
    hands: list[list[int]]
    item_deck: list[int]
    stash: int
    event_deck: list[int]
    intox: list[int]
    rng: int


def _position(
    game: Game[Any],
    *,
    rooms: Sequence[int],
    keepers: Sequence[int],
    fire: Sequence[int] = (),
    water: Mapping[int, int] | None = None,
    blocked: Sequence[tuple[int, int]] = (),
    hands: Mapping[int, Sequence[str]] | None = None,
    tracks: Mapping[str, int] | None = None,
    tokens: Mapping[str, int] | None = None,
    events: Sequence[str] = (),
    intoxication: Mapping[int, int] | None = None,
    rng: int | None = None,
    turn: int = 12,
) -> Position:
    """The saved form of a position, Gnome 1 to play: a game dealt from :data:`SEED`, with
    these fields edited. ``hands`` take their cards from the item deck (Grog from the stash
    when the deck has none); ``events`` (``kind`` or ``kind:number``, the Faint Check
    number) are put on top of the event deck in the order they will be drawn."""
    if not isinstance(game, RedNovember):
        raise TypeError(f"Red November's lessons set up a Red November game, not {game!r}")
    c = game.components
    state = game.new_state(SEED)
    n = game.num_seats
    active = 0
    # Gnome 1 is furthest back, on top of any stack: he plays now
    seq = [g + 1 for g in range(n)]
    seq[active] = n + 1
    water = water or {}
    hatch_of = {pair: h for h, pair in enumerate(c.hatches)}
    new_hands, deck, stash = _deal(c, state, n, hands or {})
    track = [c.track_start] * len(c.tracks)
    for name, level in (tracks or {}).items():
        track[c.tracks.index(name)] = level
    token = [-1] * len(c.tokens)
    for name, space in (tokens or {}).items():
        token[c.tokens.index(name)] = space
    changes: _Edits = {
        "room": list(rooms),
        "keeper": list(keepers),
        "seq": seq,
        "seq_next": n + 2,
        "active": active,
        "decider": active,
        "ghost": keepers[active],
        "turn": turn,
        "fire": [r in fire for r in range(SEA + 1)],
        "water": [water.get(r, 0) for r in range(SEA + 1)],
        "blocked": [h in {hatch_of[p] for p in blocked} for h in range(len(c.hatches))],
        "track": track,
        "token": token,
        "hands": new_hands,
        "item_deck": deck,
        "stash": stash,
        "event_deck": _stacked(c, state.event_deck, events),
        "intox": [(intoxication or {}).get(g, 0) for g in range(n)],
    }
    if rng is not None:
        changes["rng"] = rng
    return edited(state, **changes)


def _deal(
    c: Components, dealt: RedNovemberState, n: int, hands: Mapping[int, Sequence[str]]
) -> tuple[list[list[int]], list[int], int]:
    """The gnomes' ``hands`` (by item kind) dealt from the ``dealt`` state's item deck and
    hands (Grog from the stash when the deck has none): the new hands, the item deck left
    (in its dealt order) and the stash left."""
    pool = Counter(dealt.item_deck)
    for hand in dealt.hands:
        for i, k in enumerate(hand):
            pool[i] += k
    stash = dealt.stash
    grog = c.item_index("grog")
    new_hands = [[0] * len(c.items) for _ in range(n)]
    for g, kinds in hands.items():
        for kind in kinds:
            i = c.item_index(kind)
            if pool[i] > 0:
                pool[i] -= 1
            elif i == grog and stash > 0:
                stash -= 1
            else:
                raise ValueError(f"no {kind} card left for gnome {g + 1}")
            new_hands[g][i] += 1
    deck = []
    held = [i for hand in dealt.hands for i, k in enumerate(hand) for _ in range(k)]
    for i in dealt.item_deck + held:
        if pool[i] > 0:
            pool[i] -= 1
            deck.append(i)
    return new_hands, deck, stash


def _stacked(c: Components, deck: Sequence[int], events: Sequence[str]) -> list[int]:
    """The event ``deck`` with ``events`` (``kind`` or ``kind:number``, the Faint Check
    number) put on top in the order they will be drawn (the last card is drawn first)."""
    wanted = []
    rest = list(deck)
    for spec in events:
        kind, _, number = spec.partition(":")
        card = next(
            i
            for i in rest
            if c.events[i].kind == kind and (not number or c.events[i].faint == int(number))
        )
        rest.remove(card)
        wanted.append(card)
    return rest + wanted[::-1]


def _keeper(view: SeatView) -> dict[str, int]:
    """The active gnome (1-based) and his Time Keeper's space."""
    assert isinstance(view, RedNovemberView)
    return {"gnome": view.active + 1, "space": view.keeper[view.active]}


def _ghost(view: SeatView) -> dict[str, int]:
    """The Ghost Time Keeper's space: the minutes the learner has left this turn."""
    assert isinstance(view, RedNovemberView)
    return {"ghost": view.ghost}


def _m(key: str) -> Msg:
    return Msg(f"learn.rn.{key}")


def _minutes(word: str, low: int, high: int) -> tuple[str, ...]:
    return tuple(f"{word} {m}" for m in range(low, high + 1))


# -- lesson 1: the turn, moving, water and fire -----------------------------------------------
def _time(game: Game[Any]) -> Position:
    return _position(game, rooms=(8, 5, 10), keepers=(60, 58, 59), events=("respite",))


def _hatches(game: Game[Any]) -> Position:
    return _position(game, rooms=(3, 7, 9), keepers=(50, 48, 47), blocked=((1, 3),))


def _water(game: Game[Any]) -> Position:
    return _position(game, rooms=(7, 9, 10), keepers=(40, 38, 36), water={5: 2})


def _fire(game: Game[Any]) -> Position:
    return _position(
        game,
        rooms=(2, 8, 10),
        keepers=(45, 43, 44),
        fire=(1,),
        hands={0: ("fire_extinguisher",)},
        events=("respite", "descent"),
        rng=ROLLS_2,
    )


def _game_one(game: Game[Any]) -> Position:
    return _position(
        game,
        rooms=(4, 8, 2),
        keepers=(14, 13, 12),
        fire=(5,),
        water={3: 1},
        tracks={"heat": 7, "pressure": 5},
        hands={0: ("reactor_manual", "grog"), 1: ("fire_extinguisher",), 2: ("toolbox",)},
        turn=40,
    )


FIRST_TURNS = Lesson(
    "rn-first-turns",
    GAME,
    _m("first.title"),
    _m("first.summary"),
    (
        Scene(
            "time",
            _m("time.title"),
            _m("time.intro"),
            OPTIONS,
            _time,
            steps=(
                Step(
                    ("draw 3", "draw 4"),
                    _m("time.task"),
                    Msg("learn.rn.time.done", _keeper),
                    wrong=(Wrong(("draw 1", "draw 2"), _m("time.short")),),
                    other=_m("time.other"),
                ),
            ),
            rules=("time", "turn"),
        ),
        Scene(
            "hatches",
            _m("hatches.title"),
            _m("hatches.intro"),
            OPTIONS,
            _hatches,
            steps=(
                Step(
                    ("move 2",),
                    _m("hatches.task"),
                    wrong=(Wrong(("move 4", "move sea", "open 4", "open 2"), _m("hatches.away")),),
                ),
                Step(
                    ("move 1",),
                    _m("hatches.task2"),
                    Msg("learn.rn.hatches.done", _ghost),
                ),
            ),
            rules=("movement",),
        ),
        Scene(
            "water",
            _m("water.title"),
            _m("water.intro"),
            OPTIONS,
            _water,
            steps=(
                Step(
                    ("move 5", "open 5"),
                    _m("water.task"),
                    _m("water.done"),
                    other=_m("water.other"),
                ),
            ),
            rules=("movement", "hazards"),
        ),
        Scene(
            "fire",
            _m("fire.title"),
            _m("fire.intro"),
            OPTIONS,
            _fire,
            steps=(
                Step(("use fire-extinguisher",), _m("fire.task")),
                Step(("move 1",), _m("fire.task2")),
                Step(_minutes("extinguish", 1, 10), _m("fire.task3"), _m("fire.done")),
            ),
            rules=("hazards",),
        ),
        Scene(
            "game",
            _m("game.title"),
            _m("game1.intro"),
            OPTIONS,
            _game_one,
            goal=_m("game.goal"),
            rules=("goal", "time"),
        ),
    ),
)


# -- lesson 2: fix-its, the die, items, events and Destruction tokens ------------------------
def _howard(game: Game[Any]) -> Position:
    return _position(
        game,
        rooms=(3, 8, 10),
        keepers=(40, 38, 37),
        water={3: 1},
        blocked=((1, 3),),
        hands={0: ("crowbar",)},
        events=("respite", "descent"),
        rng=ROLLS_5,
    )


def _items(game: Game[Any]) -> Position:
    return _position(
        game,
        rooms=(1, 8, 10),
        keepers=(35, 33, 32),
        tracks={"pressure": 7},
        hands={0: ("toolbox", "engine_manual")},
        events=("respite", "respite"),
        rng=ROLLS_10,
    )


def _bethany(game: Game[Any]) -> Position:
    return _position(
        game,
        rooms=(4, 8, 10),
        keepers=(28, 26, 25),
        tracks={"heat": 8},
        events=("reactor_warmup",),
        rng=ROLLS_1,
    )


def _pumps_down(game: Game[Any]) -> Position:
    return _position(
        game, rooms=(8, 5, 10), keepers=(47, 45, 44), events=("oxygen_pumps_down", "respite")
    )


def _game_two(game: Game[Any]) -> Position:
    return _position(
        game,
        rooms=(2, 5, 7),
        keepers=(15, 14, 13),
        tracks={"pressure": 8, "asphyxiation": 4},
        tokens={"crushed": 6},
        hands={0: ("engine_manual", "toolbox"), 1: ("grog",), 2: ("deactivation_code",)},
        turn=40,
    )


FIXING = Lesson(
    "rn-fixing",
    GAME,
    _m("fixing.title"),
    _m("fixing.summary"),
    (
        Scene(
            "howard",
            _m("howard.title"),
            _m("howard.intro"),
            OPTIONS,
            _howard,
            steps=(
                Step(("use crowbar",), _m("howard.task")),
                Step(
                    ("unblock 1-3 4",),
                    _m("howard.task2"),
                    _m("howard.done"),
                    wrong=(Wrong(_minutes("unblock 1-3", 1, 10), _m("howard.minutes")),),
                ),
            ),
            rules=("fixit",),
        ),
        Scene(
            "items",
            _m("items.title"),
            _m("items.intro"),
            OPTIONS,
            _items,
            steps=(
                Step(("use toolbox", "use engine-manual"), _m("items.task")),
                Step(("use toolbox", "use engine-manual"), _m("items.task2")),
                Step(
                    _minutes("fix-engine", 3, 10),
                    _m("items.task3"),
                    _m("items.done"),
                    wrong=(Wrong(_minutes("fix-engine", 1, 2), _m("items.short")),),
                ),
            ),
            rules=("items", "fixit"),
        ),
        Scene(
            "bethany",
            _m("bethany.title"),
            _m("bethany.intro"),
            OPTIONS,
            _bethany,
            steps=(Step(_minutes("fix-reactor", 1, 10), _m("bethany.task"), _m("bethany.done")),),
            rules=("disasters", "events"),
        ),
        Scene(
            "tokens",
            _m("tokens.title"),
            _m("tokens.intro"),
            OPTIONS,
            _pumps_down,
            steps=(
                Step(
                    ("draw 2", "draw 3", "draw 4"),
                    _m("tokens.task"),
                    _m("tokens.done"),
                    wrong=(Wrong(("draw 1",), _m("tokens.short")),),
                ),
            ),
            rules=("disasters",),
        ),
        Scene(
            "game",
            _m("game.title"),
            _m("game2.intro"),
            OPTIONS,
            _game_two,
            goal=_m("game.goal"),
            rules=("goal", "disasters"),
        ),
    ),
)


# -- lesson 3: Geoff's turn, fainting, dying and the end -------------------------------------
def _geoff(game: Game[Any]) -> Position:
    return _position(
        game,
        rooms=(7, 3, 9),
        keepers=(40, 38, 36),
        fire=(1, 2),
        water={5: 2},
        blocked=((4, 5),),
        tracks={"pressure": 7, "heat": 2},
        tokens={"crushed": 30},
        hands={0: ("grog",), 1: ("engine_manual",)},
        intoxication={0: 2},
        # the Faint Check card (a 2), then the seven events of the 7 Draw Event Icons
        events=(
            "reactor_warmup:2",
            "respite:0",
            "reactor_warmup:0",
            "respite:1",
            "descent:4",
            "respite:3",
            "reactor_warmup:1",
            "respite:4",
        ),
    )


def _escape(game: Game[Any]) -> Position:
    return _position(
        game,
        rooms=(6, 8, 10),
        keepers=(30, 28, 27),
        fire=(6,),
        events=("respite", "respite"),
        rng=ROLLS_10,
    )


def _end(game: Game[Any]) -> Position:
    return _position(
        game,
        rooms=(7, 8, 10),
        keepers=(4, 0, 0),
        tokens={"missiles": 1},
        events=("respite",),
        rng=ROLLS_1,
        turn=60,
    )


def _game_three(game: Game[Any]) -> Position:
    return _position(
        game,
        rooms=(5, 1, 9),
        keepers=(12, 11, 11),
        fire=(3,),
        water={5: 1, 8: 2},
        tracks={"asphyxiation": 6, "heat": 6},
        hands={0: ("grog", "water_pump"), 1: ("coffee",), 2: ("fire_extinguisher",)},
        intoxication={0: 1, 1: 3},
        turn=45,
    )


SURVIVING = Lesson(
    "rn-surviving",
    GAME,
    _m("surviving.title"),
    _m("surviving.summary"),
    (
        Scene(
            "geoff",
            _m("geoff.title"),
            _m("geoff.intro"),
            OPTIONS,
            _geoff,
            steps=(
                Step(("move 5",), _m("geoff.task"), other=_m("geoff.book")),
                Step(("use grog",), _m("geoff.task2"), other=_m("geoff.book")),
                Step(("move 2",), _m("geoff.task3"), other=_m("geoff.book")),
                Step(("move 1",), _m("geoff.task4"), other=_m("geoff.book")),
                Step(
                    ("extinguish 7",),
                    _m("geoff.task5"),
                    _m("geoff.done"),
                    wrong=(Wrong(_minutes("extinguish", 1, 10), _m("geoff.minutes")),),
                ),
            ),
            rules=("turn", "fainting"),
        ),
        Scene(
            "escape",
            _m("escape.title"),
            _m("escape.intro"),
            OPTIONS,
            _escape,
            steps=(
                Step(
                    _minutes("extinguish", 1, 9),
                    _m("escape.task"),
                    wrong=(Wrong(("extinguish 10",), _m("escape.sure")),),
                ),
                Step(("move 5",), _m("escape.task2"), _m("escape.done")),
            ),
            rules=("dying", "hazards"),
        ),
        Scene(
            "end",
            _m("end.title"),
            _m("end.intro"),
            OPTIONS,
            _end,
            steps=(
                Step(
                    ("stop-missiles 3",),
                    _m("end.task"),
                    wrong=(
                        Wrong(("stop-missiles 1", "stop-missiles 2"), _m("end.short")),
                        Wrong(("stop-missiles 4",), _m("end.late")),
                    ),
                ),
                Step(("no-action",), _m("end.task2"), _m("end.done")),
            ),
            rules=("goal",),
        ),
        Scene(
            "game",
            _m("game.title"),
            _m("game3.intro"),
            OPTIONS,
            _game_three,
            goal=_m("game.goal"),
            rules=("goal", "fainting", "dying"),
        ),
    ),
)

LESSONS: tuple[Lesson, ...] = (FIRST_TURNS, FIXING, SURVIVING)
