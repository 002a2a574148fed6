"""The bots package's shape: no import cycle, no arrow up to the lab, no engine internals.

Walks the import statements of every module under ``src/subtable/bots`` with
``ast`` (imports inside functions included), so a lazy import counts as much
as a top-level one.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from module_graph import find_cycle, module_name

BOTS = Path(__file__).resolve().parent.parent / "src" / "subtable" / "bots"


def _modules() -> dict[str, Path]:
    return {module_name(p, BOTS.parent.parent): p for p in sorted(BOTS.rglob("*.py"))}


def _imports(path: Path, module: str) -> set[str]:
    """Every module ``path`` imports (``from a import b`` counts as ``a`` and ``a.b``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.add(target)
            out.update(f"{target}.{alias.name}" for alias in node.names)
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {m for m in _imports(path, name) if m in modules and m != name}
    return graph


def test_the_walk_sees_the_expert_packages() -> None:
    graph = _graph()
    assert "subtable.bots.red_november.expert" in graph
    assert "subtable.bots.submarine.expert" in graph
    assert "subtable.bots.red_november.paths" in graph["subtable.bots.red_november.planning"]


def test_no_import_cycle_in_bots() -> None:
    assert find_cycle(_graph()) is None


def test_bots_never_import_the_lab() -> None:
    for name, path in _modules().items():
        lab = sorted(
            m for m in _imports(path, name) if m == "subtable.sim" or m.startswith("subtable.sim.")
        )
        assert not lab, f"{name} imports {lab}"


def test_bots_import_no_engine_state() -> None:
    """Bots read views, rules and components; never a game's state module."""
    for name, path in _modules().items():
        state = sorted(
            m
            for m in _imports(path, name)
            if re.fullmatch(r"subtable\.games\.\w+\.(state|determinize)(\..*)?", m)
        )
        assert not state, f"{name} imports {state}"


FORBIDDEN = [
    r'view\[\s*"public"\s*\]',
    r"getattr\(\s*state",
    r"range\(7\)",
    r"\bP_[A-Z]+\b",
    r"\bC_(SPREAD|BLOCK|DISCARD)\b",
    r"from_state",
    r"public_fields",
    r"\bstate\.[a-z_]*_deck\b",
    r"\bstate\.(phase|turn|seat|hands?|pile|baths|cells|keeper|room|fire|water)\b",
    r"game\.info\.name\s*==",
]


@pytest.mark.parametrize("pattern", FORBIDDEN)
def test_no_engine_internals_in_bots(pattern: str) -> None:
    hits = [
        f"{path.relative_to(BOTS)}:{i}: {line.strip()}"
        for path in sorted(BOTS.rglob("*.py"))
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(pattern, line)
    ]
    assert not hits, "\n".join(hits)


def test_modules_and_classes_stay_small() -> None:
    """Sizes as ``ruff format`` lays the code out (it spreads long calls over lines)."""
    for path in sorted(BOTS.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= 400, f"{path.relative_to(BOTS)} is over 400 lines"
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                assert size <= 350, f"{path.relative_to(BOTS)}: class {node.name} is {size} lines"


def test_fitted_weights_are_packaged_data() -> None:
    for game in ("red_november", "submarine"):
        assert (BOTS / game / "weights.json").is_file()
        assert not re.search(r"WEIGHTS\s*[:=]", (BOTS / game / "value.py").read_text())
