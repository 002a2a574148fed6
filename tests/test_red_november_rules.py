"""Red November rules conformance: one scripted scenario per rule.

Every test quotes the passage it pins: the English rulebook
(``shared/rules/003_…``, "RB"), the FAQ digest of ``shared/rules/README.md``
("FAQ n") or ``COMPONENTS.md``. Engine rulings (``RULING`` in ``state.py``)
are tested as rulings. Tests marked ``xfail(strict=True, reason="engine
bug: …")`` pin a rule the engine breaks today; flip them once it is fixed.

Scenarios are built with ``tests/rn_scenarios.py``: gnome 0 ("A") is active
with his Time Keeper on 40 (on top), the others on 30, an empty calm sub, and
the six Respites on top of the event deck unless a test stacks other cards.
"""

from __future__ import annotations

import pytest

from rn_scenarios import (
    ITEM,
    RESPITES,
    SEA,
    TOKEN,
    TRACK,
    C,
    build,
    card,
    dice,
    find,
    hand,
    hatch,
    illegal_code,
    keys,
    legal,
    one,
    play,
    rng_with_dice,
    stack_events,
    stack_items,
)
from subtable.core.errors import IllegalActionError, OptionError
from subtable.games.red_november import RedNovember
from subtable.games.red_november.view import Phase

ASPH, HEAT, PRESS = TRACK["asphyxiation"], TRACK["heat"], TRACK["pressure"]


def turn_end_space(events) -> int:
    """The space the active Time Keeper stopped on (its catch-up target)."""
    return next(e for e in events if e.key == "turn_ended").params["space"]


def wait(state, minutes: int):
    """Spend ``minutes`` of the active gnome's turn: open-and-stay, then No Action."""
    ev = []
    for _ in range(minutes - 1):
        ev += play(state, next(a for a in legal(state) if a.startswith("open")))
    return ev + play(state, "no-action")


def drawn_spaces(events) -> list[int]:
    return [e.params["space"] for e in find(events, "event_drawn")]


def killed(events) -> dict[int, str]:
    return {e.params["gnome"]: e.params["cause"] for e in find(events, "gnome_killed")}


# =====================================================================================
# 1. The rulebook's worked examples
# =====================================================================================


def test_example_geoff_turn():
    """RB "An Example Turn": "The gnome opens the hatch to room 5 (+1 minute), and water
    reflows between the two rooms, bringing them both to low water ... because the room has
    a low-water Flood token, this movement takes an additional +1 minute." ... "drinks the
    last of his Grog ... (from 2 to 3), opens the hatch to room 2 (+1 minute), and steps in"
    ... "room 1, +1 minute" ... "spend 7 minutes ... +3 ... the total he must roll equal to or
    less than on the action die is 10. Automatic success!" ... "The number is a "2." His gnome
    passes out (+10 minutes)" ... "Geoff started his turn with his Time Keeper at "40" ...
    now the Ghost Time Keeper is at "19." ... stopping for 7 Event Icons and 2 Draw Item
    Icons"."""
    s = build(
        rooms=[7, 8, 9, 10],
        fire=[1, 2],
        high=[5],
        blocked=[(4, 5)],
        hands={0: ["grog"]},
        intox={0: 2},
        track=[1, 1, 8],
        tokens={"crushed": 25},
    )
    # faint card "Descent" with Faint Check 2 (its event must be ignored), then 7 quiet events
    stack_events(s, card("descent", 2), *RESPITES, card("reactor_warmup", 0))
    dice(s, 10)  # the worst roll still succeeds
    ev = play(s, "move 5")
    assert (s.room[0], s.ghost, s.water[5], s.water[7]) == (5, 38, 1, 1)
    ev += play(s, "use grog")
    assert s.intox[0] == 3
    ev += play(s, "move 2")
    assert (s.room[0], s.ghost) == (2, 37)
    ev += play(s, "move 1")
    assert (s.room[0], s.ghost) == (1, 36)
    assert legal(s)[-10:] == [f"extinguish {m}" for m in range(1, 11)]
    ev += play(s, "extinguish 7")
    fix = one(ev, "fix_attempted")
    assert (fix.params["target"], fix.params["roll"], fix.params["success"]) == (10, 10, True)
    assert not s.fire[1]
    faint = one(ev, "faint_check")
    assert (faint.params["number"], faint.params["level"], faint.params["fainted"]) == (2, 3, True)
    assert one(ev, "gnome_fainted").params["minutes"] == 10
    assert turn_end_space(ev) == 19 and s.keeper[0] == 19
    assert drawn_spaces(ev) == [39, 36, 33, 30, 27, 24, 21]
    assert len([e for e in find(ev, "items_drawn") if e.params["source"] == "time_track"]) == 2
    # 30 holds both icons: the event is resolved before the item is drawn
    k = [(e.key, e.params.get("space")) for e in ev]
    assert k.index(("event_drawn", 30)) < next(
        i for i, e in enumerate(ev) if e.key == "items_drawn"
    )
    assert s.track[PRESS] == 8  # the faint card's Descent was ignored
    assert s.track[HEAT] == 2  # the seventh event (Reactor Warmup) was resolved
    assert s.fainted[0] and s.alive[0]
    assert sum(s.hands[0]) == 2


@pytest.mark.parametrize(("roll", "success"), [(1, True), (7, True), (8, False), (10, False)])
def test_example_howard_unblock(roll, success):
    """RB Howard's example: "room 3 has a low-water Flood token ... he will spend four
    minutes performing an Unblock Hatch fix-it action and he will use his Crowbar. If he can
    roll a "7" or less on the action die, he will succeed ... Howard must move the Ghost Time
    Keeper forward six spaces (4 minutes spent on the fix-it action + 2 for the low-water
    penalty)"."""
    s = build(rooms=[3, 8, 9, 10], low=[3], blocked=[(1, 3)], hands={0: ["crowbar"]})
    dice(s, roll)
    ev = play(s, "use crowbar", "unblock 1-3 4")
    fix = one(ev, "fix_attempted")
    assert (
        fix.params["minutes"],
        fix.params["penalty"],
        fix.params["bonus"],
        fix.params["target"],
    ) == (4, 2, 3, 7)
    assert fix.params["success"] is success
    assert s.blocked[hatch(1, 3)] is (not success)
    assert turn_end_space(ev) == 34


def test_example_howard_unblock_with_real_dice():
    """The same example driven by a real generator found by seed search (rn_scenarios'
    ``rng_with_dice``): a 7 succeeds."""
    s = build(rooms=[3, 8, 9, 10], low=[3], blocked=[(1, 3)], hands={0: ["crowbar"]})
    s.rng = rng_with_dice([7])
    ev = play(s, "use crowbar", "unblock 1-3 4")
    assert one(ev, "fix_attempted").params["roll"] == 7
    assert not s.blocked[hatch(1, 3)]


def test_example_bethany_reactor_8_to_5():
    """RB: "The Disaster Track Marker for the Heat Track (the red one) is on the eighth space
    ... Bethany has rushed to the Reactor to conduct repairs and she succeeds. The red
    Disaster Track Marker is moved back along the track to the fifth space"."""
    s = build(rooms=[4, 8, 9, 10], track=[1, 8, 1], rolls=[2])
    ev = play(s, "fix-reactor 3")
    assert one(ev, "track_reset").params == {"track": "heat", "level": 5, "before": 8}
    assert s.track[HEAT] == 5


def test_example_edmund_grog_from_captains_cabin_and_red_area():
    """RB: "Edmund spends two minutes collecting Grog cards from the Captain's Cabin (room 10).
    Then he moves his Gnome figure into the red "Drew Item Cards" area ... A gnome in the red
    area cannot take a Draw Item Cards action. He must perform an action in another room
    before he can return to collect more gear."."""
    s = build(rooms=[10, 8, 9, 6])
    assert s.stash == 6
    ev = play(s, "draw 2")
    assert hand(s, 0) == {"grog": 2} and s.stash == 4
    assert turn_end_space(ev) == 38
    assert s.active == 0 and s.view(0)["gnomes"][0]["red_area"]
    assert "draw 1" not in legal(s)
    assert illegal_code(s, "draw 1") == "red_area"
    # going out and straight back is not "an action in another room"
    play(s, "move 9", "move 10")
    assert illegal_code(s, "draw 1") == "red_area"
    play(s, "no-action")  # an action, but in the same room
    assert s.active == 0 and s.keeper[0] == 35
    play(s, "move 9", "no-action")  # an action in another room
    assert s.keeper[0] == 33
    play(s, "move 10")
    assert "draw 1" in legal(s) and "draw 2" in legal(s)


def test_example_oxygen_pumps_down_drawn_on_45():
    """RB Timed Destruction: "if an "Oxygen Pumps Down" card is drawn when the Time Keeper is
    on the "45" space, place the "Asphyxiated!" token on the "35" space."."""
    s = build(keepers=[46, 30, 30, 30], events=[card("oxygen_pumps_down")])
    ev = play(s, "no-action")
    assert one(ev, "destruction_placed").params == {"token": "asphyxiated", "space": 35}
    assert s.token[TOKEN["asphyxiated"]] == 35


# =====================================================================================
# 2. The FAQ digest (README.md)
# =====================================================================================


def test_faq01_using_an_item_is_not_an_action_and_only_on_own_turn():
    """FAQ 1: "Using an item is not an action. Items are used only on your own turn." RB:
    "Players may only use Item Cards on their own turns"."""
    s = build(rooms=[1, 1, 9, 10], hands={0: ["toolbox", "crowbar"], 1: ["coffee", "grog"]})
    play(s, "use toolbox")
    assert s.phase == Phase.MOVE and "fix-engine 1" in legal(s)  # still free to act
    play(s, "trade g2", "done")
    assert s.current_seat() == 1 and s.phase == Phase.TRADE_BACK
    assert not any(a.startswith("use") for a in legal(s))
    assert illegal_code(s, "use coffee") == "wrong_phase"
    play(s, "done")
    # next turn is A's again; B's items are never offered
    assert s.active == 0 and not any(a.startswith("use grog") for a in legal(s))


def test_faq02_items_add_up_and_two_grogs_make_one_faint_check():
    """FAQ 2: "Several items, even identical ones, may be used in one turn and their bonuses
    add up. Two Grogs raise intoxication by 2 but mean a single Faint Check."."""
    s = build(
        rooms=[1, 8, 9, 10], hands={0: ["grog", "grog", "toolbox", "engine_manual"]}, rolls=[10]
    )
    before = len(s.event_deck)
    ev = play(s, "use grog", "use grog", "use toolbox", "use engine-manual", "fix-engine 1")
    assert s.intox[0] == 2
    fix = one(ev, "fix_attempted")
    assert fix.params["bonus"] == 3 + 3 + 3 + 4 and fix.params["success"]
    assert len(find(ev, "faint_check")) == 1
    # one card for the Faint Check, one per event icon (39, 36, 33; the turn ends on 39)
    assert before - len(s.event_deck) == 1 + len(find(ev, "event_drawn"))


def test_rb_toolbox_and_engine_manual_give_plus_7():
    """RB Using Items: "if a gnome uses a Toolbox and an Engine Manual on the same turn, he
    receives a +7 bonus to his Fix Engine action." (roll 8 with 1 minute succeeds, 9 fails)"""
    for roll, ok in ((8, True), (9, False)):
        s = build(
            rooms=[1, 8, 9, 10],
            hands={0: ["toolbox", "engine_manual"]},
            track=[1, 1, 7],
            rolls=[roll],
        )
        ev = play(s, "use toolbox", "use engine-manual", "fix-engine 1")
        assert one(ev, "fix_attempted").params["success"] is ok
        assert s.track[PRESS] == (5 if ok else 7)


def test_faq03_overheated_makes_no_faint_check():
    """FAQ 3 / RB: "all gnomes who hold at least one Grog card must drink one ... Do not make
    a Faint Check because of this event."."""
    s = build(
        hands={0: ["grog"], 2: ["grog", "grog"]},
        intox={0: 4, 2: 4},
        events=[card("overheated"), card("fire", 1)],
        rolls=[],
    )
    ev = play(s, "no-action")
    assert not find(ev, "faint_check") and not any(s.fainted)
    assert s.intox == [4, 0, 4, 0]
    assert hand(s, 0) == {} and hand(s, 2) == {"grog": 1}


def test_faq04_asphyxiation_on_new_fire_burning_room_and_spread():
    """FAQ 4: "The Asphyxiation marker advances when a fire starts in a room, when fire
    spreads to a room, and when a Fire event names a room already burning"."""
    s = build(
        keepers=[43, 30, 30, 30],
        fire=[3],
        events=[card("fire", 2), card("fire", 1), card("fire_spreads", 4)],
    )
    dice(s, 6, 3)  # fire starts in 6, then the burning 3 is named again
    ev = wait(s, 7)  # 43 -> 36: icons 42, 39, 36
    assert s.fire[6] and s.fire[3]
    assert s.track[ASPH] == 3
    assert s.phase == Phase.EVENT_CHOICE  # Fire Spreads waits for the active player's choice
    play(s, "spread 5")
    assert s.fire[5] and s.track[ASPH] == 4
    assert len(find(ev, "fire_started")) == 1  # 3 was already burning: no second token


@pytest.mark.parametrize("level", [1, 2])
def test_faq04_fire_event_on_flooded_room_does_nothing(level):
    """FAQ 4 / RB Fire Events: "If the selected room is flooded (at any level), there is no
    new fire. Discard the event without effect."."""
    s = build(
        low=[4] if level == 1 else [],
        high=[4] if level == 2 else [],
        events=[card("fire", 2)],
        rolls=[4],
    )
    ev = play(s, "no-action")
    assert not s.fire[4] and s.track[ASPH] == 1 and s.water[4] == level
    assert "fire_prevented" in keys(ev)


def test_faq05_active_gnome_in_burning_room_at_updates_dies():
    """FAQ 5 / RB Updates step 1: "If the active gnome is in a room that is on fire or at high
    water, he is killed." Here he has no minute left to do anything (RULING: `done`)."""
    s = build(keepers=[2, 1, 1, 1], rooms=[6, 8, 9, 10], fire=[6])
    play(s, "open 5", "open 5")  # the last two minutes spent opening a hatch
    assert s.ghost == 0 and legal(s) == ["done"]
    ev = play(s, "done")
    assert killed(ev) == {0: "fire"} and not s.alive[0]


