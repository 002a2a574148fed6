"""One test per ruling of RULINGS.md (Red November): each pins a choice the books leave open."""

from __future__ import annotations

import dataclasses

import pytest

from rn_scenarios import illegal_code, rng_with_dice
from subtable.core.errors import IllegalActionError, RecordError
from subtable.core.record import GameRecord, replay
from subtable.games.red_november import RedNovember, RedNovemberState
from subtable.games.red_november.components import SEA
from subtable.games.red_november.saved import S_TURN_START
from subtable.games.red_november.view import Phase
from subtable.i18n import translator
from subtable.words import game_ui


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


# -- RN-14: the heroic sacrifice (FAQ house rule) ---------------------------------------------
def position(
    *,
    rooms: dict[int, int],
    fire: tuple[int, ...] = (),
    high: tuple[int, ...] = (),
    blocked: tuple[tuple[int, int], ...] = (),
    hands: dict[int, tuple[str, ...]] | None = None,
    deck_top: tuple[str, ...] = (),
    tokens: dict[str, int] | None = None,
    rolls: tuple[int, ...] = (),
    ghost: int = 40,
    **options: object,
) -> RedNovemberState:
    """Gnome 1's Movement phase (his keeper on 40, the others' on 30), built through the saved
    form, which the engine checks as it would a saved game.

    ``rooms`` places gnomes (the others stand in room 5); hands are dealt from the item deck
    and ``deck_top`` comes off it first; the Respites lie on top of the event deck; the
    generator's first dice are ``rolls``.
    """
    game = RedNovember(players=4, **options)
    c = game.components
    n = game.num_seats
    data = game.new_state(0).to_json()
    data["fire"] = [r in fire for r in range(SEA + 1)]
    data["water"] = [2 if r in high else 0 for r in range(SEA + 1)]
    data["blocked"] = [h in blocked for h in c.hatches]
    data["room"] = [rooms.get(g, 5) for g in range(n)]
    deck = list(data["item_deck"])
    for hand in data["hands"]:
        deck += [i for i, k in enumerate(hand) for _ in range(k)]
    data["hands"] = [[0] * len(c.items) for _ in range(n)]
    for g, kinds in (hands or {}).items():
        for kind in kinds:
            deck.remove(c.item_index(kind))
            data["hands"][g][c.item_index(kind)] += 1
    for kind in reversed(deck_top):
        deck.remove(c.item_index(kind))
        deck.append(c.item_index(kind))
    data["item_deck"] = deck
    events = data["event_deck"] + data["event_discard"]
    respites = [i for i in events if c.events[i].kind == "respite"]
    data["event_deck"] = [i for i in events if i not in respites] + respites
    data["event_discard"] = []
    data["token"] = [(tokens or {}).get(name, -1) for name in c.tokens]
    data["keeper"] = [40 if g == 0 else 30 for g in range(n)]
    data["seq"] = [n if g == 0 else g for g in range(n)]
    data["seq_next"] = n + 1
    data.update(turn=1, active=0, decider=0, ghost=ghost, phase=int(Phase.MOVE), stage=0)
    data.update(resume=S_TURN_START, partner=-1, choice=0, history=[])
    data.update(t_grog=0, t_lucky=0, t_bonus=[0] * len(data["t_bonus"]))
    for flag in ("t_fire_ok", "t_aqualung", "t_crowbar", "t_outside", "t_entered_fire"):
        data[flag] = False
    if rolls:
        data["rng"] = rng_with_dice(rolls).state
    return game.state_from_json(data)


def enter(s: RedNovemberState, room: int) -> None:
    """Gnome 1 uses his Fire Extinguisher and walks into the burning ``room``."""
    s.apply("use fire-extinguisher")
    s.apply(f"move {room}")
    assert s.room[0] == room and s.fire[room] and s.view(0)["this_turn"]["entered_fire"]


def deaths(events) -> list[tuple[int, str]]:
    return [(e.params["gnome"], e.params["cause"]) for e in events if e.key == "gnome_killed"]


#: one case per kind of action: (the actions, the burning room, the room he comes from, the
#: other gnome's room and items, options); the first action is the one the rules judge
ACTION_CASES = {
    "room fix-it": (("stop-missiles 3",), 7, 5, None, {}),
    "draw in the Equipment Stores": (("draw 2",), 8, 5, None, {}),
    "draw in the Captain's Cabin": (("draw 2",), 10, 9, None, {}),
    "trade": (("trade g2", "done", "done"), 8, 5, (8, ("toolbox",)), {}),
    "attack gnome": (("attack g2",), 8, 5, (8, ("toolbox",)), {"crazed_gnomes": True}),
    "no action": (("no-action",), 8, 5, None, {}),
}


