"""The ``subtable`` subcommands, one module each (assembled in :mod:`subtable.cli`)."""
