"""Submarine's options, declared for every front end (see :mod:`subtable.core.options`):
two to five captains."""

from __future__ import annotations

from subtable.core.options import OptionSpec, declare

OPTIONS = declare(
    OptionSpec(
        "players", int, 3, "number of players (2-5)", (2, 3, 4, 5), label="web.home.players"
    ),
)
