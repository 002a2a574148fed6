"""How to install an optional extra, said the way this copy of subtable was installed.

A copy installed from a clone (``pip install .`` or ``pip install -e .``) is told
``pip install '.[lab]'`` (with the clone's folder when it is not the current one);
a copy installed from a package index is told ``pip install 'subtable[lab]'``.
"""

from __future__ import annotations

import json
import os
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse


def _source_folder(direct_url: str | None) -> tuple[Path, bool] | None:
    """The local folder this copy was installed from and whether it is editable, else ``None``."""
    if not direct_url:
        return None
    try:
        data = json.loads(direct_url)
    except ValueError:
        return None
    url = urlparse(str(data.get("url", "")))
    if url.scheme != "file" or "dir_info" not in data:
        return None  # an index, a wheel file or a VCS URL: the package name is the way
    editable = bool(data["dir_info"].get("editable", False))
    return Path(unquote(url.path)), editable


def install_hint(extra: str, *, direct_url: str | None = None, cwd: Path | None = None) -> str:
    """``pip install '.[lab]'`` for a copy installed from a clone, else
    ``pip install 'subtable[lab]'`` (``direct_url`` and ``cwd`` are for tests)."""
    if direct_url is None:
        try:
            direct_url = metadata.distribution("subtable").read_text("direct_url.json")
        except metadata.PackageNotFoundError:
            direct_url = None
    found = _source_folder(direct_url)
    if found is None:
        return f"pip install 'subtable[{extra}]'"
    folder, editable = found
    here = Path(cwd if cwd is not None else os.getcwd())
    try:
        same = here.resolve() == folder.resolve()
    except OSError:
        same = False
    where = "." if same else str(folder)
    return f"pip install {'-e ' if editable else ''}'{where}[{extra}]'"
