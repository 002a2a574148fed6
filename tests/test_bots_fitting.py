"""``scripts/fit_values.py``: the leaf-value fitting, outside the runtime package."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from subtable.bots.weights import parse_model

ROOT = Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fit_values", ROOT / "scripts" / "fit_values.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fit_values"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game, width", [("red-november", 28), ("submarine", 13)])
def test_positions_are_read_from_views_and_labelled(game: str, width: int) -> None:
    fit = _script()
    rows = fit.collect(game, 2, 5, 1)
    assert rows and all(len(f) == width and won in (0, 1) for f, won in rows)
    weights, loss, prior = fit.fit_weights(rows + [(f, 1 - won) for f, won in rows[:3]])
    assert len(weights) == width and loss > 0 and prior > 0


def test_the_script_writes_what_the_loader_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fit = _script()
    fit.BOTS = tmp_path
    (tmp_path / "submarine").mkdir()
    assert fit.main(["--game", "submarine", "--games", "3", "--workers", "1", "--write"]) == 0
    assert "log loss" in capsys.readouterr().out
    data = json.loads((tmp_path / "submarine" / "weights.json").read_text())
    assert len(parse_model(data).weights) == 13
    assert data["refit"].startswith("python scripts/fit_values.py --game submarine")
