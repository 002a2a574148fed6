"""Red November's registration: its engine and, by path, every part the other layers ask for
(see :mod:`subtable.core.registry`). The one place that says where Red November lives."""

from __future__ import annotations

from subtable.core.registry import GamePlugin

PLUGIN = GamePlugin(
    name="red-november",
    game="subtable.games.red_november.game:RedNovember",
    options="subtable.games.red_november.options:OPTIONS",
    variants="subtable.games.red_november.variants:VARIANTS",
    expert="subtable.bots.red_november:RNExpert",
    ui="subtable.ui.games.red_november:RedNovemberUI",
    rules="subtable.words.red_november_rules:red_november_book",
    board="subtable.web.boards.red_november:RedNovemberBoard",
    encoder="subtable.rl.encode_red_november:RedNovemberEncoder",
    rl="subtable.rl.encode_red_november:RL",
    metrics="subtable.sim.metrics_red_november:RedNovemberMetrics",
    lessons="subtable.learn.red_november:LESSONS",
)
