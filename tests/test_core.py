"""The game-agnostic core: generator, action space, options, records."""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass

import pytest

from subtable.core import rng as rng_module
from subtable.core.actions import ActionSpace
from subtable.core.errors import AmbiguousActionError, InvalidActionError, OptionError, RecordError
from subtable.core.events import Event
from subtable.core.game import OptionSpec, parse_option_args
from subtable.core.record import GameRecord, replay
from subtable.core.registry import make_game
from subtable.core.rng import Rng


def test_rng_is_deterministic_and_clones() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    c = a.clone()
    assert [a.die() for _ in range(20)] == [c.die() for _ in range(20)]
    assert Rng(1).next64() != Rng(2).next64()


def test_rng_known_stream_is_stable() -> None:
    """Records replay across Python versions only if the stream never changes."""
    assert Rng(0).next64() == 0xE220A8397B1DCDAF
    assert [Rng(7).die(10) for _ in range(1)] == [Rng(7).die(10)]


def test_rng_bounds_and_shuffle() -> None:
    rng = Rng(3)
    rolls = [rng.die(10) for _ in range(2000)]
    assert set(rolls) == set(range(1, 11))
    items = list(range(30))
    rng.shuffle(items)
    assert sorted(items) == list(range(30)) and items != list(range(30))
    with pytest.raises(ValueError):
        rng.below(0)


