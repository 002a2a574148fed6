"""Shared set-up of the research adapters' tests: the shared helpers (``tests/honesty.py``)
importable from ``tests/rl``, and PettingZoo's warnings about the dict-with-mask observation
silenced."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

_TESTS = str(Path(__file__).resolve().parent.parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    """The dict-with-mask observation pattern: PettingZoo's documented, harmless warnings."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        yield
