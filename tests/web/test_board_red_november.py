"""The Red November board drawn for the browser (``subtable.web.boards.red_november``).

Real games, played at random from fixed seeds, give the positions; the board and
the panels are parsed back and checked for what a player relies on: every room
and hatch is there, each clickable element stands for legal actions only and is
a reachable, named button, hazards and fainted gnomes are said in words, no
English leaks into the other languages, and nothing hidden from a seat changes
what that seat is shown.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from honesty import resample_hidden  # tests/honesty.py
from subtable.core.actions import Action
from subtable.core.game import State
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.games.red_november.actions import Kind, RNAction
from subtable.games.red_november.components import SEA, default_components
from subtable.games.red_november.view import RedNovemberView
from subtable.i18n import LANGUAGES, translator
from subtable.web.boards import board_renderer
from subtable.web.boards.red_november import RedNovemberBoard
from subtable.web.boards.svg import el, make, target, to_svg, wrap

C = default_components()
BOARD = RedNovemberBoard()
EN = translator("en")
#: kinds that always have a board element (the others live in the panels or the action list)
ON_BOARD = {
    Kind.MOVE,
    Kind.OPEN,
    Kind.EXTINGUISH,
    Kind.PUMP,
    Kind.UNBLOCK,
    Kind.FIX_ENGINE,
    Kind.FIX_PUMPS,
    Kind.FIX_REACTOR,
    Kind.STOP_MISSILES,
    Kind.KILL_KRAKEN,
    Kind.DRAW,
    Kind.TRADE,
    Kind.ATTACK,
    Kind.SPREAD,
    Kind.BLOCK,
}
IN_HAND = {Kind.USE, Kind.GIVE, Kind.DISCARD}
WHO = {0: "you", 1: "bot"}


def _positions(options: dict[str, Any], seed: int, steps: int, every: int) -> Iterator[State[Any]]:
    """Positions of one random game, every ``every`` actions (the state is cloned)."""
    state = make_game("red-november", **options).new_state(seed)
    rng = Rng(seed)
    for step in range(steps):
        if state.is_terminal():
            break
        if step % every == 0:
            yield state.clone()
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[rng.below(len(ids))])
    yield state.clone()


@cache
def _sample() -> tuple[State[Any], ...]:
    """Positions from a few games (plain, Crazed Gnomes, solitaire with four gnomes)."""
    out: list[State[Any]] = []
    out += _positions({"players": 4}, 11, 400, 7)
    out += _positions({"players": 5, "crazed_gnomes": True}, 12, 400, 9)
    out += _positions({"players": 1, "gnomes": 4}, 13, 300, 11)
    return tuple(out)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def _targets(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("data-actions") is not None]


def _action_ids(root: ET.Element) -> set[int]:
    return {int(i) for e in _targets(root) for i in e.get("data-actions", "").split()}


def _texts(root: ET.Element) -> list[str]:
    """Every text node and every ``aria-label`` (what a reader sees or hears)."""
    out = [t for t in root.itertext() if t.strip()]
    out += [e.get("aria-label", "") for e in root.iter() if e.get("aria-label")]
    return out


def _render(state: State[Any], seat: int | None, lang: str = "en") -> tuple[str, str]:
    legal: list[Action] = state.legal_actions() if seat == state.current_seat() else []
    view, tr = state.observe(seat), translator(lang)
    return BOARD.board(view, tr, legal), BOARD.panels(view, tr, legal, WHO)


# -- the drawing -------------------------------------------------------------------
def test_the_registry_finds_the_renderer() -> None:
    assert board_renderer("red-november").name == "red-november"


def test_every_room_and_hatch_of_the_components_is_drawn() -> None:
    state = _sample()[3]
    root = _parse(_render(state, 0)[0])
    # a group of drawings the page lays out (the submarine, the tracks, the decks, the Time
    # Track wide and narrow), each one scaling, and the legend of their symbols
    assert _local(root.tag) == "div" and root.get("role") == "group" and root.get("aria-label")
    assert [_local(e.tag) for e in root] == ["svg"] * 5 + ["details"]
    parts = list(root)[:5]
    for svg in parts:
        assert svg.get("viewBox", "").startswith("0 0 ")
        assert svg.get("width") is None and svg.get("height") is None  # it scales
    rooms = {int(e.get("data-room", 0)) for e in root.iter() if e.get("data-room")}
    assert rooms == set(range(1, SEA + 1))
    hatches = {int(e.get("data-hatch", -1)) for e in root.iter() if e.get("data-hatch")}
    assert hatches == set(range(len(C.hatches)))
    exterior = {int(e.get("data-exterior", 0)) for e in root.iter() if e.get("data-exterior")}
    assert exterior == set(C.exterior)
    spaces = {int(e.get("data-space", -1)) for e in root.iter() if e.get("data-space")}
    assert spaces == set(range(C.time_top + 1))
    tracks = {e.get("data-track") for e in root.iter() if e.get("data-track")}
    assert tracks == set(C.tracks)


def test_positions_on_the_board_follow_the_view() -> None:
    for state in _sample()[::4]:
        view = state.view(None)  # what the wire says, drawn from the typed view
        root = _parse(BOARD.board(state.observe(None), EN, []))
        for g in view["gnomes"]:
            drawn = [e for e in root.iter() if e.get("data-seat") == str(g["seat"])]
            assert len(drawn) == (g["room"] is not None)
        blocked = {tuple(p) for p in view["blocked"]}
        for e in root.iter():
            if e.get("data-hatch") is not None:
                pair = C.hatches[int(e.get("data-hatch", 0))]
                assert ("blocked" in e.get("class", "").split()) == (pair in blocked)
        for name, level in view["tracks"].items():
            row = next(e for e in root.iter() if e.get("data-track") == name)
            assert f"{level} of {C.track_length}" in row.get("aria-label", "")
        pile = next(e for e in root.iter() if e.get("data-pile") == "item_deck")
        assert str(view["item_deck"]) in "".join(pile.itertext())


def test_targets_stand_for_legal_actions_and_are_named_buttons() -> None:
    seen: set[Kind] = set()
    for state in _sample():
        seat = state.current_seat()
        if seat is None:
            continue
        legal = state.legal_actions()
        ids = {a.id for a in legal}
        board, panels = _render(state, seat)
        broot, proot = _parse(board), _parse(panels)
        for elem in _targets(broot) + _targets(proot):
            assert elem.get("role") == "button"
            assert elem.get("tabindex") == "0"
            assert elem.get("aria-label", "").strip()
            assert "target" in elem.get("class", "").split()
            listed = [int(i) for i in elem.get("data-actions", "").split()]
            assert listed and set(listed) <= ids
        on_board, in_panels = _action_ids(broot), _action_ids(proot)
        for action in legal:
            assert isinstance(action, RNAction)
            if action.kind in ON_BOARD:
                assert action.id in on_board, action.notation()
                seen.add(action.kind)
            if action.kind in IN_HAND:
                assert action.id in in_panels, action.notation()
                seen.add(action.kind)
        # the other seats see no buttons
        other = next(s for s in [None, *range(state.game.num_seats)] if s != seat)
        assert not _targets(_parse(_render(state, other)[0]))
    assert {Kind.MOVE, Kind.OPEN, Kind.DRAW, Kind.USE} <= seen


def test_a_move_lands_on_its_room_and_an_open_on_its_hatch() -> None:
    for state in _sample():
        seat = state.current_seat()
        view = state.view(seat)
        active = view["active"]
        if seat is None or active < 0:
            continue
        here = view["gnomes"][active]["room"]
        root = _parse(_render(state, seat)[0])
        for a in state.legal_actions():
            assert isinstance(a, RNAction)
            holders = [e for e in _targets(root) if str(a.id) in e.get("data-actions", "").split()]
            if a.kind == Kind.MOVE:
                assert [e.get("data-room") for e in holders] == [str(a.target)]
            elif a.kind == Kind.OPEN and SEA not in (here, a.target):
                h = C.hatch_between(here, a.target)
                assert [e.get("data-hatch") for e in holders] == [str(h)]
            elif a.kind == Kind.OPEN:
                room = a.target if here == SEA else here
                assert [e.get("data-exterior") for e in holders] == [str(room)]


def test_hazards_and_fainted_gnomes_are_said_in_words() -> None:
    state = _sample()[2]
    seen = state.observe(None)
    fire, water, fainted = list(seen.fire), list(seen.water), list(seen.fainted)
    fire[3] = True  # room 3
    water[5], water[6] = 1, 2  # rooms 5 and 6
    g = next(g for g in seen.gnomes if g.on_board)
    fainted[g.seat] = True
    view = replace(seen, fire=tuple(fire), water=tuple(water), fainted=tuple(fainted))
    root = _parse(BOARD.board(view, EN, []))
    room = {e.get("data-room"): e for e in root.iter() if e.get("data-room")}
    assert "on fire" in room["3"].get("aria-label", "")
    assert room["3"].find("{*}g[@class='fire']") is not None
    assert "low water" in room["5"].get("aria-label", "")
    assert "high water" in room["6"].get("aria-label", "")
    assert room["6"].find("{*}rect[@class='water high']") is not None  # a band, not colour alone
    assert room["5"].find("{*}rect[@class='water low']") is not None
    assert "fire" not in room["4"].get("aria-label", "") and "water" not in room["4"].get(
        "aria-label", ""
    )
    gnome = next(e for e in root.iter() if e.get("data-seat") == str(g.seat))
    assert "fainted" in gnome.get("class", "").split()
    assert "fainted" in gnome.get("aria-label", "")
    assert EN("rn.mark.fainted") in list(gnome.itertext())  # the "z", not colour alone
    assert f"Gnome {g.seat + 1}" in room[str(g.room)].get("aria-label", "")


def test_real_hazards_match_the_markup() -> None:
    """Every burning or flooded room of real positions says so (and no other room does)."""
    hazards = 0
    for state in _sample():
        view = state.view(None)
        root = _parse(BOARD.board(state.observe(None), EN, []))
        room = {e.get("data-room"): e for e in root.iter() if e.get("data-room")}
        for row in view["rooms"]:
            text = room[str(row["room"])].get("aria-label", "")
            assert ("on fire" in text) == row["fire"]
            assert ("low water" in text) == (row["water"] == 1)
            assert ("high water" in text) == (row["water"] == 2)
            hazards += row["fire"] + bool(row["water"])
        for g in view["gnomes"]:
            if g["room"] is not None and g["fainted"]:
                node = next(e for e in root.iter() if e.get("data-seat") == str(g["seat"]))
                assert "fainted" in node.get("aria-label", "")
    assert hazards > 0


# -- the panels --------------------------------------------------------------------
def test_panels_show_hands_with_their_rules_text_and_hide_what_is_hidden() -> None:
    crazed = [s for s in _sample() if s.game.options["crazed_gnomes"]]
    state = crazed[len(crazed) // 2]
    view = state.view(0)
    root = _parse(BOARD.panels(state.observe(0), EN, [], WHO))
    sections = {e.get("data-seat"): e for e in root.iter() if e.get("data-seat")}
    assert len(sections) == state.game.num_seats
    assert "you" in "".join(sections["0"].itertext())
    for g in view["gnomes"]:
        text = "".join(sections[str(g["seat"])].itertext())
        if g["hand"] is None:
            assert EN("rn.board.hidden_hand", n=g["hand_size"]) in text
            continue
        for kind in g["hand"]:
            assert EN(f"rn.item.{kind}") in text
            if EN.has(f"rn.item_text.{kind}"):
                assert EN(f"rn.item_text.{kind}") in text
    assert any(g["hand"] is None for g in view["gnomes"])


def test_the_pending_decision_is_in_words() -> None:
    for state in _sample()[::5]:
        view = state.view(None)
        text = " ".join(_texts(_parse(BOARD.panels(state.observe(None), EN, [], {}))))
        seat = view["pending"]["seat"]
        if seat is not None:
            assert f"Gnome {seat + 1}" in text


# -- languages ---------------------------------------------------------------------
ENGLISH_WORDS = ("Time Track", "Disaster Tracks", "Item Deck", "Engine Room", "Hatch", "Space ")


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_no_english_and_no_raw_ids_in_other_languages(lang: str) -> None:
    state = _sample()[5]
    seat = state.current_seat()
    en = " ".join(_texts(_parse(_render(state, seat)[0])))
    for word in ENGLISH_WORDS:
        assert word in en
    for markup in _render(state, seat, lang):
        text = " ".join(_texts(_parse(markup)))
        assert not re.search(r"\b(rn|ui|sub)\.[a-z_]+\.", text), text
        for word in ENGLISH_WORDS:
            assert word not in text, (lang, word)


def test_no_raw_ids_in_english() -> None:
    for state in _sample()[::6]:
        for markup in _render(state, state.current_seat()):
            assert not re.search(r"\b(rn|ui|sub)\.[a-z_]+\.", " ".join(_texts(_parse(markup))))


# -- honesty -----------------------------------------------------------------------
def test_board_and_panels_depend_only_on_what_the_seat_sees() -> None:
    rng = Rng(99)
    checked = 0
    for state in _sample()[::3]:
        for seat in [None, *range(state.game.num_seats)]:
            mine = _render(state, seat)
            for _ in range(2):
                twin = resample_hidden(state, seat, rng)
                assert _render(twin, seat) == mine, seat
                checked += 1
    assert checked > 40


def test_a_leak_would_be_caught() -> None:
    """The comparison above is sharp: another gnome's hidden hand changes the panels."""
    state = next(s for s in _sample() if s.game.options["crazed_gnomes"] and s.observe(0).turn)
    view = state.observe(0)
    other = next(g for g in view.gnomes if g.hand is None and g.hand_size)
    hands = list(view.hands)
    hands[other.seat] = tuple(other.hand_size if i.kind == "grog" else 0 for i in C.items)
    leaky = replace(view, hands=tuple(hands))
    assert BOARD.panels(leaky, EN, [], WHO) != BOARD.panels(view, EN, [], WHO)


