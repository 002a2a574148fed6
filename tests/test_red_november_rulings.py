"""One test per ruling of RULINGS.md (Red November): each pins a choice the books leave open."""

from __future__ import annotations

import pytest

from subtable.core.errors import IllegalActionError
from subtable.games.red_november import RedNovember, RedNovemberState
from subtable.games.red_november.components import SEA
from subtable.games.red_november.view import Phase


class Dice:
    """A scripted generator: ``die()`` returns the given rolls in order."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)
        self.state = 0

    def die(self, sides: int = 10) -> int:
        return self.rolls.pop(0)

    def below(self, n: int) -> int:
        return 0

    def shuffle(self, seq: list) -> None:
        pass

    def clone(self) -> Dice:
        return Dice(*self.rolls)


def table(players: int = 4, **options) -> RedNovemberState:
    """A quiet board: every gnome in room 5 with no items, gnome 1 to act on 60."""
    s = RedNovember(players=players, **options).new_state(0)
    c = s.c
    for g in range(s.n):
        s.room[g] = 5
        s.hands[g] = [0] * len(c.items)
        s.keeper[g] = 60 - g
        s.seq[g] = g
    s.event_deck = [i for i, e in enumerate(c.events) if e.kind == "respite"] * 3
    return turn(s, 0, 60)


def turn(s: RedNovemberState, g: int, keeper: int, ghost: int | None = None) -> RedNovemberState:
    """Make it gnome ``g``'s movement phase with his keeper on ``keeper``."""
    s.active = s.decider = g
    s.keeper[g] = keeper
    s.ghost = keeper if ghost is None else ghost
    s._reset_turn_flags()
    s.t_outside = s.room[g] == SEA
    s._legal = None
    return s


def give(s: RedNovemberState, g: int, *items: str) -> None:
    for item in items:
        s.hands[g][s.c.item_index(item)] += 1
    s._legal = None


def card(s: RedNovemberState, kind: str) -> int:
    return next(i for i, e in enumerate(s.c.events) if e.kind == kind)


def legal(s: RedNovemberState) -> list[str]:
    return [a.notation() for a in s.legal_actions()]


def keys(events) -> list[str]:
    return [e.key for e in events]


def test_exterior_passage_costs_one_minute_whatever_the_water() -> None:
    s = table()
    s.room[0] = SEA
    s.water[3] = 1
    turn(s, 0, 30)
    s.apply("move 3")
    assert s.room[0] == 3 and s.ghost == 28  # open 1 + through the exterior hatch 1


def test_destruction_token_on_rescued_space_is_not_placed() -> None:
    s = table()
    for g in range(1, 4):
        s.keeper[g] = 0
    s.event_deck.append(card(s, "kraken"))
    turn(s, 0, 16)
    events = s.apply("no-action")  # keeper 16 -> 15: the Kraken drawn on 15 would land on 0
    assert "destruction_avoided" in keys(events)
    assert s.token[s.c.tokens.index("kraken")] == -1


def test_fainted_gnome_cannot_trade() -> None:
    s = table()
    s.fainted[1] = True
    turn(s, 0, 60)
    assert "trade g2" not in legal(s) and "trade g3" in legal(s)
    with pytest.raises(IllegalActionError) as info:
        s.apply("trade g2")
    assert info.value.code == "partner_fainted"


def test_no_trading_in_the_sea() -> None:
    """RN-23: "A gnome in the same room as another gnome may Trade Item Cards" — and the Sea
    is "an eleventh space", not a room."""
    s = table()
    s.room[0] = s.room[1] = SEA
    give(s, 1, "toolbox")
    turn(s, 0, 60)
    assert not [a for a in legal(s) if a.startswith("trade")]
    assert "no-action" in legal(s)  # he may still act (or rather wait) out there
    before = s.to_json()
    with pytest.raises(IllegalActionError) as info:
        s.apply("trade g2")
    assert info.value.code == "trade_in_sea" and "Sea" in str(info.value)
    assert s.to_json() == before  # the refused action changed nothing
    s.room[0] = s.room[1] = 6  # the same two gnomes aboard, in one room: they may trade
    turn(s, 0, 60)
    assert "trade g2" in legal(s)


