"""Bots: policies that choose an action from a seat's observation."""

from subtable.bots.base import Bot, Observation, bot_names, make_bot, observe

__all__ = ["Bot", "Observation", "bot_names", "make_bot", "observe"]
