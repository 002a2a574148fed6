"""Helpers of the layout tests (``test_house.py``, ``test_bots_layout.py``): a source file's
module name, one import cycle of a module graph and the imports that run up its layers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from pathlib import Path


def module_name(path: Path, src: Path) -> str:
    """The dotted name of the module at ``path`` under the source root ``src``."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def find_cycle(graph: Mapping[str, Set[str]]) -> list[str] | None:
    """One import cycle (as a path of modules), or ``None``."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def package_of(module: str) -> str:
    """The first part below the root of a dotted module name (``subtable.web.app`` →
    ``web``); the root package itself stands for its own part."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def arrows_up(graph: Mapping[str, Set[str]], layers: Sequence[Set[str]]) -> list[tuple[str, str]]:
    """The imports (module, imported) of ``graph`` that run from a package up to one in a
    higher layer (``layers``: the packages, bottom-up). An import from or to a package in no
    layer counts too, so that a new package is given its place."""
    rank = {package: i for i, layer in enumerate(layers) for package in layer}
    found: list[tuple[str, str]] = []
    for module, targets in sorted(graph.items()):
        low = package_of(module)
        for target in sorted(targets):
            high = package_of(target)
            if high != low and (rank.get(high, len(layers)) > rank.get(low, -1)):
                found.append((module, target))
    return found