def test_faq05_failed_extinguish_gives_one_extra_move():
    """FAQ 5: "A gnome who fails Extinguish Fire gets one extra move to leave (normal costs);
    he dies only if he cannot leave." RB: "he must make a special extra move out of the room
    (spending time as per the normal movement rules)"."""
    s = build(rooms=[1, 8, 9, 10], fire=[1], low=[3], rolls=[10])
    ev = play(s, "extinguish 2")
    assert "must_leave_room" in keys(ev)
    assert s.phase == Phase.EXTRA_MOVE
    assert legal(s) == ["move 2", "move 3"]  # only moves out: no open, no action
    assert illegal_code(s, "open 2") in ("must_leave", "wrong_phase")
    assert illegal_code(s, "no-action") == "wrong_phase"
    ev = play(s, "move 3")  # into low water: 1 + 1 minutes
    assert s.room[0] == 3 and s.alive[0]
    assert turn_end_space(ev) == 40 - 2 - 2


def test_faq06_no_unblock_from_burning_or_high_water_room_but_may_open():
    """FAQ 6: "Hatches cannot be unblocked from a burning or high-water room (Unblock is an
    action; only Extinguish Fire / No Action are allowed there). Opening an unblocked hatch is
    movement and is always allowed there."."""
    s = build(rooms=[5, 8, 9, 10], fire=[5], blocked=[(4, 5)])
    assert not any(a.startswith("unblock") for a in legal(s))
    assert illegal_code(s, "unblock 4-5 3") == "unblock_in_fire"
    assert "open 6" in legal(s)
    s = build(rooms=[5, 8, 9, 10], high=[5], blocked=[(4, 5)])
    assert not any(a.startswith("unblock") for a in legal(s))
    assert illegal_code(s, "unblock 4-5 3") == "unblock_in_high_water"
    assert "open 6" in legal(s) and "no-action" in legal(s)


def test_faq07_fainted_gnome_in_burning_room_dies_in_any_updates():
    """FAQ 7 / RB Kicking the Bucket: "During any player's Updates Phase, if any fainted gnome
    occupies a room with either a high-water Flood token or Fire token, that gnome is
    immediately killed (even if it is not his turn)."."""
    s = build(rooms=[5, 6, 7, 10], fire=[6], high=[7], low=[10], fainted=[1, 2, 3])
    ev = play(s, "no-action")
    assert killed(ev) == {1: "fire", 2: "drowned"}
    assert s.alive[3]  # "Fainted gnomes are safe in low water."


def test_faq08_from_high_water_into_low_water_no_flow_and_survive():
    """FAQ 8: "From a high-water room, a gnome may open the hatch to a low-water room (no water
    flows), step in and survive."."""
    s = build(rooms=[5, 8, 9, 10], high=[5], low=[4])
    ev = play(s, "move 4")
    assert "water_reflowed" not in keys(ev)
    assert (s.water[5], s.water[4], s.room[0], s.ghost) == (2, 1, 4, 38)
    ev = play(s, "no-action")
    assert s.alive[0] and not killed(ev)


def test_faq09_open_hatch_from_burning_room_to_high_water_puts_fire_out():
    """FAQ 9: "From a burning room, a gnome may open the hatch to a high-water room so that
    water flows in and puts the fire out." RB: "If a Flood token is added to a room with a
    Fire token, the fire is put out"."""
    s = build(rooms=[6, 8, 9, 10], fire=[6], high=[5])
    ev = play(s, "open 5")
    assert "fire_out" in keys(ev)
    assert (s.fire[6], s.water[6], s.water[5], s.room[0]) == (False, 1, 1, 6)
    assert "pump 1" in legal(s)  # no longer restricted to Extinguish Fire
    play(s, "no-action")
    assert s.alive[0]


def test_faq10_time_spent_past_a_token_lets_another_gnome_avert_it():
    """FAQ 10: "A gnome may spend time that carries his own keeper past a Destruction token on
    work (e.g. putting out a fire) that lets another gnome avert it in time."."""
    s = build(
        rooms=[1, 2, 9, 10],
        keepers=[40, 38, 20, 20],
        fire=[1],
        tokens={"crushed": 35},
        rolls=[1, 1],
    )
    ev = play(s, "extinguish 10")  # A's keeper goes to 30, past the token on 35
    assert not s.fire[1] and not s.is_terminal()
    assert s.active == 1 and s.keeper[0] == 30
    ev = play(s, "move 1", "fix-engine 2")  # B: 38 -> 35, on (not past) the token
    assert one(ev, "destruction_averted").params["token"] == "crushed"
    assert s.token[TOKEN["crushed"]] == -1 and not s.is_terminal()


def test_faq11_averting_a_token_also_resets_its_track():
    """FAQ 11: "Averting a Destruction token that has a matching Disaster Track also moves
    that marker back to the next reset point." RB Fix Engines: "resets the Pressure Track
    (blue) and removes the "Crushed!" token"."""
    s = build(rooms=[2, 8, 9, 10], track=[7, 1, 1], tokens={"asphyxiated": 33}, rolls=[3])
    play(s, "fix-pumps 3")
    assert s.token[TOKEN["asphyxiated"]] == -1 and s.track[ASPH] == 5


def test_faq12_marker_beyond_second_reset_point_needs_two_repairs():
    """FAQ 12: "A marker beyond the second reset point can reach the first one by two
    repairs."."""
    s = build(rooms=[1, 8, 9, 10], track=[1, 1, 8], rolls=[1, 1])
    play(s, "fix-engine 1")
    assert s.track[PRESS] == 5 and s.active == 0
    play(s, "fix-engine 1")
    assert s.track[PRESS] == 1


def test_faq13_token_counted_from_the_event_space_not_the_ghost():
    """FAQ 13: "A Destruction token is placed 10 or 15 spaces ahead of the space where the
    event was drawn, not of the Ghost Time Keeper." RB: "Count from the Draw Event Icon that
    caused the event to be drawn."."""
    s = build(
        rooms=[8, 9, 10, 6],
        keepers=[46, 20, 20, 20],
        events=[card("missile_launch", 3), card("kraken")],
    )
    ev = play(s, "move 9", "move 8", "draw 4")  # ghost 46 -> 40
    assert [(e.params["token"], e.params["space"]) for e in find(ev, "destruction_placed")] == [
        ("missiles", 35),
        ("kraken", 27),
    ]


def test_faq14_gnome_already_in_a_room_that_catches_fire_may_fight_it_bare_handed():
    """FAQ 14: "A gnome already in a room that catches fire may fight it without Grog or an
    extinguisher."."""
    s = build(rooms=[5, 8, 9, 10], events=[card("fire", 2)], rolls=[5])
    play(s, "no-action")
    assert s.fire[5] and s.active == 0 and s.alive[0]
    assert "extinguish 1" in legal(s) and not any(a.startswith("use") for a in legal(s))
    dice(s, 1)
    play(s, "extinguish 1")
    assert not s.fire[5]


def test_faq15_heroic_sacrifice_off_by_default():
    """FAQ 15 is a house rule, off by default; the rulebook: "If a gnome is in a room that is
    on fire, the only action he can attempt is Extinguish Fire."."""
    s = build(rooms=[2, 8, 9, 10], fire=[1], hands={0: ["grog"]})
    play(s, "use grog", "move 1")
    actions = [a for a in legal(s) if not a.startswith(("move", "open", "use"))]
    assert actions == [f"extinguish {m}" for m in range(1, 11)]
    assert illegal_code(s, "fix-engine 3") == "in_fire"


def test_faq15_heroic_sacrifice_on_acts_and_dies():
    """FAQ 15 (heroic_sacrifice): "With Grog or an extinguisher a gnome may enter a burning
    room and take another action there; he dies in the flames right after it, success or
    not."."""
    s = build(
        rooms=[2, 8, 9, 10],
        fire=[1],
        hands={0: ["grog"]},
        tokens={"crushed": 30},
        track=[1, 1, 6],
        heroic_sacrifice=True,
        rolls=[1],
    )
    before = len(s.event_deck)
    play(s, "use grog", "move 1")
    assert "fix-engine 3" in legal(s) and "extinguish 3" in legal(s)
    ev = play(s, "fix-engine 3")
    assert one(ev, "fix_attempted").params["success"]
    assert s.token[TOKEN["crushed"]] == -1 and s.track[PRESS] == 5
    assert killed(ev) == {0: "heroic_sacrifice"} and not s.alive[0]
    assert not find(ev, "event_drawn") and not find(ev, "faint_check")
    assert len(s.event_deck) == before


def test_faq15_heroic_sacrifice_needs_entering_the_burning_room():
    """FAQ 15 covers a gnome who *enters* a burning room; one already standing in a room that
    caught fire still has only Extinguish Fire (RULING in the brief)."""
    s = build(rooms=[1, 8, 9, 10], fire=[1], heroic_sacrifice=True)
    assert not any(a.startswith("fix-engine") for a in legal(s))


def test_faq16_grog_lets_a_gnome_pass_through_a_burning_room():
    """FAQ 16: "Grog or an extinguisher lets a gnome pass through a burning room." RB Fire: "A
    gnome cannot enter a room that is on fire unless he uses a Grog or Fire Extinguisher"."""
    s = build(rooms=[5, 8, 9, 10], fire=[2], hands={0: ["grog"]})
    assert illegal_code(s, "move 2") == "on_fire"
    play(s, "use grog", "move 2", "move 1")
    assert s.room[0] == 1 and s.ghost == 38
    play(s, "no-action")
    assert s.alive[0]


def test_faq17_grog_and_coffee_same_turn_faint_check_uses_reduced_level():
    """FAQ 17: "Grog and Coffee may be used in the same turn; the Faint Check then compares
    with the reduced level." (Coffee after the action: phase after_action, RULING.)"""
    s = build(hands={0: ["grog", "coffee"]}, intox={0: 2}, events=[card("descent", 2)])
    ev = play(s, "use grog", "no-action")
    assert s.phase == Phase.AFTER_ACTION and legal(s) == ["use coffee", "done"]
    ev = play(s, "use coffee")
    assert s.intox[0] == 1
    faint = one(ev, "faint_check")
    assert (faint.params["number"], faint.params["level"], faint.params["fainted"]) == (2, 1, False)


def test_faq17_without_coffee_the_same_card_faints():
    """Counterpart of FAQ 17: "if the number is less than or equal to the gnome's current
    intoxication level, he faints"."""
    s = build(hands={0: ["grog"]}, intox={0: 1}, events=[card("descent", 2)])
    ev = play(s, "use grog", "no-action")
    assert one(ev, "faint_check").params["fainted"] and s.fainted[0]


def test_faq18_events_of_the_fainted_minutes_are_drawn():
    """FAQ 18: "When a gnome faints, the events and items of every space the keeper crosses —
    the 10 fainted minutes included — are drawn."."""
    s = build(hands={0: ["grog"]}, intox={0: 1}, events=[card("fire", 1)])
    ev = play(s, "use grog", "no-action")  # 40 -> 39, fainted -> 29
    assert turn_end_space(ev) == 29
    assert drawn_spaces(ev) == [39, 36, 33, 30]
    assert [e.params["source"] for e in find(ev, "items_drawn")] == ["time_track"]


@pytest.mark.parametrize(
    ("a", "b", "flows"),
    [(2, 0, True), (0, 2, True), (2, 1, False), (1, 2, False), (1, 0, False), (0, 1, False)],
)
def test_faq19_water_flows_only_between_high_and_none(a, b, flows):
    """FAQ 19: "Water flows only when a hatch opens between a high-water room and a room with
    no water; never high↔low, never low↔none." RB: "Low water never flows into another
    room"."""
    s = build(rooms=[5, 8, 9, 10])
    s.water[5], s.water[4] = a, b
    s._legal = None
    if (a, b) == (1, 2):  # RB: the low room must be pumped before that hatch is opened
        assert illegal_code(s, "open 4") == "pump_first"
        return
    ev = play(s, "open 4")
    assert ("water_reflowed" in keys(ev)) is flows
    assert (s.water[5], s.water[4]) == ((1, 1) if flows else (a, b))
    assert s.room[0] == 5 and s.ghost == 39  # open and stay: 1 minute


def test_faq20_intoxication_4_may_keep_drinking_and_checks():
    """FAQ 20 / RB: "A gnome already at level four can continue to drink Grog. His
    intoxication level does not go any higher, but he still must make Faint Checks"."""
    s = build(hands={0: ["grog"]}, intox={0: 4}, events=[card("turbulence", 4)])
    ev = play(s, "use grog", "no-action")
    assert s.intox[0] == 4
    assert one(ev, "faint_check").params["fainted"]


def test_faq21_gnome_who_faints_outside_dies():
    """FAQ 21 / RB: "If he is outside the sub and faints, he is killed."."""
    s = build(rooms=[3, 8, 9, 10], hands={0: ["aqualung", "grog"]}, events=[card("fire", 1)])
    before = len(s.event_deck)
    ev = play(s, "use aqualung", "move sea", "use grog", "no-action")
    assert one(ev, "gnome_fainted")
    assert killed(ev) == {0: "fainted_outside"}
    assert len(s.event_deck) == before - 1  # only the Faint Check card: no events


# =====================================================================================
# 3. Movement
# =====================================================================================


def test_move_open_and_stay_costs_one_minute():
    """RB Stay: "A gnome can choose to remain in the room he is in. The hatch he opened in
    Step 1 still closes automatically." Opening "always takes one minute"."""
    s = build(rooms=[5, 8, 9, 10])
    ev = play(s, "open 6")
    assert s.room[0] == 5 and s.ghost == 39 and "gnome_moved" not in keys(ev)


def test_move_into_dry_room_costs_one_minute():
    """RB: "Normally, it does not cost any time to enter a room" (1 minute for the hatch)."""
    s = build(rooms=[5, 8, 9, 10])
    play(s, "move 6", "move 5", "move 4")
    assert s.room[0] == 4 and s.ghost == 37


def test_move_into_low_water_costs_one_more_minute():
    """RB: "if there is a low-water Flood token in the room, this movement costs one
    minute."."""
    s = build(rooms=[5, 8, 9, 10], low=[4])
    play(s, "move 4")
    assert s.room[0] == 4 and s.ghost == 38


