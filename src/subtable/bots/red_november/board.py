"""What the expert reads: a seat's typed view, as it is.

The Red November expert works on the
:class:`~subtable.games.red_november.view.RedNovemberView` directly (``Board``
is its name here), never on a copy: the view's tuples serve as cache keys, and
what-ifs (a hatch blocked, a hatch cleared) pass their own ``blocked`` to the
routing functions instead of changing it.
"""

from __future__ import annotations

from typing import TypeAlias

from subtable.games.red_november.view import RedNovemberView

Board: TypeAlias = RedNovemberView