# -- the shared SVG helpers --------------------------------------------------------
def test_svg_helpers_escape_text_and_mark_targets() -> None:
    root = make("svg", viewBox="0 0 10 10")
    node = el(root, "rect", x=1.5, y=2, cls="room")
    target(node, [7, 3, 7], 'a <b> & "c"')
    markup = to_svg(root)
    back = ET.fromstring(markup)
    rect = back[0]
    assert rect.get("data-actions") == "3 7"
    assert rect.get("aria-label") == 'a <b> & "c"'
    assert rect.get("role") == "button" and rect.get("tabindex") == "0"
    assert rect.get("class") == "room target"
    assert "<b>" not in markup


def test_wrap_escapes_its_own_text_and_keeps_the_markup_it_holds() -> None:
    box = make("details", cls="other-seat")
    el(box, "summary", "<b>Ann & Bo</b>")
    held = wrap(box, "<p>one</p>", "<svg></svg>")
    assert held == (
        '<details class="other-seat"><summary>&lt;b&gt;Ann &amp; Bo&lt;/b&gt;</summary>'
        "<p>one</p><svg></svg></details>"
    )
    assert wrap(make("div", cls="rn-board")) == '<div class="rn-board"></div>'


# -- the Time Track's marks ----------------------------------------------------------
Box = tuple[float, float, float, float]  # left, top, right, bottom


