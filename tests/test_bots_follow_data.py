"""Bots that follow the data: a variant's components are what the bots count and price.

Each test builds a variant the way ``subtable simulate --set`` does (:func:`validate`, then
the registry) and checks that the heuristic's numbers — deck odds, events ahead, Grog's
bonus, the item deck, the value features — are those of the modified components. For the
packaged components the bots choose as before (the seeded games elsewhere pin that).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from rn_scenarios import build
from subtable.bots.base import observe
from subtable.bots.red_november.expert import RNExpert
from subtable.bots.submarine.expert import SubExpert
from subtable.core.record import GameRecord, replay
from subtable.core.registry import make_game
from subtable.core.variants import VariantError, read_variant, validate
from subtable.games.red_november import rules as rn_rules
from subtable.sim.runner import play_game


def _rn(sets: list[str], players: int = 4) -> Any:
    return make_game("red-november", read_variant("red-november", None, sets), players=players)


def _notation(game: Any, ids: list[int]) -> list[str]:
    return [game.action_space[i].notation() for i in ids]


# -- Red November: the event deck and the Time Track ----------------------------------------
def test_deck_odds_are_the_modified_counts() -> None:
    game = _rn(["events.descent=10", "events.fast_descent=3", "events.reactor_warmup=0"])
    c = game.components
    expert = RNExpert(game)
    view: Any = observe(game.new_state(5), 0).view
    counts, total = expert.odds.deck_counts(view)
    unseen = Counter(
        c.events[i].kind
        for i in rn_rules.unseen_events(c, view.event_discard, view.event_removed, view.event_aside)
    )
    assert counts == dict(unseen) and total == sum(unseen.values())
    assert counts["descent"] == 10 - sum(
        1 for i in (*view.event_discard, *view.event_removed) if c.events[i].kind == "descent"
    )
    assert "reactor_warmup" not in counts
    rates = expert.odds.track_rates(view, counts, total)
    pressure, heat = c.tracks.index("pressure"), c.tracks.index("heat")
    assert rates[pressure] == (
        round(counts["descent"] / total, 3),
        round(counts["fast_descent"] / total, 3),
    )
    assert rates[heat] == (0.0, round(counts.get("reactor_malfunction", 0) / total, 3))


def test_faint_odds_are_the_modified_faint_numbers() -> None:
    # every card a 1: any intoxicated gnome faints on every card
    sets = [f"events.{e}=[1]" for e in sorted({e.kind for e in _rn([]).components.events})]
    game = _rn(sets)
    expert = RNExpert(game)
    view: Any = observe(game.new_state(2), 0).view
    assert expert.odds.faint_chance(view, 0) == 0.0
    assert expert.odds.faint_chance(view, 1) == 1.0


@pytest.mark.parametrize(("divisor", "per_keeper"), [(3, 19), (4, 14), (10, 5)])
def test_events_ahead_are_the_time_tracks_icons(divisor: int, per_keeper: int) -> None:
    game = _rn([f"time_track.event_spaces_divisor={divisor}"])
    c = game.components
    expert = RNExpert(game)
    state = game.new_state(1)
    view: Any = observe(state, 0).view
    assert set(view.keeper) == {c.time_top}
    assert sum(c.event_icon) == per_keeper
    assert expert.odds.remaining_events(view) == 4 * per_keeper
    # one keeper further down: the icons left between his space and the end
    keeper = list(view.keeper)
    for space in (40, 20, 9, 1):
        keeper[0] = space
        moved: Any = dataclasses.replace(view, keeper=tuple(keeper))
        ahead = sum(1 for s in range(1, space + 1) if c.event_icon[s])
        assert expert.odds.remaining_events(moved) == 3 * per_keeper + ahead
    # the value model's feature of the events to come scales with the track's icons
    assert expert.features(view)[-1] == pytest.approx(1.0)


# -- Red November: Grog's bonus and the item deck -------------------------------------------
def _grog_at_the_engine() -> Any:
    """Gnome 0 in the Engine Room with a Grog, pressure near its end, 8 minutes left."""
    state = build(rooms=[1, 8, 9, 10], hands={0: ["grog"]}, track=[1, 1, 8], keepers=[8, 5, 5, 5])
    return observe(state, 0).view


def test_the_planner_drinks_for_grogs_own_bonus() -> None:
    view = _grog_at_the_engine()
    base = make_game("red-november", players=4)
    # packaged: Grog adds 3, so 7 minutes make a sure success (7 + 3 = 10)
    assert _notation(base, RNExpert(base).plan(view))[:2] == ["use grog", "fix-engine 7"]
    for bonus in (5, 7):
        game = _rn([f"items.grog.bonus.engine={bonus}"])
        assert game.components.items[game.components.item_index("grog")].bonus[3] == bonus
        plan = _notation(game, RNExpert(game).plan(view))
        assert plan[:2] == ["use grog", f"fix-engine {rn_rules.DIE - bonus}"]
    # a Grog that adds nothing to the engine is not drunk for it
    game = _rn(["items.grog.bonus.engine=0"])
    assert "use grog" not in _notation(game, RNExpert(game).plan(view))[:1]


def test_the_item_deck_pool_is_each_kinds_copies_less_its_stash() -> None:
    for sets in (
        ["items.grog={copies = 10, stash = 4}", "items.harpoon=5", "items.coffee=0"],
        [],
    ):
        game = _rn(sets)
        c = game.components
        state = game.new_state(7)
        expert = RNExpert(game)
        view: Any = observe(state, 0).view
        deck = Counter(state.item_deck)
        for g, hand in enumerate(view.hands):
            if hand is None:  # a hidden hand: its cards may be in the deck for all seat 0 knows
                deck.update({i: k for i, k in enumerate(state.hands[g]) if k})
        assert expert.items.deck_pool(view) == [deck[it.index] for it in c.items]
        assert expert.items.deck_copies == [it.copies - it.stash for it in c.items]


def test_a_draw_is_priced_on_each_kinds_own_stash() -> None:
    """Components with a stash beside Grog's (loaded from a file, not a ``--set`` variant,
    which refuses it): the deck holds each kind's copies less its own stash."""
    from subtable.games.red_november.game import RedNovember

    base = make_game("red-november", players=4).components  # type: ignore[attr-defined]
    items = tuple(
        dataclasses.replace(it, stash=2) if it.kind == "toolbox" else it for it in base.items
    )
    game = RedNovember(components=dataclasses.replace(base, items=items), players=4)
    state = game.new_state(7)
    expert = RNExpert(game)
    view: Any = observe(state, 0).view
    deck = Counter(state.item_deck)
    for g, hand in enumerate(view.hands):
        if hand is None:
            deck.update({i: k for i, k in enumerate(state.hands[g]) if k})
    values = expert.items.values(view, 0)
    mean = sum(values[i] * k for i, k in deck.items()) / sum(deck.values())
    assert expert.items.draw_value(view, 0, 1) == pytest.approx(mean)