def test_no_attacking_in_the_sea() -> None:
    """RN-23: Attack Gnome needs the same words, "in the same room as another gnome"."""
    s = table(crazed_gnomes=True)
    give(s, 0, "crowbar")
    s.room[0] = s.room[1] = SEA
    turn(s, 0, 60)
    s.apply("use crowbar")
    assert not [a for a in legal(s) if a.startswith("attack")]
    before = s.to_json()
    with pytest.raises(IllegalActionError) as info:
        s.apply("attack g2")
    assert info.value.code == "attack_in_sea" and "Sea" in str(info.value)
    assert s.to_json() == before
    s.room[0] = s.room[1] = 6
    turn(s, 0, 60)
    give(s, 0, "crowbar")
    s.apply("use crowbar")
    assert "attack g2" in legal(s)


def test_fainted_gnome_cannot_defend() -> None:
    s = table(crazed_gnomes=True)
    give(s, 0, "crowbar")
    give(s, 1, "crowbar", "toolbox")
    s.fainted[1] = True
    s.apply("use crowbar")
    events = s.apply("attack g2")
    assert "attack_undefended" in keys(events)
    assert not s.alive[1] and s.hands[0][s.c.item_index("toolbox")] == 1


def test_no_minute_left_means_done() -> None:
    s = table()
    turn(s, 0, 30, ghost=1)
    s.apply("open 6")
    assert s.ghost == 0 and legal(s) == ["done"]
    events = s.apply("done")
    assert "no_time_for_action" in keys(events)


def test_forced_choice_resolves_itself() -> None:
    s = table()
    s.blocked[s.c.hatches.index((8, 10))] = True
    s.rng = Dice(10)  # the Blocked Hatch event rolls room 10: only 9-10 is left
    s.event_deck.append(card(s, "blocked_hatch"))
    turn(s, 0, 58)
    events = s.apply("no-action")  # 58 -> 57: one event icon
    assert "hatch_blocked" in keys(events)
    assert s.blocked[s.c.hatches.index((9, 10))]
    assert s.current_seat() != 0 or s.phase == 0  # no choice was asked


def test_after_the_action_only_coffee_and_lucky_charm() -> None:
    s = table()
    give(s, 0, "coffee", "toolbox", "lucky_charm")
    s.apply("no-action")
    assert legal(s) == ["use lucky-charm", "use coffee", "done"]


def test_coffee_sobers_by_two() -> None:
    s = table()
    give(s, 0, "coffee", "coffee")
    s.intox[0] = 3
    s.apply("use coffee")
    assert s.intox[0] == 1
    s.apply("use coffee")
    assert s.intox[0] == 0


def test_red_area_is_lifted_only_by_an_action_in_another_room() -> None:
    s = table()
    s.room[0] = 8
    turn(s, 0, 60)
    s.apply("draw 1")
    turn(s, 0, 50)
    s.apply("move 7")
    s.apply("move 8")
    with pytest.raises(IllegalActionError) as info:
        s.apply("draw 1")
    assert info.value.code == "red_area"
    turn(s, 0, 45)
    s.apply("move 7")
    s.apply("no-action")
    turn(s, 0, 40)
    s.apply("move 8")
    assert "draw 1" in legal(s)


def test_dead_gnomes_share_the_win() -> None:
    s = table(players=3)
    s._kill(1, "fire")
    s.keeper[2] = 0
    turn(s, 0, 1)
    s.apply("no-action")
    assert s.outcome().reason == "rescued"
    assert s.returns() == [1.0, 1.0, 1.0]


