"""The Red November expert's walks and crew plans in set positions (``rn_scenarios.build``)."""

from __future__ import annotations

from typing import Any

from rn_scenarios import C, build
from subtable.bots.base import make_bot, observe
from subtable.bots.heuristic import SearchHooks
from subtable.bots.red_november.expert import RNExpert
from subtable.bots.red_november.tasks import Tasks
from subtable.core.rng import Rng
from subtable.games.red_november import RedNovemberState
from subtable.games.red_november.components import SEA


def _first_action(state: RedNovemberState) -> str:
    """The expert's choice for the active gnome (seat 0), in notation."""
    game = state.game
    obs = observe(state, 0)
    chosen = RNExpert(game).choose(obs.view, 0, obs.legal_ids, Rng(0))
    return str(game.action_space[chosen].notation())


def test_a_walk_reflows_a_flood_only_once() -> None:
    # Room 5 at high water is entered from dry room 2 by reflowing it: both rooms go to
    # low water, so room 5's flood cannot then reflow into burning room 8 and put it out.
    state = build(rooms=[2, 1, 1, 1], high=[5], fire=[8], blocked=[(5, 7)])
    expert = RNExpert(state.game)
    view: Any = observe(state, 0).view
    minutes, _first = expert.routes.paths(view, 2, False, False)
    assert minutes[5] == 2  # open the hatch (1) and wade into the low water it leaves (1)
    assert 8 not in minutes  # still burning: no Fire Extinguisher, no Grog
    assert minutes[6] == 3  # onwards from room 5 as the low-water room it has become
    with_fire_items = expert.routes.paths(view, 2, True, False)[0]
    assert 8 in with_fire_items


def _cut_off_missiles(partner_keeper: int) -> RedNovemberState:
    # Missile Control (7) is cut off by three blocked hatches; the Missiles Launched!
    # token lies on space 10. The active gnome (room 5, 18 minutes, a Crowbar) can open
    # the hatch 5-7 for sure (7 minutes) but has no time left to stop the launch himself;
    # the gnome in room 4 has ``partner_keeper`` minutes. The Heat track is high, so the
    # reactor is the best task of one's own.
    return build(
        rooms=[5, 4, 1, 2],
        keepers=[18, partner_keeper, 12, 12],
        blocked=[(5, 7), (7, 8), (7, 9)],
        hands={0: ["crowbar"]},
        tokens={"missiles": 10},
        track=[1, 7, 1],
    )


def test_a_cut_off_destruction_token_is_opened_for_a_gnome_who_can_finish() -> None:
    # the gnome in room 4 has 17 minutes: after the hatch is open he reaches Missile
    # Control with time for a try before the token (17 - 2 - 10)
    assert _first_action(_cut_off_missiles(17)) == "use crowbar"


def test_nobody_opens_a_way_that_nobody_can_use_in_time() -> None:
    # with 11 minutes he could not try before the token: the active gnome sees to the reactor
    assert _first_action(_cut_off_missiles(11)) == "move 4"


def _iterations(state: RedNovemberState, ceiling: int | None = None, **params: Any) -> int:
    bot = make_bot("ismcts", state.game, 0, Rng(3), race=0, **params)
    bot.ceiling = ceiling  # type: ignore[attr-defined]
    bot.choose(observe(state, 0))
    return int(bot.last_iterations)


def test_a_search_spends_more_while_a_destruction_token_is_on_the_time_track() -> None:
    # two ways to go (the reactor, the engine), a calm sub but for the tracks
    calm = dict(rooms=[2, 1, 1, 1], track=[1, 6, 6])
    budget = 20
    plain = _iterations(build(**calm), budget=budget, start=1)
    assert budget <= plain < 2 * budget
    token = build(**calm, tokens={"crushed": 5})
    assert RNExpert.crisis_effort * budget <= _iterations(token, budget=budget)
    assert _iterations(token, budget=budget, effort=False) < 2 * budget
    # a server's ceiling bounds the effort too (web/botpool.py sets it to its max_budget)
    assert _iterations(token, ceiling=budget, budget=budget) < 2 * budget


def test_a_search_spends_its_start_effort_at_a_calm_turns_first_decision_alone() -> None:
    calm = build(rooms=[2, 1, 1, 1], track=[1, 6, 6])
    expert = RNExpert(calm.game)
    first = calm.observe(0)
    assert expert.value.at_turn_start(first)
    assert expert.search_effort(first) == RNExpert.start_effort
    assert expert.search_effort(first, 3.0) == 3.0
    budget = 20
    for start in (1, 3):
        assert (
            start * budget <= _iterations(calm, budget=budget, start=start) < (start + 1) * budget
        )
    # the same position after the gnome's first step: no longer a turn's first decision
    moved = calm.clone()
    moved.apply_unchecked(moved.legal_action_ids()[0])
    later = moved.observe(0)
    assert later.phase == first.phase and not expert.value.at_turn_start(later)
    assert expert.search_effort(later, 3.0) == 1.0
    # a crisis takes the crisis effort, turn start or not
    token = build(rooms=[2, 1, 1, 1], track=[1, 6, 6], tokens={"crushed": 5})
    assert expert.search_effort(token.observe(0), 3.0) == RNExpert.crisis_effort


