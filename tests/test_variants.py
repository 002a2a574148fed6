"""Variants as data: component overrides, their validation, and their records."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from subtable.bots.base import observe
from subtable.core.record import GameRecord, replay
from subtable.core.registry import make_game
from subtable.core.variants import (
    VariantError,
    describe,
    parse_sets,
    read_variant,
    validate,
    variant_of,
)
from subtable.games.red_november.components import default_components as rn_default
from subtable.games.submarine.components import default_components as sub_default
from subtable.sim.runner import play_game


def test_set_pieces_nest_and_parse_toml_values() -> None:
    assert parse_sets(
        ["events.fire=10", "time_track.start.6=50", "disaster_tracks.reset_points=[1, 4]"]
    ) == {
        "events": {"fire": 10},
        "time_track": {"start": {"6": 50}},
        "disaster_tracks": {"reset_points": [1, 4]},
    }


def test_red_november_overrides_change_only_what_they_name() -> None:
    overrides = read_variant(
        "red-november", None, ["events.fire=10", "events.kraken=2", "time_track.start.6=50"]
    )
    game = make_game("red-november", overrides, players=6)
    c, base = game.components, rn_default()  # type: ignore[attr-defined]
    kinds, base_kinds = Counter(e.kind for e in c.events), Counter(e.kind for e in base.events)
    assert kinds["fire"] == 10 and kinds["kraken"] == 2
    assert {k: v for k, v in kinds.items() if k not in ("fire", "kraken")} == {
        k: v for k, v in base_kinds.items() if k not in ("fire", "kraken")
    }
    # the printed Faint Check numbers, in order, repeated for the extra copies
    printed = [e.faint for e in base.events if e.kind == "fire"]
    assert [e.faint for e in c.events if e.kind == "fire"] == printed + printed[:2]
    assert c.start_space[6] == 50 and c.start_space[7] == base.start_space[7]
    assert c.items == base.items and c.neighbours == base.neighbours
    assert variant_of(game) == overrides
    # the packaged data never changes
    assert rn_default() is base and Counter(e.kind for e in rn_default().events)["fire"] == 8


def test_a_components_file_and_sets_merge(tmp_path: Path) -> None:
    path = tmp_path / "v.toml"
    path.write_text("[events]\nfire = 6\n[items.grog]\ncopies = 10\nstash = 4\n", encoding="utf-8")
    overrides = read_variant("red-november", path, ["events.fire=7", "items.harpoon=5"])
    assert overrides == {
        "events": {"fire": 7},
        "items": {"grog": {"copies": 10, "stash": 4}, "harpoon": 5},
    }
    c = make_game("red-november", overrides).components  # type: ignore[attr-defined]
    grog = c.items[c.item_index("grog")]
    assert (grog.copies, grog.stash) == (10, 4)
    assert c.items[c.item_index("harpoon")].copies == 5
    assert describe(overrides) == [
        "events.fire=7",
        "items.grog.copies=10",
        "items.grog.stash=4",
        "items.harpoon=5",
    ]


def test_submarine_overrides() -> None:
    overrides = read_variant("submarine", None, ["players.3.bathyscaphes=4", "cards.hand_size=4"])
    game = make_game("submarine", overrides, players=3)
    c = game.components  # type: ignore[attr-defined]
    assert c.setups[3].bathyscaphes == 4 and c.setups[3].cards == sub_default().setups[3].cards
    assert c.hand_size == 4 and c.setups[4] == sub_default().setups[4]


@pytest.mark.parametrize(
    ("game", "sets", "key"),
    [
        ("red-november", ["events.firee=3"], "events.firee"),
        ("red-november", ["events.fire=-1"], "events.fire"),
        ("red-november", ["events.fire=[1, -2]"], "events.fire.1"),
        ("red-november", ["rooms.1=x"], "rooms"),
        ("red-november", ["items.harpoon.copies=-3"], "items.harpoon.copies"),
        ("red-november", ["items.grog=3"], "items.grog.stash"),
        ("red-november", ["disaster_tracks.start=10"], "disaster_tracks.start"),
        ("red-november", ["disaster_tracks.length=4"], "disaster_tracks.reset_points"),
        ("red-november", ["time_track.start.6=61"], "time_track.start.6"),
        ("red-november", ["time_track.start.9=50"], "time_track.start.9"),
        ("red-november", ["time_track.speed=2"], "time_track.speed"),
        ("submarine", ["players.3.cards=30"], "players.3.cards"),
        ("submarine", ["players.3.bathyscaphes=0"], "players.3.bathyscaphes"),
        ("submarine", ["players.3.cards=2"], "players.3.cards"),
        ("submarine", ["board.levels=3"], "board"),
        ("submarine", ["cards.per_colour=5"], "cards.per_colour"),
    ],
)
def test_invalid_overrides_are_refused_naming_the_key(game: str, sets: list[str], key: str) -> None:
    with pytest.raises(VariantError) as info:
        read_variant(game, None, sets)
    assert info.value.key == key
    assert key in info.value.message


def test_a_bad_piece_is_refused() -> None:
    with pytest.raises(VariantError, match=r"KEY\.PATH=VALUE"):
        parse_sets(["events.fire"])


def test_a_variant_record_replays_and_carries_its_overrides(tmp_path: Path) -> None:
    overrides = validate(
        "red-november", {"events": {"kraken": 2}, "disaster_tracks": {"length": 12}}
    )
    game = make_game("red-november", overrides, players=4)
    play_game(game, 11, ["heuristic"] * 4, record_to=tmp_path, game_name="red-november")
    path = tmp_path / "game-11.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["variant"] == overrides
    record = GameRecord.load(path)
    state = replay(record)
    assert state.digest() == record.digest
    # without its overrides the same actions are another game
    plain = GameRecord.from_json({k: v for k, v in data.items() if k != "variant"})
    with pytest.raises(Exception):  # noqa: B017 - a RecordError of some kind
        replay(plain)


def test_a_record_without_overrides_has_no_variant_field(tmp_path: Path) -> None:
    game = make_game("submarine", players=3)
    play_game(game, 5, ["random"] * 3, record_to=tmp_path, game_name="submarine")
    data = json.loads((tmp_path / "game-5.json").read_text(encoding="utf-8"))
    assert "variant" not in data
    assert list(data) == [
        "format",
        "game",
        "ruleset",
        "options",
        "seed",
        "actions",
        "digest",
        "result",
        "meta",
    ]
    assert replay(GameRecord.from_json(data)).digest() == data["digest"]


def test_a_record_with_a_bad_variant_is_refused() -> None:
    from subtable.core.errors import RecordError

    game = make_game("submarine", players=3)
    state = game.new_state(1)
    data = GameRecord.of("submarine", state).to_json()
    data["variant"] = {"players": {"3": {"bathyscaphes": -1}}}
    with pytest.raises(RecordError, match=r"players\.3\.bathyscaphes"):
        replay(GameRecord.from_json(data))
    data["variant"] = [1]
    with pytest.raises(RecordError, match="variant"):
        GameRecord.from_json(data)


# -- bots that follow the data ------------------------------------------------------------
def test_the_heuristics_deck_odds_follow_a_modified_deck() -> None:
    from subtable.bots.red_november.expert import RNExpert

    overrides = validate("red-november", {"events": {"fire": 12, "respite": 0, "leak": [1, 2]}})
    game = make_game("red-november", overrides, players=4)
    base = make_game("red-november", players=4)
    for g, fire, respite, leak in ((game, 12, 0, 2), (base, 8, 6, 3)):
        state = g.new_state(3)
        view = observe(state, 0).view
        counts, total = RNExpert(g).odds.deck_counts(view)  # type: ignore[arg-type]
        seen = Counter(
            g.components.events[i].kind  # type: ignore[attr-defined]
            for i in (*view.event_discard, *view.event_removed)  # type: ignore[attr-defined]
        )
        assert counts.get("fire", 0) == fire - seen["fire"]
        assert counts.get("respite", 0) == respite - seen["respite"]
        assert counts.get("leak", 0) == leak - seen["leak"]
        deck = len(g.components.events) - 1  # type: ignore[attr-defined]  # the Kraken aside
        assert total == deck - sum(seen.values())


def test_the_heuristics_track_risk_follows_the_track_length() -> None:
    from subtable.bots.red_november.expert import RNExpert
    from subtable.bots.red_november.risk import track_risk
    from subtable.bots.red_november.value import FEATURE_HORIZON

    overrides = validate("red-november", {"disaster_tracks": {"length": 14}})
    game = make_game("red-november", overrides, players=4)
    c = game.components  # type: ignore[attr-defined]
    view: Any = observe(game.new_state(3), 0).view
    expert = RNExpert(game)  # type: ignore[arg-type]
    counts, total = expert.odds.deck_counts(view)
    rates = expert.odds.track_rates(view, counts, total)
    remaining = expert.odds.remaining_events(view)
    expected = [
        track_risk(view.track[t], horizon, *rates[t], end=c.track_length)
        for horizon in (remaining, min(remaining, FEATURE_HORIZON))
        for t in range(len(c.tracks))
    ]
    features = expert.value.features(view)
    start = 4 + len(c.tracks)
    assert features[start : start + len(expected)] == pytest.approx(expected)
