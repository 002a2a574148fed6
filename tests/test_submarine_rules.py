"""Submarine: one scenario test per rule and per ruling (see the SUB entries of RULINGS.md).

Scenarios are built with :func:`blank`: a real state from ``new_state(seed)``
whose fields are then overwritten — an empty sea with one filler treasure at
level 4 of every column (so that no column empties by accident), no
bathyscaphes, cards or jokers, every boat off the left edge and seat 0 about to
move its boat. A test places what it needs with the small helpers below
(``cell``, ``tok``, ``give_hand``, ``set_pile``), then calls ``st.refresh()``,
which recomputes the legal actions and plays any forced decision.
"""

from __future__ import annotations

import json

import pytest

from subtable.core.errors import IllegalActionError, OptionError
from subtable.core.events import Event
from subtable.core.game import Outcome
from subtable.core.registry import make_game
from subtable.games.submarine import Submarine, SubmarineState
from subtable.games.submarine.state import P_ACT, P_BOAT, P_GIVE, P_OVER, P_PLACE, P_SWAP, P_TO

COLOURS = ("red", "yellow", "green", "blue", "purple")
FILLERS = ("sword-red", "sword-yellow", "sword-green", "sword-blue", "sword-purple", "statue-red")

_GAMES: dict[int, Submarine] = {}


def game(players: int = 3) -> Submarine:
    """One game object per player count (building the action space takes a moment)."""
    if players not in _GAMES:
        _GAMES[players] = Submarine(players=players)
    return _GAMES[players]


def tok(name: str) -> int:
    """The token id of ``crown-red`` / ``joker-blue``."""
    return game().token_names.index(name)


def cell(column: int, level: int) -> int:
    """The cell index of a 1-based column and level."""
    return (column - 1) * 4 + (level - 1)


def blank(players: int = 3, seed: int = 0) -> SubmarineState:
    """An empty sea (fillers at level 4), nothing in hand; seat 0 moves its boat."""
    st = game(players).new_state(seed)
    n = players
    st.cells = [[] for _ in range(24)]
    for col, name in enumerate(FILLERS, start=1):
        st.cells[cell(col, 4)] = [tok(name)]
    st.baths = [[] for _ in range(n)]
    st.hand = [[0] * 5 for _ in range(n)]
    st.pile = [[] for _ in range(n)]
    st.spare = [[] for _ in range(n)]
    st.owned = [[-1] * 12 for _ in range(n)]
    st.boat = [-1] * n
    st.discard = [0] * 5
    st.seat = 0
    st.first = 0
    st.turn = 1
    st.to_place = 0
    st.phase = P_BOAT
    st.column = st.acting = st.moving = -1
    st.acted = 0
    st.history = []
    return st


def give_hand(st: SubmarineState, seat: int, *colours: str) -> None:
    """Set ``seat``'s hand to these cards."""
    st.hand[seat] = [0] * 5
    for c in colours:
        st.hand[seat][COLOURS.index(c)] += 1


def set_pile(st: SubmarineState, seat: int, *colours: str) -> None:
    """Set ``seat``'s draw pile, listed from the bottom to the top card."""
    st.pile[seat] = [COLOURS.index(c) for c in colours]


def hand_of(st: SubmarineState, seat: int) -> dict[str, int]:
    return {COLOURS[i]: k for i, k in enumerate(st.hand[seat]) if k}


def pile_of(st: SubmarineState, seat: int) -> list[str]:
    return [COLOURS[c] for c in st.pile[seat]]


def legal(st: SubmarineState) -> list[str]:
    return [a.notation() for a in st.legal_actions()]


def play(st: SubmarineState, *moves: str) -> list[Event]:
    """Apply moves with full checks; return the events of the last one."""
    events: list[Event] = []
    for m in moves:
        events = st.apply(m)
    return events


def keys(events: list[Event]) -> list[str]:
    return [e.key for e in events]


def cards_for_everyone(st: SubmarineState) -> None:
    """Give every seat a full hand and pile (so no game ends for lack of cards)."""
    for s in range(st.n):
        give_hand(st, s, "purple", "purple", "purple")
        set_pile(st, s, "purple", "purple", "purple")


def result(st: SubmarineState) -> Outcome:
    """The outcome of a finished game."""
    out = st.outcome()
    assert out is not None
    return out


def owned_names(st: SubmarineState, seat: int) -> list[str]:
    return sorted(st.names[t] for t in st.owned[seat] if t >= 0)


def spare_names(st: SubmarineState, seat: int) -> list[str]:
    return sorted(st.names[t] for t in st.spare[seat])


def at_column(st: SubmarineState, column: int) -> None:
    """Move seat 0's boat over ``column`` (a checked action)."""
    st.refresh()
    st.apply(f"boat {column}")


