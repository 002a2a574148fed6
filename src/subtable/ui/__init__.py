"""The terminal table: people and bots at one game, drawn with Rich.

* :mod:`subtable.ui.seats` — who controls which seat (``--seats``);
* :mod:`subtable.ui.undo` — how far back ``undo`` may go, and why;
* :mod:`subtable.ui.table` — the game loop, the prompt and its commands;
* :mod:`subtable.ui.games` — what each game adds: its board, names, narration.
"""