def test_move_reflow_from_high_water_room_then_enter_low():
    """RB Reflow: "If one of the rooms connected by the opened hatch contains a high-water
    Flood token and the other room has no Flood token at all ... flip the high-water Flood
    token to the low-water side, and add a low-water token to the other room." (Geoff: 7→5
    costs 2.)"""
    s = build(rooms=[7, 8, 9, 10], high=[5])
    ev = play(s, "move 5")
    assert one(ev, "water_reflowed").params["rooms"] == [5, 7]
    assert (s.water[5], s.water[7], s.room[0], s.ghost) == (1, 1, 5, 38)


def test_move_cannot_enter_high_water():
    """RB: "If the other room has a high-water token, the gnome cannot enter the room." ...
    "A player cannot enter a room at high water if he is in a room at low water"."""
    s = build(rooms=[5, 8, 9, 10], low=[5], high=[4, 6])
    assert "move 4" not in legal(s) and "move 6" not in legal(s)
    assert illegal_code(s, "move 4") == "pump_first"
    s = build(rooms=[5, 8, 9, 10], high=[5, 4])
    assert illegal_code(s, "move 4") == "high_water"


def test_move_cannot_open_hatch_from_low_water_to_high_water():
    """RB Reflow: "A player cannot enter a room at high water if he is in a room at low water
    (i.e., the room at low water must be pumped before a player may open the adjoining
    hatch)."."""
    s = build(rooms=[5, 8, 9, 10], low=[5], high=[4])
    assert "open 4" not in legal(s)


def test_move_burning_room_needs_grog_or_extinguisher():
    """RB Fire: "A gnome cannot enter a room that is on fire unless he uses a Grog or Fire
    Extinguisher during his turn."."""
    s = build(rooms=[5, 8, 9, 10], fire=[4], hands={0: ["fire_extinguisher", "toolbox"]})
    assert "move 4" not in legal(s) and "open 4" in legal(s)
    assert illegal_code(s, "move 4") == "on_fire"
    play(s, "use toolbox")
    assert illegal_code(s, "move 4") == "on_fire"
    play(s, "use fire-extinguisher", "move 4")
    assert s.room[0] == 4 and s.ghost == 39


def test_move_leave_sub_needs_aqualung_and_costs_one():
    """RB Leave the Sub: "he can exit the sub and enter the sea space, but only if he uses an
    Aqualung item. Moving through an exterior hatch always costs one minute."."""
    s = build(rooms=[6, 8, 9, 10], hands={0: ["aqualung"]})
    assert "move sea" not in legal(s) and "open sea" in legal(s)
    assert illegal_code(s, "move sea") == "needs_aqualung"
    play(s, "use aqualung", "move sea")
    assert s.room[0] == SEA and s.ghost == 38


def test_move_only_rooms_3_6_9_open_to_the_sea():
    """RB: "three exterior hatches allow access to the sea outside (from rooms 3, 6, and 9)"."""
    for room in range(1, 11):
        s = build(rooms=[room, 7, 7, 7], hands={0: ["aqualung"]})
        play(s, "use aqualung")
        assert ("move sea" in legal(s)) is (room in (3, 6, 9))


def test_move_reenter_through_any_exterior_hatch():
    """RB: "A gnome outside the sub can reenter through any of the three exterior hatches, not
    just the one he used to leave. This also costs one minute."."""
    s = build(rooms=[SEA, 8, 9, 10])
    moves = [a for a in legal(s) if a.startswith("move")]
    assert moves == ["move 3", "move 6", "move 9"]
    play(s, "move 9")
    assert s.room[0] == 9 and s.ghost == 38
    play(s, "no-action")
    assert s.alive[0]


def test_move_exterior_hatch_never_reflows_and_costs_one_regardless_of_water():
    """RB: "water never flows into or out of the sub through an exterior hatch." RULING: an
    exterior hatch passage costs 1 minute regardless of water."""
    s = build(rooms=[SEA, 8, 9, 10], low=[3], high=[6])
    assert "move 6" not in legal(s)  # cannot enter high water from the sea either
    ev = play(s, "move 3")
    assert "water_reflowed" not in keys(ev)
    assert (s.room[0], s.ghost, s.water[3]) == (3, 38, 1)
    s = build(rooms=[3, 8, 9, 10], high=[3], hands={0: ["aqualung"]})
    play(s, "use aqualung", "open sea")
    assert s.water[3] == 2 and s.ghost == 39


def test_move_reenter_burning_room_from_sea_needs_grog():
    """RB Fire: entering a burning room needs Grog or a Fire Extinguisher, from the sea too."""
    s = build(rooms=[SEA, 8, 9, 10], fire=[3])
    assert "move 3" not in legal(s) and "move 6" in legal(s)


def test_move_blocked_hatch_is_impassable():
    """RB: "Blocked hatches cannot be opened and gnomes cannot pass through them."."""
    s = build(rooms=[5, 8, 9, 10], blocked=[(4, 5)])
    assert "move 4" not in legal(s) and "open 4" not in legal(s)
    assert illegal_code(s, "move 4") == "hatch_blocked"
    assert illegal_code(s, "open 4") == "hatch_blocked"


def test_move_only_through_hatches():
    """COMPONENTS: rooms are joined only by the listed hatches (5 and 10 are not)."""
    s = build(rooms=[5, 8, 9, 10])
    assert illegal_code(s, "move 10") == "no_hatch"
    assert sorted(a for a in legal(s) if a.startswith("move")) == [
        "move 2",
        "move 4",
        "move 6",
        "move 7",
        "move 8",
    ]


def test_move_blocked_hatch_does_not_stop_reflow_elsewhere_and_no_limit_on_moves():
    """RB: "There is no limit to the number of moves a gnome can make during a turn."."""
    s = build(rooms=[5, 8, 9, 10])
    for _ in range(10):
        play(s, "move 6", "move 5")
    assert s.ghost == 20 and s.room[0] == 5


def test_move_needs_the_minutes():
    """RB: "Time Keepers cannot move past the "Rescued!" space." A move into low water (2
    minutes) is impossible with 1 minute left; opening (1) still is."""
    s = build(rooms=[5, 8, 9, 10], keepers=[1, 0, 0, 0], low=[4])
    assert "move 4" not in legal(s) and "open 4" in legal(s) and "move 6" in legal(s)
    assert illegal_code(s, "move 4") == "no_time"


def test_move_high_water_room_escape_by_reflow():
    """RB: "A gnome stuck in a room at high water after his action dies ... To prevent this
    grim fate, the gnome needs to open a hatch during his Movement Phase in order to reflow
    the water."."""
    s = build(rooms=[5, 8, 9, 10], high=[5])
    play(s, "open 6")
    assert s.water[5] == 1 and s.water[6] == 1
    ev = play(s, "no-action")
    assert s.alive[0] and not killed(ev)


# =====================================================================================
# 4. Actions
# =====================================================================================

# (action, room of A, scenario kwargs, minutes it costs)
COSTS = [
    ("extinguish 3", 1, dict(fire=[1]), 3),
    ("pump 4", 5, dict(low=[5]), 4),
    ("unblock 4-5 5", 5, dict(blocked=[(4, 5)]), 5),
    ("fix-engine 2", 1, {}, 2),
    ("fix-pumps 3", 2, {}, 3),
    ("fix-reactor 4", 4, {}, 4),
    ("stop-missiles 5", 7, {}, 5),
    ("draw 3", 8, {}, 3),
    ("draw 2", 10, {}, 2),
    ("no-action", 5, {}, 1),
]


@pytest.mark.parametrize(("action", "room", "kw", "cost"), COSTS)
def test_action_time_costs(action, room, kw, cost):
    """RB Action Summary: Unblock 1–10, Extinguish 1–10, Pump 1–10, room fixes 1–10, Draw
    1–4 (one minute per card), No Action 1 (dry room: no penalty)."""
    s = build(rooms=[room, 3, 3, 3], rolls=[1], **kw)
    ev = play(s, action)
    assert turn_end_space(ev) == 40 - cost


def test_action_kill_kraken_costs_its_minutes():
    """RB: "Kill Kraken 1–10 m" (no penalty outside the sub)."""
    s = build(rooms=[3, 8, 9, 10], hands={0: ["aqualung"]}, tokens={"kraken": 20}, rolls=[1])
    ev = play(s, "use aqualung", "move sea", "kill-kraken 6")
    assert one(ev, "fix_attempted").params["penalty"] == 0
    assert s.token[TOKEN["kraken"]] == -1
    assert turn_end_space(ev) == 40 - 2 - 6 and s.alive[0]


@pytest.mark.parametrize("low", [False, True])
def test_action_trade_costs_one_minute_plus_penalty_for_active_only(low):
    """RB Trade: "This action always costs one minute (for the active player only)." + 2m in
    low water (Action Summary: "Trade Item Cards 1 m + 2m")."""
    s = build(rooms=[5, 5, 9, 10], low=[5] if low else [], hands={1: ["crowbar"]})
    ev = play(s, "trade g2", "done", "done")
    assert turn_end_space(ev) == 40 - (3 if low else 1)
    assert s.keeper[1] == 30


LOW_COSTS = [
    ("pump 4", 5, dict(low=[5]), 4),
    ("no-action", 5, dict(low=[5]), 1),
    ("unblock 4-5 5", 5, dict(low=[5], blocked=[(4, 5)]), 7),
    ("fix-engine 2", 1, dict(low=[1]), 4),
    ("fix-pumps 2", 2, dict(low=[2]), 4),
    ("fix-reactor 2", 4, dict(low=[4]), 4),
    ("stop-missiles 2", 7, dict(low=[7]), 4),
    ("draw 3", 8, dict(low=[8]), 5),
    ("draw 2", 10, dict(low=[10]), 4),
]


@pytest.mark.parametrize(("action", "room", "kw", "cost"), LOW_COSTS)
def test_action_low_water_penalty_except_pump_and_no_action(action, room, kw, cost):
    """RB: "If a gnome is in a room with a low-water token, all actions except Pump Water and
    No Action cost two additional minutes."."""
    s = build(rooms=[room, 3, 3, 3], rolls=[1], **kw)
    ev = play(s, action)
    assert turn_end_space(ev) == 40 - cost


def test_action_low_water_penalty_does_not_help_success():
    """RB: "the two-minute penalty does not increase a gnome's chance of success"."""
    s = build(rooms=[1, 8, 9, 10], low=[1], track=[1, 1, 3], rolls=[3])
    ev = play(s, "fix-engine 2")
    fix = one(ev, "fix_attempted")
    assert (fix.params["target"], fix.params["success"]) == (2, False)
    assert s.track[PRESS] == 3


def test_action_cannot_take_more_time_than_left():
    """RB: "A gnome can never take an action that requires more time than he has left!" (the
    penalty counts: 3 minutes left in low water allow at most a 1-minute repair)."""
    s = build(rooms=[1, 8, 9, 10], keepers=[3, 0, 0, 0], low=[1])
    acts = legal(s)
    assert "fix-engine 1" in acts and "fix-engine 2" not in acts
    assert [a for a in acts if a.startswith("pump")] == ["pump 1", "pump 2", "pump 3"]
    assert illegal_code(s, "fix-engine 2") == "no_time"
    s = build(rooms=[8, 9, 9, 9], keepers=[2, 0, 0, 0])
    assert [a for a in legal(s) if a.startswith("draw")] == ["draw 1", "draw 2"]


def test_action_no_minute_left_only_done():
    """RULING: "when no action is affordable the only action is `done`" (RB: "can never take an
    action that requires more time than he has left")."""
    s = build(rooms=[5, 8, 9, 10], keepers=[1, 0, 0, 0])
    play(s, "open 6")
    assert legal(s) == ["done"]
    assert illegal_code(s, "no-action") == "no_time"


def test_action_done_refused_while_time_remains():
    """RB: "The player must choose one action for his gnome to take."."""
    s = build()
    assert "done" not in legal(s)
    assert illegal_code(s, "done") == "must_act"


@pytest.mark.parametrize(("roll", "ok"), [(5, True), (6, True), (7, False)])
def test_action_fix_it_success_roll_at_most_minutes_plus_bonus(roll, ok):
    """RB Fix-It: "if the roll is less than or equal to the sum of time plus bonuses, the gnome
    succeeds in his task! Otherwise, he fails." (3 minutes + Toolbox 3 = 6)"""
    s = build(rooms=[4, 8, 9, 10], track=[1, 3, 1], hands={0: ["toolbox"]}, rolls=[roll])
    ev = play(s, "use toolbox", "fix-reactor 3")
    assert one(ev, "fix_attempted").params["success"] is ok
    assert s.track[HEAT] == (1 if ok else 3)


BONUSES = [
    (["toolbox"], "fix-engine 1", 1, {}, 3),
    (["toolbox"], "fix-pumps 1", 2, {}, 3),
    (["toolbox"], "fix-reactor 1", 4, {}, 3),
    (["toolbox"], "stop-missiles 1", 7, {}, 0),
    (["engine_manual"], "fix-engine 1", 1, {}, 4),
    (["engine_manual"], "fix-reactor 1", 4, {}, 0),
    (["pump_manual"], "fix-pumps 1", 2, {}, 4),
    (["reactor_manual"], "fix-reactor 1", 4, {}, 4),
    (["deactivation_code"], "stop-missiles 1", 7, {}, 4),
    (["crowbar"], "unblock 4-5 1", 5, dict(blocked=[(4, 5)]), 3),
    (["crowbar"], "fix-engine 1", 1, {}, 0),
    (["water_pump"], "pump 1", 5, dict(low=[5]), 3),
    (["fire_extinguisher"], "extinguish 1", 6, dict(fire=[6]), 3),
    (["toolbox"], "extinguish 1", 6, dict(fire=[6]), 0),
    (["grog"], "fix-engine 1", 1, {}, 3),
    (["grog"], "pump 1", 5, dict(low=[5]), 3),
    (["grog"], "unblock 4-5 1", 5, dict(blocked=[(4, 5)]), 3),
    (["grog"], "stop-missiles 1", 7, {}, 3),
    (["grog", "fire_extinguisher"], "extinguish 1", 6, dict(fire=[6]), 6),
]


