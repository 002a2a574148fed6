"""Submarine's lessons: the boat, the bathyscaphes, collecting, tolls, swaps, jokers, the end
and scoring.

Every position is a two-player game dealt from a seed and edited as saved data
(:func:`_position`), then loaded and checked by the engine. The French rulebook has no
worked example; its rules are here with its numbers: a hand refilled to three cards, a toll
of one card per opposing bathyscaphe at the collector's level or above (two in the toll
scene), twelve different treasures ending the game, ties going to jokers, then to cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from subtable.core.game import Game
from subtable.core.view import SeatView
from subtable.games.submarine.game import Submarine
from subtable.games.submarine.state import SubmarineState
from subtable.games.submarine.view import Phase, SubmarineView
from subtable.learn.lesson import Lesson, Msg, Scene, Step, Wrong

GAME = "submarine"
#: the lessons' table: two players (the learner is Player 1)
OPTIONS: Mapping[str, Any] = {"players": 2}
#: the seed every position is dealt from before it is edited
SEED = 2004

Cell = tuple[int, int]  # (column, level), 1-based as printed


def _position(
    game: Game[Any],
    *,
    baths: Sequence[Sequence[Cell]],
    boats: Sequence[int],
    cells: Mapping[Cell, Sequence[str]] | None = None,
    boards: Mapping[int, Sequence[str]] | None = None,
    jokers: Mapping[int, Sequence[str]] | None = None,
    hands: Sequence[Mapping[str, int]],
    piles: Sequence[Sequence[str]],
    phase: Phase = Phase.BOAT,
    column: int = 0,
    turn: int = 9,
) -> dict[str, Any]:
    """The saved form of a position, Player 1 to play: a game dealt from :data:`SEED`, with
    these fields edited. Tokens are named as in notation (``crown-red``); a cell given in
    ``cells`` holds exactly those tokens, the ones it held go where the tokens named came
    from; ``boards`` and ``jokers`` take their tokens likewise. Boats: ``0`` off the left
    edge, a column (1-based), or ``columns + 1`` off the right edge; ``column`` is where
    the boat stopped (``phase`` ACT)."""
    if not isinstance(game, Submarine):
        raise TypeError(f"Submarine's lessons play Submarine, not {type(game).__name__}")
    c = game.components
    state = game.new_state(SEED)
    lv = c.levels
    tokens = _Tokens(state)
    tokens.place(cells or {}, boards or {}, jokers or {})
    state.cells, state.owned = tokens.grid, tokens.owned
    state.spare = [sorted(s) for s in tokens.spare]
    state.box_tokens = sorted(tokens.box)
    state.baths = [[(col - 1) * lv + level - 1 for col, level in b] for b in baths]
    state.boat = [b - 1 for b in boats]
    state.hand, state.pile, state.discard = _cards(state, hands, piles)
    state.phase, state.seat, state.first, state.turn, state.to_place = phase, 0, 0, turn, 0
    state.column = column - 1 if phase == Phase.ACT else -1
    return state.to_json()  # the engine checks the whole when it loads it


class _Tokens:
    """The treasure tokens of a saved form being edited: the cells, the boards, the jokers
    (``spare``) and the box; a token taken from where it lay leaves a hole there."""

    def __init__(self, state: SubmarineState) -> None:
        self.c = c = state.c
        self.names = {c.token_name(t): t for t in range(c.tokens)}
        self.grid: list[list[int]] = [list(cell) for cell in state.cells]
        self.spare: list[list[int]] = [list(s) for s in state.spare]
        self.box = list(state.box_tokens)
        self.owned = [[-1] * len(c.types) for _ in range(state.n)]
        self.holes: list[int] = []
        #: tokens put out of a cell or a seat's jokers, waiting for a place
        self.displaced: list[int] = []

    def take(self, token: int) -> None:
        """Take ``token`` from wherever it lies now."""
        if token in self.displaced:
            self.displaced.remove(token)
            return
        for i, cell in enumerate(self.grid):
            if token in cell:
                cell.remove(token)
                self.holes.append(i)
                return
        for s in self.spare:
            if token in s:
                s.remove(token)
                return
        self.box.remove(token)

    def place(
        self,
        cells: Mapping[Cell, Sequence[str]],
        boards: Mapping[int, Sequence[str]],
        jokers: Mapping[int, Sequence[str]],
    ) -> None:
        """Put the tokens named where :func:`_position` says, then the displaced ones into
        the holes left (a shell no seat keeps back in the box)."""
        c, lv, names = self.c, self.c.levels, self.names
        for s, held in jokers.items():
            self.displaced += [t for t in self.spare[s] if c.token_name(t) not in held]
            self.spare[s] = []
        for (col, level), held in cells.items():
            i = (col - 1) * lv + level - 1
            wanted = [names[t] for t in held]
            for t in wanted:
                self.take(t)
            self.displaced += self.grid[i]
            self.grid[i] = wanted
        for s, held in boards.items():
            for name in held:
                self.take(names[name])
                self.owned[s][c.token_type(names[name])] = names[name]
        for s, held in jokers.items():
            for name in held:
                self.take(names[name])
                self.spare[s].append(names[name])
        fixed = {(col - 1) * lv + level - 1 for col, level in cells}
        free = [i for i in self.holes if i not in fixed]
        for t in self.displaced:
            if t >= c.treasure_tokens:
                self.box.append(t)
            else:
                self.grid[free.pop(0) if free else len(self.grid) - 1].append(t)


def _cards(
    state: SubmarineState,
    hands: Sequence[Mapping[str, int]],
    piles: Sequence[Sequence[str]],
) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """The hands (cards per colour), the piles (colour indices) and the discard pile that
    holds every card neither in them nor in ``state``'s box."""
    c = state.c
    colour = {name: i for i, name in enumerate(c.colours)}
    hand = [[h.get(name, 0) for name in c.colours] for h in hands]
    pile = [[colour[x] for x in p] for p in piles]
    discard = [
        c.cards_per_colour
        - state.box_cards[k]
        - sum(h[k] for h in hand)
        - sum(p.count(k) for p in pile)
        for k in range(len(c.colours))
    ]
    return hand, pile, discard