def _rules(root: ET.Element) -> list[tuple[tuple[int, int], int, list[list[str]], float]]:
    """The ``font-size`` rules of the drawing's stylesheets: (specificity, order, selector as
    compound parts, size in px)."""
    sheet = " ".join(e.text or "" for e in root.iter() if _local(e.tag) == "style")
    out = []
    for n, (selectors, body) in enumerate(re.findall(r"([^{}]+)\{([^}]*)\}", sheet)):
        size = re.search(r"font-size:\s*([\d.]+)px", body)
        for sel in selectors.split(",") if size else []:
            parts = [re.findall(r"\.?[\w-]+", p) for p in sel.split()]
            classes = sum(t.startswith(".") for p in parts for t in p)
            out.append(((classes, sum(len(p) for p in parts) - classes), n, parts, float(size[1])))
    return out


def _matches(parts: list[list[str]], chain: list[ET.Element]) -> bool:
    """Whether a descendant selector matches the last element of ``chain`` (root first)."""

    def fits(compound: list[str], e: ET.Element) -> bool:
        classes = e.get("class", "").split()
        return all(t[1:] in classes if t.startswith(".") else t == _local(e.tag) for t in compound)

    if not fits(parts[-1], chain[-1]):
        return False
    i = len(chain) - 2
    for compound in reversed(parts[:-1]):
        while i >= 0 and not fits(compound, chain[i]):
            i -= 1
        if i < 0:
            return False
        i -= 1
    return True


