"""A Red November view read back from its JSON form (``RedNovember.view_from_json``).

The remote terminal receives views as JSON and reads them typed like every other front
end: each view of whole seeded games, for every seat and the spectator, comes back with
the same JSON form, and the words and the board drawn from it are those drawn from the
view itself. Malformed data is refused with a ``ValueError`` naming what is wrong.
"""

from __future__ import annotations

import copy
import io
import random
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

from subtable.core.view import SeatView
from subtable.games.red_november.game import RedNovember
from subtable.games.red_november.state import RedNovemberState
from subtable.games.red_november.view import RedNovemberView
from subtable.i18n import translator
from subtable.ui.games import game_ui
from subtable.ui.games.red_november import RedNovemberUI
from subtable.web.boards import board_renderer

#: every count of players, and each option that changes what a view holds
OPTION_SETS: list[dict[str, Any]] = [
    *({"players": p} for p in range(1, 9)),
    {"players": 4, "crazed_gnomes": True},
    {"players": 3, "less_deadly_dying": True},
    {"players": 5, "greater_challenge": 1},
    {"players": 6, "greater_challenge": 2},
    {"players": 4, "heroic_sacrifice": True},
    {"players": 8, "crazed_gnomes": True, "less_deadly_dying": True, "greater_challenge": 2},
]


def _game(options: dict[str, Any], seed: int) -> Iterator[RedNovemberState]:
    """Each position of a game played at random from ``seed``, to its end."""
    state = RedNovember(**options).new_state(seed)
    rng = random.Random(seed)
    while True:
        yield state
        if state.is_terminal():
            return
        state.apply_unchecked(rng.choice(state.legal_action_ids()))


def _seats(state: RedNovemberState) -> list[int | None]:
    return [None, *range(state.game.num_seats)]


@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=lambda o: "-".join(f"{k}{v}" for k, v in o.items())
)
def test_every_view_of_whole_games_comes_back_with_its_json_form(options: dict[str, Any]) -> None:
    hidden = over = 0
    for seed in (1, 2):
        for state in _game(options, seed):
            for seat in _seats(state):
                view = state.observe(seat)
                data = view.to_json()
                if seat is None:
                    back = RedNovemberView.from_wire(data, state.game)
                else:
                    back = state.game.view_from_json(data)
                assert isinstance(back, RedNovemberView)
                assert back.to_json() == data, (seed, state.turn, seat)
                assert back.legal == view.legal  # the deciding seat's actions, by id
                hidden += any(h is None for h in back.hands)
                over += back.is_over
    assert over == 2 * (len(_seats(state)))  # each game was played to its end
    assert bool(hidden) == bool(options.get("crazed_gnomes"))