def _boat_column(view: SeatView) -> dict[str, int]:
    """The column (1-based) where the learner's boat stands, once it is on the sea."""
    assert isinstance(view, SubmarineView)
    return {"column": view.boats[0] + 1}


def _m(key: str) -> Msg:
    return Msg(f"learn.sub.{key}")


#: the colours, as notation names them (the packaged components')
_COLOURS = ("red", "yellow", "green", "blue", "purple")
#: Player 2's five bathyscaphes, out of the way of the learner's first scenes
THEIRS: tuple[Cell, ...] = ((1, 4), (3, 4), (6, 1), (6, 3), (6, 4))
#: a learner's hand and pile of a game well under way
HAND = {"red": 1, "yellow": 1, "blue": 1}
PILE = ("green", "purple", "red", "blue", "yellow", "green")
#: the other player's
THEIR_HAND = {"green": 1, "purple": 1, "red": 1}
THEIR_PILE = ("blue", "yellow", "purple", "red", "green")


# -- lesson 1: the boat, the bathyscaphes, collecting and tolls ------------------------------
def _boat(game: Game[Any]) -> dict[str, Any]:
    return _position(
        game,
        baths=(((1, 1), (2, 2), (4, 1), (5, 2), (5, 3)), THEIRS),
        boats=(3, 2),
        hands=(HAND, THEIR_HAND),
        piles=(PILE, THEIR_PILE),
    )


def _bathyscaphe(game: Game[Any]) -> dict[str, Any]:
    return _position(
        game,
        baths=(((2, 1), (4, 2), (4, 3), (5, 1), (5, 2)), THEIRS),
        boats=(2, 1),
        hands=(HAND, THEIR_HAND),
        piles=(PILE, THEIR_PILE),
        phase=Phase.ACT,
        column=2,
    )