def action_case(name: str, heroic: bool, *, entered: bool = True) -> RedNovemberState:
    _, burning, start, other, options = ACTION_CASES[name]
    rooms = {0: start if entered else burning}
    hands: dict[int, tuple[str, ...]] = {0: ("fire_extinguisher", "crowbar")}
    if other is not None:
        rooms[1], hands[1] = other
    s = position(
        rooms=rooms,
        fire=(burning,),
        hands=hands,
        tokens={"missiles": 35},
        heroic_sacrifice=heroic,
        **options,
    )
    if entered:
        enter(s, burning)
    if options.get("crazed_gnomes"):
        s.apply("use crowbar")
    return s


@pytest.mark.parametrize("name", ACTION_CASES)
def test_without_the_house_rule_a_burning_room_allows_only_extinguish_fire(name: str) -> None:
    """Rulebook: "If a gnome is in a room that is on fire, the only action he can attempt is
    Extinguish Fire." The house rule is off by default."""
    s = action_case(name, heroic=False)
    first = ACTION_CASES[name][0][0]
    actions = [a for a in legal(s) if not a.startswith(("move", "open", "use"))]
    assert actions and all(a.startswith("extinguish") for a in actions)
    assert illegal_code(s, first) == "in_fire"


@pytest.mark.parametrize("name", ACTION_CASES)
def test_heroic_sacrifice_allows_every_action_and_the_gnome_dies_after_it(name: str) -> None:
    """RN-14: "realizar uma ação que não seja extinguir o incêndio, como deter a contagem dos
    mísseis ou arrumar o motor? R: Sim, pode, porém … o heróico gnomo morrerá nas chamas
    imediatamente após sua ação (com sucesso ou não)." The FAQ's two actions are examples."""
    s = action_case(name, heroic=True)
    actions = ACTION_CASES[name][0]
    assert actions[0] in legal(s)
    events = []
    for action in actions:
        assert s.alive[0], f"gnome 1 died before his {actions[0]!r} was over"
        events += s.apply(action)
    assert deaths(events)[-1] == (0, "heroic_sacrifice")
    assert not s.alive[0] and not any(s.hands[0])


@pytest.mark.parametrize("name", ACTION_CASES)
def test_heroic_sacrifice_is_for_a_gnome_who_entered_the_burning_room(name: str) -> None:
    """RN-14 / FAQ 14: a gnome already in a room that caught fire may only fight it."""
    s = action_case(name, heroic=True, entered=False)
    actions = [a for a in legal(s) if not a.startswith(("move", "open", "use"))]
    assert actions and all(a.startswith("extinguish") for a in actions)
    assert illegal_code(s, ACTION_CASES[name][0][0]) == "in_fire_not_entered"


@pytest.mark.parametrize("success", [True, False])
def test_heroic_fix_it_resolves_then_the_gnome_dies(success: bool) -> None:
    s = position(
        rooms={0: 5},
        fire=(7,),
        hands={0: ("fire_extinguisher",)},
        tokens={"missiles": 35},
        rolls=(1 if success else 9,),
        heroic_sacrifice=True,
    )
    enter(s, 7)
    events = s.apply("stop-missiles 3")
    order = keys(events)
    assert order[:2] == ["fix_attempted", "destruction_averted" if success else "gnome_killed"]
    assert events[0].params["success"] is success
    assert deaths(events) == [(0, "heroic_sacrifice")]
    assert (s.token[s.c.tokens.index("missiles")] == -1) is success  # the result stands
    assert "event_drawn" not in order  # the active gnome died: no Updates events


@pytest.mark.parametrize(("room", "start"), [(8, 5), (10, 9)])
def test_heroic_draw_draws_first_and_the_cards_are_discarded_with_him(
    room: int, start: int
) -> None:
    s = position(
        rooms={0: start},
        fire=(room,),
        hands={0: ("fire_extinguisher",)},
        deck_top=("toolbox", "harpoon"),
        heroic_sacrifice=True,
    )
    enter(s, room)
    stash, discard = s.stash, list(s.item_discard)
    events = s.apply("draw 2")
    assert keys(events)[:2] == ["items_drawn", "gnome_killed"]
    drawn = ["grog", "grog"] if room == 10 else ["toolbox", "harpoon"]
    assert events[0].params["items"] == drawn
    assert sorted(s.c.items[i].kind for i in s.item_discard[len(discard) :]) == sorted(drawn)
    assert s.stash == stash - (2 if room == 10 else 0) and not any(s.hands[0])


