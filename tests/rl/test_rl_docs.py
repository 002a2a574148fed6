"""docs/rl.md's examples print what they say.

Every ```python block runs in a fresh interpreter; a ``print(...)  # text`` line's comment is
what it prints (exactly, or up to a ``...``).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOCS.read_text(), flags=re.S)


def _expected(block: str) -> list[str]:
    out = []
    for line in block.splitlines():
        if line.startswith("print(") and "  # " in line:
            out.append(line.split("  # ", 1)[1].strip())
    return out


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_docs_example(index: int) -> None:
    block = BLOCKS[index]
    if "import pyspiel" not in block and "subtable.rl" not in block:
        pytest.skip("not an rl example")
    run = subprocess.run(
        [sys.executable, "-c", block], capture_output=True, text=True, timeout=300, check=False
    )
    assert run.returncode == 0, run.stderr
    printed = run.stdout.splitlines()
    expected = _expected(block)
    assert len(printed) >= len(expected)
    for want, got in zip(expected, printed, strict=False):
        if "..." in want:
            assert got.startswith(want.split("...")[0].rstrip(" ,")), (want, got)
        else:
            assert got == want