def test_rng_shuffle_draws_like_below() -> None:
    """``shuffle`` draws a deck's numbers at once: the same swaps as one ``below`` at a time,
    and the generator left in the same place."""
    for seed in range(40):
        for size in (0, 1, 2, 7, 8, 40, 128, 129):
            fast, slow = Rng(seed), Rng(seed)
            items, expected = list(range(size)), list(range(size))
            fast.shuffle(items)
            for i in range(size - 1, 0, -1):
                j = slow.below(i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            assert items == expected and fast.state == slow.state


def test_rng_shuffle_goes_on_draw_by_draw_after_a_rejection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deck's draws are computed together; if ``below`` would reject one (about once in
    2**56 draws), the shuffle goes on with ``below`` from there, as if it had all along."""
    real = rng_module._lanes

    def rejecting(count: int) -> tuple[int, int, int, struct.Struct, tuple[int, ...]]:
        ones, steps, mask, layout, thresholds = real(count)
        return ones, steps, mask, layout, (*thresholds[:5], 1 << 64, *thresholds[6:])

    real_below = Rng.below
    bounds: list[int] = []

    def below(self: Rng, n: int) -> int:
        bounds.append(n)
        return real_below(self, n)

    monkeypatch.setattr(rng_module, "_lanes", rejecting)  # the 6th draw "rejected"
    monkeypatch.setattr(Rng, "below", below)
    for seed in range(20):
        fast, slow = Rng(seed), Rng(seed)
        items, expected = list(range(30)), list(range(30))
        bounds.clear()
        fast.shuffle(items)
        assert bounds == list(range(25, 1, -1))  # draw by draw from the 6th draw, below(25)
        for i in range(29, 0, -1):
            j = slow.below(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected and fast.state == slow.state


def test_rng_below_rejects_biased_outputs() -> None:
    def below(rng: Rng, n: int) -> int:  # rejection sampling, spelled out
        while True:
            r = rng.next64()
            if r >= ((1 << 64) - n) % n:
                return r % n

    for n in (1, 2, 10, 1000, (1 << 63) + 1):  # the last rejects about half the outputs
        fast, slow = Rng(n), Rng(n)
        assert [fast.below(n) for _ in range(20)] == [below(slow, n) for _ in range(20)]


@dataclass(frozen=True)
class _Act:
    id: int
    text: str

    def notation(self) -> str:
        return self.text


def test_action_space_parse_and_resolve() -> None:
    acts = [_Act(0, "move 1"), _Act(1, "no-action"), _Act(2, "abandon"), _Act(3, "attack g2")]
    space = ActionSpace(acts)
    assert space.parse("  MOVE   1 ") is acts[0]
    assert space.resolve("no", acts) is acts[1]
    assert space.resolve("a", [acts[2]]) is acts[2]
    with pytest.raises(AmbiguousActionError, match="could mean"):
        space.resolve("a", [acts[2], acts[3]])
    with pytest.raises(InvalidActionError):
        space.parse("fly 3")
    with pytest.raises(InvalidActionError):
        space.resolve("   ", acts)
    with pytest.raises(InvalidActionError):
        space.from_id(99)


def test_action_space_rejects_bad_tables() -> None:
    with pytest.raises(ValueError, match="expected 0"):
        ActionSpace([_Act(1, "x")])
    with pytest.raises(ValueError, match="share"):
        ActionSpace([_Act(0, "x"), _Act(1, "x")])


def test_option_parsing() -> None:
    specs = {
        "n": OptionSpec("n", int, 1, "n", (1, 2)),
        "flag": OptionSpec("flag", bool, False, "f"),
    }
    assert parse_option_args(specs, ["n=2", "flag"]) == {"n": 2, "flag": True}
    assert parse_option_args(specs, ["flag=off"]) == {"flag": False}
    for bad in (["x=1"], ["n=two"], ["flag=maybe"], ["n"]):
        with pytest.raises(OptionError):
            parse_option_args(specs, bad)
    with pytest.raises(OptionError, match="one of"):
        specs["n"].check(3)


def test_event_redaction() -> None:
    e = Event("items_drawn", {"gnome": 1, "items": ["grog"]}, (1,), ("items",))
    assert e.for_seat(1) is e
    assert "items" not in e.for_seat(0).params and "items" not in e.for_seat(None).params
    assert json.loads(json.dumps(e.to_json()))["key"] == "items_drawn"


def _finished_record() -> GameRecord:
    game = make_game("red-november", players=4)
    state = game.new_state(5)
    rng = Rng(9)
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state.apply(ids[rng.below(len(ids))])
    return GameRecord.of("red-november", state)


def test_record_round_trip_and_replay(tmp_path) -> None:
    record = _finished_record()
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    state = replay(loaded)
    assert state.digest() == record.digest and state.is_terminal()


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(digest="0" * 64), "digest"),
        (lambda d: d["actions"].__setitem__(0, "fly 3"), "action 1"),
        (lambda d: d["actions"].append("no-action"), "action"),
        (lambda d: d.pop("seed"), "seed"),
        (lambda d: d.update(seed="x"), "seed"),
        (lambda d: d.update(format="pgn"), "format"),
        (lambda d: d["options"].update(players=11), "options"),
        (lambda d: d.update(game="chess"), "unknown game"),
        (lambda d: d.update(ruleset="red-november/1999"), "ruleset"),
    ],
)
def test_tampered_records_are_refused(mutate, message) -> None:
    data = _finished_record().to_json()
    mutate(data)
    with pytest.raises(RecordError, match=message):
        replay(GameRecord.from_json(data))


def test_unreadable_record_files(tmp_path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        GameRecord.load(bad)
    bad.write_text("[1, 2]")
    with pytest.raises(RecordError, match="JSON object"):
        GameRecord.load(bad)


def test_apply_gives_only_its_declared_reasons() -> None:
    from subtable.core.errors import IllegalActionError
    from subtable.core.game import APPLY_REASONS
    from subtable.core.registry import make_game

    other = make_game("submarine", players=2).action_space[0]
    state = make_game("red-november", players=3).new_state(1)
    seen = set()
    wrong_seat = (state.current_seat() + 1) % 3
    for attempt in (lambda: state.apply(other), lambda: state.apply(0, seat=wrong_seat)):
        try:
            attempt()
        except IllegalActionError as exc:
            seen.add(exc.code)
    while not state.is_terminal():
        state.apply_unchecked(state.legal_action_ids()[0])
    try:
        state.apply(0)
    except IllegalActionError as exc:
        seen.add(exc.code)
    assert seen == APPLY_REASONS


def test_the_chance_fingerprint_moves_with_the_generator_only() -> None:
    from subtable.core.registry import make_game

    state = make_game("red-november", players=3).new_state(0x5EED_2026_0001)
    before = state.chance_fingerprint()
    assert state.clone().chance_fingerprint() == before
    position = state.rng.state
    assert str(position) not in str(before) and f"{position:x}" not in str(before)
    twin = state.clone()
    twin.rng.next64()  # a die rolled
    assert twin.chance_fingerprint() != before
