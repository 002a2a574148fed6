"""The suite's markers, applied by what a test uses (see ``[tool.pytest.ini_options]``).

* ``browser``: the test drives Chromium (it asks for the ``browser`` fixture);
* ``server``: the test starts a ``subtable serve`` process or a PostgreSQL server (it asks
  for ``server``, ``servers`` or ``pg_url``);
* ``slow``: set by hand on a test that takes more than about two seconds.

``python -m pytest -m "not browser and not slow"`` is then the quick inner loop.
"""

from __future__ import annotations

import pytest

#: the fixtures that start a process a test talks to over a socket
SERVER_FIXTURES = frozenset({"server", "servers", "pg_server", "pg_url"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test by the fixtures it asks for, directly or through another fixture."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if "browser" in used:
            item.add_marker(pytest.mark.browser)
        if used & SERVER_FIXTURES:
            item.add_marker(pytest.mark.server)
