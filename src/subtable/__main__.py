"""``python -m subtable`` runs the command line."""

from subtable.cli import main

main()