def test_heroic_trade_is_completed_before_the_gnome_dies() -> None:
    s = position(
        rooms={0: 5, 1: 8},
        fire=(8,),
        hands={0: ("fire_extinguisher", "toolbox"), 1: ("harpoon",)},
        heroic_sacrifice=True,
    )
    enter(s, 8)
    assert not deaths(s.apply("trade g2")) and s.current_seat() == 0
    s.apply("give toolbox")
    s.apply("done")
    assert s.current_seat() == 1 and s.alive[0]  # his partner gives back first
    s.apply("give harpoon")
    events = s.apply("done")
    assert keys(events)[:2] == ["trade_finished", "gnome_killed"]
    assert deaths(events) == [(0, "heroic_sacrifice")]
    harpoon, toolbox = s.c.item_index("harpoon"), s.c.item_index("toolbox")
    assert s.hands[1][toolbox] == 1 and s.hands[1][harpoon] == 0  # the partner keeps his
    assert harpoon in s.item_discard  # what the heroic gnome received burns with him


@pytest.mark.parametrize(("rolls", "won"), [((9, 1), True), ((1, 9), False)])
def test_heroic_attack_is_fought_then_the_winner_dies_in_the_flames(
    rolls: tuple[int, int], won: bool
) -> None:
    s = position(
        rooms={0: 5, 1: 8},
        fire=(8,),
        hands={0: ("fire_extinguisher", "crowbar", "toolbox"), 1: ("crowbar", "harpoon")},
        rolls=rolls,
        heroic_sacrifice=True,
        crazed_gnomes=True,
    )
    enter(s, 8)
    s.apply("use crowbar")
    assert not deaths(s.apply("attack g2")) and s.current_seat() == 1
    events = s.apply("defend")
    if won:  # he takes the loser's items, then dies: everything is discarded
        assert deaths(events) == [(1, "slain"), (0, "heroic_sacrifice")]
        assert keys(events).index("items_taken") < keys(events).index("gnome_killed")
    else:  # slain in the fight: he does not die twice
        assert deaths(events) == [(0, "slain")]
        assert s.alive[1] and s.hands[1][s.c.item_index("toolbox")] == 1


def test_heroic_attacker_slain_and_replaced_does_not_die_again() -> None:
    """Less Deadly Dying: the attacker who loses the fight is replaced (here in the burning
    room itself); the replacement took no action there and does not burn for it."""
    s = position(
        rooms={0: 5, 1: 8},
        fire=(8,),
        hands={0: ("fire_extinguisher", "crowbar"), 1: ("crowbar",)},
        rolls=(1, 9, 8),  # the fight, then the replacement's room
        heroic_sacrifice=True,
        crazed_gnomes=True,
        less_deadly_dying=True,
    )
    enter(s, 8)
    s.apply("use crowbar")
    s.apply("attack g2")
    events = s.apply("defend")
    assert deaths(events) == [(0, "slain")]
    assert s.alive[0] and s.room[0] == 8


def test_heroic_gnome_uses_no_item_after_his_action() -> None:
    """RN-14: he dies right after the action, before the step where Coffee or a Lucky Charm
    could still be used; they are discarded with his other cards."""
    s = position(
        rooms={0: 5},
        fire=(8,),
        hands={0: ("fire_extinguisher", "coffee", "lucky_charm")},
        heroic_sacrifice=True,
    )
    enter(s, 8)
    s.apply("no-action")
    assert s.phase != Phase.AFTER_ACTION and not s.alive[0]
    for kind in ("coffee", "lucky_charm"):
        assert s.c.item_index(kind) in s.item_discard


def test_heroic_gnome_may_still_extinguish_the_fire_and_lives() -> None:
    s = position(
        rooms={0: 5},
        fire=(8,),
        hands={0: ("fire_extinguisher",)},
        rolls=(1,),
        heroic_sacrifice=True,
    )
    enter(s, 8)
    assert "draw 1" in legal(s) and "extinguish 3" in legal(s)
    events = s.apply("extinguish 3")
    assert "fire_out" in keys(events) and not deaths(events)
    assert s.alive[0] and s.room[0] == 8


def test_no_minute_left_in_the_burning_room_is_no_heroic_action() -> None:
    """Entering with his last minute, he takes no action: he burns at his Updates ("fire")."""
    s = position(
        rooms={0: 5}, fire=(8,), hands={0: ("fire_extinguisher",)}, ghost=1, heroic_sacrifice=True
    )
    enter(s, 8)
    assert legal(s) == ["done"]
    assert deaths(s.apply("done")) == [(0, "fire")]


