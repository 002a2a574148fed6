"""subtable: rules-exact digital editions of Red November and Submarine.

The engine lives in :mod:`subtable.core` (game-agnostic) and
:mod:`subtable.games` (one package per game). Everything else — bots, the
simulation lab, the command line — is a layer around the same engine.
"""

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

__version__ = "0.1.0"


def compiled_modules() -> list[str]:
    """The modules of this installation that run compiled (mypyc, ``hatch_build.py``: Red
    November's engine and expert in a wheel built where a C compiler was at hand), by name;
    empty where everything runs from its Python source (an editable install, ``src``)."""
    root = Path(__file__).parent
    names = []
    for path in root.rglob("*"):
        suffix = next((s for s in EXTENSION_SUFFIXES if path.name.endswith(s)), None)
        if suffix is not None:
            relative = path.relative_to(root.parent).as_posix()[: -len(suffix)]
            names.append(relative.replace("/", "."))
    return sorted(names)