def test_only_grog_starts_in_the_stash() -> None:
    with pytest.raises(VariantError) as info:
        read_variant("red-november", None, ["items.harpoon={copies = 5, stash = 2}"])
    assert info.value.key == "items.harpoon.stash"


@pytest.mark.parametrize(
    ("sets", "key"),
    [
        (["items.grog.bonus.enginee=5"], "items.grog.bonus.enginee"),
        (["items.grog.bonus.engine=-1"], "items.grog.bonus.engine"),
        (["time_track.event_spaces_from=61"], "time_track.event_spaces_from"),
        (["time_track.event_spaces_to=58"], "time_track.event_spaces_to"),
        (["time_track.event_spaces_divisor=0"], "time_track.event_spaces_divisor"),
        (["time_track.event_spaces_divisor=70"], "time_track.event_spaces_divisor"),
    ],
)
def test_bad_bonus_and_icon_overrides_are_refused(sets: list[str], key: str) -> None:
    with pytest.raises(VariantError) as info:
        read_variant("red-november", None, sets)
    assert info.value.key == key


def test_a_variant_with_new_icons_and_bonuses_plays_and_replays(tmp_path: Any) -> None:
    overrides = validate(
        "red-november",
        {
            "time_track": {"event_spaces_divisor": 4},
            "items": {"grog": {"bonus": {"engine": 5, "reactor": 1}}},
        },
    )
    game = make_game("red-november", overrides, players=4)
    assert sum(game.components.event_icon) == 14  # type: ignore[attr-defined]
    play_game(game, 4, ["heuristic"] * 4, record_to=tmp_path, game_name="red-november")
    record = GameRecord.load(tmp_path / "game-4.json")
    assert record.variant == overrides
    assert replay(record).digest() == record.digest


