"""Submarine's typed view rebuilt from its JSON form (``Submarine.view_from_json``): the same
view, the same words and the same board as the view it came from, and nothing more."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from rich.console import Console
from tests.test_submarine_view import positions

from subtable.core.view import SeatView
from subtable.games.submarine import Submarine, SubmarineState
from subtable.games.submarine.view import Phase, SubmarineView
from subtable.i18n import translator
from subtable.ui.games.submarine import SubmarineUI


def _seats(state: SubmarineState) -> list[int | None]:
    return [None, *range(state.game.num_seats)]


@pytest.mark.slow  # over two seconds: every view of whole games
def test_every_view_of_whole_games_comes_back_from_its_json() -> None:
    phases: set[Phase] = set()
    for players, seed in ((2, 11), (3, 12), (4, 13), (5, 14)):
        for state in positions(players, seed, every=1):
            for seat in _seats(state):
                view = state.observe(seat)
                data = json.loads(json.dumps(view.to_json()))  # as the wire carries it
                back = state.game.view_from_json(data)
                assert isinstance(back, SubmarineView)
                assert back.to_json() == data
                assert back == view  # the wire carries every field
                phases.add(view.phase)
    assert phases == set(Phase)  # every decision was read back, tolls and moves included


def _text(renderable: object, width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False).print(renderable)
    return out.getvalue()


def _drawn(ui: SubmarineUI, view: SeatView, state: SubmarineState, lang: str) -> list[object]:
    """Everything the terminal draws and says of ``view``."""
    tr = translator(lang)
    who = {s: f"who{s}" for s in range(state.game.num_seats)}
    out: list[object] = [
        _text(ui.render(view, tr, who, compact=compact), width)
        for compact, width in ((True, 80), (False, 120))
    ]
    out += [ui.reminder(view, tr), ui.hidden_counts(view), ui.pending_text(view, tr)]
    out.append(ui.scores(view, tr))
    if view.seat is not None and view.seat == state.current_seat():
        out += [(ui.action_hint(a, view, tr), ui.odds(a, view)) for a in state.legal_actions()]
    return out


@pytest.mark.slow  # over two seconds: whole games drawn twice
@pytest.mark.parametrize(("players", "lang"), [(2, "en"), (4, "fr"), (5, "pt")])
def test_the_words_and_board_of_a_view_from_json_are_those_of_the_view(
    players: int, lang: str
) -> None:
    ui = SubmarineUI()
    seen: dict[Phase, int] = {}
    for state in positions(players, 5, every=1):
        if seen.get(state.phase, 0) == 2:
            continue  # two positions of each decision, the end included
        seen[state.phase] = seen.get(state.phase, 0) + 1
        for seat in _seats(state):
            view = state.observe(seat)
            back = state.game.view_from_json(view.to_json())
            assert _drawn(ui, back, state, lang) == _drawn(ui, view, state, lang)
    assert len(seen) >= 5


def test_the_words_refuse_a_view_of_another_game() -> None:
    @dataclass(frozen=True)
    class Other(SeatView):
        seat: int | None

        def to_json(self) -> dict[str, Any]:
            return {"seat": self.seat}

    ui, tr = SubmarineUI(), translator("en")
    for call in (
        lambda: ui.render(Other(0), tr, {}),
        lambda: ui.pending_text(Other(0), tr),
        lambda: ui.reminder(Other(0), tr),
        lambda: ui.hidden_counts(Other(0)),
        lambda: ui.scores(Other(0), tr),
    ):
        with pytest.raises(TypeError, match="SubmarineView, not Other"):
            call()


def _mid_toll() -> SubmarineState:
    """A position where a toll is being paid (every field of the turn in use)."""
    for state in positions(3, 3, every=1):
        if state.phase == Phase.GIVE:
            return state
    raise AssertionError("no toll in the seeded game")


def _set(path: tuple[str | int, ...], value: object) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        here: Any = data
        for key in path[:-1]:
            here = here[key]
        here[path[-1]] = value

    return edit


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.pop(key)


BROKEN: dict[str, Callable[[dict[str, Any]], None]] = {
    "no engine form": _drop("engine"),
    "no players": _drop("players"),
    "another game": _set(("game",), "red-november"),
    "a seat out of range": _set(("seat",), 7),
    "a seat as text": _set(("seat",), "0"),
    "a turn as text": _set(("turn",), "3"),
    "a turn as a flag": _set(("turn",), True),
    "a phase out of range": _set(("engine", "phase"), 42),
    "an unknown token": _set(("box_jokers",), ["joker-pink"]),
    "a token id out of range": _set(("engine", "placed"), [999]),
    "an unknown colour": _set(("discard",), {"pink": 1}),
    "a count as text": _set(("players", 0, "pile_size"), "2"),
    "a hand as a list": _set(("players", 0, "hand"), ["red"]),
    "the two forms disagreeing": _set(("engine", "boats"), [0, 0, 0]),
    "a name disagreeing": _set(("cells", 0, 0), ["crown-red"]),
    "an unknown key": _set(("secret",), 1),
    "an unknown action": _set(("legal",), ["fly away"]),
    "too many players": lambda data: data["players"].append(data["players"][0]),
    "engine form as a list": _set(("engine",), [1, 2]),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_json_view_is_refused_with_a_value_error(name: str) -> None:
    state = _mid_toll()
    data = copy.deepcopy(state.observe(state.current_seat()).to_json())
    BROKEN[name](data)
    with pytest.raises(ValueError, match="not a Submarine view"):
        state.game.view_from_json(data)


@pytest.mark.parametrize("data", [None, [], "view", 3])
def test_what_is_not_a_mapping_is_refused_with_a_value_error(data: Any) -> None:
    with pytest.raises(ValueError, match="not a Submarine view"):
        Submarine(players=3).view_from_json(data)


def test_a_json_view_cannot_give_a_seat_what_it_may_not_see() -> None:
    state = _mid_toll()
    game, active = state.game, state.current_seat()
    assert active is not None
    other = (active + 1) % game.num_seats
    theirs = state.observe(other).to_json()["players"][other]["hand"]
    assert theirs is not None
    for seat in (active, None):  # another seat's hand, shown to a seat or a spectator
        data = state.observe(seat).to_json()
        data["players"][other]["hand"] = theirs
        with pytest.raises(ValueError, match=f"shows the hand of seat {other}"):
            game.view_from_json(data)
    data = state.observe(other).to_json()  # a seat that does not decide gets no options
    data["legal"] = state.observe(active).to_json()["legal"]
    with pytest.raises(ValueError, match="'legal' disagrees"):
        game.view_from_json(data)
