"""Submarine's pure rule functions (``games/submarine/rules.py``), and the engine using them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as hs

from subtable.core.rng import Rng
from subtable.games.submarine import Submarine, rules
from subtable.games.submarine.actions import Kind
from subtable.games.submarine.view import Phase

LV = 4


def cell(column: int, level: int) -> int:
    """1-based column and level to a cell id."""
    return (column - 1) * LV + level - 1


def test_toll_opponents_at_the_same_or_a_shallower_level_clockwise() -> None:
    baths = [[cell(2, 3)], [cell(2, 1), cell(2, 4), cell(3, 1)], [], [cell(2, 3), cell(2, 2)]]
    # seat 0 collects at column 2 level 3: seat 1's level 1 (not its level 4, nor column 3),
    # then seat 3's two; its own bathyscaphe never counts
    assert rules.toll_seats(baths, 0, cell(2, 3), LV) == [1, 3, 3]
    # clockwise from the collector's left: seat 3 collects, seat 0 comes before seat 1
    assert rules.toll_seats(baths, 3, cell(2, 3), LV) == [0, 1]
    assert rules.toll_seats(baths, 1, cell(2, 1), LV) == []
    assert rules.toll_count(baths, 0, cell(2, 3), LV) == 3


@settings(max_examples=200, deadline=None)
@given(
    hs.lists(hs.lists(hs.integers(0, 23), max_size=5), min_size=2, max_size=5),
    hs.integers(0, 4),
    hs.integers(0, 23),
)
def test_toll_count_is_the_toll_list_length(baths: list[list[int]], seat: int, where: int) -> None:
    seat %= len(baths)
    seats = rules.toll_seats(baths, seat, where, LV)
    assert rules.toll_count(baths, seat, where, LV) == len(seats)
    assert seat not in seats
    expected = sorted(
        ((r - seat) % len(baths), r)
        for r, bs in enumerate(baths)
        if r != seat
        for b in bs
        if b // LV == where // LV and b % LV <= where % LV
    )
    assert seats == [r for _, r in expected]


def test_card_payment_needs_the_colour_and_a_card_per_toll() -> None:
    assert rules.can_pay_card([1, 0, 0, 0, 0], 0, 0, 0)
    assert not rules.can_pay_card([0, 2, 0, 0, 0], 0, 5, 0)  # no card of the colour
    assert not rules.can_pay_card([1, 0, 0, 0, 0], 0, 1, 2)  # 1 card left for 2 tolls
    assert rules.can_pay_card([1, 1, 0, 0, 0], 0, 1, 2)


def test_a_joker_retake_is_refused_only_with_a_joker() -> None:
    assert rules.retakes_own_joker(61, 62, [61])
    assert not rules.retakes_own_joker(61, -1, [61])  # with a card
    assert not rules.retakes_own_joker(61, 62, [60])


def test_destinations_any_column_same_level_or_next() -> None:
    dests = rules.destinations(cell(3, 2), 24, LV)
    assert cell(3, 2) not in dests
    assert {d % LV for d in dests} == {0, 1, 2}
    assert len(dests) == 6 * 3 - 1
    assert {d % LV for d in rules.destinations(cell(1, 1), 24, LV)} == {0, 1}


def test_boat_stops_right_of_it_over_its_bathyscaphes() -> None:
    assert rules.boat_stops(-1, {0, 3}, 6) == [0, 3]
    assert rules.boat_stops(3, {0, 3, 5}, 6) == [5]
    assert rules.boat_stops(5, {5}, 6) == []


def test_storing_scoring_and_the_end() -> None:
    board = [-1] * 12
    board[0] = 0  # type 0 of colour 0
    assert rules.stores_on_board(board, 7, 60, 5)  # type 1: new
    assert not rules.stores_on_board(board, 3, 60, 5)  # type 0 again: a duplicate
    assert not rules.stores_on_board(board, 62, 60, 5)  # a shell
    assert rules.score(board, 2, 9) == (1, 2, 9)
    assert rules.score(board, 2, 9) > rules.score(board, 1, 20)
    cells: list[list[int]] = [[] for _ in range(24)]
    cells[cell(2, 4)] = [61, 12]
    assert rules.column_treasures(cells, 1, LV, 60) == 1
    assert rules.column_treasures(cells, 0, LV, 60) == 0
    end = rules.end_after_collection
    assert (
        end(board_full=True, treasure_taken=True, column_left=0, paid_with_card=True, cards_left=0)
        == "twelve_treasures"
    )
    assert (
        end(board_full=False, treasure_taken=True, column_left=0, paid_with_card=True, cards_left=0)
        == "column_emptied"
    )
    assert (
        end(
            board_full=False, treasure_taken=False, column_left=0, paid_with_card=True, cards_left=0
        )
        == "cards_exhausted"
    )
    assert (
        end(
            board_full=False, treasure_taken=True, column_left=1, paid_with_card=False, cards_left=0
        )
        is None
    )


def test_the_engine_collects_by_the_same_rules() -> None:
    """At random positions, every card collection the engine offers is one ``can_pay_card``
    allows, and every one it allows under the boat is offered."""
    g = Submarine(players=4)
    checked = 0
    for seed in range(4):
        st = g.new_state(seed)
        rng = Rng(seed)
        while not st.is_terminal():
            ids = st.legal_action_ids()
            if st.phase == Phase.ACT:
                v = st.observe(st.seat)
                s = v.active
                hand = v.hands[s]
                assert hand is not None
                offered = {
                    g.actions[a].token
                    for a in ids
                    if g.actions[a].kind == Kind.COLLECT and g.actions[a].pay < 0
                }
                cells = {v.acting_cell()} | {v.bathyscaphes[s][i] for i in v.idle()}
                cells.discard(-1)
                allowed = {
                    t
                    for c in cells
                    for t in v.cells[c]
                    if rules.can_pay_card(
                        hand, t % 5, v.pile_sizes[s], rules.toll_count(v.bathyscaphes, s, c, LV)
                    )
                }
                assert offered == allowed
                checked += 1
            st.apply_unchecked(ids[rng.below(len(ids))])
    assert checked > 50
