"""The simulation lab: many seeded games, honest statistics."""

from subtable.sim.runner import GameResult, SimConfig, play_game, simulate

__all__ = ["GameResult", "SimConfig", "play_game", "simulate"]
