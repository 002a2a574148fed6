"""Helpers of the layout tests (``test_house.py``, ``test_bots_layout.py``): a source file's
module name and one import cycle of a module graph."""

from __future__ import annotations

from collections.abc import Mapping, Set
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