def test_crew_lost_when_the_last_gnome_swims_away() -> None:
    s = table(players=3)
    s._kill(1, "fire")
    s._kill(2, "fire")
    s.room[0] = SEA
    turn(s, 0, 8)
    s.apply("abandon")
    assert s.outcome().reason == "crew_lost"
    assert s.returns() == [1.0, 0.0, 0.0]


def test_respite_drawn_for_a_faint_check_leaves_the_game_under_greater_challenge() -> None:
    s = table(greater_challenge=1)
    give(s, 0, "grog")
    respite = s.event_deck[-1]
    s.apply("use grog")
    s.apply("no-action")
    assert respite in s.event_removed and respite not in s.event_discard


@pytest.mark.parametrize(
    ("players", "gnomes", "events"), [(2, 4, 2), (1, 3, 1), (1, 6, 1), (5, 5, 5)]
)
def test_events_before_the_first_turn_are_one_per_player(
    players: int, gnomes: int, events: int
) -> None:
    """RN-12: "a number of Event Cards equal to the number of players", not of gnomes."""
    game = RedNovember(players=players, gnomes=gnomes, greater_challenge=2)
    for seed in range(20):
        s = game.new_state(seed)
        drawn = [e for e in s.opening_events if e.key == "event_drawn"]
        while s.phase == Phase.EVENT_CHOICE:  # a choice interrupted the pregame: finish it
            drawn += [e for e in s.apply(s.legal_action_ids()[0]) if e.key == "event_drawn"]
        if s.is_terminal():
            continue
        assert len(drawn) == events
        assert len(s.event_discard) + len(s.event_removed) == events
        assert s.turn == 1


def test_events_before_the_first_turn_count_from_the_starting_space() -> None:
    game = RedNovember(players=3, greater_challenge=2)
    for seed in range(200):
        s = game.new_state(seed)
        drawn = [e for e in s.opening_events if e.key == "event_drawn"]
        assert len(drawn) == 3 and all(e.params["space"] == 60 for e in drawn)
        placed = [e for e in s.opening_events if e.key == "destruction_placed"]
        if placed:
            assert placed[0].params["space"] in (50, 45)
            return
    pytest.fail("no seed drew a timed event before the first turn")


def test_less_deadly_dying_active_replacement_keeps_the_updates() -> None:
    s = table(less_deadly_dying=True)
    s.water[5] = 2
    s.rng = Dice(3)  # the replacement gnome's room
    s.event_deck.append(card(s, "descent"))
    turn(s, 0, 58)
    events = s.apply("no-action")
    assert keys(events)[:3] == ["no_action", "gnome_killed", "gnome_replaced"]
    assert "event_drawn" in keys(events)  # the Updates went on
    assert s.alive[0] and s.room[0] == 3 and s.keeper[0] == 57


def test_heroic_sacrifice_needs_entering_a_burning_room() -> None:
    s = table(heroic_sacrifice=True)
    s.room[0] = 2
    s.fire[1] = True
    give(s, 0, "grog", "grog")
    s.apply("use grog")
    s.apply("move 1")
    assert "fix-engine 3" in legal(s) and "draw 1" not in legal(s)
    s.rng = Dice(1)
    events = s.apply("fix-engine 3")
    killed = [e for e in events if e.key == "gnome_killed"]
    assert killed and killed[0].params["cause"] == "heroic_sacrifice"
    s2 = table(heroic_sacrifice=True)
    s2.room[0] = 1
    s2.fire[1] = True
    give(s2, 0, "grog")
    s2.apply("use grog")
    assert all(a.startswith(("extinguish", "move", "open", "use")) for a in legal(s2))


def test_house_rule_is_off_by_default() -> None:
    s = table()
    s.room[0] = 2
    s.fire[1] = True
    give(s, 0, "grog")
    s.apply("use grog")
    s.apply("move 1")
    assert not any(a.startswith("fix-engine") for a in legal(s))