@pytest.mark.parametrize(("items", "action", "room", "kw", "bonus"), BONUSES)
def test_action_item_bonuses(items, action, room, kw, bonus):
    """RB Items: Toolbox +3 to Fix Engine/Oxygen Pumps/Reactor; Manuals +4 to their fix;
    Deactivation Code +4 Stop Missile Launch; Fire Extinguisher +3 Extinguish Fire; Crowbar +3
    Unblock Hatch; Water Pump +3 Pump Water; Grog "+3 bonus to any fix-it action"."""
    s = build(rooms=[room, 3, 3, 3], hands={0: items}, rolls=[10], **kw)
    ev = play(s, *[f"use {C.items[ITEM[k]].slug}" for k in items], action)
    assert one(ev, "fix_attempted").params["bonus"] == bonus


@pytest.mark.parametrize("items", [["harpoon"], ["grog"], ["harpoon", "grog"]])
def test_action_kill_kraken_bonuses(items):
    """RB Harpoon: "+4 bonus to a Kill Kraken action"; Grog +3 to any fix-it action."""
    s = build(rooms=[SEA, 8, 9, 10], hands={0: items}, rolls=[10])
    ev = play(s, *[f"use {k}" for k in items], "kill-kraken 1")
    assert one(ev, "fix_attempted").params["bonus"] == {"harpoon": 4, "grog": 3}[items[0]] + (
        3 if len(items) == 2 else 0
    )


@pytest.mark.parametrize(
    ("room", "fix"),
    [
        (1, "fix-engine"),
        (2, "fix-pumps"),
        (4, "fix-reactor"),
        (7, "stop-missiles"),
        (SEA, "kill-kraken"),
    ],
)
def test_action_room_fix_its_only_in_their_rooms(room, fix):
    """RB: "A gnome can only attempt a room fix-it action if he is in the specific room that
    holds the critical system"; Engine Room 1, Oxygen Pumps 2, Reactor 4, Missile Control 7,
    Kraken from the sea."""
    fixes = ("fix-engine", "fix-pumps", "fix-reactor", "stop-missiles", "kill-kraken")
    for where in (1, 2, 3, 4, 5, 7, 8, SEA):
        s = build(rooms=[where, 6, 6, 6])
        offered = {a.split()[0] for a in legal(s) if a.split()[0] in fixes}
        assert (fix in offered) is (where == room)
        if where != room:
            assert illegal_code(s, f"{fix} 1") == "wrong_room"


@pytest.mark.parametrize(
    ("token", "room", "action"),
    [
        ("crushed", 1, "fix-engine"),
        ("asphyxiated", 2, "fix-pumps"),
        ("missiles", 7, "stop-missiles"),
        ("kraken", SEA, "kill-kraken"),
    ],
)
def test_action_auto_fail_after_ghost_passes_token(token, room, action):
    """RB: "Any attempted repair automatically fails if the Ghost Time Keeper passes the
    matching Destruction token on the Time Track!"."""
    s = build(rooms=[room, 6, 6, 6], keepers=[40, 38, 30, 30], tokens={token: 35}, rolls=[])
    ev = play(s, f"{action} 6")  # ghost 34: past 35; no die is rolled (strict rng)
    fix = one(ev, "fix_attempted")
    assert (fix.params["roll"], fix.params["success"], fix.params["auto_fail"]) == (
        None,
        False,
        token,
    )
    assert s.token[TOKEN[token]] == 35


@pytest.mark.parametrize(
    ("token", "room", "action"), [("crushed", 1, "fix-engine"), ("missiles", 7, "stop-missiles")]
)
def test_action_repair_on_the_token_space_is_still_rolled(token, room, action):
    """RB: the repair fails only if the Ghost *passes* the token; ending on it is in time."""
    s = build(rooms=[room, 6, 6, 6], keepers=[40, 38, 30, 30], tokens={token: 35}, rolls=[5])
    ev = play(s, f"{action} 5")
    assert one(ev, "fix_attempted").params["success"]
    assert s.token[TOKEN[token]] == -1


@pytest.mark.parametrize(
    ("before", "after"), [(9, 5), (8, 5), (6, 5), (5, 1), (3, 1), (2, 1), (1, 1)]
)
def test_action_reset_points(before, after):
    """RB: "If the Disaster Track Marker is on the sixth or higher space, it moves to the fifth
    space. If it is on the fifth space or lower, it moves to the first space."."""
    s = build(rooms=[4, 8, 9, 10], track=[1, before, 1], rolls=[1])
    play(s, "fix-reactor 1")
    assert s.track[HEAT] == after


@pytest.mark.parametrize(
    ("room", "fix", "track"), [(1, "fix-engine", PRESS), (2, "fix-pumps", ASPH)]
)
def test_action_room_fix_resets_matching_track(room, fix, track):
    """RB: Fix Engines "resets the Pressure Track (blue)"; Fix Oxygen Pumps "resets the
    Asphyxiation Track (green)"."""
    t = [7, 7, 7]
    s = build(rooms=[room, 8, 9, 10], track=t, rolls=[1])
    play(s, f"{fix} 1")
    assert s.track[track] == 5 and sum(s.track) == 7 + 7 + 5


def test_action_failed_fix_has_no_other_penalty():
    """RB: "There is no additional penalty for failing a fix-it action"."""
    s = build(rooms=[4, 8, 9, 10], track=[1, 7, 1], rolls=[9])
    ev = play(s, "fix-reactor 2")
    assert s.track[HEAT] == 7 and s.alive[0] and turn_end_space(ev) == 38


def test_action_pump_water_only_at_low_water():
    """RB Pump Water: "If a gnome is in a room with a low-water token, he can attempt to remove
    it ... this action is not possible in a room with a high-water token!"."""
    s = build(rooms=[5, 8, 9, 10], low=[5], rolls=[2])
    play(s, "pump 2")
    assert s.water[5] == 0
    s = build(rooms=[5, 8, 9, 10])
    assert illegal_code(s, "pump 2") == "no_low_water"
    s = build(rooms=[5, 8, 9, 10], high=[5])
    assert legal(s)[-1] == "no-action" and not any(a.startswith("pump") for a in legal(s))


def test_action_unblock_removes_one_token_of_the_room():
    """RB Unblock Hatch: "If he succeeds, remove one Hatch Blocked token from the room."."""
    s = build(rooms=[5, 8, 9, 10], blocked=[(4, 5), (5, 6), (8, 9)], rolls=[1])
    offered = {a.rsplit(" ", 1)[0] for a in legal(s) if a.startswith("unblock")}
    assert offered == {"unblock 4-5", "unblock 5-6"}
    assert illegal_code(s, "unblock 8-9 2") == "wrong_room"
    play(s, "unblock 5-6 1")
    assert s.blocked[hatch(5, 6)] is False and s.blocked[hatch(4, 5)] and s.blocked[hatch(8, 9)]


def test_action_extinguish_only_with_fire():
    """RB: "Extinguish Fire: This action is only possible if the gnome is in a room with a Fire
    token."."""
    s = build(rooms=[5, 8, 9, 10])
    assert illegal_code(s, "extinguish 2") == "no_fire"


def test_action_failed_extinguish_dies_when_all_hatches_blocked():
    """RB: "If he cannot exit the room for any reason (such as high water, fire, or blocked
    hatches) ... he is killed" and (Kicking the Bucket) "If the active gnome was killed ... Do
    not resolve any events this turn."."""
    s = build(rooms=[10, 8, 9, 6], fire=[10], blocked=[(8, 10), (9, 10)], rolls=[10])
    before = len(s.event_deck)
    ev = play(s, "extinguish 4")
    assert killed(ev) == {0: "fire"} and not s.alive[0] and s.keeper[0] == -1
    assert not find(ev, "event_drawn") and len(s.event_deck) == before
    assert s.active != 0


def test_action_failed_extinguish_dies_with_no_minutes_left():
    """RB: "... or he has no minutes left on the Time Track, he is killed"."""
    s = build(rooms=[1, 8, 9, 10], keepers=[5, 3, 3, 3], fire=[1], rolls=[10])
    ev = play(s, "extinguish 5")
    assert killed(ev) == {0: "fire"}


def test_action_failed_extinguish_dies_when_exit_costs_more_than_left():
    """RB: the extra move is made "spending time as per the normal movement rules": with 1
    minute left a low-water room (2 minutes) cannot be reached."""
    s = build(rooms=[6, 8, 9, 10], keepers=[4, 2, 2, 2], fire=[6], low=[5], rolls=[10])
    ev = play(s, "extinguish 3")
    assert killed(ev) == {0: "fire"}


def test_action_failed_extinguish_into_burning_neighbours_needs_grog():
    """RB: cannot exit "for any reason (such as ... fire ...)"; with a Grog in hand he may use it
    to run through the flames (items usable at any time during his turn)."""
    s = build(rooms=[10, 7, 7, 7], fire=[8, 9, 10], rolls=[10])
    ev = play(s, "extinguish 2")
    assert killed(ev) == {0: "fire"}
    s = build(rooms=[10, 7, 7, 7], fire=[8, 9, 10], hands={0: ["grog", "toolbox"]}, rolls=[10])
    play(s, "extinguish 2")
    assert s.phase == Phase.EXTRA_MOVE and legal(s) == ["use grog"]
    play(s, "use grog")
    assert legal(s) == ["move 8", "move 9"]


def test_action_failed_extinguish_reflow_from_high_water_neighbour_is_an_exit():
    """RB Reflow: a burning (dry) room next to a high-water room is not a trap: opening the
    hatch reflows both to low water, and he may step in."""
    s = build(rooms=[6, 8, 9, 10], fire=[6], high=[5], rolls=[10])
    play(s, "extinguish 2")
    assert legal(s) == ["move 5"]
    ev = play(s, "move 5")
    assert s.room[0] == 5 and s.alive[0] and turn_end_space(ev) == 40 - 2 - 2


def test_action_failed_extinguish_leave_to_sea_with_aqualung():
    """RB: the extra move follows the normal movement rules: through the exterior hatch with
    an Aqualung."""
    s = build(rooms=[6, 8, 9, 10], fire=[6], blocked=[(5, 6)], hands={0: ["aqualung"]}, rolls=[10])
    play(s, "extinguish 1")
    assert legal(s) == ["use aqualung"]
    play(s, "use aqualung", "move sea")
    assert s.room[0] == SEA and s.alive[0]


def test_action_trade_both_ways():
    """RB Trade: "The active player may give the other player any number of Item Cards from
    his hand, and the other player may also give the active player any number of Item Cards
    back."."""
    s = build(
        rooms=[5, 5, 9, 10], hands={0: ["toolbox", "toolbox", "grog"], 1: ["crowbar", "harpoon"]}
    )
    assert "trade g2" in legal(s) and "trade g3" not in legal(s)
    assert illegal_code(s, "trade g3") == "no_partner"
    play(s, "trade g2")
    assert s.phase == Phase.TRADE_GIVE and s.current_seat() == 0
    assert set(legal(s)) == {"give grog", "give toolbox", "done"}
    play(s, "give toolbox", "give toolbox", "done")
    assert s.current_seat() == 1
    # he may give back anything he now holds, the cards he just received included
    assert set(legal(s)) == {"give crowbar", "give harpoon", "give toolbox", "done"}
    play(s, "give crowbar", "done")
    assert hand(s, 0) == {"grog": 1, "crowbar": 1}
    assert hand(s, 1) == {"toolbox": 2, "harpoon": 1}


def test_action_trade_not_with_fainted_gnome():
    """RULING: a fainted gnome cannot trade."""
    s = build(rooms=[5, 5, 9, 10], fainted=[1], hands={1: ["crowbar"]})
    assert "trade g2" not in legal(s)
    assert illegal_code(s, "trade g2") == "partner_fainted"


def test_action_draw_limits_equipment_stores():
    """RB: "A gnome in the Equipment Stores draws random cards from the Item Pile. He may spend
    up to four minutes on a Draw Item Cards action here." (one card per minute)"""
    s = build(rooms=[8, 9, 9, 9])
    assert [a for a in legal(s) if a.startswith("draw")] == [f"draw {n}" for n in range(1, 5)]
    stack_items(s, "harpoon", "aqualung", "toolbox", "crowbar")
    ev = play(s, "draw 4")
    assert hand(s, 0) == {"harpoon": 1, "aqualung": 1, "toolbox": 1, "crowbar": 1}
    assert turn_end_space(ev) == 36


def test_action_draw_limits_captains_cabin_and_stash():
    """RB: "A gnome in the Captain's Cabin draws from the captain's private stash of Grog (as
    long as it lasts – once it is gone, no more cards can be drawn from the Captain's Cabin). A
    gnome may spend a maximum of two minutes on a Draw Item Cards action here."."""
    s = build(rooms=[10, 9, 9, 9])
    assert [a for a in legal(s) if a.startswith("draw")] == ["draw 1", "draw 2"]
    assert illegal_code(s, "draw 3") == "too_many"
    s.stash = 1
    s._legal = None
    assert [a for a in legal(s) if a.startswith("draw")] == ["draw 1"]
    assert illegal_code(s, "draw 2") == "not_enough_cards"
    s.stash = 0
    s._legal = None
    assert not any(a.startswith("draw") for a in legal(s))


def test_action_draw_only_in_stores_or_cabin():
    """RB: "If the gnome is in the Equipment Stores (room 8) or Captain's Cabin (room 10), he
    can Draw Item Cards."."""
    s = build(rooms=[9, 5, 5, 5])
    assert illegal_code(s, "draw 1") == "wrong_room"


def test_action_draw_stores_limited_by_cards_left():
    """RB: drawing needs cards: with 2 cards left in deck and discard, at most 2 are drawn."""
    s = build(rooms=[8, 9, 9, 9])
    s.item_deck = [ITEM["toolbox"]]
    s.item_discard = [ITEM["grog"]]
    s._legal = None
    assert [a for a in legal(s) if a.startswith("draw")] == ["draw 1", "draw 2"]


def test_action_abandon_comrades_outside_and_past_10():
    """RB Abandon Comrades: "If the player's Time Keeper has passed the "10" space ... The
    gnome must be outside the sub ... Remove the gnome figure and his Time Keeper ... Do not
    resolve any events this turn."."""
    s = build(rooms=[SEA, 8, 9, 10], keepers=[9, 5, 5, 5])
    before = len(s.event_deck)
    assert "abandon" in legal(s)
    ev = play(s, "abandon")
    assert "comrades_abandoned" in keys(ev) and not killed(ev)
    assert s.abandoned[0] and s.keeper[0] == -1 and not s.on_board(0)
    assert not find(ev, "event_drawn") and len(s.event_deck) == before
    assert s.active != 0 and s.keeper[s.active] == 5 and not s.is_terminal()


