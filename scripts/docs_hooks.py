"""MkDocs hooks for the documentation site (``mkdocs.yml``: ``hooks``).

The docstrings name other objects with Sphinx roles (``:meth:`State.apply```), which the API
reference would otherwise print as they are: the role is dropped and the name kept as code.
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:attr|class|data|exc|func|meth|mod|obj):(?=<code)")


def on_page_content(html: str, **_: Any) -> str:
    """The page's HTML without Sphinx role prefixes before code spans."""
    return ROLE.sub("", html)