def test_turbulence_discards_go_round_from_the_active_gnome() -> None:
    s = table()
    give(s, 0, *["grog"] * 6)
    give(s, 2, "grog", "toolbox", "crowbar", "pump_manual", "harpoon")
    s.event_deck.append(card(s, "turbulence"))
    turn(s, 2, 58)
    s.apply("no-action")
    assert s.phase == 6 and s.current_seat() == 2
    s.apply("discard harpoon")
    assert s.current_seat() == 0  # gnome 1's six identical cards: forced discards
    assert s.hand_size(2) == 4


def test_passing_a_token_is_checked_before_the_icons_of_the_space() -> None:
    s = table(players=3)
    s.keeper[1] = s.keeper[2] = 20
    s.token[s.c.tokens.index("crushed")] = 31
    deck_before = len(s.event_deck)
    turn(s, 0, 32)
    s.apply("open 6")
    events = s.apply("no-action")  # 32 -> 31 (on the token) -> 30 (past it, and an icon)
    assert s.outcome().reason == "crushed"
    assert len(s.event_deck) == deck_before  # the icon on 30 was never reached
    assert "event_drawn" not in keys(events)


def test_a_room_fix_needs_no_problem_to_fix() -> None:
    s = table()
    s.room[0] = 7
    turn(s, 0, 60)
    assert "stop-missiles 4" in legal(s)


def test_extra_move_may_use_grog_to_get_out() -> None:
    s = table()
    s.room[0] = 10
    for r in (8, 9, 10):
        s.fire[r] = True
    give(s, 0, "grog")
    s.rng = Dice(10)
    turn(s, 0, 60)
    s.apply("extinguish 1")
    assert legal(s) == ["use grog"]
    s.apply("use grog")
    assert legal(s) == ["move 8", "move 9"]  # leaving, never staying


def test_no_way_out_after_a_failed_extinguish_kills() -> None:
    s = table()
    s.room[0] = 10
    for r in (8, 9, 10):
        s.fire[r] = True
    s.rng = Dice(10)
    events = s.apply("extinguish 1")
    assert ("gnome_killed", "fire") in [(e.key, e.params.get("cause")) for e in events]


def test_two_players_hold_gnomes_one_two_and_three_four() -> None:
    assert RedNovember(players=2).seat_owners() == (0, 0, 1, 1)


@pytest.mark.parametrize("players, start", [(7, 50), (8, 45)])
def test_keepers_start_on_the_starting_space_and_skip_its_icon(players, start) -> None:
    s = table(players=players)
    for g in range(1, s.n):
        s.keeper[g] = 0
    deck, items = len(s.event_deck), s.hand_size(0)
    turn(s, 0, start)
    s.apply("no-action")  # start -> start - 1: the start space's own icon is not drawn
    assert s.keeper[0] == start - 1
    assert len(s.event_deck) == deck and s.hand_size(0) == items
    assert RedNovember(players=players).new_state(3).keeper == [start] * players


def test_abandoning_skips_the_faint_check() -> None:
    s = table()
    s.room[0] = SEA
    give(s, 0, "grog")
    turn(s, 0, 8)
    deck = len(s.event_deck)
    s.apply("use grog")
    events = s.apply("abandon")
    assert "faint_check" not in keys(events) and len(s.event_deck) == deck
    assert s.abandoned[0] and s.keeper[0] == -1


def test_an_event_in_progress_finishes_after_the_active_gnome_dies() -> None:
    s = table()
    s.room[0] = 4
    give(s, 1, *["grog"] * 5)
    s.rng = Dice(4, 9)  # Friendly Fire: fire in room 4 (the fainted active gnome's), leak in 9
    s.event_deck.append(card(s, "friendly_fire"))
    turn(s, 0, 58)
    s.fainted[0] = True  # as if he had fainted this turn
    events = s.apply("no-action")
    order = keys(events)
    assert order.index("gnome_killed") < order.index("room_flooded")
    assert s.water[9] == 2 and s.hand_size(1) == 4  # the leak and the discards still happen
