"""Find the message ids a body of code asks for, by reading its syntax tree.

A call ``tr("key", …)`` or ``tr.plural("one", "other", n, …)`` names its ids
as string literals; ``tr(f"rn.item.{kind}")`` names a *family* whose members
the code's owner enumerates (see :mod:`subtable.ui.msgids`). Any other first
argument (a variable, a conditional) is reported as a violation, so that every
id stays findable.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

#: call names that take message ids: name -> how many leading arguments are ids
KEYWORDS = {"tr": 1, "plural": 2}


@dataclass(slots=True)
class Extraction:
    """The ids, the f-string families and the unreadable calls of some code."""

    ids: set[str] = field(default_factory=set)
    families: set[str] = field(default_factory=set)
    violations: list[str] = field(default_factory=list)


def _call_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def extract_source(source: str, where: str, out: Extraction | None = None) -> Extraction:
    """Add the ids of one module's source text to ``out``."""
    out = out or Extraction()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        count = KEYWORDS.get(_call_name(node) or "")
        if count is None:
            continue
        for arg in node.args[:count]:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.ids.add(arg.value)
            elif isinstance(arg, ast.JoinedStr):
                # the literal pieces of an f-string are str constants; the rest are fields
                out.families.add(
                    "".join(
                        v.value
                        if isinstance(v, ast.Constant) and isinstance(v.value, str)
                        else "{}"
                        for v in arg.values
                    )
                )
            else:
                out.violations.append(f"{where}:{node.lineno}")
    return out


def extract_paths(paths: list[Path]) -> Extraction:
    """The ids of every ``.py`` file under ``paths`` (files or folders)."""
    out = Extraction()
    for path in paths:
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            extract_source(file.read_text(encoding="utf-8"), str(file), out)
    return out