def _font_size(rules: list[Any], chain: list[ET.Element]) -> float:
    """The font size the browser gives a text element (its own style first; 16 px unset)."""
    own = re.search(r"font-size:\s*([\d.]+)px", chain[-1].get("style", ""))
    if own:
        return float(own[1])
    found = [(spec, n, size) for spec, n, parts, size in rules if _matches(parts, chain)]
    return max(found)[2] if found else 16.0


def _box(rules: list[Any], chain: list[ET.Element]) -> Box:
    """The box a mark or a token covers: its shapes with their stroke, and its text (digits
    and capitals: 0.62 of the size wide, 0.73 tall above the baseline)."""
    boxes: list[Box] = []
    for e in chain[-1]:
        a = {k: float(v) for k, v in e.attrib.items() if k in ("cx", "cy", "r", "x", "y",
                                                                "width", "height")}  # fmt: skip
        tag = _local(e.tag)
        if tag == "circle":
            r = a["r"] + 0.5
            boxes.append((a["cx"] - r, a["cy"] - r, a["cx"] + r, a["cy"] + r))
        elif tag == "rect":
            boxes.append((a["x"], a["y"], a["x"] + a["width"], a["y"] + a["height"]))
        elif tag == "text":
            size = _font_size(rules, [*chain, e])
            half = 0.31 * size * len(e.text or "")
            boxes.append((a["x"] - half, a["y"] - 0.73 * size, a["x"] + half, a["y"]))
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))  # fmt: skip