def test_action_abandon_not_before_passing_10():
    """RB: "If the player's Time Keeper has passed the "10" space" (on 10 is not past it)."""
    s = build(rooms=[SEA, 8, 9, 10], keepers=[10, 5, 5, 5])
    assert "abandon" not in legal(s)
    assert illegal_code(s, "abandon") == "too_early"


def test_action_abandon_only_outside():
    """RB: "The gnome must be outside the sub (using an Aqualung, of course) to take this
    action."."""
    s = build(rooms=[3, 8, 9, 10], keepers=[9, 5, 5, 5])
    assert illegal_code(s, "abandon") == "must_be_outside"


@pytest.mark.parametrize("players", [1, 2])
def test_action_abandon_ignored_with_one_or_two_players(players):
    """RB 2 Players / Solitaire: "The "Abandon Comrades" action is ignored."."""
    s = build(
        players=players,
        rooms=[SEA, 8, 9, 10][: (3 if players == 1 else 4)],
        keepers=[9, 5, 5, 5][: (3 if players == 1 else 4)],
    )
    assert "abandon" not in legal(s)
    assert illegal_code(s, "abandon") == "no_abandon"


# =====================================================================================
# 5. Updates and turn order
# =====================================================================================


def test_turn_order_keeper_furthest_back_goes_next():
    """RB: "the player whose Time Keeper is furthest back in time takes the next turn (that is
    to say, the Time Keeper closest to "60"). ... It is possible that a player will take several
    turns in a row"."""
    s = build(rooms=[8, 9, 9, 9], keepers=[40, 38, 35, 30])
    play(s, "no-action")
    assert s.active == 0 and s.ghost == 39  # still furthest back: plays again
    play(s, "draw 4")
    assert s.active == 1 and s.ghost == 38


def test_turn_order_stack_top_goes_first_and_arrivals_go_on_top():
    """RB: "If a Time Keeper ends its move on an occupied space, make a stack by placing it on
    top ... the player whose Time Keeper is on top of the stack is the first player from this
    stack to take a turn."."""
    s = build(rooms=[8, 9, 9, 9], keepers=[40, 37, 30, 30])
    play(s, "draw 3")  # A lands on B's space, on top
    assert s.keeper[0] == s.keeper[1] == 37 and s.seq[0] > s.seq[1]
    assert s.active == 0
    play(s, "no-action")
    assert s.active == 1


def test_turn_order_start_of_game_top_of_random_stack():
    """RB Setup: "Place the Time Keepers, stacked in a random order, next to the starting
    space" ... "This is the case at the start of the game." (the top of the stack starts)"""
    game = RedNovember(players=5)
    firsts = set()
    for seed in range(30):
        s = game.new_state(seed)
        assert s.keeper == [60] * 5
        assert s.active == max(range(5), key=lambda g: s.seq[g])
        firsts.add(s.active)
    assert len(firsts) > 1  # the order really is random


def test_updates_fainted_gnome_stands_up_on_his_next_turn():
    """RB: "When the player's next turn comes around, he stands the figure back up."."""
    s = build(rooms=[8, 9, 9, 9], keepers=[40, 38, 30, 30], fainted=[1])
    ev = play(s, "draw 4")
    assert s.active == 1 and not s.fainted[1] and "gnome_stood_up" in keys(ev)


def test_updates_active_dies_at_high_water_and_no_events():
    """RB Updates step 1 / Kicking the Bucket: "If he is in a room with a high-water Flood
    token ... at the beginning of his Updates Phase ... he is killed." ... "If the active gnome
    was killed, also remove the Ghost Time Keeper. Do not resolve any events this turn."."""
    s = build(rooms=[5, 8, 9, 10], high=[5], keepers=[40, 35, 35, 35], hands={0: ["toolbox"]})
    before = len(s.event_deck)
    ev = play(s, "no-action")
    assert killed(ev) == {0: "drowned"}
    assert s.keeper[0] == -1 and s.hands[0] == [0] * len(C.items)
    assert ITEM["toolbox"] in s.item_discard  # "Discard any Item Cards that gnome was carrying."
    assert len(s.event_deck) == before and s.active != 0


def test_updates_outside_two_turns_runs_out_of_air():
    """RB: "If he started the turn outside the sub, and is still outside the sub at the
    beginning of his Updates Phase, his Aqualung runs out of air and he is killed"."""
    s = build(rooms=[SEA, 8, 9, 10], tokens={"kraken": 20}, rolls=[1])
    ev = play(s, "kill-kraken 3")
    assert s.token[TOKEN["kraken"]] == -1  # the action itself still happens
    assert killed(ev) == {0: "out_of_air"}


def test_updates_gnome_who_left_this_turn_survives_outside():
    """RB Aqualung: "There is only enough air in the Aqualung to support a gnome for one action
    outside the sub" (he dies only if he *started* the turn outside)."""
    s = build(rooms=[3, 8, 9, 10], keepers=[40, 38, 30, 30], hands={0: ["aqualung"]})
    ev = play(s, "use aqualung", "move sea", "no-action")
    assert s.alive[0] and s.room[0] == SEA and not killed(ev)
    assert s.active == 1


def test_updates_fainted_gnome_killed_by_event_in_another_players_updates():
    """RB: "If any of the events cause Geoff's room to flood or catch fire, his gnome dies" /
    "During any player's Updates Phase, if any fainted gnome occupies a room with either a
    high-water Flood token or Fire token, that gnome is immediately killed"."""
    s = build(rooms=[5, 6, 7, 10], fainted=[1, 2], events=[card("leak", 2), card("fire", 2)])
    dice(s, 6, 7)
    ev = play(s, "open 4", "open 4", "no-action")  # 40 -> 37: events on 39 (leak), 36? no
    assert killed(ev).get(1) == "drowned"
    s2 = build(rooms=[5, 6, 7, 10], fainted=[1, 2], events=[card("fire", 2)], rolls=[7])
    ev = play(s2, "no-action")
    assert killed(ev) == {2: "fire"} and s2.track[ASPH] == 2


def test_updates_non_fainted_gnome_survives_event_in_his_room():
    """RB: only fainted gnomes (and the active gnome at the start of his Updates) die; a
    standing gnome in a room that catches fire can act on his turn (FAQ 14)."""
    s = build(rooms=[5, 6, 7, 10], events=[card("fire", 2)], rolls=[6])
    ev = play(s, "no-action")
    assert s.fire[6] and s.alive[1] and not killed(ev)


def test_updates_active_fainted_gnome_killed_by_event_stops_the_walk():
    """RB Geoff's example: "If any of the events cause Geoff's room to flood or catch fire,
    his gnome dies" and then "Do not resolve any events this turn" (the rest of the walk)."""
    s = build(
        rooms=[5, 8, 9, 10],
        hands={0: ["grog"]},
        intox={0: 4},
        events=[card("descent", 2), card("leak", 2), card("reactor_warmup", 2)],
        rolls=[5],
    )
    ev = play(s, "use grog", "no-action")
    assert killed(ev) == {0: "drowned"}
    assert drawn_spaces(ev) == [39]
    assert s.track[HEAT] == 1  # the next icon (36) was never reached


def test_updates_lucky_charm_ignores_first_three_event_icons():
    """RB: "If a gnome uses a Lucky Charm during his turn, he ignores the first three Draw Event
    Icons his Time Keeper lands on." (the item icon on 30 still gives its card)"""
    s = build(
        rooms=[4, 8, 9, 10], hands={0: ["lucky_charm"]}, events=[card("descent", 2)], rolls=[1]
    )
    before = len(s.event_deck)
    ev = play(s, "use lucky-charm", "fix-reactor 10")
    assert [e.params["space"] for e in find(ev, "event_ignored")] == [39, 36, 33]
    assert drawn_spaces(ev) == [30]
    assert s.track[PRESS] == 2 and len(s.event_deck) == before - 1
    assert len(find(ev, "items_drawn")) == 1


def test_updates_lucky_charm_may_be_used_after_the_action():
    """RB: "The Lucky Charm must be used before drawing Event Cards." RULING: after the action
    only Coffee / Lucky Charm may be used (phase after_action)."""
    s = build(hands={0: ["lucky_charm", "toolbox"]}, events=[card("descent", 2)])
    play(s, "no-action")
    assert s.phase == Phase.AFTER_ACTION and legal(s) == ["use lucky-charm", "done"]
    ev = play(s, "use lucky-charm")
    assert [e.params["space"] for e in find(ev, "event_ignored")] == [39]
    assert s.track[PRESS] == 1


def test_updates_item_icons_give_the_active_player_a_card():
    """RB: "If it reaches a Draw Item Icon, the player draws one card from the top of the Item
    Deck and adds it to his hand." (icons on 50, 40, 30, 20, 10: COMPONENTS)"""
    s = build(keepers=[41, 30, 30, 30])
    stack_items(s, "harpoon")
    play(s, "no-action")
    assert hand(s, 0) == {"harpoon": 1}


def test_updates_time_track_icons_match_components():
    """COMPONENTS: "A Draw Event icon on every space divisible by 3 from 57 down to 3 (19
    icons). A Draw Item icon on 50, 40, 30, 20 and 10"; starting spaces 3–5 → 60, 6 → 55,
    7 → 50, 8 → 45."""
    assert [s for s in range(61) if C.event_icon[s]] == list(range(3, 58, 3))
    assert [s for s in range(61) if C.item_icon[s]] == [10, 20, 30, 40, 50]
    assert C.start_space == {3: 60, 4: 60, 5: 60, 6: 55, 7: 50, 8: 45}


# =====================================================================================
# 6. Events
# =====================================================================================


def test_event_fire_starts_in_random_room_and_advances_asphyxiation():
    """RB Fire Events: "If the selected room is not flooded, advance the Asphyxiation Track
    Marker one space ... and then add a Fire token to the room"; RB: "When an event causes a
    Fire token to appear, the Asphyxiation Track Marker advances one space."."""
    s = build(events=[card("fire", 2)], rolls=[3])
    ev = play(s, "no-action")
    assert one(ev, "room_rolled").params["room"] == 3
    assert s.fire[3] and s.track[ASPH] == 2


def test_event_fire_on_burning_room_still_advances_asphyxiation():
    """RB: "advance the Asphyxiation Track Marker one space (even if there is already a fire in
    that room!), and then add a Fire token to the room (if there isn't one there already)."."""
    s = build(fire=[3], events=[card("fire", 2)], rolls=[3])
    ev = play(s, "no-action")
    assert s.fire[3] and s.track[ASPH] == 2 and not find(ev, "fire_started")


def test_event_fire_spreads_choice():
    """RB Fire Spreads: "The active player must choose one room that is adjacent to a room that
    already has a Fire token (i.e., connected by a hatch – even a blocked one). He cannot
    choose any room that is already on fire, or which has any level of flooding. Add a Fire
    token ... and increase the Asphyxiation Track Marker by one."."""
    s = build(
        rooms=[1, 8, 9, 10],
        fire=[5],
        low=[7],
        high=[8],
        blocked=[(5, 6)],
        events=[card("fire_spreads", 4)],
    )
    play(s, "no-action")
    assert s.phase == Phase.EVENT_CHOICE and s.current_seat() == 0
    assert legal(s) == ["spread 2", "spread 4", "spread 6"]  # 6 through a blocked hatch
    assert s.view(0)["pending"]["choice"] == "fire_spreads"
    with pytest.raises(IllegalActionError):
        s.apply("spread 7")  # a flooded room is not a legal answer
    assert s.phase == Phase.EVENT_CHOICE and not s.fire[7]
    ev = play(s, "spread 6")
    assert s.fire[6] and s.track[ASPH] == 2 and one(ev, "fire_spread").params["chooser"] == 0


def test_event_fire_spreads_chosen_by_active_player_not_seat_0():
    """RB: "The active player must choose" (gnome 2 active here)."""
    s = build(active=2, rooms=[1, 8, 9, 10], fire=[5], events=[card("fire_spreads", 4)])
    play(s, "no-action")
    assert s.current_seat() == 2


def test_event_fire_spreads_single_room_resolves_itself():
    """RULING: forced single-option event choices resolve themselves."""
    s = build(rooms=[1, 8, 9, 6], fire=[10], low=[8], events=[card("fire_spreads", 4)])
    ev = play(s, "no-action")
    assert s.fire[9] and s.track[ASPH] == 2 and s.phase == Phase.MOVE
    assert one(ev, "fire_spread").params["room"] == 9


@pytest.mark.parametrize("fire", [[], [10]])
def test_event_fire_spreads_no_legal_room_no_effect(fire):
    """RB: "If there is no legal room to choose, then this event has no effect and is
    discarded. Do not increase the Asphyxiation level in that case."."""
    s = build(rooms=[1, 8, 9, 6], fire=fire, low=[8, 9], events=[card("fire_spreads", 4)])
    ev = play(s, "no-action")
    assert s.track[ASPH] == 1 and "no_effect" in keys(ev)
    assert s.fire == [r in fire for r in range(12)]


def test_event_fire_spreads_kills_fainted_gnome():
    """RB: "Any fainted gnome in a room on fire is killed." (fire spreading into his room)"""
    s = build(rooms=[1, 9, 8, 6], fire=[10], low=[8], fainted=[1], events=[card("fire_spreads", 4)])
    ev = play(s, "no-action")
    assert killed(ev) == {1: "fire"}


@pytest.mark.parametrize("before", [0, 1])
def test_event_leak_floods_room_to_high_water(before):
    """RB Leak: "Place a high-water Flood token in the selected room (or flip a low-water Flood
    token to the high-water side if one is there)."."""
    s = build(events=[card("leak", 2)], rolls=[4])
    s.water[4] = before
    ev = play(s, "no-action")
    assert s.water[4] == 2 and one(ev, "room_flooded")


def test_event_leak_puts_fire_out():
    """RB Leak: "If the room was on fire, remove the Fire token."."""
    s = build(fire=[4], events=[card("leak", 2)], rolls=[4])
    play(s, "no-action")
    assert s.water[4] == 2 and not s.fire[4] and s.track[ASPH] == 1