def _collect(game: Game[Any]) -> dict[str, Any]:
    return _position(
        game,
        baths=(((2, 2), (4, 2), (4, 3), (5, 1), (5, 2)), THEIRS),
        boats=(2, 1),
        cells={(2, 2): ("crown-red", "amphora-blue")},
        boards={0: ("amphora-green", "bell-purple")},
        hands=(HAND, THEIR_HAND),
        piles=(PILE, THEIR_PILE),
        phase=Phase.ACT,
        column=2,
    )


def _toll(game: Game[Any]) -> dict[str, Any]:
    return _position(
        game,
        baths=(((3, 3), (4, 2), (4, 3), (5, 1), (5, 2)), ((3, 1), (3, 2), (1, 4), (6, 1), (6, 3))),
        boats=(3, 1),
        cells={(3, 3): ("goblet-yellow", "helmet-green", "coin-purple")},
        boards={0: ("amphora-green", "crown-red")},
        hands=(HAND, THEIR_HAND),
        piles=(PILE, THEIR_PILE),
        phase=Phase.ACT,
        column=3,
    )


#: the end game's boards: ten different treasures each
MINE = (
    "amphora-red",
    "anchor-blue",
    "bell-yellow",
    "chest-green",
    "coin-purple",
    "crown-red",
    "goblet-blue",
    "helmet-yellow",
    "pearl-green",
    "shell-box-purple",
)
YOURS = (
    "amphora-blue",
    "anchor-yellow",
    "bell-green",
    "chest-purple",
    "coin-red",
    "crown-blue",
    "goblet-yellow",
    "helmet-green",
    "statue-purple",
    "sword-red",
)


def _end_game(game: Game[Any]) -> dict[str, Any]:
    return _position(
        game,
        baths=(((2, 2), (3, 3), (4, 1), (5, 2), (6, 2)), ((1, 2), (3, 1), (4, 3), (5, 4), (6, 1))),
        boats=(0, 0),
        boards={0: MINE, 1: YOURS},
        hands=({"red": 1, "green": 1, "blue": 1}, {"yellow": 1, "purple": 1, "green": 1}),
        piles=(("yellow", "purple", "red"), ("blue", "red", "green")),
        turn=31,
    )


FIRST_DIVES = Lesson(
    "sub-first-dives",
    GAME,
    _m("first.title"),
    _m("first.summary"),
    (
        Scene(
            "boat",
            _m("boat.title"),
            _m("boat.intro"),
            OPTIONS,
            _boat,
            steps=(
                Step(
                    ("boat 4", "boat 5"),
                    _m("boat.task"),
                    Msg("learn.sub.boat.done", _boat_column),
                    wrong=(Wrong(("boat off",), _m("boat.off")),),
                ),
            ),
            rules=("boat", "turn"),
        ),
        Scene(
            "bathyscaphe",
            _m("bathyscaphe.title"),
            _m("bathyscaphe.intro"),
            OPTIONS,
            _bathyscaphe,
            steps=(
                Step(("move l1",), _m("bathyscaphe.task")),
                Step(
                    tuple(f"to c{col} l{level}" for col in range(1, 7) for level in (1, 2)),
                    _m("bathyscaphe.task2"),
                    _m("bathyscaphe.done"),
                ),
            ),
            rules=("bathyscaphes",),
        ),
        Scene(
            "collect",
            _m("collect.title"),
            _m("collect.intro"),
            OPTIONS,
            _collect,
            steps=(
                Step(
                    ("collect crown-red with card",),
                    _m("collect.task"),
                    _m("collect.done"),
                    wrong=(
                        Wrong(("collect amphora-blue with card",), _m("collect.duplicate")),
                        Wrong(
                            tuple(f"collect crown-red with joker-{k}" for k in _COLOURS),
                            _m("collect.joker"),
                        ),
                    ),
                ),
            ),
            rules=("collect",),
        ),
        Scene(
            "toll",
            _m("toll.title"),
            _m("toll.intro"),
            OPTIONS,
            _toll,
            steps=(
                Step(
                    ("collect goblet-yellow with card",),
                    _m("toll.task"),
                    _m("toll.done"),
                    other=_m("toll.other"),
                ),
            ),
            rules=("tolls",),
        ),
        Scene(
            "game",
            _m("game.title"),
            _m("game.intro"),
            OPTIONS,
            _end_game,
            goal=_m("game.goal"),
            rules=("end",),
        ),
    ),
)


