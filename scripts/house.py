"""The house drawn from its imports, and the route one WebSocket message takes through it.

``python scripts/house.py graph [SRC]`` draws the packages of ``subtable`` in their layers
(bottom-up, as ``tests/test_house.py`` declares them) with the imports between them, and
names any import that runs up. ``python scripts/house.py route`` plays one move at a
one-seat table through an in-process server and follows the call that handles it: the
files it passes through, how often the handling enters and leaves a file, and how often a
call runs from a lower layer into a higher one. Run it with the ``subtable`` to measure
first on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from module_graph import module_name  # type: ignore[import-not-found]  # noqa: E402

LAYERS: tuple[tuple[str, ...], ...] = (
    ("subtable", "core", "i18n", "markup"),
    ("games",),
    ("bots",),
    ("words",),
    ("learn",),
    ("ui",),
    ("sim",),
    ("web",),
    ("rl",),
    ("commands",),
    ("cli", "__main__"),
)


def layer_of(package: str) -> int:
    """The layer of a package of ``subtable`` (an unknown one: the top)."""
    return next((i for i, layer in enumerate(LAYERS) if package in layer), len(LAYERS))


def package_of(module: str) -> str:
    """``subtable.web.live`` -> ``web``; ``subtable`` -> ``subtable``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imports_of(path: Path, module: str, modules: set[str]) -> set[str]:
    """The ``subtable`` modules one file imports, wherever the statement stands."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module and name.startswith("subtable"):
                found.add(name)
    return found


def graph(src: Path) -> str:
    """The packages in their layers, top first, each with the packages it imports."""
    files = {module_name(p, src): p for p in sorted((src / "subtable").rglob("*.py"))}
    arrows: Counter[tuple[str, str]] = Counter()
    sizes: Counter[str] = Counter()
    for module, path in files.items():
        sizes[package_of(module)] += 1
        for target in imports_of(path, module, set(files)):
            a, b = package_of(module), package_of(target)
            if a != b:
                arrows[a, b] += 1
    lines: list[str] = []
    up = [(a, b, n) for (a, b), n in arrows.items() if layer_of(b) > layer_of(a)]
    for layer in reversed(LAYERS):
        for package in layer:
            if package not in sizes:
                continue
            out = sorted(
                ((b, n) for (a, b), n in arrows.items() if a == package),
                key=lambda bn: (-layer_of(bn[0]), bn[0]),
            )
            targets = ", ".join(f"{b}×{n}" for b, n in out) or "—"
            lines.append(f"{package:<9} ({sizes[package]:>3} modules) -> {targets}")
    named = ", ".join(f"{a}->{b}×{n}" for a, b, n in up)
    lines.append(f"imports up the layers: {named or 'none'}")
    return "\n".join(lines)


class Route:
    """The files a traced call passes through (``subtable`` only)."""

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.files: Counter[str] = Counter()
        self.order: list[str] = []  # the modules in the order the call first enters them
        self.crossings = 0
        self.up = 0
        self.on = False

    def _module(self, frame: FrameType) -> str | None:
        name = frame.f_globals.get("__name__", "")
        return name if isinstance(name, str) and name.startswith("subtable") else None

    def profile(self, frame: FrameType, event: str, _arg: Any) -> None:
        if not self.on or event not in ("call", "return"):
            return
        module = self._module(frame)
        if module is None:
            return
        if event == "call":
            caller = self.stack[-1] if self.stack else None
            if caller != module:
                if module not in self.files:
                    self.order.append(module)
                self.files[module] += 1
                if caller is not None:
                    self.crossings += 1
                    if layer_of(package_of(module)) > layer_of(package_of(caller)):
                        self.up += 1
            self.stack.append(module)
        elif self.stack:
            self.stack.pop()


def route() -> str:
    """Play one move at a one-seat table and follow its handling in the server."""
    from fastapi.testclient import TestClient

    from subtable.web.app import Settings, create_app

    seen = Route()
    threading.setprofile(seen.profile)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Settings(db=str(Path(tmp) / "t.sqlite3"), bot_workers=0))
        with TestClient(app) as client:
            body = {"game": "red-november", "players": 1, "seats": ["human"]}
            table = client.post("/api/tables", json=body).json()
            token = table["invites"][0]["token"]
            with client.websocket_connect("/ws") as ws:
                hello = {"v": 1, "type": "hello", "table": table["id"], "token": token}
                ws.send_text(json.dumps(hello))
                ws.receive_json()  # welcome
                state = ws.receive_json()["state"]  # sync
                first = state["legal"][0]["id"]
                act = {"v": 1, "type": "action", "seq": state["seq"], "action": first}
                seen.on = True
                ws.send_text(json.dumps(act))
                reply = ws.receive_json()
                seen.on = False
    threading.setprofile(None)
    web = [m for m in seen.order if m.startswith("subtable.web.")]
    return (
        f"reply: {reply['type']}\n"
        f"files passed through: {len(seen.files)}\n"
        f"entering or leaving a file: {seen.crossings}\n"
        f"calls from a lower layer into a higher one: {seen.up}\n"
        f"the web layer, in order: {' > '.join(m[13:] for m in web)}\n"
        + "\n".join(f"  {n:>4}  {m}" for m, n in seen.files.most_common())
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    drawn = sub.add_parser("graph", help="the packages in their layers and their imports")
    drawn.add_argument("src", nargs="?", type=Path, default=HERE.parent / "src")
    sub.add_parser("route", help="the files one WebSocket move passes through")
    args = parser.parse_args()
    print(graph(args.src) if args.what == "graph" else route())


if __name__ == "__main__":
    main()
