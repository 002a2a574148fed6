"""Golden playthroughs: any unintended change of the rules shows up here."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _golden_module():
    spec = importlib.util.spec_from_file_location("golden", ROOT / "scripts" / "golden.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_playthroughs_match_the_committed_digests() -> None:
    golden = _golden_module()
    expected = json.loads(golden.GOLDEN.read_text())
    assert expected, "the golden file is empty"
    games = {row["game"] for row in expected}
    assert games == {"red-november", "submarine"}
    assert golden.drift(expected, golden.playthroughs()) == []
