"""The Submarine board drawn for the browser: what it shows, what it hides, what it offers.

Real games (2–5 captains, random play from fixed seeds) are drawn from each seat's
view: the SVG is well formed and shows every cell, each clickable element stands
for legal actions only (and every action with a natural element has one), the
viewing seat's hand shows card by card and no other hand does, no English or
raw message id leaks into another language, and nothing changes when what a
seat cannot see is dealt again (``tests/honesty.py``).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from honesty import resample_hidden
from subtable.core.game import State
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.games.submarine.actions import Kind, SubAction
from subtable.games.submarine.components import default_components
from subtable.i18n import LANGUAGES, translator
from subtable.web.boards import board_renderer

pytestmark = pytest.mark.slow  # most tests here take over two seconds

SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = (2, 3, 4, 5)
#: the actions a board element stands for (the others stay in the page's list)
TARGETED = {
    Kind.PLACE,
    Kind.BOAT,
    Kind.BOAT_OFF,
    Kind.MOVE,
    Kind.TO,
    Kind.COLLECT,
    Kind.GIVE,
    Kind.SWAP,
}
#: English words of the board that no other language uses
ENGLISH = re.compile(
    r"\b(Collect|Boat|boat|card|cards|Discarded|Search|Column|column|level|Player|Pile|Hand|"
    r"Treasures|left of the board|you are|turn|Winner|Toll|box)\b"
)
RENDERER = board_renderer("submarine")


@cache
def positions(players: int) -> tuple[State[Any], ...]:
    """Positions of one random game: each of the first 30, then every 20th, and the end."""
    game = make_game("submarine", players=players)
    state = game.new_state(1000 + players)
    rng = Rng(players)
    out = [state.clone()]
    step = 0
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[rng.below(len(ids))])
        step += 1
        if step < 30 or step % 20 == 0 or state.is_terminal():
            out.append(state.clone())
    return tuple(out)


def legal_for(state: State[Any], seat: int | None) -> list[Any]:
    return state.legal_actions() if seat is not None and seat == state.current_seat() else []


def draw(state: State[Any], seat: int | None, lang: str = "en") -> tuple[str, str]:
    """The board and the panels for ``seat``, from its view only."""
    tr = translator(lang)
    view = state.observe(seat)
    legal = legal_for(state, seat)
    who = {s: "bot" for s in range(state.game.num_seats)}
    return RENDERER.board(view, tr, legal), RENDERER.panels(view, tr, legal, who)


def seats(state: State[Any]) -> list[int | None]:
    return [None, *range(state.game.num_seats)]


def clickables(root: ET.Element) -> Iterator[ET.Element]:
    return (e for e in root.iter() if "data-actions" in e.attrib)


def classes(e: ET.Element) -> set[str]:
    return set((e.get("class") or "").split())


@pytest.mark.parametrize("players", PLAYERS)
def test_the_board_is_svg_that_scales_and_draws_every_cell(players: int) -> None:
    c = default_components()
    for state in positions(players)[::5]:
        for seat in seats(state):
            board, panels = draw(state, seat)
            root = ET.fromstring(board)
            assert root.tag == f"{SVG}svg" and "viewBox" in root.attrib
            assert "width" not in root.attrib and "height" not in root.attrib
            cells = [g for g in root.iter(f"{SVG}g") if "cell" in classes(g)]
            assert len(cells) == c.columns * c.levels
            view = state.view(seat)
            tokens = [g for g in root.iter(f"{SVG}g") if "token" in classes(g)]
            assert len(tokens) == sum(len(cell) for col in view["cells"] for cell in col)
            boats = [g for g in root.iter(f"{SVG}g") if "boat" in classes(g)]
            assert len(boats) == players
            ET.fromstring(panels)  # well-formed too


@pytest.mark.parametrize("players", PLAYERS)
def test_targets_are_legal_actions_and_every_placeable_action_has_one(players: int) -> None:
    kinds_seen: set[Kind] = set()
    for i, state in enumerate(positions(players)):
        seat = state.current_seat()
        for s in seats(state) if i % 4 == 0 else [seat]:
            board, panels = draw(state, s)
            found: set[int] = set()
            for markup in (board, panels):
                for e in clickables(ET.fromstring(markup)):
                    ids = [int(x) for x in e.get("data-actions", "").split()]
                    assert ids and ids == sorted(set(ids))
                    assert e.get("role") == "button" and e.get("tabindex") == "0"
                    assert (e.get("aria-label") or "").strip()
                    assert "target" in classes(e)
                    found |= set(ids)
            legal = legal_for(state, s)
            assert found <= {a.id for a in legal}, "a target for an illegal action"
            if s != seat:
                assert not found
                continue
            for a in legal:
                assert isinstance(a, SubAction)
                if a.kind in TARGETED:
                    assert a.id in found, f"no element for {a.notation()}"
                    kinds_seen.add(a.kind)
    assert kinds_seen >= TARGETED - {Kind.GIVE}, kinds_seen


def test_a_toll_card_from_the_hand_is_a_card_target() -> None:
    """``give`` (rare in random play): with an empty pile the toll comes from the hand."""
    for position in positions(3):
        if position.view(None)["pending"]["phase"] != "bathyscaphes":
            continue
        s = position.current_seat()
        assert s is not None
        state: Any = position.clone()
        state.pile[s] = []
        state.hand[s] = [2] * len(state.hand[s])  # several colours to choose from
        state.refresh()
        for a in state.legal_actions():
            if a.kind != Kind.COLLECT or a.pay >= 0:
                continue
            twin = state.clone()
            twin.apply(a)
            if twin.current_seat() == s and twin.view(s)["pending"]["phase"] == "toll":
                root = ET.fromstring(draw(twin, s)[1])
                cards = [e for e in clickables(root) if "card" in classes(e)]
                ids = {int(i) for e in cards for i in e.get("data-actions", "").split()}
                assert ids == {g.id for g in twin.legal_actions()}
                return
    pytest.fail("no toll to pay from the hand in these positions")


@pytest.mark.parametrize("players", PLAYERS)
def test_only_the_viewing_seat_hand_is_shown_card_by_card(players: int) -> None:
    for state in positions(players)[::3]:
        for seat in seats(state):
            _, panels = draw(state, seat)
            root = ET.fromstring(panels)
            view = state.view(seat)
            for box in root.iter("section"):
                if box.get("data-seat") is None:
                    continue
                s = int(box.get("data-seat", "-1"))
                cards = [e.get("data-colour") for e in box.iter() if "card" in classes(e)]
                if s == seat:
                    hand = view["players"][s]["hand"]
                    assert sorted(c for c in cards if c) == sorted(
                        c for c, k in hand.items() for _ in range(k)
                    )
                else:
                    assert cards == []
                    text = "".join(box.itertext())
                    assert f"{view['players'][s]['hand_size']} card" in text


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_other_languages_show_no_english_and_no_message_id(lang: str) -> None:
    for players in PLAYERS:
        for state in positions(players)[::9]:
            for seat in seats(state):
                for markup in draw(state, seat, lang):
                    root = ET.fromstring(markup)
                    texts = [
                        t
                        for e in root.iter()
                        if e.tag not in (f"{SVG}style", "style")
                        for t in (e.text, e.tail)
                        if t
                    ]
                    texts += [
                        v
                        for e in root.iter()
                        for k, v in e.attrib.items()
                        if k in ("aria-label", "title")
                    ]
                    for t in texts:
                        assert "sub." not in t, t
                        assert not ENGLISH.search(t), (lang, t)


@pytest.mark.parametrize("players", PLAYERS)
def test_board_and_panels_depend_only_on_what_the_seat_sees(players: int) -> None:
    rng = Rng(0xB0A2D + players)
    for state in positions(players)[::5]:
        for seat in seats(state):
            seen = draw(state, seat)
            for _ in range(2):
                twin = resample_hidden(state, seat, rng)
                assert draw(twin, seat) == seen, f"seat {seat} sees a hidden change"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_end_box_says_why_the_game_ended(lang: str) -> None:
    """The end box names the end the engine reached, in the page's language, before the scores."""
    tr = translator(lang)
    state = positions(2)[-1]
    view = state.view(0)
    reason = view["outcome"]["reason"]
    box = ET.fromstring(RENDERER.end(state.observe(0), tr, {0: "", 1: "bot"}))
    first = box.find("p")
    assert first is not None and first.get("class") == "end-reason"
    text = first.text or ""
    assert tr(f"sub.reason.{reason}", seat="", column="")[:12].lower() in text.lower()
    assert "sub.reason" not in text and text.endswith(".")
