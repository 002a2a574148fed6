"""A trained policy in numpy (``.npz``), as ``python -m subtable.rl.train`` exports it.

The format and its reader live in :mod:`subtable.bots.policy`, below this package, because
the ``agent`` bot plays them; this module keeps the training side's import path.
"""

from subtable.bots.policy import FORMAT, NumpyPolicy

__all__ = ["FORMAT", "NumpyPolicy"]
