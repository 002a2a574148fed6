"""The wheel's build hook: the search's hot modules compiled with mypyc.

The modules listed in ``pyproject.toml`` (``[tool.hatch.build.targets.wheel.hooks.custom]
compile``: Red November's engine and expert) are compiled to C extensions from the same typed
sources, which stay in the wheel beside them. Python imports an extension before a source of the
same name, so the game and the bots run the compiled code; they play exactly as the sources do
(``docs/performance.md``), in a little over half of the instructions.

``SUBTABLE_COMPILE`` says what to do: ``auto`` (the default) compiles and, where that fails (no C
compiler, say), warns and builds the pure-Python wheel; ``require`` fails instead (CI); ``no``
skips it. An editable install (``pip install -e``) is never compiled, so that an edited source
takes effect at once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

_SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(name="subtable-compiled", ext_modules=mypycify({paths!r}, opt_level="3"))
"""
#: mypy checks the compiled modules' imports of third-party packages (pydantic, fastapi…),
#: which the build environment does not hold: they are read as untyped
_MYPY_INI = """\
[mypy]
python_version = {version}
ignore_missing_imports = True
follow_imports = silent
"""


class CompileHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles the configured modules with mypyc into the wheel (see the module's text)."""

    PLUGIN_NAME = "custom"
    #: the compilation's directory, removed once the wheel is built
    _work: Path | None = None

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        mode = os.environ.get("SUBTABLE_COMPILE", "auto").strip().lower() or "auto"
        if mode not in ("auto", "require", "no"):
            raise ValueError(f"SUBTABLE_COMPILE must be auto, require or no, not {mode!r}")
        if self.target_name != "wheel" or version == "editable" or mode == "no":
            return
        try:
            built = self._compile()
        except OSError as error:
            if mode == "require":
                raise
            self.app.display_warning(
                f"subtable: the modules were not compiled ({error}); the wheel is pure Python:"
                " the same play, about 1.5 times slower"
            )
            return
        for path, relative in built.items():
            build_data["force_include"][str(path)] = relative
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)
            self._work = None

    def _compile(self) -> dict[Path, str]:
        """Compile into a directory of its own: the extensions by their wheel paths."""
        root = Path(self.root)
        patterns = self.config.get("compile", [])
        sources = sorted({p for pattern in patterns for p in (root / "src").glob(pattern)})
        if not sources:
            raise OSError(f"no module matches {patterns!r}")
        work = self._work = Path(tempfile.mkdtemp(prefix="subtable-mypyc-"))
        out = work / "lib"
        # a copy of the package: mypyc's build writes beside its sources, and the project's own
        # pyproject.toml would be read by setuptools as this setup's
        shutil.copytree(root / "src" / "subtable", work / "subtable")
        paths = [str(p.relative_to(root / "src")) for p in sources]
        (work / "setup.py").write_text(_SETUP.format(paths=paths))
        (work / "mypy.ini").write_text(
            _MYPY_INI.format(version="{}.{}".format(*sys.version_info[:2]))
        )
        log = work / "build.log"
        with log.open("w") as handle:
            done = subprocess.run(
                [sys.executable, "setup.py", "build_ext", "--build-lib", str(out)],
                cwd=work,
                stdout=handle,
                stderr=subprocess.STDOUT,
            )
        if done.returncode:
            raise OSError(f"mypyc failed (exit {done.returncode}):\n{log.read_text()[-3000:]}")
        built = {path: str(path.relative_to(out)) for path in out.rglob("*") if path.is_file()}
        if not any(name.startswith("subtable/") for name in built.values()):
            raise OSError(f"mypyc built no module of subtable (see {log})")
        return built