# -- lesson 2: swaps, jokers, the end and scoring --------------------------------------------
def _swap(game: Game[Any]) -> dict[str, Any]:
    return _position(
        game,
        baths=(((2, 2), (4, 2), (4, 3), (5, 1), (5, 2)), THEIRS),
        boats=(7, 5),
        hands=(HAND, THEIR_HAND),
        piles=(PILE, THEIR_PILE),
        phase=Phase.SWAP,
    )


def _joker(game: Game[Any]) -> dict[str, Any]:
    return _position(
        game,
        baths=(((4, 2), (2, 2), (3, 3), (5, 1), (5, 2)), ((4, 1), (1, 4), (3, 4), (6, 1), (6, 3))),
        boats=(4, 2),
        cells={(4, 2): ("statue-green", "sword-blue")},
        boards={0: ("amphora-green", "crown-red", "sword-yellow")},
        jokers={0: ("joker-blue",)},
        hands=(HAND, THEIR_HAND),
        piles=(PILE, THEIR_PILE),
        phase=Phase.ACT,
        column=4,
    )


def _twelve(game: Game[Any]) -> dict[str, Any]:
    return _position(
        game,
        baths=(((5, 3), (2, 2), (3, 3), (4, 1), (6, 2)), ((1, 2), (3, 1), (4, 3), (5, 4), (6, 1))),
        boats=(5, 3),
        cells={(5, 3): ("sword-yellow", "statue-yellow", "crown-green")},
        boards={0: (*MINE, "statue-red"), 1: YOURS},
        jokers={1: ("joker-green", "pearl-blue")},
        hands=({"yellow": 1, "green": 1, "blue": 1}, THEIR_HAND),
        piles=(PILE, THEIR_PILE),
        phase=Phase.ACT,
        column=5,
        turn=40,
    )


def _end_game_two(game: Game[Any]) -> dict[str, Any]:
    return _position(
        game,
        baths=(((1, 3), (2, 4), (3, 2), (5, 1), (6, 3)), ((1, 1), (2, 2), (4, 2), (5, 3), (6, 4))),
        boats=(0, 0),
        boards={0: MINE[:9], 1: YOURS[:9]},
        jokers={0: ("joker-red", "sword-blue"), 1: ("joker-yellow",)},
        hands=({"yellow": 1, "purple": 1, "green": 1}, {"red": 1, "blue": 1, "green": 1}),
        piles=(("red", "blue"), ("purple", "yellow")),
        turn=35,
    )


ENDING = Lesson(
    "sub-ending",
    GAME,
    _m("ending.title"),
    _m("ending.summary"),
    (
        Scene(
            "swap",
            _m("swap.title"),
            _m("swap.intro"),
            OPTIONS,
            _swap,
            steps=(
                Step(
                    tuple(f"swap {k}" for k in _COLOURS),
                    _m("swap.task"),
                    _m("swap.done"),
                    wrong=(Wrong(("no-swap",), _m("swap.keep")),),
                ),
            ),
            rules=("swaps",),
        ),
        Scene(
            "joker",
            _m("joker.title"),
            _m("joker.intro"),
            OPTIONS,
            _joker,
            steps=(
                Step(
                    ("collect statue-green with joker-blue",),
                    _m("joker.task"),
                    _m("joker.done"),
                    other=_m("joker.other"),
                ),
            ),
            rules=("jokers",),
        ),
        Scene(
            "end",
            _m("end.title"),
            _m("end.intro"),
            OPTIONS,
            _twelve,
            steps=(
                Step(
                    ("collect sword-yellow with card",),
                    _m("end.task"),
                    _m("end.done"),
                    other=_m("end.other"),
                ),
            ),
            rules=("end",),
        ),
        Scene(
            "game",
            _m("game.title"),
            _m("game2.intro"),
            OPTIONS,
            _end_game_two,
            goal=_m("game.goal"),
            rules=("end",),
        ),
    ),
)

LESSONS: tuple[Lesson, ...] = (FIRST_DIVES, ENDING)
