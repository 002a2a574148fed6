"""The installed build: Red November's engine and expert compiled where the wheel was built
with a C compiler (``hatch_build.py``), the same modules from source otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
from typer.testing import CliRunner

import subtable
from subtable.cli import app
from subtable.games.red_november import state

pytestmark = pytest.mark.slow  # most tests here take over two seconds

ROOT = Path(__file__).resolve().parent.parent


def test_the_build_says_which_modules_run_compiled() -> None:
    # an editable install (or src on the path) runs the sources; a wheel built as
    # `pip install .` builds it runs the compiled modules, unless compiling was turned off
    from_source = Path(subtable.__file__).resolve().is_relative_to(ROOT / "src")
    pure = from_source or os.environ.get("SUBTABLE_COMPILE", "").lower() == "no"
    names = subtable.compiled_modules()
    if pure:
        assert names == []
    else:
        assert {
            "subtable.games.red_november.state",
            "subtable.games.red_november.rules",
            "subtable.bots.red_november.planning",
            "subtable.bots.red_november.expert",
        } <= set(names)
        assert not any(n.startswith("subtable.games.submarine") for n in names)
    # what the build says is what Python imports
    assert state.__file__ is not None
    assert state.__file__.endswith(tuple(EXTENSION_SUFFIXES)) == (not pure)
    shown = CliRunner().invoke(app, ["--version"]).stdout
    assert shown.startswith(f"subtable {subtable.__version__} (")
    assert ("pure Python" if pure else f"{len(names)} modules compiled") in shown


def test_a_machine_without_a_c_compiler_gets_the_pure_wheel(tmp_path: Path) -> None:
    # the first README command must work where no compiler is at hand: the build hook warns
    # and the wheel holds the sources alone (CC=false stands for the missing compiler)
    env = dict(os.environ, CC="false", SUBTABLE_COMPILE="auto")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(tmp_path), str(ROOT)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "the modules were not compiled" in done.stdout + done.stderr
    (wheel,) = tmp_path.glob("subtable-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "subtable/games/red_november/state.py" in names
    assert not [n for n in names if n.endswith(".so") or n.endswith(".pyd")]
    # and where compiling is required, the same failure stops the build (CI requires it)
    env["SUBTABLE_COMPILE"] = "require"
    refused = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path / "r"), str(ROOT)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode != 0
    assert "mypyc failed" in refused.stdout + refused.stderr