def _apart(a: Box, b: Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def _crowded() -> Iterator[RedNovemberView]:
    """Views whose Time Track spaces are crowded: the sample's, every gnome's Time Keeper and
    the ghost on one space (eight gnomes), and each with the Destruction tokens laid there."""
    states = [*_sample(), make_game("red-november", players=8).new_state(3)]
    for state in states:
        view = state.observe(None)
        assert isinstance(view, RedNovemberView)
        yield view
        if view.active >= 0:  # the ghost is drawn
            yield replace(view, token=tuple(view.ghost for _ in view.token))


def test_time_track_marks_never_overlap() -> None:
    """On every Time Track space the Time Keepers, the ghost and the Destruction tokens lie
    side by side, each whole inside its space, none over another."""
    checked = 0
    for view in _crowded():
        root = _parse(BOARD.board(view, EN, []))
        rules = _rules(root)
        parents = {child: parent for parent in root.iter() for child in parent}
        for space in (e for e in root.iter() if "space" in e.get("class", "").split()):
            rect = next(e for e in space if _local(e.tag) == "rect")
            x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
            inside = (x, y, x + float(rect.get("width", 0)), y + float(rect.get("height", 0)))
            chain = [space]
            while chain[0] in parents:
                chain.insert(0, parents[chain[0]])
            kinds = {"keeper", "ghost", "token"}
            marks = [e for e in space if kinds & set(e.get("class", "").split())]
            boxes = [_box(rules, [*chain, m]) for m in marks]
            for i, (mark, box) in enumerate(zip(marks, boxes, strict=True)):
                where = (view.turn, space.get("data-space"), mark.get("class"))
                assert inside[0] <= box[0] and box[2] <= inside[2], where
                assert inside[1] <= box[1] and box[3] <= inside[3], where
                assert all(_apart(box, other) for other in boxes[i + 1 :]), where
            checked += any("ghost" in m.get("class", "") for m in marks)
    assert checked > 20