def test_event_underwater_current_floods_every_low_room():
    """RB: ""Underwater Current" causes all rooms with a low-water Flood token to flood to high
    water."."""
    s = build(
        rooms=[1, 8, 9, 10],
        low=[3, 5, 9],
        high=[7],
        fainted=[2],
        events=[card("underwater_current")],
        rolls=[],
    )
    ev = play(s, "no-action")
    assert [s.water[r] for r in range(1, 11)] == [0, 0, 2, 0, 2, 0, 2, 0, 2, 0]
    assert killed(ev) == {2: "drowned"}


def test_event_blocked_hatch_active_player_chooses_interior_hatch():
    """RB Blocked Hatch: "one of the interior hatches attached to a random room becomes
    blocked. Roll the die ... The active player chooses any one non-blocked interior hatch in
    this room"."""
    s = build(rooms=[1, 8, 9, 10], blocked=[(2, 5)], events=[card("blocked_hatch", 1)], rolls=[5])
    play(s, "no-action")
    assert s.phase == Phase.EVENT_CHOICE and s.current_seat() == 0
    assert s.view(0)["pending"]["room"] == 5
    assert legal(s) == ["block 4-5", "block 5-6", "block 5-7", "block 5-8"]
    play(s, "block 5-7")
    assert s.blocked[hatch(5, 7)] and sum(s.blocked) == 2


def test_event_blocked_hatch_exterior_never_chosen():
    """RB: "Exterior hatches never become blocked and cannot be chosen." (room 6 has one
    interior hatch, so the choice is forced)"""
    s = build(rooms=[1, 8, 9, 10], events=[card("blocked_hatch", 1)], rolls=[6])
    play(s, "no-action")
    assert s.blocked[hatch(5, 6)] and sum(s.blocked) == 1 and s.phase == Phase.MOVE


def test_event_blocked_hatch_all_blocked_no_effect():
    """RB: "If all hatches connected to this room are already blocked, the event has no
    effect."."""
    s = build(
        rooms=[1, 8, 9, 6],
        blocked=[(8, 10), (9, 10)],
        events=[card("blocked_hatch", 1)],
        rolls=[10],
    )
    ev = play(s, "no-action")
    assert "no_effect" in keys(ev) and sum(s.blocked) == 2


@pytest.mark.parametrize(
    ("kind", "track", "amount"),
    [
        ("descent", PRESS, 1),
        ("fast_descent", PRESS, 2),
        ("reactor_warmup", HEAT, 1),
        ("reactor_malfunction", HEAT, 2),
    ],
)
def test_event_disaster_track_events(kind, track, amount):
    """RB: "The Pressure Track advances with each "Descent" and "Fast Descent" Event Card. The
    Heat Track advances with each "Reactor Warmup" and "Reactor Malfunction" Event Card."
    (COMPONENTS: +1, +2, +1, +2)"""
    s = build(events=[card(kind)], track=[3, 3, 3])
    play(s, "no-action")
    assert s.track[track] == 3 + amount and sum(s.track) == 9 + amount


@pytest.mark.parametrize(
    ("kind", "token", "ahead"),
    [
        ("engine_down", "crushed", 10),
        ("oxygen_pumps_down", "asphyxiated", 10),
        ("missile_launch", "missiles", 10),
        ("kraken", "kraken", 15),
    ],
)
def test_event_destruction_tokens_placed_ahead(kind, token, ahead):
    """RB: "The Event Card states whether the token is placed 10 or 15 minutes ahead. Count
    from the Draw Event Icon that caused the event to be drawn." (COMPONENTS: Kraken +15, the
    others +10)"""
    s = build(events=[card(kind)])
    play(s, "no-action")
    assert s.token[TOKEN[token]] == 39 - ahead


def test_event_destruction_token_duplicate_has_no_effect():
    """RB: "There can only be one of each Destruction token on the Time Track. If an event calls
    for a token that is already there, the event has no effect."."""
    s = build(tokens={"missiles": 33}, events=[card("missile_launch", 3)])
    ev = play(s, "no-action")
    assert s.token[TOKEN["missiles"]] == 33 and "no_effect" in keys(ev)


def test_event_destruction_token_past_rescued_not_placed():
    """RB: "If the Destruction token should be placed after the "Rescued!" space, the token is
    not placed and the disaster is avoided – hurray!"."""
    s = build(keepers=[10, 5, 5, 5], events=[card("engine_down")])
    ev = play(s, "no-action")  # drawn on 9: 9 - 10 = -1
    assert s.token[TOKEN["crushed"]] == -1 and "destruction_avoided" in keys(ev)


def test_event_destruction_token_on_rescued_space_not_placed():
    """RULING: "a Destruction token that would land on space 0 or beyond is not placed" (Kraken
    drawn on 15)."""
    s = build(keepers=[16, 5, 5, 5], events=[card("kraken")])
    ev = play(s, "no-action")
    assert s.token[TOKEN["kraken"]] == -1 and "destruction_avoided" in keys(ev)
    s = build(keepers=[13, 5, 5, 5], events=[card("engine_down")])
    play(s, "no-action")  # drawn on 12: placed on 2
    assert s.token[TOKEN["crushed"]] == 2


def test_event_turbulence_every_player_discards_to_four_by_choice():
    """RB: ""Turbulence" forces all players to discard Item Cards until they each have no more
    than four cards." (each player chooses his own discards)"""
    s = build(
        hands={
            0: ["grog", "grog", "toolbox", "crowbar", "harpoon", "pump_manual"],
            1: ["grog"] * 3 + ["toolbox", "aqualung"],
            2: ["grog"] * 4,
            3: ["harpoon"] * 6,
        },
        events=[card("turbulence", 4)],
    )
    play(s, "no-action")
    assert s.phase == Phase.EVENT_CHOICE and s.current_seat() == 0
    assert set(legal(s)) == {
        "discard grog",
        "discard crowbar",
        "discard toolbox",
        "discard harpoon",
        "discard pump-manual",
    }
    play(s, "discard pump-manual", "discard harpoon")
    assert s.current_seat() == 1
    play(s, "discard aqualung")
    # gnome 3 holds 6 Harpoons: a single option, resolved by itself
    assert [sum(h) for h in s.hands] == [4, 4, 4, 4]
    assert hand(s, 0) == {"grog": 2, "toolbox": 1, "crowbar": 1}
    assert s.phase == Phase.MOVE and s.active == 0
    assert s.item_discard.count(ITEM["harpoon"]) == 3


def test_event_stumble_active_player_discards_to_one():
    """RB: "The "Stumble" event affects only the active player, who must discard all but one
    Item Card."."""
    s = build(
        hands={0: ["grog", "toolbox", "crowbar"], 1: ["grog"] * 6}, events=[card("stumble", 4)]
    )
    play(s, "no-action")
    assert s.current_seat() == 0
    play(s, "discard grog", "discard crowbar")
    assert hand(s, 0) == {"toolbox": 1} and sum(s.hands[1]) == 6


def test_event_friendly_fire_fire_then_leak_then_hand_limit():
    """RB: ""Friendly Fire" is a combination fire, flood, and hand limit event. Simply follow
    those three steps in order."."""
    s = build(hands={1: ["grog"] * 5}, events=[card("friendly_fire")], rolls=[3, 6])
    ev = play(s, "no-action")
    assert s.fire[3] and s.track[ASPH] == 2 and s.water[6] == 2
    assert sum(s.hands[1]) == 4  # forced single option
    k = keys(ev)
    assert k.index("fire_started") < k.index("room_flooded") < k.index("item_discarded")


def test_event_friendly_fire_leak_on_the_new_fire():
    """RB Leak: "If the room was on fire, remove the Fire token." (same room rolled twice)"""
    s = build(events=[card("friendly_fire")], rolls=[3, 3])
    play(s, "no-action")
    assert not s.fire[3] and s.water[3] == 2 and s.track[ASPH] == 2


def test_event_overheated_every_grog_holder_drinks_one():
    """RB: "When the "Overheated" event comes up, all gnomes who hold at least one Grog card
    must drink one ... They receive no benefits, but their intoxication levels increase
    normally."."""
    s = build(
        hands={0: ["grog"], 1: ["toolbox"], 3: ["grog", "grog"]},
        intox={3: 1},
        events=[card("overheated")],
    )
    before = s.item_discard.count(ITEM["grog"])
    play(s, "no-action")
    assert s.intox == [1, 0, 0, 2]
    assert hand(s, 0) == {} and hand(s, 3) == {"grog": 1} and hand(s, 1) == {"toolbox": 1}
    assert s.item_discard.count(ITEM["grog"]) == before + 2
    assert s.view(0)["this_turn"]["bonus"]["extinguish"] == 0  # "They receive no benefits"


def test_event_respite_changes_nothing():
    """RB: "a "Respite" Event Card ... represents a rare moment when nothing goes wrong."."""
    s = build(fire=[3], low=[5], events=[card("respite", 4)])
    ev = play(s, "no-action")
    assert "respite" in keys(ev)
    assert (s.fire[3], s.water[5], s.track, s.token) == (True, 1, [1, 1, 1], [-1] * 4)


def test_event_reshuffle_adds_kraken_once():
    """RB: "If the Event Deck is exhausted, add the "Kraken" card (which was set aside during
    setup) to the discard pile. Then, reshuffle and form a new Event Deck."."""
    s = build()
    k = card("kraken")
    assert s.event_aside == [k] and k not in s.event_deck
    s.event_discard = s.event_deck + s.event_discard
    s.event_deck = []
    ev = play(s, "no-action")
    assert keys(ev).count("kraken_shuffled_in") == 1 and "event_deck_reshuffled" in keys(ev)
    assert s.event_aside == []
    assert len(s.event_deck) + len(s.event_discard) == 56
    s.event_discard = s.event_deck + s.event_discard
    s.event_deck = []
    ev = wait(s, 3)  # 39 -> 36
    assert "kraken_shuffled_in" not in keys(ev) and "event_deck_reshuffled" in keys(ev)
    assert len(s.event_deck) + len(s.event_discard) == 56


def test_event_item_deck_reshuffle_includes_grog():
    """RB: "If the Item Deck runs out, all discarded items (including discarded Grog cards) are
    shuffled together to make a new draw pile."."""
    s = build(rooms=[8, 9, 9, 9])
    s.item_deck = []
    s.item_discard = [ITEM["grog"], ITEM["grog"], ITEM["grog"]]
    s._legal = None
    ev = play(s, "draw 3")
    assert "item_deck_reshuffled" in keys(ev)
    assert hand(s, 0) == {"grog": 3}


def test_event_cards_are_discarded_after_resolving():
    """RB: "After resolving the Event, place it in a discard pile next to the Event Deck."."""
    s = build(events=[card("descent", 2)])
    play(s, "no-action")
    assert s.event_discard[-1] == card("descent", 2)


# =====================================================================================
# 7. Game end
# =====================================================================================


def test_end_win_when_all_keepers_rescued():
    """RB Game End: "The players win the game only if all Time Keepers of all surviving gnomes
    reach the "Rescued!" space"."""
    s = build(keepers=[1, 0, 0, 0])
    ev = play(s, "no-action")
    assert s.is_terminal() and "game_won" in keys(ev)
    assert s.outcome().reason == "rescued"
    assert s.returns() == [1.0, 1.0, 1.0, 1.0]


def test_end_win_ignores_dead_gnomes():
    """RB: "all Time Keepers of all surviving gnomes" (a dead gnome's keeper is removed)."""
    s = build(keepers=[1, 0, 30, 0])
    s.alive[2] = False
    s.keeper[2] = -1
    s._legal = None
    play(s, "no-action")
    assert s.outcome().reason == "rescued"
    assert s.returns()[0] == s.returns()[1] == s.returns()[3] == 1.0


def test_end_not_won_while_a_keeper_is_behind():
    """RB: the win needs *all* surviving keepers on "Rescued!"."""
    s = build(keepers=[2, 1, 0, 0])
    play(s, "no-action")
    assert not s.is_terminal() and s.active in (0, 1)


@pytest.mark.parametrize(
    ("kind", "track", "reason"),
    [
        ("reactor_warmup", HEAT, "heat"),
        ("descent", PRESS, "pressure"),
        ("fire", ASPH, "asphyxiation"),
    ],
)
def test_end_loss_when_a_track_reaches_10(kind, track, reason):
    """RB: "If any marker reaches the end of its Disaster Track, the game ends immediately and
    the sub is lost!" (the rest of the walk is not resolved)"""
    t = [1, 1, 1]
    t[track] = 9
    s = build(track=t, events=[card(kind, 2), card("reactor_malfunction", 4)], rolls=[3])
    ev = wait(s, 4)  # 40 -> 36: icons 39, 36
    assert s.is_terminal() and s.outcome().reason == reason
    assert drawn_spaces(ev) == [39]
    assert s.returns() == [0.0] * 4


def test_end_loss_when_every_keeper_passes_a_token():
    """RB: "If all players' Time Keepers pass the Destruction token on the Time Track, the
    catastrophe occurs and the submarine is destroyed."."""
    s = build(rooms=[8, 9, 9, 9], tokens={"crushed": 38})
    ev = play(s, "draw 3")  # 40 -> 37, the others are on 30
    assert s.is_terminal() and s.outcome().reason == "crushed" and "game_lost" in keys(ev)


def test_end_no_loss_while_one_keeper_has_not_passed_the_token():
    """RB: "all players' Time Keepers" — one keeper still behind the token keeps the sub
    alive."""
    s = build(rooms=[8, 9, 9, 9], keepers=[40, 39, 30, 30], tokens={"crushed": 38})
    play(s, "draw 3")
    assert not s.is_terminal() and s.active == 1


def test_end_loss_when_last_keeper_behind_token_dies():
    """RB: a dead gnome's Time Keeper is removed ("remove his figure and Time Keeper from the
    board"); if every remaining keeper is past the token the sub is lost."""
    s = build(rooms=[5, 9, 9, 9], keepers=[36, 20, 20, 20], high=[5], tokens={"missiles": 35})
    ev = play(s, "no-action")
    assert killed(ev) == {0: "drowned"}
    assert s.is_terminal() and s.outcome().reason == "missiles"


