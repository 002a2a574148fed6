"""The Red November expert's walks and crew plans in set positions (``rn_scenarios.build``)."""

from __future__ import annotations

from typing import Any

from rn_scenarios import build
from subtable.bots.base import make_bot, observe
from subtable.bots.red_november.expert import RNExpert
from subtable.core.rng import Rng
from subtable.games.red_november import RedNovemberState


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
    plain = _iterations(build(**calm), budget=budget)
    assert budget <= plain < 2 * budget
    token = build(**calm, tokens={"crushed": 5})
    assert RNExpert.crisis_effort * budget <= _iterations(token, budget=budget)
    assert _iterations(token, budget=budget, effort=False) < 2 * budget
    # a server's ceiling bounds the effort too (web/botpool.py sets it to its max_budget)
    assert _iterations(token, ceiling=budget, budget=budget) < 2 * budget
