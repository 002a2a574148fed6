"""The suite's markers: registered, strictly spelled, and set on the tests they name, so that
``-m "not browser and not server"`` leaves out every test that drives Chromium."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: a file of browser tests and one of in-process web tests (no browser, no server)
BROWSER_FILE = "tests/web/test_browser_people.py"
IN_PROCESS_FILE = "tests/web/test_follow.py"


def test_the_markers_are_registered_and_strict(pytestconfig: pytest.Config) -> None:
    names = {line.split(":")[0] for line in pytestconfig.getini("markers")}
    assert {"browser", "server", "slow"} <= names
    assert pytestconfig.getoption("strict_markers")


def test_the_quick_selection_leaves_out_the_browser_tests() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-n",
            "0",
            "-m",
            "not browser and not server",
            BROWSER_FILE,
            IN_PROCESS_FILE,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    chosen = [line for line in done.stdout.splitlines() if "::" in line]
    assert chosen and all(i.startswith(IN_PROCESS_FILE) for i in chosen)
    assert "deselected" in done.stdout