def test_end_loss_when_all_gnomes_die():
    """RB: "The players lose the game if ... all gnomes are killed in the line of duty."."""
    s = build(rooms=[5, 9, 9, 9], high=[5])
    for g in (1, 2, 3):
        s.alive[g] = False
        s.keeper[g] = -1
    s._legal = None
    play(s, "no-action")
    assert s.is_terminal() and s.outcome().reason == "crew_lost"
    assert s.returns() == [0.0] * 4


def test_end_abandoner_wins_if_the_sub_is_lost():
    """RB: "When a player abandons his comrades, his victory conditions are reversed: if the
    submarine is destroyed he wins, but if the other gnomes are rescued, he loses!"."""
    s = build(
        rooms=[SEA, 8, 9, 10],
        keepers=[9, 5, 4, 4],
        track=[1, 9, 1],
        events=[card("reactor_warmup", 2)],
    )
    play(s, "abandon")
    assert s.active == 1
    play(s, "no-action", "no-action")  # 5 -> 3 (on top of the stack on 4): event on 3
    assert s.is_terminal() and s.outcome().reason == "heat"
    assert s.returns() == [1.0, 0.0, 0.0, 0.0]


def test_end_abandoner_loses_if_the_others_are_rescued():
    """RB: "... but if the other gnomes are rescued, he loses!"."""
    s = build(rooms=[SEA, 8, 9, 10], keepers=[9, 1, 0, 0])
    play(s, "abandon", "no-action")
    assert s.outcome().reason == "rescued"
    assert s.returns() == [0.0, 1.0, 1.0, 1.0]


# =====================================================================================
# 8. Options and player counts
# =====================================================================================


def test_setup_matches_rulebook():
    """RB Game Setup: markers on the first space; "Separate six "Grog" cards ... place them
    faceup near the Captain's Cabin"; "Deal two random Item Cards"; "Remove the "Kraken" card
    and set it aside"; each gnome in a random room."""
    for players in (3, 4, 6, 8):
        s = RedNovember(players=players).new_state(11)
        assert s.track == [1, 1, 1] and s.token == [-1] * 4
        assert s.stash == 6
        assert [sum(h) for h in s.hands] == [2] * players
        assert len(s.item_deck) == 54 - 6 - 2 * players
        assert s.event_aside == [card("kraken")] and len(s.event_deck) == 55
        assert all(1 <= r <= 10 for r in s.room)
        assert s.keeper == [C.start_space[players]] * players
        assert not any(s.fire) and not any(s.water) and not any(s.blocked)


def test_option_greater_challenge_1_respites_leave_the_game():
    """RB A Greater Challenge: "instead of placing the "Respite" Event Cards in the discard pile
    when drawn, remove them from play."."""
    s = build(greater_challenge=1, events=[card("respite", 0)])
    play(s, "no-action")
    assert card("respite", 0) in s.event_removed and card("respite", 0) not in s.event_discard
    s = build(events=[card("respite", 0)])
    play(s, "no-action")
    assert card("respite", 0) in s.event_discard and not s.event_removed


@pytest.mark.parametrize(
    ("players", "gnomes"), [(4, None), (3, None), (2, 4), (6, None), (1, 3), (1, 5)]
)
def test_option_greater_challenge_2_events_before_first_turn(players, gnomes):
    """RB: "To make the game even more challenging, draw and resolve a number of Event Cards
    equal to the number of players before the first turn."."""
    game = RedNovember(players=players, gnomes=gnomes, greater_challenge=2)
    s = game.new_state(5)
    drawn = find(s.opening_events, "event_drawn")
    if s.phase == Phase.EVENT_CHOICE:  # a choice is pending: finish the pregame first
        while s.phase == Phase.EVENT_CHOICE:
            drawn += find(s.apply(s.legal_actions()[0]), "event_drawn")
    assert len(drawn) == players  # RN-12: one per player (two players, four gnomes: two)
    assert s.turn == 1 and s.phase == Phase.MOVE
    plain = RedNovember(players=players, gnomes=gnomes).new_state(5)
    assert not find(plain.opening_events, "event_drawn")


def test_option_less_deadly_dying_replaces_the_gnome():
    """RB Less Deadly Dying: "do not remove the Ghost Time Keeper or the player's Time Keeper
    ... discards all of his Item Cards and returns his Gnome Card to the sober side. Then, the
    player rolls the die to determine a random room. A new gnome, sober but itemless, stumbles
    out ... The game then continues as normal." (RULING: the Updates go on.)"""
    s = build(
        rooms=[5, 8, 9, 10],
        high=[5],
        hands={0: ["toolbox", "grog"]},
        intox={0: 3},
        less_deadly_dying=True,
        events=[card("descent", 2)],
        rolls=[9],
    )
    ev = play(s, "no-action")
    assert killed(ev) == {0: "drowned"}
    assert one(ev, "gnome_replaced").params == {"gnome": 0, "room": 9}
    assert s.alive[0] and s.room[0] == 9 and s.intox[0] == 0 and sum(s.hands[0]) == 0
    assert s.keeper[0] == 39 and drawn_spaces(ev) == [39]
    assert s.track[PRESS] == 2 and not s.is_terminal()


def test_option_less_deadly_dying_fainted_gnome_replaced():
    """RB Less Deadly Dying applies to every death (here a fainted gnome caught by fire)."""
    s = build(
        rooms=[5, 6, 9, 10],
        fainted=[1],
        less_deadly_dying=True,
        keepers=[40, 30, 30, 30],
        hands={1: ["crowbar"]},
        events=[card("fire", 2)],
        rolls=[6, 2],
    )
    ev = play(s, "no-action")
    assert killed(ev) == {1: "fire"}
    assert s.alive[1] and s.room[1] == 2 and not s.fainted[1] and s.keeper[1] == 30
    assert sum(s.hands[1]) == 0


def test_option_crazed_gnomes_hidden_hands():
    """RB Crazed Gnomes: "the paranoid gnomes keep all of their Item Cards secret from the other
    gnomes."."""
    s = build(crazed_gnomes=True, hands={0: ["crowbar"], 1: ["harpoon", "grog"]})
    v = s.view(0)
    assert v["gnomes"][0]["hand"] == {"crowbar": 1}
    assert v["gnomes"][1]["hand"] is None and v["gnomes"][1]["hand_size"] == 2
    assert s.view(None)["gnomes"][0]["hand"] is None
    assert build(hands={1: ["harpoon"]}).view(0)["gnomes"][1]["hand"] == {"harpoon": 1}


def test_option_crazed_gnomes_drawn_items_are_secret():
    """RB Crazed Gnomes: item cards are secret, so the cards a gnome draws are too."""
    s = build(rooms=[8, 9, 9, 9], crazed_gnomes=True)
    ev = play(s, "draw 1")
    drawn = one(ev, "items_drawn")
    assert "items" in drawn.params and "items" not in drawn.for_seat(1).params
    assert "items" in drawn.for_seat(0).params


def test_option_attack_needs_option_and_used_crowbar():
    """RB: "If the active gnome plays a Crowbar and his gnome is in the same room as another
    gnome, he may take the Attack Gnome action"."""
    s = build(rooms=[5, 5, 9, 10], hands={0: ["crowbar"]})
    assert illegal_code(s, "attack g2") == "option_off"
    s = build(rooms=[5, 5, 9, 10], hands={0: ["crowbar"]}, crazed_gnomes=True)
    assert "attack g2" not in legal(s)
    assert illegal_code(s, "attack g2") == "needs_crowbar"
    play(s, "use crowbar")
    assert "attack g2" in legal(s) and "attack g3" not in legal(s)


@pytest.mark.parametrize("low", [False, True])
def test_option_attack_undefended_slays_and_takes_items(low):
    """RB: "Attack Gnome action, which costs one minute to perform, plus two additional minutes
    if the room is flooded ... If he fails to do so, the defending gnome is immediately slain
    ... The winner of the fight takes the loser's Item Cards."."""
    s = build(
        rooms=[5, 5, 9, 10],
        low=[5] if low else [],
        crazed_gnomes=True,
        hands={0: ["crowbar"], 1: ["harpoon", "grog"]},
        rolls=[],
    )
    ev = play(s, "use crowbar", "attack g2")
    assert killed(ev) == {1: "slain"}
    assert hand(s, 0) == {"harpoon": 1, "grog": 1}
    assert turn_end_space(ev) == 40 - (3 if low else 1)


def test_option_attack_defender_may_yield():
    """RB: "the defending player may play a Crowbar in response ... If he fails to do so, the
    defending gnome is immediately slain."."""
    s = build(
        rooms=[5, 5, 9, 10],
        crazed_gnomes=True,
        hands={0: ["crowbar"], 1: ["crowbar", "toolbox"]},
        rolls=[],
    )
    play(s, "use crowbar", "attack g2")
    assert s.current_seat() == 1 and legal(s) == ["defend", "yield"]
    ev = play(s, "yield")
    assert killed(ev) == {1: "slain"} and hand(s, 0) == {"crowbar": 1, "toolbox": 1}


@pytest.mark.parametrize(
    ("ra", "rd", "ia", "id_", "winner"),
    [
        (5, 5, 0, 0, 0),  # tie goes to the attacker
        (5, 6, 0, 0, 1),
        (8, 6, 3, 0, 1),  # 8-3=5 < 6
        (4, 7, 0, 4, 0),  # 4 > 7-4=3
        (2, 5, 1, 4, 0),  # 1 vs 1: tie -> attacker
    ],
)
def test_option_attack_defended_fight(ra, rd, ia, id_, winner):
    """RB: "each of the two players rolls the die and subtracts his current intoxication level.
    The high roller's gnome slays the low roller's gnome, with ties going to the attacker. The
    winner of the fight takes the loser's Item Cards."."""
    s = build(
        rooms=[5, 5, 9, 10],
        crazed_gnomes=True,
        intox={0: ia, 1: id_},
        hands={0: ["crowbar", "harpoon"], 1: ["crowbar", "toolbox"]},
        rolls=[ra, rd],
    )
    play(s, "use crowbar", "attack g2")
    ev = play(s, "defend")
    fight = one(ev, "fight")
    assert (fight.params["score"], fight.params["target_score"]) == (ra - ia, rd - id_)
    assert fight.params["winner"] == winner
    loser = 1 - winner
    assert killed(ev) == {loser: "slain"}
    assert sum(s.hands[loser]) == 0
    # both Crowbars were played (discarded); the winner holds the other cards
    assert hand(s, winner) == {"harpoon": 1, "toolbox": 1}


def test_option_attack_fainted_gnome_cannot_defend():
    """RULING: a fainted gnome cannot defend (he is slain)."""
    s = build(
        rooms=[5, 5, 9, 10],
        crazed_gnomes=True,
        fainted=[1],
        hands={0: ["crowbar"], 1: ["crowbar"]},
        rolls=[],
    )
    ev = play(s, "use crowbar", "attack g2")
    assert killed(ev) == {1: "slain"}


def test_option_attack_lost_by_attacker_means_no_events():
    """RB Kicking the Bucket: "If the active gnome was killed ... Do not resolve any events this
    turn." (the attacker loses the fight)"""
    s = build(
        rooms=[5, 5, 9, 10],
        crazed_gnomes=True,
        hands={0: ["crowbar"], 1: ["crowbar"]},
        rolls=[1, 9],
    )
    before = len(s.event_deck)
    ev = play(s, "use crowbar", "attack g2", "defend")
    assert killed(ev) == {0: "slain"} and len(s.event_deck) == before


def test_option_two_players_four_gnomes():
    """RB 2 Players: "each player controls two gnomes. Each gnome keeps his items separate ...
    The "Abandon Comrades" action is ignored."."""
    game = RedNovember(players=2)
    assert game.num_seats == 4 and game.seat_owners() == (0, 0, 1, 1)
    assert not game.abandon_allowed
    s = game.new_state(3)
    assert s.keeper == [60] * 4 and [sum(h) for h in s.hands] == [2] * 4
    with pytest.raises(OptionError):
        RedNovember(players=2, gnomes=3)


def test_option_solitaire_at_least_three_gnomes():
    """RB Solitaire: "the player must control at least three gnomes (for a greater challenge,
    the player may opt to control more gnomes)."."""
    game = RedNovember(players=1)
    assert game.num_seats == 3 and game.seat_owners() == (0, 0, 0)
    big = RedNovember(players=1, gnomes=7)
    assert big.num_seats == 7 and big.new_state(1).keeper == [50] * 7
    assert not big.abandon_allowed
    with pytest.raises(OptionError):
        RedNovember(players=1, gnomes=2)
    with pytest.raises(OptionError):
        RedNovember(players=5, gnomes=6)


# =====================================================================================
# 9. Faint Check details
# =====================================================================================


@pytest.mark.parametrize(
    ("number", "level", "faints"),
    [(0, 4, False), (1, 1, True), (2, 1, False), (3, 3, True), (4, 3, False), (4, 4, True)],
)
def test_faint_check_number_vs_level(number, level, faints):
    """RB Faint Check: "If the card shows a dash instead of a number, the gnome automatically
    succeeds ... if the number is less than or equal to the gnome's current intoxication level,
    he faints."."""
    faint_card = next(
        e.index
        for e in C.events
        if e.faint == number
        and e.kind in ("respite", "descent", "fire", "reactor_warmup", "turbulence")
    )
    s = build(hands={0: ["grog"]}, intox={0: level - 1}, keepers=[40, 10, 10, 10])
    stack_events(s, faint_card, *RESPITES)
    ev = play(s, "use grog", "no-action")
    assert one(ev, "faint_check").params["fainted"] is faints
    assert turn_end_space(ev) == (29 if faints else 39)


def test_faint_check_only_after_using_grog():
    """RB: "If the active gnome has used any Grog cards this turn, he must make a Faint
    Check."."""
    s = build(intox={0: 4}, hands={0: ["toolbox"]})
    before = len(s.event_deck)
    ev = play(s, "use toolbox", "no-action")
    assert not find(ev, "faint_check") and len(s.event_deck) == before - 1  # only the 39 icon


def test_faint_ghost_never_passes_rescued():
    """RB: "Time Keepers cannot move past the "Rescued!" space." (fainting on 4 stops on 0)"""
    s = build(hands={0: ["grog"]}, intox={0: 3}, keepers=[5, 0, 0, 0], events=[card("fire", 1)])
    ev = play(s, "use grog", "no-action")
    assert one(ev, "gnome_fainted").params["minutes"] == 4
    assert s.keeper[0] == 0 and s.outcome().reason == "rescued"