# -- Submarine: treasures per level, and the value features' scales -------------------------
def test_treasures_per_level_deal_that_many_tokens_per_cell() -> None:
    game = make_game(
        "submarine", read_variant("submarine", None, ["treasures.per_level=[4, 3, 2, 1]"])
    )
    c = game.components  # type: ignore[attr-defined]
    assert c.treasures_per_level == (4, 3, 2, 1)
    state = game.new_state(3)
    assert [len(cell) for cell in state.cells] == [4, 3, 2, 1] * c.columns
    assert sorted(t for cell in state.cells for t in cell) == list(range(c.treasure_tokens))
    # the packaged components: level L holds L
    plain = make_game("submarine").new_state(3)
    assert [len(cell) for cell in plain.cells] == [1, 2, 3, 4] * c.columns


@pytest.mark.parametrize(
    "sets",
    [
        ["treasures.per_level=[1, 2, 3]"],  # 3 counts for 4 levels
        ["treasures.per_level=[1, 2, -3, 4]"],  # negative
        ["treasures.per_level=[2, 2, 3, 4]"],  # 66 tokens needed, 60 exist
        ["treasures.per_level=[1, 2, 3, 3]"],  # 54 dealt: 6 treasures left out
    ],
)
def test_impossible_treasures_per_level_are_refused_naming_the_key(sets: list[str]) -> None:
    with pytest.raises(VariantError) as info:
        read_variant("submarine", None, sets)
    assert info.value.key.startswith("treasures.per_level")
    assert "treasures.per_level" in info.value.message


def test_too_many_treasures_per_level_names_the_supply() -> None:
    with pytest.raises(VariantError, match=r"need 66 treasure tokens; there are only 60"):
        read_variant("submarine", None, ["treasures.per_level=[2, 2, 3, 4]"])


def test_submarine_value_features_follow_the_modified_counts() -> None:
    sets = ["treasures.per_level=[4, 3, 2, 1]", "players.2.cards=20", "players.2.bathyscaphes=7"]
    game = make_game("submarine", read_variant("submarine", None, sets), players=2)
    expert = SubExpert(game)  # type: ignore[arg-type]
    state: Any = game.new_state(6)
    b = expert.board(observe(state, 0).view)
    f = expert.seat_features(b, 0)
    assert f[6] == pytest.approx(20 / 20)  # every card still held, on the variant's scale
    assert f[11] == pytest.approx(1.0)  # every treasure still in the sea
    # near: wanted treasures in the cells of the seat's bathyscaphes, on the most placed (7)
    state.baths[0] = [0, 4]  # two level-1 cells of the variant: 4 treasures each
    b = expert.board(observe(state, 0).view)
    assert expert.seat_features(b, 0)[10] == pytest.approx(8 / 7)


@pytest.mark.parametrize("bot", ["heuristic", "ismcts:budget=8"])
def test_bots_play_a_submarine_variant_to_the_end(bot: str) -> None:
    overrides = read_variant("submarine", None, ["treasures.per_level=[4, 3, 2, 1]"])
    game = make_game("submarine", overrides, players=3)
    result = play_game(game, 2, [bot] * 3)
    assert result.decisions > 0 and result.winners
