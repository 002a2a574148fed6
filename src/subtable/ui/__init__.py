"""The terminal table: people and bots at one game, drawn with Rich.

* :mod:`subtable.ui.table` — the game loop, the prompt and its commands;
* :mod:`subtable.ui.games` — each game's board, beside its words (:mod:`subtable.words`);
* :mod:`subtable.ui.lessons` — the lessons at the terminal.
"""
