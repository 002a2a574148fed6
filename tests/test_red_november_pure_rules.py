"""``red_november.rules``: the pure functions agree with the die, with the engine, and can be
read off a seat's view exactly as the engine reads them off its state."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest

from rn_scenarios import TOKEN, build, play
from subtable.core.rng import Rng
from subtable.games.red_november import RedNovember, RedNovemberState, rules
from subtable.games.red_november.actions import Kind
from subtable.games.red_november.components import FIX_KINDS, SEA, default_components
from subtable.games.red_november.view import Choice, Phase

C = default_components()


def positions(options: dict[str, object], seeds: range) -> Iterator[RedNovemberState]:
    game = RedNovember(**options)
    for seed in seeds:
        state = game.new_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            yield state
            ids = state.legal_action_ids()
            state.apply_unchecked(ids[rng.below(len(ids))])


POSITIONS = [
    {"players": 4},
    {"players": 5, "crazed_gnomes": True},
    {"players": 3, "less_deadly_dying": True, "greater_challenge": 2},
]


def kinds(state: RedNovemberState, kind: Kind) -> set[int]:
    return {a.target for a in state.legal_actions() if a.kind == kind}


@pytest.mark.parametrize("minutes", range(1, 11))
@pytest.mark.parametrize("bonus", range(0, 12))
def test_fix_success_chance_is_the_die_odds(minutes: int, bonus: int) -> None:
    wins = sum(rules.fix_succeeds(roll, minutes, bonus) for roll in range(1, rules.DIE + 1))
    assert rules.fix_success_chance(minutes, bonus) == Fraction(wins, rules.DIE)
    assert rules.fix_success_chance(minutes, bonus) == min(
        Fraction(1), Fraction(minutes + bonus, 10)
    )


@pytest.mark.parametrize("roll", range(1, 11))
def test_the_engine_resolves_a_fix_as_fix_succeeds_says(roll: int) -> None:
    s = build(rooms=[1, 8, 9, 10], hands={0: ["engine_manual"]}, track=[1, 1, 6], rolls=[roll])
    play(s, "use engine-manual")
    bonus = s.t_bonus[FIX_KINDS.index("engine")]
    events = play(s, "fix-engine 4")
    fix = next(e for e in events if e.key == "fix_attempted")
    assert fix.params["bonus"] == bonus > 0
    assert fix.params["success"] == rules.fix_succeeds(roll, 4, bonus)
    assert (s.track[2] == 5) == fix.params["success"]


def test_a_fix_after_the_token_space_never_succeeds() -> None:
    s = build(rooms=[1, 8, 9, 10], keepers=[35, 30, 30, 30], tokens={"crushed": 30})
    assert rules.fix_success_chance(6, 0, token=30, ghost_after=29) == 0
    assert rules.fix_success_chance(5, 0, token=30, ghost_after=30) == Fraction(1, 2)
    events = play(s, "fix-engine 6")
    fix = next(e for e in events if e.key == "fix_attempted")
    assert fix.params["roll"] is None and fix.params["auto_fail"] == "crushed"
    assert s.token[TOKEN["crushed"]] == 30


def test_moves_read_off_a_view_are_the_engines_moves() -> None:
    """What a bot computes from the view with ``can_open``/``move_cost`` is exactly legal."""
    checked = 0
    for options in POSITIONS:
        for state in positions(options, range(4)):
            if state.phase != Phase.MOVE:
                continue
            v = state.observe(state.current_seat())
            src = v.room[v.active]
            reachable = set()
            for dest, hatch in C.neighbours[src]:
                if not rules.can_open(v.water, v.blocked, src, dest, hatch):
                    continue
                cost = rules.move_cost(
                    v.water,
                    v.fire,
                    v.blocked,
                    src,
                    dest,
                    hatch,
                    fire_ok=v.this_turn.fire_ok,
                    aqualung=v.this_turn.aqualung,
                )
                if cost is not None and cost <= v.ghost:
                    reachable.add(dest)
            assert reachable == kinds(state, Kind.MOVE)
            checked += 1
    assert checked > 200


def test_other_rules_read_off_a_view_agree_with_the_engine() -> None:
    counts = dict.fromkeys(("draw", "trade", "spread", "turn"), 0)
    for options in POSITIONS:
        for state in positions(options, range(4)):
            v = state.observe(state.current_seat())
            if v.phase == Phase.EVENT_CHOICE and v.choice == Choice.SPREAD:
                assert set(rules.spread_rooms(C, v.fire, v.water)) == kinds(state, Kind.SPREAD)
                counts["spread"] += 1
            if v.phase != Phase.MOVE:
                continue
            a, r = v.active, v.room[v.active]
            assert rules.next_active(v.keeper, v.stack, v.alive, v.abandoned) == a
            counts["turn"] += 1
            if not rules.room_allows(v.fire, v.water, r, Kind.DRAW):
                continue
            pen = rules.action_penalty(C, Kind.DRAW, v.water, r)
            most = rules.max_draw(
                C, r, v.red_room[a], v.ghost - pen, v.item_deck_size + len(v.item_discard), v.stash
            )
            draws = [x.minutes for x in state.legal_actions() if x.kind == Kind.DRAW]
            assert max(draws, default=0) == most
            counts["draw"] += bool(most)
            if v.ghost >= 1 + pen:
                partners = rules.trade_partners(a, v.room, v.alive, v.abandoned, v.fainted)
                assert set(partners) == kinds(state, Kind.TRADE)
                counts["trade"] += bool(partners)
    assert all(counts.values()), counts


def test_exterior_hatches_and_reflow() -> None:
    dry = [0] * (SEA + 1)
    no_fire = [False] * (SEA + 1)
    free = [False] * len(C.hatches)
    exterior = next(r for r in C.exterior)
    # RN-1: two minutes through an exterior hatch whatever the water; the Sea needs an Aqualung
    for level in (0, 1):
        water = list(dry)
        water[exterior] = level
        assert (
            rules.move_cost(water, no_fire, free, SEA, exterior, -1, fire_ok=False, aqualung=False)
            == 2
        )
    assert (
        rules.move_cost(dry, no_fire, free, exterior, SEA, -1, fire_ok=False, aqualung=False)
        is None
    )
    assert rules.move_cost(dry, no_fire, free, exterior, SEA, -1, fire_ok=False, aqualung=True) == 2
    # an inner hatch: high water flows into a dry room (both low: 2 minutes), never into low
    src, (dest, hatch) = 5, next(n for n in C.neighbours[5] if n[1] >= 0)
    water = list(dry)
    water[dest] = 2
    assert rules.reflows(0, 2) and rules.reflows(2, 0) and not rules.reflows(1, 2)
    assert (
        rules.move_cost(water, no_fire, free, src, dest, hatch, fire_ok=False, aqualung=False) == 2
    )
    water[src] = 1
    assert not rules.can_open(water, free, src, dest, hatch)
    blocked = list(free)
    blocked[hatch] = True
    assert (
        rules.move_cost(dry, no_fire, blocked, src, dest, hatch, fire_ok=True, aqualung=True)
        is None
    )


def test_small_rules() -> None:
    assert [rules.track_after_repair(C, level) for level in range(1, 10)] == [
        1,
        1,
        1,
        1,
        1,
        5,
        5,
        5,
        5,
    ]
    assert not rules.faints(0, 4) and rules.faints(2, 2) and not rules.faints(3, 2)
    assert rules.attacker_wins(5, 0, 5, 0) and not rules.attacker_wins(8, 3, 6, 0)
    assert rules.icons_passed(C.event_icon, 60, 0) == sum(C.event_icon[0:60])
    assert rules.icons_passed(C.event_icon, 10, 10) == 0
    assert rules.deadly([False] * 12, [0, 0, 2] + [0] * 9, 2) == "drowned"
    assert rules.deadly([True] * 12, [0] * 12, SEA) is None
    assert rules.max_draw(C, C.stores_room, C.stores_room, 9, 40, 6) == 0  # the red area
    assert rules.max_draw(C, C.cabin_room, 0, 9, 40, 1) == 1
    assert rules.trade_partners(0, [SEA, SEA, 3], [True] * 3, [False] * 3, [False] * 3) == []