def _text(renderable: object, width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(renderable)
    return out.getvalue()


def _drawn(ui: RedNovemberUI, view: SeatView, state: RedNovemberState, lang: str) -> list[Any]:
    """Everything the terminal and the web board draw and say of ``view``."""
    tr = translator(lang)
    who = {g: f"player {g}" for g in range(state.game.num_seats)}
    legal = state.legal_actions() if view.seat == state.current_seat() else []
    board = board_renderer(state.game)
    return [
        _text(ui.render(view, tr, who), 120),
        _text(ui.render(view, tr, who, compact=True), 80),
        ui.reminder(view, tr),
        ui.hidden_counts(view),
        ui.pending_text(view, tr),
        ui.turn_phrases(view, tr),
        [ui.gnome_status(g, view, tr) for g in range(state.game.num_seats)],
        [(ui.action_hint(a, view, tr), ui.odds(a, view)) for a in legal],
        board.board(view, tr, legal),
        board.panels(view, tr, legal, who),
    ]


@pytest.mark.slow  # over two seconds: whole games drawn twice
@pytest.mark.parametrize(
    "options",
    [
        {"players": 3},
        {"players": 4, "crazed_gnomes": True},
        {"players": 5, "less_deadly_dying": True, "greater_challenge": 2},
        {"players": 4, "heroic_sacrifice": True},
    ],
    ids=lambda o: "-".join(f"{k}{v}" for k, v in o.items()),
)
def test_the_words_and_boards_drawn_from_the_wire_are_those_of_the_view(
    options: dict[str, Any],
) -> None:
    ui = game_ui(RedNovember(**options))
    assert isinstance(ui, RedNovemberUI)
    compared = 0
    for seed, lang in ((3, "en"), (4, "fr")):
        for step, state in enumerate(_game(options, seed)):
            if step % 5 and not state.is_terminal():
                continue
            for seat in _seats(state):
                view = state.observe(seat)
                back = state.game.view_from_json(view.to_json())
                assert _drawn(ui, back, state, lang) == _drawn(ui, view, state, lang)
                compared += 1
    assert compared > 50


class _OtherView(SeatView):
    """A view of some other game."""

    seat = 0

    def to_json(self) -> dict[str, Any]:
        return {"game": "other", "seat": 0}


def test_the_words_and_the_board_refuse_a_view_of_another_game() -> None:
    ui = game_ui("red-november")
    tr = translator("en")
    for read in (
        lambda v: ui.reminder(v, tr),
        lambda v: ui.hidden_counts(v),
        lambda v: ui.render(v, tr, {}),
        lambda v: ui.odds(RedNovember(players=3).parse_action("no-action"), v),
    ):
        with pytest.raises(TypeError, match="RedNovemberView, not a _OtherView"):
            read(_OtherView())


# -- malformed data --------------------------------------------------------------------------
def _sample() -> tuple[RedNovember, dict[str, Any]]:
    """A view in its JSON form, for the deciding seat (so with its legal actions)."""
    state = RedNovember(players=4).new_state(5)
    return state.game, state.observe(state.current_seat()).to_json()


def _set(path: str, value: Any) -> Any:
    """An edit of the sample: ``path`` (keys and list indices, dotted) set to ``value``;
    ``value`` ``...`` removes the key."""

    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if value is ...:
            del node[last]
        elif isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return edit


MALFORMED = {
    "game": (_set("game", "submarine"), "a view of 'submarine'"),
    "options": (_set("options.crazed_gnomes", True), "options"),
    "missing": (_set("tracks", ...), "lacks tracks"),
    "unknown": (_set("colour", "red"), "unknown keys colour"),
    "seat type": (_set("seat", "1"), "seat must be a whole number"),
    "seat range": (_set("seat", 9), "seat is 9, outside 0..3"),
    "bool seat": (_set("seat", True), "seat must be a whole number"),
    "phase": (_set("pending.phase", "napping"), "pending.phase 'napping'"),
    "choice unhashable": (_set("pending.choice", ["discard"]), "pending.choice"),
    "partner out of place": (_set("pending.partner", 1), "names a partner"),
    "rooms": (_set("rooms", []), "rooms has 0 entries"),
    "room order": (_set("rooms.2.room", 7), "rooms[2].room is 7"),
    "water": (_set("rooms.0.water", 3), "rooms[0].water is 3"),
    "fire": (_set("rooms.0.fire", 1), "rooms[0].fire must be true or false"),
    "hatch": (_set("blocked", [[1, 9]]), "blocked[0] is [1, 9], not a hatch"),
    "hatch unhashable": (_set("blocked", [[[1], 2]]), "not a hatch"),
    "track": (_set("tracks.heat", 99), "tracks.heat is 99"),
    "token": (_set("tokens.missiles", 0), "tokens.missiles is 0"),
    "gnomes": (_set("gnomes", "all"), "gnomes must be a list"),
    "gnome": (_set("gnomes.1", None), "gnomes[1] must be a JSON object"),
    "gnome seat": (_set("gnomes.1.seat", 2), "gnomes[1].seat is 2"),
    "aboard without a room": (_set("gnomes.0.room", None), "gnomes[0].room must be given"),
    "hand": (_set("gnomes.0.hand", {"grog": 1, "caviar": 1}), "'caviar'"),
    "hand count": (_set("gnomes.0.hand", {"grog": -1}), "gnomes[0].hand.grog is -1"),
    "hand size": (_set("gnomes.0.hand_size", 7), "hand_size says 7"),
    "hand type": (_set("gnomes.0.hand", [1, 2]), "gnomes[0].hand must be a JSON object"),
    "event card": (_set("event_discard", [["respite", 9]]), "event_discard[0]"),
    "event unhashable": (_set("event_discard", [{"kind": "fire"}]), "event_discard[0]"),
    "too many kraken": (_set("event_removed", [["kraken", 1]]), "no such event card is left"),
    "item discard": (_set("item_discard", {"grog": 0}), "item_discard.grog is 0"),
    "bonus": (_set("this_turn.bonus", {}), "this_turn.bonus must name each"),
    "ghost": (_set("ghost", None), "ghost must be given exactly when"),
    "outcome": (_set("outcome", {"reason": "rescued", "winners": []}), "outcome must be given"),
    "legal": (_set("legal", ["fly 3"]), "legal[0]"),
    "legal empty": (_set("legal", []), "at least one action"),
    "legal type": (_set("legal", [3]), "legal[0] must be an action's notation"),
    "legal to another seat": (_set("seat", 3), "legal is sent only to the seat that decides"),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_data_is_refused_naming_what_is_wrong(name: str) -> None:
    game, data = _sample()
    game.view_from_json(data)  # the sample itself is well formed
    edit, message = MALFORMED[name]
    edit(data)
    with pytest.raises(ValueError, match="invalid Red November view") as info:
        game.view_from_json(data)
    assert message in str(info.value)


@pytest.mark.parametrize("data", [None, [], "view", 3])
def test_data_that_is_no_object_is_refused(data: Any) -> None:
    with pytest.raises(ValueError, match="must be a JSON object"):
        RedNovember(players=3).view_from_json(data)


JUNK: tuple[Any, ...] = (None, True, -1, 10**30, "x", [], {}, [[1]], {"a": 1}, 1.5)


def test_any_value_anywhere_is_read_back_whole_or_refused() -> None:
    """Each leaf and object of real views replaced by junk: either the view comes back
    with that JSON form, or a ``ValueError`` says why; nothing else escapes."""
    rng = random.Random(47)
    game = RedNovember(players=4, crazed_gnomes=True)
    views = [
        state.observe(seat).to_json()
        for step, state in enumerate(_game({"players": 4, "crazed_gnomes": True}, 9))
        if step % 40 == 0
        for seat in _seats(state)
    ]
    refused = 0
    for data in views:
        paths = list(_paths(data))
        for _ in range(40):
            edited = copy.deepcopy(data)
            path = rng.choice(paths)
            _set(".".join(map(str, path)), rng.choice(JUNK))(edited)
            try:
                back = game.view_from_json(edited)
            except ValueError:
                refused += 1
                continue
            assert back.to_json() == edited
    assert refused > 0


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path under ``node`` (objects and lists alike)."""
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for key, value in items:
        yield (*prefix, key)
        if isinstance(value, dict | list):
            yield from _paths(value, (*prefix, key))
