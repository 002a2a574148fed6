"""The decision-quality benchmark (``benchmarks/bench_decisions.py``) measures what it says:
positions where the expert offers a choice, and a bot's regret by the reference's chances."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_decisions.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_decisions", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_decisions"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def found(bench: ModuleType) -> list[object]:
    return bench.positions("red-november", 4, 77, 1)[:6]


def test_positions_are_choices_of_the_seat_to_play(found: list[object]) -> None:
    assert len(found) == 6
    for pos in found:
        assert not pos.state.is_terminal()  # type: ignore[attr-defined]
        assert pos.state.current_seat() == pos.seat  # type: ignore[attr-defined]
        assert pos.expert in pos.state.legal_action_ids()  # type: ignore[attr-defined]


def test_regret_is_the_reference_chance_given_up(bench: ModuleType, found: list[object]) -> None:
    # a reference that rates the expert's choice 0.2 and another option 0.5: the heuristic
    # (the expert's choice, every time) gives up 0.3 at each position
    chances = []
    for pos in found:
        other = next(a for a in pos.state.legal_action_ids() if a != pos.expert)  # type: ignore[attr-defined]
        chances.append({pos.expert: 0.2, other: 0.5})  # type: ignore[attr-defined]
    judged = bench.judge("red-november", 4, found, chances, "heuristic", 2)
    for j in judged:
        assert j.regrets == pytest.approx([0.3, 0.3])
        assert (j.as_expert, j.as_reference, j.outside) == (2, 0, 0)
    assert "regret 300.00 [300.00, 300.00]" in bench.report("heuristic", judged)
    # rated the other way round, it has no regret and chooses as the reference
    flipped = [{a: 0.7 - c for a, c in ch.items()} for ch in chances]
    judged = bench.judge("red-november", 4, found, flipped, "heuristic", 1)
    assert all(j.regrets == [0.0] and j.as_reference == 1 for j in judged)


def test_a_choice_the_reference_did_not_rate_is_counted_apart(
    bench: ModuleType, found: list[object]
) -> None:
    chances = [{-1: 0.5} for _ in found]  # the reference rated no action the bot can play
    judged = bench.judge("red-november", 4, found, chances, "heuristic", 1)
    assert all(j.outside == 1 and j.regrets == [] for j in judged)
    assert bench.mean_regret(judged[0]) == 0.0


def test_the_figures_do_not_depend_on_the_workers_and_the_reference_is_kept(
    bench: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = bench.Setup("red-november", 4, 77, 1, 4)
    chances = bench.reference_all(setup, 4, 8, 2, tmp_path)
    assert chances == bench.reference_all(setup, 4, 8, 1, None)  # seeds follow the index
    assert len(list(tmp_path.glob("reference-*.json"))) == 1

    def refused(job: object) -> None:
        raise AssertionError("the kept reference was not read back")

    monkeypatch.setattr(bench, "_reference_part", refused)
    assert bench.reference_all(setup, 4, 8, 1, tmp_path) == chances
    one = bench.judge_all(setup, chances, "ismcts:budget=8", 2, 1)
    two = bench.judge_all(setup, chances, "ismcts:budget=8", 2, 2)
    assert [j.regrets for j in one] == [j.regrets for j in two]
    assert [j.iterations for j in one] == [j.iterations for j in two] != [0, 0, 0, 0]
