"""Submarine's registration: its engine and, by path, every part the other layers ask for
(see :mod:`subtable.core.registry`). The one place that says where Submarine lives."""

from __future__ import annotations

from subtable.core.registry import GamePlugin

PLUGIN = GamePlugin(
    name="submarine",
    game="subtable.games.submarine.game:Submarine",
    options="subtable.games.submarine.options:OPTIONS",
    variants="subtable.games.submarine.variants:VARIANTS",
    expert="subtable.bots.submarine:SubExpert",
    ui="subtable.ui.games.submarine:SubmarineUI",
    rules="subtable.words.submarine_rules:submarine_book",
    board="subtable.web.boards.submarine:SubmarineBoard",
    encoder="subtable.rl.encode_submarine:SubmarineEncoder",
    rl="subtable.rl.encode_submarine:RL",
    metrics="subtable.sim.metrics_submarine:SubmarineMetrics",
    lessons="subtable.learn.submarine:LESSONS",
)