def _walk_to_the_reactor() -> tuple[RedNovemberState, SearchHooks, Tasks]:
    """The reactor (room 4) to fix, three rooms from the active gnome's cabin (10); a
    search's hooks, and their expert's tasks (``asked`` counts its whole-turn plans: each
    prices every task)."""
    state = build(rooms=[10, 1, 1, 1], track=[1, 6, 1])
    expert = RNExpert(state.game)
    return state, SearchHooks(state.game, expert, walk=True), expert.tasks


def test_a_search_walks_on_to_its_task_without_planning_the_turn_again() -> None:
    # The reactor is three rooms from the cabin: the turn is planned once, at its start;
    # each later step of the walk prices the reactor alone, and the steps are the ones a
    # whole plan takes at every step (the expert as the heuristic bot plays it).
    state, hooks, tasks = _walk_to_the_reactor()
    game = state.game
    judge = RNExpert(game)
    steps = []
    for _ in range(4):
        ids = state.legal_action_ids()
        action = hooks.act(state, ids, Rng(0))
        assert action == judge.choose(observe(state, 0).view, 0, ids, Rng(0))
        steps.append(game.action_space[action].notation())
        state.apply_unchecked(action)
    assert steps == ["move 8", "move 5", "move 4", "fix-reactor 4"]
    assert tasks.asked == 1


def test_what_a_walk_is_for_goes_only_to_the_next_decision_of_its_world() -> None:
    state, hooks, tasks = _walk_to_the_reactor()
    game = state.game
    first = hooks.act(state, state.legal_action_ids(), Rng(0))  # move 8, for the reactor
    copy = state.clone()
    copy.apply_unchecked(first)
    hooks.act(copy, copy.legal_action_ids(), Rng(0))  # another world: the turn is planned
    assert tasks.asked == 2
    hooks.act(state, state.legal_action_ids(), Rng(0))
    other = game.action_space.parse("move 9").id  # not the step the walk was for
    state.apply_unchecked(other)
    hooks.act(state, state.legal_action_ids(), Rng(0))
    assert tasks.asked == 4


def test_a_followed_walk_takes_the_whole_plans_steps_in_expert_games() -> None:
    # the expert plays 8 games; wherever the search's hooks would follow a walk, their step
    # is compared with the whole plan's (3,827 of 3,877 agree over 100 games of seed 77:
    # `python benchmarks/bench_bots.py walks`)
    game = RNExpert(build().game).game
    hooks = SearchHooks(game, RNExpert(game), walk=True)
    judge = RNExpert(game)
    followed = same = 0
    for seed in range(8):
        state = game.new_state(seed)
        while not state.is_terminal():
            ids = state.legal_action_ids()
            if len(ids) > 1:
                seat = state.current_seat()
                assert seat is not None
                full = judge.choose(observe(state, seat).view, seat, ids, Rng(0))
                carried = hooks._carried
                walking = carried is not None and carried[0] is state
                step = hooks.act(state, ids, Rng(0))
                if walking and carried is not None and carried[1] == len(state.history):
                    followed += 1
                    same += step == full
                state.apply_unchecked(full)
            else:
                state.apply_unchecked(ids[0])
    assert followed > 100
    assert same >= 0.95 * followed


def test_a_search_with_no_plan_at_all_takes_the_experts_moves() -> None:
    # Outside since the turn began, and every room by the sea at high water: no way back
    # in, so the whole plan is empty (the search's hooks once failed on it).
    by_sea = [r for r in range(1, 11) if any(d == SEA for d, _ in C.neighbours[r])]
    state = build(rooms=[SEA, 1, 1, 1], high=by_sea)
    state.t_outside = True
    game = state.game
    expert = RNExpert(game)
    view: Any = observe(state, 0).view
    assert expert.plan(view, alternatives=True) == []
    hooks = SearchHooks(game, RNExpert(game), walk=True)
    ids = state.legal_action_ids()
    assert hooks.candidates(state, ids, 4) == expert.candidates(view, 0, ids, 4, Rng(0))
    assert hooks.act(state, ids, Rng(0)) == expert.choose(view, 0, ids, Rng(0))