# ------------------------------------------------------------------ setup --
@pytest.mark.parametrize(
    ("players", "baths", "cards"), [(2, 5, 15), (3, 5, 15), (4, 4, 13), (5, 3, 12)]
)
def test_setup_cards_and_bathyscaphes_by_player_count(players: int, baths: int, cards: int) -> None:
    st = game(players).new_state(11)
    needed = players * cards
    keep = -(-needed // 5)
    for s in range(players):
        assert sum(st.hand[s]) == 3
        assert st.cards_held(s) == cards
    for colour in range(5):  # an equal number of each colour kept, the rest boxed
        in_play = sum(st.hand[s][colour] + st.pile[s].count(colour) for s in range(players))
        assert in_play <= keep
        assert in_play + st.box_cards[colour] == 12
    assert sum(st.box_cards) == 60 - needed
    assert st.to_place == players * baths
    assert st.phase == P_PLACE


def test_setup_treasures_fill_the_sea_by_level() -> None:
    st = game(3).new_state(5)
    seen = []
    for col in range(1, 7):
        for lv in range(1, 5):
            assert len(st.cells[cell(col, lv)]) == lv
            seen.extend(st.cells[cell(col, lv)])
    assert sorted(seen) == list(range(60))  # every treasure once, no joker in the sea


def test_setup_one_joker_each_rest_in_the_box() -> None:
    for players in (2, 3, 4, 5):
        st = game(players).new_state(9)
        assert all(len(st.spare[s]) == 1 and st.spare[s][0] >= 60 for s in range(players))
        assert sorted([st.spare[s][0] for s in range(players)] + st.box_tokens) == list(
            range(60, 65)
        )
    # "la couleur importe peu": which coloured shell a seat gets is left to chance
    assert len({game(2).new_state(seed).spare[0][0] for seed in range(30)}) == 5


def test_setup_first_player_is_random() -> None:
    firsts = {game(4).new_state(seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}


def test_placement_one_at_a_time_clockwise_then_first_player_starts() -> None:
    st = game(3).new_state(21)
    first = st.first
    order = []
    while st.phase == P_PLACE:
        order.append(st.current_seat())
        assert legal(st) == [f"place {c}" for c in range(1, 7)]
        st.apply("place 2")  # several bathyscaphes may share a cell
    assert order == [(first + k) % 3 for k in range(15)]
    assert all(b == [cell(2, 1)] * 5 for b in st.baths)
    assert st.current_seat() == first and st.phase == P_BOAT and st.turn == 1


# ------------------------------------------------------------------- boat --
def test_boat_stops_only_over_a_column_with_own_bathyscaphe() -> None:
    st = blank()
    st.baths[0] = [cell(2, 1), cell(5, 4)]  # any level counts
    st.baths[1] = [cell(3, 1)]  # an opponent's does not
    st.refresh()
    assert legal(st) == ["boat 2", "boat 5", "boat off"]


def test_boat_moves_right_only() -> None:
    st = blank()
    st.baths[0] = [cell(2, 1), cell(3, 1), cell(5, 1)]
    st.boat[0] = 2  # over column 3
    st.refresh()
    assert legal(st) == ["boat 5", "boat off"]
    with pytest.raises(IllegalActionError) as err:
        st.apply("boat 2")
    assert err.value.code == "boat_backwards"
    with pytest.raises(IllegalActionError) as err:
        st.apply("boat 4")
    assert err.value.code == "no_bathyscaphe"


def test_boat_may_leave_even_when_it_could_stop() -> None:
    st = blank()
    st.baths[0] = [cell(1, 1)]
    give_hand(st, 0, "red")
    set_pile(st, 0, "blue")
    st.refresh()
    events = play(st, "boat off")
    assert "boat_left_board" in keys(events)
    assert st.boat[0] == 6 and st.phase == P_SWAP


def test_boat_with_no_stop_ahead_goes_off_automatically() -> None:
    st = blank()
    st.baths[0] = [cell(2, 1)]
    st.boat[0] = 3  # column 4: nothing of seat 0 to the right
    cards_for_everyone(st)
    st.refresh()
    # boat off is forced and played at once; the swap is then a real decision
    assert st.boat[0] == 6 and st.phase == P_SWAP and st.history == []
    assert legal(st) == ["swap purple", "no-swap"]


# ----------------------------------------------------------- bathyscaphes --
def test_only_bathyscaphes_under_the_boat_act_each_once() -> None:
    st = blank()
    cards_for_everyone(st)
    st.baths[0] = [cell(2, 1), cell(2, 3), cell(4, 1)]
    at_column(st, 2)
    assert legal(st) == ["move l1", "move l3", "done"]
    play(st, "move l3", "to c6 l4")
    assert st.baths[0] == [cell(2, 1), cell(6, 4), cell(4, 1)]
    assert legal(st) == ["move l1", "done"]  # the moved one has acted
    play(st, "move l1", "to c2 l2")  # moving within the column: it has acted too
    assert st.current_seat() == 1  # nobody left to act: the turn is over


def test_move_any_column_same_level_or_one_up_or_down() -> None:
    st = blank()
    st.baths[0] = [cell(3, 2)]
    cards_for_everyone(st)
    at_column(st, 3)
    play(st, "move l2")
    assert st.phase == P_TO
    dests = legal(st)
    expected = [f"to c{c} l{lv}" for c in range(1, 7) for lv in (1, 2, 3) if (c, lv) != (3, 2)]
    assert dests == expected


def test_move_cannot_stay_in_place_or_skip_levels() -> None:
    st = blank()
    st.baths[0] = [cell(3, 2)]
    cards_for_everyone(st)
    at_column(st, 3)
    play(st, "move l2")
    before = st.to_json()
    with pytest.raises(IllegalActionError) as err:
        st.apply("to c3 l2")
    assert err.value.code == "same_cell"
    with pytest.raises(IllegalActionError) as err:
        st.apply("to c1 l4")
    assert err.value.code == "too_deep"
    assert st.to_json() == before


def test_done_ends_the_turn_early_and_refills_the_hand() -> None:
    st = blank()
    st.baths[0] = [cell(1, 1), cell(1, 2)]
    st.cells[cell(1, 1)] = [tok("crown-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "purple", "purple")
    set_pile(st, 0, "blue", "green")
    at_column(st, 1)
    play(st, "collect crown-red with card")
    events = play(st, "done")
    assert keys(events)[:2] == ["actions_ended", "cards_drawn"]
    assert hand_of(st, 0) == {"purple": 2, "green": 1} and pile_of(st, 0) == ["blue"]
    assert st.current_seat() == 1


def test_refill_with_a_short_pile_continues_with_fewer_cards() -> None:
    st = blank()
    st.baths[0] = [cell(1, 1)]
    st.cells[cell(1, 1)] = [tok("crown-red"), tok("bell-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "red", "purple")
    set_pile(st, 0, "blue")
    at_column(st, 1)
    play(st, "collect crown-red with card", "collect bell-red with card")
    # nothing left to take: the turn ends by itself; one card was left to draw
    assert st.current_seat() == 1
    assert hand_of(st, 0) == {"purple": 1, "blue": 1} and st.pile[0] == []


def test_collect_several_treasures_in_one_action() -> None:
    st = blank()
    st.baths[0] = [cell(2, 3)]
    st.cells[cell(2, 3)] = [tok("crown-red"), tok("bell-blue"), tok("coin-green")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "blue", "purple")
    at_column(st, 2)
    play(st, "collect crown-red with card")
    assert st.phase == P_ACT and st.acting == 0
    play(st, "collect bell-blue with card")
    assert owned_names(st, 0) == ["bell-blue", "crown-red"]
    assert st.cells[cell(2, 3)] == [tok("coin-green")]


def test_a_collection_ends_when_another_bathyscaphe_acts() -> None:
    st = blank()
    st.baths[0] = [cell(2, 1), cell(2, 3)]
    st.cells[cell(2, 1)] = [tok("crown-red"), tok("bell-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "red", "purple")
    at_column(st, 2)
    play(st, "collect crown-red with card", "move l3", "to c5 l3")
    # the level-1 bathyscaphe has used its action: the bell stays there
    assert st.current_seat() == 1
    assert st.cells[cell(2, 1)] == [tok("bell-red")]


def test_two_bathyscaphes_in_one_cell_act_separately() -> None:
    st = blank()
    st.baths[0] = [cell(2, 2), cell(2, 2)]
    st.cells[cell(2, 2)] = [tok("crown-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "purple", "purple")
    at_column(st, 2)
    play(st, "collect crown-red with card")
    assert legal(st) == ["move l2", "done"]  # the second one may still move
    play(st, "move l2", "to c3 l2")
    assert sorted(st.baths[0]) == [cell(2, 2), cell(3, 2)]


# ---------------------------------------------------------------- payment --
def test_collect_with_a_card_of_the_treasure_colour() -> None:
    st = blank()
    st.baths[0] = [cell(1, 2)]
    st.cells[cell(1, 2)] = [tok("crown-red"), tok("bell-blue")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "purple", "purple")
    at_column(st, 1)
    assert "collect crown-red with card" in legal(st)
    assert "collect bell-blue with card" not in legal(st)
    events = play(st, "collect crown-red with card")
    collected = next(e for e in events if e.key == "treasure_collected")
    assert collected.params == {
        "seat": 0,
        "treasure": "crown",
        "colour": "red",
        "column": 1,
        "level": 2,
        "paid": "card",
        "joker": None,
        "toll": 0,
        "stored": "board",
    }
    assert st.discard[0] == 1 and st.hand[0][0] == 0


def test_unpayable_colour_refused_with_no_card() -> None:
    st = blank()
    st.baths[0] = [cell(1, 2)]
    st.cells[cell(1, 2)] = [tok("bell-blue"), tok("coin-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "purple", "purple")
    at_column(st, 1)
    before = st.to_json()
    with pytest.raises(IllegalActionError) as err:
        st.apply("collect bell-blue with card")
    assert err.value.code == "no_card"
    assert "no blue card" in err.value.message
    assert st.to_json() == before


def test_toll_one_card_per_opponent_bathyscaphe_at_same_or_shallower_level() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3), cell(3, 1)]  # own bathyscaphes never take a toll
    st.baths[1] = [cell(3, 3), cell(3, 1), cell(3, 4), cell(2, 1)]  # level 4 deeper; col 2 off
    st.baths[2] = [cell(3, 2)]
    st.cells[cell(3, 3)] = [tok("crown-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "purple", "purple")
    set_pile(st, 0, "blue", "green", "yellow", "red")
    assert st.toll_seats(0, cell(3, 3)) == [1, 1, 2]
    at_column(st, 3)
    events = play(st, "collect crown-red with card")
    given = [e for e in events if e.key == "card_given"]
    assert [(e.params["to"], e.params["source"], e.params["card"]) for e in given] == [
        (1, "pile", "red"),
        (1, "pile", "yellow"),
        (2, "pile", "green"),
    ]
    # cards from the pile go, unseen by all, on top of each receiver's pile
    assert pile_of(st, 0) == ["blue"]
    assert pile_of(st, 1)[-2:] == ["red", "yellow"] and pile_of(st, 2)[-1] == "green"
    assert given[0].for_seat(0).params.get("card") is None
    assert next(e for e in events if e.key == "treasure_collected").params["toll"] == 3


def test_toll_paid_from_the_hand_when_the_pile_is_short() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3), cell(3, 4)]  # the second keeps the turn open
    st.baths[1] = [cell(3, 1)]
    st.baths[2] = [cell(3, 2)]
    st.cells[cell(3, 3)] = [tok("crown-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "blue", "green")
    set_pile(st, 0, "yellow")
    at_column(st, 3)
    play(st, "collect crown-red with card")
    # the pile's card went to seat 1 (clockwise first); seat 2 waits for a hand card
    assert st.phase == P_GIVE and pile_of(st, 1)[-1] == "yellow"
    assert legal(st) == ["give green", "give blue"]
    events = play(st, "give blue")
    given = next(e for e in events if e.key == "card_given")
    assert given.params["source"] == "hand" and given.owners == (0,)
    assert given.for_seat(2).params.get("card") is None  # the receiver sees it only on drawing
    assert pile_of(st, 2)[-1] == "blue" and hand_of(st, 0) == {"green": 1}
    assert owned_names(st, 0) == ["crown-red"] and st.phase == P_ACT


def test_toll_from_a_single_coloured_hand_is_given_automatically() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.baths[1] = [cell(3, 1)]
    st.cells[cell(3, 3)] = [tok("crown-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "blue", "blue")
    set_pile(st, 0)
    at_column(st, 3)
    play(st, "collect crown-red with card")
    assert owned_names(st, 0) == ["crown-red"] and pile_of(st, 1)[-1] == "blue"


def test_unpayable_toll_refused() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.baths[1] = [cell(3, 1), cell(3, 2)]
    st.cells[cell(3, 3)] = [tok("crown-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "blue")
    set_pile(st, 0)
    at_column(st, 3)
    assert legal(st) == ["move l3", "done"]
    before = st.to_json()
    with pytest.raises(IllegalActionError) as err:
        st.apply("collect crown-red with card")
    assert err.value.code == "toll_unpayable"
    assert err.value.params == {"toll": 2, "have": 1}
    assert st.to_json() == before


def test_receiver_with_a_short_hand_draws_at_once() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.baths[1] = [cell(3, 1)]
    st.cells[cell(3, 3)] = [tok("crown-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "purple", "purple")
    set_pile(st, 0, "blue", "green")
    give_hand(st, 1, "yellow")
    set_pile(st, 1)  # seat 1 ran out of cards earlier
    at_column(st, 3)
    events = play(st, "collect crown-red with card")
    assert hand_of(st, 1) == {"yellow": 1, "green": 1} and st.pile[1] == []
    drawn = next(e for e in events if e.key == "cards_drawn" and e.params["seat"] == 1)
    assert drawn.owners == (1,) and drawn.for_seat(0).params.get("cards") is None


def test_receiver_with_a_full_hand_keeps_the_card_on_the_pile() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.baths[1] = [cell(3, 1)]
    st.cells[cell(3, 3)] = [tok("crown-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "purple", "purple")
    set_pile(st, 0, "blue", "green")
    at_column(st, 3)
    play(st, "collect crown-red with card")
    assert sum(st.hand[1]) == 3 and pile_of(st, 1) == ["purple"] * 3 + ["green"]


def test_joker_payment_takes_no_toll_and_the_joker_stays_in_the_cell() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.baths[1] = [cell(3, 1)]
    st.cells[cell(3, 3)] = [tok("crown-red")]
    st.spare[0] = [tok("joker-blue")]
    cards_for_everyone(st)
    at_column(st, 3)
    pile1 = list(st.pile[1])
    events = play(st, "collect crown-red with joker-blue")
    collected = next(e for e in events if e.key == "treasure_collected")
    assert collected.params["paid"] == "joker" and collected.params["joker"] == "joker-blue"
    assert collected.params["toll"] == 0 and st.pile[1] == pile1
    assert st.cells[cell(3, 3)] == [tok("joker-blue")] and st.spare[0] == []
    assert owned_names(st, 0) == ["crown-red"]


def test_joker_left_on_the_board_is_collected_like_a_treasure_of_its_colour() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.cells[cell(3, 3)] = [tok("joker-blue")]
    cards_for_everyone(st)
    give_hand(st, 0, "blue", "purple", "purple")
    at_column(st, 3)
    assert "collect joker-blue with card" in legal(st)
    events = play(st, "collect joker-blue with card")
    collected = next(e for e in events if e.key == "treasure_collected")
    assert collected.params["treasure"] == "joker" and collected.params["stored"] == "jokers"
    assert spare_names(st, 0) == ["joker-blue"] and st.discard[3] == 1


def test_joker_left_on_the_board_refused_without_its_colour() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.cells[cell(3, 3)] = [tok("joker-blue")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "purple", "purple")
    at_column(st, 3)
    with pytest.raises(IllegalActionError) as err:
        st.apply("collect joker-blue with card")
    assert err.value.code == "no_card"


def test_a_spent_joker_cannot_be_taken_back_with_a_joker_in_the_same_collection() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.cells[cell(3, 3)] = [tok("crown-red"), tok("bell-red")]
    st.spare[0] = [tok("joker-blue"), tok("joker-green")]
    cards_for_everyone(st)
    give_hand(st, 0, "blue", "purple", "purple")
    at_column(st, 3)
    play(st, "collect crown-red with joker-blue")
    assert st.placed == [tok("joker-blue")]
    now = legal(st)
    assert "collect joker-blue with joker-green" not in now  # the endless swap
    assert "collect bell-red with joker-green" in now  # the collection goes on
    before = st.to_json()
    with pytest.raises(IllegalActionError) as info:
        st.apply("collect joker-blue with joker-green")
    assert info.value.code == "just_put_down"
    assert "card" in info.value.message
    assert st.to_json() == before  # refused: nothing changed


def test_a_spent_joker_may_be_taken_back_with_a_card() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.cells[cell(3, 3)] = [tok("crown-red"), tok("bell-red")]
    st.spare[0] = [tok("joker-blue")]
    cards_for_everyone(st)
    give_hand(st, 0, "blue", "purple", "purple")
    at_column(st, 3)
    play(st, "collect crown-red with joker-blue")
    assert "collect joker-blue with card" in legal(st)
    events = play(st, "collect joker-blue with card")
    assert "card_paid" in keys(events)
    assert st.spare[0] == [tok("joker-blue")] and st.hand[0][COLOURS.index("blue")] == 0
    assert st.acting == 0 and st.acted == 1  # the same collection went on
    assert st.placed == []  # back beside the board: paid in again, it would be put down anew


def test_a_second_bathyscaphe_takes_the_spent_joker_at_once() -> None:
    """RULING SUB-15 is the same for every bathyscaphe: a second one in the cell begins
    its own collection and may take the joker, with a joker too; no third must act first."""
    st = blank()
    st.baths[0] = [cell(3, 3), cell(3, 3)]
    st.cells[cell(3, 3)] = [tok("crown-red")]
    st.spare[0] = [tok("joker-blue"), tok("joker-green")]
    cards_for_everyone(st)
    give_hand(st, 0, "blue", "green", "purple")
    at_column(st, 3)
    play(st, "collect crown-red with joker-blue")
    now = legal(st)
    assert "collect joker-blue with card" in now
    assert "collect joker-blue with joker-green" in now
    play(st, "collect joker-blue with joker-green")
    assert st.acted == 0b11 and st.acting == 1  # the second bathyscaphe collects now
    assert st.placed == [tok("joker-green")] and st.spare[0] == [tok("joker-blue")]
    # and it, in turn, may not take back its own joker with a joker
    assert "collect joker-green with joker-blue" not in legal(st)
    assert "collect joker-green with card" in legal(st)
    with pytest.raises(IllegalActionError) as info:
        st.apply("collect joker-green with joker-blue")
    assert info.value.code == "just_put_down"


def test_a_card_retake_keeps_the_second_bathyscaphe_idle() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3), cell(3, 3)]
    st.cells[cell(3, 3)] = [tok("crown-red")]
    st.spare[0] = [tok("joker-blue")]
    cards_for_everyone(st)
    give_hand(st, 0, "blue", "purple", "purple")
    at_column(st, 3)
    play(st, "collect crown-red with joker-blue", "collect joker-blue with card")
    assert st.acted == 0b01 and "move l3" in legal(st)


def test_duplicate_treasure_spent_as_joker_returns_as_that_treasure() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.cells[cell(3, 3)] = [tok("bell-red")]
    st.owned[0][5] = tok("crown-red")  # type 5 is the crown
    st.spare[0] = [tok("crown-green")]
    cards_for_everyone(st)
    at_column(st, 3)
    play(st, "collect bell-red with crown-green")
    assert st.cells[cell(3, 3)] == [tok("crown-green")]
    assert owned_names(st, 0) == ["bell-red", "crown-red"]
    # the crown is a plain green treasure again: seat 1 may take it with a green card
    st.seat = 1
    st.phase = P_BOAT
    st.boat = [-1, -1, -1]
    st.baths[1] = [cell(3, 3)]
    give_hand(st, 1, "green", "purple", "purple")
    st.refresh()
    play(st, "boat 3")
    assert "collect crown-green with card" in legal(st)


def test_storing_new_type_duplicate_and_shell() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.cells[cell(3, 3)] = [tok("crown-red"), tok("crown-blue"), tok("joker-green")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "blue", "green")
    set_pile(st, 0, "purple", "purple", "purple")
    at_column(st, 3)
    stored = []
    for m in (
        "collect crown-red with card",
        "collect crown-blue with card",
        "collect joker-green with card",
    ):
        stored += [e.params["stored"] for e in st.apply(m) if e.key == "treasure_collected"]
    assert stored == ["board", "jokers", "jokers"]
    assert owned_names(st, 0) == ["crown-red"]
    assert spare_names(st, 0) == ["crown-blue", "joker-green"]


def test_player_without_cards_still_plays() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3), cell(3, 1)]
    st.cells[cell(3, 3)] = [tok("crown-red")]
    st.spare[0] = [tok("joker-red")]
    cards_for_everyone(st)
    give_hand(st, 0)
    set_pile(st, 0)
    st.refresh()
    assert legal(st) == ["boat 3", "boat off"]
    play(st, "boat 3")
    assert legal(st) == ["move l1", "move l3", "collect crown-red with joker-red", "done"]
    play(st, "collect crown-red with joker-red", "move l1", "to c4 l1")
    assert owned_names(st, 0) == ["crown-red"] and st.current_seat() == 1


# --------------------------------------------------------------- off board --
def test_swap_puts_a_card_under_the_pile_and_draws_the_top() -> None:
    st = blank()
    st.baths[0] = [cell(1, 1)]
    st.boat = [6, -1, -1]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "blue", "blue")
    set_pile(st, 0, "green", "yellow")
    st.phase = P_SWAP
    st.refresh()
    assert legal(st) == ["swap red", "swap blue", "no-swap"]
    events = play(st, "swap red")
    assert hand_of(st, 0) == {"blue": 2, "yellow": 1}
    assert pile_of(st, 0) == ["red", "green"]  # the red card is now at the bottom
    swapped = next(e for e in events if e.key == "card_swapped")
    assert swapped.params == {"seat": 0, "card": "red", "drawn": "yellow"}
    assert swapped.for_seat(1).params == {"seat": 0}
    assert st.current_seat() == 1


def test_no_swap_keeps_the_hand() -> None:
    st = blank()
    st.baths[0] = [cell(1, 1)]
    st.boat = [6, -1, -1]
    cards_for_everyone(st)
    st.phase = P_SWAP
    st.refresh()
    hand = list(st.hand[0])
    play(st, "no-swap")
    assert st.hand[0] == hand and st.boat[0] == 6 and st.current_seat() == 1


def test_swap_needs_a_card_in_the_pile_else_the_turn_passes() -> None:
    st = blank()
    st.baths[0] = [cell(1, 1)]
    st.baths[1] = [cell(1, 1)]
    st.boat = [6, -1, -1]
    cards_for_everyone(st)
    set_pile(st, 0)
    st.phase = P_SWAP
    st.refresh()
    # no decision for seat 0: its waiting turn passed by itself
    assert st.current_seat() == 1 and st.history == []


def test_swap_allowed_on_the_turn_the_boat_leaves() -> None:
    st = blank()
    st.baths[0] = [cell(1, 1)]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "purple", "purple")
    st.refresh()
    play(st, "boat off")
    assert legal(st) == ["swap red", "swap purple", "no-swap"]


def test_a_boat_off_the_right_edge_stays_there_and_no_bathyscaphe_acts() -> None:
    st = blank()
    st.baths[0] = [cell(1, 1)]
    st.baths[1] = [cell(1, 1)]
    st.baths[2] = [cell(1, 1)]
    cards_for_everyone(st)
    st.boat = [6, -1, -1]
    st.phase = P_SWAP
    st.refresh()
    assert legal(st) == ["swap purple", "no-swap"]
    with pytest.raises(IllegalActionError) as err:
        st.apply("boat 1")
    assert err.value.code == "wrong_phase"


def test_boats_return_left_when_all_are_off() -> None:
    st = blank()
    for s in range(3):
        st.baths[s] = [cell(2, 1)]
    cards_for_everyone(st)
    st.boat = [6, 6, 2]
    st.seat = 2
    st.refresh()  # seat 2's boat is over column 3: leaving is forced
    assert st.phase == P_SWAP and st.seat == 2
    events = play(st, "no-swap")
    assert "boats_returned" in keys(events)
    assert st.boat == [-1, -1, -1] and st.current_seat() == 0
    assert legal(st) == ["boat 2", "boat off"]


def test_boats_stay_off_while_one_is_still_on_the_board() -> None:
    st = blank()
    for s in range(3):
        st.baths[s] = [cell(2, 1), cell(5, 1)]
    cards_for_everyone(st)
    st.boat = [6, -1, 1]
    st.seat = 1
    st.refresh()
    play(st, "boat off", "no-swap")
    assert st.boat == [6, 6, 1] and st.current_seat() == 2


# ------------------------------------------------------------------ the end --
def test_end_at_once_with_twelve_different_treasures() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3), cell(3, 1)]
    st.cells[cell(3, 3)] = [tok("sword-blue"), tok("coin-red")]
    st.cells[cell(3, 1)] = [tok("pearl-red")]
    for t in range(11):  # every type but the sword
        st.owned[0][t] = t * 5 + 1
    cards_for_everyone(st)
    give_hand(st, 0, "blue", "red", "red")
    at_column(st, 3)
    events = play(st, "collect sword-blue with card")
    assert st.is_terminal() and st.phase == P_OVER
    over = events[-1]
    assert over.key == "game_over" and over.params["reason"] == "twelve_treasures"
    # the rest of the turn is not played: the other bathyscaphe never acts
    assert st.cells[cell(3, 1)] == [tok("pearl-red")]
    assert result(st).reason == "twelve_treasures" and result(st).winners == (0,)
    assert st.returns() == [1.0, 0.0, 0.0] and st.legal_action_ids() == []


def test_end_when_the_last_treasure_of_a_column_is_taken() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.cells[cell(3, 4)] = [tok("joker-green")]  # jokers do not count
    st.cells[cell(3, 3)] = [tok("crown-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "purple", "purple")
    at_column(st, 3)
    play(st, "collect crown-red with card")
    assert result(st).reason == "column_emptied"
    assert result(st).details["ender"] == 0


def test_end_when_the_last_treasure_is_replaced_by_a_shell() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.cells[cell(3, 4)] = []
    st.cells[cell(3, 3)] = [tok("crown-red")]
    st.spare[0] = [tok("joker-red")]
    cards_for_everyone(st)
    at_column(st, 3)
    play(st, "collect crown-red with joker-red")
    assert result(st).reason == "column_emptied"


def test_column_not_emptied_when_a_duplicate_is_paid_back() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.cells[cell(3, 4)] = []
    st.cells[cell(3, 3)] = [tok("crown-red")]
    st.owned[0][2] = tok("bell-red")
    st.spare[0] = [tok("bell-green")]
    cards_for_everyone(st)
    at_column(st, 3)
    play(st, "collect crown-red with bell-green")
    assert not st.is_terminal()


def test_end_when_no_player_has_a_search_card_left() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.cells[cell(3, 3)] = [tok("crown-red"), tok("bell-red")]
    st.owned[1][0] = tok("amphora-red")
    give_hand(st, 0, "red")
    st.refresh()
    play(st, "boat 3", "collect crown-red with card")
    assert result(st).reason == "cards_exhausted"
    # both seats hold one treasure and no joker, no card: a shared win
    assert result(st).winners == (0, 1) and st.returns() == [1.0, 1.0, 0.0]


def test_no_end_while_one_player_still_holds_a_card() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.cells[cell(3, 3)] = [tok("crown-red"), tok("bell-red")]
    give_hand(st, 0, "red")
    set_pile(st, 2, "blue")
    st.refresh()
    play(st, "boat 3", "collect crown-red with card")
    assert not st.is_terminal()


def _finished(owned: list[int], jokers: list[int], cards: list[int]) -> SubmarineState:
    """A game about to end by emptying column 3 for seat 0, with given final standings."""
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.cells[cell(3, 4)] = []
    st.cells[cell(3, 3)] = [tok("sword-red")]
    for s in range(3):
        for t in range(owned[s]):  # green amphora, anchor, ...
            st.owned[s][t] = t * 5 + 2
        # duplicates used as jokers: helmets, pearls, shell-boxes (types 7-9), 5 per seat
        st.spare[s] = [35 + 5 * s + k for k in range(jokers[s])]
        st.pile[s] = [4] * cards[s]
    st.spare[0].append(tok("joker-red"))  # spent on the sword
    st.refresh()
    play(st, "boat 3", "collect sword-red with joker-red")
    assert result(st).reason == "column_emptied"
    return st


def test_ranking_most_different_treasures_wins() -> None:
    st = _finished(owned=[1, 4, 1], jokers=[4, 0, 0], cards=[9, 0, 0])
    assert [d["treasures"] for d in result(st).details["scores"]] == [2, 4, 1]
    assert result(st).winners == (1,) and st.returns() == [0.0, 1.0, 0.0]


def test_ranking_tie_broken_by_jokers() -> None:
    st = _finished(owned=[2, 3, 0], jokers=[0, 2, 0], cards=[0, 0, 9])
    # seat 0 took the sword (3 treasures) and spent its joker: 3/0 against 3/2
    assert result(st).winners == (1,)


def test_ranking_tie_broken_by_search_cards() -> None:
    st = _finished(owned=[2, 3, 0], jokers=[1, 1, 0], cards=[2, 5, 0])
    assert result(st).winners == (1,)


def test_ranking_full_tie_is_a_shared_win() -> None:
    st = _finished(owned=[2, 3, 3], jokers=[1, 1, 1], cards=[4, 4, 4])
    assert result(st).winners == (0, 1, 2) and st.returns() == [1.0, 1.0, 1.0]


# ------------------------------------------------------------ the interface --
def test_illegal_actions_are_rejected_with_specific_codes_and_no_change() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3)]
    st.baths[1] = [cell(4, 1)]
    st.cells[cell(3, 3)] = [tok("crown-red")]
    st.cells[cell(4, 1)] = [tok("bell-red")]
    cards_for_everyone(st)
    st.refresh()
    cases = {
        "place 1": "wrong_phase",
        "done": "wrong_phase",
        "swap purple": "wrong_phase",
        "boat 4": "no_bathyscaphe",
    }
    for text, code in cases.items():
        before = st.to_json()
        with pytest.raises(IllegalActionError) as err:
            st.apply(text)
        assert err.value.code == code, text
        assert st.to_json() == before
    play(st, "boat 3")
    cases = {
        "collect bell-red with card": "not_here",
        "collect crown-red with card": "no_card",
        "collect crown-red with joker-blue": "no_joker",
        "move l1": "no_bathyscaphe",
        "give red": "wrong_phase",
        "to c1 l1": "wrong_phase",
        "boat off": "wrong_phase",
    }
    for text, code in cases.items():
        before = st.to_json()
        with pytest.raises(IllegalActionError) as err:
            st.apply(text)
        assert err.value.code == code, text
        assert err.value.message
        assert st.to_json() == before
    with pytest.raises(IllegalActionError) as err:
        st.apply("done", seat=2)
    assert err.value.code == "not_your_turn"


def test_a_collection_cannot_resume_after_another_bathyscaphe_acted() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3), cell(3, 1), cell(3, 4)]
    st.cells[cell(3, 3)] = [tok("crown-red"), tok("bell-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "red", "purple")
    at_column(st, 3)
    play(st, "collect crown-red with card", "move l1")
    assert st.phase == P_TO
    play(st, "to c2 l1")
    assert legal(st) == ["move l4", "done"]
    before = st.to_json()
    with pytest.raises(IllegalActionError) as err:
        st.apply("collect bell-red with card")
    assert err.value.code == "already_acted"
    assert st.to_json() == before


def test_already_acted_code() -> None:
    st = blank()
    st.baths[0] = [cell(3, 3), cell(3, 1)]
    st.cells[cell(3, 3)] = [tok("crown-red")]
    cards_for_everyone(st)
    give_hand(st, 0, "red", "purple", "purple")
    at_column(st, 3)
    play(st, "move l3", "to c3 l2")
    with pytest.raises(IllegalActionError) as err:
        st.apply("move l2")
    assert err.value.code == "already_acted"


def test_view_hides_other_hands_and_every_pile() -> None:
    st = game(3).new_state(4)
    while st.phase == P_PLACE:
        st.apply(st.legal_action_ids()[0])
    other = st.clone()
    other.hand[1] = [3, 0, 0, 0, 0] if other.hand[1] != [3, 0, 0, 0, 0] else [0, 3, 0, 0, 0]
    other.pile[1] = list(reversed(other.pile[1]))
    other.pile[0] = list(reversed(other.pile[0]))  # own pile order is private too
    assert other.view(0) == st.view(0) and other.view(None) == st.view(None)
    assert st.view(1) != other.view(1)
    v = st.view(0)
    json.dumps(v)
    assert v["players"][0]["hand"] is not None
    assert v["players"][1]["hand"] is None and v["players"][1]["pile_size"] == len(st.pile[1])
    assert all(p["hand"] is None for p in st.view(None)["players"])
    decider = st.current_seat()
    assert decider is not None
    assert "legal" in st.view(decider) and "legal" not in st.view((decider + 1) % 3)
    assert "legal" not in st.view(None)


def test_action_ids_do_not_depend_on_the_player_count() -> None:
    spaces = [[a.notation() for a in game(n).action_space] for n in (2, 3, 4, 5)]
    assert all(s == spaces[0] for s in spaces)
    assert spaces[0][:3] == ["place 1", "place 2", "place 3"]


def test_options_and_registry() -> None:
    assert make_game("submarine").num_seats == 3
    assert make_game("submarine", players=5).info.ruleset == "submarine/2004-fr.2"
    with pytest.raises(OptionError):
        Submarine(players=6)
    with pytest.raises(OptionError):
        Submarine(players=1)


def test_state_json_round_trip() -> None:
    st = game(4).new_state(8)
    for _ in range(40):
        st.apply(st.legal_action_ids()[-1])
    data = json.loads(json.dumps(st.to_json()))
    back = game(4).state_from_json(data)
    assert back.to_json() == st.to_json() and back.legal_action_ids() == st.legal_action_ids()
    with pytest.raises(ValueError):
        game(4).state_from_json({"seed": 1})
    with pytest.raises(ValueError):
        game(3).state_from_json(data)