def test_intoxication_never_goes_down_without_coffee():
    """RB: "The gnome's intoxication level does not change when he faints. Only the Coffee item
    can sober up a gnome." Coffee: "reduce his intoxication level by a maximum of two"."""
    s = build(
        hands={0: ["grog", "coffee"]},
        intox={0: 2},
        keepers=[40, 38, 30, 30],
        events=[card("fire", 1)],
    )
    play(s, "use grog", "no-action", "done")
    assert s.fainted[0] and s.intox[0] == 3
    s = build(hands={0: ["coffee"]}, intox={0: 1})
    play(s, "use coffee")
    assert s.intox[0] == 0


# =====================================================================================
# 10. More movement, updates and option corners
# =====================================================================================


def test_move_from_high_water_into_dry_room_reflows_then_enters():
    """RB Reflow: high water and no water equalize to low water on both sides; the gnome then
    enters a low-water room (+1 minute)."""
    s = build(rooms=[5, 8, 9, 10], high=[5])
    ev = play(s, "move 6")
    assert "water_reflowed" in keys(ev)
    assert (s.water[5], s.water[6], s.room[0], s.ghost) == (1, 1, 6, 38)


def test_move_into_burning_room_put_out_by_reflow_needs_no_grog():
    """RB: "If a Flood token is added to a room with a Fire token, the fire is put out" — the
    reflow happens before the gnome steps in, so the room is no longer burning."""
    s = build(rooms=[5, 8, 9, 10], high=[5], fire=[6])
    assert "move 6" in legal(s)
    ev = play(s, "move 6")
    assert "fire_out" in keys(ev) and not s.fire[6] and s.room[0] == 6 and s.ghost == 38


def test_move_fire_extinguisher_or_grog_lasts_the_whole_turn():
    """RB Grog: "The active gnome may enter rooms that are on fire this turn." (two burning
    rooms in a row after one Grog)"""
    s = build(rooms=[5, 8, 9, 10], fire=[2, 1], hands={0: ["fire_extinguisher"]})
    play(s, "use fire-extinguisher", "move 2", "move 1")
    assert s.room[0] == 1
    assert s.t_fire_ok


def test_updates_two_lucky_charms_ignore_six_icons():
    """FAQ 2: "Several items, even identical ones, may be used in one turn and their bonuses
    add up." (two Lucky Charms: the first six Draw Event Icons)"""
    s = build(
        rooms=[8, 9, 9, 9],
        keepers=[40, 20, 20, 20],
        hands={0: ["lucky_charm", "lucky_charm"]},
        events=[card("descent", 2)],
    )
    ev = play(s, "use lucky-charm", "use lucky-charm", "draw 4")
    ev += play(
        s,
        "move 9",
        "move 8",
        "move 9",
        "move 8",
        "move 9",
        "move 8",
        "move 9",
        "move 8",
        "move 9",
        "move 8",
        "move 9",
        "no-action",
    )  # 36 -> 23: 7 icons
    ignored = [e.params["space"] for e in find(ev, "event_ignored")]
    assert ignored == [39, 36]  # the first turn: two icons
    s2 = build(
        rooms=[4, 9, 9, 9],
        keepers=[40, 10, 10, 10],
        hands={0: ["lucky_charm", "lucky_charm"]},
        events=[card("descent", 2)],
        rolls=[1, 1],
    )
    ev = play(s2, "use lucky-charm", "use lucky-charm", "fix-reactor 10")
    ev += play(s2, "fix-reactor 10")  # he is still furthest back: 30 -> 20
    assert [e.params["space"] for e in find(ev, "event_ignored")] == [39, 36, 33, 30]
    # the charms only last for the turn they were used in
    assert drawn_spaces(ev) == [27, 24, 21]


def test_option_less_deadly_dying_keeps_the_players_lucky_charm():
    """RB Lucky Charm: "The active player may ignore the first three Event Icons he encounters
    on the Time Track this turn." Less Deadly Dying: "do not remove the Ghost Time Keeper or
    the player's Time Keeper ... The game then continues as normal." The charm was played by
    the player (and discarded); his Updates go on, so the icons should still be ignored."""
    s = build(
        rooms=[5, 8, 9, 10],
        high=[5],
        less_deadly_dying=True,
        rolls=[7],
        hands={0: ["lucky_charm"]},
        events=[card("descent", 2)],
    )
    ev = play(s, "use lucky-charm", "no-action")
    assert one(ev, "gnome_replaced")
    assert [e.params["space"] for e in find(ev, "event_ignored")] == [39]
    assert s.track[PRESS] == 1


def test_updates_choice_event_on_30_then_the_item_is_drawn():
    """RB: "When a Time Keeper reaches one of these spaces, resolve the Event Card before
    drawing the Item Card." (the event waits for a choice; the item follows it)"""
    s = build(
        rooms=[1, 9, 9, 9], keepers=[31, 20, 20, 20], events=[card("blocked_hatch", 1)], rolls=[5]
    )
    stack_items(s, "harpoon")
    play(s, "no-action")
    assert s.phase == Phase.EVENT_CHOICE and hand(s, 0) == {}
    play(s, "block 5-8")
    assert s.blocked[hatch(5, 8)] and hand(s, 0) == {"harpoon": 1}


def test_event_turbulence_on_30_discard_before_item():
    """RB: the event on a double-icon space is resolved before the item is drawn: a
    Turbulence there leaves the gnome with 4 + 1 cards."""
    s = build(
        rooms=[1, 9, 9, 9],
        keepers=[31, 20, 20, 20],
        events=[card("turbulence", 4)],
        hands={0: ["grog"] * 6},
    )
    stack_items(s, "harpoon")
    play(s, "no-action")
    assert hand(s, 0) == {"grog": 4, "harpoon": 1}


def test_event_stumble_with_one_card_or_less_changes_nothing():
    """RB Stumble: "discard all but one Item Card" (one card: nothing to discard)."""
    s = build(hands={0: ["toolbox"]}, events=[card("stumble", 4)])
    ev = play(s, "no-action")
    assert hand(s, 0) == {"toolbox": 1} and not find(ev, "item_discarded")
    assert s.phase == Phase.MOVE


def test_event_turbulence_dead_gnomes_do_not_discard():
    """RB: a dead gnome's cards were discarded already; he is out of the game."""
    s = build(hands={0: ["grog"] * 5}, events=[card("turbulence", 4)])
    s.alive[2] = False
    s.keeper[2] = -1
    s._legal = None
    play(s, "no-action")
    assert sum(s.hands[0]) == 4 and s.phase == Phase.MOVE


def test_diagnostics_open_during_extra_move_says_must_leave():
    """RB: after a failed Extinguish Fire "he must make a special extra move out of the room":
    opening a hatch and staying is refused, and the refusal should say why (``must_leave``, the
    code the engine defines for it)."""
    s = build(rooms=[1, 8, 9, 10], fire=[1], rolls=[10])
    play(s, "extinguish 2")
    assert illegal_code(s, "open 2") == "must_leave"


def test_diagnostics_wrong_answer_to_a_choice_is_not_wrong_phase():
    """An illegal answer of the right kind during the decision that asks for it (a flooded room
    for Fire Spreads, a hatch of another room) is not reported as being in the wrong phase."""
    s = build(rooms=[1, 8, 9, 10], fire=[5], low=[7], events=[card("fire_spreads", 4)])
    play(s, "no-action")
    assert s.phase == Phase.EVENT_CHOICE
    assert illegal_code(s, "spread 7") not in ("wrong_phase", "illegal")
    assert illegal_code(s, "no-action") == "wrong_phase"
    s = build(rooms=[1, 8, 9, 10], events=[card("blocked_hatch", 1)], rolls=[5])
    play(s, "no-action")
    assert illegal_code(s, "block 9-10") not in ("wrong_phase", "illegal")


# =====================================================================================
# 11. Invariants over random games (every rule above must hold in play)
# =====================================================================================


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"less_deadly_dying": True},
        {"crazed_gnomes": True, "heroic_sacrifice": True},
        {"players": 8},
        {"players": 2},
        {"players": 1, "gnomes": 5},
        {"greater_challenge": 2},
    ],
)
def test_invariants_in_random_games(options):
    """RB/COMPONENTS invariants: 54 item cards and 56 event cards are conserved; "A flooded
    room can never be on fire"; no fainted gnome survives in a burning or high-water room
    after an Updates phase; the active gnome's keeper is furthest back (top of its stack);
    tracks stay in 1..10 and intoxication in 0..4; exterior hatches are never blocked (there
    are 15 interior hatches)."""
    import random

    opts = {"players": 4, **options}
    game = RedNovember(**opts)
    for seed in range(100):
        s = game.new_state(seed)
        r = random.Random(seed)
        while not s.is_terminal():
            s.apply(r.choice(s.legal_actions()))
            items = sum(map(sum, s.hands)) + len(s.item_deck) + len(s.item_discard) + s.stash
            events = (
                len(s.event_deck) + len(s.event_discard) + len(s.event_removed) + len(s.event_aside)
            )
            assert (items, events) == (54, 56)
            assert all(1 <= x <= 10 for x in s.track) and all(0 <= x <= 4 for x in s.intox)
            assert len(s.blocked) == 15
            for room in range(1, 11):
                assert not (s.fire[room] and s.water[room])
            for g in range(s.n):
                if s.on_board(g) and s.fainted[g] and s.room[g] != SEA:
                    assert not s.fire[s.room[g]] and s.water[s.room[g]] != 2
                if not s.on_board(g) and not s.abandoned[g]:
                    assert sum(s.hands[g]) == 0
            if s.phase == Phase.MOVE and not s.is_terminal():
                a = s.active
                assert s.ghost <= s.keeper[a]
                for g in range(s.n):
                    if g != a and s.on_board(g) and s.keeper[g] > 0:
                        assert (s.keeper[g], s.seq[g]) < (s.keeper[a], s.seq[a])


def test_components_event_and_item_decks():
    """RB Components: "56 Event Cards", "54 Item Cards"; COMPONENTS.md gives the copies and the
    Faint Check numbers; RB Setup: "Separate six "Grog" cards"."""
    from collections import Counter

    assert len(C.events) == 56 and sum(i.copies for i in C.items) == 54
    kinds = Counter(e.kind for e in C.events)
    assert kinds == {
        "fire": 8,
        "fire_spreads": 3,
        "leak": 3,
        "underwater_current": 1,
        "blocked_hatch": 9,
        "descent": 6,
        "fast_descent": 1,
        "reactor_warmup": 6,
        "reactor_malfunction": 2,
        "engine_down": 1,
        "oxygen_pumps_down": 1,
        "missile_launch": 2,
        "turbulence": 2,
        "stumble": 2,
        "friendly_fire": 1,
        "overheated": 1,
        "respite": 6,
        "kraken": 1,
    }
    assert sorted(e.faint for e in C.events if e.kind == "fire") == [0, 0, 1, 2, 2, 3, 4, 4]
    assert [e.faint for e in C.events if e.kind == "respite"] == [0, 0, 1, 1, 3, 4]
    assert {i.kind: i.copies for i in C.items} == {
        "grog": 12,
        "fire_extinguisher": 6,
        "water_pump": 6,
        "crowbar": 4,
        "toolbox": 4,
        "aqualung": 4,
        "engine_manual": 3,
        "pump_manual": 3,
        "reactor_manual": 3,
        "deactivation_code": 3,
        "harpoon": 3,
        "lucky_charm": 2,
        "coffee": 1,
    }
    assert C.items[ITEM["grog"]].stash == 6
    assert len(C.hatches) == 15 and C.exterior == (3, 6, 9)


def test_move_exterior_passage_needs_its_two_minutes():
    """RB: opening a hatch costs 1 minute and "Moving through an exterior hatch always costs one
    minute": with a single minute left the gnome can open the hatch but not pass it (RB: "Time
    Keepers cannot move past the "Rescued!" space")."""
    s = build(rooms=[3, 8, 9, 10], keepers=[1, 0, 0, 0], hands={0: ["aqualung"]})
    play(s, "use aqualung")
    assert "move sea" not in legal(s) and "open sea" in legal(s)
    assert illegal_code(s, "move sea") == "no_time"
    s = build(rooms=[SEA, 8, 9, 10], keepers=[1, 0, 0, 0])
    assert not any(a.startswith("move") for a in legal(s))


def test_end_keeper_on_the_token_space_has_not_passed_it():
    """RB: the sub is lost "If all players' Time Keepers pass the Destruction token": a keeper
    that stops *on* the token's space has not passed it (RULING RN-16)."""
    s = build(rooms=[8, 9, 9, 9], tokens={"crushed": 37})
    play(s, "draw 3")  # 40 -> 37, everybody else on 30
    assert not s.is_terminal() and s.keeper[0] == 37 and s.active == 0
    play(s, "no-action")  # 37 -> 36: now every keeper is past it
    assert s.is_terminal() and s.outcome().reason == "crushed"


def test_action_unblock_from_either_side():
    """RB Unblock Hatch: "If there is a Hatch Blocked token in the gnome's room, he can try to
    remove it." (a hatch belongs to both of its rooms)"""
    for room in (4, 5):
        s = build(rooms=[room, 8, 9, 10], blocked=[(4, 5)], rolls=[1])
        play(s, "unblock 4-5 1")
        assert not s.blocked[hatch(4, 5)]


def test_option_less_deadly_dying_replacement_not_killed_before_he_can_move():
    """RB Less Deadly Dying: "A new gnome ... stumbles out of his hiding place there to take the
    place of our brave, fallen sailor. The game then continues as normal." RB Kicking the
    Bucket: the active gnome dies in a burning room at the start of his Updates "(i.e., he was
    unable to move out of the room during his turn)" — the new gnome never had a turn to move.
    Here the gnome faints outside (dies), his replacement is rolled into burning room 7."""
    s = build(
        rooms=[3, 8, 9, 10],
        fire=[7],
        less_deadly_dying=True,
        hands={0: ["aqualung", "grog"]},
        events=[card("fire", 1)],
        rolls=[7, 4],
    )
    ev = play(s, "use aqualung", "move sea", "use grog", "no-action")
    assert killed(ev) == {0: "fainted_outside"}
    assert len(find(ev, "gnome_replaced")) == 1 and s.room[0] == 7