@pytest.mark.parametrize("heroic", [False, True])
@pytest.mark.parametrize("hazard", ["entered fire", "caught fire", "high water"])
def test_no_hatch_is_unblocked_in_a_burning_or_fully_flooded_room(
    heroic: bool, hazard: str
) -> None:
    """FAQ: "As escotilhas não podem ser desbloqueadas em uma sala incendiada ou completamente
    inundada." / "Desbloquear uma escotilha, por outro lado, é uma ação, por isso não é
    possível." — house rule or not; opening an unblocked hatch stays possible."""
    s = position(
        rooms={0: 5 if hazard == "entered fire" else 8},
        fire=(8,) if "fire" in hazard else (),
        high=(8,) if hazard == "high water" else (),
        blocked=((8, 9),),
        hands={0: ("fire_extinguisher",)},
        heroic_sacrifice=heroic,
    )
    if hazard == "entered fire":
        enter(s, 8)
    assert not [a for a in legal(s) if a.startswith("unblock")]
    assert "open 7" in legal(s)
    code = "unblock_in_high_water" if hazard == "high water" else "unblock_in_fire"
    assert illegal_code(s, "unblock 8-9 3") == code
    assert illegal_code(s, "unblock 5-8 3") == code  # whichever hatch


def test_heroic_sacrifice_games_have_their_own_ruleset() -> None:
    """Only games with the house rule play by new rules: records of the others still replay;
    a record of the earlier house rule is refused by its ruleset."""
    plain, heroic = RedNovember(players=3), RedNovember(players=3, heroic_sacrifice=True)
    assert plain.ruleset == RedNovember.info.ruleset == "red-november/2011-en.2"
    assert heroic.ruleset == "red-november/2011-en.2+heroic-sacrifice.2"
    for game in (plain, heroic):
        state = game.new_state(4)
        for _ in range(30):
            state.apply_unchecked(state.legal_action_ids()[-1])
        record = GameRecord.of("red-november", state)
        assert record.ruleset == game.ruleset
        assert replay(record).digest() == record.digest
    with pytest.raises(RecordError) as info:
        replay(dataclasses.replace(record, ruleset="red-november/2011-en.2"))
    assert "played under ruleset 'red-november/2011-en.2'" in str(info.value)


def test_the_table_says_why_and_warns_of_the_heroic_death() -> None:
    tr = translator("en")
    s = position(
        rooms={0: 5},
        fire=(8,),
        blocked=((8, 9),),
        hands={0: ("fire_extinguisher",)},
        heroic_sacrifice=True,
    )
    ui = game_ui(s.game)
    enter(s, 8)
    view = s.observe(0)
    reminders = ui.reminder(view, tr)
    assert tr("rn.help.heroic_sacrifice") in reminders and tr("rn.help.in_fire") not in reminders
    assert tr("rn.help.heroic_sacrifice") not in ui.reminder(s.observe(1), tr)  # not his turn
    death = "⚠ then dies in the flames (heroic sacrifice)"
    assert ui.action_hint(s.game.parse_action("draw 2"), view, tr) == death
    assert ui.action_hint(s.game.parse_action("extinguish 3"), view, tr) == (
        "60% to succeed (roll ≤ 6, items +3)"
    )
    unblock = s.game.parse_action("unblock 8-9 3")
    with pytest.raises(IllegalActionError) as info:
        s.apply(unblock)
    assert ui.why(info.value, unblock, tr) == (
        "Equipment Stores (8) is on fire: no hatch can be unblocked from there (Unblock Hatch "
        "is an action; opening an unblocked hatch is movement and stays possible)."
    )
    off = position(rooms={0: 5}, fire=(8,), hands={0: ("fire_extinguisher",)})
    enter(off, 8)
    assert tr("rn.help.in_fire") in ui.reminder(off.observe(0), tr)
    assert tr("rn.help.heroic_sacrifice") not in ui.reminder(off.observe(0), tr)
    assert ui.action_hint(off.game.parse_action("extinguish 3"), off.observe(0), tr) == (
        "60% to succeed (roll ≤ 6, items +3)"
    )


def test_the_option_is_explained_as_the_faq_words_it() -> None:
    for text in (
        RedNovember.option_specs["heroic_sacrifice"].help,
        translator("en")("web.option_help.heroic_sacrifice"),
    ):
        assert "other than Extinguish Fire" in text and "dies in the flames" in text
        assert "Unblock Hatch stays impossible" in text
